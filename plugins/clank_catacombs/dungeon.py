"""Catacombs' map: the graph of the placed tiles, a tile's placing and arrival, its turning.

Clank! reads its board through :meth:`~meeple.plugins.clank.map.Movement.graph`; Catacombs
answers with the graph of the tiles placed so far (:mod:`.growth` builds it), kept by their
placements. Here too: what a placed tile brings (seeds/clank-catacombs/rules.md#artifact-rooms,
#haunted, #idols), a tile placed anywhere (#no-space) and the tiles turned by an effect
(#rotation, #rotation-rules).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import msgspec

from meeple.core.state import Event
from meeple.core.zones import Zone
from meeple.plugins.clank.part import action, effect, frame
from meeple.plugins.clank_catacombs import board
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.board import cells_of, opposed
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.growth import TileGraph, build, extend
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    CatacombsState,
    Discovered,
    PlaceAnywhere,
    Placed,
    PlaceTile,
    Spin,
    Turned,
    TurnTile,
)

GRAPHS_KEPT = 64
"""Graphs of placements kept per game object: a game places about 15 tiles, so this holds the
maps of the games in play, and a long simulation on one game object stays within it."""


class Dungeon(CatacombsPart):
    """The map of the placed tiles and the tiles placed and turned."""

    def __init__(self, options: CatacombsOptions | None = None, cat: TileCatalog | None = None):
        super().__init__(options, cat)
        self._graphs: OrderedDict[tuple[Placed, ...], TileGraph] = OrderedDict()
        """Graphs by their placements, the last :data:`GRAPHS_KEPT` asked for last."""
        self._last_tiles: list[Placed] = []
        """The placements of :attr:`_last_graph` (a copy: a state's list grows in place);
        none at first, which no state has."""
        self._last_graph = self.cat.graph
        self._turn_tile = [TurnTile(turn=t) for t in range(4)]

    # -- the map -------------------------------------------------------------

    def graph(self, state: CatacombsState) -> TileGraph:
        """rules.md#discovery: the graph of the placed tiles, built once per placement (of
        the last :data:`GRAPHS_KEPT`).

        A decision asks for it a few times over one map, so the last one answered is
        checked first: comparing the placements to it is a walk over the same objects,
        cheaper than hashing them.
        """
        tiles = state.tiles
        if tiles == self._last_tiles:
            return self._last_graph
        key = tuple(tiles)
        self._last_graph = graph = self.kept_graph(key)
        self._last_tiles = list(key)
        return graph

    def kept_graph(self, placements: tuple[Placed, ...]) -> TileGraph:
        """The graph of ``placements``, kept (one of the last :data:`GRAPHS_KEPT`)."""
        graphs = self._graphs
        graph = graphs.get(placements)
        if graph is not None:
            graphs.move_to_end(placements)
            return graph
        graph = graphs[placements] = self.placed_graph(placements)
        if len(graphs) > GRAPHS_KEPT:
            graphs.popitem(last=False)
        return graph

    def placed_graph(self, placements: tuple[Placed, ...]) -> TileGraph:
        """The graph of ``placements``, grown from the graph kept of the most of their first
        ones: usually all but the last, since the dungeon grew from it; those before a tile
        that turned otherwise. The graphs between are not built."""
        graphs = self._graphs
        k = len(placements) - 1
        while k and placements[:k] not in graphs:
            k -= 1
        if not k:
            return build(placements, self.cat.tiles, self.cat.layouts)
        return extend(graphs[placements[:k]], placements[k:])

    # -- placing tiles -----------------------------------------------------------

    def place(self, state: CatacombsState, tile: str, x: int, y: int, turn: int) -> int:
        """A tile joins the dungeon: its rooms get their zones, then its arrival."""
        state.tiles.append(Placed(tile, x, y, turn))
        state.placed.add(tile)
        state.rooms.extend(Zone(kind="room", up=[]) for _ in self.cat.tiles[tile].rooms)
        i = len(state.tiles) - 1
        return i

    def arrival(self, state: CatacombsState, i: int, events: list[Event]) -> None:
        """rules.md#artifact-rooms, rules.md#haunted, rules.md#idols: a placed tile's arrival."""
        graph = self.graph(state)
        stack = state.artifacts.cards
        for rid in graph.ids[i].values():
            room = graph.features[rid]
            zone = state.rooms[rid]
            if room.artifact is not None and stack:
                k = len(stack) - 1 - room.artifact
                zone.add(stack.pop(k if k >= 0 else 0))
            if room.monkey_shrine:
                for tid in state.idols.take():
                    zone.add(tid)
        if i in graph.haunted:
            self.haunt(state, events)

    def owners(self, placements: list[Placed]) -> dict[tuple[int, int], int]:
        """The placement covering each cell: the same whatever the tiles' turns."""
        tiles = self.cat.tiles
        return {cell: j for j, at in enumerate(placements) for cell in cells_of(tiles[at.tile], at)}

    def link_ok(
        self, owner: Mapping[tuple[int, int], int], placements: list[Placed], i: int
    ) -> bool:
        """Whether placement ``i`` has a tunnel to another tile in ``placements``: a half-tunnel
        of its meets one of a tile beside, their arrows not opposed (rules.md#arrows).
        ``owner``: :meth:`owners` of ``placements``, or of the same tiles at other turns."""
        layouts = self.cat.layouts
        at = placements[i]
        for edge in layouts.laid(at).edges:
            cell = (at.x + edge.ahead[0], at.y + edge.ahead[1])
            j = owner.get(cell, i)
            if j != i:
                met = layouts.met(placements[j], cell, edge)
                if met is not None and not opposed(edge.half, met.half):
                    return True
        return False

    def free_cells(self, state: CatacombsState, seat: int) -> list[tuple[int, int]]:
        """rules.md#no-space: empty cells sharing a full edge with the seat's tile."""
        graph = self.graph(state)
        i = graph.tile_of[state.players[seat].room]
        at = state.tiles[i]
        out = []
        for x, y in cells_of(self.cat.tiles[at.tile], at):
            for dx, dy in board.STEP.values():
                cell = (x + dx, y + dy)
                if cell not in graph.cells and cell not in out:
                    out.append(cell)
        return out

    @effect(cx.PlaceTile)
    def place_tile(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.PlaceTile,
        card: str | None,
        events: list[Event],
    ) -> None:
        """``place-tile`` (rules.md#no-space): only with a tile and an empty cell beside."""
        if state.tile_stack.cards and not self.discovering(state) and self.free_cells(state, seat):
            state.drawn.add(state.tile_stack.draw())
            state.stack.append(PlaceAnywhere(seat=seat, tile=state.drawn.cards[-1]))

    @action(PlaceTile)
    def place_anywhere(self, state: CatacombsState, action: PlaceTile) -> list[Event]:
        """``place-tile``: the drawn tile where the seat chose (rules.md#discovery)."""
        seat = state.stack.pop().seat
        tile = state.drawn.draw()
        i = self.place(state, tile, action.x, action.y, action.turn)
        state.pool.new_tile = i
        events: list[Event] = [
            Discovered(seat=seat, tile=tile, place=i, x=action.x, y=action.y, turn=action.turn)
        ]
        self.arrival(state, i, events)
        return events

    @frame(PlaceAnywhere)
    def cells_open(self, state: CatacombsState, frame: PlaceAnywhere) -> list[Any]:
        return [
            PlaceTile(x=x, y=y, turn=t)
            for x, y in self.free_cells(state, frame.seat)
            for t in range(4)
        ]

    # -- rotation -----------------------------------------------------------------------------

    @effect(cx.RotateTiles)
    def rotate_tiles(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.RotateTiles,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#rotation, #rotation-rules: square tiles with pawns turn. To a new side, each
        is chosen by the seat standing there, in turn order from the seat to play."""
        if self.discovering(state):
            return
        graph = self.graph(state)
        pawns: dict[int, list[int]] = {}
        """The seats on each tile, in turn order from the seat to play."""
        for other in self._from_current(state, list(range(state.seats))):
            p = state.players[other]
            if p.status == "in":
                pawns.setdefault(graph.tile_of[p.room], []).append(other)
        places = [
            i for i, seats in pawns.items() if i and (len(seats) == 1 or e.tiles == "any-pawn")
        ]
        if e.turn == "any":  # the first seat's decision on top
            for i in reversed(places):
                state.stack.append(Spin(seat=pawns[i][0], places=[i]))
            return
        owner = self.owners(state.tiles)
        for i in sorted(places):
            at = state.tiles[i]
            tried = [*state.tiles]
            tried[i] = msgspec.structs.replace(at, turn=(at.turn + 2) % 4)
            if self.link_ok(owner, tried, i) or not self.link_ok(owner, state.tiles, i):
                state.tiles[i] = tried[i]
                events.append(Turned(seat=seat, place=i, turn=tried[i].turn))

    def spins(self, state: CatacombsState, i: int) -> list[int]:
        """The other rotations of placement ``i``, counted clockwise from its own; those
        keeping a tunnel out if any does (rules.md#rotation-rules)."""
        at = state.tiles[i]
        others = [(at.turn + k) % 4 for k in (1, 2, 3)]
        owner = self.owners(state.tiles)
        keep = []
        for t in others:
            tried = [*state.tiles]
            tried[i] = msgspec.structs.replace(at, turn=t)
            if self.link_ok(owner, tried, i):
                keep.append(t)
        return keep or others

    @action(TurnTile)
    def turn_tile(self, state: CatacombsState, action: TurnTile) -> list[Event]:
        frame = state.stack[-1]
        assert isinstance(frame, Spin)
        i = frame.places.pop(0)
        state.tiles[i] = msgspec.structs.replace(state.tiles[i], turn=action.turn)
        if not frame.places:
            state.stack.pop()
        events: list[Event] = [Turned(seat=frame.seat, place=i, turn=action.turn)]
        return events

    @frame(Spin)
    def spin_choices(self, state: CatacombsState, frame: Spin) -> list[Any]:
        return [self._turn_tile[t] for t in self.spins(state, frame.places[0])]
