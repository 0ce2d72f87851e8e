"""Fixtures for the command-line tests: the whole ``meeple`` app around a test plugin manager."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
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
