"""meeple.core.net without a network: hosts, lobbies and connections in memory.

A :class:`Pipe` is a connection whose other side is the test: it puts messages in and
reads what the lobby sends back, decoded. Every frame a seat is sent is checked, as it is
sent, for cards that seat may not see in the state of that moment.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
import pytest

from meeple.core import net
from meeple.core.bots import HUMAN, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.present import Presentation
from meeple.core.rng import bot_stream
from meeple.core.scoring import Score
from meeple.core.state import Event
from meeple.core.testing import leaks
from meeple.core.zones import PUBLIC, Zone

WAIT = 10.0
"""Seconds any one step of a test may take before it counts as stuck."""


def run(main: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(asyncio.wait_for(main, WAIT * 3))


class Pipe:
    """A :class:`~meeple.core.net.Connection` in memory, checking what it carries for leaks."""

    def __init__(self, host: net.Host | None = None, seat: int | None = None) -> None:
        self.host, self.seat = host, seat
        self.inbox: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        self.outbox: asyncio.Queue[net.Welcome | net.Update | net.Refused | None] = asyncio.Queue()
        self.accepted = False
        self.denied: str | None = None
        self.closed: str | None = None
        self.reading = True
        self.leaked: set[str] = set()
        self.sent = 0

    async def accept(self) -> None:
        self.accepted = True

    async def deny(self, reason: str) -> None:
        self.denied = reason

    async def receive(self) -> str | bytes | None:
        return await self.inbox.get()

    async def send(self, frame: bytes) -> None:
        if self.closed is not None:
            raise net.Closed
        if not self.reading:  # a client that never reads: the send never completes
            await asyncio.Event().wait()
        if self.host is not None:
            self.leaked |= leaks(self.host.game, self.host.match.state, self.seat, frame)
        self.sent += 1
        self.outbox.put_nowait(net._outgoing.decode(frame))

    async def close(self, reason: str) -> None:
        if not self.reading:  # the close frame waits behind what was not read
            await asyncio.Event().wait()
        self.closed = reason
        self.outbox.put_nowait(None)

    def put(self, message: net.Message | str | bytes | None) -> None:
        """Send ``message`` to the lobby (``None``: close the connection)."""
        if isinstance(message, net.Message):
            message = msgspec.json.encode(message)
        self.inbox.put_nowait(message)

    async def next(self) -> net.Welcome | net.Update | net.Refused | None:
        return await asyncio.wait_for(self.outbox.get(), WAIT)

    async def refused(self) -> net.Refused:
        while not isinstance(message := await self.next(), net.Refused):
            pass
        return message

    async def update(self, check: Callable[[net.Update], bool] = lambda u: True) -> net.Update:
        while not (isinstance(message := await self.next(), net.Update) and check(message)):
            assert message is not None, f"closed: {self.closed}"
        return message


def host_of(game: Any, names: list[str], seed: int = 3, **kw: Any) -> net.Host:
    match = Match.new(game, len(names), seed, Hooks(None))
    bots = [
        None if name == HUMAN else RandomBot(game, s, bot_stream(seed, s, name))
        for s, name in enumerate(names)
    ]
    tokens = net.Tokens.new(names)
    return net.Host(match, names, bots, tokens=tokens, **kw)


async def join(lobby: net.Lobby, token: str, seat: int | None = None) -> tuple[Pipe, Any]:
    """A connection joined with ``token``: the pipe, and the task serving it."""
    pipe = Pipe(lobby.hosts[0] if lobby.hosts else None, seat)
    task = asyncio.create_task(lobby.serve(pipe))
    pipe.put(net.Join(token=token))
    return pipe, task


def lobby_of(host: net.Host, **limits: Any) -> net.Lobby:
    lobby = net.Lobby(net.Limits(**limits))
    lobby.hosts.append(host)
    return lobby


async def play_seat(pipe: Pipe, seat: int) -> net.Update:
    """Answer every decision of ``seat`` with its first legal action; the final update."""
    while True:
        update = await pipe.update()
        if update.to_move is None:
            return update
        if update.to_move == seat and update.choices:
            pipe.put(net.Choose(step=update.step, index=0))


# -- tokens ---------------------------------------------------------------------------------


def test_every_human_seat_and_the_spectators_get_a_token_of_their_own() -> None:
    tokens = net.Tokens.new([HUMAN, "random", HUMAN])
    assert tokens.seats[1] is None
    given = [t for t in [*tokens.seats, tokens.spectators] if t is not None]
    assert len(set(given)) == 3 and all(len(t) >= 24 for t in given)
    assert tokens.find(given[0]) == (True, 0)
    assert tokens.find(given[1]) == (True, 2)
    assert tokens.find(tokens.spectators) == (True, None)
    for wrong in ("", given[0][:-1], given[0] + "x", "é" * 10):
        assert tokens.find(wrong) == (False, None)


# -- what a seat is shown -------------------------------------------------------------------


def test_the_board_puts_each_zone_in_its_seats_area_hiding_what_the_seat_may_not_see(
    tiny: Any,
) -> None:
    state = tiny.setup(3, 5)
    board = net.board(tiny, tiny.view(state, 1))
    rows = {(row.seat, row.label): row.cards for row in board.rows}
    assert rows[(1, "hand")] == state.hands[1].cards
    assert rows[(0, "hand")] == ["?card", "?card"]
    assert rows[(None, "deck")] == ["?card"] * len(state.deck.cards)
    assert set(rows) == {(None, "deck")} | {(s, k) for s in range(3) for k in ("hand", "pile")}
    assert board.names == {}  # Tiny names its cards by their ids


class Purse(msgspec.Struct, kw_only=True):
    coins: Zone
    gold: int
    note_: str = "full"


def test_counters_lie_in_the_area_of_the_seat_whose_place_holds_them(tiny_module: Any) -> None:
    class Rich(tiny_module.TinyState, tag="rich"):
        purses: list[Purse]
        tolls: list[int]
        bank: dict[str, int]

    class Wealthy(tiny_module.Tiny):
        State = Rich
        zones = {**tiny_module.Tiny.zones, "coins": PUBLIC}

        def setup(self, seats: int, seed: int) -> Rich:
            tiny = super().setup(seats, seed)
            fields = {f: getattr(tiny, f) for f in tiny_module.TinyState.__struct_fields__}
            purses = [Purse(coins=Zone(kind="coins", owner=s), gold=10 + s) for s in range(seats)]
            return Rich(**fields, purses=purses, tolls=[3, 4], bank={"coins": 9})

    game = Wealthy()
    board = net.board(game, game.setup(2, 1))
    counts = {(c.seat, c.label): c.value for c in board.counts}
    # a list of numbers is one counter: no zone tells that it is held by seat
    assert counts == {
        (0, "gold"): 10,
        (0, "note"): "full",
        (1, "gold"): 11,
        (1, "note"): "full",
        (None, "tolls"): "3, 4",
        (None, "bank coins"): 9,
    }
    assert [(r.seat, r.label) for r in board.rows if r.label == "coins"] == [
        (0, "coins"),
        (1, "coins"),
    ]


def test_cards_and_actions_that_read_alike_are_told_apart(tiny_module: Any) -> None:
    """Two copies that differ only in a mark: the page shows each card's own words, and
    their actions, which the game words alike, name the card each plays."""

    class Words(Presentation[Any, Any]):
        def describe_action(self, state: Any, action: Any) -> str:
            return f"play a {action.card[1]}" if hasattr(action, "card") else "draw"

        def describe_card(self, card: str) -> str:
            return f"{card[1]} with {'an eye' if card[2] == 'a' else 'a coin'}"

    class Marked(tiny_module.Tiny):
        presentation_type = Words

    game = Marked()
    state = game.setup(2, 1)
    state.hands[0].cards = ["c3a", "c3b"]
    legal = game.legal_actions(state)
    assert net.choices(game, state, legal) == [
        "play a 3 (3 with an eye)",
        "play a 3 (3 with a coin)",
        "draw",
    ]
    assert net.board(game, state).names["c3b"] == "3 with a coin"


# -- a whole game ---------------------------------------------------------------------------


def test_people_and_a_spectator_play_a_whole_game_each_sent_only_what_their_seat_sees(
    tiny: Any,
) -> None:
    saved: list[int] = []
    host = host_of(tiny, [HUMAN, HUMAN, "random"])
    host.save = lambda: saved.append(len(host.match.actions))
    lobby = lobby_of(host)

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        pipes = []
        for seat, token in ((0, host.tokens.seats[0]), (1, host.tokens.seats[1])):
            pipe, _ = await join(lobby, token or "", seat)
            welcome = await pipe.next()
            assert isinstance(welcome, net.Welcome) and welcome.seat == seat
            pipes.append(pipe)
        spectator, _ = await join(lobby, host.tokens.spectators)
        assert isinstance(await spectator.next(), net.Welcome)
        finals = await asyncio.gather(*(play_seat(p, s) for s, p in enumerate(pipes)))
        watched = await spectator.update(lambda u: u.to_move is None)
        scores = await runner
        for final in [*finals, watched]:
            assert final.scores == scores and final.places is not None
        assert len(final.log) or final.log_from  # the log reached everyone
        for pipe in [*pipes, spectator]:
            assert pipe.leaked == set()
        # a legal action list goes only to the seat deciding
        assert watched.legal == msgspec.Raw(b"[]") and watched.choices == []

    run(main())
    assert host.match.over
    assert saved == list(range(1, len(host.match.actions) + 1))


def test_the_record_is_saved_before_anyone_hears_of_the_action(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])
    lobby = lobby_of(host)
    told: list[tuple[int, int]] = []

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        pipe, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        first = await pipe.update(lambda u: bool(u.choices))
        host.save = lambda: told.append((len(host.match.actions), pipe.sent))
        sent = pipe.sent
        pipe.put(net.Choose(step=first.step, index=0))
        await pipe.update(lambda u: u.step == 1)
        runner.cancel()
        assert told == [(1, sent)]  # saved after the action, before the update went

    run(main())


def test_the_server_serves_on_while_an_action_is_saved_and_tells_of_it_once_saved(
    tiny: Any,
) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])
    lobby = lobby_of(host)
    writing, written = threading.Event(), threading.Event()

    def save() -> None:  # a slow disk: the write waits for the test
        writing.set()
        assert written.wait(WAIT), "the save held the server up"

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        pipe, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        first = await pipe.update(lambda u: bool(u.choices))
        host.save = save
        pipe.put(net.Choose(step=first.step, index=0))
        assert await asyncio.to_thread(writing.wait, WAIT)
        sent = pipe.sent
        pipe.put(net.Choose(step=first.step, index=0))  # answered while the save is written
        assert "being saved" in (await pipe.refused()).reason
        assert pipe.sent == sent + 1  # the refusal only: no update before the save
        written.set()
        assert (await pipe.update()).step == 1
        runner.cancel()

    run(main())


def test_a_seat_reconnecting_gets_its_view_and_the_whole_log_again(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, "random"])
    lobby = lobby_of(host)

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        pipe, task = await join(lobby, host.tokens.seats[0] or "", 0)
        for _ in range(3):
            update = await pipe.update(lambda u: bool(u.choices))
            pipe.put(net.Choose(step=update.step, index=0))
        await pipe.update(lambda u: u.step >= 4 and bool(u.choices))
        pipe.put(None)  # the page is closed
        await task
        assert host.peers == []
        again, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        update = await again.update()
        assert update.log_from == 0 and update.log == host.lines[0]
        assert len(update.log) >= 4 and update.step == len(host.match.actions)
        assert msgspec.json.decode(update.view) == msgspec.to_builtins(
            tiny.view(host.match.state, 0)
        )
        runner.cancel()

    run(main())


def test_bots_play_their_seats_and_the_game_ends_with_scores_for_all(tiny: Any) -> None:
    host = host_of(tiny, ["random", "random", "random"])

    async def main() -> list[Score]:
        return await host.run()

    scores = run(main())
    assert host.match.over and scores == host.match.scores()
    for lines in host.lines:  # a line per action, and one as each new round starts
        actions = [line for line in lines if not line.startswith("── round ")]
        assert len(actions) == len(host.match.actions)


def test_a_person_out_of_time_has_the_fallback_decide_and_the_log_says_so(tiny: Any) -> None:
    fallback = [("random", RandomBot(tiny, s, bot_stream(1, s, "random"))) for s in range(2)]
    host = host_of(tiny, [HUMAN, HUMAN], timer=0.05, fallback=fallback)
    lobby = lobby_of(host)

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        pipe, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        shown = await pipe.update(lambda u: bool(u.choices))
        assert shown.timer is not None and 0 <= shown.timer <= 0.05
        await pipe.update(lambda u: u.step >= 2)
        assert host.lines[1][0] == "seat 0's time ran out: random decided for it"
        runner.cancel()

    run(main())


# -- refusals: each one says why, and changes nothing ----------------------------------------


def refusal_after(
    tiny: Any, send: Callable[[net.Host, Pipe, net.Update], object], seat: int = 0
) -> net.Refused:
    """The refusal ``send`` draws from seat ``seat`` at the first decision of seat 0, with
    the game checked to be as it was."""
    host = host_of(tiny, [HUMAN, HUMAN])
    lobby = lobby_of(host)

    async def main() -> net.Refused:
        runner = asyncio.create_task(host.run())
        pipe, _ = await join(lobby, host.tokens.seats[seat] or "", seat)
        update = await pipe.update(lambda u: u.to_move == 0)
        digest = tiny.digest(host.match.state)
        send(host, pipe, update)
        refused = await pipe.refused()
        assert tiny.digest(host.match.state) == digest and host.match.actions == []
        assert host._open()  # seat 0 is still asked
        runner.cancel()
        return refused

    refused: net.Refused = run(main())
    return refused


def test_a_move_out_of_turn_is_refused(tiny: Any) -> None:
    refused = refusal_after(tiny, lambda h, p, u: p.put(net.Choose(step=u.step, index=0)), seat=1)
    assert refused.reason == "it is seat 0 (human)'s turn, not seat 1's: wait for yours"
    assert not refused.closing


def test_an_index_past_the_legal_actions_is_refused(tiny: Any) -> None:
    refused = refusal_after(tiny, lambda h, p, u: p.put(net.Choose(step=u.step, index=3)))
    assert refused.reason == "choice 3 is not one of the 3 legal actions (0 to 2)"
    refused = refusal_after(tiny, lambda h, p, u: p.put(net.Choose(step=u.step, index=-1)))
    assert refused.reason == "choice -1 is not one of the 3 legal actions (0 to 2)"


def test_a_choice_for_another_decision_is_refused(tiny: Any) -> None:
    refused = refusal_after(tiny, lambda h, p, u: p.put(net.Choose(step=u.step + 1, index=0)))
    assert refused.reason.startswith(
        "that choice answers decision 1, but the game is at decision 0"
    )


@pytest.mark.parametrize(
    ("frame", "said"),
    [
        ("{", "not a message this server reads (Input data was truncated)"),
        ('{"type": "choose", "step": 0}', "not a message this server reads (Object missing"),
        ('{"type": "choose", "step": 0, "index": 0, "seat": 1}', "not a message this server "),
        ('{"type": "play", "card": "c1a"}', "not a message this server reads (Invalid value"),
        ("[" * 600, "not a message this server reads"),
        (b"\xff\xfe", "not a message this server reads"),
    ],
)
def test_a_malformed_message_is_refused(tiny: Any, frame: str, said: str) -> None:
    refused = refusal_after(tiny, lambda h, p, u: p.put(frame))
    assert refused.reason.startswith(said), refused.reason


def test_an_oversized_message_is_refused(tiny: Any) -> None:
    big = msgspec.json.encode({"type": "choose", "step": 0, "index": 0, "pad": "x" * 2000})
    refused = refusal_after(tiny, lambda h, p, u: p.put(big))
    assert refused.reason == f"a message of {len(big)} bytes; the most this server reads is 1024"


def test_a_second_join_is_refused(tiny: Any) -> None:
    refused = refusal_after(tiny, lambda h, p, u: p.put(net.Join(token=h.tokens.spectators)))
    assert refused.reason == "this connection has joined already; send choose messages"


def test_a_spectator_cannot_choose(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])

    async def main() -> net.Refused:
        runner = asyncio.create_task(host.run())
        pipe, _ = await join(lobby_of(host), host.tokens.spectators)
        update = await pipe.update(lambda u: u.to_move == 0)
        pipe.put(net.Choose(step=update.step, index=0))
        refused = await pipe.refused()
        runner.cancel()
        return refused

    assert run(main()).reason == "spectators watch the game; only a seat's link may choose"
    assert host.match.actions == []


def test_a_second_choice_for_one_decision_is_refused(tiny: Any) -> None:
    def twice(host: net.Host, pipe: Pipe, update: net.Update) -> None:
        pipe.put(net.Choose(step=update.step, index=0))
        pipe.put(net.Choose(step=update.step, index=1))

    host = host_of(tiny, [HUMAN, HUMAN])

    async def main() -> net.Refused:
        pipe, _ = await join(lobby_of(host), host.tokens.seats[0] or "", 0)
        host_task = asyncio.create_task(host.run())
        update = await pipe.update(lambda u: bool(u.choices))
        # the host's loop is not let run between the two: the first is taken, not yet played
        host.receive(host.peers[0], msgspec.json.encode(net.Choose(step=update.step, index=0)))
        host.receive(host.peers[0], msgspec.json.encode(net.Choose(step=update.step, index=1)))
        refused = await pipe.refused()
        await pipe.update(lambda u: u.step == 1)
        host_task.cancel()
        return refused

    assert run(main()).reason == "this decision is answered already"
    assert len(host.match.actions) == 1


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("", "this link's token is not one of this server's games"),
        ("not-a-token-of-this-game-but-as-long-xx", "this link's token is not one of"),
        ("x" * 65, "not a message this server reads (Expected `str` of length <= 64"),
    ],
)
def test_a_wrong_or_missing_token_is_refused_and_the_connection_closed(
    tiny: Any, token: str, said: str
) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])

    async def main() -> Pipe:
        pipe, task = await join(lobby_of(host), token)
        await task
        return pipe

    pipe = run(main())
    refused = pipe.outbox.get_nowait()
    assert isinstance(refused, net.Refused) and refused.closing
    assert refused.reason.startswith(said) and pipe.closed == refused.reason
    assert host.peers == []


def test_a_first_message_that_is_not_a_join_is_refused(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])

    async def main() -> Pipe:
        pipe = Pipe()
        pipe.put(net.Choose(step=0, index=0))
        await lobby_of(host).serve(pipe)
        return pipe

    pipe = run(main())
    assert pipe.closed == 'join first: the first message is {"type": "join", "token": ...}'


def test_a_connection_that_never_joins_is_closed(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])

    async def main() -> Pipe:
        pipe = Pipe()
        await lobby_of(host, join_timeout=0.01).serve(pipe)
        return pipe

    assert run(main()).closed == "no join message within 0.01 seconds; open the link again"


def test_idle_connections_are_bounded_and_closed_while_the_game_goes_on(tiny: Any) -> None:
    """200 connections that never join: past the limit each is turned away at once, the
    others are closed once their time to join is up, and a player plays on throughout."""
    host = host_of(tiny, [HUMAN, "random"])
    lobby = lobby_of(host, waiting=32, join_timeout=0.2)

    async def main() -> list[Pipe]:
        runner = asyncio.create_task(host.run())
        player, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        update = await player.update(lambda u: bool(u.choices))
        idle = [Pipe() for _ in range(200)]
        tasks = [asyncio.create_task(lobby.serve(p)) for p in idle]
        await asyncio.sleep(0)
        assert lobby.waiting == 32
        player.put(net.Choose(step=update.step, index=0))
        await player.update(lambda u: u.step > update.step)  # the game goes on meanwhile
        await asyncio.gather(*tasks)
        assert lobby.waiting == 0
        spectator, _ = await join(lobby, host.tokens.spectators)
        assert isinstance(await spectator.next(), net.Welcome)
        await play_seat(player, 0)
        await runner
        return idle

    idle = run(main())
    closed = [p.closed for p in idle if p.accepted]
    assert closed == ["no join message within 0.2 seconds; open the link again"] * 32
    refused = [p.denied for p in idle if not p.accepted]
    assert (
        refused
        == [
            "32 connections are waiting to join already, the most this server takes; "
            "try again in a few seconds"
        ]
        * 168
    )


def test_a_seat_has_at_most_its_limit_of_connections(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])
    lobby = lobby_of(host, per_seat=2)

    async def main() -> Pipe:
        for _ in range(2):
            pipe, _ = await join(lobby, host.tokens.seats[1] or "", 1)
            assert isinstance(await pipe.next(), net.Welcome)
        third, task = await join(lobby, host.tokens.seats[1] or "", 1)
        await task
        return third

    assert run(main()).closed == (
        "seat 1 already have 2 connections open, the most allowed; close one"
    )


def test_a_client_that_never_reads_is_dropped(tiny: Any) -> None:
    """Its sends never complete: after the send timeout it is closed, and the game goes on."""
    host = host_of(tiny, [HUMAN, "random"])
    lobby = lobby_of(host, send_timeout=0.05)

    async def main() -> None:
        runner = asyncio.create_task(host.run())
        stuck, task = await join(lobby, host.tokens.spectators)
        stuck.reading = False
        await task  # the close does not wait for ever either
        assert stuck.closed is None and host.peers == []
        player, _ = await join(lobby, host.tokens.seats[0] or "", 0)
        await play_seat(player, 0)
        await runner

    run(main())


def test_a_client_that_sends_without_reading_is_dropped(tiny: Any) -> None:
    """Refusals pile up unsent past their limit: the connection is dropped, its memory
    bounded."""
    host = host_of(tiny, [HUMAN, HUMAN])
    peer = host.attach(1, net.Limits(notes=4))
    assert isinstance(peer, net.Peer)
    for _ in range(3):
        host.receive(peer, b"{}")
    assert peer.gone is None and len(peer.notes) == 4  # the welcome and 3 refusals
    host.receive(peer, b"{}")
    assert peer.gone == ("too many messages unread: this connection does not read what it is sent")
    assert len(peer.notes) == 1  # the last word only


def test_a_connection_refused_too_often_is_dropped(tiny: Any) -> None:
    host = host_of(tiny, [HUMAN, HUMAN])
    peer = host.attach(1, net.Limits(refusals=3))
    assert isinstance(peer, net.Peer)
    for _ in range(3):
        host.receive(peer, b"{}")
        peer.notes.clear()
    assert peer.gone is None
    host.receive(peer, b"{}")
    assert peer.gone == "more than 3 messages refused"


# -- the log --------------------------------------------------------------------------------


class Peek(Event, tag="peek"):
    card: str


def test_the_log_tells_each_seat_what_it_may_know(tiny_module: Any) -> None:
    """An event a seat may not know is left out of its log; an action none of whose events
    it may know is logged as that seat saw it before."""

    class Log(Presentation[Any, Any]):
        def describe_event(self, event: Event, viewer: int | None) -> str | None:
            assert isinstance(event, Peek)
            return f"you draw {event.card}" if viewer == event.seat else None

        def describe_action(self, state: Any, action: Any) -> str:
            return "draws" if action == tiny_module.Draw() else f"plays {action.card}"

    class Peeking(tiny_module.Tiny):
        presentation_type = Log

        def resolve(self, state: Any, action: Any) -> list[Event]:
            seat = state.to_move
            super().resolve(state, action)
            return [Peek(seat=seat, card=state.hands[seat].cards[-1])]

    game = Peeking()
    host = host_of(game, ["random", "random"])
    run(host.run())
    drawn = [card for card in tiny_module.CARDS if any(card in line for line in host.lines[1])]
    assert host.lines[0][0].startswith("you draw ")
    assert host.lines[1][0] in (
        "seat 0 (random): draws",
        *(f"seat 0 (random): plays {c}" for c in tiny_module.CARDS),
    )
    assert host.lines[2] == [line.replace("you", "x") for line in host.lines[2]]
    assert all(line.startswith(("seat ", "── round")) for line in host.lines[2])
    assert drawn  # seat 1 reads what it drew and what was played, never seat 0's draws
    assert not any(line.startswith("you draw") for line in host.lines[2])


def test_an_invite_link_gives_the_websocket_and_the_token() -> None:
    assert net.endpoint("http://127.0.0.1:8000/#abc") == ("ws://127.0.0.1:8000/ws", "abc")
    assert net.endpoint("https://games.example/#t") == ("wss://games.example/ws", "t")
    for bad in ("127.0.0.1:8000", "http://127.0.0.1:8000/", "ftp://x/#t", "http:///#t"):
        with pytest.raises(net.MeepleError, match="is not an invite link"):
            net.endpoint(bad)


def test_pages_are_sent_the_board_and_the_games_drawing_made_once_a_version(
    tiny: Any,
) -> None:
    drawn: list[int | None] = []

    def draw(view: Any, seat: int | None) -> bytes:
        drawn.append(seat)
        return msgspec.json.encode([[[f"hand of {len(view.hands[0].cards)}", None, None, ""]]])

    host = host_of(tiny, [HUMAN, HUMAN], draw=draw)
    limits = net.Limits()
    pages = [host.attach(0, limits, page=True) for _ in range(2)]
    program = host.attach(0, limits)

    async def main() -> list[net.Update]:
        peers = [*pages, program]
        frames = [await host.frame(peer) for peer in peers if isinstance(peer, net.Peer)]
        return [msgspec.json.decode(frame, type=net.Update) for frame in frames]

    first, second, third = run(main())
    assert msgspec.json.decode(first.drawing) == [[["hand of 2", None, None, ""]]]
    assert bytes(second.drawing) == bytes(first.drawing) and bytes(third.drawing) == b"null"
    board = msgspec.json.decode(first.board, type=net.Board)
    assert [row.cards for row in board.rows if row.label == "hand" and row.seat == 1] == [
        ["?card", "?card"]
    ]
    assert bytes(third.board) == b"null"  # a program reads the view itself
    assert drawn == [0]  # once for the version both pages were sent
