"""The tables of ``simulate``, ``stats``, ``compare`` and ``tournament``, drawn from
:mod:`meeple.core.stats` values, and their ``--json`` form.

Every estimate is printed with its 95% interval beside it (``low–high``, or ``low to high``
from a negative end); the captions say which interval it is, so a table read alone is not
misread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.table import Table

from meeple.cli import output
from meeple.core.stats import Difference, Estimate, Player, Rating, Summary

WINS = "a shared victory counts 1/k to each of its k winners"
RATES = "95% Wilson intervals"
MEANS = "95% normal intervals of the mean"


def rate(e: Estimate) -> str:
    return f"{e.value:.1%}"


def interval(low: str, high: str) -> str:
    """``25.2–33.1%``; from a negative end ``-12.2 to -1.0%``, as ``-12.2–-1.0%`` reads as a
    range of two dashes."""
    return f"{low} to {high}" if low.startswith("-") else f"{low}–{high}"


def rate_interval(e: Estimate) -> str:
    return interval(f"{e.low * 100:.1f}", f"{e.high:.1%}")


def mean(e: Estimate) -> str:
    return f"{e.value:.2f}"


def mean_interval(e: Estimate) -> str:
    return interval(f"{e.low:.1f}", f"{e.high:.1f}")


def wins(total: float) -> str:
    return f"{total:g}" if total.is_integer() else f"{total:.2f}"


def players(
    heading: str, label: str, rows: Sequence[Player], shown: Sequence[str], games: bool = True
) -> Table:
    """Win rate and mean score of each seat or bot; ``shown`` is each row's label. ``games``
    adds the games each played (every seat plays every game: its table leaves them out)."""
    t = Table(title=output.plain(heading), caption=f"{WINS}\nrates: {RATES}; scores: {MEANS}")
    # A narrow terminal folds a long bot name (its options) rather than cut a number.
    t.add_column(label, overflow="fold")
    counted = ("games",) if games else ()
    for column in (*counted, "wins", "win rate", "95% CI", "mean score", "95% CI"):
        t.add_column(column, justify="right", no_wrap=True)
    for row, name in zip(rows, shown, strict=True):
        t.add_row(
            output.plain(name),
            *([str(row.games)] if games else []),
            wins(row.wins),
            rate(row.win_rate),
            rate_interval(row.win_rate),
            mean(row.score.mean),
            mean_interval(row.score.mean),
        )
    return t


def outcomes(bots: Sequence[Player]) -> Table | None:
    """How each bot's seats ended, from the notes a game writes on its scores (if any)."""
    if not any(b.outcomes for b in bots):
        return None
    t = Table(title="outcomes by bot", caption=f"share of the bot's seats that ended so; {RATES}")
    for column in ("bot", "outcome", "share", "95% CI"):
        t.add_column(column, justify="left" if column in ("bot", "outcome") else "right")
    for bot in bots:
        for note, share in bot.outcomes.items():
            t.add_row(output.plain(bot.name), output.plain(note), rate(share), rate_interval(share))
    return t


def summary(title: str, s: Summary) -> None:
    """Print the per-seat, seat test, per-bot, outcome and game-length tables."""
    seats = [f"{p.name} ({p.bot})" if p.bot is not None else p.name for p in s.seats]
    output.console.print(
        players(f"{title}: {s.games} games, by seat", "seat", s.seats, seats, games=False)
    )
    output.console.print(output.plain(s.seat_test.verdict), soft_wrap=True)
    output.console.print(players("by bot", "bot", s.bots, [b.name for b in s.bots]))
    table = outcomes(s.bots)
    if table is not None:
        output.console.print(table)
    length = Table(title="game length", caption=MEANS)
    for column in ("", "mean", "95% CI", "min", "max"):
        length.add_column(column, justify="right")
    for name, m in (("decisions", s.decisions), ("rounds", s.rounds)):
        length.add_row(name, mean(m.mean), mean_interval(m.mean), f"{m.min:g}", f"{m.max:g}")
    output.console.print(length)


def show(title: str, s: Summary, as_json: bool, elapsed: float | None = None) -> None:
    """The summary as ``--json`` asked: JSON, or the tables (and the speed, when timed)."""
    if as_json:
        json(s)
        return
    summary(title, s)
    if elapsed is not None:
        speed(s.games, elapsed)


def differences(heading: str, rows: Sequence[Difference]) -> Table:
    """One variant against the base: each measure under both, and the paired difference."""
    t = Table(
        title=output.plain(heading),
        caption="difference = variant - base, seed by seed\n* its 95% interval excludes 0",
    )
    for column in ("measure", "base", "variant", "difference", "95% CI", ""):
        t.add_column(column, justify="left" if column == "measure" else "right")
    for row in rows:
        share = row.measure.endswith(("rate", "share"))
        shown, interval = (rate, rate_interval) if share else (mean, mean_interval)
        diff = row.difference
        t.add_row(
            output.plain(row.measure),
            shown(row.base),
            shown(row.other),
            f"{diff.value:+.1%}" if share else f"{diff.value:+.2f}",
            interval(diff),
            "*" if diff.excludes(0) else "",
        )
    return t


def ratings(rows: Sequence[Rating]) -> Table:
    t = Table(
        title="ratings (openskill, Plackett-Luce)",
        caption="skill mu with ±2σ (about 95%); ordinal = mu - 3σ, the order of the rows",
    )
    for column in ("bot", "games", "mu", "σ", "mu ± 2σ", "ordinal"):
        t.add_column(column, justify="left" if column == "bot" else "right")
    for r in rows:
        t.add_row(
            output.plain(r.bot),
            str(r.games),
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            interval(f"{r.low:.1f}", f"{r.high:.1f}"),
            f"{r.ordinal:.2f}",
        )
    return t


def pace(per_second: float) -> str:
    """A speed in games, readable however slow: ``1,234 games/s``, ``2.5 games/s``, and below
    one a second the time per game, ``1.7 s/game``."""
    if per_second >= 10:
        return f"{per_second:,.0f} games/s"
    if per_second >= 1:
        return f"{per_second:.1f} games/s"
    return f"{1 / per_second:,.1f} s/game"


def speed(games: int, elapsed: float) -> None:
    rate = games / elapsed if elapsed > 0 else float("inf")
    output.console.print(f"{games} games in {elapsed:.2f} s ({pace(rate)})")


def json(value: Any) -> None:
    """Print a msgspec value as indented JSON (what ``--json`` writes)."""
    output.echo_json(msgspec.json.encode(value))
