"""A game on the Clank! engine from a package of its own, installed as a distribution.

``tests/thirdparty/shrines`` is the package docs/clank-engine.md shows: its own effect,
its own ``turn_ended`` hook, its own ``cards.json`` (read through its package's anchor,
the rest of its tables from its base's) and the engine's ``heuristic`` bot, registered
once for every game on the board. It is installed here as pip would install it, and
checked as its author would check it: ``meeple check``, a saved game, and mypy.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from meeple.core.errors import ContentError
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import tables
from meeple.plugins.clank.rules import Clank

PROJECT = Path(__file__).parent / "thirdparty" / "shrines"
DOCS = Path(__file__).parents[1] / "docs" / "clank-engine.md"
Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def site(shrines_site: Path) -> Path:
    return shrines_site


@pytest.fixture
def shrines(site: Path, monkeypatch: pytest.MonkeyPatch):  # -> the package's module
    monkeypatch.syspath_prepend(str(site))
    import meeple_shrines

    return meeple_shrines


@pytest.fixture
def meeple(site: Path, tmp_path: Path) -> Run:
    def run(*args: object) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(site)}
        env.pop("MEEPLE_NO_ENTRYPOINTS", None)
        result = subprocess.run(
            [sys.executable, "-m", "meeple.cli", *map(str, args)],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
        )  # fmt: skip
        assert "Traceback" not in result.stderr, result.stderr
        return result

    return run


def test_its_card_table_comes_from_its_package_and_the_rest_from_clank_s(shrines) -> None:
    game = shrines.Shrines()
    sidestep = game.cat.kinds["sidestep"]
    assert sidestep.play[0].options[1] == [shrines.Blessing()]
    assert game.cat.tables == Clank().cat.tables  # tokens.json: Clank!'s
    schema = shrines.Shrines._schema()
    assert [str(t) for t in schema.tables_from] == [
        str(Path(shrines.__file__).parent),
        str(Path(Clank._schema().tables_from[0])),
    ]


def test_a_table_found_in_no_package_is_one_clear_error(shrines) -> None:
    class Lost(shrines.Shrines):
        id = "lost"
        title = "Lost"
        tables_from = shrines.Shrines.tables_from / "nowhere"

    schema = dataclasses.replace(Lost._schema(), tables_from=Lost._schema().tables_from[:1])
    with pytest.raises(ContentError, match=r"^Lost has no table cards\.json in its package$"):
        tables.read_tables(schema)


def test_a_seat_ending_its_turn_in_a_crystal_cave_is_blessed(shrines) -> None:
    game = shrines.Shrines()
    state = game.setup(2, 1)
    p = state.players[0]
    p.room = min(game.graph(state).caves)
    p.supply -= 2
    p.damage = 2
    events: list = []
    game.turn_ended(state, 0, events)
    assert p.damage == 1 and p.gold == 0
    p.room = game.graph(state).start
    game.turn_ended(state, 0, events)
    assert p.damage == 1


def test_a_blessing_is_its_own_effect(shrines) -> None:
    game = shrines.Shrines()
    state = game.setup(2, 1)
    game.bless(state, 0, shrines.Blessing(), None, [])
    assert state.players[0].gold == 2
    assert shrines.Blessing not in Clank._schema().effects
    assert isinstance(shrines.Blessing(), fx.Effect)


def test_it_passes_meeple_check_and_plays_with_the_engine_s_bot(meeple: Run, tmp_path) -> None:
    checked = meeple("check", "clank-shrines", "-n", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout
    played = meeple("play", "clank-shrines", "--seats", "bot,bot", "--seed", "3", "--save", "g")
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "g").read_text())
    assert record["setup"]["seats"] == ["heuristic", "heuristic"] and record["over"]
    validated = meeple("validate", "g")
    assert validated.returncode == 0 and "OK" in validated.stdout, validated.stdout


def test_it_passes_mypy_strict_with_no_exemptions(site: Path, tmp_path: Path) -> None:
    """The package alone, ``--strict``; meeple is read as an installed package is (its own
    errors are its own business: mypy reports none of an installed package's)."""
    api = pytest.importorskip("mypy.api")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n[mypy-meeple.*]\nignore_errors = True\n")
    root = Path(__file__).parents[1]
    meeple_root = tmp_path / "src"
    meeple_root.mkdir()
    (meeple_root / "meeple").symlink_to(root, target_is_directory=True)
    os.environ["MYPYPATH"] = str(meeple_root)
    try:
        out, err, status = api.run(
            ["--config-file", str(config), "--strict", "--no-incremental",
             str(site / "meeple_shrines")]
        )  # fmt: skip
    finally:
        del os.environ["MYPYPATH"]
    assert status == 0, out + err


def test_the_docs_example_is_the_package_s_code() -> None:
    """Each block docs/clank-engine.md shows from the package is in the package as shown."""
    code = (PROJECT / "meeple_shrines" / "__init__.py").read_text()
    source = re.escape("(`tests/thirdparty/shrines/meeple_shrines/__init__.py`):")
    shown = re.findall(source + r"\n\n```python\n(.*?)```", DOCS.read_text(), re.S)
    assert len(shown) >= 2
    for block in shown:
        assert block in code, block
