"""`meeple simulate`: seeded bot games, a summary, and byte-stable JSON lines."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import Result

from meeple.cli import simulate
from meeple.core.engine import Match
from meeple.core.rng import SEED_MAX
from meeple.core.runner import GameResult, Header

Invoke = Callable[..., Result]


def test_defaults_just_work(cli: Invoke) -> None:
    result = cli("simulate", "tiny")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Tiny: 100 games, by seat" in out
    assert "3 (random)" in out  # default: the most seats, each the game's best bot
    assert "by bot" in out and "game length" in out and "decisions" in out and "games/s" in out


def test_jsonl_is_the_same_bytes_for_the_same_seed(cli: Invoke, tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    args = ["simulate", "tiny", "-n", "12", "--seats", "random,bot,random"]
    assert cli(*args, "--seed", "40", "--jsonl", str(first)).exit_code == 0
    assert cli(*args, "--seed", "40", "--jsonl", str(second), "--quiet").exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    header, *lines = first.read_bytes().splitlines()
    spec = msgspec.json.decode(header, type=Header).run
    assert spec.game == "tiny" and spec.bots == ["random"] * 3 and not spec.rotate
    games = [msgspec.json.decode(line, type=GameResult) for line in lines]
    assert [g.seed for g in games] == list(range(40, 52))
    assert all(g.seats == ["random"] * 3 and len(g.scores) == 3 for g in games)
    assert all(g.places.count(1) >= 1 and g.decisions > 0 for g in games)
    assert all(sum(s.parts.values()) == s.total for g in games for s in g.scores)
    assert cli(*args, "--seed", "41", "--jsonl", str(other)).exit_code == 0
    assert other.read_bytes().splitlines()[1:12] == lines[1:]  # game i is seed S+i, nothing else


def test_wins_sum_to_the_number_of_games(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = cli("simulate", "tiny", "-n", "30", "--seats", "random,random", "--jsonl", str(out))
    assert result.exit_code == 0
    # Tiny often ends in shared wins: each winner is credited 1/k, so the row for the one bot
    # name playing both seats shows 30 wins in 60 seat-games.
    assert "random │    60 │   30 │    50.0%" in result.stdout


def test_every_game_simulates(cli: Invoke, game_id: str) -> None:
    result = cli("simulate", game_id, "-n", "3", "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "3 games" in result.stdout


def test_bad_input(cli: Invoke) -> None:
    result = cli("simulate", "tiny", "--seats", "human,random")
    assert result.exit_code == 1 and "simulate plays bots only" in result.stderr
    result = cli("simulate", "chess")
    assert result.exit_code == 1 and "no game 'chess'" in result.stderr
    result = cli("simulate", "tiny", "--option", "x=1")
    assert result.exit_code == 1 and "Tiny has no option 'x'" in result.stderr
    assert cli("simulate", "tiny", "-n", "0").exit_code == 2
    assert cli("simulate", "tiny", "--seed", str(2**63)).exit_code == 2
    assert cli("simulate").exit_code == 2


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "tiny"],
        ["compare", "tiny", "--variant", "", "--variant", ""],
        ["tournament", "tiny", "--bots", "random,ismcts"],
        ["check", "tiny"],
    ],
    ids=lambda command: command[0],
)
def test_every_seed_is_one_a_file_can_hold(cli: Invoke, command: list[str]) -> None:
    """Game i plays seed + i: a run whose last seed is past SEED_MAX is refused before it starts."""
    assert cli(*command, "--seed", str(SEED_MAX - 1), "-n", "2").exit_code == 0
    result = cli(*command, "--seed", str(SEED_MAX), "-n", "2")
    assert result.exit_code == 1, result.output
    said = f"error: --seed {SEED_MAX} with 2 games: the last seed would be {SEED_MAX + 1}"
    assert result.stderr.startswith(said)
    assert "lower --seed or -n" in result.stderr and not result.stdout


def test_game_options_as_flags(cli: Invoke, tmp_path: Path) -> None:
    """``--hand-limit 6`` is ``--option hand_limit=6``; a flag no one knows is a usage error."""
    by_flag, by_option = tmp_path / "flag.jsonl", tmp_path / "option.jsonl"
    args = ["simulate", "clonk", "-n", "3", "--quiet"]
    assert cli(*args, "--eye-tie", "none", "--jsonl", str(by_flag)).exit_code == 0
    assert cli(*args, "-o", "eye_tie=none", "--jsonl", str(by_option)).exit_code == 0
    assert by_flag.read_bytes() == by_option.read_bytes()
    assert cli(*args, "--hand-limit=6").exit_code == 0
    unknown = cli(*args, "--bogus", "1")
    assert unknown.exit_code == 2 and "hand_limit" in unknown.output
    assert cli(*args, "--hand-limit").exit_code == 2
    assert cli(*args, "--eye-tie", "maybe").exit_code == 1


def test_rotate_moves_every_player_one_seat_each_game(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "rotated.jsonl"
    args = ["simulate", "clonk", "-n", "4", "--seats", "greedy,random,random", "--rotate"]
    result = cli(*args, "--jsonl", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    lines = out.read_bytes().splitlines()[1:]
    games = [msgspec.json.decode(line, type=GameResult) for line in lines]
    assert [g.seats.index("greedy") for g in games] == [0, 1, 2, 0]  # seed s: s % 3 seats on
    assert "0 (greedy)" not in result.stdout  # rotated seats are not labelled by one player
    rows = [line.split("│") for line in result.stdout.splitlines() if "│ greedy" in line]
    assert [cell.strip() for cell in rows[0][1:3]] == ["greedy", "4"]  # 4 games, 1 seat each


def test_outcomes_table_from_score_notes(cli: Invoke) -> None:
    """Clank! notes each seat's fate; simulate sums them per bot."""
    result = cli(
        "simulate", "clank", "-n", "2", "--seats", "heuristic,random", "--rotate", "--quiet"
    )
    assert result.exit_code == 0, result.output
    assert "outcomes by bot" in result.stdout and "escaped" in result.stdout
    assert "outcomes by bot" not in cli("simulate", "tiny", "-n", "2", "--quiet").stdout


def test_a_bad_jsonl_path_stops_before_the_first_game(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_game(*_: object) -> None:
        raise AssertionError("a game started")

    monkeypatch.setattr(Match, "new", no_game)
    for target, message in (
        (tmp_path / "missing" / "g.jsonl", "does not exist"),
        (tmp_path, "this is a folder"),
    ):
        result = cli("simulate", "tiny", "-n", "3", "--jsonl", str(target))
        assert result.exit_code == 1
        assert message in result.stderr and "Traceback" not in result.output


def test_jsonl_overwrites_another_file_only_with_force(cli: Invoke, tmp_path: Path) -> None:
    """A run file of the game is replaced by running again; any other file would be lost."""
    notes, run = tmp_path / "notes.txt", tmp_path / "run.jsonl"
    notes.write_text("the only copy\n")
    args = ["simulate", "tiny", "-n", "2", "--quiet", "--jsonl"]
    result = cli(*args, notes)
    assert result.exit_code == 1
    assert f"--jsonl {notes}: the file exists and is not a run file" in result.stderr
    assert "add --force" in result.stderr and notes.read_text() == "the only copy\n"
    assert cli(*args, notes, "--force").exit_code == 0
    assert msgspec.json.decode(notes.read_bytes().splitlines()[0], type=Header)
    assert cli(*args, run).exit_code == 0 and cli(*args, run, "--seed", "5").exit_code == 0
    assert msgspec.json.decode(run.read_bytes().splitlines()[1], type=GameResult).seed == 5
    before = run.read_bytes()
    other = cli("simulate", "clonk", "-n", "1", "--seats", "random,random", "--jsonl", run)
    assert other.exit_code == 1 and "the file exists and is a run of tiny" in other.stderr
    assert run.read_bytes() == before


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_jsonl_file_that_fills_up_keeps_its_games_for_resume(
    cli: Invoke,
    tiny_path: Path,
    tmp_path: Path,
    workers: str,
    small_files: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """A full disk (here a file size limit) stops the run like a failing game: the summary of
    the games written, one error line, exit 1; --resume then finishes the file."""
    full, out = tmp_path / "full.jsonl", tmp_path / "g.jsonl"
    args = ["simulate", "tiny", "-n", "30", "--seats", "random,random", "-q", "-w", workers]
    assert cli(*args, "--jsonl", full).exit_code == 0
    done = small_files([*args, "--jsonl", str(out)], len(full.read_bytes()) // 2)
    assert done.returncode == 1, done.stderr
    games = out.read_bytes().count(b"\n") - 1
    said = f"error: --jsonl {out}: cannot write (File too large); the {games} games before it"
    assert done.stderr.startswith(said) and "--resume continues the run" in done.stderr
    assert f"Tiny: {games} games, by seat" in done.stdout
    assert cli(*args, "--jsonl", out, "--resume").exit_code == 0
    assert out.read_bytes() == full.read_bytes()


def test_ctrl_c_keeps_the_finished_games(
    cli: Invoke, tmp_path: Path, interrupt_game: Callable[[int], None]
) -> None:
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    # One worker: the games are played in this process, where the patch is.
    args = ["simulate", "tiny", "--seats", "random,random", "--seed", "9", "--quiet", "-w", "1"]
    assert cli(*args, "-n", "3", "--jsonl", str(full)).exit_code == 0
    interrupt_game(4)
    result = cli(*args, "-n", "10", "--jsonl", str(cut))
    assert result.exit_code == 130
    assert f"interrupted after 3 of 10 games; {cut} holds their lines" in result.stderr
    assert "Tiny: 3 games, by seat" in result.stdout  # the summary of what finished
    assert cut.read_bytes() == full.read_bytes()


def test_ctrl_c_before_any_game_finished(cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Match, "run", interrupted)
    result = cli("simulate", "tiny", "-n", "5", "--workers", "1")
    assert result.exit_code == 130
    assert "interrupted after 0 of 5 games" in result.stderr and "by seat" not in result.stdout


def test_a_real_sigint_keeps_every_finished_line(
    cli: Invoke,
    tmp_path: Path,
    tiny_path: Path,
    interrupt_simulate: Callable[..., tuple[int, bytes, bytes]],
) -> None:
    """SIGINT at any moment: each line in the file is whole, and the same as a full run's."""
    out = tmp_path / "games.jsonl"
    args = ["simulate", "tiny", "--seats", "random,random", "--seed", "5", "--quiet"]
    code, stdout, stderr = interrupt_simulate(
        [*args, "-n", "1000000", "--jsonl", str(out)], out, 21, 30
    )
    assert code == 130, stderr
    lines = out.read_bytes()
    finished = lines.count(b"\n") - 1  # the header, then one line per game
    assert finished >= 20 and lines.endswith(b"\n")
    # The signal may land between writing a game's line and counting the game.
    counted = int(stderr.split(b"interrupted after ")[1].split(b" ")[0])
    assert counted in (finished, finished - 1)
    assert f"Tiny: {counted} games, by seat".encode() in stdout
    again = tmp_path / "again.jsonl"
    assert cli(*args, "-n", str(finished), "--jsonl", str(again)).exit_code == 0
    assert again.read_bytes() == lines


def test_each_game_is_written_as_it_finishes(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "g.jsonl"
    run, seen = Match.run, []

    def watched(self: Match, *a: Any, **kw: Any) -> Any:
        seen.append(out.read_bytes().count(b"\n"))  # lines on disk as each game starts
        return run(self, *a, **kw)

    monkeypatch.setattr(Match, "run", watched)
    args = ["simulate", "tiny", "-n", "4", "--jsonl", str(out), "--quiet", "--workers", "1"]
    assert cli(*args).exit_code == 0
    assert seen == [1, 2, 3, 4]  # the header, then the games that finished


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_second_run_on_a_file_in_use_is_refused_and_loses_nothing(
    cli: Invoke, tmp_path: Path, tiny_path: Path
) -> None:
    """Two writers on one file would interleave their lines: the second is refused at once."""
    out = tmp_path / "g.jsonl"
    args = ["simulate", "tiny", "--seats", "random,random", "-q", "-w", "1", "--jsonl", str(out)]
    first = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *args, "-n", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while (
            not out.exists() or out.read_bytes().count(b"\n") < 6
        ) and time.monotonic() < deadline:
            time.sleep(0.02)
        for more in ([], ["--resume"], ["--force"]):
            second = cli(*args, "-n", "5", *more)
            assert second.exit_code == 1, second.output
            [said] = second.stderr.splitlines()
            assert said == f"error: --jsonl {out}: another run is writing this file; let it " + (
                "finish (or stop it), or write to another file"
            )
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=30)
    assert first.returncode == 130
    written = out.read_bytes()
    games = written.count(b"\n") - 1
    assert games >= 5 and written.endswith(b"\n")
    alone = tmp_path / "alone.jsonl"
    assert cli(*args[:-1], str(alone), "-n", str(games)).exit_code == 0
    assert written == alone.read_bytes()  # the first run's file, whole


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_file_that_cannot_be_locked_is_refused(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_locks(fd: int, operation: int) -> None:  # as on a network file system without them
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(simulate.fcntl, "flock", no_locks)
    out = tmp_path / "g.jsonl"
    result = cli("simulate", "tiny", "-n", "2", "--jsonl", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: --jsonl {out}: cannot lock it (No locks available)")


def test_resume_starts_a_file_that_does_not_exist(cli: Invoke, tmp_path: Path) -> None:
    fresh, started = tmp_path / "fresh.jsonl", tmp_path / "started.jsonl"
    args = ["simulate", "tiny", "-n", "7", "--seed", "3", "-q", "--jsonl"]
    assert cli(*args, fresh).exit_code == 0
    result = cli(*args, started, "--resume")
    assert result.exit_code == 0, result.output
    assert started.read_bytes() == fresh.read_bytes()


LONG = "x" * 120_000


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", LONG],
        ["simulate", "clonk", "-o", f"hand_limit={LONG}"],
        ["simulate", "clonk", "-o", f"eye_tie={LONG}"],  # msgspec's message repeats it
        ["simulate", "clonk", "--eye-tie", LONG],
        ["simulate", "clonk", "-o", f"{LONG}=1"],
        ["simulate", "clonk", "-o", f"cards=[{LONG}"],
        ["simulate", "clonk", f"--{LONG}", "1"],
        ["simulate", "clonk", "--seats", f"{LONG},random"],
        ["simulate", "clonk", "--seats", "random," * 20_000],
        ["simulate", "clonk", "--seats", f"ismcts:iterations={LONG},random"],
        ["simulate", "clonk", "--seats", f"ismcts:{LONG}=1,random"],
        ["simulate", "clonk", "--seats", f"greedy:{LONG},random"],
        ["simulate", "clonk", "--seats", f"ismcts:rollout={LONG},random"],
        ["simulate", "clonk", "--dask", LONG],
        ["tournament", "clonk", "--bots", f"{LONG},random"],
        ["tournament", "clonk", "--bots", "random," * 20_000],
        ["compare", "clonk", "--variant", "", "--variant", f"eye_tie={LONG}"],
    ],
    ids=lambda args: " ".join(arg[:24] for arg in args),
)
def test_a_long_value_is_cut_in_its_error_line(cli: Invoke, args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code in (1, 2)
    assert " characters)" in result.output and len(result.output) < 3000, result.output[:4000]


def test_a_long_value_in_a_run_file_is_cut_in_its_error_line(cli: Invoke, tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    args = ["simulate", "tiny", "-n", "2", "-q", "--seats", "random,random", "--jsonl", str(run)]
    assert cli(*args).exit_code == 0
    header, first, second = run.read_bytes().splitlines(keepends=True)
    seats = b'"seats":["random","random"]'
    run.write_bytes(header + first.replace(seats, b'"seats":["' + b"x" * 120_000 + b'"]') + second)
    result = cli("stats", str(run))
    assert result.exit_code == 1
    assert " characters), but the run seats ['random', 'random']" in result.stderr
    assert len(result.stderr) < 500
    run.write_bytes(header.replace(b'"random","random"', b'"' + b"x" * 120_000 + b'"') + first)
    result = cli(*args, "--resume")
    assert result.exit_code == 1
    assert result.stderr.startswith(f'error: {run}: its run has bots ["xxxxx')
    assert len(result.stderr) < 500
