"""Fixtures for the command-line tests: the whole ``meeple`` app around a test plugin manager."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
from meeple.core.engine import Match
from meeple.core.plugins import PluginManager

Invoke = Callable[..., Result]


@pytest.fixture
def cli(pm: PluginManager, one_worker: None) -> Invoke:
    """``cli("play", "tiny", input="1\\n")``: run a command with the tiny game installed
    (see ``one_worker``)."""
    app = make_app(pm)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return invoke


Interrupt = Callable[[list[str], Path, int, float], tuple[int, bytes, bytes]]


@pytest.fixture
def interrupt_simulate() -> Interrupt:
    return _interrupt_simulate


def _interrupt_simulate(
    args: list[str], out: Path, lines: int, wait: float
) -> tuple[int, bytes, bytes]:
    """Run ``meeple simulate`` (``args``, writing ``out``) in a real process, send it SIGINT
    once ``out`` holds ``lines`` lines (or ``wait`` seconds pass); its exit code and output."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + wait
    while (
        not out.exists() or out.read_bytes().count(b"\n") < lines
    ) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    return proc.returncode, stdout, stderr


@pytest.fixture
def interrupt_game(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``interrupt_game(n)``: Ctrl-C in the ``n``-th game this process plays from now on
    (:meth:`Match.run`; a command run with ``-w 1`` plays its games here)."""
    run = Match.run

    def interrupt(n: int) -> None:
        played = 0

        def interrupted(self: Match, *a: Any, **kw: Any) -> Any:
            nonlocal played
            played += 1
            if played == n:
                raise KeyboardInterrupt
            return run(self, *a, **kw)

        monkeypatch.setattr(Match, "run", interrupted)

    return interrupt


STALL = """
import multiprocessing
import os
import sys
import time

from meeple.core import hookimpl
from meeple_tiny import Tiny


class Stall(Tiny):
    \"\"\"The tiny game, but the game of seed 40 never ends in a worker process or in
    an interpreter of `meeple check`, while STALL_IN names a folder: a slow game.\"\"\"

    id = "stall"
    title = "Stall"

    def setup(self, seats, seed):
        worker = multiprocessing.parent_process() is not None or sys.argv[0].endswith("check.py")
        if seed == 40 and worker and os.environ.get("STALL_IN"):
            open(os.path.join(os.environ["STALL_IN"], str(os.getpid())), "w").close()
            time.sleep(600)  # only a signal ends it
        return super().setup(seats, seed)


class First:
    def __init__(self, game, seat, stream):
        pass

    def choose(self, prompt):
        return prompt.legal[0]


@hookimpl
def meeple_games(register):
    register(Stall)


@hookimpl
def meeple_bots(register):
    register("first", First, help="the first legal action")
"""

Stalled = Callable[..., tuple[int, str, str, list[int]]]


@pytest.fixture
def stalled(install_plugin: Callable[[str, str], None], tmp_path: Path) -> Stalled:
    """``stalled(args, stuck, sent, group, written)``: ``meeple *args`` in ``tmp_path`` with the
    game ``stall`` installed, sent signal ``sent`` once ``stuck`` of its processes are stuck
    in a game of seed 40 and each run file named in ``written`` holds seeds 0-35: to the
    command alone, or with ``group`` to every process it started, as a terminal sends Ctrl-C.
    Its exit code, output and error, and the stuck processes still running once it ended
    (they are then killed). POSIX only."""
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    install_plugin("stall", STALL)
    marks = tmp_path / "stuck"
    marks.mkdir()

    def run(
        args: list[str], stuck: int, sent: int, group: bool, written: Sequence[str] = ()
    ) -> tuple[int, str, str, list[int]]:
        def ready() -> bool:  # the header and 36 games
            return all(lines(tmp_path / name) > 36 for name in written)

        proc = subprocess.Popen(
            [sys.executable, "-m", "meeple.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "STALL_IN": str(marks), "COLUMNS": "200"},
            start_new_session=True,
        )
        pids: list[int] = []
        try:
            deadline = time.monotonic() + 60
            while (len(pids) < stuck or not ready()) and proc.poll() is None:
                assert time.monotonic() < deadline, "never stuck"
                time.sleep(0.02)
                pids = [int(mark.name) for mark in marks.iterdir()]
            (os.killpg if group else os.kill)(proc.pid, sent)
            out, err = proc.communicate(timeout=30)
        finally:
            left = [pid for pid in pids if running(pid)]
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # whatever it left behind
            proc.wait()
            for mark in marks.iterdir():
                mark.unlink()
        return proc.returncode, out, err, left

    return run


@pytest.fixture
def still_running() -> Callable[[int], bool]:
    """``still_running(pid)``: whether process ``pid`` runs (see :func:`running`)."""
    return running


def lines(path: Path) -> int:
    """The lines ``path`` holds (none if it is not there yet)."""
    return path.read_bytes().count(b"\n") if path.exists() else 0


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except FileNotFoundError:  # gone since, or no /proc (not Linux) to tell a zombie by
        return not Path("/proc/self").exists()


SmallFiles = Callable[[list[str], int], "subprocess.CompletedProcess[str]"]


@pytest.fixture
def small_files() -> SmallFiles:
    """``small_files(args, limit)``: ``meeple *args`` in a process that cannot write a file
    past ``limit`` bytes (a full disk, as far as it can tell). POSIX only."""
    resource = pytest.importorskip("resource")

    def run(args: list[str], limit: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "meeple.cli", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
        )

    return run


class Terminal:
    """``meeple ARGS`` at a real terminal (a pseudo-terminal of 100x30): what it has shown
    (``seen``), and keys typed at it."""

    def __init__(self, args: Sequence[str], cwd: Path | None = None, **env: str) -> None:
        import fcntl  # POSIX only, as pseudo-terminals are
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "meeple.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env={**os.environ, "TERM": "xterm-256color", **env},
        )
        os.close(slave)
        self.seen = b""

    def read_until(self, text: bytes, seconds: float = 30) -> bytes:
        """All it has shown, once ``text`` is among it, ``seconds`` pass or it ends."""
        deadline = time.monotonic() + seconds
        wait = deadline - time.monotonic()
        while text not in self.seen and select.select([self.master], [], [], wait)[0]:
            try:
                self.seen += os.read(self.master, 65536)
            except OSError:  # the process has ended, and its terminal with it
                break
            wait = deadline - time.monotonic()
        return self.seen

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def after_full_screen(self) -> bytes:
        """What it showed once it left the full screen."""
        return self.seen.rpartition(b"\x1b[?1049l")[2]


@pytest.fixture
def real_terminal() -> Iterator[Callable[..., Terminal]]:
    """``real_terminal(args, cwd=None, **env)``: a :class:`Terminal`, its process killed at
    the end."""
    if not hasattr(os, "openpty"):
        pytest.skip("no pseudo-terminals here")
    opened: list[Terminal] = []

    def open_one(args: Sequence[str], cwd: Path | None = None, **env: str) -> Terminal:
        opened.append(Terminal(args, cwd, **env))
        return opened[-1]

    yield open_one
    for term in opened:
        term.proc.kill()
        term.proc.wait()
        os.close(term.master)
