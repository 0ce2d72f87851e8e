"""``market-offer``: for the rest of the turn, one market item at another price."""

from __future__ import annotations

from typing import Any

from meeple.core.state import Action, Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.catalog import Catalog, Graph
from meeple.plugins.clank.part import S, action, effect, hook
from meeple.plugins.clank.present import effect_text
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import Bought, EngineOptions, Player


class MarketOffer(fx.Effect, frozen=True, tag="market-offer"):
    """For the rest of the turn the seat may buy one Market item for ``price`` gold
    (the item's own conditions still apply): in a Market room, or from any room when
    ``anywhere`` (Golden Flute: 5, anywhere; Ogre Merchant: free, in a Market room)."""

    price: fx.Count
    anywhere: bool = False


class Claim(Action, tag="claim"):
    """Buy market item ``item`` at the price of this turn's offer."""

    item: str


class MarketOfferPack(ClankEngine[S]):
    """The ``market-offer`` pack. The offer lasts the turn: the game keeps it with its other
    per-turn state (:meth:`turn_offer`, :meth:`set_turn_offer`) and clears it at the turn's end.
    """

    def __init__(self, options: EngineOptions | None = None, cat: Catalog | None = None) -> None:
        super().__init__(options, cat)
        self._claim = {k: Claim(item=k) for k in self.cat.market_items}

    @hook
    def turn_offer(self, state: S) -> tuple[int | None, bool]:
        """This turn's offer: its price (``None``: no offer) and whether it holds anywhere."""
        raise NotImplementedError

    @hook
    def set_turn_offer(self, state: S, price: int | None, anywhere: bool) -> None:
        raise NotImplementedError

    @effect(MarketOffer)
    def market_offer(
        self, state: S, seat: int, e: MarketOffer, card: str | None, events: list[Event]
    ) -> None:
        self.set_turn_offer(state, e.price, e.anywhere)

    def _claim_actions(self, state: S, p: Player, graph: Graph, out: list[Any]) -> None:
        """rules.md#offers: the items the seat can claim at the offer's price, where it is."""
        price, anywhere = self.turn_offer(state)
        if price is not None and (anywhere or p.room in graph.markets):
            claim = self._claim
            out.extend(claim[kind] for kind in self._market_kinds(state, p, price))

    @action(Claim)
    def claim(self, state: S, action: Claim) -> list[Event]:
        """rules.md#offers: one market item at the offer's price."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        tid = self._take_from_market(state, action.item)
        price, anywhere = self.turn_offer(state)
        p.gold -= price or 0
        self.set_turn_offer(state, None, anywhere)
        events: list[Event] = [Bought(seat=seat, token=tid)]
        self._gain_token(state, seat, tid)
        return events


@effect_text.register
def _market_offer(e: MarketOffer) -> str:
    where = " from anywhere" if e.anywhere else " in a market"
    return f"buy a market item for {e.price} gold{where}" if e.price else "a free market item"
