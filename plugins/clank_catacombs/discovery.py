"""Catacombs' discovery: moves off the dungeon's edge, the tile drawn, its rotations, entering.

seeds/clank-catacombs/rules.md#discovery: a walk or a teleport through a half-tunnel at the
dungeon's edge draws the top tile, which the mover turns to complete its tunnel (#no-fit when
none does, #paused-discovery while it waits) and then enters, paying the whole tunnel;
#catacombs-map: one-way tunnels walked back with a Catacombs Map.
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank.map import NO_MONSTERS
from meeple.plugins.clank.part import action, frame
from meeple.plugins.clank.state import SKIP, Moved, Player
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.growth import TileGraph, join
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    CatacombsState,
    Discover,
    Discovered,
    Explore,
    Rotate,
)


class Discovery(CatacombsPart):
    """Exploring: the moves that discover a tile, and placing it."""

    def __init__(self, options: CatacombsOptions | None = None, cat: TileCatalog | None = None):
        super().__init__(options, cat)
        self._explore: dict[tuple[int, int, bool], Explore] = {}
        self._rotate: dict[tuple[int, int, bool], Rotate] = {}

    def move_actions(
        self, state: CatacombsState, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#discovery: moves and teleports off the dungeon's edge, besides the rest;
        rules.md#catacombs-map: against the arrows with a Catacombs Map."""
        super().move_actions(state, p, graph, out)
        if p.status != "in":
            return
        against = self.against_arrows(p)
        if against:
            self.moves_against_arrows(state, p, graph, out)
        if not state.tile_stack.cards:
            return
        opens = graph.opens.get(p.room)
        if not opens:
            return
        pool = state.pool
        walk = self._can_walk(pool)
        for o in opens:
            half = o.edge
            if (
                walk
                and pool.boots >= (2 if half.footprints else 1)
                and (half.arrow != "in" or against)
                and (
                    not half.lock
                    or f"{o.place}/e{o.half}" in state.picked
                    or self.lockpicks(state, p)
                )
            ):
                out.append(self.explore_action(o.place, o.half, False))
            if pool.teleports:
                out.append(self.explore_action(o.place, o.half, True))

    def moves_against_arrows(
        self, state: CatacombsState, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#catacombs-map: the one-way tunnels into the seat's room, walked back at
        their usual price (boots, monsters, locks; the Crypt only with an artifact)."""
        pool = state.pool
        if not self._can_walk(pool):
            return
        room = p.room
        for e in graph.near[room]:
            t = graph.tunnels[e.tunnel]
            if not t.one_way or t.b != room or e.boots > pool.boots:
                continue
            if e.to == graph.start and not self.holds(p, "artifact"):
                continue
            if e.locked and not self.passable(state, p, e, False):
                continue
            m = 0 if NO_MONSTERS in pool.mods else e.monsters
            moves = self._moves(e)
            out.extend(moves[s] for s in (self._swords_to_spend(p, m, pool.swords) if m else (0,)))

    def explore_action(self, place: int, half: int, teleport: bool) -> Explore:
        key = (place, half, teleport)
        action = self._explore.get(key)
        if action is None:
            action = self._explore[key] = Explore(place=place, half=half, teleport=teleport)
        return action

    def rotate_action(self, turn: int, swords: int, enter: bool) -> Rotate:
        key = (turn, swords, enter)
        action = self._rotate.get(key)
        if action is None:
            action = self._rotate[key] = Rotate(turn=turn, swords=swords, enter=enter)
        return action

    @action(Explore)
    def explore(self, state: CatacombsState, action: Explore) -> list[Event]:
        """rules.md#discovery: the lock of the half walked is paid, then the top tile drawn."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        events: list[Event] = []
        graph = self.graph(state)
        o = next(o for o in graph.opens[p.room] if (o.place, o.half) == (action.place, action.half))
        if not action.teleport and o.edge.lock:
            self.open_locks(state, seat, (f"{action.place}/e{action.half}",), events)
        state.drawn.add(state.tile_stack.draw())
        state.stack.append(
            Discover(
                seat=seat,
                tile=state.drawn.cards[-1],
                x=o.cell[0],
                y=o.cell[1],
                room=p.room,
                place=action.place,
                half=action.half,
                teleport=action.teleport,
            )
        )
        return events

    def fits(
        self, state: CatacombsState, frame: Discover, turn: int | None = None
    ) -> list[tuple[int, Any, tuple[str, ...], int]]:
        """The rotations completing the mover's tunnel: (turn, tunnel, its locks, new room);
        those at ``turn`` alone if given.

        The map keeps the last ones found (:attr:`TileGraph.fitted`): a discovery's rotations
        are listed, then the chosen one is placed, on the same map and for the same question.
        """
        graph = self.graph(state)
        against = self.against_arrows(state.players[frame.seat])
        asked = (frame.tile, frame.room, frame.place, frame.half, frame.teleport, against)
        fitted = graph.fitted
        if fitted is not None and fitted[0] == asked and fitted[1] == len(state.rooms):
            every = fitted[2]
        else:
            every = self.fitting(state, frame, graph, against)
            graph.fitted = (asked, len(state.rooms), every)
        return list(every) if turn is None else [f for f in every if f[0] == turn]

    def fitting(
        self, state: CatacombsState, frame: Discover, graph: TileGraph, against: bool
    ) -> tuple[tuple[int, Any, tuple[str, ...], int], ...]:
        """:meth:`fits` found afresh on ``graph``, the map of ``state``."""
        o = next(
            o for o in graph.opens[frame.room] if (o.place, o.half) == (frame.place, frame.half)
        )
        mine = o.edge
        first = len(state.rooms)
        out = []
        for t, k, half, r in self.cat.layouts.entries(frame.tile, o.side, o.pos):
            room = first + r
            joined = join(
                frame.room,
                mine,
                f"{frame.place}/e{frame.half}",
                room,
                half,
                f"{len(state.tiles)}/e{k}",
            )
            if joined is None:
                continue
            tunnel, keys = joined
            if tunnel.one_way and tunnel.a != frame.room and not (frame.teleport or against):
                continue
            out.append((t, tunnel, keys, room))
        return tuple(out)

    @frame(Discover)
    def rotations(self, state: CatacombsState, frame: Discover) -> list[Any]:
        """rules.md#discovery: each rotation the mover can pay for; pausing to pay stays open."""
        p = state.players[frame.seat]
        pool = state.pool
        out: list[Any] = []
        fits = self.fits(state, frame)
        picks = self.lockpicks(state, p)
        calm = NO_MONSTERS in pool.mods
        for t, tunnel, keys, _ in fits:
            if frame.teleport:
                out.append(self.rotate_action(t, 0, True))
                continue
            need = sum(k not in state.picked for k in keys)
            if pool.boots < tunnel.boots or need > picks:
                continue
            m = 0 if calm else tunnel.monsters
            out.extend(
                self.rotate_action(t, s, True) for s in self._swords_to_spend(p, m, pool.swords)
            )
        if not out:  # rules.md#no-fit
            if self.options.no_fit == "discard":
                out.append(SKIP)
            else:
                turns = sorted({t for t, *_ in fits}) or range(4)
                out.extend(self.rotate_action(t, 0, False) for t in turns)
        if pool.skill or pool.swords:
            self._card_actions(state, p, self.graph(state), pool.skill, pool.swords, out)
        return out

    @action(Rotate)
    def rotate(self, state: CatacombsState, action: Rotate) -> list[Event]:
        """rules.md#discovery: the tile placed; the mover pays the whole tunnel and enters."""
        frame = state.stack[-1]
        assert isinstance(frame, Discover)
        fit = next(iter(self.fits(state, frame, action.turn)), None)
        state.stack.pop()
        seat = frame.seat
        tile = state.drawn.draw()
        i = self.place(state, tile, frame.x, frame.y, action.turn)
        events: list[Event] = [
            Discovered(seat=seat, tile=tile, place=i, x=frame.x, y=frame.y, turn=action.turn)
        ]
        self.arrival(state, i, events)
        if action.enter and fit is not None:
            _, tunnel, keys, room = fit
            pool = state.pool
            damage = 0
            if frame.teleport:
                pool.teleports -= 1
            else:
                self.open_locks(state, seat, keys, events)
                damage = self._pay_tunnel(pool, tunnel, action.swords)
            events.append(Moved(seat=seat, room=room, damage=damage, teleport=frame.teleport))
            self._wound(state, seat, damage, events)
            self.enter(state, seat, room, events)
        return events

    def declined(self, state: CatacombsState, frame: Any, events: list[Event]) -> None:
        """rules.md#no-fit: a declined discovery puts the tile under the stack."""
        if type(frame) is Discover:
            state.tile_stack.put_under(state.drawn.draw())
        else:
            super().declined(state, frame, events)
