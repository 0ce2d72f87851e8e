"""Catacombs' catalog: Clank!'s catalog of the Catacombs cards and tokens, and the tiles.

A game object reads its tables through it, built once per set of options
(seeds/clank-catacombs/rules.md#components, #tiles, #tokens).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from meeple.plugins.clank.catalog import Catalog
from meeple.plugins.clank.content import Schema
from meeple.plugins.clank_catacombs import content
from meeple.plugins.clank_catacombs.board import Layouts
from meeple.plugins.clank_catacombs.growth import TileGraph, build
from meeple.plugins.clank_catacombs.state import CatacombsOptions, Placed
from meeple.plugins.clank_catacombs.tiles import Tile


class TileCatalog(Catalog):
    """The Clank! catalog of the Catacombs cards and tokens, plus the tiles by id.

    ``tokens`` holds each token's Catacombs definition by id, ``counts_as`` the kinds it
    counts as (rules.md#tokens); the sets name the tokens the turn's actions ask about.
    """

    graph: TileGraph

    def __init__(self, tables: content.CatacombsTables) -> None:
        self.tiles: dict[str, Tile] = tables.tile
        self.square = [t.id for t in tables.tiles.tiles if t.back != "start"]
        self.layouts = Layouts(self.tiles)
        super().__init__(tables.cards, tables.tokens, tables.board)
        for tid, tile in self.tiles.items():
            self.back[tid] = tile.back
        self.tokens = {
            tid: t for tid, t in self.token.items() if isinstance(t, content.CatacombsToken)
        }
        self.counts_as = {
            tid: frozenset([t.kind] if t.counts_as is None else t.counts_as)
            for tid, t in self.tokens.items()
        }
        self.idols = frozenset(t for t, kinds in self.counts_as.items() if "idol" in kinds)
        self.spent_in_a_room = frozenset(t for t, tok in self.tokens.items() if tok.where)
        self.against_arrows = frozenset(t for t, tok in self.tokens.items() if tok.against_arrows)

    def make_graph(self, _: Any) -> TileGraph:
        """No fixed board: the graph of side a alone (each state has its own)."""
        return build([Placed(content.START_SIDES[0], 0, 0)], self.tiles, self.layouts)


@lru_cache(maxsize=16)
def catalog(schema: Schema, o: CatacombsOptions) -> TileCatalog:
    return TileCatalog(content.read_tables(schema, cards=o.cards, tokens=o.tokens, tiles=o.tiles))
