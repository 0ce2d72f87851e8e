"""The served table as a test sees it: a page's screen as text, its keyboard, a wait."""

from __future__ import annotations

import functools
import json
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these, Chromium keeps reaching for Google's hosts, which a closed network refuses.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 30.0
"""Seconds to wait for a page or a server (2 busy cores start Chromium and a game slowly)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def until(check: Callable[[], Any], what: str, pause: Callable[[float], None] = time.sleep) -> Any:
    """Poll ``check`` until it returns something true; fail saying ``what`` was awaited."""
    deadline = time.monotonic() + WAIT
    while not (result := check()):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {WAIT:.0f} s waiting for {what}")
        pause(0.1)
    return result


class Terminal:
    """One page of the served table: its screen as text, and a keyboard."""

    def __init__(self, page: Any, shots: Path | None) -> None:
        self.page, self.shots = page, shots
        self.websocket: Any = None
        self.blank(80, 24)
        page.on("websocket", self.watch)

    def blank(self, width: int, height: int) -> None:
        import pyte

        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)

    def watch(self, websocket: Any) -> None:
        """Each websocket the page opens (again, when reloaded) is a new terminal: blank, and
        drawn by that websocket alone (the last one's frames may still come as it closes)."""
        self.websocket = websocket
        query = parse_qs(urlparse(websocket.url).query)
        self.blank(int(query["width"][0]), int(query["height"][0]))
        websocket.on("framesent", functools.partial(self.sent, websocket))
        websocket.on("framereceived", functools.partial(self.received, websocket))

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(lines=height, columns=width)

    def sent(self, websocket: Any, payload: str | bytes) -> None:
        message = json.loads(payload)
        if websocket is self.websocket and message[0] == "resize":
            self.resize(message[1]["width"], message[1]["height"])

    def received(self, websocket: Any, payload: str | bytes) -> None:
        # Bytes are the app's output (text frames are pongs and meta).
        if websocket is self.websocket and isinstance(payload, bytes):
            self.stream.feed(payload)

    def pause(self, seconds: float) -> None:
        """Wait in Playwright, which hands the page's frames to :meth:`received` meanwhile."""
        self.page.wait_for_timeout(seconds * 1000)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def until(self, check: Callable[[], Any], what: str) -> Any:
        """:func:`until`, the page going on meanwhile, and the screen shown if it never comes."""
        try:
            return until(check, what, self.pause)
        except pytest.fail.Exception as failure:
            pytest.fail(f"{failure.msg}; the screen shows:\n{self.text()}")

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first match of ``pattern`` on the screen, once it shows."""
        found: re.Match[str] = self.until(
            lambda: re.search(pattern, self.text()), f"{pattern!r} on the screen"
        )
        return found

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)

    def shot(self, name: str) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=self.shots / f"{name}.png")


Open = Callable[[str], Terminal]
"""``open_page(url)``: a new page at ``url``, once it shows."""


class Server:
    """A server started by ``argv`` with ``--port`` (a free one), announcing its address."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        port = free_port()
        self.proc = subprocess.Popen(
            [*argv, "--port", str(port)],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.url = f"http://127.0.0.1:{port}/"
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert f"at {self.url.rstrip('/')} " in line, line + self.proc.stdout.read()
        self.output: str | None = None

    def stop(self) -> str:
        """Ctrl-C (SIGINT), after which the server must stop cleanly; what it printed."""
        if self.output is None:
            self.proc.send_signal(signal.SIGINT)
            self.output, _ = self.proc.communicate(timeout=WAIT)
            assert self.proc.returncode == 0, self.output
        return self.output


Serve = Callable[..., Server]
"""``serve(*args)``: ``meeple serve *args`` started for the test."""
