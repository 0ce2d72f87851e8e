"""A real browser at ``meeple serve``: Debian's Chromium, headless, driven by Playwright.

Playwright launches the system's Chromium (``MEEPLE_CHROMIUM``, default
/usr/bin/chromium) and never downloads a browser of its own. The page is
textual-serve's xterm.js terminal, drawn on a canvas: what it shows is read
by feeding the same bytes the page receives from its websocket to ``pyte``,
a terminal emulator, sized as the page's terminal. Keys go in as a person's
would, through the page's keyboard.

With ``MEEPLE_SHOTS=FOLDER``, :meth:`Terminal.shot` saves PNG screenshots
there.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webpage import CHROMIUM_FLAGS, WAIT, Open, Serve, Server, Terminal


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Open]:
    """``open_page(url)``: a new page at ``url`` (only localhost is reached), once it shows."""
    # Tall enough for a whole table pane, maps included, in the screenshots.
    context = browser.new_context(viewport={"width": 1600, "height": 1500})
    # The page asks Google for a font; a closed network would stall it, so nothing leaves here.
    context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/])"), lambda route: route.abort())
    shots = os.environ.get("MEEPLE_SHOTS")

    def open_page(url: str) -> Terminal:
        terminal = Terminal(context.new_page(), Path(shots) if shots else None)
        terminal.page.goto(url)
        terminal.page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
        terminal.page.locator(".xterm-helper-textarea").focus()
        return terminal

    yield open_page
    context.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """``serve(*args)``: ``meeple serve *args`` (or ``command=``) running in ``tmp_path``.

    A server the test did not stop gets Ctrl-C on teardown, and must stop cleanly too.
    """
    servers: list[Server] = []

    def start(*args: str, command: list[str] | None = None) -> Server:
        argv = command or [sys.executable, "-m", "meeple.cli", "serve", *args]
        servers.append(Server(argv, tmp_path))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
