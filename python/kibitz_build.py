"""The build backend of `pip install .` (PEP 517), in the repository so that it needs nothing
from the network: CMake builds the module, and this packs it into a wheel.

For Debian's /usr/bin/python3 (or a venv made from it) the build is the release preset's,
build/release (after `make python` it is already there); for another interpreter a build
of its own, build/wheel-<tag>, configured for that interpreter.
"""
import base64
import csv
import hashlib
import io
import os
import pathlib
import re
import subprocess
import sys
import sysconfig
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
NAME = "kibitz"


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(kibitz VERSION ([0-9.]+)", text).group(1)


def _tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{platform}"


def _build():
    """Builds the module; returns the folder holding the package kibitz/."""
    debian = pathlib.Path("/usr/bin/python3")
    if debian.exists() and os.path.realpath(sys.executable) == os.path.realpath(debian):
        build = ROOT / "build" / "release"
        if not (build / "build.ninja").exists():
            subprocess.run(["cmake", "--preset", "release"], cwd=ROOT, check=True)
    else:
        build = ROOT / "build" / f"wheel-{_tag()}"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DKIBITZ_TESTS=OFF", "-DKIBITZ_BENCH=OFF",
                        f"-DPython_EXECUTABLE={sys.executable}"], check=True)
    jobs = str(os.cpu_count() or 2)
    subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", "kibitz_python"],
                   check=True)
    return build / "python"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Kibitz's games and engines from Python (chess, gomoku, Go, Hearts)\n"
            "Requires-Python: >=3.9\nRequires-Dist: numpy\n")


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    folder = pathlib.Path(metadata_directory) / _dist_info()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "METADATA").write_text(_metadata())
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    source = _build() / NAME
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    files = {}
    for path in sorted(source.iterdir()):
        if path.is_file() and path.suffix in (".py", ".pyi", ".so", ".typed"):
            files[f"{NAME}/{path.name}"] = path.read_bytes()
    info = _dist_info()
    files[f"{info}/METADATA"] = _metadata().encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: kibitz_build\n"
                              f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode()
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel_name, "w",
                         zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return wheel_name
