"""The built wheel holds every package and every seeds/ data file, under its meeple.* name.

setuptools neither recurses into ``package-dir`` mappings nor warns about a
forgotten sub-package, so pyproject.toml lists each one; this test builds
the real wheel and compares it with the folders on disk.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {
    "core": "meeple.core",
    "cli": "meeple.cli",
    "plugins": "meeple.plugins",
    "seeds": "meeple.seeds",
}


def packages_on_disk() -> set[str]:
    found = set()
    for folder, name in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            if "__pycache__" not in parts:
                found.add(".".join((name, *parts)))
    return found


def data_files() -> set[str]:
    seeds = ROOT / "seeds"
    return {
        "meeple/seeds/" + p.relative_to(seeds).as_posix()
        for pattern in ("*.json", "*.md")
        for p in seeds.rglob(pattern)
    }


def test_pyproject_lists_every_package():
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert sorted(listed) == sorted(packages_on_disk())


@pytest.mark.slow
def test_the_wheel(tmp_path):
    """Every package, every data file and the console script, from one build.

    One test, not one per check: pytest-xdist would spread the checks over its
    workers, each building the wheel again, at once, in the same build/ folder
    of the source tree (pip builds in place).
    """
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
        ],
        check=True,
        timeout=300,
    )
    (built,) = tmp_path.glob("meeple-*.whl")
    wheel = zipfile.ZipFile(built)
    names = set(wheel.namelist())
    for package in packages_on_disk():
        assert package.replace(".", "/") + "/__init__.py" in names, f"{package} is not in the wheel"
    assert not [n for n in names if n.split("/")[0] in {"core", "cli", "plugins", "seeds", "tests"}]

    assert data_files(), "seeds/ holds no data files: is the test looking in the right place?"
    missing = data_files() - names
    assert not missing, f"seed data missing from the wheel: {sorted(missing)}"

    templates = {f"meeple/cli/template/{p.name}" for p in (ROOT / "cli/template").glob("*.tmpl")}
    assert templates, "cli/template holds no templates: is the test looking in the right place?"
    assert not templates - names, f"`meeple new` templates missing: {sorted(templates - names)}"
    assert "meeple/cli/pages/report.html.j2" in names, "`meeple report`'s page is missing"

    page = {f"meeple/cli/web/{p.name}" for p in (ROOT / "cli/web").iterdir()}
    assert page, "cli/web holds no files: is the test looking in the right place?"
    assert not page - names, f"the page of `meeple host` is missing: {sorted(page - names)}"

    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "meeple = meeple.cli.app:main" in wheel.read(entry_points).decode()
