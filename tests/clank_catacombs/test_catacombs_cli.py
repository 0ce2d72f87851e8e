"""The command line on Clank! Catacombs: play, simulate, replay, validate, schema, options."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import PluginManager
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import Explore, Rotate

GAME = "clank-catacombs"
Invoke = Callable[..., Result]


@pytest.fixture
def cli(pm: PluginManager, one_worker: None) -> Invoke:
    """``cli("play", GAME, input="1\\n")``: the whole app, with typed input for human seats
    (see ``one_worker``)."""
    app = make_app(pm)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        result = runner.invoke(app, [str(a) for a in args], input=input)
        # A traceback is a bug whatever the input.
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return invoke


@pytest.fixture
def record(cli: Invoke, tmp_path: Path) -> Path:
    """A whole 2-seat bot game saved as a record."""
    path = tmp_path / "game.json"
    result = cli("play", GAME, "--seats", "random,random", "--seed", "5", "--save", path, "--quiet")
    assert result.exit_code == 0, result.output
    return path


def test_bots_play_to_the_end(cli: Invoke) -> None:
    args = ("play", GAME, "--seats", "bot,random,bot", "--seed", "3")
    result = cli(*args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Clank! Catacombs, seats: 0 ")
    assert "round 1" in out and "seat 0 plays " in out and "ends the turn" in out
    assert "Clank! Catacombs: final scores" in out
    for column in ("seat", "player", "gold", "total", "place", "★"):
        assert column in out
    assert cli(*args).stdout == out  # the same seed plays the same game


def discovering_input(seed: int) -> tuple[str, Rotate]:
    """What two humans type to reach a discovery and turn the tile: an exploring move as
    soon as one is legal, then its last rotation; otherwise the first action. Ends with
    ``q`` and an empty answer to the save question."""
    game = CatacombsGame()
    match = Match.new(game, 2, seed, Hooks(None))
    answers = []
    while not match.over:
        legal = match.legal()
        rotations = [a for a in legal if isinstance(a, Rotate)]
        explores = [a for a in legal if isinstance(a, Explore)]
        choice = rotations[-1] if rotations else explores[0] if explores else legal[0]
        answers.append(str(legal.index(choice) + 1))
        match.step(choice)
        if rotations:
            return "\n".join([*answers, "q", ""]) + "\n", choice
    raise AssertionError(f"seed {seed}: no discovery before the game ended")


def test_a_human_discovers_and_turns_a_tile(cli: Invoke) -> None:
    typed, rotation = discovering_input(1)
    result = cli("play", GAME, "--seats", "human,human", "--seed", "1", input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The view: the tile grid, room ids, the current room and its exits with their cost.
    assert "Dungeon" in out and "tile 0 start-" in out and "room 0 (start-" in out
    assert "You are in room 0 (start-" in out and "│ room 1 (start-" in out and "boot" in out
    assert "your choice [1-" in out
    # Discovery shows the drawn tile, then offers every rotation as a numbered action.
    assert "Drawn: tile light-" in out and "(unturned;" in out
    for turn in range(4):
        assert f". place the tile turned {turn} quarter turns" in out
    assert "places tile light-" in out and f"turned {rotation.turn}" in out
    assert "tile 1 light-" in out  # the placed tile joins the grid
    assert "Save to which file?" in out


def test_input_ending_mid_game_exits_130(cli: Invoke) -> None:
    result = cli("play", GAME, "--seats", "human,bot", "--seed", "1", input="1\n")
    assert result.exit_code == 130
    assert "input ended" in result.stderr


def test_simulate_jsonl_is_the_same_bytes_twice(cli: Invoke, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert cli("simulate", GAME, "-n", "5", "--jsonl", first).exit_code == 0
    assert cli("simulate", GAME, "-n", "5", "--jsonl", second, "--quiet").exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    header, *games = [json.loads(line) for line in first.read_bytes().splitlines()]
    assert header["run"]["game"] == GAME
    assert [g["seed"] for g in games] == list(range(5))
    assert all(len(g["seats"]) == 4 and len(g["scores"]) == 4 for g in games)


def test_replay_and_validate_a_saved_record(cli: Invoke, record: Path) -> None:
    replay = cli("replay", record)
    assert replay.exit_code == 0, replay.output
    steps = len(json.loads(record.read_text())["actions"])
    assert replay.stdout.startswith(f"Clank! Catacombs: 2 seats (random, random), seed 5, {steps}")
    assert f"{steps:>4}. seat " in replay.stdout and "Scores" in replay.stdout
    valid = cli("validate", record)
    assert valid.exit_code == 0, valid.output
    assert valid.stdout.startswith("OK") and GAME in valid.stdout


def test_a_tampered_record_is_invalid(cli: Invoke, record: Path) -> None:
    data = json.loads(record.read_text())
    data["actions"][0] = {"type": "play", "card": "burgle-s1-0"}  # seat 1's card, on seat 0's turn
    record.write_text(json.dumps(data))
    result = cli("validate", record)
    assert result.exit_code == 1, result.output
    assert "INVALID" in result.stdout and "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["record", "snapshot"])
def test_schema_of_each_file_kind(cli: Invoke, kind: str) -> None:
    result = cli("schema", GAME, "--kind", kind)
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert schema["title"].startswith(f"Clank! Catacombs {kind}")
    text = result.stdout
    assert "start_side" in text and "no_fit" in text
    if kind == "snapshot":
        assert "clank-catacombs" in text and "tile_stack" in text


def test_game_options_as_flags(cli: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ("play", GAME, "--seats", "bot,bot", "--seed", "2", "--quiet", "--save", path)
    result = cli(*args, "--start-side", "a", "--no-fit", "discard")
    assert result.exit_code == 0, result.output
    options = json.loads(path.read_text())["setup"]["options"]
    assert options["start_side"] == "a" and options["no_fit"] == "discard"
    assert cli("validate", path).exit_code == 0
    # The flag and --option are the same thing.
    by_option = tmp_path / "by-option.json"
    args = ("play", GAME, "--seats", "bot,bot", "--seed", "2", "--quiet", "--save", by_option)
    assert cli(*args, "-o", "start_side=a", "-o", "no_fit=discard").exit_code == 0
    assert json.loads(by_option.read_text()) == json.loads(path.read_text())


def test_a_bad_option_value_exits_1(cli: Invoke) -> None:
    result = cli("play", GAME, "--seats", "bot,bot", "--start-side", "c")
    assert result.exit_code == 1
    assert "start_side" in result.stderr and "'c'" in result.stderr
    assert "Traceback" not in result.output
