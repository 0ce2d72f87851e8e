"""`meeple serve` in a real headless browser: each page plays its own game, saved when closed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from webpage import Open, Serve, until

pytestmark = pytest.mark.browser


def test_a_closed_page_lets_its_app_finish(serve: Serve, open_page: Open, tmp_path: Path) -> None:
    """Closing the page asks the app to quit: its ``run`` returns, and what follows it runs."""
    echo = str(Path(__file__).with_name("echo.py"))
    terminal = open_page(serve(command=[sys.executable, echo]).url)
    terminal.wait_for("echo: press a key")
    terminal.press("x", "Enter")
    terminal.wait_for("echo: enter")
    terminal.page.close()
    keys = tmp_path / "keys.txt"
    until(lambda: keys.exists() and keys.read_text().endswith("exit\n"), "the app to exit")
    assert keys.read_text() == "x\nenter\nexit\n"


def test_stopping_the_server_lets_the_open_apps_finish(
    serve: Serve, open_page: Open, tmp_path: Path
) -> None:
    """Ctrl-C at the server asks every open page's app to quit, and waits for them."""
    server = serve(command=[sys.executable, str(Path(__file__).with_name("echo.py"))])
    terminal = open_page(server.url)
    terminal.press("y")
    terminal.wait_for("echo: y")
    server.stop()
    assert (tmp_path / "keys.txt").read_text() == "y\nexit\n"
