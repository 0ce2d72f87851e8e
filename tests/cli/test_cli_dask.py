"""`meeple simulate --dask`: the same games, byte for byte, played by Dask workers.

Tests that start a cluster need the ``dask`` extra and are marked ``dask``:
``tox -e dask`` runs them, the default run skips them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import Result

from meeple.core import cluster, runner
from meeple.core.runner import GameResult, RunSpec

Invoke = Callable[..., Result]
GAME = ["simulate", "clonk", "-n", "40", "--seed", "3", "--seats", "random,greedy,random"]


@pytest.fixture(scope="module")
def threads() -> Iterator[str]:
    """The address of a scheduler with one worker thread in this process (so patches reach it)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


@pytest.mark.dask
def test_local_cluster_writes_the_bytes_of_one_process(cli: Invoke, tmp_path: Path) -> None:
    alone, spread = tmp_path / "alone.jsonl", tmp_path / "spread.jsonl"
    assert cli(*GAME, "--jsonl", alone, "--quiet").exit_code == 0
    result = cli(*GAME, "--jsonl", spread, "--quiet", "--dask", "local")
    assert result.exit_code == 0, result.output
    assert spread.read_bytes() == alone.read_bytes()
    assert "Clonk!: 40 games, by seat" in result.stdout


@pytest.mark.dask
def test_results_come_in_seed_order_from_a_scheduler(threads: str) -> None:
    spec = RunSpec(game="clonk", version="2", options={}, bots=["random"] * 3)
    with cluster.Dask(threads) as workers:
        assert workers.workers == 1
        seeds = [g.seed for g in runner.results(spec, range(5, 28), workers, chunk=2)]
    assert seeds == list(range(5, 28))


@pytest.mark.dask
def test_a_failing_game_names_its_seed_after_every_earlier_game(
    cli: Invoke, threads: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_game = runner.play_game

    def failing(*args: Any) -> GameResult:
        if args[-1] == 10:
            raise RuntimeError("boom")
        return play_game(*args)

    monkeypatch.setattr(runner, "play_game", failing)
    out = tmp_path / "run.jsonl"
    result = cli(*GAME, "--jsonl", out, "--dask", threads)
    assert result.exit_code == 1
    first, rerun = result.stderr.strip().splitlines()
    assert first.startswith("error: the game of seed 10 failed: RuntimeError: boom")
    assert first.endswith(f"the 7 games before it are in {out}")
    assert rerun.strip().startswith("play it alone: MEEPLE_DEBUG=1 meeple simulate clonk --seed 10")
    _, *lines = out.read_bytes().splitlines()
    assert [msgspec.json.decode(line, type=GameResult).seed for line in lines] == list(range(3, 10))


@pytest.mark.dask
def test_an_unreachable_scheduler_is_one_line_and_keeps_the_file(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as s:  # a port nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    kept = tmp_path / "kept.jsonl"
    earlier = runner.header_line(RunSpec(game="clonk", version="2", options={}, bots=["random"]))
    kept.write_bytes(earlier)  # an earlier run's file, which --jsonl would replace
    result = cli(*GAME, "--jsonl", kept, "--dask", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert f"--dask tcp://127.0.0.1:{port}: no Dask scheduler answered" in line
    assert "dask scheduler" in line
    assert kept.read_bytes() == earlier


@pytest.fixture
def silent_then(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[bytes], str]]:
    """``silent_then(sent)``: the address of a loopback server that takes connections, sends
    each the bytes ``sent`` and nothing more (a server of another kind, a fake scheduler),
    with one second to connect. After 20 s it hangs up, so that a client that waits for
    ever fails instead of hanging the tests."""
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    servers: list[socket.socket] = []
    taken: list[socket.socket] = []

    def hang_up() -> None:
        for s in [*servers, *taken]:
            s.close()

    timer = threading.Timer(20, hang_up)
    timer.start()

    def serve(sent: bytes) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def answer() -> None:
            with contextlib.suppress(OSError):  # closed at the end of the test
                while True:
                    conn, _ = server.accept()
                    taken.append(conn)
                    conn.sendall(sent)

        threading.Thread(target=answer, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield serve
    timer.cancel()
    hang_up()


@pytest.mark.dask
def test_a_scheduler_that_never_answers_is_given_the_connect_timeout_in_all(
    cli: Invoke, silent_then: Callable[[bytes], str], tmp_path: Path
) -> None:
    address = silent_then(b"")
    result = cli(*GAME, "--dask", address)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: --dask {address}: no Dask scheduler answered ({address}: no answer within 1 "
        "s); start one there with `dask scheduler`, or play on this machine with `local`\n"
    )


@pytest.mark.dask
def test_a_scheduler_announcing_a_huge_message_is_one_line(
    cli: Invoke, silent_then: Callable[[bytes], str]
) -> None:
    address = silent_then(struct.pack("Q", 2**62))  # Dask's frame header: the bytes that follow
    result = cli(*GAME, "--dask", address)
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: --dask {address}: no Dask scheduler answered (MemoryError: ")


@pytest.mark.dask
def test_a_protocol_this_dask_cannot_use_is_one_line(cli: Invoke) -> None:
    result = cli(*GAME, "--dask", "ucx://127.0.0.1:1234")
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("error: --dask ucx://127.0.0.1:1234: its protocol ucx:// cannot be used")
    assert line.endswith("give the scheduler's tcp:// address")


def test_without_the_extra_dask_is_a_hint(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    kept = tmp_path / "kept.jsonl"
    earlier = runner.header_line(RunSpec(game="clonk", version="2", options={}, bots=["random"]))
    kept.write_bytes(earlier)  # an earlier run's file, which --jsonl would replace
    result = cli(*GAME, "--jsonl", kept, "--dask", "local")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert 'pip install "meeple[dask]"' in line and line.startswith("error: --dask local:")
    assert kept.read_bytes() == earlier


@pytest.mark.dask
def test_ctrl_c_at_a_terminal_stops_the_local_workers_without_tracebacks(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    args = ["simulate", "clonk", "-n", "1000000", "--seats", "random,random", "--dask", "local"]
    # A terminal sends Ctrl-C to every process of the job: the command and its workers.
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *args, "--jsonl", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while (not out.exists() or out.read_bytes().count(b"\n") < 21) and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert b"Traceback" not in stderr and stderr.count(b"\n") == 1, stderr
    assert b"interrupted after " in stderr and b"Clonk!: " in stdout
    _, *lines = out.read_bytes().splitlines()
    seeds = [msgspec.json.decode(line, type=GameResult).seed for line in lines]
    assert len(seeds) >= 20 and seeds == list(range(len(seeds)))


class StuckFuture:
    """A Dask future that never ends: each wait times out, after ``on_wait`` runs."""

    def __init__(self, status: str = "pending", on_wait: Any = None) -> None:
        self.status, self.on_wait, self.waits = status, on_wait, 0

    def done(self) -> bool:
        return self.status != "pending"

    def exception(self, timeout: float | None = None) -> None:
        self.waits += 1
        if self.on_wait is not None:
            self.on_wait()
        raise TimeoutError

    def result(self, timeout: float | None = None) -> list[Any]:
        if self.status == "error":
            raise ValueError("the worker's own error")
        raise AssertionError("a chunk that did not finish has no games to fetch")


def test_a_chunk_s_wait_ends_at_ctrl_c_and_raises_it_in_meeple_s_code() -> None:
    """Ctrl-C while a chunk is awaited is held, ends the wait, and is raised as the wait
    returns, never in a Dask ``__del__`` that would print and drop it."""
    future = StuckFuture(on_wait=lambda: signal.raise_signal(signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        cluster.Chunk(future).result()
    assert future.waits == 1


def test_a_chunk_stopped_gives_up_at_its_deadline_a_cancelled_one_at_once() -> None:
    stopped = cluster.Chunk(StuckFuture())
    stopped.deadline = time.monotonic()
    assert stopped.result() == [] and stopped.future.waits == 1
    cancelled = cluster.Chunk(StuckFuture("cancelled"))
    assert cancelled.result() == [] and cancelled.future.waits == 0
    with pytest.raises(ValueError, match="the worker's own error"):
        cluster.Chunk(StuckFuture("error")).result()
