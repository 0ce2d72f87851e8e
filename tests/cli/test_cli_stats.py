"""`meeple stats`, `compare`, `tournament` and the --json summaries of `simulate`."""

from __future__ import annotations

import io
import itertools
import re
import signal
import subprocess
import sys
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from rich.console import Console
from typer.testing import Result

from meeple.cli import output, report, tournament
from meeple.cli.compare import Comparison, variant_items
from meeple.cli.tournament import Tournament
from meeple.core.runner import Schedule
from meeple.core.stats import Difference, Estimate, Summary

if sys.platform != "win32":
    import fcntl

Invoke = Callable[..., Result]
Stalled = Callable[..., tuple[int, str, str, list[int]]]


def simulate(cli: Invoke, out: Path, *args: str) -> Result:
    result = cli(
        "simulate", "tiny", "--seats", "random,random,random", "--quiet", "--jsonl", str(out), *args
    )
    assert result.exit_code == 0, result.output
    return result


def test_simulate_json_is_the_summary(cli: Invoke, tmp_path: Path) -> None:
    result = simulate(cli, tmp_path / "run.jsonl", "-n", "20", "--json")
    summary = msgspec.json.decode(result.stdout, type=Summary)
    assert summary.games == 20 and [p.name for p in summary.seats] == ["0", "1", "2"]
    assert sum(p.wins for p in summary.seats) == pytest.approx(20)
    assert summary.seats[0].bot == "random" and summary.bots[0].games == 60
    rate = summary.seats[0].win_rate
    assert 0 <= rate.low <= rate.value <= rate.high <= 1
    assert summary.seat_test.p is not None and summary.seat_test.verdict


def test_stats_of_shards_are_the_stats_of_the_whole_run(cli: Invoke, tmp_path: Path) -> None:
    whole, first, second = tmp_path / "whole.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    simulated = simulate(cli, whole, "-n", "30", "--json").stdout
    simulate(cli, first, "-n", "18")
    simulate(cli, second, "-n", "12", "--seed", "18")
    assert cli("stats", str(whole), "--json").stdout == simulated
    assert cli("stats", str(first), str(second), "--json").stdout == simulated
    tables = cli("stats", str(second), str(first))
    assert tables.exit_code == 0, tables.output
    assert "Tiny: 30 games, by seat" in tables.stdout and "within noise" in tables.stdout


def test_stats_bad_input(cli: Invoke, tmp_path: Path) -> None:
    run, other, again = tmp_path / "run.jsonl", tmp_path / "other.jsonl", tmp_path / "again.jsonl"
    simulate(cli, run, "-n", "4")
    simulate(cli, other, "-n", "4", "--seed", "4", "--rotate")
    simulate(cli, again, "-n", "4", "--seed", "3")
    text, record, empty = tmp_path / "notes.txt", tmp_path / "game.json", tmp_path / "empty.jsonl"
    text.write_text("hello\n")
    record.write_text('{"kind": "meeple.record"}\n')
    saved = tmp_path / "saved.json"  # a saved game is JSON over many lines
    saved.write_text('{\n  "kind": "meeple.record"\n}\n')
    header, first, *games = run.read_bytes().splitlines(keepends=True)
    empty.write_bytes(header)  # the header alone
    edited = {
        "seats": first.replace(b'"seats":["random",', b'"seats":["first",', 1),
        "scores": first.replace(b'"scores":[{', b'"scores":[{"seat":7,"total":0},{', 1),
        "places": first.replace(b'"places":[', b'"places":[9,', 1),
        "bots": header.replace(b'"bots":["random","random","random"]', b'"bots":[]', 1),
    }
    edited |= {
        "decisions": re.sub(rb'"decisions":\d+', b'"decisions":' + b"1" + b"0" * 30, first),
        "rounds": re.sub(rb'"rounds":\d+', b'"rounds":-3', first),
        "seed": re.sub(rb'"seed":\d+', b'"seed":-1', first),
        "total": re.sub(rb'"total":\d+', b'"total":' + b"9" * 400, first, count=1),
    }
    for name, line in edited.items():
        lines = [line, first] if name == "bots" else [header, line]
        (tmp_path / f"{name}.jsonl").write_bytes(b"".join([*lines, *games]))
    cases = [
        ([tmp_path / "missing.jsonl"], "missing.jsonl: No such file or directory"),
        ([text], "notes.txt:1: not JSON"),
        ([record], "game.json:1: not a run header"),
        (
            [saved],
            "saved.json:1: not JSON (Input data was truncated); a run file of `meeple "
            "simulate --jsonl` holds one JSON object per line",
        ),
        ([empty], "empty.jsonl: no games in the run"),
        ([run, other], f"{other}:1: not a shard of the run in {run} (rotate True, not False)"),
        ([run, again], f"{again}:2: seed 3 again (also in {run}); give each shard once"),
        ([tmp_path / "seats.jsonl"], "seats.jsonl:2: seats ['first', 'random', 'random'], but"),
        ([tmp_path / "scores.jsonl"], "scores.jsonl:2: scores for seats [7, 0, 1, 2], not one"),
        ([tmp_path / "places.jsonl"], "places.jsonl:2: places [9, "),
        ([tmp_path / "bots.jsonl"], "bots.jsonl:1: a run of no bots"),
        ([tmp_path / "decisions.jsonl"], "decisions.jsonl:2: not a game result (Expected `int` <="),
        ([tmp_path / "rounds.jsonl"], "rounds.jsonl:2: not a game result (Expected `int` >= 1 - "),
        ([tmp_path / "seed.jsonl"], "seed.jsonl:2: not a game result (Expected `int` >= 0 - at `$"),
        ([tmp_path / "total.jsonl"], "total.jsonl:2: not a game result (Expected `int` <= "),
    ]
    for files, message in cases:
        result = cli("stats", *map(str, files))
        assert result.exit_code == 1, result.output
        assert message in result.stderr and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1
    assert cli("stats").exit_code == 2


def test_stats_checks_a_header_s_options_against_the_game(cli: Invoke, tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    args = ["simulate", "clonk", "-n", "2", "--seats", "random,random", "--jsonl", str(run)]
    assert cli(*args).exit_code == 0
    header, *games = run.read_bytes().splitlines(keepends=True)
    for edit, message in (
        (
            (b'"hand_limit":5', b'"hand_limit":99'),
            "Expected `int` <= 20 - at `$.run.options.hand_limit`, not options Clonk! 2 takes",
        ),
        (
            (b'"options":{', b'"options":{"colour":"red",'),
            "Object contains unknown field `colour` in options, not options Clonk! 2 takes",
        ),
    ):
        run.write_bytes(b"".join([header.replace(*edit), *games]))
        result = cli("stats", str(run))
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: {run}:1: {message}; the header was edited")


def test_variant_items_keep_json_commas() -> None:
    assert variant_items("board=back, tasks=[1,2],x=1") == ["board=back", "tasks=[1,2]", "x=1"]
    assert variant_items("") == []


def test_compare_same_variants_differ_by_nothing(cli: Invoke, tmp_path: Path) -> None:
    result = cli("compare", "tiny", "--variant", "", "--variant", "", "-n", "12", "--json")
    assert result.exit_code == 0, result.output
    comparison = msgspec.json.decode(result.stdout, type=Comparison)
    assert comparison.games == 12 and len(comparison.variants) == 2
    assert comparison.variants[0].summary == comparison.variants[1].summary
    [rows] = comparison.differences
    assert [r.measure for r in rows][:4] == [f"seat {s} win rate" for s in range(4)]
    assert all(r.difference.value == 0 and not r.difference.excludes(0) for r in rows)


def test_compare_clonk_variants(cli: Invoke, tmp_path: Path) -> None:
    args = ["compare", "clonk", "--seats", "greedy,random", "-n", "6", "--rotate"]
    variants = ["--variant", "eye_tie=none", "--variant", "eye_tie=none,hand_limit=6"]
    result = cli(*args, *variants, "--jsonl", str(tmp_path))
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())  # a heading may wrap
    assert "variant 2 (eye_tie=none,hand_limit=6) against variant 1 (eye_tie=none)" in out
    assert "seat 0 win rate" in out and "decisions" in out and "difference" in out
    assert "variant 1 (eye_tie=none): " in out
    # Each variant's games are a run file of its own, as simulate writes it.
    alone = tmp_path / "alone.jsonl"
    simulate_args = ["simulate", "clonk", "--seats", "greedy,random", "-n", "6", "--rotate"]
    assert cli(*simulate_args, "-o", "eye_tie=none", "--jsonl", str(alone)).exit_code == 0
    assert (tmp_path / "variant-1.jsonl").read_bytes() == alone.read_bytes()
    assert cli("stats", str(tmp_path / "variant-2.jsonl")).exit_code == 0


def test_compare_bad_input(cli: Invoke, tmp_path: Path) -> None:
    cases = [
        (["--variant", ""], "--variant: give two or more"),
        (
            ["--variant", "", "--variant", "x=1"],
            "--variant 'x=1': --option 'x=1': Tiny has no option 'x'",
        ),
        (["--variant", "", "--variant", "", "--seats", "random,human"], "compare plays bots only"),
        (["--variant", "", "--variant", "", "--jsonl", str(tmp_path / "no")], "does not exist"),
        (
            ["--variant", "", "--variant", "", "--jsonl", str(tmp_path)],
            f"--jsonl {tmp_path / 'variant-2.jsonl'}: the file exists and is not a run file",
        ),
    ]
    (tmp_path / "variant-2.jsonl").write_text("the only copy\n")
    for args, message in cases:
        result = cli("compare", "tiny", "-n", "2", *args)
        assert result.exit_code == 1, result.output
        assert message in result.stderr and "Traceback" not in result.output
    assert (tmp_path / "variant-2.jsonl").read_text() == "the only copy\n"
    assert cli("compare", "tiny").exit_code == 2  # --variant is required


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_compare_refuses_a_folder_another_run_writes_in_and_empties_nothing(
    cli: Invoke, tmp_path: Path
) -> None:
    args = ["compare", "tiny", "--variant", "", "--variant", "", "-n", "3", "--jsonl", tmp_path]
    assert cli(*args).exit_code == 0
    before = {path: path.read_bytes() for path in tmp_path.iterdir()}
    with (tmp_path / "variant-2.jsonl").open("rb") as held:  # as another run holds its file
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = cli(*args, "--seed", "5")
    assert result.exit_code == 1
    where = tmp_path / "variant-2.jsonl"
    assert f"error: --jsonl {where}: another run is writing this file" in result.stderr
    assert {path: path.read_bytes() for path in tmp_path.iterdir()} == before


@pytest.mark.parametrize(("bots", "seats"), [(2, 2), (3, 2), (4, 3), (5, 4)])
def test_the_schedule_seats_every_bot_everywhere_equally(bots: int, seats: int) -> None:
    names = [f"b{i}" for i in range(bots)]
    plan = Schedule(game="g", version="1", options={}, bots=names, seats=seats, first=0)
    games = [plan.at(k) for k in range(plan.size)]
    assert all(len(set(g)) == seats for g in games)
    per_seat = [Counter(g[s] for g in games) for s in range(seats)]
    assert all(len(c) == bots and len(set(c.values())) == 1 for c in per_seat)
    assert per_seat[0] == per_seat[-1]


def test_tournament_rates_the_strong_bot_first(cli: Invoke) -> None:
    result = cli("tournament", "clonk", "--bots", "random,greedy", "-n", "23", "--json")
    assert result.exit_code == 0, result.output
    t = msgspec.json.decode(result.stdout, type=Tournament)
    assert t.schedule == [["random", "greedy"], ["greedy", "random"]]
    assert t.rounds == 12 and t.summary.games == 24  # rounded up to whole schedules
    assert [r.bot for r in t.ratings] == ["greedy", "random"]
    assert t.ratings[0].low > t.ratings[1].high
    assert t.summary.seat_test.balanced
    again = cli("tournament", "clonk", "--bots", "random,greedy", "-n", "23", "--json")
    assert again.stdout == result.stdout  # seed order: the same ratings every time
    tables = cli("tournament", "tiny", "--bots", "random,bot", "--per-game", "2", "-n", "2")
    assert tables.exit_code == 1 and "random twice (`bot` is random here)" in tables.stderr
    tables = cli("tournament", "clonk", "--bots", "random,greedy", "-n", "4")
    assert tables.exit_code == 0, tables.output
    assert "4 games: 2 times the 2-game schedule" in tables.stdout and "ratings" in tables.stdout


def test_a_tournament_says_how_many_games_it_plays_and_asks_before_many_more(
    cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament, "MAX_GAMES", 5)
    args = ["tournament", "clonk", "--bots", "random,greedy,ismcts:iterations=2", "--per-game", "2"]
    refused = cli(*args, "-n", "1")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: --bots: every set of 2 of the 3 bots, rotated through the seats, is a schedule "
        "of 6 games, and -n 1 rounded up to whole schedules makes 6, more than 5; name fewer "
        "bots, give --per-game fewer seats, or add --allow-large to play them all\n"
    )
    plan = "6 games: 1 times the 6-game schedule (every set of 2 of the 3 bots, rotated through"
    for more in (["-n", "1", "--allow-large"], ["-n", "6"]):  # asked for: played
        result = cli(*args, *more)
        assert result.exit_code == 0, result.output
        assert result.stderr == plan + " the seats)\n"  # said before the first game
        assert "6 games in" in result.stdout


def test_a_large_schedule_is_planned_as_it_is_played(
    cli: Invoke, interrupt_game: Callable[[int], None]
) -> None:
    """50 bots in 4 seats: a schedule of 921,200 games, each seating worked out when played."""
    bots = ",".join(["random", "greedy", *(f"ismcts:iterations={i}" for i in range(1, 49))])
    interrupt_game(4)
    tracemalloc.start()
    try:
        result = cli("tournament", "clonk", "--bots", bots, "--allow-large", "-w", "1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 130, result.output
    assert result.stderr.startswith("921,200 games: 1 times the 921,200-game schedule")
    assert "interrupted after 3 of 921200 games" in result.stderr
    assert peak < 20_000_000  # a materialised schedule takes hundreds of megabytes


def test_the_schedule_s_seatings_are_worked_out_from_their_number() -> None:
    bots = [f"b{i}" for i in range(9)]
    spec = Schedule(game="g", version="1", options={}, bots=bots, seats=4, first=10)
    whole = [[*g[k:], *g[:k]] for g in itertools.combinations(bots, 4) for k in range(4)]
    assert spec.size == len(whole) == 504
    assert [spec.seating(10 + i) for i in range(2 * spec.size)] == whole * 2


def test_a_bot_named_twice_is_refused_however_it_is_written(cli: Invoke) -> None:
    """Rated twice, one bot would take two rows, and each game it plays in both seats."""
    for bots, same in (
        ("greedy,random,bot", "greedy twice"),
        # Clonk!'s own search settings fill in the rest (Clonk.bot_options).
        (
            "ismcts:time=0.5,ismcts:time=0.50",
            "ismcts:iterations=400:time=0.5:depth=8:reuse=true twice",
        ),
        ("ismcts:iterations=400,ismcts", "ismcts:iterations=400:depth=8:reuse=true twice"),
        (
            "ismcts,ismcts:exploration=0.7",
            "ismcts:iterations=400:depth=8:reuse=true and "
            "ismcts:iterations=400:exploration=0.7:depth=8:reuse=true are one bot",
        ),
    ):
        result = cli("tournament", "clonk", "--bots", bots, "-n", "2")
        assert result.exit_code == 1
        assert result.stderr == (
            f"error: --bots {bots!r}: {same} (`bot` is greedy here); name each bot once, "
            "or give them different options\n"
        )
    differ = cli(
        "tournament", "clonk", "--bots", "ismcts:iterations=2,ismcts:iterations=3", "-n", "2"
    )
    assert differ.exit_code == 0, differ.output


def test_tournament_bad_input(cli: Invoke) -> None:
    cases = [
        (["--bots", "random"], "name two or more bots"),
        (["--bots", "random,,random"], "name two or more bots"),
        (["--bots", "random,wizard"], "wizard"),
        (["--bots", "random,human"], "a tournament plays bots only"),
        (["--bots", "random,bot"], "random twice"),
    ]
    for args, message in cases:
        result = cli("tournament", "tiny", "-n", "2", *args)
        assert result.exit_code == 1, result.output
        assert message in result.stderr and "Traceback" not in result.output
    for seats in ("3", "0"):
        result = cli("tournament", "clonk", "--bots", "random,greedy", "--per-game", seats)
        assert result.exit_code == 1 and "2 bots fill at most 2" in result.stderr


def test_stats_of_a_game_not_installed_here(cli: Invoke, tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    simulate(cli, run, "-n", "3")
    header, *games = run.read_bytes().splitlines(keepends=True)
    run.write_bytes(header.replace(b'"game":"tiny"', b'"game":"elsewhere"') + b"".join(games))
    result = cli("stats", str(run))
    assert result.exit_code == 0, result.output
    assert "elsewhere: 3 games, by seat" in result.stdout


def test_compare_ctrl_c_keeps_the_finished_seeds(
    cli: Invoke, tmp_path: Path, interrupt_game: Callable[[int], None]
) -> None:
    interrupt_game(5)  # the first variant's third game: two seeds are done
    args = ["--variant", "", "--variant", "", "-n", "10", "--jsonl", str(tmp_path), "-w", "1"]
    result = cli("compare", "tiny", *args)
    assert result.exit_code == 130
    assert "interrupted after 2 of 10 seeds" in result.stderr
    assert "2 seeds" in result.stdout
    for name in ("variant-1.jsonl", "variant-2.jsonl"):
        assert (tmp_path / name).read_bytes().count(b"\n") == 3  # the header and two games


def test_tournament_ctrl_c_rates_the_finished_games(
    cli: Invoke, interrupt_game: Callable[[int], None]
) -> None:
    interrupt_game(4)
    args = ["tournament", "clonk", "--bots", "random,greedy", "-n", "10", "-w", "1"]
    result = cli(*args)
    assert result.exit_code == 130
    assert "interrupted after 3 of 10 games" in result.stderr
    assert "3 of 10 games: 5 times the 2-game schedule" in result.stdout
    assert "ratings" in result.stdout and "Clonk!: 3 games, by seat" in result.stdout
    interrupt_game(1)
    result = cli(*args)
    assert result.exit_code == 130 and "interrupted after 0 of 10 games" in result.stderr
    assert result.stdout == ""


def test_compare_ctrl_c_stops_its_workers_at_once(
    tmp_path: Path, interrupt_simulate: Callable[..., tuple[int, bytes, bytes]]
) -> None:
    """Not after the games they were given: those of a slow bot take minutes, far past the
    half minute the interrupted run is given to end."""
    slow = ["--seats", "ismcts:iterations=50,random", "-n", "2000", "-w", "2"]
    args = ["compare", "clonk", "--variant", "", "--variant", "", *slow, "--jsonl", str(tmp_path)]
    # Once its header is written: the run has started (a signal before it says only
    # "interrupted"), and its first games take far longer than the test waits for them.
    code, _, err = interrupt_simulate(args, tmp_path / "variant-1.jsonl", 1, 30)
    assert code == 130, err
    assert re.search(rb"interrupted after \d+ of 2000 seeds", err), err


def test_compare_stops_in_one_line_when_its_files_fill_up(
    tiny_path: Path, tmp_path: Path, small_files: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    args = ["compare", "tiny", "--variant", "", "--variant", "", "-n", "50", "-w", "1"]
    done = small_files([*args, "--jsonl", str(tmp_path)], 2000)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"error: --jsonl {tmp_path / 'variant-1.jsonl'}: cannot write")
    assert "seeds before it are in" in done.stderr and "seeds" in done.stdout


def test_stats_reads_no_line_longer_than_a_run_file_holds(cli: Invoke, tmp_path: Path) -> None:
    run, joined = tmp_path / "run.jsonl", tmp_path / "joined.jsonl"
    simulate(cli, run, "-n", "2")
    header, *games = run.read_bytes().splitlines(keepends=True)
    joined.write_bytes(header + b"".join(game.rstrip() for game in games) * 5000)  # 1.5 MB
    result = cli("stats", str(joined))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {joined}:2: a line of over 1,048,576 bytes, but a")
    assert "one game's result a line" in result.stderr and "name a run file" in result.stderr


def test_compare_ctrl_c_keeps_every_seed_its_workers_finished(
    stalled: Stalled, tmp_path: Path
) -> None:
    """Both variants' workers finished seeds 36-39 of a chunk, then play 40 until stopped."""
    args = ["compare", "stall", "--variant", "", "--variant", "", "--seats", "random,random"]
    args += ["-n", "200", "-w", "2", "--jsonl", "."]
    files = ["variant-1.jsonl", "variant-2.jsonl"]
    code, out, err, _ = stalled(args, 2, signal.SIGINT, True, files)
    assert (code, err) == (130, "interrupted after 40 of 200 seeds\n")
    assert "80 games in" in out  # the comparison of the seeds both variants finished
    for name in files:
        _, *games = (tmp_path / name).read_bytes().splitlines()
        assert [msgspec.json.decode(game)["seed"] for game in games] == list(range(40))


def test_tournament_sigterm_rates_the_finished_games_and_exits_143(stalled: Stalled) -> None:
    """Two seatings, each a run of its own: the games are rated in seed order up to the first
    that either had not finished (40 at most, where a worker is stuck)."""
    args = ["tournament", "stall", "--bots", "random,first", "-n", "200", "-w", "2"]
    code, out, err, left = stalled(args, 1, signal.SIGTERM, False)
    assert (code, left) == (143, [])
    plan = "200 games: 100 times the 2-game schedule (every set of 2 of the 2 bots, rotated "
    plan += "through the seats)\n"
    said = re.fullmatch(re.escape(plan) + r"terminated after (\d+) of 200 games\n", err)
    assert said is not None and int(said[1]) <= 40, err
    assert f"{said[1]} of 200 games: 100 times the 2-game schedule" in out and "ratings" in out


@pytest.mark.parametrize(
    "command",
    [
        ["compare", "clonk", "--variant", "", "--variant", "eye_tie=none", "-n", "12"],
        ["tournament", "clonk", "--bots", "greedy,random", "-n", "12"],
    ],
)
def test_compare_and_tournament_are_the_same_on_any_number_of_workers(
    cli: Invoke, command: list[str]
) -> None:
    alone, spread = (cli(*command, "--json", "-w", str(w)) for w in (1, 2))
    assert alone.exit_code == 0 and spread.exit_code == 0, alone.output + spread.output
    assert alone.stdout == spread.stdout


@pytest.fixture
def at_80_columns(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """What the tables print, on a console 80 columns wide."""
    out = io.StringIO()
    monkeypatch.setattr(output, "console", Console(file=out, width=80, highlight=False))
    return out


def test_seat_tables_keep_a_seat_and_its_bot_on_one_line_at_80_columns(
    cli: Invoke, at_80_columns: io.StringIO
) -> None:
    args = ["simulate", "clank", "-n", "4", "--seats", "heuristic,random,random,random", "--json"]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    report.summary("Clank!", msgspec.json.decode(result.stdout, type=Summary))
    lines = at_80_columns.getvalue().splitlines()
    assert max(map(len, lines)) <= 80
    assert any(line.startswith("│ 0 (heuristic) │") for line in lines), "\n".join(lines)
    assert any(line.startswith("│ 3 (random)    │") for line in lines)


def test_an_interval_from_a_negative_end_reads_as_one_at_80_columns(
    at_80_columns: io.StringIO,
) -> None:
    def estimate(value: float, low: float, high: float) -> Estimate:
        return Estimate(value=value, low=low, high=high)

    rows = [
        Difference(
            measure="seat 0 win rate",
            base=estimate(0.3, 0.25, 0.35),
            other=estimate(0.234, 0.19, 0.28),
            difference=estimate(-0.066, -0.122, -0.010),
        ),
        Difference(
            measure="rounds",
            base=estimate(14.0, 13.0, 15.0),
            other=estimate(14.3, 13.2, 15.4),
            difference=estimate(0.3, -0.7, 1.3),
        ),
    ]
    output.console.print(report.differences("a variant against the base", rows))
    shown = at_80_columns.getvalue()
    assert "-12.2 to -1.0% │ * │" in shown and "-0.7 to 1.3 │" in shown
    assert "–-" not in shown and max(map(len, shown.splitlines())) <= 80
    assert report.rate_interval(estimate(0.29, 0.252, 0.331)) == "25.2–33.1%"
