"""Seeded, replayable randomness (architecture contract 3).

Every random draw of a game derives from the setup's seed plus a counter kept
in the state, so the same setup and the same actions give the same game on any
machine and Python version. Each draw builds ``random.Random(f"{seed}/{n}")``:
string seeding and ``random()`` are the parts of the stdlib generator that
CPython promises to keep stable, so shuffles and choices are built on
``random()`` alone (our own Fisher-Yates), never on ``shuffle``/``randrange``.

Plugins never import :mod:`random`; they call these functions.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Annotated, TypeVar

import msgspec

T = TypeVar("T")

SEED_MAX = 2**63 - 1
"""The largest seed, and the largest value of any counter in a saved state: files hold
64-bit integers, and a larger number cannot round-trip through every reader."""

Seed = Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
"""A seed or counter as files store it: ``0 <= n <= SEED_MAX``."""


class Rng(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The random state stored in a game state: the seed and how many draws were made."""

    seed: Seed
    counter: Seed = 0


class Stream:
    """A sequence of random numbers fixed by a string key.

    Used where one decision needs many numbers (a shuffle) and by bots, whose
    choices must be as replayable as the game itself.
    """

    __slots__ = ("_random",)

    def __init__(self, key: str) -> None:
        self._random = random.Random(key)

    def random(self) -> float:
        return self._random.random()

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``; ``n`` must be positive."""
        return int(self._random.random() * n)

    def choice(self, items: Sequence[T]) -> T:
        return items[int(self._random.random() * len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates over ``random()``, identical on every CPython version."""
        rand = self._random.random
        for i in range(len(items) - 1, 0, -1):
            j = int(rand() * (i + 1))
            items[i], items[j] = items[j], items[i]


def stream(rng: Rng) -> Stream:
    """Take the next stream from a game's random state (advancing its counter)."""
    rng.counter += 1
    return Stream(f"{rng.seed}/{rng.counter}")


def shuffle(rng: Rng, items: MutableSequence[T]) -> None:
    """Shuffle ``items`` in place with the next stream of ``rng``."""
    stream(rng).shuffle(items)


def below(rng: Rng, n: int) -> int:
    """One uniform integer in ``range(n)`` from the next stream of ``rng``."""
    return stream(rng).below(n)


def bot_stream(seed: int, seat: int, name: str) -> Stream:
    """The private stream of the bot ``name`` playing ``seat`` in a game seeded ``seed``."""
    return Stream(f"{seed}/bot/{seat}/{name}")
