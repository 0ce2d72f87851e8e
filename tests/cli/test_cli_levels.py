"""Levels on the command line (``--seats human,bot:easy,bot:hard``) and ``meeple games --bots``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from meeple.cli import arguments
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry

Invoke = Callable[..., Result]


def test_a_level_is_written_as_the_bot_it_plays(registry: Registry) -> None:
    """Wherever a bot is named (``--seats``, ``--bots``, ``join --bot``, ``host --fallback``)."""
    hard = registry.level("clonk", "hard").bot
    names = arguments.player_names(
        registry, "clonk", "bot:easy, BOT:Hard ,bot,bot:depth=3", "--bot"
    )
    assert names == ["random", hard, "greedy", "greedy:depth=3"]


def test_a_record_names_the_bot_a_level_played(cli: Invoke, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    played = cli(
        "play", "clonk", "--seats", "bot:easy,Bot:Medium", "--seed", "2", "--save", str(game),
        "--quiet",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert json.loads(game.read_text())["setup"]["seats"] == ["random", "greedy"]
    assert cli("validate", str(game)).exit_code == 0


def test_simulate_compare_and_tournament_take_levels(cli: Invoke) -> None:
    seats = ["--seats", "bot:medium,bot:easy"]
    result = cli("simulate", "clonk", "-n", "2", *seats, "--quiet", "--json")
    assert result.exit_code == 0, result.output
    assert [b["name"] for b in json.loads(result.stdout)["bots"]] == ["greedy", "random"]
    variants = ["--variant", "hand_limit=5", "--variant", "hand_limit=4"]
    result = cli("compare", "clonk", "-n", "1", *seats, *variants, "--quiet", "--json")
    assert result.exit_code == 0, result.output
    result = cli("tournament", "tiny", "--bots", "bot:easy,bot:medium", "-n", "2", "--json")
    assert result.exit_code == 0, result.output
    assert sorted(r["bot"] for r in json.loads(result.stdout)["ratings"]) == ["ismcts", "random"]


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "tournament"])
def test_an_unknown_level_is_one_line_listing_the_levels(cli: Invoke, command: str) -> None:
    flag = "--bots" if command == "tournament" else "--seats"
    for seats, message in [
        (
            "bot:expert,random",
            "'bot:expert': no level 'expert' in clonk; its levels: easy (random)",
        ),
        ("bot:easy:depth=2,random", "'bot:easy:depth=2': a level names a whole bot"),
    ]:
        variants = ["--variant", "hand_limit=4", "--variant", "hand_limit=5"]
        result = cli(command, "clonk", flag, seats, *(variants if command == "compare" else ()))
        assert result.exit_code == 1, (command, result.output)
        assert result.stderr.startswith(f"error: {flag} {message}"), result.stderr
        assert result.stderr.count("\n") == 1


def test_a_level_refused_in_the_library_too(registry: Registry) -> None:
    with pytest.raises(MeepleError, match=r"hard \(ismcts"):
        registry.level("clonk", "expert")


def test_games_lists_bots_and_levels(cli: Invoke, registry: Registry) -> None:
    result = cli("games", "--bots")
    assert result.exit_code == 0, result.output
    assert "\\x0a" not in result.stdout  # the caption's lines are lines, not escapes
    out = " ".join(result.stdout.split())  # rows folded at the width read as one line
    assert "Clonk!: levels" in out and "bot:hard" in out
    hard = registry.level("clonk", "hard")
    assert hard.strength is not None
    assert f"{hard.strength.wins:.1%}" in out and hard.measured.split()[-1] in out
    assert "tiny declares no easy level: it plays the default, random" in out
    assert "`bot` plays greedy" in out

    listed = {g["id"]: g for g in json.loads(cli("games", "--bots", "--json").stdout)}
    assert [lv["bot"] for lv in listed["clonk"]["levels"]] == [
        lv.bot for lv in registry.levels("clonk")
    ]
    assert listed["clonk"]["levels"][2]["strength"]["wins"] == hard.strength.wins
    assert listed["clonk"]["bot"] == "greedy"
    assert {b["name"] for b in listed["clonk"]["bots"]} >= {"greedy", "ismcts", "random"}
    assert listed["tiny"]["levels"][0] | {"note": ""} == {
        "name": "easy",
        "bot": "random",
        "plugin": "",
        "note": "",
        "strength": None,
        "measured": "",
        "seats": 0,
    }
    assert "levels" not in json.loads(cli("games", "--json").stdout)[0]  # as before, without
