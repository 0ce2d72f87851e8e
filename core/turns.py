"""Seats, turn order, rounds, the last round, and seats leaving the order.

Games configure these mechanisms (who starts, when the last round begins,
who leaves) and never re-implement them (architecture contract 5).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from meeple.core.rng import SEED_MAX, Seed

Count = Annotated[int, msgspec.Meta(ge=1, le=SEED_MAX)]
"""A round or turn number as files store it: ``1 <= n <= SEED_MAX``."""


class Turns(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Whose turn it is, in which round, and whether the game is winding down.

    ``order`` lists every seat in turn order starting with the start player; a
    round ends when the turn passes the last seat of ``order``. Seats in
    ``left`` have left the turn order (escaped, knocked out, ...) and are
    skipped. Once ``last_round`` is set the game ends when the round does, so
    that every seat has had the same number of turns.
    """

    # Seats and counters as files store them (``Seed``: 0 to 2**63-1); rounds and turns
    # count from 1, so a file saying 0 is refused rather than played as a round before the first.
    order: list[Seed]
    current: Seed
    round: Count = 1
    turn: Count = 1
    last_round: bool = False
    left: list[Seed] = msgspec.field(default_factory=list)
    over: bool = False

    @classmethod
    def start(cls, seats: int, first: int = 0) -> Turns:
        """Clockwise turn order for ``seats`` seats, ``first`` moving first."""
        order = [(first + i) % seats for i in range(seats)]
        return cls(order=order, current=first)

    @property
    def first(self) -> int:
        """The start player."""
        return self.order[0]

    @property
    def active(self) -> list[int]:
        """Seats still in the turn order, in turn order."""
        return [s for s in self.order if s not in self.left]

    def next(self) -> bool:
        """End the current turn and pass to the next active seat.

        Returns ``True`` when that ends the game: the round ended during the
        last round, or no seat is left in the turn order.
        """
        order = self.order
        n = len(order)
        i = order.index(self.current)
        for _ in range(n):
            i += 1
            if i == n:  # passing the end of the order closes the round
                i = 0
                if self.last_round:
                    self.over = True
                    return True
                self.round += 1
            if order[i] not in self.left:
                self.current = order[i]
                self.turn += 1
                return False
        self.over = True
        return True

    def leave(self, seat: int) -> None:
        """Take ``seat`` out of the turn order for the rest of the game."""
        if seat not in self.left:
            self.left.append(seat)

    def is_last_in_round(self, seat: int) -> bool:
        """Whether no active seat follows ``seat`` before the round ends."""
        after = self.order[self.order.index(seat) + 1 :]
        return all(s in self.left for s in after)
