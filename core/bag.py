"""A bag of cubes drawn blind (a dragon bag, a draw bag of any game).

The bag is data in the state: how many cubes of each colour it holds. Who put
what in is public at a real table, so the counts are public too; only the
order of a draw is chance, and it comes from the state's :class:`Rng`.
"""

from __future__ import annotations

import msgspec

from meeple.core.rng import Rng, stream
from meeple.core.state import Count


class Bag(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Cubes by colour. Colours are strings the game chooses (``"dragon"``, ``"seat-2"``)."""

    cubes: dict[str, Count] = msgspec.field(default_factory=dict)

    def __len__(self) -> int:
        return sum(self.cubes.values())

    def add(self, colour: str, n: int = 1) -> None:
        if n:
            self.cubes[colour] = self.cubes.get(colour, 0) + n

    def remove(self, colour: str, n: int = 1) -> int:
        """Take up to ``n`` cubes of ``colour`` out (not at random); returns how many."""
        have = self.cubes.get(colour, 0)
        n = min(n, have)
        if n == have:
            self.cubes.pop(colour, None)
        else:
            self.cubes[colour] = have - n
        return n

    def draw(self, rng: Rng, n: int) -> list[str]:
        """Draw ``n`` cubes at random (all of them if fewer remain), in draw order."""
        # Sorted colours make the draw independent of the dict's insertion order.
        pool: list[str] = []
        for c in sorted(self.cubes):
            pool += [c] * self.cubes[c]
        picks = stream(rng)
        drawn = []
        for _ in range(min(n, len(pool))):
            cube = pool.pop(picks.below(len(pool)))
            self.remove(cube)
            drawn.append(cube)
        return drawn
