"""Catacombs' rooms: what a seat does where it stands, and where effects send it.

seeds/clank-catacombs/rules.md#take-artifact (every token of a room taken as a room action),
#reward-rooms, #wayshrine and #mark-afar, #market and #offers, #teleport (``teleport-to``),
#tokens (a token spent in one kind of room only), #acquire (the rooms a card is limited
to), #empty-replace, and the effects that free Prisoners or take secrets.
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event
from meeple.core.zones import Zone
from meeple.plugins.clank.part import action, effect, frame
from meeple.plugins.clank.state import SKIP, Moved, Player, UseToken
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.growth import TileGraph
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import (
    MARK,
    PICK_LOCK,
    CatacombsOptions,
    CatacombsState,
    ChooseRoom,
    GoTo,
    Mark,
    Marked,
)


class Rooms(CatacombsPart):
    """The room actions, the rewards of rooms entered and the market."""

    def __init__(self, options: CatacombsOptions | None = None, cat: TileCatalog | None = None):
        super().__init__(options, cat)
        self._goto: dict[int, GoTo] = {}

    def turn_actions(self, state: CatacombsState, seat: int) -> list[Any]:
        out = super().turn_actions(state, seat)
        p = state.players[seat]
        if not self.cat.spent_in_a_room.isdisjoint(p.held.cards):
            out[:] = [a for a in out if type(a) is not UseToken or self.usable_here(state, p, a)]
        return out

    def usable_here(self, state: CatacombsState, p: Player, a: UseToken) -> bool:
        """rules.md#tokens: a token spent in one kind of room only (the Discount Coupon in a
        Market, the Puzzle Box at a Wayshrine) is not offered elsewhere."""
        where = self.cat.tokens[a.token].where
        graph = self.graph(state)
        return where is None or p.room in (graph.markets if where == "market" else graph.wayshrines)

    def room_actions(
        self, state: CatacombsState, seat: int, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#chest, #library, #prison, #wayshrine, #offers, after the tokens taken here
        (rules.md#take-artifact)."""
        super().room_actions(state, seat, p, graph, out)
        if p.status != "in":
            return
        room = p.room
        f = graph.features[room]
        if (f.chest or f.library or f.prison) and self.can_pick(state, p, room, f):
            out.append(PICK_LOCK)
        if f.wayshrine and room not in state.marks[seat] and p.supply:
            out.append(MARK)
        if state.pool.offer is not None:  # most turns hold no offer (rules.md#offers)
            self._claim_actions(state, p, graph, out)

    def where_ok(self, graph: Any, room: int, where: str) -> bool:
        if where == "crystal-cave-or-wayshrine":
            return room in graph.caves or room in graph.wayshrines
        return super().where_ok(graph, room, where)

    def taken_as_action(self, tid: str) -> bool:
        """rules.md#take-when: every token of a room is taken as a room action, none on entry."""
        return True

    def takeable(self, state: CatacombsState, p: Player, room: int) -> list[str]:
        """rules.md#idols: the Monkey Shrine's idols come only as its reward, one a visit.

        Most rooms are empty: a room id is its zone's index, so that is seen at once.
        """
        if not state.rooms[room].cards:
            return []
        idols = self.cat.idols
        return [t for t in super().takeable(state, p, room) if t not in idols]

    def enter(self, state: CatacombsState, seat: int, room: int, events: list[Event]) -> None:
        """rules.md#reward-rooms: a reward room's reward, once per seat per turn."""
        super().enter(state, seat, room, events)
        p = state.players[seat]
        f = self.graph(state).features[room]
        if p.status != "in" or f.reward is None or room in state.pool.rewarded:
            return
        state.pool.rewarded.append(room)
        if f.reward == "minor":
            if state.minors.cards:
                self._found(state, seat, state.minors.draw(), events)
        elif f.reward == "idol":
            zone = state.rooms[room]
            if zone.cards:
                self._found(state, seat, zone.draw(), events)
        elif f.reward == "gold":
            p.gold += f.reward_n
            state.pool.gold_gained += f.reward_n
        else:
            self.heal(state, seat, f.reward_n, events)

    @action(Mark)
    def mark(self, state: CatacombsState, action: Any) -> list[Event]:
        """rules.md#wayshrine: a cube on the shrine, gold for every shrine marked."""
        seat = state.stack[-1].seat
        events: list[Event] = []
        self.mark_shrine(state, seat, state.players[seat].room, events)
        return events

    def mark_shrine(self, state: CatacombsState, seat: int, room: int, events: list[Event]) -> None:
        p = state.players[seat]
        p.supply -= 1
        state.marks[seat].append(room)
        gold = len(state.marks[seat])
        p.gold += gold
        state.pool.gold_gained += gold
        events.append(Marked(seat=seat, room=room, gold=gold))

    @effect(cx.MarkWayshrine)
    def mark_afar(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.MarkWayshrine,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#mark-afar: any Wayshrine the seat has not marked."""
        rooms = [r for r in self.graph(state).wayshrines if r not in state.marks[seat]]
        if rooms and state.players[seat].supply:
            state.stack.append(ChooseRoom(seat=seat, rooms=rooms, why="mark"))

    @effect(cx.TeleportTo)
    def teleport_to_effect(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.TeleportTo,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#teleport: ``teleport-to`` offers the rooms it names."""
        if self.discovering(state):
            return
        graph = self.graph(state)
        p = state.players[seat]
        here = graph.tile_of[p.room]
        if e.to == "wayshrine":
            rooms = graph.wayshrines if p.room in graph.wayshrines else []
        elif e.to == "haunted-tile":
            rooms = [
                r
                for r in graph.order
                if graph.tile_of[r] in graph.haunted and graph.tile_of[r] != here
            ]
        elif e.to == "depths-seat":
            rooms = [
                q.room
                for s, q in enumerate(state.players)
                if s != seat and q.status == "in" and q.room in graph.depths
            ]
        else:
            new = state.pool.new_tile
            rooms = [r for r in graph.order if new is not None and graph.tile_of[r] == new]
        art = self.holds(p, "artifact")
        rooms = sorted({r for r in rooms if r != p.room and (r != graph.start or art)})
        if rooms:
            state.stack.append(
                ChooseRoom(seat=seat, rooms=rooms, why="teleport", optional=e.optional)
            )

    @action(GoTo)
    def go_to(self, state: CatacombsState, action: GoTo) -> list[Event]:
        frame = state.stack.pop()
        assert isinstance(frame, ChooseRoom)
        seat = frame.seat
        events: list[Event] = []
        if frame.why == "mark":
            self.mark_shrine(state, seat, action.room, events)
        else:
            events.append(Moved(seat=seat, room=action.room, teleport=True))
            self.enter(state, seat, action.room, events)
        return events

    def goto(self, room: int) -> GoTo:
        action = self._goto.get(room)
        if action is None:
            action = self._goto[room] = GoTo(room=room)
        return action

    @frame(ChooseRoom)
    def rooms_open(self, state: CatacombsState, frame: ChooseRoom) -> list[Any]:
        out: list[Any] = [self.goto(r) for r in frame.rooms]
        return [*out, SKIP] if frame.optional else out

    def may_buy(self, p: Player, tid: str) -> bool:
        """rules.md#market: the Blood Amulet needs damage on the buyer's meter."""
        return p.damage >= self.cat.token[tid].need_damage

    def bought(self, state: CatacombsState, seat: int, tid: str, events: list[Event]) -> None:
        """rules.md#market: a bought item's ``take`` effects happen (Blood Amulet, Kit)."""
        take = self.cat.token[tid].take
        if take:  # what the purchase sets off settles before the item's own effects
            self._proceed(state, events)
            state.pool.queue.extend(self._pending(take, None))

    def secret_pile(self, state: CatacombsState, kind: str) -> Zone:
        return state.majors if kind == "major" else state.minors

    def turn_offer(self, state: CatacombsState) -> tuple[int | None, bool]:
        return state.pool.offer, state.pool.offer_anywhere

    def set_turn_offer(self, state: CatacombsState, price: int | None, anywhere: bool) -> None:
        state.pool.offer = price
        state.pool.offer_anywhere = anywhere

    @effect(cx.MarketOfferHere)
    def market_offer_here(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.MarketOfferHere,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#offers: the offer holds only if the seat stands in a Market room now."""
        if state.players[seat].room in self.graph(state).markets:
            self.set_turn_offer(state, e.price, False)

    @effect(cx.FreePrisoners)
    def free_prisoners(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.FreePrisoners,
        card: str | None,
        events: list[Event],
    ) -> None:
        for _ in range(min(e.n, len(state.prisoners))):
            self._found(state, seat, state.prisoners.draw(), events)

    def replacement(self, state: CatacombsState, events: list[Event]) -> str | None:
        """rules.md#empty-replace: with ``wait``, a Row card replaced from an empty Dungeon
        Deck leaves its slot empty; the game ends at the refill, after the turn."""
        if not state.dungeon.cards and self.options.empty_replace == "wait":
            return None
        return super().replacement(state, events)
