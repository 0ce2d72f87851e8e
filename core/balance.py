"""A designer's balance figures from runs played with card facts: seats, bots, cards, lengths.

:class:`Balance` reads a run's games one seed at a time (the games of every run played on
that seed, so that variants are compared seed by seed) and keeps counts only: per seat and
bot, per card kind and the cells a model needs, histograms whose bins widen as values
spread. Its memory grows with the card kinds, seats, bots and runs, never with the games.
:meth:`Balance.report` then works the figures out:

- each seat's and bot's win rate, and the seat test (:mod:`meeple.core.stats`);
- per card kind, how often seats acquired and played it, the win rates of the seats that
  acquired it and of those that did not, and its effect on winning adjusted for seat, bot
  and run: a binomial logistic regression of each seat-game's win on "acquired it",
  seat, bot and run (statsmodels' GLM, fitted on counts per cell, which is the same fit as
  one row per seat-game), its odds ratio with a 95% interval, and a Benjamini-Hochberg
  correction across the kinds tested;
- game length, the margin between first and second, the scores per seat;
- for runs of several option sets (``meeple compare``), the paired differences of each
  against the first;
- the game's own measures (``meeple_seat_measures``), by seat and for winners and the rest.

The statistics come from statsmodels, imported only here, which the ``report`` extra
installs (``pip install "meeple[report]"``).
"""

from __future__ import annotations

import heapq
import importlib
import math
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from meeple.core.errors import MeepleError, echo
from meeple.core.runner import GameResult, RunSpec
from meeple.core.stats import Difference, Estimate, Paired, Running, Summary, Tally, shares

INSTALL = 'pip install "meeple[report]"'
"""What installs the statistics and plotting libraries the report needs."""

FDR = 0.05
"""The false-discovery rate at which a card stands out, by default."""

RARE = 0.05
"""A card acquired in fewer than this share of seat-games is rarely taken."""

MIN_GROUP = 10
"""A card is tested when at least this many seat-games acquired it and as many did not."""

MAX_SE = 5.0
MAX_LOG_ODDS = 15.0
"""An effect with a larger standard error or log odds ratio is not estimated (see ``_fit``)."""

MAX_KINDS = 5_000
"""The most card kinds a report counts: more than any game has (a file naming millions of
kinds would fill the memory)."""

MAX_MEASURES = 500
"""The most names of a game's own measures a report counts."""

MAX_NAME = 200
"""The longest name of a card kind or measure a report counts."""

MAX_BINS = 512
"""The most bins of a histogram: past it, bins widen (twice as wide, half as many)."""


def require(module: str) -> Any:
    """``module`` of the ``report`` extra, or :class:`MeepleError` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MeepleError(
            f"the balance report needs statsmodels and matplotlib ({module} is missing): {INSTALL}"
        ) from None


# -- what the report says ---------------------------------------------------------------


class Histogram(msgspec.Struct, kw_only=True):
    """Counts of whole numbers in bins of ``width``: bin ``b`` holds ``b*width`` to
    ``(b+1)*width - 1``. At most :data:`MAX_BINS` bins: past that, the width doubles."""

    width: int = 1
    counts: dict[int, int] = {}

    def add(self, value: int) -> None:
        b = value // self.width
        self.counts[b] = self.counts.get(b, 0) + 1
        while len(self.counts) > MAX_BINS:
            self.width *= 2
            merged: Counter[int] = Counter()
            for key, n in self.counts.items():
                merged[key // 2] += n
            self.counts = dict(merged)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile, read from the bins (a bin wider than 1 counts as its middle)."""
        total, seen = sum(self.counts.values()), 0
        for key in sorted(self.counts):
            seen += self.counts[key]
            if seen >= q * total:
                return self.value(key)
        return 0.0

    def value(self, key: int) -> float:
        """The value bin ``key`` stands for: its middle."""
        return key * self.width + (self.width - 1) / 2


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    """A card's effect on winning, adjusted for seat, bot and run: an odds ratio."""

    odds: float
    """How many times the odds of winning of a seat that acquired the card are those of a
    seat that did not, in the same seat with the same bot (1: no difference)."""
    low: float
    high: float
    """The 95% interval of the odds ratio."""
    p: float
    """The chance of an effect at least this far from 1 if the card changed nothing."""
    q: float
    """``p`` corrected for the number of cards tested (Benjamini-Hochberg)."""
    stands_out: bool
    """``q`` is below the report's false-discovery rate."""


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card kind's row of the report."""

    kind: str
    seat_games: int
    """Seat-games in which the kind could be counted (every seat of every game)."""
    taken: Estimate
    """The share of seat-games that acquired at least one copy, with its Wilson interval."""
    copies: float
    """Copies acquired per seat-game."""
    played: Estimate
    """The share of seat-games that played it at least once."""
    plays: float
    """Plays per seat-game."""
    owned: float
    """Copies owned at the end per seat-game."""
    first: Estimate | None
    """The round its first copy arrived, over the seat-games that acquired it."""
    won_taken: Estimate
    """The win rate of seat-games that acquired it."""
    won_not: Estimate
    """The win rate of seat-games that did not."""
    effect: Effect | None
    """``None`` when it was not tested: see ``untested``."""
    untested: str = ""
    """Why it was not tested (too few seat-games with or without it)."""
    flags: list[str] = []
    """``never taken``, ``rarely taken``, ``stronger``, ``weaker``, ``starting card``."""


class Run(msgspec.Struct, frozen=True, kw_only=True):
    """One run (an option set) of the report."""

    spec: RunSpec
    options: dict[str, Any]
    """The options in which it differs from the first run (all of them for the first)."""
    summary: Summary


class Measured(msgspec.Struct, frozen=True, kw_only=True):
    """A game's own measure: its mean by seat, and for winners and the others."""

    name: str
    seats: list[Estimate]
    winners: Estimate
    others: Estimate


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """A run against the first, seed by seed (``meeple compare``'s paired differences)."""

    run: int
    seeds: int
    differences: list[Difference]


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``meeple report`` shows, as its HTML holds it for machines too."""

    game: str
    version: str
    games: int
    fdr: float
    adjusted_for: list[str]
    """What the card effects are adjusted for: seat, bot, run (those that vary)."""
    runs: list[Run]
    cards: list[Card]
    """Every kind, those that stand out first, then by odds ratio."""
    decisions: Histogram
    rounds: Histogram
    margin: Histogram
    """First place's total less second place's, per game."""
    scores: list[Histogram]
    """Each seat's final totals."""
    variants: list[Variant]
    measures: list[Measured]


# -- counting ---------------------------------------------------------------------------


class _Kind:
    """The counts of one card kind, by cell (a seat, bot and run) where the model needs them."""

    __slots__ = ("copies", "first", "owned", "played", "plays", "taken", "won")

    def __init__(self) -> None:
        self.taken: Counter[int] = Counter()
        """Seat-games that acquired it, by cell."""
        self.won: defaultdict[int, float] = defaultdict(float)
        """Their wins, by cell (a shared victory counting 1/k)."""
        self.copies = 0
        self.played = 0
        self.plays = 0
        self.owned = 0
        self.first: Counter[int] = Counter()
        """Seat-games by the round the first copy arrived."""


class Balance:
    """A report's counts, fed the games of one seed at a time (:meth:`add`)."""

    def __init__(self, specs: Sequence[RunSpec]) -> None:
        self.specs = list(specs)
        self.tallies = [Tally() for _ in specs]
        self.pairs = [Paired() for _ in specs[1:]]
        self.kinds: dict[str, _Kind] = {}
        self.cells: dict[tuple[int, int, str], int] = {}
        """Each (run, seat, bot) met, numbered."""
        self.trials: Counter[int] = Counter()
        self.wins: defaultdict[int, float] = defaultdict(float)
        self.decisions, self.rounds, self.margin = Histogram(), Histogram(), Histogram()
        self.scores: list[Histogram] = []
        self.measures: dict[str, tuple[list[Running], Running, Running]] = {}
        self.starters: set[str] = set()
        """Kinds some seat owned at the end but never acquired, in some game: set-up cards."""

    @property
    def games(self) -> int:
        return sum(t.games for t in self.tallies)

    def add(self, games: Sequence[GameResult | None]) -> None:
        """The games of one seed, one per run (``None``: that run has no game of it)."""
        for run, game in enumerate(games):
            if game is not None:
                self._game(run, game)
        base = games[0]
        for pair, other in zip(self.pairs, games[1:], strict=True):
            if base is not None and other is not None:
                pair.add(base, other)

    def _game(self, run: int, game: GameResult) -> None:
        self.tallies[run].add(game)
        self.decisions.add(game.decisions)
        self.rounds.add(game.rounds)
        totals = sorted((s.total for s in game.scores), reverse=True)
        if len(totals) > 1:
            self.margin.add(totals[0] - totals[1])
        while len(self.scores) < len(game.scores):
            self.scores.append(Histogram())
        for score in game.scores:
            self.scores[score.seat].add(score.total)
        if not isinstance(game.cards, list):
            return
        won = shares(game)
        kinds, cells = self.kinds, self.cells
        for seat, facts in enumerate(game.cards):
            key = (run, seat, game.seats[seat])
            cell = cells.get(key)
            if cell is None:
                cell = cells[key] = len(cells)
            share = won[seat]
            self.trials[cell] += 1
            self.wins[cell] += share
            for kind, n in facts.acquired.items():
                counts = kinds.get(kind) or self._kind(kind)
                counts.taken[cell] += 1
                counts.won[cell] += share
                counts.copies += n
            for kind, n in facts.played.items():
                counts = kinds.get(kind) or self._kind(kind)
                counts.played += 1
                counts.plays += n
            for kind, n in facts.owned.items():
                counts = kinds.get(kind) or self._kind(kind)
                counts.owned += n
                if kind not in facts.acquired:
                    self.starters.add(kind)
            for kind, first in facts.first.items():
                (kinds.get(kind) or self._kind(kind)).first[first] += 1
            if facts.measures:
                self._measures(seat, share, facts.measures)

    def _kind(self, kind: str) -> _Kind:
        _name("card kind", kind, len(self.kinds), MAX_KINDS)
        counts = self.kinds[kind] = _Kind()
        return counts

    def _measures(self, seat: int, share: float, measures: dict[str, Any]) -> None:
        for name, value in measures.items():
            values = value.items() if isinstance(value, dict) else [("", value)]
            for part, number in values:
                key = f"{name}: {part}" if part else name
                found = self.measures.get(key)
                if found is None:
                    _name("measure", key, len(self.measures), MAX_MEASURES)
                    found = self.measures[key] = ([], Running(), Running())
                by_seat, winners, others = found
                while len(by_seat) <= seat:
                    by_seat.append(Running())
                by_seat[seat].add(number)
                (winners if share > 0 else others).add(number)

    # -- the figures ----------------------------------------------------------------------

    def report(self, fdr: float = FDR, kinds: Iterable[str] = ()) -> Report:
        """The figures of every game added; ``kinds`` are card kinds the game has (so that a
        kind no seat ever took is listed)."""
        sm = require("statsmodels.api")
        spec = self.specs[0]
        runs = [
            Run(spec=s, options=_differing(spec, s, i), summary=t.summary())
            for i, (s, t) in enumerate(zip(self.specs, self.tallies, strict=True))
        ]
        factors, design = self._design(sm)
        cards = self._cards(sm, design, fdr, set(kinds))
        return Report(
            game=spec.game,
            version=spec.version,
            games=self.games,
            fdr=fdr,
            adjusted_for=factors,
            runs=runs,
            cards=cards,
            decisions=self.decisions,
            rounds=self.rounds,
            margin=self.margin,
            scores=self.scores,
            variants=[
                Variant(run=i, seeds=pair.games, differences=pair.differences())
                for i, pair in enumerate(self.pairs, 1)
                if pair.games
            ],
            measures=[
                Measured(
                    name=name,
                    seats=[r.estimate() for r in by_seat],
                    winners=winners.estimate(),
                    others=others.estimate(),
                )
                for name, (by_seat, winners, others) in sorted(self.measures.items())
            ],
        )

    def _design(self, sm: Any) -> tuple[list[str], Any]:
        """The covariates of every cell (seat, bot and run as dummies), without a column
        that the others already determine (a seat always held by one bot): what the card
        effects are adjusted for, and the matrix, one row per cell."""
        np = require("numpy")
        keys = sorted(self.cells, key=self.cells.__getitem__)
        columns: list[Any] = [np.ones(len(keys))]
        kept: list[str] = []
        for name, at in (("seat", 1), ("bot", 2), ("run", 0)):
            levels = sorted({key[at] for key in keys}, key=str)
            for level in levels[1:]:
                column = np.array([1.0 if key[at] == level else 0.0 for key in keys])
                trial = np.column_stack([*columns, column])
                if np.linalg.matrix_rank(trial) == trial.shape[1]:
                    columns.append(column)
                    if name not in kept:
                        kept.append(name)
        return kept, np.column_stack(columns)

    def _cards(self, sm: Any, design: Any, fdr: float, known: set[str]) -> list[Card]:
        np = require("numpy")
        multipletests = require("statsmodels.stats.multitest").multipletests
        confint = require("statsmodels.stats.proportion").proportion_confint
        cells = len(self.cells)
        trials = np.array([self.trials[c] for c in range(cells)], dtype=float)
        wins = np.array([self.wins[c] for c in range(cells)], dtype=float)
        total, total_wins = float(trials.sum()), float(wins.sum())

        def rate(successes: float, n: float) -> Estimate:
            if n == 0:
                return Estimate(value=0.0, low=0.0, high=1.0)
            low, high = confint(successes, n, alpha=0.05, method="wilson")
            return Estimate(value=successes / n, low=float(low), high=float(high))

        fits: dict[str, tuple[float, float, float, float]] = {}
        rows: dict[str, dict[str, Any]] = {}
        for kind in sorted(self.kinds.keys() | known):
            counts = self.kinds.get(kind) or _Kind()
            taken = np.array([counts.taken[c] for c in range(cells)], dtype=float)
            won = np.array([counts.won[c] for c in range(cells)], dtype=float)
            n_taken, w_taken = float(taken.sum()), float(won.sum())
            untested = _untested(n_taken, w_taken, total - n_taken, total_wins - w_taken)
            if not untested:
                fit = _fit(sm, design, trials, wins, taken, won)
                if fit is None:
                    untested = "with some seat or bot, the seats that took it always won or lost"
                else:
                    fits[kind] = fit
            rows[kind] = {
                "kind": kind,
                "seat_games": int(total),
                "taken": rate(n_taken, total),
                "copies": counts.copies / total if total else 0.0,
                "played": rate(counts.played, total),
                "plays": counts.plays / total if total else 0.0,
                "owned": counts.owned / total if total else 0.0,
                "first": _mean(counts.first) if counts.first else None,
                "won_taken": rate(w_taken, n_taken),
                "won_not": rate(total_wins - w_taken, total - n_taken),
                "untested": untested,
            }
        tested = sorted(fits)
        if tested:
            reject, q, _, _ = multipletests([fits[k][3] for k in tested], fdr, method="fdr_bh")
            for kind, out, qv in zip(tested, reject, q, strict=True):
                beta, low, high, p = fits[kind]
                rows[kind]["effect"] = Effect(
                    odds=math.exp(beta),
                    low=math.exp(low),
                    high=math.exp(high),
                    p=p,
                    q=float(qv),
                    stands_out=bool(out),
                )
        cards = []
        for row in rows.values():
            effect = row.pop("effect", None)
            flags = _flags(row["taken"], effect, row["kind"] in self.starters)
            cards.append(Card(**row, effect=effect, flags=flags))

        def order(card: Card) -> tuple[int, float, str]:
            if card.effect is None:
                return 2, -card.taken.value, card.kind
            return (0 if card.effect.stands_out else 1), -abs(math.log(card.effect.odds)), card.kind

        return sorted(cards, key=order)


def _name(what: str, name: str, known: int, most: int) -> None:
    """Raise :class:`MeepleError` unless a new ``what`` may be counted: the count's memory is
    bounded by the number of names and their length, whatever a file holds."""
    if known >= most:
        raise MeepleError(
            f"more than {most:,} {what}s (the last {echo(name)}): more than any game has; "
            "these are not a game's card facts"
        )
    if len(name) > MAX_NAME:
        raise MeepleError(
            f"a {what} named {echo(name)}, longer than {MAX_NAME} characters: no game's is; "
            "these are not a game's card facts"
        )


def _mean(counts: Counter[int]) -> Estimate:
    """The mean of numbers counted by value, with its normal interval."""
    running = Running()
    for value, n in sorted(counts.items()):
        running.add(value, n)
    return running.estimate()


def _untested(n_taken: float, w_taken: float, n_not: float, w_not: float) -> str:
    """Why a kind cannot be tested, or ``""``: too few seat-games with it or without it, or a
    group that always or never won (its odds ratio would be endless)."""
    if n_taken == 0:
        return "no seat-game took it"
    if n_taken < MIN_GROUP or n_not < MIN_GROUP:
        return (
            f"fewer than {MIN_GROUP} seat-games {'with' if n_taken < MIN_GROUP else 'without'} it"
        )
    for group, n, w in (("with", n_taken, w_taken), ("without", n_not, w_not)):
        if w <= 0 or w >= n:
            return f"the seat-games {group} it {'never' if w <= 0 else 'always'} won"
    return ""


def _fit(
    sm: Any, design: Any, trials: Any, wins: Any, taken: Any, won: Any
) -> tuple[float, float, float, float] | None:
    """The coefficient of "acquired it", its 95% interval and p-value, or ``None`` when the
    fit fails: a binomial GLM over the cells, once without the card and once with it, each
    weighted by its seat-games (the same fit as one row per seat-game)."""
    np = require("numpy")
    n = np.concatenate([trials - taken, taken])
    w = np.concatenate([wins - won, won])
    keep = n > 0
    acquired = np.concatenate([np.zeros(len(trials)), np.ones(len(trials))])
    x = np.column_stack([acquired, np.vstack([design, design])])[keep]
    y = w[keep] / n[keep]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a failed fit is judged by its result below
        try:
            result = sm.GLM(y, x, family=sm.families.Binomial(), freq_weights=n[keep]).fit()
        except (ValueError, np.linalg.LinAlgError):
            return None
    beta, se, p = float(result.params[0]), float(result.bse[0]), float(result.pvalues[0])
    # Seats with the card that always won (or lost) in some seat or with some bot drive the
    # estimate off to no end: its interval then spans more than e**±10, and says nothing.
    if not (result.converged and 0 < se < MAX_SE and abs(beta) < MAX_LOG_ODDS):
        return None
    z = 1.959963984540054
    return beta, beta - z * se, beta + z * se, p


def _flags(taken: Estimate, effect: Effect | None, starter: bool) -> list[str]:
    flags = []
    if taken.value == 0:
        flags.append("starting card" if starter else "never taken")
    elif taken.value < RARE:
        flags.append("rarely taken")
    if effect is not None and effect.stands_out:
        flags.append("stronger" if effect.odds > 1 else "weaker")
    return flags


def _differing(base: RunSpec, spec: RunSpec, index: int) -> dict[str, Any]:
    if index == 0:
        return dict(spec.options)
    return {k: v for k, v in spec.options.items() if base.options.get(k) != v}


# -- reading runs seed by seed ----------------------------------------------------------


def by_seed(
    streams: Sequence[tuple[int, Iterator[tuple[str, GameResult]]]], runs: int
) -> Iterator[list[GameResult | None]]:
    """The games of every run, a seed at a time: ``streams`` are ``(run, games)`` pairs, the
    games of one file each (with where each line is, for errors) in seed order."""
    merged = heapq.merge(
        *(_ordered(run, games) for run, games in streams), key=lambda item: item[0]
    )
    row: list[GameResult | None] = [None] * runs
    where: list[str] = [""] * runs
    current: int | None = None
    for seed, run, line, game in merged:
        if seed != current:
            if current is not None:
                yield row
                row, where = [None] * runs, [""] * runs
            current = seed
        if row[run] is not None:
            raise MeepleError(
                f"{line}: seed {seed} again (also {where[run]}); give each shard once"
            )
        row[run], where[run] = game, line
    if current is not None:
        yield row


def _ordered(
    run: int, games: Iterator[tuple[str, GameResult]]
) -> Iterator[tuple[int, int, str, GameResult]]:
    last = -1
    for line, game in games:
        if game.seed <= last:
            raise MeepleError(
                f"{line}: seed {game.seed} after seed {last}; a run file holds its games in "
                "seed order"
            )
        last = game.seed
        yield game.seed, run, line, game
