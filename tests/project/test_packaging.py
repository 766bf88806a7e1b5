"""The wheel ships resources/, and the dependency spec keeps PySide6 6.12 off CPython 3.11."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

from tensorviz.resource_files import resource_path, resources_dir

ROOT = Path(__file__).resolve().parents[2]


def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_built_wheel_contains_resources(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "hatchling",
            "build",
            "--target",
            "wheel",
            "--directory",
            str(tmp_path),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("tensorviz-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tensorviz/resources/icons/tensorviz.svg" in names
    assert "tensorviz/resources/themes/app.qss" in names
    assert "tensorviz/core/environment.py" in names
    assert "tensorviz_on_error.pth" in names  # at site-packages' top: TENSORVIZ_ON_ERROR=1
    entry_points = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith("entry_points.txt")))
        .decode()
    )
    assert "tensorviz = tensorviz.app:main" in entry_points


def test_resources_are_found_relative_to_the_package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # never the current directory
    assert resource_path("icons", "tensorviz.svg").is_file()
    assert resources_dir().is_absolute()


def _pyside_requirements():
    deps = [Requirement(d) for d in pyproject()["project"]["dependencies"]]
    return [r for r in deps if r.name.lower() == "pyside6-essentials"]


def _allowed(version: str, python: str) -> bool:
    env = dict(default_environment(), python_version=python, python_full_version=f"{python}.0")
    active = [r for r in _pyside_requirements() if r.marker is None or r.marker.evaluate(env)]
    return bool(active) and all(r.specifier.contains(version, prereleases=True) for r in active)


def test_pyside_6_12_cannot_be_installed_on_python_3_11():
    assert not _allowed("6.12.0", "3.11")
    assert _allowed("6.11.3", "3.11")
    assert _allowed("6.12.0", "3.12") and _allowed("6.12.0", "3.13")


def test_lock_pins_what_was_tested():
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    assert pins["torch"] == "2.13.0"  # the CPU wheel on these machines
    assert _allowed(pins["pyside6-essentials"], f"{sys.version_info[0]}.{sys.version_info[1]}")
    runtime = [Requirement(d).name.lower() for d in pyproject()["project"]["dependencies"]]
    assert set(runtime) <= set(pins)


def test_lock_is_complete_for_this_environment():
    """Every installed distribution is pinned, so a fresh `make test` gets exactly this set."""
    from importlib import metadata

    pinned = {
        line.split("==")[0].strip().lower().replace("_", "-")
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    }
    installed = {d.metadata["Name"].lower().replace("_", "-") for d in metadata.distributions()}
    tooling = {"pip", "setuptools", "wheel", "tensorviz"}
    assert installed - tooling - pinned == set()
