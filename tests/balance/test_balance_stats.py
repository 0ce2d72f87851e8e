"""meeple.core.balance: the report's figures, checked against statsmodels called directly.

Labels (labels_game.py) is a game whose cards change nothing unless an option makes one
strong, so the truth is known: the strong kind must stand out and no other, and with none
strong, cards stand out no more often than the false-discovery rate allows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from meeple.core import balance
from meeple.core.balance import FDR, MAX_BINS, Balance, Histogram, Report, by_seed
from meeple.core.errors import MeepleError
from meeple.core.runner import GameResult, RunSpec
from meeple.core.stats import Paired, shares

np = pytest.importorskip("numpy")
sm = pytest.importorskip("statsmodels.api")
smf = pytest.importorskip("statsmodels.formula.api")
pd = pytest.importorskip("pandas")
from statsmodels.stats.multitest import multipletests  # noqa: E402
from statsmodels.stats.proportion import proportion_confint  # noqa: E402

pytestmark = pytest.mark.report

KINDS = ("amber", "birch", "cedar", "dune", "elm", "fern", "gale", "heath")


def report_of(spec: RunSpec, games: Sequence[GameResult], fdr: float = FDR) -> Report:
    balance = Balance([spec])
    for game in games:
        balance.add([game])
    return balance.report(fdr)


def standing_out(report: Report) -> list[str]:
    return [c.kind for c in report.cards if c.effect is not None and c.effect.stands_out]


def test_a_strong_card_stands_out_and_no_other(runs: Any) -> None:
    spec, games = runs(300, strong="cedar")
    report = report_of(spec, games)
    assert standing_out(report) == ["cedar"]
    cedar = report.cards[0]
    assert cedar.kind == "cedar" and cedar.flags == ["stronger"]
    assert cedar.effect is not None and cedar.effect.low > 2
    assert cedar.won_taken.low > cedar.won_not.high  # and the raw rates say so too
    assert {c.kind for c in report.cards} == set(KINDS)


def test_null_runs_flag_no_more_than_the_false_discovery_rate(runs: Any) -> None:
    """Forty runs in which no card matters: Benjamini-Hochberg at 5% lets a run flag any card
    with a chance of at most 5% (every card being null), so about two runs in forty; more
    than six would happen with a chance below 1 in 1,000."""
    flagged_runs = flagged_cards = 0
    for first in range(0, 40 * 120, 120):
        report = report_of(*runs(120, seed=first))
        out = standing_out(report)
        flagged_runs += bool(out)
        flagged_cards += len(out)
        assert all(c.effect is not None for c in report.cards)  # every card was tested
    assert flagged_runs <= 6
    assert flagged_cards / (40 * len(KINDS)) <= FDR


def test_a_card_only_the_favoured_seat_takes_is_not_flagged(runs: Any) -> None:
    """The amber bot sits in seat 0, which starts 3 points ahead, and takes every amber card:
    seats with amber win far more often, but seat for seat amber changes nothing."""
    bots = ("amber", "random", "random", "random")
    spec, games = runs(300, bots=bots, head_start=3)
    report = report_of(spec, games)
    amber = next(c for c in report.cards if c.kind == "amber")
    assert amber.won_taken.low > amber.won_not.high  # raw: a big difference
    assert amber.effect is not None and not amber.effect.stands_out
    assert report.adjusted_for == ["seat"]  # seat 0 always held the amber bot: one factor
    assert standing_out(report) == []


def rows(games: Sequence[GameResult]) -> Any:
    """One row per seat-game: its win share, seat, bot and the kinds it acquired."""
    out = []
    for game in games:
        assert isinstance(game.cards, list)
        for seat, (won, facts) in enumerate(zip(shares(game), game.cards, strict=True)):
            row = {"won": won, "seat": seat, "bot": game.seats[seat]}
            row.update({kind: float(kind in facts.acquired) for kind in KINDS})
            out.append(row)
    return pd.DataFrame(out)


def test_figures_are_statsmodels_on_one_row_per_seat_game(runs: Any) -> None:
    """The report fits counts per cell; the same model on one row per seat-game, fitted by
    statsmodels here, gives the same odds ratios, intervals and p-values, and multipletests
    the same q-values; the rates are statsmodels' Wilson intervals of the same counts."""
    spec, games = runs(240, bots=("amber", "random", "random"), rotate=True, strong="dune")
    report = report_of(spec, games)
    assert report.adjusted_for == ["seat", "bot"]
    data = rows(games)
    fitted = {}
    for kind in KINDS:
        term = f"Q('{kind}')"
        model = smf.glm(f"won ~ {term} + C(seat) + C(bot)", data, family=sm.families.Binomial())
        result = model.fit()
        beta, (low, high) = result.params[term], result.conf_int().loc[term]
        fitted[kind] = (math.exp(beta), math.exp(low), math.exp(high), result.pvalues[term])
    reject, q, _, _ = multipletests([fitted[k][3] for k in KINDS], FDR, method="fdr_bh")
    cards = {c.kind: c for c in report.cards}
    for kind, out, qv in zip(KINDS, reject, q, strict=True):
        effect = cards[kind].effect
        assert effect is not None
        odds, low, high, p = fitted[kind]
        assert (effect.odds, effect.low, effect.high, effect.p) == pytest.approx(
            (odds, low, high, p), rel=1e-6
        )
        assert effect.q == pytest.approx(qv, rel=1e-6) and effect.stands_out == out
        taken = data[data[kind] == 1]
        n, won = len(taken), taken["won"].sum()
        assert cards[kind].taken.value == n / len(data)
        assert (cards[kind].won_taken.low, cards[kind].won_taken.high) == pytest.approx(
            proportion_confint(won, n, method="wilson")
        )
        firsts = [f.first[kind] for g in games for f in g.cards if kind in f.first]  # type: ignore[union-attr]
        first = cards[kind].first
        assert first is not None and first.value == pytest.approx(np.mean(firsts))
        half = 1.959963984540054 * np.std(firsts, ddof=1) / math.sqrt(len(firsts))
        assert (first.low, first.high) == pytest.approx(
            (np.mean(firsts) - half, np.mean(firsts) + half)
        )
    assert standing_out(report) == ["dune"]


def test_variants_are_compared_seed_by_seed(runs: Any) -> None:
    """Two option sets on the same seeds: the report's paired differences are those of
    meeple.core.stats on the games of each seed, and the card model is adjusted for the run."""
    base_spec, base = runs(60)
    other_spec, other = runs(60, seed=20, strong="elm")  # seeds 20-79: 40 shared
    balance = Balance([base_spec, other_spec])
    streams = [
        (0, iter((f"a:{i}", g) for i, g in enumerate(base))),
        (1, iter((f"b:{i}", g) for i, g in enumerate(other))),
    ]
    for row in by_seed(streams, 2):
        balance.add(row)
    report = balance.report()
    paired = Paired()
    for game in base[20:]:
        paired.add(game, other[game.seed - 20])
    [variant] = report.variants
    assert variant.run == 1 and variant.seeds == 40
    assert variant.differences == paired.differences()
    assert report.games == 120 and "run" in report.adjusted_for
    assert report.runs[1].options == {"strong": "elm"}


def test_a_seed_twice_in_a_run_or_out_of_order_is_named(runs: Any) -> None:
    _, games = runs(3)
    twice = [(0, iter([("a.jsonl:2", games[0])])), (0, iter([("b.jsonl:3", games[0])]))]
    with pytest.raises(MeepleError, match=r"b.jsonl:3: seed 0 again \(also a.jsonl:2\)"):
        list(by_seed(twice, 1))
    backwards = [(0, iter([("a.jsonl:2", games[1]), ("a.jsonl:3", games[0])]))]
    with pytest.raises(MeepleError, match=r"a.jsonl:3: seed 0 after seed 1; a run file holds"):
        list(by_seed(backwards, 1))


def test_measures_are_summed_by_seat_and_for_winners(runs: Any) -> None:
    spec, games = runs(30)
    for game in games:  # a measure as a game's hook would give: the luck part of each score
        assert isinstance(game.cards, list)
        for score, facts in zip(game.scores, game.cards, strict=True):
            facts.measures = {"luck": float(score.parts["luck"]), "by": {"x": 1}}
    report = report_of(spec, games)
    [by, luck] = report.measures
    assert by.name == "by: x" and luck.name == "luck"
    won = [s.parts["luck"] for g in games for s, w in zip(g.scores, shares(g), strict=True) if w]
    assert luck.winners.value == pytest.approx(sum(won) / len(won))
    assert luck.seats[2].value == pytest.approx(np.mean([g.scores[2].parts["luck"] for g in games]))


def test_histograms_stay_bounded() -> None:
    histogram = Histogram()
    for value in range(0, 100_000, 7):
        histogram.add(value)
    assert len(histogram.counts) <= MAX_BINS and histogram.width == 256
    assert sum(histogram.counts.values()) == len(range(0, 100_000, 7))
    assert histogram.quantile(0.5) == pytest.approx(50_000, abs=histogram.width)


def test_a_report_holds_every_figure_as_json(runs: Any) -> None:
    report = report_of(*runs(20))
    assert msgspec.json.decode(msgspec.json.encode(report), type=Report) == report


def test_counts_are_bounded_whatever_a_file_names(
    runs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-edited file cannot grow the counts without end: more kinds than a game has, or
    a name longer than any game's, is refused."""
    spec, games = runs(2)
    facts = games[1].cards
    assert isinstance(facts, list)
    monkeypatch.setattr(balance, "MAX_KINDS", len(KINDS))
    facts[0].acquired["zinnia"] = 1
    with pytest.raises(MeepleError, match=r"^more than 8 card kinds \(the last 'zinnia'\)"):
        report_of(spec, games)
    monkeypatch.undo()
    facts[1].played["x" * 300] = 1
    with pytest.raises(
        MeepleError, match=r"^a card kind named 'x{200}'… \(300 characters\), longer"
    ):
        report_of(spec, games)
