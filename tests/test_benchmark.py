"""Smoke tests of the scripts in benchmarks/: each runs and reports every figure (no timing or
size asserted)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

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


def test_search_benchmark_runs(tiny_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/search.py measures the search bot's speed and plays its ladder."""
    module = load(SEARCH)
    assert module.main(["speed", "--games", "tiny", "--iterations", "2", "--repeat", "1"]) == 0
    assert "iterations/s" in capsys.readouterr().out
    assert module.main(["ladder", "--games", "tiny", "--budgets", "2", "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert "ismcts:iterations=2" in out and "vs 3 random" in out


def test_memory_report_runs_each_size_in_its_own_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    memory = load(SCRIPT.with_name("memory.py"))
    assert memory.main(["--games", "clonk", "--sizes", "3,1", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [(r["game"], r["games"]) for r in runs] == [("clonk", 1), ("clonk", 3)]
    assert all(r["peak_mb"] > 0 for r in runs)


@pytest.mark.dask
def test_dask_report_compares_a_local_cluster_with_one_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    on_dask = load(SCRIPT.with_name("on_dask.py"))
    argv = ["--game", "clonk", "--games", "6", "--workers", "1", "--repeat", "1", "--json"]
    assert on_dask.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and report["workers"] == 1
    assert report["one_process_games_per_s"] > 0 and report["dask_games_per_s"] > 0
