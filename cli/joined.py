"""``meeple join LINK --table``: the full-screen table at a seat of a hosted game.

The host holds the game; this table holds only what the link's seat is sent
(:class:`~meeple.core.net.Update`): its view, its legal actions when it decides, and the log
as it may know it. It draws them with the game's presentation, as the table of a game
played here does (:class:`~meeple.cli.table.FullScreen`), and sends the person's choices
back. It runs in the app's own event loop, the connection's too: nothing waits in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import ClassVar, Literal

from textual.binding import Binding, BindingType
from textual.widgets.option_list import Option

from meeple.cli import output, signals
from meeple.cli.table import KEYS, Decision, FullScreen, Picture
from meeple.core import net

HOSTS_BUSINESS = "{} is the host's: the game is hosted elsewhere, and saved there after every move"
"""What ``s`` and ``u`` say at a joined table."""


class JoinedTable(FullScreen):
    """The table at the place ``remote`` joined (a seat, or the spectators'), showing
    ``first`` and then each of ``updates`` (:func:`~meeple.core.net.follow`'s)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "save", "save", show=False),
        Binding("u", "undo", "undo", show=False),
        Binding("q", "quit", "leave"),
    ]
    keys = (
        *KEYS[:2],
        ("s, u", "not here: saving and taking back are the host's"),
        ("q", "leave the seat (the host keeps the game; the link takes you back)"),
        *KEYS[4:6],
        ("Ctrl-C", "leave now"),
    )

    def __init__(
        self,
        remote: net.Remote,
        first: net.Update,
        updates: AsyncIterator[tuple[net.Remote, net.Update]],
        quiet: bool,
    ) -> None:
        seat = remote.seat
        super().__init__(remote.game, remote.welcome.seats, [] if seat is None else [seat], quiet)
        self.remote, self.first, self.updates = remote, first, updates
        self.logged = 0
        """Lines of the log shown (a reconnection is sent the whole log again)."""
        self.step = -1
        """The decision shown, or answered last (``-1``: none)."""
        self.lost = False
        self.left: Literal[0, 130, 143] | None = None
        """How the person left before the game was over: q, Ctrl-C or SIGTERM."""
        self.loop = asyncio.get_running_loop()

    def begin(self) -> None:
        self.show(self.remote, self.first)
        self.run_worker(self.follow(), name="meeple join")

    async def follow(self) -> None:
        try:
            async for remote, update in self.updates:
                self.show(remote, update)
        except Exception as failure:  # said once the full screen is gone
            self.failure = failure
            self.exit(return_code=1)

    def connection_lost(self, why: str) -> None:
        """The connection is lost: say so (once), and withdraw the decision shown."""
        if not self.lost:
            self.lost = True
            self.tell(f"{why}; reconnecting", "error")
        self.decision, self.step, self.deadline = None, -1, None
        self.waiting("(reconnecting)")

    def show(self, remote: net.Remote, update: net.Update) -> None:
        if self.lost:
            self.lost = False
            self.tell("reconnected", "information")
        self.remote = remote
        if not self.quiet:
            for line in net.news(update, self.logged):
                self.log_line(output.plain(line))
        self.logged = update.log_from + len(update.log)
        now = time.monotonic()
        self.deadline = None if update.timer is None else now + update.timer
        self.away = frozenset(s for s, shown in enumerate(update.seats) if not shown.here)
        game, seat = self.game, remote.seat
        view = remote.view(update)
        picture = Picture(
            status=f"{game.title} · round {update.round}",
            board=game.presentation.render_table(view, seat),
            private=None if seat is None else game.presentation.render_private(view, seat),
        )
        if update.to_move is None:
            self.over(update.scores or [], picture)
        elif seat is not None and update.to_move == seat and update.choices:
            if update.step != self.step:  # not one shown already, or answered
                self.step = update.step
                self.present(Decision(seat, picture, update.choices))
            else:
                self.draw(picture)
        else:
            if self.thinker is None or self.thinker[0] != update.to_move:
                self.thinking(update.to_move, time.monotonic())
            self.decision = None
            self.draw(picture)
            self.waiting("(watching)" if seat is None else "(waiting for the other seats)")

    def waiting(self, meanwhile: str) -> None:
        self.main.actions.set_options([Option(output.plain(meanwhile), disabled=True)])

    def send(self, request: int | Literal["undo"]) -> None:
        assert isinstance(request, int)  # the undo key says it is not here
        remote, step = self.remote, self.step
        self.run_worker(remote.choose(step, request), name="meeple choice")

    def action_save(self) -> None:
        self.tell(HOSTS_BUSINESS.format("saving"), "information")

    def action_undo(self) -> None:
        self.tell(HOSTS_BUSINESS.format("taking a decision back"), "information")

    async def action_quit(self) -> None:
        self.leave(0)

    def action_interrupt(self) -> None:
        self.leave(130)

    def terminate(self) -> None:
        """SIGTERM, in a signal handler: leave, in the app's loop."""
        self.loop.call_soon_threadsafe(self.leave, 143)

    def leave(self, code: Literal[0, 130, 143]) -> None:
        if self.scores is None:
            self.left = code
        self.exit()


@contextlib.asynccontextmanager
async def joined(
    link: str, games: net.Games, retry: float, quiet: bool
) -> AsyncIterator[JoinedTable]:
    """The table of the place ``link`` names, once it is reached; its connection is closed
    when done."""
    tables: list[JoinedTable] = []

    def lost(why: str) -> None:
        for table in tables:
            table.connection_lost(why)

    async with contextlib.aclosing(net.follow(link, games, retry=retry, on_lost=lost)) as updates:
        remote, first = await anext(updates)
        tables.append(app := JoinedTable(remote, first, updates, quiet))
        yield app


async def join_table(link: str, games: net.Games, retry: float, quiet: bool) -> JoinedTable:
    """Play (or watch) the place ``link`` names at the full-screen table, until the game is
    over or the person leaves; the table, as it ended."""
    async with joined(link, games, retry, quiet) as app:
        with signals.Terminable(app.terminate):
            await app.run_async()
    return app
