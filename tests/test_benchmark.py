"""Smoke tests of the scripts in benchmarks/: each runs and reports every figure (no timing or
size asserted)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
SEARCH = SCRIPT.with_name("search.py")


def load(script: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"meeple_benchmark_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def bench() -> ModuleType:
    return load(SCRIPT)


def test_json_report_covers_each_game_and_seat_count(
    bench: ModuleType, tiny_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--games", "tiny,clonk", "--seconds", "0.01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    runs = [(r["game"], r["seats"]) for r in report["runs"]]
    assert runs == [("tiny", 2), ("tiny", 4), ("clonk", 2), ("clonk", 4)]
    for row in report["runs"]:
        for _, key, _ in bench.METRICS:
            assert row[key] > 0, (row["game"], row["seats"], key)
    assert report["peak_memory_mb"] > 0


def test_table_report(
    bench: ModuleType, tiny_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--games", "tiny", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "tiny, 2 seats" in out and "tiny, 4 seats" in out
    assert "records validated/s" in out and "peak memory" in out


def test_unknown_game_is_a_usage_error(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--games", "nogame"])
    assert exit_.value.code == 2
    assert "no game 'nogame' is installed" in capsys.readouterr().err


def side_by_side(bench: ModuleType, capsys: pytest.CaptureFixture[str], *more: str) -> Any:
    """``run.py validate`` of tiny against this very interpreter, as JSON."""
    argv = ["validate", "--against", sys.executable, "--games", "tiny", "--records", "2"]
    assert bench.main([*argv, "--rounds", "2", "--seconds", "0.01", "--json", *more]) == 0
    return json.loads(capsys.readouterr().out)


def test_validation_side_by_side(
    bench: ModuleType, tiny_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each side measured every round, in CPU time, on records it wrote itself."""
    report = side_by_side(bench, capsys)
    assert [(r["game"], r["seats"]) for r in report["runs"]] == [("tiny", 2), ("tiny", 4)]
    for row in report["runs"]:
        for side in ("baseline", "this"):
            assert len(row[side]["rounds"]) == 2 and row[side]["records_per_s"] > 0
            assert row[side]["decisions_per_record"] > 0
            assert "instructions_per_record" not in row[side]
        assert row["ratio"] == row["this"]["records_per_s"] / row["baseline"]["records_per_s"]
    argv = [
        "--games",
        "tiny",
        "--seats",
        "2",
        "--records",
        "1",
        "--rounds",
        "1",
        "--seconds",
        "0.01",
    ]
    assert bench.main(["validate", "--against", sys.executable, *argv]) == 0
    assert "tiny, 2 seats" in capsys.readouterr().out


@pytest.mark.soak
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_validation_side_by_side_counts_instructions(
    bench: ModuleType, tiny_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both sides being the same code, they spend about the same per record."""
    report = side_by_side(bench, capsys, "--seats", "2", "--instructions")
    (row,) = report["runs"]
    counts = [row[side]["instructions_per_record"] for side in ("baseline", "this")]
    assert min(counts) > 0 and max(counts) / min(counts) < 1.05


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--against", "/nonexistent/python"], "neither a Python interpreter nor a virtualenv"),
        (["--games", "nogame"], "no game"),
        (["--seats", "9"], "--seats: Tiny takes 2-4 seats"),
        (["--rounds", "0"], "must be positive"),
    ],
)
def test_validation_side_by_side_usage_errors(
    bench: ModuleType,
    tiny_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    said: str,
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["validate", "--against", sys.executable, "--games", "tiny", *argv])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_search_benchmark_runs(tiny_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/search.py measures the search bot's speed, plays its ladder and judges its
    deviations from another bot."""
    module = load(SEARCH)
    assert module.main(["speed", "--games", "tiny", "--iterations", "2", "--repeat", "1"]) == 0
    assert "iterations/s" in capsys.readouterr().out
    assert (
        module.main(["ladder", "--games", "tiny", "--search", "ismcts:iterations=2", "-n", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert "ismcts:iterations=2" in out and "vs 3 random" in out
    assert "s/decision" in out and "[" in out  # the interval
    # A game's own search options are written out: the row names what was played.
    clonk = ["ladder", "--games", "clonk", "--against", "greedy", "-n", "1"]
    assert module.main([*clonk, "--search", "ismcts:iterations=2"]) == 0
    assert "ismcts:iterations=2:depth=8:reuse=true" in capsys.readouterr().out
    deviations = ["deviations", "--games", "tiny", "--search", "ismcts:iterations=2"]
    assert module.main([*deviations, "--against", "random", "-n", "2", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "tiny: ismcts:iterations=2 against random, 2 games from seed 0" in out
    assert "instead of" in out and "\nall " in out  # some choices differed, each judged


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--games", "nogame"], "no game 'nogame' is installed"),
        (["--search", "ismcts:iterationz=2"], "bot 'ismcts' has no option 'iterationz'"),
        (["--against", "rando"], "no bot 'rando' plays tiny"),
    ],
)
def test_search_benchmark_misnamed_input_is_a_usage_error(
    tiny_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    module = load(SEARCH)
    with pytest.raises(SystemExit) as exit_:
        module.main(["ladder", "--games", "tiny", "-n", "1", *argv])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_simulate_benchmark_measures_speed_and_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/simulate.py: games/s by how they are played, peak memory by run length."""
    module = load(SCRIPT.with_name("simulate.py"))
    assert module.main(["speed", "--game", "clonk", "--games", "4", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 process" in out and "2 workers" in out and "speed-up" in out
    assert module.main(["memory", "--games", "clonk", "--sizes", "3", "--workers", "1"]) == 0
    assert "peak memory" in capsys.readouterr().out


@pytest.mark.dask
def test_simulate_benchmark_on_a_local_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    module = load(SCRIPT.with_name("simulate.py"))
    argv = ["speed", "--game", "clonk", "--games", "4", "--repeat", "1", "--dask"]
    assert module.main(argv) == 0
    assert "Dask, 2 workers" in capsys.readouterr().out


def test_host_benchmark_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """Two hosted games on a server of their own, every seat a bot client thinking a little,
    the clients in two processes."""
    host = load(SCRIPT.with_name("host.py"))
    args = ["--game", "clonk", "--seats", "2", "--concurrent", "2", "--games", "2", "--every", "1"]
    assert host.main([*args, "--think", "0.005", "--procs", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["think_s"] == 0.005 and report["client_procs"] == 2
    assert set(report["server_lag_ms"]) == set(report["client_lag_ms"]) == {"p99", "max"}
    assert report["server_gc"]["count"] >= 0
    assert report["games"] == 2 and report["games_per_s"] > 0 and report["moves_per_s"] > 0
    assert all(value > 0 for value in report["latency_ms"].values())
    assert [games for games, _ in report["server_rss_mib"]] == [1, 2]


def test_evaluation_samples_every_seats_features_at_each_turn() -> None:
    """benchmarks/evaluation.py reads every seat's features at each turn of games of
    ``heuristic`` bots, and who won."""
    module = load(SCRIPT.with_name("evaluation.py"))
    turns = module.sample("clank-catacombs", range(1))
    assert len(turns) > 10
    assert all(len(t.features) == 4 and len(t.features[0]) == len(module.FEATURES) for t in turns)
    assert {t.winner for t in turns} <= set(range(4))


def test_evaluation_explores_choices_the_bots_would_not_make() -> None:
    """With ``explore``, the seats sometimes take a random choice other than a move: other
    games, the same ones again for the same seeds."""
    module = load(SCRIPT.with_name("evaluation.py"))
    plain = module.sample("clank-catacombs", range(1))
    off = module.sample("clank-catacombs", range(1), 0.5)
    assert off != plain
    assert module.sample("clank-catacombs", range(1), 0.5) == off


@pytest.mark.report
def test_evaluation_fit_writes_the_weights_the_evaluation_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/evaluation.py fits the weights that the Clank! evaluation reads
    (statsmodels, the report extra), the same file for the same options."""
    module = load(SCRIPT.with_name("evaluation.py"))
    module.data_file = lambda game_id: tmp_path / f"{game_id}.json"
    assert module.main(["--games", "clank", "-n", "1", "--write"]) == 0
    assert "log-likelihood per turn" in capsys.readouterr().out
    written = (tmp_path / "clank.json").read_bytes()
    assert set(json.loads(written)["weights"]) == set(module.FEATURES)
    assert module.main(["--games", "clank", "-n", "1", "--write"]) == 0
    assert (tmp_path / "clank.json").read_bytes() == written  # the same options, the same file


def test_evaluation_reads_the_damage_each_seat_took_until_the_end() -> None:
    """``--hurt`` reads, at each turn's start, every seat carrying an artifact out: the turns of
    its trip and the damage it took from then on."""
    module = load(SCRIPT.with_name("evaluation.py"))
    seen = module.hurts("clank", range(1))
    assert len(seen) > 10 and all(h.turns > 0 and h.attacked >= 0 for h in seen)
    assert all(0 <= h.damage <= 10 for h in seen) and any(h.damage for h in seen)


@pytest.mark.report
def test_evaluation_fits_the_damage_to_come(capsys: pytest.CaptureFixture[str]) -> None:
    """The least-squares fit gives back the rates the damage was made with, and ``--hurt``
    prints them next to the evaluation's."""
    module = load(SCRIPT.with_name("evaluation.py"))
    trips = ((2, 0), (2, 1), (4, 0.5), (4, 2))
    made = [module.Hurt(t, a, round(0.5 * t + 2 * a)) for t, a in trips]
    assert module.fit_hurt(made) == pytest.approx((0.5, 2.0))
    assert module.main(["--games", "clank", "-n", "1", "--hurt"]) == 0
    assert "(the evaluation's: 0.64, 0.69)" in capsys.readouterr().out


def test_evaluation_prints_the_damage_to_come_but_never_writes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = load(SCRIPT.with_name("evaluation.py"))
    with pytest.raises(SystemExit) as exit_:
        module.main(["--hurt", "--write"])
    assert exit_.value.code == 2 and "--hurt only prints the damage" in capsys.readouterr().err
