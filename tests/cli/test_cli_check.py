"""`meeple check`: the conformance suite, determinism and speed of a game from the CLI."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import Any

import msgspec
from typer.testing import Result

from meeple.cli.check import CHECKS, Report

Invoke = Callable[..., Result]

FLAWED = '''
from meeple.core import hookimpl
from meeple_tiny import Tiny


class Broken(Tiny):
    """Tiny whose own check forbids a pile of two cards, which random play soon builds."""

    id, title = "broken", "Broken"

    def check_state(self, state):
        return super().check_state(state) + [
            f"pile {p.owner} holds {len(p.cards)} cards" for p in state.piles if len(p.cards) > 1
        ]


class Hashy(Tiny):
    """Tiny whose deck is left in the order of a set of strings: PYTHONHASHSEED deals it."""

    id, title = "hashy", "Hashy"

    def setup(self, seats, seed):
        state = super().setup(seats, seed)
        state.deck.cards[:] = list(set(state.deck.cards))
        return state


@hookimpl
def meeple_games(register):
    register(Broken)
    register(Hashy)
'''


def test_a_built_in_game_passes(cli: Invoke) -> None:
    result = cli("check", "clonk", "-n", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "meeple check clonk: 1 games" in out and "all checks passed" in out
    assert all(check in out for check in CHECKS)
    assert re.search(r"decisions checked; [\d,]+ decisions/s in random play", out)


def test_json_report(cli: Invoke) -> None:
    result = cli("check", "tiny", "-n", "3", "--seed", "5", "--views", "2", "--json")
    assert result.exit_code == 0, result.output
    report = msgspec.json.decode(result.stdout, type=Report)
    assert report.ok and report.game == "tiny" and report.games == 3 and not report.failures
    assert report.decisions > 0 and report.decisions_per_second
    rows = {row.check: (row.passed, row.failed) for row in report.checks}
    assert list(rows) == list(CHECKS)
    assert rows["check_view"] == (2, 0)  # --views 2: the first two games check the views
    assert all(rows[c] == (3, 0) for c in CHECKS if c != "check_view")


def failures(stdout: str) -> list[dict[str, Any]]:
    failed: list[dict[str, Any]] = msgspec.json.decode(stdout)["failures"]
    return failed


def test_a_broken_game_fails_with_what_reproduces_it(install_plugin, run) -> None:
    install_plugin("flawed", FLAWED)
    result = run("check", "broken", "-n", "2", "--seed", "30", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    found = failures(result.stdout)
    assert {f["check"] for f in found} == {"check_state"}
    first = found[0]
    assert first["seed"] in (30, 31) and first["step"] > 0 and first["variant"] == {}
    assert "holds 2 cards" in first["message"]
    again = run(*shlex.split(first["rerun"])[1:])  # the rerun plays that game alone
    assert again.returncode == 1
    head = (
        f"FAILED check_state: broken (default options), {first['seats']} seats, "
        f"seed {first['seed']}, step {first['step']}\n"
    )
    assert head in again.stdout and f"rerun: {first['rerun']}\n" in again.stdout
    assert "some checks failed" in again.stdout


def test_a_game_that_depends_on_the_hash_seed_fails(install_plugin, run) -> None:
    install_plugin("flawed", FLAWED)
    result = run("check", "hashy", "-n", "2", "--json")
    assert result.returncode == 1
    found = failures(result.stdout)
    assert found and {f["check"] for f in found} == {"determinism"}
    first = found[0]
    assert (
        f"PYTHONHASHSEED=1 and 2 play it differently from step {first['step']} on"
        in (first["message"])
    )
    assert first["rerun"] == "meeple check hashy -n 1 --seed 0 --seats 2 --views 1"


def test_bad_input(cli: Invoke) -> None:
    result = cli("check", "chess")
    assert result.exit_code == 1 and "no game 'chess'" in result.stderr
    result = cli("check", "tiny", "--seats", "9")
    assert result.exit_code == 2 and "Tiny takes 2-4" in result.stderr
    result = cli("check", "tiny", "--option", "x=1")
    assert result.exit_code == 1 and "Tiny has no option 'x'" in result.stderr
    assert cli("check", "tiny", "-n", "0").exit_code == 2
