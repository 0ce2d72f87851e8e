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
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webpage import CHROMIUM_FLAGS, WAIT, Open, Serve, Terminal, free_port


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
    context = browser.new_context(viewport={"width": 1280, "height": 800})
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
    """``serve(*command)``: the URL of a server started by ``command`` (meeple's args by default).

    The server runs in ``tmp_path``; on teardown it gets Ctrl-C (SIGINT) and must stop
    cleanly (exit 0).
    """
    servers: list[subprocess.Popen[str]] = []

    def start(*args: str, command: list[str] | None = None) -> str:
        port = free_port()
        argv = command or [sys.executable, "-m", "meeple.cli", "serve", *args]
        proc = subprocess.Popen(
            [*argv, "--port", str(port)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        servers.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"at http://127.0.0.1:{port} " in line, line + proc.stdout.read()
        return f"http://127.0.0.1:{port}/"

    yield start
    for proc in servers:
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=WAIT)
        assert proc.returncode == 0, output
