"""Bot options on the command line (``--seats ismcts:iterations=5``) and in the files kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from typer.testing import Result

from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry
from meeple.core.runner import GameResult, Header

Invoke = Callable[..., Result]


def test_simulate_runs_and_records_bots_with_options(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    args = ["simulate", "tiny", "-n", "3", "--seats", "ISMCTS:iterations=5,random", "--rotate"]
    result = cli(*args, "--jsonl", str(out), "--quiet", "--json")
    assert result.exit_code == 0, result.output
    names = [bot["name"] for bot in json.loads(result.stdout)["bots"]]
    assert names == ["ismcts:iterations=5", "random"]  # the by-bot summary names it as written
    header, *lines = out.read_bytes().splitlines()
    assert msgspec.json.decode(header, type=Header).run.bots == ["ismcts:iterations=5", "random"]
    games = [msgspec.json.decode(line, type=GameResult) for line in lines]
    assert games[1].seats == ["random", "ismcts:iterations=5"]
    again = tmp_path / "again.jsonl"
    assert cli(*args, "--jsonl", str(again), "--quiet").exit_code == 0
    assert again.read_bytes() == out.read_bytes()  # an iteration budget is deterministic


def test_a_tournament_rates_bots_with_options(cli: Invoke) -> None:
    args = ["tournament", "tiny", "--bots", "random,ISMCTS:iterations=5", "-n", "2", "--json"]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    ratings = json.loads(result.stdout)["ratings"]
    assert sorted(r["bot"] for r in ratings) == ["ismcts:iterations=5", "random"]
    twice = cli("tournament", "tiny", "--bots", "ismcts:iterations=5,ismcts: iterations=5")
    assert twice.exit_code == 1 and "ismcts:iterations=5 twice" in twice.stderr


def test_a_bad_option_is_one_line_naming_bot_and_option(cli: Invoke) -> None:
    for seats, message in [
        ("ismcts:iterations=-2,random", "bot 'ismcts', option iterations=-2: Expected `int` >= 1"),
        ("ismcts:speed=3,random", "bot 'ismcts' has no option 'speed'; its options: iterations"),
        ("random:iterations=3,random", "bot 'random' takes no options"),
        (
            "ismcts:reward=bogus,random",
            "option reward=bogus: Invalid enum value 'bogus'; reward is one of: rank, win",
        ),
    ]:
        for command in ("simulate", "play", "tournament"):
            flag = "--bots" if command == "tournament" else "--seats"
            result = cli(command, "tiny", flag, seats)
            assert result.exit_code == 1, (command, seats)
            assert result.stderr == f"error: {result.stderr.removeprefix('error: ')}"
            assert message in result.stderr and result.stderr.count("\n") == 1


def played_and_saved(cli: Invoke, tmp_path: Path, game_id: str, seats: str) -> tuple[Path, Any]:
    """The record of a game of seed 3 played by ``seats`` and saved, with its path."""
    game = tmp_path / "game.json"
    played = cli(
        "play", game_id, "--seats", seats, "--seed", "3", "--save", str(game), "--quiet"
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    return game, json.loads(game.read_text())


def test_a_record_keeps_the_options_and_resumes_with_them(
    cli: Invoke, registry: Registry, tmp_path: Path
) -> None:
    game, record = played_and_saved(cli, tmp_path, "tiny", "ismcts:iterations=4:reward=rank,random")
    assert record["setup"]["seats"] == ["ismcts:iterations=4:reward=rank", "random"]
    assert cli("validate", str(game)).exit_code == 0
    assert cli("replay", str(game)).exit_code == 0

    # The same game cut short resumes with the bots as recorded (their streams start afresh).
    actions = record["actions"]
    tiny = registry.game("tiny")()
    match = Match.new(tiny, 2, 3, Hooks(None))
    for action in msgspec.convert(actions[:2], list[tiny.action_type]):
        match.step(action)
    record.update(actions=actions[:2], over=False, scores=None, digest=tiny.digest(match.state))
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record))
    resumed = cli("play", "--resume", str(cut), "--quiet")
    assert resumed.exit_code == 0, resumed.output
    finished = json.loads(cut.read_text())
    assert finished["over"] and finished["actions"][:2] == actions[:2]
    assert finished["setup"]["seats"] == record["setup"]["seats"]


def test_a_record_with_a_bad_bot_option_is_refused(cli: Invoke, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert cli("play", "tiny", "--seats", "random,random", "--save", str(game)).exit_code == 0
    record = json.loads(game.read_text())
    record["setup"]["seats"][0] = "ismcts:iterations=many"
    game.write_text(json.dumps(record))
    result = cli("validate", str(game))
    assert result.exit_code == 1
    assert "$.setup.seats[0]: bot 'ismcts', option iterations=many: Expected `int`" in (
        result.output
    )


def test_a_record_names_the_games_own_search_settings(cli: Invoke, tmp_path: Path) -> None:
    """Clonk! fills in its search's settings (``Clonk.bot_options``): the record names them,
    so it says what was played whatever the game's settings become."""
    game, record = played_and_saved(cli, tmp_path, "clonk", "ismcts:iterations=3,random")
    seats = record["setup"]["seats"]
    assert seats == ["ismcts:iterations=3:depth=8:reuse=true", "random"]
    assert cli("validate", str(game)).exit_code == 0
