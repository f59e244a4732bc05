"""Shared by the Python suite scripts: where the shared measurement tools are, and the exit
code ctest reads as "skipped"."""
import os

SKIPPED = 77


def tools_dir():
    """KIBITZ_TOOLS, else ../shared/tools next to the checkout."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("KIBITZ_TOOLS") or os.path.join(here, "..", "..", "..", "shared", "tools")
