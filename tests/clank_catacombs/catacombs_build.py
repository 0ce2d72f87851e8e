"""Building exact Clank! Catacombs situations for scenario tests.

Games run on the built-in cards and tokens with a small hand-made tile set
(:func:`tile_set`), so each test's tunnels carry exactly the icons it is
about; Clank!'s builder (tests/clank/clank_build.py) moves pieces and sets up
turns.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

sys.path.insert(0, str(Path(__file__).parents[1] / "clank"))

from clank_build import act, clear_clank, find, legal, put, started, turn

from meeple.plugins.clank_catacombs import content
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import CatacombsOptions, CatacombsState
from meeple.plugins.clank_catacombs.tiles import Half, Inner, Tile, TileRoom, Tiles

__all__ = ["act", "clear_clank", "find", "legal", "put", "started", "turn"]


def start_tile() -> Tile:
    """Two cells: the Crypt below, a Wayshrine room ``w`` above (depths) with a half east."""
    return Tile(
        id="start-a",
        back="start",
        cells=2,
        rooms=[
            TileRoom(id="crypt", cell=1, crypt=True),
            TileRoom(id="w", wayshrine=True, depths=True),
        ],
        inner=[Inner(a="crypt", b="w")],
        edges=[Half(room="w", side="e"), Half(room="crypt", side="e", cell=1)],
    )


def tile_set() -> list[Tile]:
    """``hall``: rooms ``a`` and Wayshrine ``w`` joined by footprints and a monster; ``a`` has a
    half west, ``w`` a locked half east. ``vault``: an Artifact room with one plus icon, its
    west half with footprints and a monster, its north half with two monsters. ``cave``: a
    haunted crystal cave with halves on every side. ``market``: a Market with a chest room."""
    return [
        start_tile(),
        Tile(
            id="hall",
            back="darker",
            rooms=[TileRoom(id="a"), TileRoom(id="w", wayshrine=True)],
            inner=[Inner(a="a", b="w", footprints=True, monsters=1)],
            edges=[Half(room="a", side="w"), Half(room="w", side="e", lock=True)],
        ),
        Tile(
            id="vault",
            back="darker",
            rooms=[TileRoom(id="art", artifact=1)],
            edges=[
                Half(room="art", side="w", footprints=True, monsters=1),
                Half(room="art", side="n", monsters=2),
            ],
        ),
        Tile(
            id="cave",
            back="darker",
            haunted=True,
            rooms=[TileRoom(id="c", crystal_cave=True), TileRoom(id="p", prison=True)],
            inner=[Inner(a="c", b="p")],
            edges=[Half(room="c", side=s) for s in ("n", "e", "s", "w")],
        ),
        Tile(
            id="shop",
            back="lighter",
            rooms=[
                TileRoom(id="m", market=True),
                TileRoom(id="k", chest=True, reward="gold", reward_n=2),
            ],
            inner=[Inner(a="m", b="k")],
            edges=[Half(room="m", side="w"), Half(room="k", side="e")],
        ),
    ]


def arrow_tile(id: str, arrow: Literal["out", "in"]) -> Tile:
    """A one-room tile (the room is ``id[0]``) whose west half carries an arrow ``out`` of the
    room (a darker tile) or ``in`` (a lighter one), its east half plain."""
    return Tile(
        id=id,
        back="darker" if arrow == "out" else "lighter",
        rooms=[TileRoom(id=id[0])],
        edges=[Half(room=id[0], side="w", arrow=arrow), Half(room=id[0], side="e")],
    )


def game(tiles: list[Tile] | None = None, **options: Any) -> CatacombsGame:
    """A Catacombs game on the built-in cards and tokens and the hand-made tiles."""
    t = content.read_tables(CatacombsGame._schema())
    made = Tiles(
        note="test tiles", source=["tests"], confidence="made up", tiles=tiles or tile_set()
    )
    return CatacombsGame(CatacombsOptions(**options), cat=TileCatalog(replace(t, tiles=made)))


def lay(g: CatacombsGame, state: CatacombsState, tile: str, x: int, y: int, turn: int = 0) -> int:
    """Place ``tile`` (taken from the stack) at cell ``x``/``y``, with its arrival."""
    (state.tile_stack if tile in state.tile_stack.cards else state.tile_box).remove(tile)
    i = g.place(state, tile, x, y, turn)
    g.arrival(state, i, [])
    return i


def room(g: CatacombsGame, state: CatacombsState, name: str) -> int:
    """The room id of ``<tile>:<room>``."""
    return g.graph(state).names.index(name)


def crypt(g: CatacombsGame, state: CatacombsState) -> int:
    """The Crypt's room id (on the starting tile's side ``a``)."""
    return room(g, state, "start-a:crypt")
