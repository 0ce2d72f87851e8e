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
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import compare, simulate, tournament
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


@pytest.fixture(scope="session")
def shrines_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the installed Clank! with shrines (tests/thirdparty/shrines), a game
    on the Clank! engine kept apart from the games every ``game_id`` test plays."""
    return write_fake_dist(THIRDPARTY / "shrines", tmp_path_factory.mktemp("meeple-shrines"))


@pytest.fixture
def tiny_path(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Install the tiny game for this test: on ``sys.path``, and ``PYTHONPATH`` for subprocesses."""
    site = tiny_site()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.delenv("MEEPLE_NO_ENTRYPOINTS", raising=False)
    return site


@pytest.fixture
def run(tiny_path: Path, tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run(*args, env=None)``: run ``meeple`` in a new interpreter, in ``tmp_path``."""

    def meeple(
        *args: object, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "-m", "meeple.cli", *map(str, args)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "COLUMNS": "200", **(env or {})},
            timeout=120,
        )
        assert "Traceback" not in result.stderr, result.stderr
        return result

    return meeple


@pytest.fixture
def install_plugin(
    tiny_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str, str], None]]:
    """``install_plugin(name, source)``: a distribution ``meeple-<name>`` whose module
    ``meeple_<name>`` holds ``source`` and is the ``meeple`` entry point ``name``.

    It is installed next to the tiny game, on ``sys.path`` and on
    ``PYTHONPATH`` for the subprocesses of :func:`run`.
    """
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), str(tiny_path)]))
    modules: list[str] = []

    def install(name: str, source: str) -> None:
        module = f"meeple_{name}"
        project = tmp_path / "projects" / name
        (project / module).mkdir(parents=True)
        (project / module / "__init__.py").write_text(source)
        (project / "pyproject.toml").write_text(
            f'[project]\nname = "meeple-{name}"\nversion = "1.0"\n\n'
            f'[project.entry-points.meeple]\n{name} = "{module}"\n\n'
            f'[tool.setuptools]\npackages = ["{module}"]\n'
        )
        write_fake_dist(project, site)
        importlib.invalidate_caches()
        modules.append(module)

    yield install
    for module in modules:
        sys.modules.pop(module, None)


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
def one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate``, ``compare`` and ``tournament`` run in-process play in this process unless
    given ``-w``: a pool of workers costs about 1.5 s to start, and the games are the same
    bytes for any number of workers (the tests that give ``-w 2`` check that)."""
    for command in (simulate, compare, tournament):
        monkeypatch.setattr(command, "local_workers", lambda asked: asked or 1)


@pytest.fixture
def cli(pm: PluginManager, one_worker: None):
    """``cli(*args)``: run the meeple app in-process (see :func:`one_worker`); returns the
    click result."""
    runner = CliRunner()

    def run(*args: str):
        result = runner.invoke(make_app(pm), [str(a) for a in args])
        # Only a clean exit is acceptable: a traceback is a bug whatever the input.
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return run
