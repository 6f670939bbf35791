"""
The SDK's own PEP 517 build backend (pyproject.toml: `backend-path = ["_build"]`), standard
library only, so that `pip install ./sdk-python` works on a machine with no package index: a
backend named in `requires` (setuptools, flit_core, hatchling) has to be downloaded into pip's
isolated build environment first, and `--no-build-isolation` needs setuptools and wheel already
installed, which a bare python3 does not have. The SDK is pure Python with no dependencies, so
its wheel is a zip of the `edgeshot` package and a `.dist-info` (PEP 427, core metadata 2.1).

Hooks: build_wheel, build_sdist, build_editable (PEP 660: a `.pth` pointing at this tree).
The metadata is read from pyproject.toml's [project] table: one `key = "value"`,
`key = ["a", "b"]` or `key = { text = "value" }` per line (tomllib is only in Python ≥ 3.11; the SDK supports 3.9).
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "edgeshot"
TAG = "py3-none-any"


def _project() -> Dict[str, Union[str, List[str]]]:
    """pyproject.toml's [project] table: its one-line string and string-list values."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if table is None:
        raise RuntimeError("pyproject.toml has no [project] table")
    values: Dict[str, Union[str, List[str]]] = {}
    for key, raw in re.findall(r"^([A-Za-z-]+)\s*=\s*(.+?)\s*$", table.group(1), re.M):
        if raw.startswith('"'):
            values[key] = raw[1:-1]
        elif raw.startswith("["):
            values[key] = re.findall(r'"([^"]*)"', raw)
        elif raw.startswith("{"):  # license = { text = "..." }
            values[key] = re.findall(r'"([^"]*)"', raw)[0]
    return values


def _metadata() -> str:
    project = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']}",
    ]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines.append("Description-Content-Type: text/markdown")
    readme = (ROOT / str(project["readme"])).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _dist_name() -> str:
    project = _project()
    return f"{project['name']}-{project['version']}"


def _package_files() -> List[Path]:
    """The package's modules and py.typed, in a stable order (no caches)."""
    return sorted(
        p
        for p in (ROOT / PACKAGE).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory: str, files: List[Tuple[str, bytes]]) -> str:
    """A wheel of `files` (archive name, bytes) plus its .dist-info; returns its file name."""
    dist_info = f"{_dist_name()}.dist-info"
    files = files + [
        (f"{dist_info}/METADATA", _metadata().encode()),
        (
            f"{dist_info}/WHEEL",
            f"Wheel-Version: 1.0\nGenerator: edgeshot_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode(),
        ),
    ]
    record = [_record_line(name, data) for name, data in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    wheel_name = f"{_dist_name()}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    return wheel_name


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Dict[str, str]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    files = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in _package_files()]
    return _write_wheel(wheel_directory, files)


def build_editable(
    wheel_directory: str,
    config_settings: Optional[Dict[str, str]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    return _write_wheel(wheel_directory, [(f"{PACKAGE}.pth", f"{ROOT}\n".encode())])


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, str]] = None) -> str:
    base = _dist_name()
    sources = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__).resolve()]
    sources += _package_files()
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path in sources:
            tar.add(path, arcname=f"{base}/{path.relative_to(ROOT).as_posix()}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
