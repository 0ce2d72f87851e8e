"""Taking a decision back at the table, and hot-seat play in line mode."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from meeple.cli import output
from meeple.cli.play import Human
from meeple.cli.tabletop import Table
from meeple.core import records
from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry
from meeple.core.state import Action
from meeple.core.validate import check_file, load, open_saved
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import EndTurn, Play

Invoke = Callable[..., Result]


class Told:
    """A player that answers what the test tells it."""

    action: Action

    def choose(self, prompt: Prompt) -> Action:
        return self.action


def clank_table(seed: int = 1, seats: tuple[str, ...] = ("human", "human")) -> Table:
    game = Clank()
    match = Match.new(game, len(seats), seed, Hooks(None))
    table = Table(match, records.setup_of(game, seats, seed), None, None)
    table.players = [Told()] * len(seats)
    return table


def decide(table: Table, action: Action) -> None:
    """``action`` chosen at the table by the seat to move, and played."""
    match = table.match
    table.players[0].action = action
    seat = match.state.to_move
    assert seat is not None
    match.step(table.choose(Prompt.of(match.game, match.state, seat, match.legal())))


def play_of(table: Table, name: str) -> Play:
    return next(a for a in table.match.legal() if isinstance(a, Play) and a.card.startswith(name))


def same_match(table: Table, actions: list[Action]) -> None:
    """The table's match is exactly one that only ever played ``actions``."""
    match = table.match
    fresh = Match.new(match.game, match.state.seats, match.seed, Hooks(None))
    for action in actions:
        fresh.step(action)
    assert match.actions == actions
    assert match.game.digest(match.state) == match.game.digest(fresh.state)
    assert match.legal() == fresh.legal()
    assert match.state.to_move == fresh.state.to_move


def test_taking_back_leaves_the_match_as_if_never_chosen() -> None:
    """rules.md#turn: playing Burgle adds skill and draws nothing, so it may be taken back."""
    table = clank_table()
    first = play_of(table, "burgle")
    decide(table, first)
    second = play_of(table, "burgle")
    decide(table, second)
    assert table.take_back(0) is None
    same_match(table, [first])
    # Again: the one before goes too, then nothing is left.
    assert table.take_back(0) is None
    same_match(table, [])
    assert table.take_back(0) == "no decision made at this table is left to take back"
    # The match plays on from there.
    stumble = play_of(table, "stumble")
    decide(table, stumble)
    same_match(table, [stumble])


def test_only_the_seat_that_chose_takes_back() -> None:
    table = clank_table()
    decide(table, play_of(table, "burgle"))
    why = table.take_back(1)
    assert why == "the last decision was made by seat 0, and only your own last one can go"
    assert len(table.match.actions) == 1


def test_nothing_that_showed_something_new_is_taken_back() -> None:
    """rules.md#turn: ending the turn draws a new hand, which the seat has now seen."""
    table = clank_table()
    while (legal := table.match.legal()) != [EndTurn()]:
        decide(table, legal[0])
    decide(table, EndTurn())
    before = list(table.match.actions)
    assert table.take_back(0) == "it showed you something you could not know before, so it stands"
    assert table.match.actions == before


def test_a_resumed_games_earlier_actions_stay(tmp_path: Path, registry: Registry) -> None:
    table = clank_table()
    decide(table, play_of(table, "burgle"))
    path = tmp_path / "g.json"
    records.write_atomic(path, table.encoded())
    loaded, match = open_saved(path, registry, Hooks(None))
    resumed = Table(match, loaded.setup, path, None)
    assert resumed.take_back(0) == "no decision made at this table is left to take back"


def human_input(cli: Invoke, save: Path, typed: str) -> Result:
    return cli(
        "play", "clank", "--seats", "human,bot", "--seed", "1", "--save", str(save), input=typed
    )


def test_u_takes_back_in_line_mode_and_the_record_keeps_the_final_actions(
    cli: Invoke, tmp_path: Path, registry: Registry
) -> None:
    save = tmp_path / "g.json"
    # Play Burgle (2), take it back, take back again (nothing left), play Stumble (1), quit.
    result = human_input(cli, save, "2\nu\nu\n1\nq\ny\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "[1-2, u undo, s save, q quit]" in out
    assert "taken back: play Burgle" in out
    assert "pass to seat" not in out  # one person at the table
    assert "cannot take that back: no decision made at this table is left" in out
    # The table is shown again after the undo, as it was before Burgle.
    hands = [line for line in out.splitlines() if line.startswith("Hand: ")]
    assert len(hands) == 4 and hands[2] == hands[0] != hands[1]
    record = load(save, registry).value
    assert record.actions == Match.new(Clank(), 2, 1, Hooks(None)).legal()[:1]  # Stumble
    assert check_file(save, registry, Hooks(registry.pm)).ok


def test_hot_seat_asks_the_next_seat_to_sit(cli: Invoke) -> None:
    result = cli("play", "clank", "--seats", "human,human", "--seed", "1", input="1\n" * 12)
    out = result.stdout
    assert "pass to seat 1" in out
    assert "\x1b[" not in out  # no screen clearing on a pipe
    first = out.index("pass to seat 1")
    assert out.index("seat 0, your choice") < first < out.index("seat 1, your choice")


class Terminal(io.StringIO):
    """Typed input from a person at a terminal."""

    def isatty(self) -> bool:
        return True


def test_hot_seat_on_a_terminal_clears_and_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(output, "console", Console(file=screen, force_terminal=True))
    typed = Terminal("\n")
    monkeypatch.setattr("sys.stdin", typed)
    Human(clank_table(), 1).pass_here()
    assert screen.getvalue().startswith("\x1b[2J\x1b[H\x1b[3J")
    assert "pass to seat 1, press Enter" in screen.getvalue()
    assert typed.read() == ""  # the Enter was read
