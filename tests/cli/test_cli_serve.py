"""`meeple serve`: play's options checked at the command line, then one table for every page.

The server itself is replaced here (textual-serve is the ``web`` extra, and a
real browser is ``tox -e browser``'s: tests/browser); these tests pin what
``meeple serve`` checks and what command each page runs.
"""

from __future__ import annotations

import shlex
import socket
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from meeple.cli.serve import WEB_EXTRA

Invoke = Callable[..., Result]


class FakeServer:
    """Stands in for :class:`meeple.cli.server.TableServer`: records what it would serve."""

    served: list[FakeServer] = []

    def __init__(self, command: str, host: str, port: int, title: str) -> None:
        self.command, self.host, self.port, self.title = command, host, port, title

    def serve(self) -> None:
        self.served.append(self)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[FakeServer]:
    """The servers ``meeple serve`` starts, none of them for real."""
    fake = types.ModuleType("meeple.cli.server")
    fake.TableServer = FakeServer  # type: ignore[attr-defined]  # a module built at run time
    monkeypatch.setitem(sys.modules, "meeple.cli.server", fake)
    monkeypatch.setattr(FakeServer, "served", [])
    return FakeServer.served


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_each_page_runs_play_at_the_table_with_the_options_given(
    cli: Invoke, served: list[FakeServer], tmp_path: Path
) -> None:
    save, port = tmp_path / "my game.json", free_port()
    args = ["--seats", "human,bot", "--seed", "7", "--save", str(save), "--port", str(port)]
    result = cli("serve", "clank", *args, "-o", "variant=majority", "--board", "back")
    assert result.exit_code == 0, result.output
    [server] = served
    assert (server.host, server.port, server.title) == ("127.0.0.1", port, "Clank!")
    assert shlex.split(server.command) == [
        sys.executable,
        *("-m", "meeple.cli", "play", "clank", "--seats", "human,bot", "--seed", "7"),
        *("--save", str(save), "-o", "variant=majority", "-o", "board=back", "--table"),
    ]
    assert result.output.splitlines()[-1] == "stopped"
    assert not save.exists()  # checked, not written: each page's game saves there


def test_a_resumed_game_is_every_pages_game(
    cli: Invoke, served: list[FakeServer], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    assert (
        cli("play", "tiny", "--seats", "bot,bot", "--seed", "1", "--save", str(saved)).exit_code
        == 0
    )
    result = cli("serve", "--resume", str(saved), "--port", str(free_port()))
    assert result.exit_code == 0, result.output
    assert "resumed" not in result.output  # play's greeting is each page's, not the server's
    assert shlex.split(served[0].command)[3:] == ["play", "--resume", str(saved), "--table"]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["nosuch"], 1, "no game 'nosuch'"),
        (["tiny", "--seats", "human,nobody"], 1, "no bot 'nobody'"),
        (["tiny", "--save", "/no/such/folder/game.json"], 1, "does not exist"),
        (["tiny", "-o", "nosuch=1"], 1, "has no option 'nosuch'"),
        (["tiny", "--nosuch", "1"], 2, "unexpected '--nosuch'"),
        (["--resume", "missing.json"], 1, "missing.json"),
        (["tiny", "--port", "0"], 2, "--port"),
    ],
)
def test_bad_options_are_reported_before_serving(
    cli: Invoke, served: list[FakeServer], args: list[str], code: int, message: str
) -> None:
    result = cli("serve", *args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert not served


def test_a_taken_port_is_one_error_line(cli: Invoke, served: list[FakeServer]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = cli("serve", "tiny", "--port", str(port))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: cannot serve on 127.0.0.1:{port}: ")
    assert not served


def test_without_the_web_extra_serve_says_how_to_add_it(
    cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "meeple.cli.server", None)  # import fails, as uninstalled
    result = cli("serve", "tiny")
    assert result.exit_code == 1
    assert result.output == f"error: {WEB_EXTRA}\n"
    assert 'pip install "meeple[web]"' in WEB_EXTRA
