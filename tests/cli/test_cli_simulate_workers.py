"""`meeple simulate --workers`, `--resume`, and how a parallel run stops (Ctrl-C, a failure)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli import simulate
from meeple.cli.app import make_app
from meeple.cli.report import pace
from meeple.core.plugins import PluginManager, plugin_manager
from meeple.core.runner import Processes

Invoke = Callable[..., Result]
Run = Callable[..., subprocess.CompletedProcess[str]]
Stalled = Callable[..., tuple[int, str, str, list[int]]]

TINY = ["simulate", "tiny", "--seats", "random,random,random", "--rotate", "--quiet"]

FAILING = """
import multiprocessing
import os
import signal

from meeple.core import hookimpl
from meeple_tiny import Tiny


class Boom(Tiny):
    id = "boom"
    title = "Boom"

    def setup(self, seats, seed):
        if seed == 13:
            raise RuntimeError("the fuse was lit")
        return super().setup(seats, seed)


class Crash(Tiny):
    id = "crash"
    title = "Crash"

    def setup(self, seats, seed):
        if seed == 13 and multiprocessing.parent_process() is not None:
            os.kill(os.getpid(), signal.SIGKILL)  # a worker dying, as when out of memory
        return super().setup(seats, seed)


@hookimpl
def meeple_games(register):
    register(Boom)
    register(Crash)
"""


def games(path: Path) -> list[bytes]:
    """The game lines of a run file (its header left out)."""
    return path.read_bytes().splitlines(keepends=True)[1:]


def test_any_number_of_workers_writes_the_same_bytes(cli: Invoke, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert cli(*TINY, "-n", "40", "--workers", "1", "--jsonl", str(one)).exit_code == 0
    result = cli(*TINY, "-n", "40", "--workers", "2", "--jsonl", str(two))
    assert result.exit_code == 0, result.output
    assert one.read_bytes() == two.read_bytes()
    assert "Tiny: 40 games, by seat" in result.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "tiny", "-n", "8"],
        ["compare", "tiny", "--variant", "", "--variant", "", "-n", "8"],
        ["tournament", "clonk", "--bots", "random,greedy", "-n", "4"],
    ],
    ids=["simulate", "compare", "tournament"],
)
def test_workers_are_at_most_one_per_core(
    pm: PluginManager, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """Each worker is an interpreter: more than the cores would only share them."""
    pools: list[int] = []

    class Counted(Processes):
        def __init__(self, workers: int) -> None:
            pools.append(workers)
            super().__init__(workers)

    monkeypatch.setattr(simulate, "Processes", Counted)
    monkeypatch.setattr(simulate, "cpu_count", lambda: 2)
    result = CliRunner().invoke(make_app(pm), [*command, "--workers", "10000"])
    assert result.exit_code == 0, result.output
    warning = "warning: --workers 10000: this process may use 2 cores; playing on 2"
    said = [line for line in result.stderr.splitlines() if " schedule (" not in line]
    assert said == [warning] and pools == [2]  # what a tournament plans is said too


def test_shards_hold_the_games_of_the_whole_run(cli: Invoke, tmp_path: Path) -> None:
    whole, first, second = (tmp_path / f"{name}.jsonl" for name in ("whole", "first", "second"))
    assert cli(*TINY, "-n", "40", "--jsonl", str(whole)).exit_code == 0
    assert cli(*TINY, "-n", "25", "-w", "2", "--jsonl", str(first)).exit_code == 0
    assert cli(*TINY, "--seed", "25", "-n", "15", "-w", "2", "--jsonl", str(second)).exit_code == 0
    assert games(first) + games(second) == games(whole)


def test_resume_after_a_real_interrupt_equals_a_full_run(
    cli: Invoke,
    tmp_path: Path,
    tiny_path: Path,
    interrupt_simulate: Callable[..., tuple[int, bytes, bytes]],
) -> None:
    """SIGINT stops the workers: exit 130 with the summary; --resume then finishes the file."""
    out = tmp_path / "games.jsonl"
    args = [*TINY, "--seed", "5", "--workers", "2", "--jsonl", str(out)]
    code, stdout, stderr = interrupt_simulate([*args, "-n", "1000000"], out, 41, 60)
    assert code == 130, stderr
    assert b"Traceback" not in stderr and b"interrupted after " in stderr
    finished = out.read_bytes().count(b"\n") - 1
    assert finished >= 40 and b"games, by seat" in stdout
    # A write cut short by the interruption: the last line is dropped and played again.
    with out.open("ab") as f:
        f.write(b'{"seed":')
    total = finished + 30
    resumed = cli(*args, "-n", str(total), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "last line was cut short" in resumed.stderr
    assert f"Tiny: {total} games, by seat" in resumed.stdout  # the file's games and the new
    assert "30 games in" in resumed.stdout
    full = tmp_path / "full.jsonl"
    assert cli(*TINY, "--seed", "5", "-n", str(total), "--jsonl", str(full)).exit_code == 0
    assert out.read_bytes() == full.read_bytes()


def test_resume_refuses_another_run(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert cli(*TINY, "-n", "6", "-w", "1", "--jsonl", str(out)).exit_code == 0
    before = out.read_bytes()
    other = ["simulate", "tiny", "--seats", "random,random", "--rotate", "-q"]
    for args, message in (
        (other, 'its run has bots ["random","random","random"], this one ["random","random"]'),
        ([*TINY[:-2], "-q"], "its run has rotate true, this one false"),
        ([*TINY, "--seed", "3"], "seed 0, but the run to resume starts at seed 3"),
        ([*TINY, "-n", "4"], "seed 4, but the run to resume has only 4 games"),
    ):
        result = cli(*args, "--jsonl", str(out), "--resume")
        assert result.exit_code == 1 and message in result.stderr, result.output
        assert out.read_bytes() == before  # bad input never loses a user's work
    header, first, *games = before.splitlines(keepends=True)
    edited = first.replace(b'"places":[', b'"places":[9,', 1)
    out.write_bytes(b"".join([header, edited, *games]))
    result = cli(*TINY, "-n", "6", "--jsonl", str(out), "--resume")
    assert result.exit_code == 1 and f"{out}:2: places [9, " in result.stderr, result.output
    out.write_bytes(before)
    assert cli(*TINY, "--resume").exit_code == 2  # nothing to resume without --jsonl
    assert cli(*TINY, "-n", "6", "--jsonl", str(out), "--resume").exit_code == 0
    assert out.read_bytes() == before  # a finished run: nothing to add


def test_resume_refuses_a_line_no_game_can_have(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["simulate", "clonk", "--seats", "random,random", "-n", "3", "-q", "--jsonl", str(out)]
    assert cli(*args).exit_code == 0
    header, first, *games = out.read_bytes().splitlines(keepends=True)
    for line, found, edit, message in (
        (1, rb'"decisions":\d+', b'"decisions":1' + b"0" * 30, "Expected `int` <= 1000000"),
        (1, rb'"rounds":\d+', b'"rounds":-2', "Expected `int` >= 1 - at `$.rounds`"),
        (1, rb'"seed":\d+', b'"seed":-1', "Expected `int` >= 0 - at `$.seed`"),
        (0, rb'"hand_limit":5', b'"hand_limit":99', "its run has option hand_limit 99, this one 5"),
        (
            0,
            rb'"options":\{',
            b'"options":{"colour":1,',
            "its run has option colour 1, this one null",
        ),
    ):
        lines = [header, first]
        lines[line] = re.sub(found, edit, lines[line])
        out.write_bytes(b"".join([*lines, *games]))
        result = cli(*args, "--resume")
        assert result.exit_code == 1 and message in result.stderr, result.output
        assert result.stderr.startswith(f"error: {out}:{line + 1}: " if line else f"error: {out}: ")
        assert out.read_bytes() == b"".join([*lines, *games])  # left as it was


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_failing_game_names_its_seed_and_keeps_every_game_before_it(
    run: Run, install_plugin: Callable[[str, str], None], tmp_path: Path, workers: str
) -> None:
    install_plugin("failing", FAILING)
    result = run("simulate", "boom", "-n", "30", "-w", workers, "--jsonl", "g.jsonl", "-q")
    assert result.returncode == 1
    failed = "the game of seed 13 failed: plugin 'failing' failed in Boom.setup: RuntimeError: "
    assert failed + "the fuse was lit" in result.stderr
    assert "the 13 games before it are in g.jsonl" in result.stderr
    rerun = "MEEPLE_DEBUG=1 meeple simulate boom --seed 13 -n 1 --workers 1 --seats random"
    assert rerun in result.stderr
    assert "Boom: 13 games, by seat" in result.stdout
    seeds = [line.split(b",")[0] for line in games(tmp_path / "g.jsonl")]
    assert seeds == [b'{"seed":%d' % s for s in range(13)]


def test_the_command_it_prints_shows_the_traceback(
    install_plugin: Callable[[str, str], None],
) -> None:
    install_plugin("failing", FAILING)
    args = ["simulate", "boom", "--seed", "13", "-n", "1", "--workers", "1"]
    result = subprocess.run(
        [sys.executable, "-m", "meeple.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "MEEPLE_DEBUG": "1"},
    )
    assert result.returncode == 1
    assert (
        "Traceback" in result.stderr and 'raise RuntimeError("the fuse was lit")' in result.stderr
    )


def test_a_worker_that_dies_names_the_seeds_it_had(
    run: Run, install_plugin: Callable[[str, str], None], tmp_path: Path
) -> None:
    install_plugin("failing", FAILING)
    result = run("simulate", "crash", "-n", "60", "-w", "2", "--jsonl", "g.jsonl", "-q")
    assert result.returncode == 1
    assert "a worker stopped before finishing them" in result.stderr
    first = len(games(tmp_path / "g.jsonl"))  # every game before the lost chunk is kept
    assert first <= 13 and re.search(rf"the games? of seeds? {first}\b", result.stderr)
    assert f"--seed {first} -n " in result.stderr


def test_a_terminal_shows_progress_with_games_per_second(run: Run) -> None:
    terminal = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1"}  # what Rich takes for a terminal
    shown = run("simulate", "tiny", "-n", "20", "--workers", "2", env=terminal)
    assert shown.returncode == 0 and "20/20" in shown.stderr and "games/s" in shown.stderr
    assert (
        "games/s" not in run("simulate", "tiny", "-n", "20", "-w", "1", "-q", env=terminal).stderr
    )
    assert "games/s" not in run("simulate", "tiny", "-n", "20", "-w", "1").stderr
    tournament = ["tournament", "clonk", "--bots", "random,greedy", "-n", "20", "-w", "1"]
    shown = run(*tournament, env=terminal)
    assert shown.returncode == 0 and "Clonk! tournament games" in shown.stderr
    assert "20/20" in shown.stderr and "games/s" in shown.stderr
    assert "20/20" not in run(*tournament, "--quiet", env=terminal).stderr
    compare = ["compare", "tiny", "--variant", "", "--variant", "", "-n", "10", "-w", "1"]
    shown = run(*compare, env=terminal)
    assert shown.returncode == 0 and "Tiny games" in shown.stderr and "20/20" in shown.stderr


def test_a_slow_run_s_pace_is_read_per_game() -> None:
    assert [pace(rate) for rate in (1234.4, 12.0, 2.54, 1.0, 0.6, 0.01)] == [
        "1,234 games/s",
        "12 games/s",
        "2.5 games/s",
        "1.0 games/s",
        "1.7 s/game",
        "100.0 s/game",
    ]


@pytest.mark.parametrize(
    ("sent", "group", "said", "code"),
    [
        (signal.SIGINT, True, "interrupted", 130),  # Ctrl-C at a terminal
        (signal.SIGTERM, False, "terminated", 143),  # a batch system's stop
    ],
    ids=["ctrl-c", "sigterm"],
)
def test_a_stop_keeps_the_games_a_worker_finished_in_its_chunk(
    stalled: Stalled, tmp_path: Path, sent: int, group: bool, said: str, code: int
) -> None:
    """Chunks of 6 seeds: once 0-35 are written, a worker has finished 36-39 and plays 40 as long
    as it is let. What the other one finished after 40 follows that gap: it cannot be written."""
    args = ["simulate", "stall", "--seats", "random,random", "-n", "200", "--jsonl", "g.jsonl"]
    done, stdout, err, left = stalled([*args, "-w", "2", "-q"], 1, sent, group, ["g.jsonl"])
    assert (done, err) == (code, f"{said} after 40 of 200 games; g.jsonl holds their lines\n")
    assert "Stall: 40 games, by seat" in stdout and left == []
    out = tmp_path / "g.jsonl"
    seeds = [line.split(b",")[0] for line in games(out)]
    assert seeds == [b'{"seed":%d' % seed for seed in range(40)]
    with_stall = make_app(plugin_manager(entry_points=True))  # played here, it never stalls
    full = tmp_path / "full.jsonl"
    for more in (["--jsonl", str(full)], ["--jsonl", str(tmp_path / "g.jsonl"), "--resume"]):
        result = CliRunner().invoke(with_stall, [*args[:-2], *more, "-w", "1", "-q"])
        assert result.exit_code == 0, result.output
    assert out.read_bytes() == full.read_bytes()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError):  # ended meanwhile
            continue
        if parent == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_end_with_a_killed_parent(
    tiny_path: Path, tmp_path: Path, still_running: Callable[[int], bool]
) -> None:
    """SIGKILL (or the out-of-memory killer) gives the command no chance to stop its workers:
    they notice it is gone and end, and the resource tracker with them."""
    out = tmp_path / "g.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *TINY, "-n", "1000000", "-w", "2", "--jsonl", out],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    started: list[int] = []
    try:
        deadline = time.monotonic() + 60
        # Two workers, playing, and the resource tracker.
        while len(started) < 3 or not out.exists() or out.read_bytes().count(b"\n") < 10:
            assert proc.poll() is None and time.monotonic() < deadline, "never started"
            time.sleep(0.02)
            started = children(proc.pid)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 30
        while any(map(still_running, started)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(still_running, started))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever it left behind
        proc.wait()
