"""What ``meeple tune`` searches and what it aims at: a game's options, a target, paired seeds.

A :class:`Space` is the options searched, each a range of numbers or a list of choices, read
from the option's declared type (``int``, ``float``, ``bool``, a ``Literal`` or an enum). A
:class:`Target` scores the games of one trial (lower is nearer) and says how near, with a
95% interval. Every trial plays the same seeds with the same bots, so two trials differ by
their options alone (paired seeds). The search itself is optuna's (the ``tune`` extra),
driven by :mod:`meeple.cli.tune`.
"""

from __future__ import annotations

import enum
import math
import typing
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from meeple.core.errors import MeepleError, echo
from meeple.core.game import Options
from meeple.core.runner import GameResult, RunSpec
from meeple.core.stats import Estimate, Running, shares, wilson

Value = int | float | str | bool


class Axis(msgspec.Struct, frozen=True, kw_only=True):
    """One option searched: a range of numbers (``low``..``high``) or a list of choices."""

    name: str
    kind: Literal["int", "float", "choice"]
    low: float = 0
    high: float = 0
    choices: list[Value] = []


def _plain(hint: Any) -> Any:
    """The type under ``Annotated`` (its bounds are kept by :func:`_bounds`)."""
    return typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint


def _bounds(hint: Any) -> tuple[float | None, float | None]:
    low = high = None
    for meta in typing.get_args(hint)[1:] if typing.get_origin(hint) is typing.Annotated else ():
        if isinstance(meta, msgspec.Meta):
            low = meta.ge if meta.ge is not None else meta.gt
            high = meta.le if meta.le is not None else meta.lt
    return low, high


def axis(options: type[Options], text: str) -> Axis:
    """``NAME``, ``NAME=LOW..HIGH`` or ``NAME=A,B,C`` as an :class:`Axis` of ``options``."""
    name, sep, given = (part.strip() for part in text.partition("="))
    hints = typing.get_type_hints(options, include_extras=True)
    if name not in hints:
        known = ", ".join(sorted(hints)) or "none"
        raise MeepleError(f"--search {echo(text)}: no option {echo(name)} (options: {known})")
    hint = hints[name]
    plain = _plain(hint)
    if plain is bool:
        choices: list[Value] = [False, True]
    elif typing.get_origin(plain) is Literal:
        choices = list(typing.get_args(plain))
    elif isinstance(plain, type) and issubclass(plain, enum.Enum):
        choices = [member.value for member in plain]
    elif plain in (int, float):
        kind: Literal["int", "float"] = "int" if plain is int else "float"
        low, high = _bounds(hint)
        if sep:
            lo, _, hi = given.partition("..")
            try:
                low, high = (int(lo), int(hi)) if kind == "int" else (float(lo), float(hi))
            except ValueError:
                raise MeepleError(
                    f"--search {echo(text)}: write a range of {kind}s as {name}=LOW..HIGH"
                ) from None
        if low is None or high is None:
            raise MeepleError(
                f"--search {echo(text)}: {name} is not bounded; give its range: {name}=LOW..HIGH"
            )
        if not low < high:
            raise MeepleError(f"--search {echo(text)}: the range's low end must be below its high")
        return Axis(name=name, kind=kind, low=low, high=high)
    else:
        raise MeepleError(
            f"--search {echo(text)}: {name} is neither a number nor a choice "
            "(an int, a float, a bool, a Literal or an enum), so it cannot be searched"
        )
    if sep:
        picked = [c.strip() for c in given.split(",")]
        shown = {str(c).lower() if isinstance(c, bool) else str(c): c for c in choices}
        unknown = [c for c in picked if c not in shown]
        if unknown:
            raise MeepleError(
                f"--search {echo(text)}: {echo(unknown[0])} is not one of {name}'s values "
                f"({', '.join(shown)})"
            )
        choices = [shown[c] for c in picked]
    return Axis(name=name, kind="choice", choices=choices)


class Aim(msgspec.Struct, frozen=True, kw_only=True):
    """How near one trial's games came to the target: ``distance`` is minimized."""

    distance: float
    estimate: Estimate
    """The measure itself, with its 95% interval."""
    words: str
    """What the estimate is, in a few words."""


class Target:
    """A stated target: what a trial's games (of ``spec``, the game having card ``kinds``)
    are scored by. ``card_facts`` says whether they must record card facts."""

    card_facts = False
    text = ""

    def aim(self, spec: RunSpec, games: Sequence[GameResult], kinds: set[str]) -> Aim:
        raise NotImplementedError


class Seats(Target):
    """Seats balanced: no seat's win rate far from an equal share."""

    text = "seats"

    def aim(self, spec: RunSpec, games: Sequence[GameResult], kinds: set[str]) -> Aim:
        seats = len(games[0].places)
        wins = [0.0] * seats
        for game in games:
            for seat, share in enumerate(shares(game)):
                wins[seat] += share
        # Pearson's chi-square statistic of the seats' wins against equal shares, per game,
        # so that trials of any length compare.
        expected = len(games) / seats
        distance = sum((w - expected) ** 2 for w in wins) / expected / len(games)
        farthest = max(range(seats), key=lambda s: abs(wins[s] / len(games) - 1 / seats))
        rate = wilson(wins[farthest], len(games))
        words = f"the win rate of the seat farthest from an equal share ({1 / seats:.1%})"
        return Aim(distance=distance, estimate=rate, words=words)


class Length(Target):
    """Mean game length near ``rounds`` rounds."""

    def __init__(self, rounds: float) -> None:
        self.rounds = rounds
        self.text = f"length={rounds:g}"

    def aim(self, spec: RunSpec, games: Sequence[GameResult], kinds: set[str]) -> Aim:
        running = Running()
        for game in games:
            running.add(game.rounds)
        mean = running.estimate()
        return Aim(distance=abs(mean.value - self.rounds), estimate=mean, words="mean rounds")


class Card(Target):
    """A named card kind's adjusted effect on winning near none (an odds ratio of 1)."""

    card_facts = True

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.text = f"card={kind}"

    def aim(self, spec: RunSpec, games: Sequence[GameResult], kinds: set[str]) -> Aim:
        from meeple.core.balance import Balance  # the report extra's statistics

        counts = Balance([spec])
        for game in games:
            counts.add([game])
        found = [c for c in counts.report(kinds=kinds).cards if c.kind == self.kind]
        effect = found[0].effect if found else None
        if effect is None:
            # Taken by every seat or by none: no effect can be told; the farthest from aim.
            untested = Estimate(value=math.nan, low=0, high=math.inf)
            words = f"{self.kind}'s odds ratio (untested: taken by every seat or by none)"
            return Aim(distance=math.inf, estimate=untested, words=words)
        return Aim(
            distance=abs(math.log(effect.odds)),
            estimate=Estimate(value=effect.odds, low=effect.low, high=effect.high),
            words=f"{self.kind}'s adjusted odds ratio of winning (none: 1)",
        )


def target(text: str) -> Target:
    """``seats``, ``length=N`` or ``card=KIND`` as a :class:`Target`."""
    name, sep, value = (part.strip() for part in text.partition("="))
    if name == "seats" and not sep:
        return Seats()
    if name == "length" and sep:
        try:
            rounds = float(value)
        except ValueError:
            rounds = math.nan
        if math.isfinite(rounds) and rounds > 0:
            return Length(rounds)
    if name == "card" and sep and value:
        return Card(value)
    raise MeepleError(
        f"--target {echo(text)}: write seats (seats balanced), length=N (mean game length near "
        "N rounds) or card=KIND (a card kind's adjusted effect near none)"
    )
