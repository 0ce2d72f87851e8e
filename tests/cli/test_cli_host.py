"""`meeple host` and `meeple join` as people run them: processes, links, crashes, resumes."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import msgspec
import pytest
from typer.testing import Result

from meeple.cli.host import WEB_EXTRA
from meeple.core import net
from meeple.core.bots import Bot, RandomBot
from meeple.core.game import Game
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import bot_stream

WAIT = 60.0
"""Seconds a process may take to start, or a game to end, on 2 busy cores."""

registry = Registry(plugin_manager(entry_points=False))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lines_of(stream: IO[str], into: queue.SimpleQueue[str | None]) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


class Hosting:
    """``meeple host ARGS --port PORT`` in a process of its own, and the links it printed."""

    def __init__(self, args: list[str], cwd: Path, port: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "meeple.cli", "host", *args, "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env={**os.environ, "COLUMNS": "200"},
        )
        self.said: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        assert self.proc.stdout is not None
        threading.Thread(target=lines_of, args=(self.proc.stdout, self.said), daemon=True).start()
        self.printed: list[str] = []
        self.links: dict[int, str] = {}
        while not (line := self.line()).startswith("  spectators: "):
            if line.startswith("  seat ") and "http://" in line:
                self.links[int(line.split()[1])] = line.split()[-1]
        self.spectators = line.split()[-1]

    def line(self) -> str:
        line = self.said.get(timeout=WAIT)
        if line is None:
            self.proc.wait(WAIT)
            assert self.proc.stderr is not None
            raise AssertionError("".join(self.printed) + self.proc.stderr.read())
        self.printed.append(line)
        return line

    def stop(self, how: signal.Signals = signal.SIGINT) -> tuple[int, str, str]:
        """Stop the server as ``how`` does; its exit code, all it printed, its errors."""
        self.proc.send_signal(how)
        self.proc.wait(WAIT)
        while (line := self.said.get(timeout=WAIT)) is not None:
            self.printed.append(line)
        assert self.proc.stderr is not None
        return self.proc.returncode, "".join(self.printed), self.proc.stderr.read()


def random_player(game: Game[Any, Any], seat: int) -> Bot:
    return RandomBot(game, seat, bot_stream(2, seat, "random"))


def meeple(*args: str, cwd: Path, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meeple.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=input,
        timeout=WAIT * 2,
        env={**os.environ, "COLUMNS": "200"},
    )


async def decide(link: str, decisions: int) -> net.Update:
    """Answer ``decisions`` of the link's seat with the first action; the update after."""
    async with net.connect(link, registry.game) as remote:
        async for update in remote.updates():
            if update.to_move == remote.seat and update.choices:
                if not decisions:
                    return update
                decisions -= 1
                await remote.choose(update.step, 0)
    raise AssertionError("the connection closed")


def record_of(path: Path) -> Any:
    return msgspec.json.decode(path.read_bytes())


def test_a_host_killed_and_resumed_goes_on_at_the_same_links(tmp_path: Path) -> None:
    """kill -9 in the middle of a game: `--resume` continues it where the last action left
    it, at the same links; a bot seated through `meeple join` reconnects by itself, and a
    seat reopened gets its whole log back."""
    port = free_port()
    args = ["clonk", "--seats", "human,human,random", "--seed", "3", "--save", "game.json"]
    first = Hosting(args, tmp_path, port)
    assert set(first.links) == {0, 1}
    joined = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "join", first.links[1], "--bot", "random", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    asyncio.run(decide(first.links[0], 4))
    first.proc.kill()
    first.proc.wait(WAIT)
    played = len(record_of(tmp_path / "game.json")["actions"])
    assert played >= 4
    assert "OK " in meeple("validate", "game.json", cwd=tmp_path).stdout
    links = tmp_path / "game.links.json"
    assert stat.S_IMODE(links.stat().st_mode) == 0o600

    second = Hosting(["--resume", "game.json"], tmp_path, port)
    assert (second.links, second.spectators) == (first.links, first.spectators)
    again = asyncio.run(decide(second.links[0], 0))
    assert again.log_from == 0 and f"── resumed after {played} actions ──" in again.log
    assert len(again.log) > played  # the moves before, told again
    final = asyncio.run(net.play(second.links[0], random_player, registry.game, retry=WAIT))
    out, err = joined.communicate(timeout=WAIT)
    assert joined.returncode == 0, err
    assert "Clonk!: final scores" in out and out.startswith("joined Clonk! as seat 1 (random)")
    code, said, err = second.stop()
    assert code == 0 and said.endswith("stopped\n"), said + err
    record = record_of(tmp_path / "game.json")
    assert record["over"] and len(record["actions"]) == final.step
    assert "OK " in meeple("validate", "game.json", cwd=tmp_path).stdout


def test_new_links_replace_the_saved_ones(tmp_path: Path) -> None:
    port = free_port()
    first = Hosting(["clonk", "--seats", "human,random", "--save", "g.json"], tmp_path, port)
    assert first.stop()[0] == 0
    second = Hosting(["--resume", "g.json", "--new-links"], tmp_path, port)
    assert second.links[0] != first.links[0] and second.spectators != first.spectators
    code, said, _ = second.stop(signal.SIGTERM)
    assert code == 143
    assert said.endswith(
        "stopped (terminated); the game is saved in g.json: `meeple host --resume g.json` "
        "continues it\n"
    )


def test_a_person_out_of_time_has_the_fallback_bot_decide(tmp_path: Path) -> None:
    port = free_port()
    hosting = Hosting(
        ["clonk", "--seats", "human,random", "--timer", "1", "--save", "g.json"], tmp_path, port
    )

    async def watch() -> list[str]:
        async with net.connect(hosting.spectators, registry.game) as remote:
            log: list[str] = []
            async for update in remote.updates():
                log += update.log
                if "seat 0's time ran out: random decided for it" in log:
                    return log
        raise AssertionError("the connection closed")

    log = asyncio.run(asyncio.wait_for(watch(), WAIT))
    assert hosting.stop()[0] == 0
    assert len(record_of(tmp_path / "g.json")["actions"]) >= 1
    assert log[log.index("seat 0's time ran out: random decided for it") + 1].startswith("seat 0")


def test_a_person_plays_a_seat_line_by_line(tmp_path: Path) -> None:
    hosting = Hosting(["clonk", "--seats", "human,random", "--seed", "4"], tmp_path, free_port())
    played = meeple("join", hosting.links[0], input="1\n" * 200, cwd=tmp_path)
    hosting.stop()
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("joined Clonk! as seat 0\n")
    assert "seat 0, your choice [1-" in played.stdout and "Clonk!: final scores" in played.stdout


def test_a_person_who_leaves_is_told_how_to_come_back(tmp_path: Path) -> None:
    hosting = Hosting(["clonk", "--seats", "human,random"], tmp_path, free_port())
    left = meeple("join", hosting.links[0], input="q\n", cwd=tmp_path)
    hosting.stop()
    assert left.returncode == 0
    assert left.stdout.endswith("left the game; the seat's link takes you back to it\n")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["not a link"],
            "error: 'not a link' is not an invite link: it reads http://HOST:PORT/#TOKEN",
        ),
        (["http://127.0.0.1:9/#abc", "--retry", "0"], "error: cannot reach ws://127.0.0.1:9/ws:"),
    ],
)
def test_join_says_what_is_wrong_with_a_link(tmp_path: Path, args: list[str], said: str) -> None:
    result = meeple("join", *args, cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.startswith(said), result.stderr
    assert "Traceback" not in result.stderr


def test_join_refuses_the_spectators_link_and_two_bots(tmp_path: Path) -> None:
    hosting = Hosting(["clonk", "--seats", "human,random"], tmp_path, free_port())
    spectator = meeple("join", hosting.spectators, "--bot", "random", cwd=tmp_path)
    two = meeple("join", hosting.links[0], "--bot", "random,greedy", cwd=tmp_path)
    hosting.stop()
    assert spectator.stderr == (
        "error: this is the spectators' link; a player needs a seat's link\n"
    )
    assert two.stderr == (
        "error: --bot 'random,greedy': one bot plays one seat; name one, without commas\n"
    )


def test_serving_beyond_this_machine_says_what_it_exposes(tmp_path: Path) -> None:
    """192.0.2.1 is no address of this machine: the warning comes, then the bind fails."""
    result = meeple("host", "clonk", "--seats", "human,random", "--host", "192.0.2.1", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "warning: serving on 192.0.2.1: anyone who can reach this machine and has a seat's "
        "link plays that seat, and anyone with the spectators' link watches"
    )
    assert "error: cannot serve on 192.0.2.1:8000: " in result.stderr


def test_an_unknown_fallback_bot_is_refused(tmp_path: Path) -> None:
    result = meeple("host", "clonk", "--timer", "5", "--fallback", "nobody", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.startswith("error: ")
    assert "nobody" in result.stderr


def test_without_the_web_extra_host_says_how_to_add_it(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The import fails, as uninstalled; the package forgets it too, if another test imported it.
    monkeypatch.setitem(sys.modules, "meeple.cli.hosting", None)
    monkeypatch.delattr("meeple.cli.hosting", raising=False)
    result: Result = cli("host", "tiny")
    assert result.exit_code == 1
    assert result.output.endswith(f"error: {WEB_EXTRA}\n")
