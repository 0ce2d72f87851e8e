"""The server of `meeple serve` as a stranger's page meets it: a real server on 127.0.0.1,
spoken to by aiohttp's client as a browser -- or anything else -- would.

Each page runs ``page_game.py`` (a stand-in that notes what its page sent it) rather than a
game, so these tests need no browser and no Textual (tests/browser plays real games).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType, WSServerHandshakeError, web

from meeple.cli import server as served
from meeple.cli.server import Address, Game, TableServer

GAME = Path(__file__).with_name("page_game.py")
WAIT = 30.0
"""Seconds a whole test may take, at most (a bound, not a measure)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Pages:
    """A :class:`TableServer` on 127.0.0.1 whose pages run ``page_game.py``: the ``n``-th
    page's game notes in ``notes(n)``, and is stubborn if ``stubborn`` holds ``n``."""

    def __init__(self, folder: Path, stubborn: frozenset[int] = frozenset(), **options: Any):
        self.folder, self.stubborn, self.started = folder, stubborn, 0
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = TableServer(self.command, "127.0.0.1", self.port, "test", **options)

    def command(self) -> list[str]:
        self.started += 1
        mode = ["stubborn"] if self.started in self.stubborn else []
        return [sys.executable, str(GAME), str(self.folder / f"{self.started}.jsonl"), *mode]

    def notes(self, n: int) -> list[dict[str, Any]]:
        path = self.folder / f"{n}.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    async def noted(self, n: int, count: int) -> list[dict[str, Any]]:
        """Page ``n``'s game's notes, once it has ``count`` of them."""
        while len(notes := self.notes(n)) < count:
            await asyncio.sleep(0.01)
        return notes

    async def games_ended(self) -> None:
        """Wait until every page's game has ended."""
        async with self.server.changed:
            await self.server.changed.wait_for(lambda: not self.server.slots)

    def page(
        self, session: ClientSession, query: str = "", **headers: str
    ) -> Awaitable[ClientWebSocketResponse]:
        """A page's websocket, with its headers (by default, those of this server's page)."""
        headers = {"Origin": self.url, **headers}
        return session.ws_connect(f"{self.url}/ws{query}", headers=headers, autoclose=False)


@contextlib.asynccontextmanager
async def serving(pages: Pages) -> AsyncIterator[ClientSession]:
    """Run ``pages``' server (stopped as Ctrl-C stops it, once the test is done), and a client."""
    runner = web.AppRunner(await pages.server._make_app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", pages.port).start()
    try:
        async with ClientSession() as session:
            yield session
    finally:
        await runner.cleanup()


def run(test: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        async with asyncio.timeout(WAIT):
            await test()

    asyncio.run(bounded())


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The server's log lines, each checked to be one line without a traceback."""
    for record in caplog.records:
        assert record.exc_info is None and "\n" not in record.getMessage(), record.getMessage()
    return [record.getMessage() for record in caplog.records]


@pytest.fixture(autouse=True)
def _log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)


# -- who may open a page --------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Origin": "https://evil.example"}, "Origin 'https://evil.example' is not a page"),
        ({"Origin": "http://127.0.0.1:1"}, "Origin 'http://127.0.0.1:1' is not a page"),
        ({"Origin": "null"}, "Origin 'null' is not a page"),
        ({"Origin": "http://127.0.0.1:{port}@evil.example"}, "is not a page"),
        ({"Origin": ""}, "Origin '' is not a page"),
        # DNS rebinding: another site's name, resolved to this address.
        ({"Host": "evil.example:{port}", "Origin": "http://evil.example:{port}"}, "Host 'evil"),
        ({"Host": "127.0.0.1:{port}@evil.example"}, "is not this server"),
        ({"Host": "127.0.0.1"}, "Host '127.0.0.1' is not this server"),  # port 80: not this one
    ],
)
def test_a_websocket_from_anything_but_this_servers_page_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, headers: dict[str, str], why: str
) -> None:
    pages = Pages(tmp_path)
    headers = {k: v.format(port=pages.port) for k, v in headers.items()}

    async def test() -> None:
        async with serving(pages) as session:
            with pytest.raises(WSServerHandshakeError) as refused:
                await pages.page(session, **headers)
            assert refused.value.status == 403

    run(test)
    assert pages.started == 0  # no game for it
    [line] = no_tracebacks(caplog)
    assert line.startswith("refused GET '/ws' from 127.0.0.1: ") and why in line


def test_a_websocket_without_an_origin_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Browsers send an Origin with every websocket; only pages open /ws."""
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            with pytest.raises(WSServerHandshakeError) as refused:
                await session.ws_connect(f"{pages.url}/ws")
            assert refused.value.status == 403

    run(test)
    assert pages.started == 0
    assert no_tracebacks(caplog) == [
        "refused GET '/ws' from 127.0.0.1: a websocket without an Origin, which no browser's "
        "page opens"
    ]


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]"])
def test_the_page_is_served_by_each_name_of_the_address(tmp_path: Path, name: str) -> None:
    """localhost and 127.0.0.1 are the same server: its page and websocket work by either,
    and the page's websocket is at the name the browser used."""
    pages = Pages(tmp_path)
    here = f"{name}:{pages.port}"

    async def test() -> None:
        async with serving(pages) as session:
            async with session.get(pages.url, headers={"Host": here}) as response:
                assert response.status == 200
                assert f'data-session-websocket-url="ws://{here}/ws"' in await response.text()
            origin = f"http://{'localhost' if name != 'localhost' else '127.0.0.1'}:{pages.port}"
            page = await pages.page(session, Host=here, Origin=origin)
            await pages.noted(1, 1)
            await page.close()

    run(test)


def test_a_page_asked_for_by_another_name_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            headers = {"Host": f"evil.example:{pages.port}"}
            async with session.get(pages.url, headers=headers) as response:
                assert response.status == 403
            async with session.get(f"{pages.url}/static/js/textual.js", headers=headers) as got:
                assert got.status == 403

    run(test)
    assert len(no_tracebacks(caplog)) == 2


@pytest.mark.parametrize(
    ("host", "authority", "serves"),
    [
        ("127.0.0.1", "127.0.0.1:8000", True),
        ("127.0.0.1", "LOCALHOST:8000", True),
        ("127.0.0.1", "localhost.:8000", True),
        ("127.0.0.1", "[::1]:8000", True),
        ("127.0.0.1", "localhost:8001", False),
        ("127.0.0.1", "192.168.1.5:8000", False),
        ("127.0.0.1", "127.0.0.1.evil.example:8000", False),
        ("127.0.0.1", "user@127.0.0.1:8000", False),
        ("127.0.0.1", None, False),
        ("192.168.1.5", "192.168.1.5:8000", True),
        ("192.168.1.5", "localhost:8000", False),
        ("0.0.0.0", "192.168.1.5:8000", True),
        ("0.0.0.0", "[fe80::1]:8000", True),
        ("0.0.0.0", "localhost:8000", True),
        ("0.0.0.0", "evil.example:8000", False),
        ("::", "10.0.0.2:8000", True),
    ],
)
def test_the_names_of_a_served_address(host: str, authority: str | None, serves: bool) -> None:
    assert Address(host, 8000).serves(authority) is serves


def test_every_address_serves_this_machines_own_name() -> None:
    assert Address("0.0.0.0", 8000).serves(f"{socket.gethostname()}:8000")


# -- what a page may send -------------------------------------------------------------


def test_a_page_cannot_ask_for_a_terminal_larger_than_the_largest(tmp_path: Path) -> None:
    """A size asked for as the page connects, or later, is cut to MAX_SIZE (at least one
    cell); and every page's game has at most PAGE_MEMORY of address space."""
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session, "?width=3000&height=1000000000")
            [started] = await pages.noted(1, 1)
            assert started["size"] == list(served.MAX_SIZE)
            assert started["memory"] == served.PAGE_MEMORY
            await page.send_str('["resize",{"width":1000000000,"height":1000000000}]')
            await page.send_str('["resize",{"width":-5,"height":0}]')
            await page.send_str(f'["resize",{{"width":{10**30},"height":30}}]')
            notes = await pages.noted(1, 4)
            assert [json.loads(note["payload"]) for note in notes[1:]] == [
                {"type": "resize", "width": 500, "height": 200},
                {"type": "resize", "width": 1, "height": 1},
                {"type": "resize", "width": 500, "height": 30},
            ]
            await page.close()

    run(test)


@pytest.mark.parametrize("query", ["?width=x&height=24", "?width=1" + "0" * 5000, ""])
def test_a_size_that_is_no_number_is_the_default(tmp_path: Path, query: str) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session, query)
            [started] = await pages.noted(1, 1)
            assert started["size"] == [80, 24]
            await page.close()

    run(test)


MALFORMED = [
    "not json",
    '{"stdin": "x"}',
    '["stdin"]',
    '["stdin", 5]',
    '["stdin", "x", "y"]',
    '["resize", {"width": 1e9, "height": 3}]',
    '["resize", {"width": 80}]',
    '["resize", {"width": 80, "height": 24, "depth": 3}]',
    '["exit"]',
    '["ping", "' + "9" * 100 + '"]',
    '["stdin", "\\ud800"]',
    "[" * 10_000,
]


def test_malformed_messages_are_dropped_with_one_line_of_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session)
            await pages.noted(1, 1)
            for message in MALFORMED:
                await page.send_str(message)
            await page.send_bytes(b"\x00binary")
            await page.send_str('["ping", "1700000000000"]')
            assert (await page.receive_json()) == ["pong", "1700000000000"]
            await page.send_str('["stdin", "k"]')  # the page is still heard
            echo = await page.receive()
            assert (echo.type, echo.data) == (WSMsgType.BINARY, b"k")
            await page.send_str('["focus"]')
            notes = await pages.noted(1, 3)
            assert [(n["kind"], n["payload"]) for n in notes[1:]] == [
                ("D", "k"),
                ("M", '{"type": "focus"}'),
            ]
            await page.close()

    run(test)
    [line] = no_tracebacks(caplog)
    assert line.startswith("dropped a malformed message from 127.0.0.1: ")


def test_a_message_too_long_closes_its_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session)
            await pages.noted(1, 1)
            await page.send_str('["stdin", "' + "x" * served.MAX_MESSAGE + '"]')
            closed = await page.receive()
            assert closed.type == WSMsgType.CLOSE and closed.data == 1009  # message too big
            await pages.games_ended()

    run(test)
    assert [note.get("kind") for note in pages.notes(1)] == [None, "M"]  # asked to quit
    [line] = no_tracebacks(caplog)
    assert line.startswith("closed a page of 127.0.0.1: ")


# -- a page's game ends with its page --------------------------------------------------


def test_a_game_that_will_not_quit_is_killed_once_its_page_is_gone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Game, "quit_wait", 0.1)
    monkeypatch.setattr(Game, "term_wait", 0.1)
    pages = Pages(tmp_path, stubborn=frozenset({1}))

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session)
            await pages.noted(1, 1)
            await page.close()
            await pages.games_ended()

    run(test)
    started, quit_ = pages.notes(1)
    assert json.loads(quit_["payload"]) == {"type": "quit"}  # asked first
    with pytest.raises(ProcessLookupError):
        os.kill(started["pid"], 0)
    pid = started["pid"]
    assert no_tracebacks(caplog) == [
        f"a closed page's game (pid {pid}) is still on: SIGTERM",
        f"a closed page's game (pid {pid}) is still on: SIGKILL",
    ]


def test_a_game_that_ends_closes_its_page(tmp_path: Path) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            page = await pages.page(session)
            [started] = await pages.noted(1, 1)
            os.kill(started["pid"], 9)
            assert (await page.receive()).type == WSMsgType.CLOSE
            await pages.games_ended()

    run(test)


# -- how many pages play ---------------------------------------------------------------


async def refused(page: ClientWebSocketResponse) -> str:
    """What a refused page shows: its terminal cleared, and why."""
    shown = await page.receive()
    assert shown.type == WSMsgType.BINARY and shown.data.startswith(b"\x1b[2J\x1b[H")
    return str(shown.data[7:].decode())


@pytest.fixture
def no_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page finding every place taken by an open page is refused at once."""
    monkeypatch.setattr(TableServer, "grace", 0)


def test_pages_beyond_the_most_are_refused_and_told_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, no_grace: None
) -> None:
    pages = Pages(tmp_path, max_pages=2)
    why = "this server is full: all 2 tables are in use; reload this page once another is closed"

    async def test() -> None:
        async with serving(pages) as session:
            first, second = [await pages.page(session) for _ in range(2)]
            third = await pages.page(session)
            assert await refused(third) == f"{why}."
            await third.close()
            await first.close()
            fourth = await pages.page(session)  # once the first page's game has ended
            await pages.noted(3, 1)
            assert pages.notes(1)[-1]["payload"] == '{"type": "quit"}'
            for page in (second, fourth):
                await page.close()

    run(test)
    assert pages.started == 3
    assert no_tracebacks(caplog) == [f"refused a page to 127.0.0.1: {why}"]


def test_a_refused_page_is_left_showing_why_for_a_while(
    tmp_path: Path, no_grace: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TableServer, "refused_wait", 0.01)
    pages = Pages(tmp_path, max_pages=1)

    async def test() -> None:
        async with serving(pages) as session:
            playing, turned_away = await pages.page(session), await pages.page(session)
            assert "full: its one table is in use;" in await refused(turned_away)
            assert (await turned_away.receive()).type == WSMsgType.CLOSE
            await playing.close()

    run(test)


def test_refused_pages_beyond_the_most_get_503_alone(
    tmp_path: Path, no_grace: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(served, "MAX_REFUSED", 1)
    pages = Pages(tmp_path, max_pages=1)

    async def test() -> None:
        async with serving(pages) as session:
            open_ = [await pages.page(session), await pages.page(session)]  # playing, refused
            with pytest.raises(WSServerHandshakeError) as refused_alone:
                await pages.page(session)
            assert refused_alone.value.status == 503
            for page in open_:
                await page.close()

    run(test)
    assert pages.started == 1


def test_the_game_of_a_save_file_is_played_on_one_page_at_a_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second page does not get the first's game (and see its hand); a page opened as the
    first closes -- a reload -- gets the game once the first's has ended (and saved)."""
    monkeypatch.setattr(Game, "quit_wait", 0.1)
    monkeypatch.setattr(Game, "term_wait", 0.1)
    monkeypatch.setattr(TableServer, "grace", 0.1)
    pages = Pages(tmp_path, stubborn=frozenset({1}), max_pages=4, one_game=True)
    admit, asked = TableServer.admit, []

    async def asking(self: TableServer, slot: Any) -> bool:
        asked.append(slot)
        return await admit(self, slot)

    monkeypatch.setattr(TableServer, "admit", asking)

    async def test() -> None:
        async with serving(pages) as session:
            first = await pages.page(session)
            await pages.noted(1, 1)
            second = await pages.page(session)  # after the grace
            assert "being played on another page" in await refused(second)
            await second.close()
            monkeypatch.setattr(TableServer, "grace", WAIT)
            reloaded = asyncio.create_task(pages.page(session))
            while len(asked) < 3:  # its websocket is opened before the first page's closes
                await asyncio.sleep(0.01)
            await first.close()
            await pages.noted(2, 1)
            with pytest.raises(ProcessLookupError):  # the first page's game had ended
                os.kill(pages.notes(1)[0]["pid"], 0)
            await (await reloaded).close()

    run(test)
    assert pages.started == 2
    refusals = [line for line in no_tracebacks(caplog) if line.startswith("refused")]
    assert len(refusals) == 1 and "another page" in refusals[0]


def test_stopping_the_server_ends_every_pages_game(tmp_path: Path) -> None:
    pages = Pages(tmp_path)

    async def test() -> None:
        async with serving(pages) as session:
            for _ in range(2):
                await pages.page(session)
            await pages.noted(2, 1)

    run(test)  # the server stops as the test ends
    for n in (1, 2):
        started, quit_ = pages.notes(n)
        assert json.loads(quit_["payload"]) == {"type": "quit"}
        with pytest.raises(ProcessLookupError):
            os.kill(started["pid"], 0)
