"""The web server behind ``meeple serve``: textual-serve's, quieter (needs the ``web`` extra)."""

from __future__ import annotations

import logging

from aiohttp import web
from textual_serve.server import Server

from meeple.cli import play


class TableServer(Server):
    """Serves ``command`` (a shell command line) to every page, saying only where it is.

    textual-serve logs every request and prints its banner and the whole
    command; here warnings and errors are logged (a game that failed to start
    shows its error output), and one line gives the address.
    """

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")

    async def on_startup(self, app: web.Application) -> None:
        play.say(f"serving {self.title} at {self.public_url} (Ctrl-C stops)")
