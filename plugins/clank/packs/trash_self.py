"""``trash-self``: the card leaves the game from the play area, then something happens."""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.packs.offer import Offer, OfferPack
from meeple.plugins.clank.part import S, effect
from meeple.plugins.clank.present import effect_text, effects_text
from meeple.plugins.clank.state import Trashed


class TrashSelf(fx.Effect, frozen=True, tag="trash-self"):
    """This card leaves the game from the play area; then ``then`` happens.

    ``optional`` lets the seat keep the card (and forgo ``then``): Payoff must go,
    Waystone may.
    """

    optional: bool = False
    then: list[fx.Effect] = []


class TrashSelfPack(OfferPack[S]):
    """The ``trash-self`` pack (with the offer it makes when optional)."""

    @effect(TrashSelf)
    def trash_self(
        self, state: S, seat: int, e: TrashSelf, card: str | None, events: list[Event]
    ) -> None:
        """``trash-self``: the card leaves the game from the play area, then ``then``."""
        if card is None or card not in state.players[seat].play.cards:
            return
        if e.optional:
            state.stack.append(Offer(seat=seat, effect=e, card=card))
        else:
            self._trash_from_play(state, seat, card, e, events)

    def _trash_from_play(
        self, state: S, seat: int, card: str, e: TrashSelf, events: list[Event]
    ) -> None:
        state.players[seat].play.remove(card)
        state.trash.add(card)
        events.append(Trashed(seat=seat, card=card))
        state.pool.queue[:0] = self._pending(e.then, card)

    def accepted(self, state: S, frame: Offer[Any], events: list[Event]) -> None:
        e = frame.effect
        if not isinstance(e, TrashSelf):
            return super().accepted(state, frame, events)
        assert frame.card is not None
        self._trash_from_play(state, frame.seat, frame.card, e, events)


@effect_text.register
def _trash_self(e: TrashSelf) -> str:
    said = "may trash this card" if e.optional else "trash this card"
    return f"{said}, then {effects_text(e.then)}" if e.then else said
