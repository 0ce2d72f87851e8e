"""``meeple join LINK --table``: the full-screen table at a seat of a game served on
127.0.0.1 in a thread (as ``meeple host`` serves it), driven headless by Textual's pilot;
and ``meeple join LINK`` line by line, where the two share a behaviour."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest

pytest.importorskip("websockets", reason="meeple[web] is not installed")
from rich.console import Console
from test_cli_table import decision, enter, logged, screen_text
from test_cli_table import until as until_async
from test_hosting import WAIT, hosted, random_player, registry, serving, states
from textual.pilot import Pilot
from typer.testing import Result

from meeple.cli.joined import HOSTS_BUSINESS, JoinedTable, joined
from meeple.core import net
from meeple.core.bots import HUMAN
from meeple.core.testing import leaks

SIZE = (100, 32)


def text_of(drawing: Any) -> str:
    console = Console(width=60, record=True, file=None, force_terminal=False)
    with console.capture():
        console.print(drawing)
    return console.export_text()


def at_table(
    link: str, script: Callable[[JoinedTable, Pilot[None]], Awaitable[None]], *also: Awaitable[Any]
) -> JoinedTable:
    """Join ``link`` at the table and run ``script`` there, with ``also`` run meanwhile."""

    async def run() -> JoinedTable:
        async with joined(link, registry.game, WAIT, False) as app:
            others = asyncio.gather(*also)
            async with app.run_test(size=SIZE) as pilot:
                await script(app, pilot)
            await others
        return app

    return asyncio.run(run())


def test_a_whole_game_at_a_joined_table_shows_only_the_seats_view() -> None:
    """Seat 0 plays by keys (a digit, else Enter), the host's bot seat 1; each update the
    table was sent holds no card hidden from seat 0, and each decision's panes are the
    game's drawing of seat 0's own view, nothing more."""
    host = hosted("clonk", [HUMAN, "random"], seed=17)
    game = host.game
    sent: list[net.Update] = []
    drawn: list[tuple[int, str, str]] = []

    async def script(app: JoinedTable, pilot: Pilot[None]) -> None:
        show = app.show

        def keep(remote: net.Remote, update: net.Update) -> None:
            sent.append(update)
            show(remote, update)

        app.show = keep  # type: ignore[method-assign]
        await decision(app)
        text = await screen_text(pilot)
        assert "Clonk! · round 1 · seat 0, your turn" in text and "q leave" in text
        await pilot.press("1")
        await until_async(lambda: app.decision is None or app.step > 0)
        while app.scores is None and app.failure is None:
            assert app.decision is not None
            picture = app.decision.picture
            drawn.append((app.step, text_of(picture.board), text_of(picture.private)))
            await enter(app)
        text = await screen_text(pilot)
        assert "Clonk!: final scores" in text and "game over" in text
        await pilot.press("enter")

    with serving(host) as served:
        app = at_table(served.link(host.tokens.seats[0]), script)
    assert app.failure is None and host.match.over
    assert app.scores == host.match.scores() and app.left is None
    seen = states(host)
    assert sent and drawn
    for update in sent:
        assert not leaks(game, seen[update.step], 0, msgspec.json.encode(update))
    for step, board, private in drawn:
        view = game.view(seen[step], 0)
        assert board == text_of(game.presentation.render_table(view, 0))
        assert private == text_of(game.presentation.render_private(view, 0))


def test_the_spectators_link_watches_the_game_to_its_end() -> None:
    host = hosted("clonk", [HUMAN, "random"], seed=5)

    async def script(app: JoinedTable, pilot: Pilot[None]) -> None:
        await until_async(lambda: app.scores is not None or app.failure, WAIT)
        assert not app.main.private_pane.display  # no hand is the spectators'
        text = await screen_text(pilot)
        assert "Clonk!: final scores" in text
        await pilot.press("q")

    with serving(host) as served:
        seat = net.play(served.link(host.tokens.seats[0]), random_player, registry.game)
        app = at_table(served.link(host.tokens.spectators), script, seat)
    assert app.failure is None and app.humans == [] and app.scores == host.match.scores()
    assert "seat 1 draws a card" in logged(app)


def test_save_and_undo_are_the_hosts_and_q_leaves_the_seat() -> None:
    host = hosted("clonk", [HUMAN, "random"], seed=5)

    async def script(app: JoinedTable, pilot: Pilot[None]) -> None:
        await decision(app)
        await pilot.press("s", "u")
        await until_async(lambda: "taking a decision back" in logged(app))
        await pilot.press("q")

    with serving(host) as served:
        app = at_table(served.link(host.tokens.seats[0]), script)
        until_peers = host.peers
    assert HOSTS_BUSINESS.format("saving") in logged(app)
    assert HOSTS_BUSINESS.format("taking a decision back") in logged(app)
    assert app.left == 0 and app.failure is None and until_peers == []
    assert not host.match.over and host.match.actions == []  # the host keeps the game


def test_a_dropped_connection_is_said_and_joined_again() -> None:
    host = hosted("clonk", [HUMAN, "random"], seed=17)

    async def script(app: JoinedTable, pilot: Pilot[None]) -> None:
        await decision(app)
        while "── round 2 ──" not in logged(app):
            await enter(app)
        first = app.remote
        first.socket.transport.abort()
        await until_async(lambda: "reconnected" in logged(app), WAIT)
        assert app.remote is not first and "connection was lost" in logged(app)
        await decision(app)
        while app.scores is None and app.failure is None:
            await enter(app)
        await pilot.press("q")

    with serving(host) as served:
        app = at_table(served.link(host.tokens.seats[0]), script)
    assert app.failure is None and app.scores == host.match.scores()
    said = logged(app)
    assert said.count("── round 2 ──") == 1  # the log sent again is not shown twice


def test_a_joined_table_counts_the_timer_down_and_says_which_seats_are_away() -> None:
    """As a hosted page does: the seconds left to the seat deciding, and the seats whose
    people are not connected, until they are."""
    host = hosted("clonk", [HUMAN, HUMAN], seed=5)
    host.timer = 600.0  # never runs out here

    async def script(app: JoinedTable, pilot: Pilot[None]) -> None:
        await decision(app)
        await until_async(lambda: " s left to decide" in app.status_line)
        line = app.status_line
        assert line.endswith("seats: 0 human, 1 human (away)")
        left = int(line.split(" s left to decide")[0].split()[-1])
        assert 0 < left <= 600
        async with net.connect(served.link(host.tokens.seats[1]), registry.game):
            await until_async(lambda: app.status_line.endswith("seats: 0 human, 1 human"))
        await until_async(lambda: app.status_line.endswith("1 human (away)"))
        await pilot.press("q")

    with serving(host) as served:
        app = at_table(served.link(host.tokens.seats[0]), script)
    assert app.failure is None and app.left == 0


def test_a_seat_joined_line_by_line_prints_each_line_once_across_reconnections(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops twice in the game; each reconnection is sent the whole log
    again, and only what is new is printed."""
    host = hosted("clonk", [HUMAN, "random"], seed=17)
    choose = net.Remote.choose
    answered = 0

    async def choose_then_drop(remote: net.Remote, step: int, index: int) -> bool:
        nonlocal answered
        answered += 1
        sent = await choose(remote, step, index)
        if answered in (3, 6):
            remote.socket.transport.abort()
        return sent

    monkeypatch.setattr(net.Remote, "choose", choose_then_drop)
    with serving(host) as served:
        joined = cli("join", served.link(host.tokens.seats[0]), "--bot", "random")
    assert joined.exit_code == 0, joined.output
    said, log = joined.stdout.splitlines(), host.lines[0]
    assert host.match.over and answered > 6
    assert said[0] == "joined Clonk! as seat 0 (random)"
    assert said[1 : 1 + len(log)] == log and "Clonk!: final scores" in said[1 + len(log)]


def test_table_without_a_terminal_or_with_a_bot_is_refused(cli: Callable[..., Result]) -> None:
    link = "http://127.0.0.1:9/#token"
    refused = cli("join", link, "--table")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: --table: the full-screen table needs a terminal, and standard input is not "
        "one; play line by line without --table\n"
    )
    assert cli("join", link, "--table", "--bot", "random").exit_code == 2
