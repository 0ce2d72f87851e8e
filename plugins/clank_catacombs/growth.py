"""The dungeon as a graph, derived from the placed tiles (rules.md#discovery).

:func:`build` turns the placements into a :class:`TileGraph`: the engine's
:class:`~meeple.plugins.clank.catalog.Graph` (rooms, exits, teleport targets, start, depths,
caves, markets) plus what Catacombs asks of the map: room names and features, locks per
tunnel, open half-tunnels at the dungeon's edge (:mod:`.board` lays the tiles on the grid).
Room ids count up in placement order, so placing a tile never renumbers a room; real tunnels
likewise keep their numbers (the portal trips come after them). A graph keeps its
:class:`Growth`, so :func:`extend` adds the placements after its own to a copy of it
instead of building the whole dungeon again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from meeple.plugins.clank.catalog import Graph, Ways, link
from meeple.plugins.clank.content import Board, Room, Tunnel
from meeple.plugins.clank_catacombs.board import (
    Layouts,
    Leg,
    Open,
    cells_of,
    opposed,
)
from meeple.plugins.clank_catacombs.state import Placed
from meeple.plugins.clank_catacombs.tiles import Half, Tile, TileRoom


class TileGraph(Graph):
    """The graph of the placed tiles, with Catacombs' room features and open edges."""

    def __init__(self, growth: Growth) -> None:
        """What :class:`Graph` reads off a board, taken from ``growth`` as it grew: the rooms
        and real tunnels' ways as they are (a graph grows from a copy, :func:`extend`), the
        portal trips' after them. The board itself is made only if asked for."""
        assert growth.start is not None, "the starting tile holds the Crypt"
        self.growth = growth
        """What :func:`extend` grows the graph from."""
        self.rooms = growth.by_id
        self.order = growth.order
        self.index = growth.index
        self.start = growth.start
        self.depths = growth.depths
        self.caves = growth.caves
        self.markets = growth.markets
        self.heal = growth.heal
        tunnels, locks = growth.tunnels, growth.locks
        exits, near = growth.exits, growth.near
        trips: frozenset[int] = frozenset()
        if len(growth.portals) > 1:  # the portal trips come after the growth's own tunnels
            tunnels, locks = list(tunnels), list(locks)
            trips = portal_trips(tunnels, locks, growth.legs)
            exits, near = exits.copy(), near.copy()
            for i in range(len(growth.tunnels), len(tunnels)):
                link(exits, near, i, tunnels[i])
        self.tunnels = tunnels
        self.exits = exits
        self.near = near
        self.names = growth.names
        """``<tile>:<room>`` of each room id."""
        self.features = growth.features
        self.tile_of = growth.tile_of
        """The placement each room lies on."""
        self.ids = growth.ids
        """The room ids of each placement's rooms, by their names on the tile."""
        self.locks = locks
        """The lock keys of each tunnel (``3/e2``; two for a lock on each half)."""
        self.opens = growth.opens
        """The open edges of each room that has any."""
        self.cells = growth.cells
        """The placement covering each occupied cell."""
        self.haunted = growth.haunted
        """Placements of haunted tiles."""
        self.portals = growth.portals
        self.wayshrines = growth.wayshrines
        self.trips = trips
        """rules.md#portal: the tunnel numbers (after the real tunnels) of the trips room ->
        portal -> portal -> room."""
        self.fitted: tuple[tuple[Any, ...], int, tuple[Any, ...]] | None = None
        """The rotations of a discovered tile found last on this map, after what they were
        found for and the number of rooms then (kept by ``CatacombsGame.fits``)."""
        if trips:  # rules.md#portal: nobody stops in a portal while another one leads on
            portals = set(self.portals)
            beside = {e.to for rid in portals for e in near[rid]}
            for table in (exits, near):
                for rid in beside:
                    table[rid] = tuple(e for e in table[rid] if e.to not in portals)

    @property
    def board(self) -> Board:  # type: ignore[override]  # read-only: a graph never sets it
        """The rooms and tunnels (the portal trips' too) as a board."""
        return Board(
            name="catacombs",
            source=[],
            confidence="",
            rooms=list(self.rooms.values()),
            tunnels=self.tunnels,
        )


class Growth:
    """The placements so far as rooms, real tunnels and open edges, each placement added
    after the others (:meth:`add`), so that a graph of one more tile starts from a copy."""

    def __init__(self, tiles: Mapping[str, Tile], layouts: Layouts | None = None) -> None:
        self.tiles = tiles
        self.names: list[str] = []
        self.features: list[TileRoom] = []
        self.tile_of: list[int] = []
        self.tunnels: list[Tunnel] = []
        """The real tunnels, in placement order (a graph appends its portal trips)."""
        self.locks: list[tuple[str, ...]] = []
        self.opens: dict[int, list[Open]] = {}
        """The open edges of each room that has any, in placement order then in the order of
        each room's first open edge on its tile (a room's list is replaced, never changed, once
        its placement is added: copies share it)."""
        self.ends: dict[tuple[int, int], tuple[Open, ...]] = {}
        """The open edges into each empty cell, so that covering a cell closes them without a
        walk over every open edge."""
        self.cells: dict[tuple[int, int], int] = {}
        self.haunted: frozenset[int] = frozenset()
        self.ids: list[dict[str, int]] = []
        """The room id of each placement's rooms, by their names on the tile."""
        self.placed: list[Placed] = []
        self.layouts = Layouts(tiles) if layouts is None else layouts
        """Where each placement's half-tunnels lie (shared by the copies, and by the
        growths of one catalog's tiles when it is given)."""
        self.exits: Ways = {}
        """The real tunnels' exits (:meth:`Graph.ways`)."""
        self.near: Ways = {}
        self.by_id: dict[int, Room] = {}
        """The rooms by id, and what else :meth:`Graph.read_rooms` reads off them."""
        self.order: list[int] = []
        self.index: dict[int, int] = {}
        self.start: int | None = None
        self.depths: frozenset[int] = frozenset()
        self.caves: frozenset[int] = frozenset()
        self.markets: frozenset[int] = frozenset()
        self.heal: dict[int, int] = {}
        """Few tiles add to this and the three after it: they are replaced, not copied."""
        self.portals: list[int] = []
        self.wayshrines: list[int] = []
        self.legs: list[Leg] = []
        """The real tunnels between a portal and a room that is not one, in tunnel order: the
        portal trips' halves (:func:`portal_trips`)."""

    def copy(self) -> Growth:
        """A growth that adds to copies of the containers each placement adds to (their items
        are never changed) and shares the rest, which it replaces rather than changes.

        Field by field: an object given a whole ``__dict__`` reads its attributes and methods
        the slow way, and a growth reads its own a few dozen times per placement."""
        new = object.__new__(Growth)
        new.tiles = self.tiles
        new.names = self.names.copy()
        new.features = self.features.copy()
        new.tile_of = self.tile_of.copy()
        new.tunnels = self.tunnels.copy()
        new.locks = self.locks.copy()
        new.opens = self.opens.copy()
        new.ends = self.ends.copy()
        new.cells = self.cells.copy()
        new.haunted = self.haunted
        new.ids = self.ids.copy()
        new.placed = self.placed.copy()
        new.layouts = self.layouts
        new.exits = self.exits.copy()
        new.near = self.near.copy()
        new.by_id = self.by_id.copy()
        new.order = self.order.copy()
        new.index = self.index.copy()
        new.start = self.start
        new.depths = self.depths
        new.caves = self.caves
        new.markets = self.markets
        new.heal = self.heal
        new.portals = self.portals
        new.wayshrines = self.wayshrines
        new.legs = self.legs
        return new

    def add(self, at: Placed) -> None:
        """Placement ``at`` after the others: its rooms, its inner tunnels, the tunnels its
        edges make with the tiles already placed, and the edges it leaves open."""
        i = len(self.ids)
        tile = self.tiles[at.tile]
        covered = cells_of(tile, at)
        cells, placed = self.cells, self.placed
        for cell in covered:
            cells[cell] = i
        placed.append(at)
        if tile.haunted:
            self.haunted |= {i}
        ids = {}
        for room in tile.rooms:
            rid = ids[room.id] = len(self.by_id)
            depths = room.depths if room.depths is not None else tile.back == "darker"
            self.read(
                rid,
                Room(
                    id=rid,
                    start=room.crypt,
                    depths=depths,
                    crystal_cave=room.crystal_cave,
                    market=room.market,
                ),
                room,
            )
            self.names.append(f"{tile.id}:{room.id}")
            self.features.append(room)
            self.tile_of.append(i)
            self.exits[rid] = self.near[rid] = ()
        self.ids.append(ids)
        for k, t in enumerate(tile.inner):
            inner = Tunnel(
                a=ids[t.a],
                b=ids[t.b],
                boots=2 if t.footprints else 1,
                monsters=t.monsters,
                locked=t.lock,
                one_way=t.one_way,
            )
            self.tunnel(inner, (f"{i}/i{k}",) if t.lock else ())
        ends = self.ends
        for cell in covered:
            closed = ends.pop(cell, None)
            if closed is not None:
                self.close(closed)
        opens = self.opens
        for edge in self.layouts.laid(at).edges:
            half = edge.half
            cell = (at.x + edge.ahead[0], at.y + edge.ahead[1])
            j = cells.get(cell)
            if j is None:
                rid = ids[half.room]
                o = Open(i, edge.k, rid, cell, edge.enters, edge.pos, half)
                if rid in opens:  # a room of this placement: its list is not shared yet
                    opens[rid].append(o)
                else:
                    opens[rid] = [o]
                ends[cell] = (*ends.get(cell, ()), o)
                continue
            if j == i:
                continue
            met = self.layouts.met(placed[j], cell, edge)
            if met is None:
                continue
            h = met.half
            tunnel = join(
                self.ids[j][h.room], h, f"{j}/e{met.k}", ids[half.room], half, f"{i}/e{edge.k}"
            )
            if tunnel is not None:
                self.tunnel(*tunnel)

    def close(self, closed: tuple[Open, ...]) -> None:
        """Open edges into a cell just covered leave their rooms' lists. A room whose first one
        went while others stay may now belong after another room of its tile, if their edges
        interleave on it: then the rooms are put back in the order of their first edges."""
        opens = self.opens
        was: dict[int, int] = {}
        """The first half of each room whose first open edge went and others stay."""
        for o in closed:
            mine = opens[o.room]
            if len(mine) == 1:
                del opens[o.room]
                continue
            if mine[0] is o and self.layouts.interleaved(self.placed[o.place].tile):
                was.setdefault(o.room, o.half)
            rest = []
            for x in mine:
                if x is not o:
                    rest.append(x)
            opens[o.room] = rest
        if was and self.moved(was):
            self.opens = dict(sorted(opens.items(), key=lambda item: first(item[1])))

    def moved(self, was: dict[int, int]) -> bool:
        """Whether a room of ``was`` (first halves before :meth:`close`) changed places with
        another room of its tile: rooms list in the order of their first halves."""
        opens = self.opens
        for room, before in was.items():
            if room not in opens:
                continue
            now = opens[room][0].half
            for other in self.ids[self.tile_of[room]].values():
                if other != room and other in opens:
                    then = opens[other][0].half
                    if (before < was.get(other, then)) != (now < then):
                        return True
        return False

    def read(self, rid: int, room: Room, features: TileRoom) -> None:
        """A new room into what :meth:`Graph.read_rooms` and Catacombs read off the rooms."""
        self.by_id[rid] = room
        self.index[rid] = len(self.order)
        self.order.append(rid)
        if room.start and self.start is None:
            self.start = rid
        if room.depths:
            self.depths |= {rid}
        if room.crystal_cave:
            self.caves |= {rid}
        if room.market:
            self.markets |= {rid}
        if room.heal:
            self.heal = {**self.heal, rid: room.heal}
        if features.portal:
            self.portals = [*self.portals, rid]
        if features.wayshrine:
            self.wayshrines = [*self.wayshrines, rid]

    def tunnel(self, t: Tunnel, keys: tuple[str, ...]) -> None:
        """A real tunnel, its lock keys, its rooms' ways; a leg if it leads into a portal (its
        rooms are read before it, so whether they are portals is known)."""
        k = len(self.tunnels)
        portals = self.portals
        if portals:
            if t.b in portals and t.a not in portals:
                self.legs = [*self.legs, Leg(t.b, t.a, k, True, not t.one_way)]
            elif t.a in portals and t.b not in portals:
                self.legs = [*self.legs, Leg(t.a, t.b, k, not t.one_way, True)]
        link(self.exits, self.near, k, t)
        self.tunnels.append(t)
        self.locks.append(keys)


def grow(
    placements: Iterable[Placed], tiles: Mapping[str, Tile], layouts: Layouts | None = None
) -> Growth:
    """The rooms, real tunnels and open edges of ``placements`` (``layouts`` of ``tiles``
    if given, else laid afresh)."""
    growth = Growth(tiles, layouts)
    for at in placements:
        growth.add(at)
    return growth


def build(
    placements: Iterable[Placed], tiles: Mapping[str, Tile], layouts: Layouts | None = None
) -> TileGraph:
    """The graph of ``placements`` (tile definitions from ``tiles``, laid out by
    ``layouts`` if given)."""
    return TileGraph(grow(placements, tiles, layouts))


def extend(graph: TileGraph, placements: Iterable[Placed]) -> TileGraph:
    """The graph of ``graph``'s placements and ``placements`` after them: ``graph`` stays as
    it was."""
    growth = graph.growth.copy()
    for at in placements:
        growth.add(at)
    return TileGraph(growth)


def first(opens: list[Open]) -> tuple[int, int]:
    """Where the first of a room's open edges lies: its placement, its half-tunnel there."""
    return opens[0].place, opens[0].half


def portal_trips(
    tunnels: list[Tunnel], locks: list[tuple[str, ...]], legs: Sequence[Leg]
) -> frozenset[int]:
    """rules.md#portal: append a tunnel for each trip room -> portal -> other portal -> room,
    from the ``legs`` of ``tunnels`` (each tunnel between a portal and a room that is not one).

    A trip costs one boot in all; the monsters, locks and arrows of both tunnels apply.
    """
    trips = set()
    for i, one in enumerate(legs):
        for two in legs[i + 1 :]:
            if one.portal == two.portal or one.room == two.room:
                continue
            there = one.inward and two.outward
            back = two.inward and one.outward
            if not (there or back):
                continue
            first, second = tunnels[one.tunnel], tunnels[two.tunnel]
            a, b = (one.room, two.room) if there else (two.room, one.room)
            trips.add(len(tunnels))
            locks.append(locks[one.tunnel] + locks[two.tunnel])
            tunnels.append(
                Tunnel(
                    a=a,
                    b=b,
                    boots=1,
                    monsters=first.monsters + second.monsters,
                    locked=first.locked or second.locked,
                    one_way=not (there and back),
                )
            )
    return frozenset(trips)


def join(
    a: int, ha: Half, ka: str, b: int, hb: Half, kb: str
) -> tuple[Tunnel, tuple[str, ...]] | None:
    """Two facing halves as one tunnel from room ``a`` to room ``b`` (rules.md#arrows)."""
    if opposed(ha, hb):
        return None
    # Arrows not opposed agree: into a's half or out of b's, the tunnel runs from b to a.
    if ha.arrow == "in" or hb.arrow == "out":
        a, b = b, a
    keys = ((ka,) if ha.lock else ()) + ((kb,) if hb.lock else ())
    tunnel = Tunnel(
        a=a,
        b=b,
        boots=2 if ha.footprints or hb.footprints else 1,
        monsters=ha.monsters + hb.monsters,
        locked=bool(keys),
        one_way=ha.arrow is not None or hb.arrow is not None,
    )
    return tunnel, keys
