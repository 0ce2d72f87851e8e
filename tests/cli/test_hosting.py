"""The server of ``meeple host`` on 127.0.0.1, driven by the client of meeple.core.net.

Each test serves its games in a thread of its own, on a free port, as ``meeple host``
serves them (:func:`meeple.cli.hosting.server`). Whole games of every built-in game are
played to their end through the client, every frame each seat receives checked against
the state it was sent at; then each attack on a seat's connection is refused, saying why,
with nothing changed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

# The web extra's server and client: the default env installs it; the dask and rl envs,
# which collect every module to select their marker, do not.
pytest.importorskip("websockets", reason="meeple[web] is not installed")
import websockets.asyncio.client
import websockets.exceptions

from meeple.cli import hosting
from meeple.core import net
from meeple.core.bots import HUMAN, Bot, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.game import Game
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import bot_stream
from meeple.core.state import State
from meeple.core.testing import leaks

WAIT = 20.0
"""Seconds a step of a test may take before it counts as stuck (2 busy cores)."""
BUILT_IN = ("clonk", "clank", "clank-catacombs")

registry = Registry(plugin_manager(entry_points=False))


def hosted(game_id: str, names: list[str], seed: int = 5) -> net.Host:
    game = registry.game(game_id)()
    match = Match.new(game, len(names), seed, Hooks(None))
    bots: list[Bot | None] = [
        None if name == HUMAN else RandomBot(game, s, bot_stream(seed, s, name))
        for s, name in enumerate(names)
    ]
    return net.Host(match, names, bots, tokens=net.Tokens.new(names))


@dataclass
class Served:
    port: int
    lobby: net.Lobby

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def link(self, token: str | None) -> str:
        return f"http://{self.address}/#{token}"

    @property
    def ws(self) -> str:
        return f"ws://{self.address}/ws"


@contextlib.contextmanager
def serving(*hosts: net.Host, limits: net.Limits | None = None) -> Iterator[Served]:
    """The server of ``hosts``, playing them, until the test is done with it."""
    lobby = net.Lobby(limits)
    lobby.hosts.extend(hosts)
    sock = hosting.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    web = hosting.server(lobby, sock, hosting.names("127.0.0.1", port)[1])
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(hosting.serve(web, sock, [host.run() for host in hosts]))
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    until(lambda: web.started, "the server to start")
    try:
        yield Served(port, lobby)
    finally:
        web.should_exit = True
        thread.join(WAIT)
    assert not failures, failures


def until(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (result := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
    return result


def random_player(game: Game[Any, Any], seat: int) -> Bot:
    return RandomBot(game, seat, bot_stream(1, seat, "random"))


def states(host: net.Host) -> list[State]:
    """The state after each step of the host's game, replayed from its set-up."""
    match, seed = host.match, host.match.seed
    replay = Match.new(match.game, len(host.names), seed, Hooks(None))
    found = [match.game.clone(replay.state)]
    for action in match.actions:
        replay.step(action)
        found.append(match.game.clone(replay.state))
    return found


# -- whole games ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("built_in", BUILT_IN)
def test_each_game_is_played_to_its_end_each_seat_sent_only_what_it_sees(built_in: str) -> None:
    """Two seats played through their links, a bot seat played by the host, a spectator
    watching: everyone ends with the final scores, and no frame held a card its seat could
    not see when it was sent; the spectator never saw a card of any hand."""
    host = hosted(built_in, [HUMAN, HUMAN, "random"])
    frames: dict[int | None, list[bytes]] = {0: [], 1: [], None: []}

    def keep(remote: net.Remote, update: net.Update) -> None:
        frames[remote.seat].append(msgspec.json.encode(update))

    async def watch(link: str) -> net.Update:
        async with net.connect(link, registry.game) as remote:
            async for update in remote.updates():
                keep(remote, update)
                if update.to_move is None:
                    return update
        raise AssertionError("the spectator's connection closed before the end")

    with serving(host) as served:

        async def main() -> list[net.Update]:
            players = [
                net.play(served.link(token), random_player, registry.game, on_update=keep)
                for token in host.tokens.seats[:2]
            ]
            return await asyncio.gather(*players, watch(served.link(host.tokens.spectators)))

        finals = asyncio.run(main())
    scores = host.match.scores()
    assert host.match.over and all(final.scores == scores for final in finals)
    game, seen = host.game, states(host)
    for seat, kept in frames.items():
        assert kept
        for frame in kept:
            update = msgspec.json.decode(frame, type=net.Update)
            assert not leaks(game, seen[update.step], seat, frame), (seat, update.step)
            if seat is None:
                board = net.board(game, msgspec.json.decode(update.view, type=game.state_type))
                hands = [row for row in board.rows if row.label == "hand"]
                assert all(card.startswith("?") for row in hands for card in row.cards)
    assert frames[0][-1] != frames[1][-1]  # each seat its own view


# -- attacks: each refused, saying why, with nothing changed --------------------------------


def frame_of(message: net.Message) -> str:
    return msgspec.json.encode(message).decode()


async def received(ws: Any, kind: type[net.Message]) -> Any:
    while not isinstance(
        message := msgspec.json.decode(
            await ws.recv(), type=net.Welcome | net.Update | net.Refused
        ),
        kind,
    ):
        pass
    return message


def unchanged(host: net.Host) -> Callable[[], None]:
    """A check that ``host``'s game is as it is now."""
    digest, steps = host.game.digest(host.match.state), len(host.match.actions)

    def check() -> None:
        assert host.game.digest(host.match.state) == digest
        assert len(host.match.actions) == steps

    return check


def attack(host: net.Host, seat: int | None, act: Callable[[Any, net.Update], Any]) -> list[Any]:
    """Join ``seat`` (``None``: the spectators) while seat 0 decides, ``act(ws, update)``,
    and return what came back, the game checked unchanged."""
    with serving(host) as served:

        async def main() -> list[Any]:
            token = host.tokens.spectators if seat is None else host.tokens.seats[seat]
            async with websockets.asyncio.client.connect(served.ws) as ws:
                await ws.send(frame_of(net.Join(token=token or "")))
                update = await received(ws, net.Update)
                check = unchanged(host)
                got = await act(ws, update)
                check()
                return got

        return asyncio.run(main())


def test_a_seats_link_cannot_act_for_another_seat() -> None:
    async def act(ws: Any, update: net.Update) -> net.Refused:
        assert update.to_move == 0 and update.choices == []
        await ws.send(frame_of(net.Choose(step=update.step, index=0)))
        return await received(ws, net.Refused)

    [refused] = [attack(hosted("clonk", [HUMAN, HUMAN]), 1, act)]
    assert refused == net.Refused(
        reason="it is seat 0 (human)'s turn, not seat 1's: wait for yours"
    )


def test_a_move_out_of_turn_while_a_bot_decides_is_refused() -> None:
    """Seat 0 is the host's bot: the person at seat 1 cannot move for it."""
    host = hosted("clonk", ["random", HUMAN], seed=3)
    host.bots[0] = SlowBot(host.bots[0])

    async def act(ws: Any, update: net.Update) -> net.Refused:
        await ws.send(frame_of(net.Choose(step=update.step, index=0)))
        return await received(ws, net.Refused)

    refused = attack(host, 1, act)
    assert refused.reason == "it is seat 0 (random)'s turn, not seat 1's: wait for yours"


class SlowBot:
    """A bot that takes its time, so that a test can act while it decides."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, prompt: Any) -> Any:
        time.sleep(1.0)
        return self.bot.choose(prompt)


def test_an_index_past_the_legal_actions_is_refused() -> None:
    async def act(ws: Any, update: net.Update) -> net.Refused:
        await ws.send(frame_of(net.Choose(step=update.step, index=len(update.choices))))
        return await received(ws, net.Refused)

    refused = attack(hosted("clonk", [HUMAN, HUMAN]), 0, act)
    assert refused.reason == "choice 2 is not one of the 2 legal actions (0 to 1)"


@pytest.mark.parametrize(
    ("frame", "said"),
    [
        ("not json", "not a message this server reads (JSON is malformed"),
        (
            '{"type": "choose", "step": "0", "index": 0}',
            "not a message this server reads (Expected `int`",
        ),
        (
            '{"type": "choose", "step": 0, "index": 0, "seat": 1}',
            "not a message this server reads (Object contains unknown field `seat`",
        ),
        (b'{"type": "choose"}', "not a message this server reads (Object missing required field"),
        ("x" * 5000, "a message of 5000 bytes; the most this server reads is 1024"),
    ],
)
def test_a_malformed_or_oversized_message_is_refused(frame: str | bytes, said: str) -> None:
    async def act(ws: Any, update: net.Update) -> net.Refused:
        await ws.send(frame)
        refused = await received(ws, net.Refused)
        await ws.send(frame)  # the connection is kept
        assert await received(ws, net.Refused) == refused
        return refused

    host = hosted("clonk", [HUMAN, HUMAN])
    refused = attack(host, 0, act)
    assert refused.reason.startswith(said) and not refused.closing


def test_a_message_past_the_protocols_bound_closes_the_connection() -> None:
    async def act(ws: Any, update: net.Update) -> Any:
        await ws.send("x" * (hosting.WS_MAX_BYTES + 1))
        with pytest.raises(websockets.exceptions.ConnectionClosedError) as closed:
            await ws.recv()
        return closed.value.rcvd

    said = attack(hosted("clonk", [HUMAN, HUMAN]), 0, act)
    assert said.code == 1009 and "exceeds limit of 65536 bytes" in said.reason


@pytest.mark.parametrize(
    ("first", "said"),
    [
        (frame_of(net.Join(token="")), "this link's token is not one of this server's games"),
        (frame_of(net.Join(token="x" * 24)), "this link's token is not one of this server's games"),
        (frame_of(net.Choose(step=0, index=0)), "join first: the first message is"),
    ],
)
def test_a_wrong_or_missing_token_is_refused_and_the_connection_closed(
    first: str, said: str
) -> None:
    host = hosted("clonk", [HUMAN, HUMAN])
    with serving(host) as served:

        async def main() -> tuple[net.Refused, Any]:
            async with websockets.asyncio.client.connect(served.ws) as ws:
                await ws.send(first)
                refused = await received(ws, net.Refused)
                with pytest.raises(websockets.exceptions.ConnectionClosedError) as closed:
                    await ws.recv()
                return refused, closed.value.rcvd

        refused, close = asyncio.run(main())
    assert refused.reason.startswith(said) and refused.closing
    assert close.code == 1008 and refused.reason.startswith(close.reason)
    assert host.peers == [] and host.match.actions == []


def test_the_client_says_why_a_link_is_refused() -> None:
    host = hosted("clonk", [HUMAN, HUMAN])
    with serving(host) as served, pytest.raises(net.MeepleError) as refused:
        asyncio.run(net.play(served.link("x" * 24), random_player, registry.game))
    assert str(refused.value).startswith(
        "the server refused the link: this link's token is not one of this server's games"
    )


# -- Host and Origin --------------------------------------------------------------------------


def request(
    served: Served, path: str, headers: dict[str, str], method: str = "GET"
) -> tuple[int, bytes, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=WAIT)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in {"Host": served.address, **headers}.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, response.headers


def test_the_page_is_three_files_served_by_exact_path_with_a_strict_policy() -> None:
    with serving(hosted("clonk", [HUMAN, HUMAN])) as served:
        for path, kind in (
            ("/", "text/html"),
            ("/app.js", "text/javascript"),
            ("/style.css", "text/css"),
        ):
            status, body, headers = request(served, path, {})
            assert status == 200 and headers["content-type"].startswith(kind) and body
            assert "script-src 'self'" in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
        for path in (
            "/index.html",
            "/web/app.js",
            "/../cli/web/app.js",
            "/%2e%2e/pyproject.toml",
            "/ws/x",
        ):
            assert request(served, path, {})[0] == 404, path
        assert request(served, "/", {}, method="POST")[0] == 405


def test_a_request_naming_another_host_is_refused() -> None:
    """DNS rebinding: a name that resolves here, in a page of another site."""
    with serving(hosted("clonk", [HUMAN, HUMAN])) as served:
        status, body, _ = request(served, "/", {"Host": f"evil.example:{served.port}"})
        assert status == 403
        assert body.decode() == (
            f"this server answers to http://127.0.0.1:{served.port} only, not to the host "
            f"'evil.example:{served.port}': open the link as it was given\n"
        )
        for name in (f"localhost:{served.port}", f"[::1]:{served.port}"):
            assert request(served, "/", {"Host": name})[0] == 200


def test_a_page_of_another_site_cannot_open_a_seats_websocket() -> None:
    host = hosted("clonk", [HUMAN, HUMAN])
    with serving(host) as served:

        async def main() -> Any:
            with pytest.raises(websockets.exceptions.InvalidStatus) as denied:
                await websockets.asyncio.client.connect(served.ws, origin="http://evil.example")
            async with websockets.asyncio.client.connect(
                served.ws, origin=f"http://{served.address}"
            ) as ws:  # the page's own origin joins
                await ws.send(frame_of(net.Join(token=host.tokens.seats[0] or "")))
                assert isinstance(await received(ws, net.Welcome), net.Welcome)
            return denied.value.response

        response = asyncio.run(main())
    assert response.status_code == 403
    assert response.body.decode().startswith(
        "a page of 'http://evil.example' may not use this game's server"
    )


# -- idle and slow connections -----------------------------------------------------------------


def test_200_idle_websockets_are_bounded_then_closed_and_the_game_goes_on() -> None:
    host = hosted("clonk", [HUMAN, "random"])
    limits = net.Limits(join_timeout=1.0)
    with serving(host, limits=limits) as served:

        async def main() -> tuple[list[Any], list[Any]]:
            player = await websockets.asyncio.client.connect(served.ws)
            await player.send(frame_of(net.Join(token=host.tokens.seats[0] or "")))
            update = await received(player, net.Update)

            async def idle() -> Any:
                try:
                    return await websockets.asyncio.client.connect(served.ws)
                except websockets.exceptions.InvalidStatus as refused:
                    return refused.response

            opened = await asyncio.gather(*(idle() for _ in range(200)))
            # the player plays on while they wait
            await player.send(frame_of(net.Choose(step=update.step, index=0)))
            await received(player, net.Update)
            waiting = [ws for ws in opened if not hasattr(ws, "status_code")]
            closed = []
            for ws in waiting:
                refused = await received(ws, net.Refused)
                with pytest.raises(websockets.exceptions.ConnectionClosedError):
                    await ws.recv()
                closed.append(refused.reason)
            # a new connection is taken again
            async with net.connect(served.link(host.tokens.spectators), registry.game) as remote:
                assert remote.seat is None
            await player.close()
            return closed, [r for r in opened if hasattr(r, "status_code")]

        closed, denied = asyncio.run(main())
    assert closed == ["no join message within 1 seconds; open the link again"] * limits.waiting
    assert len(denied) == 200 - limits.waiting
    assert {(r.status_code, bytes(r.body)) for r in denied} == {
        (
            503,
            b"32 connections are waiting to join already, the most this server takes; "
            b"try again in a few seconds\n",
        )
    }


def test_200_idle_connections_that_send_nothing_are_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections that never send a request (uvicorn would hold them for ever) are closed
    after a while, while a seat's websocket plays on."""
    monkeypatch.setattr(hosting.TimedHTTP, "timeout", 0.5)
    host = hosted("clonk", [HUMAN, "random"])
    with serving(host) as served:
        idle = [socket.create_connection(("127.0.0.1", served.port)) for _ in range(200)]

        async def play_on() -> None:
            async with websockets.asyncio.client.connect(served.ws) as ws:
                await ws.send(frame_of(net.Join(token=host.tokens.seats[0] or "")))
                update = await received(ws, net.Update)
                await ws.send(frame_of(net.Choose(step=update.step, index=0)))
                await received(ws, net.Update)

        asyncio.run(play_on())
        for conn in idle:
            conn.settimeout(WAIT)
            assert conn.recv(1) == b""  # closed by the server
            conn.close()
        assert request(served, "/", {})[0] == 200
    assert len(host.match.actions) >= 1


def handshake(port: int) -> socket.socket:
    """A websocket opened by hand, on a socket that buffers little, to be left unread."""
    conn = socket.socket()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += conn.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return conn


def send_text(conn: socket.socket, text: str) -> None:
    """One masked text frame, as a client sends it."""
    data, mask = text.encode(), os.urandom(4)
    assert len(data) < 126
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    conn.sendall(bytes([0x81, 0x80 | len(data)]) + mask + masked)


def test_a_client_that_never_reads_is_dropped_and_the_game_goes_on() -> None:
    host = hosted("clank", [HUMAN, "random", "random", "random"])
    with serving(host, limits=net.Limits(send_timeout=0.5)) as served:
        stuck = handshake(served.port)
        send_text(stuck, frame_of(net.Join(token=host.tokens.spectators)))
        until(lambda: any(p.seat is None for p in host.peers), "the spectator to join")
        final = asyncio.run(
            net.play(served.link(host.tokens.seats[0]), random_player, registry.game)
        )
        until(lambda: not any(p.seat is None for p in host.peers), "the spectator to be dropped")
        stuck.close()
    assert final.scores == host.match.scores()


def test_the_client_example_of_the_docs_plays_a_seat_to_the_end() -> None:
    """The example of docs/playing.md, run as it stands, with a seat's link."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text()
    (example,) = re.findall(r"^```python\n(.*?)^```$", doc, re.M | re.S)
    host = hosted("clonk", [HUMAN, "random"])
    with serving(host) as served:
        ran = subprocess.run(
            [sys.executable, "-c", example, served.link(host.tokens.seats[0])],
            capture_output=True,
            text=True,
            timeout=WAIT * 3,
        )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == f"scores: {[score.total for score in host.match.scores()]}\n"


def test_sigterm_stops_the_server_wherever_it_lands() -> None:
    """A SIGTERM heard in a weakref callback, where Python drops what a signal handler
    raises, still stops the server: it asks the server to stop instead of raising."""
    sock = hosting.bind("127.0.0.1", 0)
    web = hosting.server(net.Lobby(), sock, hosting.names("127.0.0.1", 0)[1])

    class Collected:
        pass

    with hosting.sigterm_stops(web) as term:
        gone = Collected()
        weakref.finalize(gone, signal.raise_signal, signal.SIGTERM)
        del gone
        asyncio.run(asyncio.wait_for(hosting.serve(web, sock, []), WAIT))
    assert term.terminated and web.started
