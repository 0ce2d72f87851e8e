"""Optional effects: the seat may accept or decline what an effect offers.

Not an effect of its own: the frame and the answer that optional effects share
(``trash-self``, ``may-top-deck``, a game's own such as Catacombs' ``pay-lockpicks``).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from meeple.core.state import Action, Event, Frame
from meeple.plugins.clank.part import S, action, frame, hook
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import SKIP

E = TypeVar("E")


class Offer(Frame, Generic[E], tag="offer"):
    """An optional effect the seat may accept or decline."""

    effect: E
    card: str | None = None


class Accept(Action, tag="accept"):
    pass


ACCEPT = Accept()


class OfferPack(ClankEngine[S]):
    """Offering an effect; each optional effect's pack says what accepting it does."""

    @frame(Offer)
    def accept_or_not(self, state: S, frame: Offer[Any]) -> list[Any]:
        return [ACCEPT, SKIP]

    @action(Accept)
    def accept(self, state: S, action: Accept) -> list[Event]:
        frame = state.stack.pop()
        assert isinstance(frame, Offer)
        events: list[Event] = []
        self.accepted(state, frame, events)
        return events

    @hook
    def accepted(self, state: S, frame: Offer[Any], events: list[Event]) -> None:
        """What accepting ``frame.effect`` does: a pack or game handles its own effects and
        hands the others on (``super().accepted``)."""
        raise NotImplementedError(f"no rule accepts {type(frame.effect).__name__}")
