"""`pip install .`'s build backend (python/kibitz_build.py) makes a wheel of the module."""
import base64
import csv
import hashlib
import io
import os
import pathlib
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_build_wheel(tmp_path):
    release = ROOT / "build" / "release"
    module_dir = pathlib.Path(__import__("kibitz").__file__).resolve().parent
    if not (release / "build.ninja").exists() or release / "python" / "kibitz" != module_dir:
        pytest.skip("the module under test is not build/release's (the backend would build one)")
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        pytest.skip("not Debian's python3 (the backend would configure a build of its own)")
    sys.path.insert(0, str(ROOT / "python"))
    try:
        import kibitz_build
    finally:
        sys.path.pop(0)
    name = kibitz_build.build_wheel(str(tmp_path))
    assert name.startswith("kibitz-") and name.endswith(".whl")
    with zipfile.ZipFile(tmp_path / name) as z:
        names = z.namelist()
        assert "kibitz/__init__.py" in names and "kibitz/__init__.pyi" in names
        assert any(n.startswith("kibitz/_kibitz") and n.endswith(".so") for n in names)
        info = [n for n in names if n.endswith(".dist-info/RECORD")]
        assert len(info) == 1
        # Every file's hash in RECORD is right: pip refuses a wheel where one is not.
        for row in csv.reader(io.StringIO(z.read(info[0]).decode())):
            if row[1]:
                digest = base64.urlsafe_b64encode(hashlib.sha256(z.read(row[0])).digest())
                assert row[1] == "sha256=" + digest.rstrip(b"=").decode(), row[0]
