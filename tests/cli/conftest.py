"""Fixtures for the command-line tests: the whole ``meeple`` app around a test plugin manager."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
from meeple.core.engine import Match
from meeple.core.plugins import PluginManager

Invoke = Callable[..., Result]


@pytest.fixture
def cli(pm: PluginManager) -> Invoke:
    """``cli("play", "tiny", input="1\\n")``: run a command with the tiny game installed."""
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
