"""benchmarks/report.py runs and prints every figure (no time or size asserted)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.report

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "report.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("meeple_benchmark_report", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_report_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    assert bench.main(["speed", "--game", "clonk", "--games", "2", "--repeat", "1", "-w", "1"]) == 0
    speed = capsys.readouterr().out
    assert "4 random" in speed and "4 bot (greedy)" in speed and "facts add" in speed
    assert bench.main(["report", "--games", "10"]) == 0
    report = capsys.readouterr().out
    assert "wrote 10 Clank! games with card facts" in report
    assert re.search(r"│\s+1 │", report) and re.search(r"│\s+10 │", report)
