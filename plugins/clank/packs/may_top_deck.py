"""``may-top-deck``: a card just acquired may go on top of the deck instead."""

from __future__ import annotations

from meeple.core.state import Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.packs.offer import Offer, OfferPack
from meeple.plugins.clank.part import S, effect
from meeple.plugins.clank.present import effect_text


class MayTopDeck(fx.Effect, frozen=True, tag="may-top-deck"):
    """(``acquire`` only) The seat may put the card it just acquired on top of its deck
    instead of into its discard pile."""


class MayTopDeckPack(OfferPack[S]):
    """The ``may-top-deck`` pack (an offer)."""

    @effect(MayTopDeck)
    def may_top_deck(
        self, state: S, seat: int, e: MayTopDeck, card: str | None, events: list[Event]
    ) -> None:
        """Offered only while its card lies in the discard pile."""
        if card in state.players[seat].discard.cards:
            state.stack.append(Offer(seat=seat, effect=e, card=card))

    def accepted(self, state: S, frame: Offer[fx.Effect], events: list[Event]) -> None:
        if not isinstance(frame.effect, MayTopDeck):
            return super().accepted(state, frame, events)
        card = frame.card
        assert card is not None
        p = state.players[frame.seat]
        p.discard.remove(card)
        p.deck.add(card)


@effect_text.register
def _may_top_deck(e: MayTopDeck) -> str:
    return "may go on top of your deck"
