"""Catacombs' locks: Lockpicks spent on locked tunnels, covered rooms and prices.

seeds/clank-catacombs/rules.md#locks (a Lockpick left on each lock a seat opens),
#lockpick-supply (a bank that never runs out), #chest, #library, #prison (a room's lock
picked for its reward) and #device (a device's gold and Lockpicks).
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank.catalog import Exit
from meeple.plugins.clank.packs.offer import Offer
from meeple.plugins.clank.part import action, effect
from meeple.plugins.clank.state import Acquired, Player
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import CatacombsState, Lockpicks, PickLock
from meeple.plugins.clank_catacombs.tiles import TileRoom


class Locks(CatacombsPart):
    """Locks and Lockpicks: paying them, and what a picked lock gives."""

    def passable(self, state: CatacombsState, p: Player, e: Exit, teleport: bool) -> bool:
        """rules.md#locks: a Lockpick for each lock not yet open; a teleport ignores locks."""
        if teleport:
            return True
        return self.locks_to_open(state, e.tunnel) <= self.lockpicks(state, p)

    def locks_to_open(self, state: CatacombsState, tunnel: int) -> int:
        return sum(k not in state.picked for k in self.graph(state).locks[tunnel])

    def pay_locks(self, state: CatacombsState, seat: int, tunnel: int, events: list[Event]) -> None:
        """rules.md#locks: a Lockpick on each lock not yet open."""
        self.open_locks(state, seat, self.graph(state).locks[tunnel], events)

    def can_use(self, state: CatacombsState, p: Player, card: str) -> bool:
        """rules.md#device: a device's gold or Lockpick price must be payable too."""
        c = self.cat.card[card]
        return p.gold >= c.use_gold and self.lockpicks(state, p) >= c.use_lockpick

    def pay_device(self, state: CatacombsState, seat: int, card: str) -> None:
        """rules.md#device: gold and Lockpicks besides the Skill."""
        c = self.cat.card[card]
        state.players[seat].gold -= c.use_gold
        self.spend_lockpicks(state, seat, None, c.use_lockpick)
        super().pay_device(state, seat, card)

    def can_pick(self, state: CatacombsState, p: Player, room: int, f: TileRoom) -> bool:
        """rules.md#chest, #library, #prison: whether the seat can pick the lock of ``room``
        (whose features are ``f``) now."""
        if f"room {room}" in state.picked or not self.lockpicks(state, p):
            return False
        if f.chest:
            return bool(state.majors.cards)
        if f.library:
            return self._reserve_pile(state, "secret-tome") is not None
        return bool(state.prisoners.cards)

    @action(PickLock)
    def pick_lock(self, state: CatacombsState, action: PickLock) -> list[Event]:
        """rules.md#chest, #library, #prison: a Lockpick covers the room for good."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        room = p.room
        f = self.graph(state).features[room]
        events: list[Event] = []
        self.spend_lockpicks(state, seat, events, on=f"room {room}")
        if f.chest:
            self._found(state, seat, state.majors.draw(), events)
        elif f.library:
            zone = self._reserve_pile(state, "secret-tome")
            card = zone.draw()
            p.discard.add(card)
            events.append(Acquired(seat=seat, card=card, how="gain"))
        else:
            for _ in range(min(2, len(state.prisoners))):
                self._found(state, seat, state.prisoners.draw(), events)
        return events

    @effect(cx.TakeLockpicks)
    def take_lockpicks(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.TakeLockpicks,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#lockpick-supply: from a bank that never runs out."""
        if e.n:
            state.lockpicks[seat] += e.n
            events.append(Lockpicks(seat=seat, n=e.n))

    @effect(cx.PayLockpicks)
    def offer_lockpicks(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.PayLockpicks,
        card: str | None,
        events: list[Event],
    ) -> None:
        """Offered only to a seat holding the Lockpicks to pay."""
        if state.lockpicks[seat] >= e.n:
            state.stack.append(Offer(seat=seat, effect=e, card=card))

    def accepted(self, state: CatacombsState, frame: Offer[Any], events: list[Event]) -> None:
        """rules.md#lockpick-supply: ``pay-lockpicks`` accepted, its Lockpicks spent."""
        e = frame.effect
        if not isinstance(e, cx.PayLockpicks):
            return super().accepted(state, frame, events)
        self.spend_lockpicks(state, frame.seat, events, e.n)
        state.pool.queue[:0] = self._pending(e.then, frame.card)
