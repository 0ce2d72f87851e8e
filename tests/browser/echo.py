"""A minimal Textual app behind meeple's web server, to pin what a closed page does to an app.

``python echo.py --port N`` serves ``python echo.py`` (the app) to every page
opened. The app shows the last key pressed and appends each key to keys.txt
in its working folder, then ``exit`` once :meth:`App.run` returns -- which it
does when the page closes (textual-serve asks the app to quit).
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from meeple.cli.server import TableServer

LOG = Path("keys.txt")


class Echo(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("echo: press a key", id="echo")

    def on_key(self, event: events.Key) -> None:
        self.query_one("#echo", Static).update(f"echo: {event.key}")
        with LOG.open("a") as log:
            log.write(f"{event.key}\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--port"]:
        command = [sys.executable, __file__]
        TableServer(lambda: command, "127.0.0.1", int(sys.argv[2]), title="echo").serve()
    else:
        Echo().run()
        with LOG.open("a") as log:
            log.write("exit\n")
