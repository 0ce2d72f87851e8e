"""What a turn takes with its Skill, swords and gold: the Dungeon Row, the Reserve, the market.

:class:`Cards` is the engine's part for the cards and items on offer: the turn's listing of
what it can acquire, use, fight or buy (rules.md#acquire, rules.md#device, rules.md#fight,
rules.md#market, rules.md#gem-discount), the rules carrying those out, a card played and a
potion spent (rules.md#turn, rules.md#tokens). The row's offers are built once per catalog
and kept by the cards lying there, so a listing reads them rather than building them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank import content
from meeple.plugins.clank.catalog import Catalog, Graph
from meeple.plugins.clank.part import Part, S, action, hook, shared
from meeple.plugins.clank.resolve import ACQUIRED_GEM, GEM_DISCOUNT
from meeple.plugins.clank.state import (
    Acquire,
    Acquired,
    Bought,
    Buy,
    EngineState,
    Fight,
    Pending,
    Play,
    Played,
    Player,
    UseDevice,
    UseToken,
)

OFFERS_KEPT = 256
"""Row offers a game object keeps: a turn asks for the same one at every decision, a search
for those of the states it visits."""

Offered = tuple[str, content.Card, Any, bool, int]
"""A card of the row or a Reserve top as :meth:`Cards._card_actions` reads it: its id,
its definition, the action taking it (fight, use or acquire), whether swords pay for it, and
the least Skill (or swords) that can: its cost, 0 for a gem (rules.md#gem-discount). A plain
tuple: unpacking it in the loop is faster than a named one's."""


@lru_cache(maxsize=16)
def on_offer(cat: Catalog) -> dict[str, Offered]:
    """Every card of ``cat`` as it would lie on offer, built once per catalog (and shared, as
    the catalog is, by every game on it): a row offer is then a lookup per card."""
    cards = tuple(cat.card)
    takes = {"monster": shared(Fight, "card", cards), "device": shared(UseDevice, "card", cards)}
    acquire = shared(Acquire, "card", cards)
    out: dict[str, Offered] = {}
    for c, card in cat.card.items():
        take = takes.get(card.kind, acquire)[c]
        out[c] = (c, card, take, card.kind == "monster", 0 if card.gem else card.cost)
    return out


class Cards(Part[S]):
    """The cards and items on offer, and the rules that take them."""

    _on_offer: dict[str, Offered]
    _offer: Callable[[tuple[str, ...]], tuple[Offered, ...]]
    _plays: Callable[[str], tuple[Pending[Any], ...]]

    def _card_actions(
        self, state: S, p: Player, graph: Graph, skill: int, swords: int, out: list[Any]
    ) -> None:
        """rules.md#acquire, rules.md#device, rules.md#fight over the row and the Reserve."""
        cards = list(state.row.cards)
        for z in state.reserve:  # the tops of the Reserve's piles
            if z.cards:
                cards.append(z.cards[-1])
        for c, card, act, by_swords, least in self._offer(tuple(cards)):
            if (swords if by_swords else skill) < least:
                continue  # out of reach whatever else holds (the common case)
            where = card.where
            if where is not None and not self.where_ok(graph, p.room, where):
                continue
            kind = card.kind
            if kind == "monster":
                if swords >= card.cost:
                    out.append(act)
            elif kind == "device":
                if skill >= card.cost and self.can_use(state, p, c):
                    out.append(act)
            # only a gem's price can fall below its cost (rules.md#gem-discount)
            elif skill >= card.cost or (card.gem and skill >= self._skill_price(state, card)):
                out.append(act)

    def _offer_of(self, cards: tuple[str, ...]) -> tuple[Offered, ...]:
        """Each distinct card of ``cards`` (the Dungeon Row and the Reserve's tops) as
        :meth:`_card_actions` reads it. They change only on an acquire, a fight or a refill,
        so :meth:`_card_actions` keeps them by those cards (the last :data:`OFFERS_KEPT`)."""
        offered = self._on_offer
        offer = []
        for c in self.cat.distinct(cards):
            offer.append(offered[c])
        return tuple(offer)

    @staticmethod
    def _skill_price(state: EngineState[Any, Any], card: Any) -> int:
        """rules.md#gem-discount: a card's Skill cost, gems cheaper under the discount."""
        if card.gem:
            return max(card.cost - 2 * state.pool.mods.count(GEM_DISCOUNT), 0)
        return card.cost

    @hook
    def can_use(self, state: S, p: Player, card: str) -> bool:
        """Whether the seat can pay a device's price beyond its Skill (nothing more here)."""
        return True

    @hook
    def where_ok(self, graph: Any, room: int, where: str) -> bool:
        """rules.md#acquire: a card limited to the depths or a crystal cave."""
        return room in (graph.depths if where == "depths" else graph.caves)

    def _market_actions(self, state: S, p: Player, out: list[Any]) -> None:
        """rules.md#market: one item kind per action, if the seat has the gold."""
        buy = self.acts.buy
        out.extend(buy[kind] for kind in self._market_kinds(state, p, None))

    def _market_kinds(self, state: S, p: Player, price: int | None) -> list[str]:
        """The market item kinds the seat can pay for, at their price or at ``price``."""
        token = self.cat.token
        kinds: list[str] = []
        for tid in state.market.cards:
            tok = token[tid]
            cost = tok.price if price is None else price
            if tok.id not in kinds and p.gold >= cost and self.may_buy(p, tid):
                kinds.append(tok.id)
        return kinds

    def _take_from_market(self, state: S, kind: str) -> str:
        """The most valuable item of ``kind`` left leaves the market (its token id)."""
        token = self.cat.token
        tid = next(t for t in state.market.cards if token[t].id == kind)
        state.market.remove(tid)
        return tid

    @hook
    def may_buy(self, p: Player, tid: str) -> bool:
        """Whether the seat meets a market item's condition beyond its price (none here)."""
        return True

    # -- the rules that take them --------------------------------------------------

    @action(Play)
    def play_card(self, state: S, action: Play) -> list[Event]:
        """rules.md#turn: the card goes to the play area and its effects happen."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        card = action.card
        p.hand.remove(card)
        p.play.add(card)
        state.pool.queue.extend(self._plays(card))
        events: list[Event] = [Played(seat=seat, card=card)]
        return events

    def _play_effects(self, card: str) -> tuple[Pending[Any], ...]:
        """The play effects of ``card`` as they wait in the queue. Pending values are
        frozen, so every state's queue may share them: :meth:`play_card` keeps them by card."""
        return tuple(self._pending(self.cat.card[card].play, card))

    def _take_card(self, state: S, card: str) -> None:
        """A card leaves the row or the top of its Reserve pile (the row refills at the end)."""
        if card in state.row.cards:
            state.row.remove(card)
            return
        for zone in state.reserve:
            if zone.cards and zone.cards[-1] == card:
                zone.draw()
                return

    @action(Acquire)
    def acquire(self, state: S, action: Acquire) -> list[Event]:
        """rules.md#acquire: pay skill, the card into the discard pile, its acquire effects."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        self.pay_skill(state, self._skill_price(state, card))
        if card.gem:  # a discount played later may pay some back (rules.md#gem-discount)
            state.pool.done.append(ACQUIRED_GEM + action.card)
        self._take_card(state, action.card)
        state.players[seat].discard.add(action.card)
        state.pool.queue.extend(self._pending(card.acquire, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card)]
        return events

    @action(UseDevice)
    def use_device(self, state: S, action: UseDevice) -> list[Event]:
        """rules.md#device: pay skill, the use effects, the card to the dungeon discard."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        self.pay_device(state, seat, action.card)
        self._take_card(state, action.card)
        state.dungeon_discard.add(action.card)
        state.pool.queue.extend(self._pending(card.use, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card, how="use")]
        return events

    @hook
    def pay_skill(self, state: S, skill: int) -> None:
        """rules.md#acquire, rules.md#device: the Skill an acquire or a device's use costs,
        from the turn's pool."""
        state.pool.skill -= skill

    @hook
    def pay_device(self, state: S, seat: int, card: str) -> None:
        """rules.md#device: a device's price as it is used, its Skill (a game adds the other
        costs :meth:`can_use` checked)."""
        self.pay_skill(state, self.cat.card[card].cost)

    @action(Fight)
    def fight(self, state: S, action: Fight) -> list[Event]:
        """rules.md#fight: pay swords, the defeat reward; the Goblin never leaves."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        state.pool.swords -= card.cost
        if not card.never_leaves:
            self._take_card(state, action.card)
            state.dungeon_discard.add(action.card)
        state.pool.queue.extend(self._pending(card.defeat, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card, how="fight")]
        return events

    @action(Buy)
    def buy(self, state: S, action: Buy) -> list[Event]:
        """rules.md#market: the most valuable item of that kind left, for its price in gold."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        tid = self._take_from_market(state, action.item)
        p.gold -= self.cat.token[tid].price
        p.held.add(tid)
        events: list[Event] = [Bought(seat=seat, token=tid)]
        self.bought(state, seat, tid, events)
        return events

    @hook
    def bought(self, state: S, seat: int, tid: str, events: list[Event]) -> None:
        """rules.md#market: what a market item bought does beyond being held (nothing here)."""

    @action(UseToken)
    def use_token(self, state: S, action: UseToken) -> list[Event]:
        """rules.md#tokens: a potion is spent on its holder's turn."""
        seat = state.stack[-1].seat
        state.players[seat].held.remove(action.token)
        state.spent.add(action.token)
        state.pool.queue.extend(self._pending(self.cat.token[action.token].use, None))
        events: list[Event] = [Played(seat=seat, card=action.token)]
        return events
