"""`meeple report`: the page, its figures against statsmodels, its plots, and its text."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meeple.core.balance import Report
from meeple.core.runner import GameResult
from meeple.core.stats import Paired, shares

sm = pytest.importorskip("statsmodels.api")
smf = pytest.importorskip("statsmodels.formula.api")
pd = pytest.importorskip("pandas")
from statsmodels.stats.multitest import multipletests  # noqa: E402

pytestmark = pytest.mark.report

Meeple = Callable[..., Any]
KINDS = ("amber", "birch", "cedar", "dune", "elm", "fern", "gale", "heath")
PLOTS = re.compile(r"<figure><svg ")


RANDOM = ["--seats", "random,random,random,random"]
"""Four random seats (Labels' own bot, and so its default, takes amber alone)."""


def simulate(meeple: Meeple, out: Path, *args: str) -> None:
    seats = [] if "--seats" in args else RANDOM
    command = ["simulate", "labels", "-w", "1", "-q", "--card-facts", "--jsonl", out]
    result = meeple(*command, *seats, *args)
    assert result.exit_code == 0, result.output


def figures(page: str) -> Report:
    found = re.search(r'<script type="application/json" id="figures">(.*?)</script>', page, re.S)
    assert found is not None
    return msgspec.json.decode(found.group(1), type=Report)


def games(path: Path) -> list[GameResult]:
    lines = path.read_bytes().splitlines()[1:]
    return [msgspec.json.decode(line, type=GameResult) for line in lines]


def test_the_page_shows_what_statsmodels_finds(meeple: Meeple, tmp_path: Path) -> None:
    """Each card's odds ratio, interval and q-value on the page are statsmodels' own, fitted
    here on one row per seat-game read from the run file; the strong card alone stands out."""
    run, page = tmp_path / "run.jsonl", tmp_path / "report.html"
    simulate(
        meeple, run, "-n", "300", "--seats", "random,amber,random", "--rotate", "--strong", "cedar"
    )
    result = meeple("report", run, "-o", page)
    assert result.exit_code == 0, result.output
    assert f"{page}: Labels, 300 games, 8 cards, 1 standing out" in result.stdout
    html = page.read_text()
    report = figures(html)
    rows = [
        {"won": won, "seat": seat, "bot": game.seats[seat],
         **{kind: float(kind in facts.acquired) for kind in KINDS}}
        for game in games(run)
        for seat, (won, facts) in enumerate(zip(shares(game), game.cards, strict=True))  # type: ignore[arg-type]
    ]  # fmt: skip
    data = pd.DataFrame(rows)
    p = {}
    for kind in KINDS:
        fit = smf.glm(f"won ~ {kind} + C(seat) + C(bot)", data, family=sm.families.Binomial()).fit()
        card = next(c for c in report.cards if c.kind == kind)
        assert card.effect is not None
        low, high = fit.conf_int().loc[kind]
        assert (card.effect.odds, card.effect.low, card.effect.high) == pytest.approx(
            (math.exp(fit.params[kind]), math.exp(low), math.exp(high)), rel=1e-6
        )
        p[kind] = fit.pvalues[kind]
        # The table shows the same odds ratio, rounded.
        row = re.search(rf'<tr>\s*<td>{kind}</td>\s*<td title="(.*?)</tr>', html, re.S)
        assert row is not None
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
        assert float(cells[7]) == pytest.approx(card.effect.odds, abs=0.006)
    reject, q, _, _ = multipletests([p[k] for k in KINDS], report.fdr, method="fdr_bh")
    assert [k for k, out in zip(KINDS, reject, strict=True) if out] == ["cedar"]
    for kind, qv in zip(KINDS, q, strict=True):
        card = next(c for c in report.cards if c.kind == kind)
        assert card.effect is not None and card.effect.q == pytest.approx(qv, rel=1e-6)
    assert report.cards[0].kind == "cedar" and report.cards[0].flags == ["stronger"]
    # Every plot is on the page: seats, bots, effects, taken, length, scores.
    assert len(PLOTS.findall(html)) == 6
    # Nothing to run, nothing to fetch: the page works offline.
    assert "<script>" not in html and "<link" not in html and "@import" not in html
    assert not re.search(r"""(src|href)=["']?https?:|url\(["']?https?:""", html)


def test_variants_are_compared_seed_by_seed(meeple: Meeple, tmp_path: Path) -> None:
    args = [
        "compare",
        "labels",
        "--variant",
        "",
        "--variant",
        "strong=elm",
        "-n",
        "60",
        "-q",
        *RANDOM,
    ]
    result = meeple(*args, "-w", "1", "--card-facts", "--jsonl", tmp_path)
    assert result.exit_code == 0, result.output
    page = tmp_path / "report.html"
    one, two = tmp_path / "variant-1.jsonl", tmp_path / "variant-2.jsonl"
    assert meeple("report", one, two, "-o", page).exit_code == 0
    html = page.read_text()
    report = figures(html)
    paired = Paired()
    for base, other in zip(games(one), games(two), strict=True):
        paired.add(base, other)
    [variant] = report.variants
    assert variant.seeds == 60 and variant.differences == paired.differences()
    assert report.runs[1].options == {"strong": "elm"} and "run" in report.adjusted_for
    assert 'id="variants"' in html and "Run 2 against run 1, on 60 seeds" in html
    assert len(PLOTS.findall(html)) == 6  # seats, effects, taken, length, scores, variants


def test_names_from_a_file_are_text_on_the_page(meeple: Meeple, tmp_path: Path) -> None:
    """A card's name is whatever a run file says: on the page it is text, in the tables and
    in the plots, and a dollar sign starts no formula in them."""
    run, page = tmp_path / "run.jsonl", tmp_path / "report.html"
    simulate(meeple, run, "-n", "40")
    name = '<img src=x onerror="alert(1)">$x^2$'
    quoted = msgspec.json.encode(name)[1:-1]
    run.write_bytes(run.read_bytes().replace(b'"amber"', b'"' + quoted + b'"'))
    result = meeple("report", run, "-o", page)
    assert result.exit_code == 0, result.output
    html = page.read_text()
    assert "<img" not in html
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;$x^2$" in html  # the tables
    assert '&lt;img src=x onerror="alert(1)"&gt;$x^2$</text>' in html  # the plots' text
    assert any(c.kind == name for c in figures(html).cards)


def test_the_same_runs_make_the_same_page(meeple: Meeple, tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    simulate(meeple, run, "-n", "50", "--strong", "gale")
    pages = []
    for name in ("a.html", "b.html"):
        assert meeple("report", run, "-o", tmp_path / name).exit_code == 0
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]
    # A report of the game is written over; with another game's, --force is needed.
    assert meeple("report", run, "-o", tmp_path / "a.html").exit_code == 0


def test_shards_make_the_report_of_the_whole_run(meeple: Meeple, tmp_path: Path) -> None:
    whole, first, second = tmp_path / "whole.jsonl", tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    simulate(meeple, whole, "-n", "60")
    simulate(meeple, first, "-n", "25")
    simulate(meeple, second, "-n", "35", "--seed", "25")
    reports = []
    for files in ([whole], [second, first]):
        page = tmp_path / "page.html"
        assert meeple("report", *files, "-o", page).exit_code == 0
        reports.append(figures(page.read_text()))
    assert reports[0] == reports[1]
