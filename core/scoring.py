"""Scores as per-seat breakdowns, and ranking with shared ties (contract 6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import msgspec

Points = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
"""Points as files store them: 64-bit integers, which every reader takes and a mean can sum
(a larger number read from a file would overflow the statistics' floats)."""


class Score(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One seat's final score.

    ``parts`` is the breakdown by category in the order a rulebook's score pad
    lists them (their sum is ``total``). ``tiebreak`` holds the rules'
    tie-break keys in order, each oriented so that *higher is better* (a game
    whose rule is "fewer eyes wins" stores minus the eyes). ``note`` says in
    a few words what shaped the score ("escaped", "eliminated in the depths").
    """

    seat: int
    total: Points
    parts: dict[str, Points] = msgspec.field(default_factory=dict)
    tiebreak: list[Points] = msgspec.field(default_factory=list)
    note: str = ""


def rank(scores: Sequence[Score]) -> list[int]:
    """The place of each score (1 is best), in the order given.

    Seats equal on the total and every tie-break key share a place -- a shared
    victory when that place is 1 -- and the next place skips accordingly
    (1, 1, 3).
    """
    keys = [(s.total, *s.tiebreak) for s in scores]
    return [1 + sum(other > key for other in keys) for key in keys]


def winners(scores: Sequence[Score]) -> list[int]:
    """The seats in first place."""
    return [s.seat for s, place in zip(scores, rank(scores), strict=True) if place == 1]
