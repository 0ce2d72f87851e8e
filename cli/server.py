"""The web server behind ``meeple serve``: textual-serve's, for pages that are strangers
(needs the ``web`` extra).

A page is anyone whose browser reaches the port -- and any other site's page may send a
visitor's browser there. So:

- every request must name this server in its ``Host`` (an address it serves on, or a name
  of it: DNS rebinding gives another), and a websocket must come from one of its own pages
  (``Origin``; browsers always send it): anything else gets 403 and one line of log;
- at most ``max_pages`` pages play at once (one, when a --save or --resume file holds the
  game), and a page closed counts until its game has ended; a page beyond them is told why
  in its terminal;
- every message of a page is decoded (msgspec) and at most :data:`MAX_MESSAGE` bytes long,
  and a terminal size is cut to :data:`MAX_SIZE`; a malformed message is dropped;
- each page's game runs in a process of its own, without a shell, whose address space is
  at most :data:`PAGE_MEMORY` (a limit set before the game starts, so nothing the page
  sends can lift it), and which ends within :attr:`Game.quit_wait` plus
  :attr:`Game.term_wait` seconds of its page going: asked to quit (it saves its game),
  then SIGTERM (which saves it too), then SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import re
import resource
import shlex
import signal
import socket
from asyncio.subprocess import PIPE, Process
from collections.abc import Callable
from typing import Annotated, Any

import aiohttp_jinja2
import msgspec
from aiohttp import WSMsgType, hdrs, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from meeple.cli import tabletop
from meeple.cli.serve import loopback

MAX_SIZE = (500, 200)
"""The largest terminal a page may ask for (columns, rows): more than any screen shows, and
a bound on what its game draws (a page asking for 10^9 columns drove one past 6 GB)."""
PAGE_MEMORY = 1 << 30
"""The address space of each page's game process, in bytes: a game uses about a quarter of
it."""
MAX_MESSAGE = 1 << 16
"""The longest message a page may send, in bytes (a key is a few; a paste may be more)."""
MAX_REFUSED = 16
"""Pages refused (every place taken) that are shown why at once; more get a plain 503."""
FONT_SIZES = (6, 64)
"""The font sizes (``?fontsize=``) a page may ask for: the smallest and the largest."""

log = logging.getLogger("meeple.serve")


class Size(msgspec.Struct, forbid_unknown_fields=True):
    width: int
    height: int

    def clamped(self) -> tuple[int, int]:
        """The size, cut to between one cell and :data:`MAX_SIZE`."""
        return clamp(self.width, 1, MAX_SIZE[0]), clamp(self.height, 1, MAX_SIZE[1])


class Message(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A page's message: a JSON array, its kind first."""


class Stdin(Message, tag="stdin"):
    text: str


class Resize(Message, tag="resize"):
    size: Size


class Ping(Message, tag="ping"):
    data: Annotated[str, msgspec.Meta(max_length=32)]


class Focus(Message, tag="focus"):
    pass


class Blur(Message, tag="blur"):
    pass


read_message = msgspec.json.Decoder(Stdin | Resize | Ping | Focus | Blur).decode
"""A page's message, as textual-serve's page sends them: ``["stdin", "q"]``, ``["resize",
{"width": 80, "height": 24}]``, ``["ping", "1700000000000"]``, ``["focus"]``, ``["blur"]``."""


def clamp(value: int, low: int, high: int) -> int:
    return min(max(value, low), high)


def shown(value: str | None, limit: int = 60) -> str:
    """``value`` as a log line shows what a stranger sent: quoted (an escape sequence stays
    text) and cut."""
    if value is None:
        return "none"
    return repr(value if len(value) <= limit else value[:limit] + "…")


AUTHORITY = re.compile(r"(?P<host>\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?", re.I)


class Address:
    """The names by which pages may reach a server on ``host:port``: ``host`` itself;
    for a loopback host, localhost, 127.0.0.1 and ::1; for every address (0.0.0.0, ::),
    any IP address, localhost and this machine's names. No other name: one that resolves to
    the server may be another site's (DNS rebinding), whose pages must not play."""

    def __init__(self, host: str, port: int) -> None:
        self.port = port
        self.names = {host.lower().strip("[]")}
        self.any_ip = host in ("", "0.0.0.0", "::")
        if self.any_ip:
            self.names |= {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
        elif loopback(host):
            self.names |= {"localhost", "127.0.0.1", "::1"}

    def serves(self, authority: str | None) -> bool:
        """Whether ``authority`` (``host[:port]``, as in a Host header) names this server."""
        match = AUTHORITY.fullmatch(authority or "")
        if match is None or int(match["port"] or 80) != self.port:
            return False
        host = match["host"].lower().strip("[]").removesuffix(".")
        return host in self.names or (self.any_ip and is_ip(host))

    def serves_page(self, origin: str | None) -> bool:
        """Whether ``origin`` (an Origin header) is a page of this server."""
        return origin is not None and origin.startswith("http://") and self.serves(origin[7:])


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class Game(AppService):
    """One page's game: ``argv`` run without a shell, in a session of its own (a terminal's
    Ctrl-C reaches the server, which ends each game in turn), its address space bounded."""

    quit_wait = 10.0
    """Seconds a game is given to quit (and save) once its page is gone, before SIGTERM."""
    term_wait = 5.0
    """Seconds a game is given after SIGTERM, before SIGKILL."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        memory = PAGE_MEMORY if hard == resource.RLIM_INFINITY else min(PAGE_MEMORY, hard)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=PIPE,
            stdout=PIPE,
            stderr=PIPE,
            env=self._build_environment(width, height),
            start_new_session=True,
            # Set between fork and exec: a C call, which needs no lock another thread may hold.
            preexec_fn=functools.partial(resource.setrlimit, resource.RLIMIT_AS, (memory, memory)),
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Pass the game's output to its page until the game ends; then close the page."""
        await super().run()
        await self.remote_close()

    async def stop(self) -> None:
        """Ask the game to quit, and make sure it does: SIGTERM, then SIGKILL if it is slow."""
        process = self._process
        if self._task is None or process is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        for then, wait in ((signal.SIGTERM, self.quit_wait), (signal.SIGKILL, self.term_wait)):
            try:
                await asyncio.wait_for(process.wait(), wait)
                break
            except TimeoutError:
                log.warning(f"a closed page's game (pid {process.pid}) is still on: {then.name}")
                with contextlib.suppress(ProcessLookupError):  # it has just ended
                    process.send_signal(then)
        await process.wait()
        await self._task
        self._task = None


class Slot:
    """A page's place among the pages played at once: held until its game has ended."""

    def __init__(self) -> None:
        self.open = True
        """Whether its page is still open (else its game is ending)."""


class TableServer(Server):
    """Serves the game ``command()`` starts (asked again as each page opens) to every page,
    as the module's docstring says; with ``one_game`` (a --save or --resume file, which holds
    one game), to one page at a time.

    textual-serve logs every request and prints its banner and the whole command; here
    warnings and refusals are logged (a game that failed to start shows its error output),
    and one line gives the address.

    On Ctrl-C, the pages still open are closed as if their browsers had gone, and the
    server stops once every game has ended.
    """

    grace = 2.0
    """Seconds a page waits for a place held by an open page (which may be closing)."""
    refused_wait = 600.0
    """Seconds a page refused is left showing why."""

    def __init__(
        self,
        command: Callable[[], list[str]],
        host: str,
        port: int,
        title: str,
        *,
        max_pages: int = 4,
        one_game: bool = False,
    ) -> None:
        # textual-serve's one command line: here each page's is asked of ``command`` instead.
        super().__init__("meeple play", host, port, title=title, public_url=url(host, port))
        self.page_command = command
        self.address = Address(host, port)
        self.max_pages = 1 if one_game else max_pages
        self.one_game = one_game
        self.slots: set[Slot] = set()
        self.changed = asyncio.Condition()
        """Notified when a page closes, its slot is freed, or the server stops."""
        self.pages: set[asyncio.Task[object]] = set()
        self.refused = 0
        """Pages shown why they got no game, still open."""
        self.stopping = False

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.guard)
        return app

    async def on_startup(self, app: web.Application) -> None:
        tabletop.say(f"serving {self.title} at {self.public_url} (Ctrl-C stops)")

    async def on_shutdown(self, app: web.Application) -> None:
        self.stopping = True
        for page in self.pages:
            page.cancel()  # each page's game is then asked to quit, as if its browser had gone
        async with self.changed:
            self.changed.notify_all()
            await self.changed.wait_for(lambda: not self.slots)

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Refuse (403) a request that is not from a page of this server."""
        if (why := self.stranger(request)) is not None:
            what = f"{request.method} {shown(request.path)}"
            log.warning(f"refused {what} from {request.remote}: {why}")
            raise web.HTTPForbidden(text=f"{why}\n")
        response: web.StreamResponse = await handler(request)
        return response

    def stranger(self, request: web.Request) -> str | None:
        """Why ``request`` is not from a page of this server (``None``: it is)."""
        host, origin = request.headers.get(hdrs.HOST), request.headers.get(hdrs.ORIGIN)
        if not self.address.serves(host):
            return f"Host {shown(host)} is not this server"
        if origin is None:
            if request.match_info.route.name != "websocket":
                return None  # a browser's own navigation: no other site reads its answer
            return "a websocket without an Origin, which no browser's page opens"
        if not self.address.serves_page(origin):
            return f"Origin {shown(origin)} is not a page of this server"
        return None

    def refusal(self) -> str:
        """Why a page gets no game, when every place is taken by an open page."""
        if self.stopping:
            return "this server is stopping"
        if self.one_game:
            return (
                "this server's game is being played on another page: it saves to one file, "
                "so one page plays at a time; reload this page once that one is closed"
            )
        tables = f"all {self.max_pages} tables are" if self.max_pages > 1 else "its one table is"
        return f"this server is full: {tables} in use; reload this page once another is closed"

    async def admit(self, slot: Slot) -> bool:
        """Give ``slot`` a place, if one is free or about to be: a closed page's game ends
        within :class:`Game`'s bounds, and an open page may be closing -- a page reloaded
        opens its new websocket as its old one closes -- for up to :attr:`grace` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.grace
        async with self.changed:
            while not self.stopping and len(self.slots) >= self.max_pages:
                if any(not held.open for held in self.slots):
                    await self.changed.wait()
                    continue
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout_at(deadline):
                        await self.changed.wait()
                if loop.time() >= deadline:
                    break
            if self.stopping or len(self.slots) >= self.max_pages:
                return False
            self.slots.add(slot)
            return True

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, whose websocket is at the address the browser used (checked by
        :meth:`guard`)."""
        router = request.app.router
        base = f"http://{request.host}"
        font_size = number(request.query.get("fontsize"))
        context = {
            "font_size": 16 if font_size is None else clamp(font_size, *FONT_SIZES),
            "app_websocket_url": f"ws://{request.host}{router['websocket'].url_for()}",
            "config": {"static": {"url": f"{base}{router['static'].url_for(filename='/')}"}},
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Play a game on the page at the other end of ``request``'s websocket, or say on
        the page why not."""
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        page = asyncio.current_task()
        assert page is not None  # aiohttp runs each request in a task of its own
        self.pages.add(page)
        try:
            slot = Slot()
            if await self.admit(slot):
                await self.play(request, websocket, slot)
            else:
                await self.refuse(request, websocket)
        except asyncio.CancelledError:  # the server stops
            pass
        finally:
            self.pages.discard(page)
        return websocket

    async def play(
        self, request: web.Request, websocket: web.WebSocketResponse, slot: Slot
    ) -> None:
        """Run the page's game until the page or the game goes; then end the game, and free
        ``slot``, even if the server stops meanwhile."""
        game = None
        try:
            await websocket.prepare(request)
            game = Game(
                self.page_command(),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            await game.start(*query_size(request))
            await self.converse(websocket, game, request.remote)
        except ConnectionResetError:  # the page went as it was answered
            pass
        except OSError as exc:  # no process for the game (out of memory or processes)
            log.warning(f"could not start a page's game: {exc.strerror or exc}")
        finally:
            await asyncio.shield(self.end(slot, game))
            await websocket.close()

    async def refuse(self, request: web.Request, websocket: web.WebSocketResponse) -> None:
        """Say why on the page, in its terminal, and leave it so until it goes (a closed
        websocket's page would cover it), for at most :attr:`refused_wait` seconds; past
        :data:`MAX_REFUSED` such pages, refuse with 503 alone."""
        why = self.refusal()
        log.warning(f"refused a page to {request.remote}: {why}")
        if self.refused >= MAX_REFUSED:
            raise web.HTTPServiceUnavailable(text=f"{why}\n")
        self.refused += 1
        try:
            await websocket.prepare(request)
            await websocket.send_bytes(f"\x1b[2J\x1b[H{why}.".encode())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.refused_wait):
                    async for _ in websocket:  # unread: this page plays nothing
                        pass
        finally:
            self.refused -= 1

    async def end(self, slot: Slot, game: Game | None) -> None:
        """End a page's game, and free its slot."""
        async with self.changed:
            slot.open = False
            self.changed.notify_all()  # a page waiting for a place: this one is ending
        try:
            if game is not None:
                await game.stop()
        finally:
            async with self.changed:
                self.slots.discard(slot)
                self.changed.notify_all()

    async def converse(
        self, websocket: web.WebSocketResponse, game: Game, remote: str | None
    ) -> None:
        """Pass the page's messages to its game until either goes. A malformed one is
        dropped, and the first of them logged."""
        malformed = False
        async for message in websocket:
            if message.type == WSMsgType.ERROR:  # too long: aiohttp closes the websocket
                log.warning(f"closed a page of {remote}: {shown(str(message.data))}")
                continue
            try:
                if message.type != WSMsgType.TEXT:
                    raise msgspec.DecodeError(f"a {message.type.name.lower()} message")
                match read_message(message.data):
                    case Stdin(text):
                        await game.send_bytes(text.encode())
                    case Resize(size):
                        await game.set_terminal_size(*size.clamped())
                    case Ping(data):
                        await websocket.send_json(["pong", data])
                    case Focus():
                        await game.focus()
                    case Blur():
                        await game.blur()
            except (msgspec.DecodeError, RecursionError) as error:  # RecursionError: [[[[...
                if not malformed:
                    log.warning(f"dropped a malformed message from {remote}: {shown(str(error))}")
                malformed = True


def query_size(request: web.Request) -> tuple[int, int]:
    """The terminal size a page asks for as it connects (``?width=80&height=24``)."""
    width, height = (number(request.query.get(key)) for key in ("width", "height"))
    return (80, 24) if width is None or height is None else Size(width, height).clamped()


def number(text: str | None) -> int | None:
    """The number a query gives (``None``: none); past 9 digits, 10^9, which any bound cuts."""
    if text is None or not text.isdecimal():
        return None
    return int(text) if len(text) <= 9 else 10**9
