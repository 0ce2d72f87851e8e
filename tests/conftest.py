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
from typer.testing import CliRunner

from meeple.cli.app import make_app
from meeple.core import records
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import PluginManager, Registry, plugin_manager
from meeple.core.rng import Stream

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


def played(
    registry: Registry, game_id: str, seats: int = 2, seed: int = 1, steps: int | None = None
):
    """A match of random bots (stopped after ``steps`` actions if given) and its setup."""
    game = registry.game(game_id)()
    match = Match.new(game, seats, seed, Hooks(None))
    chooser = Stream(f"tests/{seed}")
    while not match.over and (steps is None or len(match.actions) < steps):
        match.step(chooser.choice(match.legal()))
    setup = records.Setup(
        game=game.id,
        version=game.version,
        seats=["random"] * seats,
        seed=seed,
        options=game.options,
    )
    return match, setup


@pytest.fixture
def save(registry: Registry, tmp_path: Path):
    """``save(kind, game_id="tiny", steps=None, seats=2, seed=1)``: a record or snapshot file."""

    def save(kind: str = "record", game_id: str = "tiny", **kw: int | None) -> Path:
        match, setup = played(registry, game_id, **kw)
        if kind == "record":
            value: object = records.Record(
                setup=setup,
                actions=match.actions,
                over=match.over,
                digest=match.game.digest(match.state),
                scores=match.scores() if match.over else None,
            )
        else:
            value = records.Snapshot(setup=setup, step=len(match.actions), state=match.state)
        path = tmp_path / f"{game_id}-{kind}-{len(list(tmp_path.iterdir()))}.json"
        records.write_atomic(path, records.encode(value))
        return path

    return save


@pytest.fixture
def cli(pm: PluginManager):
    """``cli(*args)``: run the meeple app in-process; returns the click result."""
    runner = CliRunner()

    def run(*args: str):
        result = runner.invoke(make_app(pm), [str(a) for a in args])
        # Only a clean exit is acceptable: a traceback is a bug whatever the input.
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return run
