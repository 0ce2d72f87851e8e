"""Shared fixtures: the tiny third-party game installed the way pip would install it.

The tiny game (tests/thirdparty) is made discoverable as a distribution by
copying its package next to a generated ``meeple_tiny-1.0.dist-info``
(METADATA and entry_points.txt built from its pyproject.toml) in a temporary
folder. Putting that folder on ``sys.path`` -- or on ``PYTHONPATH`` for a
subprocess -- is all it takes for ``importlib.metadata`` to find the
``meeple`` entry point, exactly as for a package installed by pip.

Tests that loop over games take a ``game_id`` argument: it is parametrized
with every game registered with the tiny game installed, so a new built-in
game (or Clonk!, once registered) is covered without touching the tests.
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from meeple.core.engine import Hooks
from meeple.core.plugins import PluginManager, Registry, plugin_manager

THIRDPARTY = Path(__file__).parent / "thirdparty"
_site: Path | None = None


def write_fake_dist(project: Path, dest: Path) -> Path:
    """Install ``project`` (a folder with pyproject.toml) into ``dest`` as pip would."""
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    meta, packages = pyproject["project"], pyproject["tool"]["setuptools"]["packages"]
    for package in packages:
        shutil.copytree(
            project / package, dest / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    name = meta["name"].replace("-", "_")
    info = dest / f"{name}-{meta['version']}.dist-info"
    info.mkdir()
    lines = ["Metadata-Version: 2.1", f"Name: {meta['name']}", f"Version: {meta['version']}"]
    lines += [f"Summary: {meta['description']}"] if "description" in meta else []
    lines += [f"Requires-Dist: {dep}" for dep in meta.get("dependencies", ())]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    groups = [
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
        for group, eps in meta.get("entry-points", {}).items()
    ]
    (info / "entry_points.txt").write_text("\n".join(groups))
    (info / "top_level.txt").write_text("\n".join(packages) + "\n")
    (info / "INSTALLER").write_text("meeple-tests\n")
    return dest


def tiny_site() -> Path:
    """The folder holding the installed tiny game (made once per test run)."""
    global _site
    if _site is None:
        _site = write_fake_dist(THIRDPARTY, Path(tempfile.mkdtemp(prefix="meeple-tiny-")))
    return _site


@contextmanager
def tiny_on_path() -> Iterator[Path]:
    site = str(tiny_site())
    sys.path.insert(0, site)
    importlib.invalidate_caches()
    try:
        yield Path(site)
    finally:
        sys.path.remove(site)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: takes several seconds (still runs by default and in CI)"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    if _site is not None:
        shutil.rmtree(_site, ignore_errors=True)


def registered_games() -> list[str]:
    """Ids of every game registered with the tiny game installed."""
    with tiny_on_path():
        return sorted(Registry(plugin_manager(entry_points=True)).games)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_id" in metafunc.fixturenames:
        metafunc.parametrize("game_id", registered_games())


@pytest.fixture
def tiny_path(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Install the tiny game for this test: on ``sys.path``, and ``PYTHONPATH`` for subprocesses."""
    site = tiny_site()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.delenv("MEEPLE_NO_ENTRYPOINTS", raising=False)
    monkeypatch.delenv("MEEPLE_DISABLE_PLUGINS", raising=False)
    return site


@pytest.fixture
def pm(tiny_path: Path) -> PluginManager:
    """A plugin manager with the built-in plugins and the installed tiny game."""
    return plugin_manager(entry_points=True)


@pytest.fixture
def registry(pm: PluginManager) -> Registry:
    return Registry(pm)


@pytest.fixture
def hooks(pm: PluginManager) -> Hooks:
    return Hooks(pm)
