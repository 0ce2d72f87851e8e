"""Playing one game together over a network: the protocol, the host, and a client.

A :class:`Host` holds the one authoritative :class:`~meeple.core.engine.Match` of a game
played by people on other machines: each human seat has a secret link (a token), and so
have the spectators. A :class:`Lobby` holds the hosts a server serves and carries each
connection through its life, within :class:`Limits`: it reads the first message, a
:class:`Join` naming a token, then the seat's :class:`Choose` messages, and sends it a
:class:`Welcome`, then an :class:`Update` whenever the game changes, and a
:class:`Refused` for every message it does not act on. Every message is one JSON text
frame, a tagged msgspec struct, decoded strictly and bounded in size.

What a connection is sent is what its seat may know, and nothing else: the seat's view
(:meth:`~meeple.core.game.Game.view`; a spectator's is the onlooker's), the legal
actions only to the seat that decides, and the log as the seat may know it
(:meth:`~meeple.core.present.Presentation.describe_event`). The state never leaves the host.

Nothing here knows the web: a :class:`Connection` is anything that accepts, receives,
sends and closes (the ASGI app of ``meeple host`` adapts a websocket to it). The client,
:func:`play` and :func:`connect`, lets any bot -- a meeple bot or a researcher's agent,
anything with ``choose(prompt)`` -- take a seat through its link; it needs the
``websockets`` library (the ``web`` extra).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

import msgspec

from meeple.core import zones as _zones
from meeple.core.bots import HUMAN, Bot, Prompt
from meeple.core.engine import Match
from meeple.core.errors import IllegalAction, MeepleError, explain, install_hint
from meeple.core.game import Game
from meeple.core.scoring import Score, rank
from meeple.core.state import Action, State

PROTOCOL = 1
"""The version of the messages below; a client refuses a server speaking another."""

TOKEN_BYTES = 18
"""Random bytes in a token: 144 bits, 24 characters of URL-safe base64."""
TOKEN_MAX = 64
"""The longest token a :class:`Join` may carry (longer is not a token of this server)."""
PICTURE_BYTES = 256 * 1024
"""The largest picture of a table (:meth:`~meeple.core.present.Presentation.picture`) a page
is sent: a larger one is not sent, and the server's log says so."""

log = logging.getLogger("meeple.host")


# -- the messages -------------------------------------------------------------------------


class Message(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    """A frame of the protocol, tagged by its ``type``."""


class Join(Message, tag="join"):
    """The first message of a connection: the token its link carries, and whether it is a
    page, which is sent each view laid out (:class:`Board`) and the game's own drawing too."""

    token: Annotated[str, msgspec.Meta(max_length=TOKEN_MAX)]
    page: bool = False


class Choose(Message, tag="choose"):
    """The seat's answer to decision ``step``: the legal action at ``index`` (from 0)."""

    step: int
    index: int


class Welcome(Message, tag="welcome"):
    """Sent once a connection has joined: the game and whose place the connection is."""

    protocol: int
    game: str
    title: str
    version: str
    options: msgspec.Raw
    """The game's options, as its ``Options`` struct encodes them."""
    seats: list[str]
    """Who plays each seat: ``human`` or a bot's name."""
    seat: int | None
    """The connection's seat; ``None`` for a spectator."""


class SeatShown(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str
    here: bool
    """A bot, or a person with a connection open now."""


class Update(Message, tag="update"):
    """The game as the connection's seat may know it now.

    Updates are not queued: a connection that falls behind is sent the newest one, whose
    ``log`` holds every line since the last it was sent (from line ``log_from``).
    """

    step: int
    """Actions taken so far; a :class:`Choose` answers the decision of this step."""
    round: int
    to_move: int | None
    """The seat deciding now; ``None`` once the game is over."""
    seats: list[SeatShown]
    view: msgspec.Raw
    """The seat's view: the game's ``State`` with every card it may not see hidden."""
    legal: msgspec.Raw
    """The legal actions (a list of the game's ``Action``), only to the seat deciding."""
    choices: list[str]
    """Each legal action as a person reads it, in the same order."""
    log: list[str]
    log_from: int
    timer: float | None = None
    """Seconds left to the seat deciding, when the game is played with a timer."""
    board: msgspec.Raw = msgspec.Raw(b"null")
    """The view laid out for a page: a :class:`Board`; ``null`` to a program, which reads
    the view. (msgspec decodes no ``Raw`` in a union: ``null`` is raw too.)"""
    drawing: msgspec.Raw = msgspec.Raw(b"null")
    """The game's own drawing of the seat's table, to a page: lines of styled text,
    ``[[text, colour, background, flags], ...]`` (see ``Host.draw``); ``null`` otherwise."""
    picture: msgspec.Raw = msgspec.Raw(b"null")
    """The game's picture of the seat's table, to a page: an SVG document (a string) at most
    :data:`PICTURE_BYTES` long (:func:`picture`); ``null`` when it has none."""
    scores: list[Score] | None = None
    """The final scores, once the game is over."""
    places: list[int] | None = None
    """Each seat's place (1 is best; ties share one), once the game is over."""


class Refused(Message, tag="refused"):
    """Why a message or a connection was refused; nothing changed. ``closing``: the
    connection is closed after it."""

    reason: str
    closing: bool = False


class Row(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A zone of the view: its cards from the bottom up (``?back`` for a hidden one)."""

    label: str
    seat: int | None
    """The seat whose area it is in; ``None`` for the table's."""
    cards: list[str]


class Count(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A value of the view outside its zones (gold, a track, a status)."""

    label: str
    seat: int | None
    value: str | int | float | bool


class Board(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A view laid out as rows of cards and counters, for any game."""

    rows: list[Row]
    counts: list[Count]
    names: dict[str, str]
    """How each face-up card reads (:meth:`~meeple.core.present.Presentation.describe_card`), where
    that is not its id."""


_encode = msgspec.json.Encoder().encode
_incoming = msgspec.json.Decoder(Join | Choose)
_outgoing = msgspec.json.Decoder(Welcome | Update | Refused)


# -- what a seat is shown -----------------------------------------------------------------

_NOT_COUNTED = frozenset({"seats", "rng", "stack", "turns"})
"""Fields of every state a page shows otherwise (the round, whose turn) or not at all."""


def board(game: Game[Any, Any], view: State) -> Board:
    """The rows and counters of ``view``: its zones, and the values outside them.

    Each lies in a seat's area when its place in the state is a per-seat one, as the
    game's set-up keeps it (:meth:`~meeple.core.game.Game.layout`): ``players[1].gold``
    is seat 1's gold.
    """
    places = game.layout(view.seats).places
    seated = {key[: p.owner_at] for key, p in places.items() if (p.owner_at or 0) > 0}
    rows: list[Row] = []
    places_named: list[str] = []
    names: dict[str, str] = {}
    for path, zone in _zones.Survey(view).zones:
        place = places.get(_zones.place_of(path))
        at = place.owner_at if place is not None else None
        seat = zone.owner if zone.owner is not None or at is None or at < 0 else int(path[at])
        places_named.append(" ".join(str(p) for i, p in enumerate(path) if i != at))
        where = [str(p) for i, p in enumerate(path) if type(p) is int and i != at]
        rows.append(Row(label=" ".join([zone.kind, *where]), seat=seat, cards=list(zone.cards)))
        for card in zone.cards:
            if not card.startswith(_zones.HIDDEN) and card not in names:
                names[card] = game.presentation.describe_card(card)
    labels = [(row.label, row.seat) for row in rows]
    for row, named in zip(rows, places_named, strict=True):
        if labels.count((row.label, row.seat)) > 1:  # two zones of a kind: named by place
            row.label = named
    counts: list[Count] = []
    for name in view.__struct_fields__:
        if name not in _NOT_COUNTED:
            _count(getattr(view, name), (name,), seated, view.seats, counts)
    return Board(rows=rows, counts=counts, names={c: n for c, n in names.items() if n != c})


Scalar = str | int | float | bool


def _count(
    value: object, path: tuple[str | int, ...], seated: set[Any], seats: int, out: list[Count]
) -> None:
    """Append the counters inside ``value``, which lies at ``path``."""
    if isinstance(value, _zones.Zone) or value is None:
        return
    if isinstance(value, Scalar):
        seat, label = _seat_of(path, seated, seats)
        out.append(Count(label=label, seat=seat, value=value))
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            _count(getattr(value, name), (*path, name), seated, seats, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            _count(item, (*path, str(key)), seated, seats, out)
    elif isinstance(value, list | tuple):
        if all(isinstance(item, Scalar) for item in value):
            if value:
                seat, label = _seat_of(path, seated, seats)
                out.append(Count(label=label, seat=seat, value=", ".join(map(str, value))))
        else:
            for i, item in enumerate(value):
                _count(item, (*path, i), seated, seats, out)


def _seat_of(path: tuple[str | int, ...], seated: set[Any], seats: int) -> tuple[int | None, str]:
    """The seat whose area ``path`` lies in (``None``: the table's), and its label there."""
    for i, step in enumerate(path):
        if type(step) is int and 0 <= step < seats and _zones.place_of(path[:i]) in seated:
            rest = path[:i] + path[i + 1 :]
            return step, _label(rest[i:] or rest)
    return None, _label(path)


def _label(path: tuple[str | int, ...]) -> str:
    """A field's path as words: ``("pool", "gold_gained")`` -> ``pool gold gained``."""
    return " ".join(str(p).replace("_", " ").strip() for p in path)


def choices(game: Game[Any, Any], view: State, legal: Sequence[Action]) -> list[str]:
    """Each legal action as a person reads it; actions that read alike are told apart by
    the cards they name (:meth:`~meeple.core.present.Presentation.describe_card`), else by
    number."""
    texts = [game.presentation.describe_action(view, action) for action in legal]
    if len(set(texts)) == len(texts):
        return texts
    seen: dict[str, int] = {}
    for text in texts:
        seen[text] = seen.get(text, 0) + 1
    cards = set(game.cards(view))
    told = []
    for text, action in zip(texts, legal, strict=True):
        if seen[text] > 1:
            named = [
                game.presentation.describe_card(n)
                for _, n in _zones.Survey(action).names
                if n in cards
            ]
            text = f"{text} ({', '.join(named)})" if named else text
        told.append(text)
    if len(set(told)) < len(told):
        told = [
            f"{text} (choice {i})" if told.count(text) > 1 else text
            for i, text in enumerate(told, 1)
        ]
    return told


# -- the host -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """What one server takes from the connections to it; past a limit it refuses, saying
    which."""

    frame_bytes: int = 1024
    """The longest message read from a connection (a :class:`Choose` takes about 40)."""
    connections: int = 64
    """Connections joined, to all the server's games together."""
    per_seat: int = 4
    """Connections of one seat at once (a phone, a laptop, a tab left open)."""
    spectators: int = 16
    """Spectator connections of one game."""
    waiting: int = 32
    """Connections open but not joined yet."""
    join_timeout: float = 10.0
    """Seconds a connection has to send its :class:`Join`."""
    send_timeout: float = 30.0
    """Seconds a connection has to take one message: past that it is not reading."""
    refusals: int = 100
    """Messages of one connection refused before it is closed."""
    notes: int = 32
    """Refusals waiting to be sent to one connection before it is closed."""


class Tokens(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The secret of each human seat's link (``None`` for a bot's seat) and the spectators'."""

    seats: list[str | None]
    spectators: str

    @classmethod
    def new(cls, seats: Sequence[str]) -> Tokens:
        """New tokens for the human seats of ``seats`` (``human`` or a bot's name each)."""

        def token() -> str:
            return secrets.token_urlsafe(TOKEN_BYTES)

        return cls(seats=[token() if name == HUMAN else None for name in seats], spectators=token())

    def find(self, given: str) -> tuple[bool, int | None]:
        """Whether ``given`` is one of these tokens, and whose (``None``: the spectators').

        Every token is compared, each in constant time, so the time taken tells nothing of
        which token was near.
        """
        found, seat = False, None
        wanted = given.encode()
        for i, token in enumerate([*self.seats, self.spectators]):
            if token is not None and hmac.compare_digest(wanted, token.encode()):
                found, seat = True, (i if i < len(self.seats) else None)
        return found, seat


class Peer:
    """One joined connection: its seat, what it was last sent, and what waits to go.

    Updates are not queued: a peer is marked stale and sent the newest update when it is
    ready for one, so one that reads slowly costs no memory. Refusals are queued, up to
    :attr:`Limits.notes`.
    """

    def __init__(self, host: Host, seat: int | None, limits: Limits, page: bool) -> None:
        self.host, self.seat, self.limits, self.page = host, seat, limits, page
        self.notes: deque[bytes] = deque()
        self.stale = True
        self.log_sent = 0
        self.refusals = 0
        self.gone: str | None = None
        """Why the connection is being closed."""
        self.wake = asyncio.Event()
        self.wake.set()

    def note(self, message: Message) -> None:
        if len(self.notes) >= self.limits.notes:
            self.notes.clear()
            self.drop("too many messages unread: this connection does not read what it is sent")
        else:
            self.notes.append(_encode(message))
            self.wake.set()

    def refuse(self, reason: str) -> None:
        self.refusals += 1
        if self.refusals > self.limits.refusals:
            self.drop(f"more than {self.limits.refusals} messages refused")
        else:
            self.note(Refused(reason=reason))

    def refresh(self) -> None:
        self.stale = True
        self.wake.set()

    def drop(self, why: str) -> None:
        """Close the connection, after the refusals queued and ``why``."""
        if self.gone is None:
            self.gone = why
            self.notes.append(_encode(Refused(reason=why, closing=True)))
            self.wake.set()

    async def frames(self) -> AsyncIterator[bytes]:
        """What to send, as soon as there is something: refusals in order, then the newest
        update; until the connection is dropped."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.notes:
                yield self.notes.popleft()
            if self.gone is not None:
                return
            if self.stale:
                self.stale = False
                yield await self.host.frame(self)


class _Shown(msgspec.Struct):
    """What every connection of one seat is sent of one version of the game, encoded once."""

    version: int
    seen: State | None
    """The seat's view, for a page's board and drawing; kept only when a page asks (a view
    kept for every seat of many games made each garbage collection long)."""
    view: msgspec.Raw
    legal: msgspec.Raw
    choices: list[str]
    board: msgspec.Raw | None = None
    drawing: msgspec.Raw | None = None
    picture: msgspec.Raw | None = None


_NONE = msgspec.Raw(b"[]")


class Host:
    """One authoritative match played over connections (see the module's docstring).

    ``names`` says who plays each seat (``human`` or a bot's name); ``bots`` holds the bot
    of each bot seat (``None`` for a human seat), played here in a worker thread so that
    the connections are served while it thinks. ``save`` is called after every action,
    before anyone is told of it. With ``timer`` (seconds), a person who does not decide
    in time has the seat's ``fallback`` bot decide for them, and the log says so.
    ``draw(view, seat)`` is the game's own drawing of a view, as the JSON of
    :attr:`Update.drawing`, for the pages; made in a worker thread, once per seat and
    version of the game.
    """

    def __init__(
        self,
        match: Match,
        names: Sequence[str],
        bots: Sequence[Bot | None],
        *,
        tokens: Tokens,
        save: Callable[[], object] | None = None,
        timer: float | None = None,
        fallback: Sequence[tuple[str, Bot] | None] = (),
        log: Sequence[Sequence[str]] | None = None,
        draw: Callable[[State, int | None], bytes] | None = None,
    ) -> None:
        self.match, self.game = match, match.game
        self.names, self.bots, self.tokens = list(names), list(bots), tokens
        self.save, self.timer, self.draw = save, timer, draw
        self.fallback = list(fallback)
        seats = len(self.names)
        self.lines: list[list[str]] = [list(lines) for lines in log or [[]] * (seats + 1)]
        """The log as each seat may know it, then as a spectator may."""
        self.peers: list[Peer] = []
        self.version = 0
        self._shown: dict[int | None, _Shown] = {}
        self._pending: asyncio.Future[int] | None = None
        self._deadline: float | None = None
        self._timed_out = False
        self._saved = asyncio.Event()
        """Clear while an action is being saved."""
        self._saved.set()
        self.scores: list[Score] | None = None
        if match.over:
            self.scores = match.scores()

    # -- the connections ------------------------------------------------------------------

    def attach(self, seat: int | None, limits: Limits, page: bool = False) -> Peer | str:
        """A new connection of ``seat``, welcomed; or why it cannot be one."""
        mine = [p for p in self.peers if p.seat == seat]
        most = limits.spectators if seat is None else limits.per_seat
        if len(mine) >= most:
            who = "spectators" if seat is None else f"seat {seat}"
            return f"{who} already have {most} connections open, the most allowed; close one"
        peer = Peer(self, seat, limits, page)
        peer.note(
            Welcome(
                protocol=PROTOCOL,
                game=self.game.id,
                title=self.game.title,
                version=self.game.version,
                options=msgspec.Raw(_encode(self.game.options)),
                seats=self.names,
                seat=seat,
            )
        )
        self.peers.append(peer)
        self._changed()
        return peer

    def detach(self, peer: Peer) -> None:
        self.peers.remove(peer)
        self._changed()

    def receive(self, peer: Peer, data: str | bytes) -> None:
        """Act on a message of ``peer``'s, or refuse it, saying why."""
        size = len(data.encode() if isinstance(data, str) else data)
        if size > peer.limits.frame_bytes:
            peer.refuse(
                f"a message of {size} bytes; the most this server reads is "
                f"{peer.limits.frame_bytes}"
            )
            return
        message = decode(data)
        if isinstance(message, str):
            peer.refuse(message)
        elif isinstance(message, Join):
            peer.refuse("this connection has joined already; send choose messages")
        elif (why := self._refusal(peer.seat, message)) is not None:
            peer.refuse(why)
        else:
            assert self._pending is not None
            self._pending.set_result(message.index)

    def _refusal(self, seat: int | None, choose: Choose) -> str | None:
        """Why ``seat`` may not make ``choose`` now (``None``: it may)."""
        state, step = self.match.state, len(self.match.actions)
        mover = state.to_move
        if seat is None:
            return "spectators watch the game; only a seat's link may choose"
        if not self._saved.is_set():
            return "the last action is being saved; choose among the actions shown next"
        if mover is None:
            return "the game is over"
        if mover != seat:
            who = f"seat {mover} ({self.names[mover]})"
            return f"it is {who}'s turn, not seat {seat}'s: wait for yours"
        if choose.step != step:
            return (
                f"that choice answers decision {choose.step}, but the game is at decision "
                f"{step}: choose among the actions shown now"
            )
        if self._timed_out:
            return "your time for this decision ran out; the fallback bot decides it"
        if not self._open():
            return "this decision is answered already"
        n = len(self.match.legal())
        if not 0 <= choose.index < n:
            return f"choice {choose.index} is not one of the {n} legal actions (0 to {n - 1})"
        return None

    def _changed(self) -> None:
        self.version += 1
        for peer in self.peers:
            peer.refresh()

    async def frame(self, peer: Peer) -> bytes:
        """The newest update for ``peer``: its seat's part encoded once per version, the
        log lines it has not been sent, and to a page its board, drawing and picture; once
        the last action is saved."""
        await self._saved.wait()
        shown = self._show(peer.seat, peer.page)
        lines = self.lines[self._viewer(peer.seat)]
        start, peer.log_sent = peer.log_sent, len(lines)
        state = self.match.state
        here = {p.seat for p in self.peers}
        left = self._deadline - asyncio.get_running_loop().time() if self._deadline else None
        update = Update(
            step=len(self.match.actions),
            round=state.turns.round,
            to_move=state.to_move,
            seats=[
                SeatShown(name=name, here=name != HUMAN or s in here)
                for s, name in enumerate(self.names)
            ],
            view=shown.view,
            legal=shown.legal,
            choices=shown.choices,
            log=lines[start:],
            log_from=start,
            timer=None if left is None else max(0.0, round(left, 1)),
            scores=self.scores,
            places=None if self.scores is None else rank(self.scores),
        )
        if peer.page:
            assert shown.seen is not None
            if shown.board is None:
                shown.board = msgspec.Raw(_encode(board(self.game, shown.seen)))
            update.board = shown.board
            if shown.picture is None:
                game, view, seat = self.game, shown.seen, peer.seat
                shown.picture = msgspec.Raw(
                    _encode(await off_loop(lambda: picture(game, view, seat)))
                )
            update.picture = shown.picture
            if self.draw is not None:
                if shown.drawing is None:  # the game may change meanwhile: an update follows
                    draw, view, seat = self.draw, shown.seen, peer.seat
                    shown.drawing = msgspec.Raw(await off_loop(lambda: draw(view, seat)))
                update.drawing = shown.drawing
        return _encode(update)

    def _viewer(self, seat: int | None) -> int:
        return len(self.names) if seat is None else seat

    def _show(self, seat: int | None, page: bool) -> _Shown:
        """What ``seat`` is shown of this version of the game, made once; with the view
        itself when a page is to be sent it."""
        shown = self._shown.get(seat)
        if shown is not None and shown.version == self.version:
            if page and shown.seen is None:
                shown.seen = self.game.view(self.match.state, seat)
            return shown
        game, state = self.game, self.match.state
        view = game.view(state, seat)
        deciding = seat is not None and state.to_move == seat and self._open()
        legal = self.match.legal() if deciding else []
        shown = self._shown[seat] = _Shown(
            version=self.version,
            seen=view if page else None,
            view=msgspec.Raw(_encode(view)),
            legal=msgspec.Raw(_encode(legal)) if legal else _NONE,
            choices=choices(game, view, legal) if legal else [],
        )
        return shown

    def _open(self) -> bool:
        """Whether a person is being asked for the decision now."""
        return self._pending is not None and not self._pending.done()

    # -- the match ------------------------------------------------------------------------

    async def run(self) -> list[Score]:
        """Play the match to its end: bots in a worker thread, people through their
        connections. Returns the final scores; everyone connected is shown them."""
        match = self.match
        while not match.over:
            seat = match.state.to_move
            assert seat is not None
            bot = self.bots[seat]
            if bot is not None:
                await self._play(seat, await self._think(bot, seat))
            else:
                action, note = await self._ask(seat)
                await self._play(seat, action, note)
        if self.scores is None:
            self.scores = match.scores()
            if match.hooks.game_over is not None:
                match.hooks.game_over(game=self.game, state=match.state, scores=self.scores)
            self._changed()
        return self.scores

    async def _think(self, bot: Bot, seat: int) -> Action:
        legal = self.match.legal()
        prompt = Prompt.of(self.game, self.match.state, seat, legal)
        action = await off_loop(lambda: bot.choose(prompt))
        if action not in legal:
            said = self.game.presentation.describe_action(self.match.state, action)
            raise IllegalAction(
                f"seat {seat}'s bot chose {said}, which is not among the legal actions"
            )
        return action

    async def _ask(self, seat: int) -> tuple[Action, str | None]:
        """The action the person at ``seat`` chooses; or, if the timer runs out first, the
        fallback bot's, with a note saying so."""
        loop = asyncio.get_running_loop()
        pending = self._pending = loop.create_future()
        if self.timer is not None:
            self._deadline = loop.time() + self.timer
        self._changed()
        try:
            index = await asyncio.wait_for(asyncio.shield(pending), self.timer)
        except TimeoutError:
            pending.cancel()
            self._deadline, self._timed_out = None, True
            self._changed()
            fallback = self.fallback[seat]
            assert fallback is not None
            name, bot = fallback
            note = f"seat {seat}'s time ran out: {name} decided for it"
            return await self._think(bot, seat), note
        finally:
            self._pending, self._deadline = None, None
        return self.match.legal()[index], None

    async def _play(self, seat: int, action: Action, note: str | None = None) -> None:
        """Apply ``action``, log it as each seat may know it, save, and tell everyone.

        The save is written in a worker thread (a file's sync takes milliseconds, in which
        the loop serves the other games and connections); until it is written nobody is
        sent an update, nor told in a refusal that the game moved on.
        """
        self._timed_out = False
        for lines, added in zip(
            self.lines, played(self.match, self.names, action, note), strict=True
        ):
            lines.extend(added)
        if self.save is not None:
            self._saved.clear()
            try:
                await asyncio.to_thread(self.save)
            finally:
                self._saved.set()
        self._changed()


def picture(game: Game[Any, Any], view: State, seat: int | None) -> str | None:
    """The game's picture of ``view`` for ``seat``
    (:meth:`~meeple.core.present.Presentation.picture`), or ``None``: it draws none, or its
    drawing failed or is past :data:`PICTURE_BYTES`, which the server's log says."""
    who = "the spectators" if seat is None else f"seat {seat}"
    try:
        svg = game.presentation.picture(view, seat)
    except Exception as exc:  # the game's code: the pages go on without its picture
        log.warning(
            "%s's picture for %s failed, and is not sent: %s", game.title, who, explain(exc)
        )
        return None
    most = PICTURE_BYTES
    if svg is not None and (size := len(svg.encode())) > most:
        log.warning(
            "%s's picture for %s is %d bytes, past the %d a page is sent: it is not sent; "
            "the game should draw less",
            game.title, who, size, most,
        )  # fmt: skip
        return None
    return svg


def played(
    match: Match, names: Sequence[str], action: Action, note: str | None = None
) -> list[list[str]]:
    """Apply ``action``, one of ``match``'s legal actions; the lines it adds to the log as
    each seat, then a spectator, may know it.

    An action is told by the events of it the seat may know
    (:meth:`~meeple.core.present.Presentation.describe_event`), else described on the view that seat
    had before it, as ``meeple play`` logs it; ``note`` comes first, and a heading after
    it when a new round starts.
    """
    game, seat = match.game, match.state.to_move
    before = game.clone(match.state)
    events = match.apply_legal(action)
    added = []
    for viewer in [*range(len(names)), None]:
        seen = [d for e in events if (d := game.presentation.describe_event(e, viewer))]
        if not seen:
            who = "you" if viewer == seat else f"seat {seat} ({names[seat or 0]})"
            seen = [
                f"{who}: {game.presentation.describe_action(game.view(before, viewer), action)}"
            ]
        added.append([*([note] if note else []), "; ".join(seen)])
    now = match.state.turns.round
    if now != before.turns.round and not match.over:
        for lines in added:
            lines.append(f"── round {now} ──")
    return added


def log_of(match: Match, names: Sequence[str], actions: Sequence[Action]) -> list[list[str]]:
    """The log of ``actions`` played on from ``match``, as each seat, then a spectator, may
    know it: what a host resuming a saved game tells of the moves before."""
    log: list[list[str]] = [[] for _ in range(len(names) + 1)]
    for action in actions:
        if action not in match.legal():
            raise IllegalAction(f"step {len(match.actions) + 1} of the saved game is not legal")
        for lines, added in zip(log, played(match, names, action), strict=True):
            lines.extend(added)
    return log


T = TypeVar("T")


async def off_loop(work: Callable[[], T]) -> T:
    """``work()`` run in a thread of its own, awaited while the loop serves on.

    A daemon thread: a search still thinking when the server stops does not hold the
    process open (a thread pool's threads are waited for at exit).
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Any, failed: bool) -> None:
        if not done.done():
            (done.set_exception if failed else done.set_result)(outcome)

    def run() -> None:
        outcome: Any
        try:
            outcome, failed = work(), False
        except Exception as exc:
            outcome, failed = exc, True
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, outcome, failed)

    threading.Thread(target=run, name="meeple bot", daemon=True).start()
    return await done


# -- a server's connections -----------------------------------------------------------------


class Closed(Exception):
    """Raised by :meth:`Connection.send` once the other side has closed the connection."""


class Connection(Protocol):
    """One connection to a server, as the web framework has it (a websocket)."""

    async def accept(self) -> None: ...

    async def deny(self, reason: str) -> None:
        """Refuse the connection before accepting it, saying why."""
        ...

    async def receive(self) -> str | bytes | None:
        """The next message (``None``: the connection is closed)."""
        ...

    async def send(self, frame: bytes) -> None:
        """Send one message (:class:`Closed`: the connection is closed)."""
        ...

    async def close(self, reason: str) -> None:
        """Close the connection, saying why."""
        ...


class Lobby:
    """The games one server hosts, and every connection to them, within :class:`Limits`."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.hosts: list[Host] = []
        self.waiting = 0
        self.joined = 0

    def find(self, token: str) -> tuple[Host, int | None] | None:
        """The game and the seat (``None``: spectators) whose token ``token`` is."""
        found = None
        for host in self.hosts:
            mine, seat = host.tokens.find(token)
            if mine:
                found = host, seat
        return found

    async def serve(self, conn: Connection) -> None:
        """Carry one connection through its life: accept it if the server has room, take
        its :class:`Join`, then serve its seat until either side closes it."""
        limits = self.limits
        if self.waiting >= limits.waiting:
            await conn.deny(
                f"{limits.waiting} connections are waiting to join already, the most this "
                "server takes; try again in a few seconds"
            )
            return
        self.waiting += 1
        try:
            await conn.accept()
            joined = await self._join(conn)
        finally:
            self.waiting -= 1
        if isinstance(joined, str):
            await self._close(conn, joined, _encode(Refused(reason=joined, closing=True)))
            return
        host, peer = joined
        self.joined += 1
        try:
            await self._converse(conn, peer)
        finally:
            self.joined -= 1
            host.detach(peer)

    async def _join(self, conn: Connection) -> tuple[Host, Peer] | str:
        """The game and the new peer a connection's first message joins; or why not."""
        limits = self.limits
        try:
            data = await asyncio.wait_for(conn.receive(), limits.join_timeout)
        except TimeoutError:
            return f"no join message within {limits.join_timeout:g} seconds; open the link again"
        if data is None:
            return "closed before joining"
        size = len(data.encode() if isinstance(data, str) else data)
        if size > limits.frame_bytes:
            return f"a message of {size} bytes; the most this server reads is {limits.frame_bytes}"
        message = decode(data)
        if isinstance(message, str):
            return message
        if not isinstance(message, Join):
            return 'join first: the first message is {"type": "join", "token": ...}'
        found = self.find(message.token)
        if found is None:
            return (
                "this link's token is not one of this server's games: ask whoever hosts the "
                "game for your link again, and open it as it was given"
            )
        if self.joined >= limits.connections:
            return f"this server has {limits.connections} connections, the most it takes"
        host, seat = found
        peer = host.attach(seat, limits, message.page)
        return peer if isinstance(peer, str) else (host, peer)

    async def _converse(self, conn: Connection, peer: Peer) -> None:
        """Read the peer's messages and send it what it is due, until either side stops.

        A send that does not finish within :attr:`Limits.send_timeout` means that the other
        side no longer reads: the connection is dropped rather than held.
        """
        host = peer.host

        async def read() -> None:
            while peer.gone is None and (data := await conn.receive()) is not None:
                host.receive(peer, data)

        async def write() -> None:
            timeout = self.limits.send_timeout
            async for frame in peer.frames():
                try:
                    await asyncio.wait_for(conn.send(frame), timeout)
                except TimeoutError:
                    peer.drop(f"a message was not taken within {timeout:g} seconds")
                    return
                except Closed:
                    return

        tasks = [asyncio.create_task(read()), asyncio.create_task(write())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            ended = await asyncio.gather(*tasks, return_exceptions=True)
        if peer.gone is not None:
            await self._close(conn, peer.gone)
        for outcome in ended:  # a fault of the game's (its view, its words) is not hidden
            if isinstance(outcome, Exception):
                raise outcome

    async def _close(self, conn: Connection, why: str, *last: bytes) -> None:
        """Send ``last``, then close ``conn`` saying ``why``; within the send timeout, as the
        other side may not read (the server then lets the connection go as it can)."""

        async def close() -> None:
            for frame in last:
                await conn.send(frame)
            await conn.close(why)

        with contextlib.suppress(Closed, TimeoutError):
            await asyncio.wait_for(close(), self.limits.send_timeout)


def decode(data: str | bytes) -> Join | Choose | str:
    """A message a connection sent, or why it is not one."""
    try:
        message: Join | Choose = _incoming.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        return (
            f"not a message this server reads ({exc}); send "
            '{"type": "choose", "step": STEP, "index": INDEX}'
        )
    return message


# -- the client ---------------------------------------------------------------------------

CLIENT_FRAME_MAX = 16 * 1024 * 1024
"""The longest message the client takes from a server (an update with a long game's log)."""


class Unreachable(MeepleError):
    """No server answers at a link's address (not started, stopped, or restarting)."""


def endpoint(link: str) -> tuple[str, str]:
    """The websocket address and the token of an invite link
    (``http://host:port/#TOKEN`` -> ``ws://host:port/ws``, ``TOKEN``)."""
    parts = urlsplit(link.strip())
    schemes = {"http": "ws", "https": "wss"}
    if parts.scheme not in schemes or not parts.netloc or not parts.fragment:
        raise MeepleError(
            f"{link!r} is not an invite link: it reads http://HOST:PORT/#TOKEN, as "
            "`meeple host` prints it"
        )
    return urlunsplit((schemes[parts.scheme], parts.netloc, "/ws", "", "")), parts.fragment


class Remote:
    """One seat (or a spectator's place) at a hosted game, through its link.

    :meth:`updates` yields each :class:`Update` received; :meth:`prompt` turns one into the
    :class:`~meeple.core.bots.Prompt` a bot answers, :meth:`choose` sends the answer.
    """

    def __init__(self, socket: Any, welcome: Welcome, game: Game[Any, Any]) -> None:
        self.socket, self.welcome, self.game = socket, welcome, game
        self.seat = welcome.seat
        self._view = msgspec.json.Decoder(game.state_type)
        self._legal = msgspec.json.Decoder(list[game.action_type])  # type: ignore[name-defined]

    async def updates(self) -> AsyncIterator[Update]:
        """Each update, until the server closes the connection. A refusal that closes it
        is raised as a :class:`MeepleError`; any other is passed over (an update follows)."""
        async for data in self.socket:
            message = _read(data)
            if isinstance(message, Update):
                yield message
            elif isinstance(message, Refused) and message.closing:
                raise MeepleError(f"the server closed the connection: {message.reason}")

    def view(self, update: Update) -> State:
        """The view ``update`` holds: the seat's, or a spectator's (the onlooker's)."""
        return self._decoded(self._view, update.view)

    def prompt(self, update: Update) -> Prompt:
        """The decision ``update`` puts to this seat: its view and legal actions."""
        view = self.view(update)
        legal = self._decoded(self._legal, update.legal)
        assert self.seat is not None
        return Prompt(game=self.game, seat=self.seat, legal=legal, make_view=lambda: view)

    def _decoded(self, decoder: msgspec.json.Decoder[Any], raw: msgspec.Raw) -> Any:
        try:
            return decoder.decode(raw)
        except msgspec.DecodeError as exc:
            raise MeepleError(
                f"the server sent a view or actions that {self.game.title} does not read: {exc}"
            ) from None

    async def choose(self, step: int, index: int) -> bool:
        """Answer decision ``step`` with the legal action at ``index``; whether it was sent
        (``False``: the connection was lost, and :meth:`updates` ends for it)."""
        try:
            await self.socket.send(_encode(Choose(step=step, index=index)).decode())
        except _websockets().exceptions.ConnectionClosed:
            return False
        return True


def news(update: Update, logged: int) -> list[str]:
    """The lines of ``update``'s log past the first ``logged`` lines of the whole log: a
    client that reconnects is sent the whole log again, and shows only what is new."""
    return update.log[max(0, logged - update.log_from) :]


def _read(data: str | bytes) -> Welcome | Update | Refused:
    try:
        message: Welcome | Update | Refused = _outgoing.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise MeepleError(f"the server sent a message this client does not read: {exc}") from None
    return message


def _websockets() -> Any:
    """The ``websockets`` library, which the client needs (the ``web`` extra)."""
    try:
        import websockets.asyncio.client
        import websockets.exceptions
    except ImportError:
        raise MeepleError(
            f"joining a hosted game needs the websockets library: {install_hint('web')}"
        ) from None
    return websockets


Games = Callable[[str], type[Game[Any, Any]]]
"""The installed game class of a game id (``Registry.game``)."""


@contextlib.asynccontextmanager
async def connect(link: str, games: Games) -> AsyncIterator[Remote]:
    """Join the game an invite link names, which must be installed here (``games``) in the
    server's rules version."""
    ws = _websockets()
    url, token = endpoint(link)
    try:
        socket = await ws.asyncio.client.connect(url, max_size=CLIENT_FRAME_MAX, open_timeout=10)
    except ws.exceptions.InvalidStatus as exc:
        body = exc.response.body.decode(errors="replace").strip() if exc.response.body else ""
        said = f": {body}" if body else ""
        raise MeepleError(
            f"{url}: the server refused the connection (HTTP {exc.response.status_code}){said}"
        ) from None
    except (OSError, TimeoutError, ws.exceptions.InvalidHandshake) as exc:
        raise Unreachable(f"cannot reach {url}: {exc}; is the game still hosted there?") from None
    async with socket:
        await socket.send(_encode(Join(token=token)).decode())
        first = _read(await socket.recv())
        if isinstance(first, Refused):
            raise MeepleError(f"the server refused the link: {first.reason}")
        if not isinstance(first, Welcome):
            raise MeepleError("the server did not welcome the connection first")
        if first.protocol != PROTOCOL:
            raise MeepleError(
                f"the server speaks protocol {first.protocol}; this meeple speaks {PROTOCOL}"
            )
        cls = games(first.game)
        if cls.version != first.version:
            raise MeepleError(
                f"the server plays {cls.title} rules version {first.version}; the one installed "
                f"here is version {cls.version}: install the same version to join"
            )
        try:
            options = msgspec.json.decode(first.options, type=cls.options_type)
        except msgspec.DecodeError as exc:
            raise MeepleError(f"the server's {cls.title} options do not read here: {exc}") from None
        yield Remote(socket, first, cls(options))


async def follow(
    link: str,
    games: Games,
    *,
    retry: float = 0.0,
    on_lost: Callable[[str], object] | None = None,
) -> AsyncGenerator[tuple[Remote, Update], None]:
    """Each update of the place an invite link names (a seat, or the spectators'), with the
    connection it came through, until the one that says the game is over.

    A connection lost, or a server not answering, is tried again for up to ``retry``
    seconds (a host restarted with ``--resume`` keeps its links), ``on_lost(why)`` told
    before each try; a reconnection is a new :class:`Remote`, sent the whole log again.
    """
    ws = _websockets()
    lost: float | None = None
    while True:
        try:
            async with connect(link, games) as remote:
                lost = None
                async for update in remote.updates():
                    yield remote, update
                    if update.to_move is None:
                        return
            why = "the server closed the connection"
        except Unreachable as exc:
            why = str(exc)
        except ws.exceptions.ConnectionClosed as exc:
            why = f"the connection was lost ({exc})"
        lost = lost if lost is not None else time.monotonic()
        if time.monotonic() - lost >= retry:
            raise MeepleError(f"{why}; the game was not over")
        if on_lost is not None:
            on_lost(why)
        await asyncio.sleep(0.5)


async def play(
    link: str,
    player: Callable[[Game[Any, Any], int], Bot],
    games: Games,
    *,
    retry: float = 0.0,
    on_update: Callable[[Remote, Update], object] | None = None,
) -> Update:
    """Play the seat an invite link names until the game is over; return the last update,
    which holds the final scores.

    ``player(game, seat)`` makes what decides for the seat: any object with
    ``choose(prompt) -> action`` (a meeple bot, an agent of one's own), called in a worker
    thread. ``on_update(remote, update)`` sees every update. A connection lost, or a server
    not answering, is tried again for up to ``retry`` seconds (see :func:`follow`).
    """
    bot: Bot | None = None
    answered: tuple[Remote, int] | None = None
    """The decision answered last, and through which connection: a server that lost the
    answer with the connection (or was restarted) asks again."""
    final: Update | None = None
    async with contextlib.aclosing(follow(link, games, retry=retry)) as updates:
        async for remote, update in updates:
            if remote.seat is None:
                raise MeepleError("this is the spectators' link; a player needs a seat's link")
            if bot is None:
                bot = player(remote.game, remote.seat)
            if on_update is not None:
                on_update(remote, update)
            final = update
            mine = update.to_move == remote.seat and update.choices
            if mine and answered != (remote, update.step):
                prompt = remote.prompt(update)
                action = await off_loop(lambda: bot.choose(prompt))  # noqa: B023
                if await remote.choose(update.step, _index(prompt.legal, action)):
                    answered = remote, update.step
    assert final is not None  # follow ends with the game over, or raises
    return final


def _index(legal: Sequence[Action], action: Action) -> int:
    """Where ``action`` lies among ``legal``."""
    for i, candidate in enumerate(legal):
        if candidate is action or candidate == action:
            return i
    raise IllegalAction(f"the bot chose {action!r}, which is not among the legal actions")
