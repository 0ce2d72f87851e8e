"""The tiles on the grid: cells, sides turned, the half-tunnels at their edges (rules.md#tiles).

Tiles lie on a grid of square cells (``y`` grows southwards); the starting
tile covers its cell and the one below. A placement turns a tile's sides
clockwise (``n`` to ``e``...). :class:`Layouts` keeps each tile's edges at each turn, and
which of them can meet a given half-tunnel; :class:`Open` and :class:`Leg` are the open
half-tunnels and portal legs that :mod:`.growth` records as it builds the dungeon's graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import msgspec

from meeple.plugins.clank_catacombs.state import Placed
from meeple.plugins.clank_catacombs.tiles import Half, Tile

SIDES = ("n", "e", "s", "w")
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}
CLOCKWISE = {side: SIDES[i:] + SIDES[:i] for i, side in enumerate(SIDES)}
"""Each side after 0 to 3 quarter turns clockwise."""


def turned(side: str, turn: int) -> str:
    """``side`` after ``turn`` quarter turns clockwise."""
    return CLOCKWISE[side][turn % 4]


def cells_of(tile: Tile, at: Placed) -> list[tuple[int, int]]:
    """The grid cells a placed tile covers, by cell number (the starting tile never turns)."""
    if tile.cells == 1:  # every tile but the first: no comprehension to call
        return [(at.x, at.y)]
    return [(at.x, at.y + c) for c in range(tile.cells)]


def across(pos: int | None) -> int | None:
    """The opening facing opening ``pos`` across a shared edge (rules.md#tiles)."""
    return None if pos is None else 1 - pos


class Edge(msgspec.Struct, frozen=True, gc=False):
    """Half-tunnel ``k`` of a tile as a placement turns it, from the placement's top cell.

    This, :class:`Open` and :class:`Leg` are structs, not named tuples: a named tuple is built
    through a ``__new__`` written in Python and its fields are read without the interpreter's
    fast paths, and a graph grows these by the dozen. None refers back to a graph, so none
    needs the garbage collector's tracking."""

    k: int
    half: Half
    ahead: tuple[int, int]
    """The cell it leads into, from the top cell (``x``, ``y`` offsets)."""
    enters: str
    """The side of that cell it enters by."""
    pos: int | None
    """The opening of that side it enters by (:func:`across` its own)."""


class Laid(msgspec.Struct, frozen=True):
    """A tile at one turn: its half-tunnels in the tile's order, and by the cell (as
    :func:`cells_of` numbers them), turned side and opening each lies on."""

    edges: tuple[Edge, ...]
    on: dict[tuple[int, str, int | None], Edge]


def lay(tile: Tile, turn: int) -> Laid:
    """``tile`` turned ``turn`` quarter turns: where each half-tunnel leads."""
    edges = []
    on: dict[tuple[int, str, int | None], Edge] = {}
    for k, half in enumerate(tile.edges):
        side = turned(half.side, turn)
        dx, dy = STEP[side]
        edge = Edge(k, half, (dx, half.cell + dy), OPPOSITE[side], across(half.pos))
        edges.append(edge)
        on.setdefault((half.cell, side, half.pos), edge)
    return Laid(tuple(edges), on)


class Entry(NamedTuple):
    """A half-tunnel of a tile's top cell, and the turn that brings it to a given side."""

    turn: int
    k: int
    half: Half
    room: int
    """Its room's place in the tile's rooms."""


class Layouts:
    """Each tile of a set at each turn, laid out (:func:`lay`) once for all its placements:
    at most four per tile, and at most twelve ways in (:meth:`entries`)."""

    def __init__(self, tiles: Mapping[str, Tile]) -> None:
        self.tiles = tiles
        self._laid: dict[tuple[str, int], Laid] = {}
        self._entries: dict[tuple[str, str, int | None], tuple[Entry, ...]] = {}
        self._interleaved: dict[str, bool] = {}

    def laid(self, at: Placed) -> Laid:
        """Placement ``at``'s tile at its turn (a method: CPython 3.11 calls an instance's
        ``__call__`` the slow way)."""
        key = (at.tile, at.turn % 4)
        laid = self._laid.get(key)
        if laid is None:
            laid = self._laid[key] = lay(self.tiles[at.tile], at.turn)
        return laid

    def interleaved(self, tile: str) -> bool:
        """Whether a room of ``tile`` has half-tunnels both before and after one of another
        room, in the tile's order (the built-in tiles have none)."""
        found = self._interleaved.get(tile)
        if found is None:
            rooms = [half.room for half in self.tiles[tile].edges]
            found = self._interleaved[tile] = any(
                rooms[i] != rooms[j] and rooms[i] in rooms[j + 1 :]
                for i in range(len(rooms))
                for j in range(i + 1, len(rooms))
            )
        return found

    def met(self, there: Placed, cell: tuple[int, int], edge: Edge) -> Edge | None:
        """The half-tunnel of placement ``there`` that ``edge`` meets in ``there``'s cell
        ``cell``; ``None`` if a side without one faces it (rules.md#walls)."""
        return self.laid(there).on.get((cell[1] - there.y, edge.enters, edge.pos))

    def entries(self, tile: str, side: str, pos: int | None) -> tuple[Entry, ...]:
        """The half-tunnels of ``tile``'s top cell at opening ``pos`` of a side, each with the
        one turn that brings it to side ``side``, by turn (rules.md#discovery)."""
        key = (tile, side, pos)
        found = self._entries.get(key)
        if found is None:
            t = self.tiles[tile]
            rooms = [r.id for r in t.rooms]
            found = self._entries[key] = tuple(
                sorted(
                    Entry(CLOCKWISE[half.side].index(side), k, half, rooms.index(half.room))
                    for k, half in enumerate(t.edges)
                    if not half.cell and half.pos == pos
                )
            )
        return found


def opposed(a: Half, b: Half) -> bool:
    """rules.md#arrows: facing halves whose arrows oppose close their tunnel."""
    return a.arrow is not None and a.arrow == b.arrow


class Open(msgspec.Struct, frozen=True, gc=False):
    """A half-tunnel at the dungeon's edge: from ``room`` into the empty cell ``cell``."""

    place: int
    half: int
    room: int
    cell: tuple[int, int]
    side: str
    """The side of the empty cell it enters by."""
    pos: int | None
    """The opening of that side it enters by (:func:`across` its own)."""
    edge: Half
    """The half-tunnel itself (placement ``place``'s tile's ``edges[half]``)."""


class Leg(msgspec.Struct, frozen=True, gc=False):
    """A real tunnel between a portal and a room that is not one."""

    portal: int
    room: int
    tunnel: int
    inward: bool
    """Whether its arrow lets a seat walk from the room into the portal."""
    outward: bool
