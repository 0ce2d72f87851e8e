"""meeple tune: the planted optimum of the Labels game found, a study resumed, each refusal."""

from __future__ import annotations

import enum
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import pytest

from meeple.core import tune
from meeple.core.errors import MeepleError
from meeple.core.game import Options

optuna = pytest.importorskip("optuna")
pytest.importorskip("statsmodels.api")

pytestmark = pytest.mark.report

SEATS = ("--seats", "random,random,random,random")


def best(output: str) -> str:
    found = re.search(r"^best: (.*?)( \(trials kept|$)", output, re.M)
    assert found, output
    return found.group(1)


def rows(output: str) -> dict[str, float]:
    """The distance shown for each setting of a one-option search, by setting."""
    found = re.findall(r"│\s+\d+ │\s+(-?\d+) │.*│\s+([\d.e+-]+) │$", output, re.M)
    return {setting: float(distance) for setting, distance in found}


def test_the_seats_are_balanced_where_no_seat_is_given_a_head_start(meeple: Any) -> None:
    """Seat 0's head start is planted: balanced seats are at none, and tune finds it."""
    result = meeple("tune", "labels", "--search", "head_start=-5..5", "--target", "seats",
                    "-n", 200, "--trials", 12, "--seats", "random,random")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert best(result.output) == "head_start=0"
    shown = rows(result.output)
    assert shown["0"] < min(d for s, d in shown.items() if abs(int(s)) >= 2)


def test_a_strong_card_is_tuned_to_no_effect(meeple: Any) -> None:
    """Amber's bonus is planted: its adjusted effect on winning is none at a bonus of 0,
    and the interval tune prints for it holds an odds ratio of 1."""
    result = meeple("tune", "labels", "--search", "bonus=-4..8", "--target", "card=amber",
                    "-o", "strong=amber", "-n", 200, "--trials", 10, *SEATS)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert best(result.output) == "bonus=0"
    low, high = re.findall(r"│\s+0 │\s+[\d.]+ │\s+\[([\d.]+), ([\d.]+)\]", result.output)[0]
    assert float(low) < 1 < float(high)


def test_a_study_resumes_with_the_trials_it_kept(meeple: Any, tmp_path: Path) -> None:
    study = tmp_path / "study.journal"
    args = ["tune", "labels", "--search", "head_start=-5..5", "--target", "seats", "-n", 40,
            "--seats", "random,random", "--study", study]  # fmt: skip
    assert meeple(*args, "--trials", 3).exit_code == 0
    kept = optuna.load_study(study_name="meeple", storage=_storage(study)).trials
    result = meeple(*args, "--trials", 5)
    assert result.exit_code == 0, result.output
    assert "of 5 trials" in result.output
    trials = optuna.load_study(study_name="meeple", storage=_storage(study)).trials
    assert [t.params for t in trials[:3]] == [t.params for t in kept]
    assert len(trials) == 5
    again = meeple(*args, "--trials", 5)  # nothing missing: nothing played
    assert len(optuna.load_study(study_name="meeple", storage=_storage(study)).trials) == 5
    assert best(again.output) == best(result.output)
    other = meeple(*args[:-4], "-n", 41, *args[-4:], "--trials", 6)
    assert other.exit_code == 1
    assert other.output.startswith(f"error: --study {study}: it searched another setup (its games")
    assert len(optuna.load_study(study_name="meeple", storage=_storage(study)).trials) == 5


def _storage(path: Path) -> Any:
    return optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(path)))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--search", "nope", "--target", "seats"],
         "--search 'nope': no option 'nope' (options: bonus, head_start, strong)"),
        (["--search", "strong", "--target", "seats"],
         "--search 'strong': strong is neither a number nor a choice"),
        (["--search", "head_start", "--target", "seats"],
         "--search 'head_start': head_start is not bounded; give its range"),
        (["--search", "bonus=4..1", "--target", "seats"],
         "--search 'bonus=4..1': the range's low end must be below its high"),
        (["--search", "bonus=1..x", "--target", "seats"],
         "--search 'bonus=1..x': write a range of ints as bonus=LOW..HIGH"),
        (["--search", "bonus=1..4", "--target", "card=zinc"],
         "--target card=zinc: Labels has no card kind 'zinc' (kinds: amber, birch,"),
        (["--search", "bonus=1..4", "--target", "length=-2"],
         "--target 'length=-2': write seats (seats balanced), length=N"),
    ],
)  # fmt: skip
def test_bad_input_gets_one_line(meeple: Any, args: list[str], error: str) -> None:
    result = meeple("tune", "labels", *args, "-n", 10, "--trials", 1)
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {error}"), result.output
    assert result.output.count("\n") == 1


def test_without_the_extra_it_says_how_to_install_it(
    meeple: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna raises ImportError
    result = meeple("tune", "labels", "--search", "bonus=1..4", "--target", "seats")
    assert result.exit_code == 1
    assert re.fullmatch(
        r'error: meeple tune needs optuna: \S*python\S* -m pip install "meeple\[tune\]"\n',
        result.output,
    ), result.output


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Knobs(Options, frozen=True, kw_only=True):
    fast: bool = False
    board: Literal["short", "long"] = "short"
    colour: Colour = Colour.RED
    gems: Annotated[int, msgspec.Meta(ge=1, le=9)] = 3
    rate: float = 0.5


def test_what_each_option_type_searches() -> None:
    assert tune.axis(Knobs, "fast").choices == [False, True]
    assert tune.axis(Knobs, "board").choices == ["short", "long"]
    assert tune.axis(Knobs, "board=long").choices == ["long"]
    assert tune.axis(Knobs, "colour").choices == ["red", "blue"]
    assert tune.axis(Knobs, "fast=true").choices == [True]
    gems = tune.axis(Knobs, "gems")
    assert (gems.kind, gems.low, gems.high) == ("int", 1, 9)
    rate = tune.axis(Knobs, "rate=0.1..0.9")
    assert (rate.kind, rate.low, rate.high) == ("float", 0.1, 0.9)
    with pytest.raises(MeepleError, match=r"^--search 'board=wide': 'wide' is not one of"):
        tune.axis(Knobs, "board=wide")


def test_the_length_target_is_the_mean_rounds(runs: Any) -> None:
    spec, games = runs(20)
    aim = tune.target("length=3").aim(spec, games, set())
    assert aim.estimate.value == sum(g.rounds for g in games) / len(games)
    assert aim.distance == pytest.approx(abs(aim.estimate.value - 3))
