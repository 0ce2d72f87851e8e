"""The reinforcement-learning example and benchmark run and report (nothing about how well
the policy learns or how fast the environments step is asserted)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.rl

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rl_linear.py"
BENCHMARK = ROOT / "benchmarks" / "rl.py"

SHARE = r"\d+\.\d% \(95% CI \d+\.\d%–\d+\.\d%\)"


def test_example_reports_the_win_share_before_and_after_training() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "30", "--eval", "20", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "clonk, 2 seats: a linear policy against masked random play"
    assert re.fullmatch(f"before training: the linear policy wins {SHARE}", lines[-2])
    assert re.fullmatch(rf"after 30 training games \(\d+\.\d s\): wins {SHARE}", lines[-1])


def test_benchmark_measures_each_game_leduc_holdem_and_rlcards_games(
    tiny_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARK.parent))
    spec = importlib.util.spec_from_file_location("meeple_benchmark_rl", BENCHMARK)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "tiny,clonk", "--seconds", "0.01", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["runs"]
    from rlcard.envs.registration import registry  # the rl tests' RLCard

    assert [(r["library"], r["game"], r["seats"]) for r in rows[:5]] == [
        ("meeple", "tiny", 2),
        ("meeple", "tiny", 4),
        ("meeple", "clonk", 2),
        ("meeple", "clonk", 4),
        ("pettingzoo", "leduc_holdem_v4", 2),
    ]
    assert [(r["library"], r["game"]) for r in rows[5:]] == [
        ("rlcard", name) for name in sorted(registry.env_specs)
    ]
    assert "leduc-holdem" in registry.env_specs
    for row in rows:
        assert row["env_steps_per_s"] > 0 and row["actions"] > 0 and row["legal_per_step"] >= 1
    for row in rows[:4]:
        assert row["decisions_per_s"] > 0 and row["ratio"] > 0 and row["no_game_steps_per_s"] > 0
    # The no-game environment that measures the interface alone is a sound one.
    from pettingzoo.test import api_test  # the rl extra: this module is collected without it

    api_test(bench.NoGame(seats=3, width=50, legal=7, length=20), num_cycles=30)
