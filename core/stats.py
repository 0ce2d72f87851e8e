"""Statistics of simulation runs: win rates, scores, outcomes and game length, with intervals.

Everything here reads :class:`~meeple.core.runner.GameResult` values one at a
time and keeps running totals only (counts, Welford means), so a summary of a
million games takes the memory of a summary of ten, and results from several
shards can be fed to one accumulator in any order.

The intervals are 95% intervals:

- a rate (a win rate, an outcome share) gets the Wilson score interval, which
  stays inside [0, 1] and is sound for rates near 0 or 1 and for few games;
- a mean (a score, a game length, a paired difference) gets the normal
  interval ``mean ± 1.96 · s / √n``, which is close to Student's t from about
  30 games on and somewhat too narrow below that.

A shared victory counts ``1/k`` of a win for each of its ``k`` winners. The
Wilson interval then takes the fractional win total as its successes: a seat's
result is a number between 0 and 1 whose variance is at most that of a win or
a loss with the same mean, so the interval is, if anything, a little too wide.
"""

from __future__ import annotations

import copy
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from statistics import NormalDist

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from meeple.core.errors import MeepleError
from meeple.core.runner import GameResult

LEVEL = 0.95
"""The confidence level of every interval."""

Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)
"""1.959963...: the normal quantile of a two-sided 95% interval."""

SIGNIFICANCE = 0.05
"""Below this p-value, seat differences are called significant."""


class Estimate(msgspec.Struct, frozen=True, kw_only=True):
    """A value and its 95% interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval (for a difference: 0, no difference)."""
        return not self.low <= value <= self.high


def wilson(successes: float, trials: int, z: float = Z) -> Estimate:
    """The rate ``successes / trials`` with its Wilson score interval.

    ``successes`` may be fractional (shared wins). With no trials the rate is
    unknown: 0 in the interval ``[0, 1]``.
    """
    if trials == 0:
        return Estimate(value=0.0, low=0.0, high=1.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # At p = 0 or 1 an end is exactly 0 or 1, which rounding would miss by a hair.
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return Estimate(value=p, low=low, high=high)


class Running:
    """Count, mean, spread (Welford's sums), least and greatest of numbers seen one by one."""

    __slots__ = ("count", "high", "low", "m2", "mean")

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.low = math.inf
        self.high = -math.inf

    def add(self, x: float, times: int = 1) -> None:
        """Take in ``x``, ``times`` times over (Chan's update for a block of equal values)."""
        if times <= 0:
            return
        n = self.count + times
        delta = x - self.mean
        self.mean += delta * times / n
        self.m2 += delta * delta * self.count * times / n
        self.count = n
        self.low = min(self.low, x)
        self.high = max(self.high, x)

    def estimate(self, z: float = Z) -> Estimate:
        """The mean with its normal interval (zero-width for fewer than two values)."""
        if self.count < 2:
            return Estimate(value=self.mean, low=self.mean, high=self.mean)
        half = z * math.sqrt(self.m2 / (self.count - 1) / self.count)
        return Estimate(value=self.mean, low=self.mean - half, high=self.mean + half)

    def measure(self) -> Measure:
        return Measure(
            mean=self.estimate(),
            min=self.low if self.count else 0.0,
            max=self.high if self.count else 0.0,
        )


class Measure(msgspec.Struct, frozen=True, kw_only=True):
    """A quantity measured once per game or seat: its mean with its interval, and its range."""

    mean: Estimate
    min: float
    max: float


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` degrees of freedom.

    The closed forms for whole ``df``: ``erfc(√(x/2))`` for 1, ``exp(-x/2)`` for
    2, then ``Q(x, k + 2) = Q(x, k) + (x/2)^(k/2) e^(-x/2) / Γ(k/2 + 1)``.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    k = 2 - df % 2
    q = math.exp(-half) if k == 2 else math.erfc(math.sqrt(half))
    while k < df:
        q += math.exp(k / 2 * math.log(half) - half - math.lgamma(k / 2 + 1))
        k += 2
    return min(q, 1.0)


class SeatTest(msgspec.Struct, frozen=True, kw_only=True):
    """Pearson's chi-square test of the seats' win totals against equal shares."""

    statistic: float
    df: int
    p: float | None
    """``None`` when the test does not apply: fewer than 5 expected wins a seat."""
    balanced: bool
    """Whether every seat held the same bots equally often; if not, seat and bot are mixed up."""
    verdict: str
    """The result in plain words."""


def seat_test(wins: Sequence[float], balanced: bool = True) -> SeatTest:
    """Whether the seats' win totals differ more than chance would make them."""
    games, seats = sum(wins), len(wins)
    expected = games / seats if seats else 0.0
    df = seats - 1
    if df < 1 or expected < 5:
        return SeatTest(
            statistic=0.0,
            df=max(df, 0),
            p=None,
            balanced=balanced,
            verdict="too few games to test the seats (at least 5 wins a seat expected)",
        )
    statistic = sum((w - expected) ** 2 for w in wins) / expected
    p = chi_square_sf(statistic, df)
    if p < SIGNIFICANCE:
        best = max(range(seats), key=lambda s: wins[s])
        verdict = (
            f"seat differences are significant (p = {p:.2g}): "
            f"seat {best} wins most ({wins[best] / games:.1%})"
        )
    else:
        verdict = f"seat differences are within noise (p = {p:.2f})"
    if not balanced:
        verdict += (
            "; but the seats did not hold the same bots equally often, so this mixes seat and "
            f"bot (use --rotate with a multiple of {seats} games)"
        )
    return SeatTest(statistic=statistic, df=df, p=p, balanced=balanced, verdict=verdict)


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """One row of a summary: a seat or a bot, over every game it played."""

    name: str
    """The seat number, or the bot."""
    bot: str | None
    """For a seat: the bot that held it in every game, if one did."""
    games: int
    """Seats played: a bot in two seats of a game counts two."""
    wins: float
    """Games won, a shared victory counting 1/k for each of its k winners."""
    win_rate: Estimate
    """Wins per seat played, with its Wilson interval."""
    score: Measure
    """The final total, with the normal interval of its mean."""
    outcomes: dict[str, Estimate]
    """The share of seats played that ended with each score note, with Wilson intervals."""


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``meeple simulate`` and ``meeple stats`` report, as ``--json`` writes it."""

    games: int
    seats: list[Player]
    bots: list[Player]
    """Sorted by name."""
    decisions: Measure
    """Decisions (actions) per game."""
    rounds: Measure
    """Rounds per game."""
    seat_test: SeatTest


def shares(result: GameResult) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` winners, else 0."""
    firsts = result.places.count(1)
    return [1 / firsts if place == 1 else 0.0 for place in result.places]


class _Tally:
    """The running totals of one seat or bot."""

    __slots__ = ("bots", "games", "notes", "scores", "wins")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0
        self.scores = Running()
        self.notes: Counter[str] = Counter()
        self.bots: Counter[str] = Counter()

    def add(self, bot: str, share: float, total: int, note: str) -> None:
        self.games += 1
        self.wins += share
        self.scores.add(total)
        self.bots[bot] += 1
        if note:
            self.notes[note] += 1

    def player(self, name: str, bot: str | None) -> Player:
        return Player(
            name=name,
            bot=bot,
            games=self.games,
            wins=self.wins,
            win_rate=wilson(self.wins, self.games),
            score=self.scores.measure(),
            outcomes={note: wilson(n, self.games) for note, n in sorted(self.notes.items())},
        )


class Tally:
    """A summary built one game at a time in constant memory: ``add`` results, then ``summary``."""

    def __init__(self) -> None:
        self.games = 0
        self._seats: dict[int, _Tally] = defaultdict(_Tally)
        self._bots: dict[str, _Tally] = defaultdict(_Tally)
        self._decisions = Running()
        self._rounds = Running()

    def add(self, result: GameResult) -> None:
        self.games += 1
        for score, share in zip(result.scores, shares(result), strict=True):
            bot = result.seats[score.seat]
            for tally in (self._seats[score.seat], self._bots[bot]):
                tally.add(bot, share, score.total, score.note)
        self._decisions.add(result.decisions)
        self._rounds.add(result.rounds)

    def summary(self) -> Summary:
        numbers = sorted(self._seats)
        seats = [self._seats[s] for s in numbers]
        # A seat test is fair when each seat held each bot equally often (one bot, or rotation).
        balanced = all(t.bots == seats[0].bots for t in seats)
        return Summary(
            games=self.games,
            seats=[
                t.player(str(s), next(iter(t.bots)) if len(t.bots) == 1 else None)
                for s, t in zip(numbers, seats, strict=True)
            ],
            bots=[self._bots[b].player(b, None) for b in sorted(self._bots)],
            decisions=self._decisions.measure(),
            rounds=self._rounds.measure(),
            seat_test=seat_test([t.wins for t in seats], balanced),
        )


def summarize(results: Iterable[GameResult]) -> Summary:
    """The summary of ``results``, read one at a time."""
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary()


# -- paired comparison ---------------------------------------------------------


def measures(result: GameResult) -> dict[str, float]:
    """What a comparison compares in one game: each seat's win share, length, outcome shares.

    An outcome share is the fraction of the game's seats whose score has that note.
    """
    found: dict[str, float] = {
        f"seat {score.seat} win rate": share
        for score, share in zip(result.scores, shares(result), strict=True)
    }
    found["decisions"] = result.decisions
    found["rounds"] = result.rounds
    notes = Counter(score.note for score in result.scores if score.note)
    seats = len(result.scores)
    found.update((f"{note} share", n / seats) for note, n in sorted(notes.items()))
    return found


class Difference(msgspec.Struct, frozen=True, kw_only=True):
    """One measure under the base variant and another, and their paired difference."""

    measure: str
    base: Estimate
    other: Estimate
    difference: Estimate
    """``other - base``, seed by seed, with the normal interval of its mean."""


class Paired:
    """Paired differences between two variants played on the same seeds, one seed at a time.

    Playing both variants on each seed and comparing game by game cancels what
    the seeds share, and the interval of the mean difference says whether the
    variants differ beyond noise: it excludes 0.
    """

    def __init__(self) -> None:
        self.games = 0
        self._runs: dict[str, tuple[Running, Running, Running]] = {}

    def add(self, base: GameResult, other: GameResult) -> None:
        if base.seed != other.seed:
            raise ValueError(f"seed {base.seed} paired with seed {other.seed}")
        self.games += 1
        a, b = measures(base), measures(other)
        for key in a.keys() | b.keys():
            runs = self._runs.setdefault(key, (Running(), Running(), Running()))
            x, y = a.get(key, 0.0), b.get(key, 0.0)
            for run, value in zip(runs, (x, y, y - x), strict=True):
                run.add(value)

    def differences(self) -> list[Difference]:
        """One row per measure: win rates by seat, then game length, then outcomes by name."""

        def order(key: str) -> tuple[int, int, str]:
            if key.startswith("seat "):
                return 0, int(key.split()[1]), key
            return (1 if key in ("decisions", "rounds") else 2), 0, key

        def estimate(run: Running) -> Estimate:
            # A measure absent from a game (an outcome no seat had) was 0 there.
            run = copy.copy(run)
            run.add(0.0, self.games - run.count)
            return run.estimate()

        rows = []
        for key in sorted(self._runs, key=order):
            base, other, diff = map(estimate, self._runs[key])
            rows.append(Difference(measure=key, base=base, other=other, difference=diff))
        return rows


# -- ratings -------------------------------------------------------------------


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """A bot's Plackett-Luce rating: skill ``mu`` with uncertainty ``sigma``."""

    bot: str
    games: int
    mu: float
    sigma: float
    low: float
    """``mu - 2 sigma``: with ``high``, the range the skill lies in with about 95% belief."""
    high: float
    """``mu + 2 sigma``."""
    ordinal: float
    """``mu - 3 sigma``, openskill's conservative skill: ratings sort by it."""


class Ratings:
    """The openskill Plackett-Luce ratings of bots, updated one game at a time.

    Each game updates the ratings of its seats from their places (a shared
    place is a tie), so the ratings depend on the order of the games: add them
    in seed order for ratings that do not depend on how the games were played.
    A bot may sit only once in each game.
    """

    def __init__(self) -> None:
        self._model = PlackettLuce()
        self._current: dict[str, PlackettLuceRating] = {}
        self._games: Counter[str] = Counter()

    def add(self, result: GameResult) -> None:
        if len(set(result.seats)) < len(result.seats):
            raise MeepleError(f"seed {result.seed}: a bot sits twice ({', '.join(result.seats)})")
        current, model = self._current, self._model
        bots = [result.seats[score.seat] for score in result.scores]
        teams = [[current[bot] if bot in current else model.rating(name=bot)] for bot in bots]
        rated = model.rate(teams, ranks=[float(place) for place in result.places])
        for bot, [rating] in zip(bots, rated, strict=True):
            current[bot] = rating
            self._games[bot] += 1

    def ratings(self) -> list[Rating]:
        """Every bot's rating, best (highest ordinal) first."""
        rows = [
            Rating(
                bot=bot,
                games=self._games[bot],
                mu=r.mu,
                sigma=r.sigma,
                low=r.mu - 2 * r.sigma,
                high=r.mu + 2 * r.sigma,
                ordinal=r.ordinal(),
            )
            for bot, r in self._current.items()
        ]
        return sorted(rows, key=lambda r: (-r.ordinal, r.bot))
