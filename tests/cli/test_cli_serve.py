"""`meeple serve`: play's options checked at the command line, then one table for every page.

The server itself is replaced here (textual-serve is the ``web`` extra, and a
real browser is ``tox -e browser``'s: tests/browser); these tests pin what
``meeple serve`` checks, what command each page runs, and that this command
saves its game when the page closes, spoken to as textual-serve speaks to it.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import types
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest
from typer.testing import Result

from meeple.cli.serve import WEB_EXTRA, play_command
from meeple.core import records
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry
from meeple.core.validate import check_file

Invoke = Callable[..., Result]


class FakeServer:
    """Stands in for :class:`meeple.cli.server.TableServer`: records what it would serve."""

    served: list[FakeServer] = []

    def __init__(
        self,
        command: Callable[[], list[str]],
        host: str,
        port: int,
        title: str,
        *,
        max_pages: int,
        one_game: bool,
    ) -> None:
        self.page_command, self.host, self.port, self.title = command, host, port, title
        self.max_pages, self.one_game = max_pages, one_game

    @property
    def command(self) -> list[str]:
        """The command a page opened now would run."""
        return self.page_command()

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
    result = cli("serve", "clank", *args, "-q", "-o", "variant=majority", "--board", "back")
    assert result.exit_code == 0, result.output
    [server] = served
    assert (server.host, server.port, server.title) == ("127.0.0.1", port, "Clank!")
    assert server.command == [
        sys.executable,
        *("-m", "meeple.cli", "play", "clank", "--seats", "human,bot", "--seed", "7"),
        *("--save", str(save), "-o", "variant=majority", "-o", "board=back"),
        *("--quiet", "--table", "--page"),
    ]
    assert server.one_game  # the file holds one game: one page plays it at a time
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
    assert served[0].command[3:] == ["play", "--resume", str(saved), "--table", "--page"]
    assert served[0].one_game


def test_a_page_opened_after_one_closed_mid_game_continues_its_game(
    cli: Invoke, served: list[FakeServer], tmp_path: Path, registry: Registry
) -> None:
    save = tmp_path / "game.json"
    args = ["--seats", "human,random", "--seed", "7", "--save", str(save)]
    assert cli("serve", "tiny", *args, "--port", str(free_port())).exit_code == 0
    [server] = served
    assert "--resume" not in server.command  # no game saved yet: a new one
    # A page closed after two decisions left its game there, as play saves it.
    game = registry.game("tiny")()
    match = Match.new(game, 2, 7, Hooks(None))
    for _ in range(2):
        match.step(game.legal_actions(match.state)[0])
    setup = records.setup_of(game, ["human", "random"], 7)
    records.write_atomic(save, records.encode(records.record_of(match, setup)))
    assert server.command[3:] == [
        *("play", "tiny", "--seats", "human,random", "--resume", str(save), "--table", "--page")
    ]
    while not game.is_over(match.state):  # played to the end: the next page starts anew
        match.step(game.legal_actions(match.state)[0])
    records.write_atomic(save, records.encode(records.record_of(match, setup)))
    assert "--resume" not in server.command


def test_pages_play_up_to_max_pages_at_once(cli: Invoke, served: list[FakeServer]) -> None:
    assert cli("serve", "tiny", "--port", str(free_port())).exit_code == 0
    assert cli("serve", "tiny", "--port", str(free_port()), "--max-pages", "2").exit_code == 0
    assert [(server.max_pages, server.one_game) for server in served] == [(4, False), (2, False)]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "127.0.0.2"])
def test_a_loopback_host_is_served_without_a_warning(
    cli: Invoke, served: list[FakeServer], host: str
) -> None:
    result = cli("serve", "tiny", "--host", host, "--port", str(free_port()))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_another_host_is_served_with_a_warning(cli: Invoke, served: list[FakeServer]) -> None:
    port = free_port()
    result = cli("serve", "tiny", "--host", "0.0.0.0", "--port", str(port))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        f"warning: 0.0.0.0 is not this machine's loopback address: anyone who can reach its "
        f"port {port} can open a page and play, and every page's game runs on this machine"
    )


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["tiny", "--max-pages", "0"], 2, "--max-pages"),
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


def packets(stream: IO[bytes], into: queue.SimpleQueue[tuple[bytes, bytes]]) -> None:
    """Read the packets of Textual's web driver from ``stream`` (a type byte, a 4-byte size,
    the payload), after its opening line, until the stream ends."""
    while stream.readline() not in (b"__GANGLION__\n", b""):
        pass
    while kind := stream.read(1):
        size = int.from_bytes(stream.read(4), "big")
        into.put((kind, stream.read(size)))


def test_a_page_closed_mid_game_leaves_the_game_saved(tmp_path: Path, registry: Registry) -> None:
    """textual-serve runs each page's game with Textual's web driver, and tells it to quit
    (a "quit" packet on its standard input) when the page closes: the game stops as on
    Ctrl-C, saved to --save."""
    save = tmp_path / "game.json"
    command = play_command("clonk", "human,random", 1, [], save, None)
    driver = {"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver", "COLUMNS": "120"}
    game = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **driver},
    )
    assert game.stdin is not None and game.stdout is not None
    shown: queue.SimpleQueue[tuple[bytes, bytes]] = queue.SimpleQueue()
    threading.Thread(target=packets, args=(game.stdout, shown), daemon=True).start()
    screen = b""
    while b"your turn" not in screen:  # the first decision is on the page
        kind, payload = shown.get(timeout=30)
        screen += payload if kind == b"D" else b""
    quit = json.dumps({"type": "quit"}).encode()
    game.stdin.write(b"M" + len(quit).to_bytes(4, "big") + quit)
    game.stdin.flush()
    assert game.wait(timeout=30) == 130
    assert check_file(save, registry, Hooks(registry.pm)).ok
