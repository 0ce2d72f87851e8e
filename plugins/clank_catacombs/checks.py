"""Clank! Catacombs' own state invariants, beyond Clank!'s and the core's.

The placed tiles match their zone, never overlap and each touches an earlier
one along a full edge; Lockpicks left on the map lie on distinct places, each a lock of a
placed tile or a locked room, and each seat holds any number (rules.md#lockpick-supply);
Ghost cubes and Wayshrine marks are conserved (marks also count in each seat's 30
cubes, :meth:`~meeple.plugins.clank.rules.Clank.cubes_placed`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from meeple.plugins.clank.checks import only
from meeple.plugins.clank_catacombs.board import STEP, cells_of
from meeple.plugins.clank_catacombs.state import CatacombsState, Discover, PlaceAnywhere

if TYPE_CHECKING:
    from meeple.plugins.clank_catacombs.rules import CatacombsGame

GHOST = "ghost"

PILES = {
    "artifacts": "artifact",
    "majors": "major",
    "minors": "minor",
    "prisoners": "prisoner",
    "idols": "idol",
}
"""rules.md#setup: the token kind each of the Catacombs' piles holds."""


def check(game: CatacombsGame, state: CatacombsState) -> list[str]:
    tiles = game.cat.tiles
    problems: list[str] = []
    if state.placed.cards != [at.tile for at in state.tiles]:
        problems.append("$.placed: must list the tiles of $.tiles, in placement order")
    taken: dict[tuple[int, int], int] = {}
    for i, at in enumerate(state.tiles):
        where = f"$.tiles[{i}]"
        tile = tiles.get(at.tile)
        if tile is None:
            problems.append(f"{where}.tile: no tile {at.tile!r} in the tile set")
            continue
        if (i == 0) != (tile.back == "start"):
            problems.append(f"{where}: the starting tile comes first, and only there")
        if not 0 <= at.turn < 4 or (tile.back == "start" and at.turn):
            problems.append(f"{where}.turn: {at.turn}; 0-3, and the starting tile never turns")
        cells = cells_of(tile, at)
        for cell in cells:
            if cell in taken:
                problems.append(f"{where}: overlaps $.tiles[{taken[cell]}] at cell {cell}")
        if i and not any((x + dx, y + dy) in taken for x, y in cells for dx, dy in STEP.values()):
            problems.append(f"{where}: shares no full edge with an earlier tile")
        for cell in cells:
            taken[cell] = i
    if len(set(state.picked)) != len(state.picked):
        problems.append("$.picked: a place named twice; each Lockpick lies on a place of its own")
    if len(state.lockpicks) != state.seats:
        problems.append(f"$.lockpicks: {len(state.lockpicks)} counts for {state.seats} seats")
    if not problems:
        problems += [
            f"$.picked[{i}]: {on!r} is no lock of a placed tile ('3/e1', '3/i0') and no "
            "chest, library or prison room ('room 7')"
            for i, on in enumerate(state.picked)
            if not lockable(game, state, on)
        ]
    total = game.cat.tables.ghost_cubes
    ghosts = state.ghosts + state.ghost_clank + state.bag.cubes.get(GHOST, 0)
    if ghosts != total or min(state.ghosts, state.ghost_clank) < 0:
        problems.append(
            f"$.ghosts: {ghosts} Ghost cubes beside, in the Clank! area and in the bag; "
            f"there are {total}"
        )
    hits = state.ghost_hits
    if len(hits) != state.seats or not all(0 <= n <= total for n in hits):
        # A seat waits on at most every Ghost cube at once: each drawn Ghost waits once.
        problems.append(
            f"$.ghost_hits: {hits}; one count per seat, from 0 to the {total} Ghost cubes"
        )
    else:  # rules.md#ghost-ward: a ward card is offered for a Ghost waiting on it
        for i, f in enumerate(state.stack):
            if game.ward_offer(f) and not hits[f.seat]:
                problems.append(
                    f"$.stack[{i}]: a ward card offered to seat {f.seat}, which has no Ghost "
                    "waiting"
                )
    if len(state.marks) != state.seats:
        problems.append(f"$.marks: {len(state.marks)} lists for {state.seats} seats")
    else:
        shrines = set(game.graph(state).wayshrines)
        for seat, marks in enumerate(state.marks):
            if len(set(marks)) != len(marks) or not set(marks) <= shrines:
                problems.append(f"$.marks[{seat}]: each mark on a different Wayshrine room")
    black = state.black_damage
    if len(black) != state.seats or min(black, default=0) < 0 or sum(black) > state.dragon_aside:
        problems.append(
            f"$.black_damage: {black}; one count per seat, of black cubes set aside "
            f"({state.dragon_aside})"
        )
    for name in ("placed", "drawn", "tile_stack", "tile_box"):
        problems += only(f"$.{name}", getattr(state, name).cards, tiles, "tiles")
    kinds = game.cat.by_kind
    for name, kind in PILES.items():
        pile = set(kinds.get(kind, ()))
        problems += only(f"$.{name}", getattr(state, name).cards, pile, f"{kind} tokens")
    deciding = sum(type(f) in (Discover, PlaceAnywhere) for f in state.stack)
    if len(state.drawn) != deciding or deciding > 1:
        problems.append(
            "$.drawn: holds the tile revealed while its placement is decided, only then"
        )
    return problems


LOCK = re.compile(r"(\d+)/([ei])(\d+)|room (\d+)")
"""Where ``picked`` says a Lockpick lies: a tile's locked edge or inner tunnel, or a room."""


def lockable(game: CatacombsGame, state: CatacombsState, on: str) -> bool:
    """rules.md#locks, #chest: whether ``on`` names a lock of a placed tile (an edge's
    half-tunnel, which may still face an empty cell or no longer meet a tunnel, or an inner
    tunnel) or a chest, library or prison room."""
    found = LOCK.fullmatch(on)
    if found is None:
        return False
    place, where, k, room = found.groups()
    if room is not None:
        features = game.graph(state).features
        f = features[int(room)] if int(room) < len(features) else None
        return f is not None and (f.chest or f.library or f.prison)
    if int(place) >= len(state.tiles):
        return False
    tile = game.cat.tiles[state.tiles[int(place)].tile]
    parts = tile.edges if where == "e" else tile.inner
    return int(k) < len(parts) and parts[int(k)].lock
