"""The full-screen table of ``meeple play``, driven headless by Textual's pilot.

Screen snapshots (``__snapshots__/``) are Textual's drawing of the screen, which changes
from one Textual release to the next: they are compared only under the release they were
made with (:data:`SNAPSHOTS_MADE_WITH`), and remade on purpose with
``pytest --snapshot-update``. The text of the same views (each game's first decision and
its end, the help, the pass screen) is checked under any release, by the tests playing them.

A test builds the table as ``meeple play`` does (:func:`meeple.cli.tabletop.start`) and plays
it through key presses. Choices in a whole game are posted as key events and awaited by
polling: the pilot's own ``press`` waits until the process is idle, which costs a tenth
of a second per decision.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import math
import re
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer
from panes import colours, drawings_of_a_played_game
from textual import events
from textual.app import App
from textual.pilot import Pilot
from typer.testing import Result

from meeple.cli import arguments, environment, play, tabletop
from meeple.cli.table import Ask, Decision, FullScreen, Note, PassTo, Picture, TableApp, TooSmall
from meeple.core import records
from meeple.core.bots import Bot, Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import PluginManager, Registry
from meeple.core.present import Presentation
from meeple.core.state import Action
from meeple.core.validate import check_file, load
from meeple.plugins.clonk import present

Invoke = Callable[..., Result]
SIZE = (80, 24)
GAMES = ["clonk", "clank", "clank-catacombs"]


def open_table(
    pm: PluginManager, game: str, seats: str, *, seed: int = 1, save: Path | None = None
) -> TableApp:
    """The app ``meeple play GAME --seats SEATS --seed SEED --table`` runs."""
    env = environment.Env(pm)
    table = tabletop.start(env, game, seats, seed, [], save, None)
    return TableApp(
        table, arguments.make_bots(env.registry, table.match.game, table.setup.seats, seed), False
    )


async def screen_text(pilot: Pilot[None]) -> str:
    """The screen's text, once it is drawn, read from the app's SVG screenshot.

    Rich's SVG places each run of text at its column (``x`` in steps of a cell's width),
    and leaves out the runs of blanks between them.
    """
    await pilot.pause()
    width, height = pilot.app.size
    screen = [[" "] * width for _ in range(height)]
    runs = re.findall(
        r'<text [^>]*x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)" '
        r'clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>',
        pilot.app.export_screenshot(),
    )
    cell = min(float(length) / len(html.unescape(text)) for _, length, _, text in runs)
    for x, _, line, text in runs:
        column = round(float(x) / cell)
        chars = html.unescape(text).replace("\xa0", " ")
        screen[int(line)][column : column + len(chars)] = chars
    return "\n".join("".join(row).rstrip() for row in screen)


def logged(app: TableApp) -> str:
    """The log pane's text, its lines joined (a narrow pane wraps them)."""
    return " ".join(" ".join(line.text.split()) for line in app.main.log_pane.lines)


async def until(condition: Callable[[], object], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.001)


async def decision(app: TableApp) -> None:
    """Wait until a person is asked to decide, or the game is over or gone."""
    await until(lambda: app.decision is not None or app.scores is not None or app.failure)


async def enter(app: TableApp) -> None:
    """Choose the highlighted action, and wait until the next decision."""
    shown = app.decision
    app.post_message(events.Key("enter", "\r"))
    await until(lambda: app.decision is not shown)
    await decision(app)


def drive(app: TableApp, script: Callable[[Pilot[None]], Awaitable[None]], size=SIZE) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await script(pilot)

    asyncio.run(run())


def saved_ok(path: Path, registry: Registry) -> Any:
    report = check_file(path, registry, Hooks(registry.pm))
    assert report.ok, report.problems
    return load(path, registry).value


# -- a whole game of each game ----------------------------------------------------------


# Seeds of short games (25, 125 and 72 decisions of seat 0's) of the first action each time.
@pytest.mark.parametrize(("game", "seed"), [("clonk", 17), ("clank", 22), ("clank-catacombs", 18)])
def test_a_whole_game_at_the_table(
    game: str,
    seed: int,
    pm: PluginManager,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 0 takes the first action every time, by Enter; random bots play the others.

    The first decision's screen shows every pane (the text of what the snapshots pin), and
    with one person at the table the screen is never passed.
    """
    monkeypatch.chdir(tmp_path)
    save = Path("game.json")
    app = open_table(pm, game, "human,random,random", seed=seed, save=save)
    match = app.table.match

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        assert app.decision is not None
        text = await screen_text(pilot)
        lines = text.splitlines()
        assert lines[0].strip().startswith(f"{match.game.title} · round 1 · seat 0, your turn")
        for title in ("table", "log", "actions"):
            assert f"╭─ {title} " in text
        assert f"  1. {app.decision.actions[0]}"[:60] in text
        private = match.game.presentation.render_private(match.game.view(match.state, 0), 0)
        assert ("╭─ yours alone " in text) is (private is not None)
        assert "s save  u undo  q quit  l legend  ? help" in lines[-1]
        while app.scores is None and app.failure is None:
            assert not isinstance(app.screen, PassTo)
            await enter(app)
        await until(lambda: not app.match_thread.is_alive())  # saved once the scores are shown
        text = await screen_text(pilot)
        assert "final scores" in text and "game over" in text
        assert logged(app).count(f"saved to {save}") == 1
        await pilot.press("enter")

    drive(app, script)
    assert app.failure is None
    record = saved_ok(save, registry)
    assert record.over and record.actions == app.table.match.actions


def test_a_resumed_game_logs_its_earlier_moves(
    pm: PluginManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moves before a resume are logged as they were when played, each as the seat at
    the screen may know it: a bot's draw names no card."""
    monkeypatch.chdir(tmp_path)
    save = Path("game.json")
    first = open_table(pm, "clonk", "human,random", seed=5, save=save)

    async def play_a_while(pilot: Pilot[None]) -> None:
        await decision(first)
        while len(first.table.match.actions) < 12:
            await enter(first)
        await pilot.press("ctrl+c")

    drive(first, play_a_while)
    played = logged(first).replace(f" saved to {save}", "")
    assert "── round 2 ──" in played and "seat 1 draws a card" in played
    env = environment.Env(pm)
    table = tabletop.start(env, None, None, None, [], None, save)
    again = TableApp(
        table, arguments.make_bots(env.registry, table.match.game, table.setup.seats, 5), False
    )

    async def look(pilot: Pilot[None]) -> None:
        await decision(again)
        assert logged(again) == played
        await pilot.press("ctrl+c")

    drive(again, look)


# -- keys ------------------------------------------------------------------------------


def test_digits_choose_by_number(pm: PluginManager) -> None:
    app = open_table(pm, "tiny", "human,random", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        assert app.decision is not None
        legal = list(app.table.match.legal())
        await pilot.press("2")
        await until(lambda: len(app.table.match.actions) >= 1)
        assert app.table.match.actions[0] == legal[1]
        await pilot.press("0")  # no action 0: nothing chosen
        await pilot.press("q")
        await pilot.press("escape")  # leave without saving

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 0


def test_enter_chooses_a_decision_shown_as_an_unfocused_app_begins(pm: PluginManager) -> None:
    """A served page's app starts unfocused (Textual's web driver says so first); a decision
    shown the moment the game begins still takes Enter, the first key the page sends."""
    chosen: list[int | str] = []

    class AtOnce(FullScreen):
        def begin(self) -> None:
            self.app_focus = False
            self.present(Decision(0, Picture("", "", None), ["go", "stay"]))

        def send(self, request: int | str) -> None:
            chosen.append(request)

    app = AtOnce(environment.Env(pm).registry.game("tiny")(), ["human", "random"], [0], False)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await until(lambda: chosen)

    drive(app, script)
    assert chosen == [0]


def test_s_asks_for_a_file_the_first_time(
    pm: PluginManager, registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = open_table(pm, "tiny", "human,random", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("s")
        await until(lambda: isinstance(app.screen, Ask))
        assert "Save to which file?" in await screen_text(pilot)
        await pilot.press(*"later.json", "enter")
        await until(lambda: (tmp_path / "later.json").exists())
        assert len(saved_ok(tmp_path / "later.json", registry).actions) >= 1
        (tmp_path / "later.json").unlink()
        await pilot.press("s")  # saved where it was saved, without asking
        await until(lambda: logged(app).count("saved to later.json") == 2)
        assert (tmp_path / "later.json").exists() and not isinstance(app.screen, Ask)
        await pilot.press("ctrl+c")

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 130


def test_q_offers_to_save(
    pm: PluginManager, registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    save = Path("game.json")
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, Ask))
        assert f"Save to {save} before leaving? [Y/n]" in await screen_text(pilot)
        await pilot.press("enter")

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 0
    assert saved_ok(save, registry).actions == app.table.match.actions != []


@pytest.mark.parametrize(("stop", "code"), [("interrupted", 130), ("terminated", 143)])
def test_ctrl_c_or_sigterm_saves_to_the_save_file(
    pm: PluginManager, registry: Registry, tmp_path: Path, stop: str, code: int
) -> None:
    save = tmp_path / "game.json"
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        if stop == "interrupted":
            await pilot.press("ctrl+c")
        else:
            app.terminate()  # what the SIGTERM handler calls
            await until(lambda: app.failure is not None)

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == code
    assert app.front.why == stop
    assert saved_ok(save, registry).actions == app.table.match.actions != []


def test_closing_on_an_open_question_ends_as_the_input_does(
    pm: PluginManager, registry: Registry, tmp_path: Path
) -> None:
    """Closed from outside (a server's page gone) while asking: the game is saved, exit 130."""
    save = tmp_path / "game.json"
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, Ask))
        app.exit()

    drive(app, script)
    app.match_thread.join(10)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 130
    assert saved_ok(save, registry).actions == app.table.match.actions != []


def test_a_bot_error_saves_first(pm: PluginManager, registry: Registry, tmp_path: Path) -> None:
    class Failing:
        def choose(self, prompt: Prompt) -> Action:
            raise ZeroDivisionError("the bot divided by zero")

    save = tmp_path / "game.json"
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)
    app = TableApp(app.table, [None, Failing()], False)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await until(lambda: app.failure)

    drive(app, script)
    assert isinstance(app.failure, ZeroDivisionError)
    assert app.failure.__notes__ == [
        f"the game so far is saved in {save}; `meeple play --resume {save}` continues it"
    ]
    assert len(saved_ok(save, registry).actions) == 1


class Broken(Exception):
    """An error of the app's own, raised while it handles an event."""


def break_app() -> None:
    raise Broken("the table failed")


@pytest.mark.parametrize("question", [False, True])
def test_an_error_of_the_table_saves_and_is_reported_as_an_error(
    pm: PluginManager, registry: Registry, tmp_path: Path, question: bool
) -> None:
    """Not as "interrupted": the error stops the game as a bot's does, whether the person was
    deciding or answering the table's question (q's offer to save)."""
    save = tmp_path / "game.json"
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        if question:
            await pilot.press("q")
            await until(lambda: isinstance(app.screen, Ask))
        app.post(break_app)
        await until(lambda: app.crash)

    drive(app, script)
    app.match_thread.join(10)
    assert isinstance(app.failure, Broken) and app.failure is app.crash
    assert app.failure.__notes__ == [
        f"the game so far is saved in {save}; `meeple play --resume {save}` continues it"
    ]
    assert app.front.why is None
    assert saved_ok(save, registry).actions == app.table.match.actions != []


def test_u_takes_back_a_decision_that_showed_nothing(pm: PluginManager) -> None:
    """rules.md#turn: playing Burgle adds skill and draws nothing, so it may be taken back."""
    app = open_table(pm, "clank", "human,random", seed=1)
    match = app.table.match

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        assert app.decision is not None
        first = app.decision.actions
        burgle = next(
            i for i, a in enumerate(match.legal()) if getattr(a, "card", "").startswith("burgle")
        )
        app.main.actions.highlighted = burgle
        await enter(app)
        assert len(match.actions) == 1
        await pilot.press("u")
        await decision(app)
        assert match.actions == [] and app.decision is not None and app.decision.actions == first
        assert logged(app).endswith("taken back: play Burgle")
        await pilot.press("u")  # nothing of seat 0's is left to take back
        await decision(app)
        assert "taken back: play Burgle cannot take that back: " in logged(app)
        await enter(app)
        assert len(match.actions) == 1
        await pilot.press("ctrl+c")

    drive(app, script)


def test_help_and_legend(pm: PluginManager) -> None:
    app = open_table(pm, "clonk", "human,random")

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, Note)
        text = await screen_text(pilot)
        assert "keys" in text and "save: to --save's file" in text
        await pilot.press("x")
        assert not isinstance(app.screen, Note)
        await pilot.press("l")
        assert isinstance(app.screen, Note)
        assert "Clonk!: legend" in await screen_text(pilot)
        for _, meaning in app.table.match.game.presentation.legend():
            assert meaning in await screen_text(pilot)
        drawn = app.export_screenshot()
        assert all(f"fill: {colour}" in drawn for colour in present.COLOURS.values())
        await pilot.press("escape", "ctrl+c")

    drive(app, script)


@pytest.mark.parametrize("game", GAMES)
def test_every_colour_of_a_game_is_drawn_its_own_way(game: str, registry: Registry) -> None:
    """Each colour a game's panes and legend name, as the table draws it (through Textual's
    theme for a terminal's named colours, which draws red and magenta alike), is far from
    every other."""
    g = registry.game(game)()
    drawings = [symbol for symbol, _ in g.presentation.legend()]
    for _, table, private in drawings_of_a_played_game(g, 4, 3, steps=300, every=30):
        drawings += [table, private]
    named = colours(d for d in drawings if d is not None)
    theme = App().ansi_theme
    drawn = {colour.get_truecolor(theme) for colour in named}
    assert len(drawn) == len(named) > 2, sorted(c.name for c in named)
    assert min(math.dist(a, b) for a, b in itertools.combinations(drawn, 2)) > 100


# -- hot-seat and a small terminal ------------------------------------------------------


def test_passing_the_screen_hides_the_last_seats_hand(pm: PluginManager) -> None:
    tiny = environment.Env(pm).registry.game("tiny")

    class Hand(Presentation[Any, Any]):
        def render_private(self, view: Any, seat: int) -> str:
            return f"the hand of seat {seat}: {' '.join(view.hands[seat].cards)}"

    class Hands(tiny):  # type: ignore[misc,valid-type]  # a class from the tiny plugin
        presentation_type = Hand

    game = Hands()
    match = Match.new(game, 2, 5, Hooks(None))
    table = tabletop.Table(match, records.setup_of(game, ["human", "human"], 5), None, None)
    app = TableApp(table, [None, None], False)

    async def script(pilot: Pilot[None]) -> None:
        for seat in (0, 1, 0):
            await until(lambda: isinstance(app.screen, PassTo))
            text = await screen_text(pilot)
            assert f"Pass to seat {seat}" in text and "the hand of" not in text
            await pilot.press("enter")
            await decision(app)
            await pilot.pause()
            assert f"the hand of seat {seat}" in await screen_text(pilot)
            app.post_message(events.Key("enter", "\r"))
        await pilot.press("ctrl+c")

    drive(app, script)


def test_a_small_terminal_says_so_and_offers_plain(pm: PluginManager) -> None:
    app = open_table(pm, "tiny", "human,random", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        await until(lambda: isinstance(app.screen, TooSmall))
        text = " ".join((await screen_text(pilot)).split())
        assert "Terminal too small: the table needs at least 80x24, and this one is 60x20" in text
        assert "--plain" in text
        # The notice comes and goes as the resize is handled, after resize_terminal returns.
        await pilot.resize_terminal(100, 30)
        await until(lambda: not isinstance(app.screen, TooSmall))
        await pilot.resize_terminal(79, 30)
        await until(lambda: isinstance(app.screen, TooSmall))
        await pilot.press("ctrl+c")

    drive(app, script, size=(60, 20))


@pytest.mark.parametrize("size", [(1, 1), (3, 3), (24, 1), (1, 24)])
def test_a_tiny_terminal_waits_to_be_enlarged(pm: PluginManager, size: tuple[int, int]) -> None:
    """Under the notice, the panes are laid out at the least size they need: measured at no
    width at all, Textual's list of actions divided by zero."""
    app = open_table(pm, "clonk", "human,random", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await until(lambda: isinstance(app.screen, TooSmall))
        await pilot.resize_terminal(100, 30)
        await until(lambda: app.screen is app.main)  # once the resize is handled
        assert "  1. " in await screen_text(pilot)
        await pilot.press("ctrl+c")

    drive(app, script, size=size)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 130


@pytest.mark.parametrize("key", ["l", "question_mark"])
def test_a_note_closed_after_enlarging_shows_the_table(pm: PluginManager, key: str) -> None:
    """The notice under a legend or the help goes once the terminal is large enough, even if
    it grew while the note was on top."""
    app = open_table(pm, "clonk", "human,random", seed=5)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await pilot.press(key)
        assert isinstance(app.screen, Note)
        await pilot.resize_terminal(100, 30)
        await pilot.press("escape")
        await until(lambda: app.screen is app.main)
        await pilot.press("ctrl+c")

    drive(app, script, size=(1, 1))


# -- choosing the table or line mode ----------------------------------------------------


@pytest.fixture
def full_screen(monkeypatch: pytest.MonkeyPatch) -> list[Sequence[Bot | None]]:
    """The bots of every game played full-screen (and none is, really)."""
    played: list[Sequence[Bot | None]] = []
    monkeypatch.setattr(
        "meeple.cli.table.play_full_screen", lambda table, bots, quiet: played.append(bots)
    )
    return played


TINY_AT_A_TERMINAL = ["play", "tiny", "--seats", "human,bot", "--seed", "5"]


def test_at_a_terminal_a_person_plays_full_screen(
    tmp_path: Path, registry: Registry, real_terminal: Callable[..., Any]
) -> None:
    """A real terminal (a pty): the table opens by itself, and q's offer saves to --save."""
    save = tmp_path / "game.json"
    term = real_terminal([*TINY_AT_A_TERMINAL, "--save", str(save)])
    assert b"your turn" in term.read_until(b"your turn")
    term.type(b"1")
    assert b"round 2" in term.read_until(b"round 2")
    term.type(b"q")
    assert b"before leaving?" in term.read_until(b"before leaving?")
    term.type(b"\r")
    term.read_until(b"\0")  # the rest, until the process ends (an unread terminal blocks it)
    assert term.proc.wait(timeout=30) == 0
    assert f"saved to {save}".encode() in term.after_full_screen()
    assert len(saved_ok(save, registry).actions) >= 2


def test_notices_are_shown_at_the_table_and_only_the_last_save_after_it(
    tmp_path: Path, registry: Registry, real_terminal: Callable[..., Any]
) -> None:
    """A real terminal (a pty): what was taken back or not, and each save, are the table's
    news; once it is gone, only where the game was saved is printed, once."""
    save = tmp_path / "game.json"
    term = real_terminal([*TINY_AT_A_TERMINAL, "--save", str(save)])
    assert b"your turn" in term.read_until(b"your turn")
    term.type(b"1")
    assert b"round 2" in term.read_until(b"round 2")
    term.type(b"u")
    assert b"cannot take that back" in term.read_until(b"cannot take that back")
    term.type(b"s")
    assert b"saved to" in term.read_until(b"saved to")
    term.type(b"q")
    assert b"before leaving?" in term.read_until(b"before leaving?")
    term.type(b"\r")
    term.read_until(b"\0")
    assert term.proc.wait(timeout=30) == 0
    after = re.sub(rb"\x1b\[[\d;?]*[a-z]", b"", term.after_full_screen())  # modes reset
    assert after == f"saved to {save}\r\n".encode()
    assert len(saved_ok(save, registry).actions) >= 2


def test_sigterm_at_the_table_saves_and_exits_143(
    tmp_path: Path, registry: Registry, real_terminal: Callable[..., Any]
) -> None:
    """A real terminal (a pty): SIGTERM stops the game as Ctrl-C does, and says so once the
    full screen is gone."""
    save = tmp_path / "game.json"
    term = real_terminal([*TINY_AT_A_TERMINAL, "--save", str(save)])
    assert b"your turn" in term.read_until(b"your turn")
    term.proc.terminate()
    term.read_until(b"\0")
    assert term.proc.wait(timeout=30) == 143
    assert term.after_full_screen().endswith(f"terminated\r\nsaved to {save}\r\n".encode())
    assert saved_ok(save, registry).actions == []


@pytest.mark.parametrize("term", ["dumb", "unknown"])
def test_a_dumb_terminal_plays_line_by_line(
    tmp_path: Path, registry: Registry, real_terminal: Callable[..., Any], term: str
) -> None:
    """A real terminal (a pty) that says it draws text only: no full screen, no escapes."""
    save = tmp_path / "game.json"
    terminal = real_terminal([*TINY_AT_A_TERMINAL, "--save", str(save)], TERM=term)
    assert b"your choice" in terminal.read_until(b"your choice")
    terminal.type(b"q\r")
    assert b"before leaving?" in terminal.read_until(b"before leaving?")
    terminal.type(b"\r")
    terminal.read_until(b"\0")
    assert terminal.proc.wait(timeout=30) == 0
    assert b"\x1b" not in terminal.seen and f"saved to {save}".encode() in terminal.seen
    assert saved_ok(save, registry).actions == []


def test_table_on_a_dumb_terminal_is_refused_at_once(
    tmp_path: Path, real_terminal: Callable[..., Any]
) -> None:
    save = tmp_path / "game.json"
    terminal = real_terminal([*TINY_AT_A_TERMINAL, "--table", "--save", str(save)], TERM="dumb")
    terminal.read_until(b"\0")
    assert terminal.proc.wait(timeout=30) == 1 and not save.exists()
    assert terminal.seen == (
        b"error: --table: the full-screen table needs a terminal, and this one cannot draw it "
        b"(TERM=dumb); play line by line without --table, or in a browser with `meeple serve`\r\n"
    )


GREYS = {16, 231, *range(232, 256)}
"""The 256-colour palette's black, white and greys."""


def escaped_colours(shown: bytes) -> set[tuple[int, ...]]:
    """Each colour drawn (SGR 38 or 48: 256-colour, or red, green, blue) in ``shown``, and
    each 16-colour code."""
    found: set[tuple[int, ...]] = set()
    for params in re.findall(rb"\x1b\[([\d;]*)m", shown):
        codes = [int(p) for p in params.split(b";") if p]
        while codes:
            code = codes.pop(0)
            if code in (38, 48):
                n = 1 if codes.pop(0) == 5 else 3
                found.add(tuple(codes[:n]))
                del codes[:n]
            elif 30 <= code <= 37 or 40 <= code <= 47 or 90 <= code <= 107:
                found.add((code, 0, 0, 0))
    return found


@pytest.mark.parametrize("mode", ["--table", "--plain"])
def test_no_color_draws_in_greys_only(
    tmp_path: Path, real_terminal: Callable[..., Any], mode: str
) -> None:
    """A real terminal (a pty) with ``NO_COLOR``: line mode draws no colour, the table (as
    Textual honours it) greys only."""
    save = tmp_path / "game.json"
    args = ["play", "clonk", "--seats", "human,bot", "--seed", "5", mode, "--save", str(save)]
    terminal = real_terminal(args, NO_COLOR="1")
    terminal.read_until(b"your turn" if mode == "--table" else b"your choice")
    terminal.proc.terminate()
    terminal.read_until(b"\0")
    assert terminal.proc.wait(timeout=30) == 143
    drawn = escaped_colours(terminal.seen)
    assert all(c[0] in GREYS if len(c) == 1 else len(set(c)) == 1 for c in drawn), drawn
    assert drawn if mode == "--table" else not drawn


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input, output and error are a terminal, as far as ``meeple play`` asks."""
    monkeypatch.setattr(play, "no_table", lambda: None)


@pytest.mark.usefixtures("terminal")
def test_table_forces_the_full_screen(cli: Invoke, full_screen: list[Any]) -> None:
    result = cli("play", "tiny", "--seats", "bot,bot", "--seed", "3", "--table")
    assert result.exit_code == 0, result.output
    assert len(full_screen) == 1 and "final scores" not in result.stdout


def test_table_without_a_terminal_is_refused_at_once(
    cli: Invoke, full_screen: list[Any], tmp_path: Path
) -> None:
    """Piped input would leave the table waiting for keys for ever: refused before it opens."""
    save = tmp_path / "game.json"
    result = cli("play", "tiny", "--seats", "human,bot", "--table", "--save", str(save))
    assert result.exit_code == 1 and full_screen == [] and not save.exists()
    assert result.stderr == (
        "error: --table: the full-screen table needs a terminal, and standard input is not "
        "one; play line by line without --table, or in a browser with `meeple serve`\n"
    )


def test_a_table_drawn_by_a_driver_of_its_own_needs_no_terminal(
    cli: Invoke, full_screen: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``meeple serve``'s pages run the table through pipes, drawn by Textual's web driver."""
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    result = cli("play", "tiny", "--seats", "human,bot", "--seed", "3", "--table")
    assert result.exit_code == 0, result.output
    assert len(full_screen) == 1


def test_plain_and_table_together_are_a_usage_error(cli: Invoke) -> None:
    result = cli("play", "tiny", "--plain", "--table")
    assert result.exit_code == 2
    assert "--plain and --table cannot be used together" in result.output


def test_without_a_terminal_the_game_is_played_line_by_line(
    cli: Invoke, full_screen: list[Any]
) -> None:
    result = cli("play", "tiny", "--seats", "human,bot", "--seed", "3", input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert full_screen == [] and "final scores" in result.stdout


@pytest.mark.parametrize(
    ("seats", "stdin", "stdout", "stderr", "full"),
    [
        ("human,bot", True, True, True, True),
        ("human,human", True, True, True, True),
        ("bot,bot", True, True, True, False),  # a game of bots prints its game and ends by itself
        ("human,bot", False, True, True, False),
        ("human,bot", True, False, True, False),
        ("human,bot", True, True, False, False),  # where Textual would draw the table
    ],
)
def test_a_terminal_and_a_person_open_the_full_screen(
    pm: PluginManager,
    monkeypatch: pytest.MonkeyPatch,
    seats: str,
    stdin: bool,
    stdout: bool,
    stderr: bool,
    full: bool,
) -> None:
    table = tabletop.start(environment.Env(pm), "tiny", seats, 1, [], None, None)

    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setattr(sys, "stdin", Stream(stdin))
    monkeypatch.setattr(sys, "stdout", Stream(stdout))
    monkeypatch.setattr(sys, "stderr", Stream(stderr))
    assert play.at_terminal(table) is full


# -- screen snapshots -------------------------------------------------------------------

SNAPSHOTS_MADE_WITH = "8.2.8"
"""The Textual release the snapshots were made with."""

same_textual = pytest.mark.skipif(
    version("textual") != SNAPSHOTS_MADE_WITH,
    reason=f"the snapshots are Textual {SNAPSHOTS_MADE_WITH}'s drawing, not {version('textual')}'s",
)
VIEW = (100, 30)


async def first_decision(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, TableApp)
    await decision(app)


@same_textual
@pytest.mark.parametrize("game", GAMES)
def test_the_main_view(game: str, pm: PluginManager, snap_compare: Any) -> None:
    app = open_table(pm, game, "human,random,random", seed=3)
    assert snap_compare(app, terminal_size=VIEW, run_before=first_decision)


@same_textual
def test_the_help_screen(pm: PluginManager, snap_compare: Any) -> None:
    app = open_table(pm, "clonk", "human,random", seed=3)
    assert snap_compare(app, press=["question_mark"], terminal_size=VIEW, run_before=first_decision)


@same_textual
def test_the_pass_screen(pm: PluginManager, snap_compare: Any) -> None:
    app = open_table(pm, "clonk", "human,human", seed=3)
    assert snap_compare(app, terminal_size=VIEW)


@same_textual
def test_the_end(pm: PluginManager, snap_compare: Any) -> None:
    app = open_table(pm, "clonk", "human,random,random", seed=17)

    async def to_the_end(pilot: Pilot[None]) -> None:
        await first_decision(pilot)
        while app.scores is None:
            await enter(app)

    assert snap_compare(app, terminal_size=VIEW, run_before=to_the_end)
