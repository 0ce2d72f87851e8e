"""The base types every game's state, actions, events and decisions build on.

A game subclasses each with a tag (``class TinyState(State, tag="tiny")``)
and lists its own fields. Options shared by every save file -- strict
decoding, keyword-only construction -- live here, once (architecture
contract 1: state is data).

- :class:`State` holds the seat count, the random state, the turn order and
  the *decision stack*: pending decisions, the top one being the one to
  answer now. A game redeclares ``stack`` with its own union of frames.
- :class:`Frame` is one pending decision: which seat must answer it, plus
  whatever the game needs to list the answers (the card being resolved,
  the options left, ...). Saving a game in the middle of an effect saves
  its frames, so a resumed game goes on exactly where it stopped.
- :class:`Action` is one answer to the top frame (tagged by ``type``).
- :class:`Event` is something that happened, for logs, observers and UIs.
"""

from __future__ import annotations

from typing import Any, dataclass_transform

import msgspec

from meeple.core.rng import Rng, Seed
from meeple.core.turns import Turns

Count = Seed
"""A count or an index a state stores (cubes, gold, a room, a seat): ``0 <= n <= SEED_MAX``.

Every integer of a saved state has a range, so a number no reader can hold
(above 2**64) or a negative counter is refused with its ``$.path`` on decoding.
"""


class Frame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="frame"):
    """A pending decision of ``seat``."""

    seat: Count


class State(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="game"):
    """Fields every game state has. The tag is the game id."""

    seats: Count
    rng: Rng
    turns: Turns
    stack: list[Any]
    """The pending decisions (:class:`Frame` subclasses), the top one last.

    Typed ``list[Any]`` here because each game narrows it to its own frames
    (``stack: list[Dig | Feed]``), and a list type cannot be narrowed.
    """

    @property
    def to_move(self) -> int | None:
        """The seat that must answer the top decision, or ``None`` when the game is over."""
        stack = self.stack
        return stack[-1].seat if stack else None


# A frozen base's subclasses are frozen too, as msgspec makes them at run time: without
# ``frozen_default`` a type checker takes a subclass that does not repeat ``frozen=True`` for a
# mutable dataclass deriving from a frozen one (and mypy reads only the decorator written out).
@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class Action(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """One answer to the decision on top of the stack. Frozen: actions are values."""


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class Event(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="event"
):
    """Something that happened. ``seat`` is who did it or whom it concerns."""

    seat: int | None = None
