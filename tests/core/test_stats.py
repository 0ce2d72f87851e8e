"""meeple.core.stats: intervals against published values, the seat test, streaming summaries."""

from __future__ import annotations

import statistics

import msgspec
import pytest

from meeple.core.errors import MeepleError
from meeple.core.runner import GameResult
from meeple.core.scoring import Score, rank
from meeple.core.stats import (
    Paired,
    Ratings,
    Running,
    chi_square_sf,
    seat_test,
    summarize,
    wilson,
)


def game(
    seed: int, seats: list[str], totals: list[int], notes: list[str] | None = None
) -> GameResult:
    scores = [
        Score(seat=s, total=t, parts={"pile": t}, note=(notes or [""] * len(totals))[s])
        for s, t in enumerate(totals)
    ]
    return GameResult(
        seed=seed,
        seats=seats,
        scores=scores,
        places=rank(scores),
        decisions=10 + seed % 3,
        rounds=2 + seed % 2,
        digest="",
    )


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [
        # statsmodels: proportion_confint(k, 10, method="wilson")
        (0, 10, 0.0, 0.2775328),
        (5, 10, 0.2365931, 0.7634069),
        (10, 10, 0.7224672, 1.0),
        # Newcombe (1998), Statistics in Medicine 17:857-872, table I, method 3
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ],
)
def test_wilson_interval_matches_published_values(
    wins: int, trials: int, low: float, high: float
) -> None:
    e = wilson(wins, trials)
    assert e.value == wins / trials
    assert (e.low, e.high) == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))


def test_wilson_takes_fractional_wins_and_no_trials() -> None:
    e = wilson(2.5, 10)
    assert e.value == 0.25 and 0 < e.low < 0.25 < e.high < 1
    assert wilson(0, 0).low == 0 and wilson(0, 0).high == 1


@pytest.mark.parametrize(
    ("x", "df", "p"),
    # Upper-tail critical values of chi-square tables (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.4).
    [
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (5.991, 2, 0.05),
        (9.210, 2, 0.01),
        (7.815, 3, 0.05),
        (11.345, 3, 0.01),
        (9.488, 4, 0.05),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (2.366, 3, 0.50),
    ],
)
def test_chi_square_survival_matches_the_tables(x: float, df: int, p: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(p, abs=2e-4)


def test_chi_square_survival_edges() -> None:
    assert chi_square_sf(0, 3) == 1
    with pytest.raises(ValueError, match="at least 1"):
        chi_square_sf(1, 0)


def test_running_mean_and_interval() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    r = Running()
    for v in values:
        r.add(v)
    half = 1.959964 * statistics.stdev(values) / len(values) ** 0.5
    e = r.estimate()
    assert e.value == 5 and (e.low, e.high) == pytest.approx((5 - half, 5 + half))
    assert (r.low, r.high) == (2, 9)
    block = Running()
    block.add(3)
    block.add(0, times=4)  # a block of equal values at once
    assert block.mean == pytest.approx(0.6)
    assert block.m2 / 4 == pytest.approx(statistics.variance([3, 0, 0, 0, 0]))


def test_seat_test_tells_a_biased_from_a_fair_table() -> None:
    biased = seat_test([160, 80, 80, 80])
    assert biased.p is not None and biased.p < 1e-6 and biased.df == 3
    assert biased.statistic == pytest.approx(48)
    assert (
        biased.verdict.startswith("seat differences are significant") and "seat 0" in biased.verdict
    )
    fair = seat_test([98, 103, 101, 98])
    assert fair.p is not None and fair.p > 0.9
    assert fair.verdict == f"seat differences are within noise (p = {fair.p:.2f})"
    mixed = seat_test([98, 103, 101, 98], balanced=False)
    assert "mixes seat and bot" in mixed.verdict
    assert seat_test([3, 1]).p is None  # fewer than 5 expected wins a seat


def test_summary_counts_shared_wins_and_notes() -> None:
    results = [
        game(0, ["a", "b"], [5, 5], ["out", ""]),  # a shared victory: half a win each
        game(1, ["b", "a"], [7, 3]),
        game(2, ["a", "b"], [1, 9]),
    ]
    s = summarize(iter(results))
    assert s.games == 3
    assert [p.wins for p in s.seats] == [1.5, 1.5]
    a, b = s.bots
    assert (a.name, a.games, a.wins) == ("a", 3, 0.5)
    assert (b.name, b.wins) == ("b", 2.5)
    assert a.score.mean.value == 3 and (a.score.min, a.score.max) == (1, 5)
    assert a.outcomes["out"].value == pytest.approx(1 / 3) and not b.outcomes
    assert s.seats[0].bot is None  # seat 0 held a and b
    assert s.decisions.mean.value == 11 and s.rounds.max == 3
    assert not s.seat_test.balanced  # seat 0 held a twice, seat 1 once


def test_balance_is_per_seat_bot_counts() -> None:
    same = summarize([game(i, ["a", "a"], [i, 1]) for i in range(4)])
    assert same.seat_test.balanced and same.seats[0].bot == "a"
    rotated = summarize([game(i, ["a", "b"] if i % 2 else ["b", "a"], [i, 1]) for i in range(4)])
    assert rotated.seat_test.balanced and rotated.seats[0].bot is None
    fixed = summarize([game(i, ["a", "b"], [i, 1]) for i in range(4)])
    assert not fixed.seat_test.balanced


def rounded(value: object) -> object:
    """``value`` as builtins, with every float rounded to 9 places (sums depend on their order)."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def test_a_summary_does_not_depend_on_the_order_of_games() -> None:
    results = [game(i, ["a", "b", "c"], [i % 4, (i * 7) % 5, 2]) for i in range(30)]
    forward, backward = summarize(results), summarize(reversed(results))
    assert rounded(msgspec.to_builtins(forward)) == rounded(msgspec.to_builtins(backward))


def test_paired_differences() -> None:
    pair = Paired()
    for seed in range(20):
        base = game(seed, ["a", "b"], [1, 2])  # seat 1 always wins
        other = game(
            seed, ["a", "b"], [2, 1] if seed % 2 else [1, 2], ["", "gone"] if seed < 4 else None
        )
        pair.add(base, other)
    rows = {d.measure: d for d in pair.differences()}
    assert pair.differences() == list(rows.values())  # reading them changes nothing
    assert list(rows) == ["seat 0 win rate", "seat 1 win rate", "decisions", "rounds", "gone share"]
    seat0 = rows["seat 0 win rate"]
    assert (seat0.base.value, seat0.other.value, seat0.difference.value) == (0, 0.5, 0.5)
    assert seat0.difference.excludes(0)
    assert rows["decisions"].difference.value == 0 and not rows["decisions"].difference.excludes(0)
    gone = rows["gone share"]  # 4 games of 20 where one seat in two had the note, 0 elsewhere
    assert gone.other.value == pytest.approx(0.1) and gone.base.value == 0
    with pytest.raises(ValueError, match="seed 1 paired with seed 2"):
        pair.add(game(1, ["a", "b"], [1, 2]), game(2, ["a", "b"], [1, 2]))


def test_ratings_rank_the_bot_that_wins() -> None:
    ratings = Ratings()
    for seed in range(30):
        seats = ["weak", "strong", "middle"] if seed % 2 else ["strong", "middle", "weak"]
        totals = [{"strong": 3, "middle": 2, "weak": 1}[bot] for bot in seats]
        ratings.add(game(seed, seats, totals))
    rows = ratings.ratings()
    assert [r.bot for r in rows] == ["strong", "middle", "weak"]
    assert all(r.games == 30 and r.low < r.mu < r.high for r in rows)
    assert rows[0].low > rows[2].high  # clearly apart after 30 games
    with pytest.raises(MeepleError, match="a bot sits twice"):
        ratings.add(game(99, ["strong", "strong"], [1, 2]))
