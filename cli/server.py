"""The web server behind ``meeple serve``: textual-serve's, quieter (needs the ``web`` extra)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web
from textual_serve.server import Server

from meeple.cli import play


class TableServer(Server):
    """Serves the game ``command()`` starts (a shell command line, asked again as each page
    opens) to every page, saying only where it is.

    textual-serve logs every request and prints its banner and the whole
    command; here warnings and errors are logged (a game that failed to start
    shows its error output), and one line gives the address.

    On Ctrl-C, the pages still open are closed as if their browsers had gone:
    each game is asked to quit (and saves, given a file) before the server
    stops, instead of the server waiting for the browsers to leave.
    """

    def __init__(self, command: Callable[[], str], host: str, port: int, title: str) -> None:
        super().__init__(command(), host, port, title=title)
        self.page_command = command
        self.pages: set[asyncio.Task[object]] = set()

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")

    async def on_startup(self, app: web.Application) -> None:
        play.say(f"serving {self.title} at {self.public_url} (Ctrl-C stops)")

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        page = asyncio.current_task()
        assert page is not None  # aiohttp runs each request in a task of its own
        self.pages.add(page)
        self.command = self.page_command()  # read by textual-serve as the page starts its game
        try:
            return await super().handle_websocket(request)
        finally:
            self.pages.discard(page)

    async def on_shutdown(self, app: web.Application) -> None:
        for page in self.pages:
            page.cancel()  # textual-serve then tells the page's game to quit, and waits for it
