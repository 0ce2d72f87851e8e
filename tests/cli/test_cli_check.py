"""`meeple check`: the conformance suite, determinism and speed of a game from the CLI."""

from __future__ import annotations

import re
import shlex
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import Result

from meeple.cli.check import CHECKS, Report
from meeple.core import testing
from meeple.plugins.clonk.rules import Clonk

Invoke = Callable[..., Result]
Stalled = Callable[..., tuple[int, str, str, list[int]]]

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-plugin.md"

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


class Sorty(Tiny):
    """Tiny that leaves the hand of the seat that moved in the order of a set of strings."""

    id, title = "sorty", "Sorty"

    def resolve(self, state, action):
        hand = state.hands[state.stack[-1].seat]
        events = super().resolve(state, action)
        hand.cards[:] = list(set(hand.cards))
        return events


@hookimpl
def meeple_games(register):
    register(Broken)
    register(Hashy)
    register(Sorty)
'''


def test_a_built_in_game_passes(cli: Invoke) -> None:
    result = cli("check", "clonk", "-n", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    games = len(Clonk.variants)  # -n games of each variant
    assert f"meeple check clonk: {games} games" in out and "all checks passed" in out
    assert all(check in out for check in CHECKS)
    assert re.search(r"decisions checked; [\d,]+ decisions/s in random play", out)


def test_json_report(cli: Invoke) -> None:
    result = cli("check", "tiny", "-n", "3", "--seed", "5", "--views", "2", "--json")
    assert result.exit_code == 0, result.output
    report = msgspec.json.decode(result.stdout, type=Report)
    assert report.ok and report.game == "tiny" and report.games == 3 and not report.failures
    assert report.decisions > 0 and report.decisions_per_second
    rows = {row.check: (row.checked, row.passed, row.failed) for row in report.checks}
    assert list(rows) == list(CHECKS)
    assert rows["check_view"] == (2, 2, 0)  # --views 2: the first two games check the views
    assert all(rows[c] == (3, 3, 0) for c in CHECKS if c != "check_view")


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
    assert first["step"] == 0
    assert re.fullmatch(
        r"PYTHONHASHSEED=1 and 2 set the game up differently at "
        r"\$\.deck\.cards\[\d+\] \('c\d[ab]' against 'c\d[ab]'\)",
        first["message"],
    )
    assert first["rerun"] == "meeple check hashy -n 1 --seed 0 --seats 2 --views 1"


def test_a_hash_seed_failure_shows_the_first_step_and_what_differs(install_plugin, run) -> None:
    """Sorty deals alike in both interpreters, then orders a hand by a set of strings: the
    report names the decision and the JSON path of the first card out of place."""
    install_plugin("flawed", FLAWED)
    result = run("check", "sorty", "-n", "1", "--seed", "4")
    assert result.returncode == 1
    shown = re.search(
        r"FAILED determinism: sorty \(default options\), 2 seats, seed 4, step (\d+)\n"
        r"  PYTHONHASHSEED=1 and 2 play it differently from step (\d+) on: "
        r"the state it leaves differs at \$\.hands\[(\d)\]\.cards\[\d\] "
        r"\('c\d[ab]' against 'c\d[ab]'\)\n"
        r"  rerun: meeple check sorty -n 1 --seed 4 --seats 2 --views 1\n",
        result.stdout,
    )
    assert shown, result.stdout
    step, again, seat = map(int, shown.groups())
    assert step == again and seat == step % 2  # the hand of the seat that played
    # The plugin guide shows this very failure, as a game named race would print it.
    (example,) = re.findall(r"^```text\n(.*?)^```$", GUIDE.read_text(), re.M | re.S)
    assert example.replace("race", "sorty") in result.stdout


HANGING = '''
import sys
import time

from meeple.core import hookimpl
from meeple_tiny import Tiny


class Hang(Tiny):
    """Tiny whose legal_actions never returns at step 3 of the game of seed 1, however it is
    interrupted by an Exception."""

    id, title = "hang", "Hang"

    def stuck(self, state):
        return state.rng.seed == 1 and len(state.deck.cards) == 12 - 2 * state.seats - 3

    def legal_actions(self, state):
        while self.stuck(state):
            try:
                time.sleep(1)
            except Exception:
                pass
        return super().legal_actions(state)


class Lost(Hang):
    """Hang, but only in the interpreters of `meeple check`, as a game whose rules depend
    on the hash seed might."""

    id, title = "lost", "Lost"

    def stuck(self, state):
        return sys.argv[0].endswith("check.py") and super().stuck(state)


class Echo(Tiny):
    """Tiny that offers its last legal action twice."""

    id, title = "echo", "Echo"

    def legal_actions(self, state):
        legal = super().legal_actions(state)
        return [*legal, legal[-1]] if legal else legal


@hookimpl
def meeple_games(register):
    register(Hang)
    register(Lost)
    register(Echo)
'''

STOPPED = (
    r"step 3 took longer than 0\.5 s, stopped in legal_actions \(\S+meeple_hanging\S*:\d+\): "
    r"a loop that never ends\? If it is only slow, raise --step-timeout"
)


def test_a_step_that_never_returns_fails_its_game_naming_the_step_and_seed(
    install_plugin, run
) -> None:
    """The game of seed 1 hangs: it fails, the game of seed 0 is checked in full, and the
    interpreters that test determinism do not play the game that hangs."""
    install_plugin("hanging", HANGING)
    args = ["check", "hang", "-n", "2", "--seats", "2", "--step-timeout", "0.5"]
    result = run(*args, "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    report = msgspec.json.decode(result.stdout, type=Report)
    [found] = report.failures
    assert (found.check, found.seed, found.step) == ("check_clone", 1, 3)
    assert re.fullmatch(STOPPED, found.message), found.message
    rows = {row.check: (row.checked, row.passed, row.failed) for row in report.checks}
    assert rows["determinism"] == (2, 1, 0) and rows["check_clone"] == (2, 1, 1)
    shown = run(*args).stdout
    assert "FAILED check_clone: hang (default options), 2 seats, seed 1, step 3\n" in shown


def test_a_step_that_never_returns_in_an_interpreter_fails_determinism(install_plugin, run) -> None:
    install_plugin("hanging", HANGING)
    result = run("check", "lost", "-n", "2", "--seats", "2", "--step-timeout", "0.5", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    [found] = msgspec.json.decode(result.stdout, type=Report).failures
    assert (found.check, found.seed, found.step) == ("determinism", 1, 3)
    assert re.fullmatch(r"in the interpreter with PYTHONHASHSEED=1, " + STOPPED, found.message)


def test_repeated_legal_actions_fail_check_legal(install_plugin, run) -> None:
    install_plugin("hanging", HANGING)
    result = run("check", "echo", "-n", "1", "--json")
    assert result.returncode == 1
    [found] = msgspec.json.decode(result.stdout, type=Report).failures
    assert (found.check, found.step) == ("check_legal", 0)
    assert "1 of the 4 legal actions repeat others" in found.message


def test_bad_input(cli: Invoke) -> None:
    result = cli("check", "chess")
    assert result.exit_code == 1 and "no game 'chess'" in result.stderr
    result = cli("check", "tiny", "--seats", "9")
    assert result.exit_code == 2 and "Tiny takes 2-4" in result.stderr
    result = cli("check", "tiny", "--option", "x=1")
    assert result.exit_code == 1 and "Tiny has no option 'x'" in result.stderr
    assert cli("check", "tiny", "-n", "0").exit_code == 2


def test_ctrl_c_is_one_line_and_exit_130(cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command with nothing to keep on Ctrl-C still says why it stopped."""

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(testing, "playthrough", interrupted)
    result = cli("check", "tiny", "-n", "1")
    assert result.exit_code == 130
    assert result.stderr == "interrupted\n" and result.stdout == ""


@pytest.mark.parametrize(
    ("sent", "said", "code"),
    [(signal.SIGINT, "interrupted", 130), (signal.SIGTERM, "terminated", 143)],
    ids=["kill-int", "kill-term"],
)
def test_stopping_check_stops_the_interpreters_it_started(
    stalled: Stalled, sent: int, said: str, code: int
) -> None:
    """A signal to the command alone (``kill``), not to its interpreters: the first plays the
    game of seed 40 until stopped."""
    args = ["check", "stall", "-n", "1", "--seed", "40", "--seats", "2"]
    done, out, err, left = stalled(args, 1, sent, False)
    assert (done, out, err, left) == (code, "", f"{said}\n", [])
