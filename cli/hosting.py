"""The web server of ``meeple host`` (the ``web`` extra): the page, and a websocket per seat.

The page is three static files of this package (``web/``), read once and served by exact
path: no request names a file. Every request, page or websocket, must name this server in
its ``Host`` header, and a browser's ``Origin`` must be this server's, so that another site
open in the same browser can neither read the page nor drive a seat (DNS rebinding,
cross-site websockets). Each websocket is handed to the :class:`~meeple.core.net.Lobby`,
which does the rest.

uvicorn serves it, with the websockets library's protocol (whose sends wait while the
other side does not read, which is how the lobby sees it), a bound on message size, pings
that close a connection gone silent, and a bound on connections; a connection must send a
whole request within :data:`REQUEST_TIMEOUT`, which uvicorn leaves unbounded.
"""

from __future__ import annotations

import asyncio
import gc
import io
import socket
from collections.abc import Awaitable, Callable, Collection
from functools import partial
from importlib import resources
from typing import Any

import msgspec
import uvicorn
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from meeple.cli import output, signals
from meeple.core import net
from meeple.core.errors import explain
from meeple.core.game import Game
from meeple.core.state import State

PAGE = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
"""The page's files, by the only paths that serve them."""

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""Sent with every file: the page runs its own script only, talks to this server only,
is framed by no other page, and never tells another site its address (and token)."""

REQUEST_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request (an idle one is closed after)."""
WS_MAX_BYTES = 64 * 1024
"""The largest websocket message the protocol reads at all; the lobby refuses, with its
reason, any message past its own, smaller limit."""


def app(lobby: net.Lobby, names: Collection[str]) -> ASGIApp:
    """The page and the websocket of ``lobby``'s games, answering to the ``Host`` ``names``
    only (``host:port`` each)."""
    files = resources.files("meeple.cli") / "web"
    pages = {path: (files.joinpath(name).read_bytes(), kind) for path, (name, kind) in PAGE.items()}

    async def page(request: Request) -> Response:
        body, kind = pages[request.url.path]
        return Response(body, media_type=kind, headers=HEADERS)

    async def websocket(ws: WebSocket) -> None:
        await lobby.serve(Socket(ws))

    routes: list[Any] = [Route(path, page, methods=["GET"]) for path in pages]
    routes.append(WebSocketRoute("/ws", websocket))
    return Guard(Starlette(routes=routes), names)


class Guard:
    """Refuses, with a line saying why, a request whose ``Host`` is not one of this
    server's names, or whose ``Origin`` (a browser's page) is not this server."""

    def __init__(self, app: ASGIApp, names: Collection[str]) -> None:
        self.app = app
        self.names = {name.lower() for name in names}
        self.origins = {f"http://{name}" for name in self.names}
        self.shown = sorted(self.names)[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = self.refusal(Headers(scope=scope))
            if why is not None:
                response = PlainTextResponse(why + "\n", status_code=403, headers=HEADERS)
                if scope["type"] == "websocket":
                    await WebSocket(scope, receive, send).send_denial_response(response)
                else:
                    await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: Headers) -> str | None:
        host = headers.get("host", "")
        if host.lower() not in self.names:
            return (
                f"this server answers to http://{self.shown} only, not to the host "
                f"{host[:100]!r}: open the link as it was given"
            )
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return (
                f"a page of {origin[:100]!r} may not use this game's server; open the game's "
                f"link itself (http://{self.shown}/#...)"
            )
        return None


class Socket:
    """A starlette websocket as the lobby's :class:`~meeple.core.net.Connection`."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws

    async def accept(self) -> None:
        await self.ws.accept()

    async def deny(self, reason: str) -> None:
        await self.ws.send_denial_response(PlainTextResponse(reason + "\n", status_code=503))

    async def receive(self) -> str | bytes | None:
        try:
            message = await self.ws.receive()
        except WebSocketDisconnected:
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        return text if text is not None else message.get("bytes") or b""

    async def send(self, frame: bytes) -> None:
        try:
            await self.ws.send_text(frame.decode())
        except (WebSocketDisconnect, WebSocketDisconnected):
            raise net.Closed from None

    async def close(self, reason: str) -> None:
        # A close frame's reason holds 123 bytes; the whole reason went before it.
        short = reason.encode()[:123].decode(errors="ignore")
        try:
            await self.ws.close(1008, short)
        except (WebSocketDisconnect, WebSocketDisconnected):
            raise net.Closed from None


class TimedHTTP(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol, closing a connection that has not sent a whole request
    within :attr:`timeout` of opening: uvicorn would hold it open for ever, and enough of
    them would use up the server's connections."""

    timeout = REQUEST_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self.loop.call_later(self.timeout, self.unanswered)

    def unanswered(self) -> None:
        transport = self.transport
        # A websocket has taken the connection over by now, or a request has come.
        if self.cycle is None and transport.get_protocol() is self and not transport.is_closing():
            transport.close()


DRAWING_WIDTH = 120
"""Columns the game's drawing is made for (a page scrolls a wider one)."""


def drawer(game: Game[Any, Any]) -> Callable[[State, int | None], bytes]:
    """The game's own drawing of a seat's view, as its full-screen table draws it (the
    table, then what only the seat sees): styled lines for the page, each text escaped
    (:func:`~meeple.cli.output.shown`). A drawing that fails says so in its place."""

    def draw(view: State, seat: int | None) -> bytes:
        console = Console(
            width=DRAWING_WIDTH, color_system="truecolor", force_terminal=True, file=io.StringIO()
        )
        options = console.options.update(height=None)
        lines: list[list[tuple[str, str | None, str | None, str]]] = []
        try:
            shown = game.presentation
            private = None if seat is None else shown.render_private(view, seat)
            parts = [shown.render_table(view, seat), private]
            for part in parts:
                if part is not None:
                    if lines:
                        lines.append([])
                    for line in console.render_lines(output.shown(part), options, pad=False):
                        lines.append([styled(seg) for seg in Segment.simplify(line) if seg.text])
        except Exception as exc:  # the game's code: the page goes on without its drawing
            lines = [[(f"(the game's drawing failed: {explain(exc)})", None, None, "i")]]
        return msgspec.json.encode(lines)

    return draw


THEME = TerminalTheme(
    (24, 24, 24),
    (222, 222, 222),
    [(0, 0, 0), (232, 84, 84), (98, 201, 98), (226, 196, 66), (106, 150, 255), (232, 112, 232),
     (80, 206, 216), (222, 222, 222)],
    [(120, 120, 120), (255, 120, 120), (140, 230, 140), (250, 226, 110), (150, 184, 255),
     (255, 150, 255), (130, 232, 240), (255, 255, 255)],
)  # fmt: skip
"""The drawing's colours: a dark ground, on which every colour a game names reads, and
red and magenta (Clonk!'s red and pink crystals) differ."""


def styled(segment: Segment) -> tuple[str, str | None, str | None, str]:
    """A segment as the page draws it: its text, colour, background and flags (``b``old,
    ``d``im, ``i``talic, ``u``nderline, ``r``everse)."""
    style = segment.style or Style()
    colours = [
        None if c is None or c.is_default else c.get_truecolor(THEME, foreground=fg).hex
        for c, fg in ((style.color, True), (style.bgcolor, False))
    ]
    on = (style.bold, style.dim, style.italic, style.underline, style.reverse)
    flags = zip("bdiur", on, strict=True)
    return segment.text, colours[0], colours[1], "".join(f for f, set_ in flags if set_)


def names(host: str, port: int) -> tuple[str, list[str]]:
    """The address links give for a server bound to ``host``, and every ``host:port`` it
    answers to: the loopback names too for a loopback or wildcard address, and for a
    wildcard the address this machine has on its network and its name."""
    loopback = [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"]
    if host in ("0.0.0.0", "::", ""):
        shown = f"{lan_address()}:{port}"
        name = socket.gethostname()
        return shown, [shown, f"{name}:{port}", f"{socket.getfqdn(name)}:{port}", *loopback]
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return shown, [shown, *loopback] if is_loopback(host) else [shown]


def lan_address() -> str:
    """This machine's address on its network: the one a datagram out would leave from
    (nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            address: str = probe.getsockname()[0]
        except OSError:
            return socket.gethostname()
    return address


def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def server(lobby: net.Lobby, sock: socket.socket, answers_to: Collection[str]) -> uvicorn.Server:
    """A uvicorn server of ``lobby`` on the bound ``sock``; ``await server.serve([sock])``."""
    limits = lobby.limits
    config = uvicorn.Config(
        app(lobby, answers_to),
        http=TimedHTTP,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # Frames of tens of KiB to a few players: compressing each cost more CPU (on the
        # server and every client) than the bandwidth it saves is worth (benchmarks/host.py).
        ws_per_message_deflate=False,
        # Room past the lobby's own limits, so that it is the lobby that refuses, saying why;
        # uvicorn answers 503 past this bound on every connection, opened or not.
        limit_concurrency=4 * (limits.connections + limits.waiting),
        proxy_headers=False,
        server_header=False,
        log_level="warning",
        access_log=False,
        lifespan="off",
    )
    return uvicorn.Server(config)


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (``port`` 0: a free one); ``OSError`` if taken."""
    return socket.create_server((host, port), family=_family(host), backlog=128)


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def sigterm_stops(web: uvicorn.Server) -> signals.Terminable:
    """SIGTERM, heard inside the returned context, asks ``web`` to stop as uvicorn's own
    handler does while it serves (``term.terminated`` says it came).

    Raised into the event loop as :class:`signals.Terminated` instead, it could land in a
    weakref callback, where Python reports and drops it, and the server would serve on."""
    return signals.Terminable(partial(setattr, web, "should_exit", True))


async def serve(
    web: uvicorn.Server, sock: socket.socket, games: Collection[Awaitable[Any]]
) -> None:
    """Serve on ``sock`` until the server is stopped (Ctrl-C, SIGTERM, ``web.should_exit``)
    while every coroutine of ``games`` runs; one that fails stops the server, and is raised."""
    running = [asyncio.ensure_future(game) for game in games]

    def failed(task: asyncio.Future[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            web.should_exit = True

    for task in running:
        task.add_done_callback(failed)
    # What exists by now (the modules, the games' tables) lives as long as the server: while
    # it serves, the garbage collector's full collections, which would walk it, skip it.
    gc.freeze()
    try:
        await web.serve([sock])
    finally:
        gc.unfreeze()
        for task in running:
            task.cancel()
        ended = await asyncio.gather(*running, return_exceptions=True)
    for outcome in ended:
        if isinstance(outcome, Exception):
            raise outcome
