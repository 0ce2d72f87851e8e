"""Catacombs' graph cache is invisible: at every decision of seeded games, the graph kept
(grown from the graph of the tiles before the last one, or before a turned one) equals the
graph built afresh, the legs of its portal trips are those of its tunnels, what it grew room
by room (and its exits, tunnel by tunnel) equals what the engine reads off the same board at
once, its open edges kept by room are those gathered the long way, each tile's layout kept
equals one laid afresh, ``link_ok`` (which meets the halves of a tile's neighbours, found once
for every turn tried) answers as growing every tile, and ``fits`` (which reads a tile's ways
in from its layout) answers as turning each half, at one turn as among all, kept by the map as
found afresh; the graphs kept stay within their bound. The shortcuts the rules take answer as
the long way."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import plugin_manager
from meeple.core.rng import bot_stream
from meeple.plugins.clank.catalog import Exit, Graph
from meeple.plugins.clank.content import Tunnel
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank_catacombs.board import CLOCKWISE, Layouts, Leg, Open, lay
from meeple.plugins.clank_catacombs.content import START_SIDES
from meeple.plugins.clank_catacombs.dungeon import GRAPHS_KEPT
from meeple.plugins.clank_catacombs.growth import TileGraph, build, grow, join
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import CatacombsState, Discover, Placed
from meeple.plugins.clank_catacombs.tiles import Half, Tile, TileRoom

HOOKS = Hooks(plugin_manager())
Cell = tuple[int, int]
GRAPH_FIELDS = (
    "order", "index", "rooms", "tunnels", "exits", "near", "start", "depths", "caves",
    "markets", "heal", "names", "features", "tile_of", "locks", "cells", "haunted", "portals",
    "wayshrines", "trips", "ids",
)  # fmt: skip
ROOM_FIELDS = ("rooms", "order", "index", "start", "depths", "caves", "markets", "heal")
"""The fields :meth:`Graph.read_rooms` reads off the rooms (a tile graph grows them)."""


def decisions(game: Any, seats: int, seed: int) -> Iterator[Any]:
    """Every state of a seeded game of random players, before each decision."""
    match = Match.new(game, seats, seed, HOOKS)
    bots = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
    state = match.state
    while state.stack:
        yield state
        seat = state.stack[-1].seat
        match.step(bots[seat].choose(Prompt.of(game, state, seat, match.legal())))


def assert_same_graph(got: TileGraph, fresh: TileGraph) -> None:
    for name in GRAPH_FIELDS:
        assert getattr(got, name) == getattr(fresh, name), name
    assert list(got.opens.items()) == list(fresh.opens.items())
    assert vars(got.growth.copy()) == vars(got.growth)  # a copy takes every field
    assert list(got.opens.items()) == list(opens(got.growth.placed, got).items())
    portals = set(got.portals)
    assert got.growth.legs == [
        Leg(t.b, t.a, k, True, not t.one_way)
        if t.b in portals
        else Leg(t.a, t.b, k, not t.one_way, True)
        for k, t in enumerate(got.growth.tunnels)
        if (t.a in portals) != (t.b in portals)
    ]
    board = Graph(fresh.board)  # what the engine reads off the same rooms, all at once
    for name in ROOM_FIELDS:
        assert getattr(got, name) == getattr(board, name), name
    if not got.trips:  # the engine links the tunnels alike (trips drop the portals beside)
        assert (got.exits, got.near) == (board.exits, board.near)
        assert all(type(e) is Exit for ways in got.near.values() for e in ways)
    features = fresh.features
    assert got.portals == [r for r, f in enumerate(features) if f.portal]
    assert got.wayshrines == [r for r, f in enumerate(features) if f.wayshrine]
    assert [list(ids.values()) for ids in got.ids] == [
        [r for r, i in enumerate(got.tile_of) if i == place] for place in range(len(got.ids))
    ]


def opens(placements: list[Placed], graph: TileGraph) -> dict[int, list[Open]]:
    """The open edges the long way: every half-tunnel of every placement into an empty cell,
    in placement then tile order, gathered by room in the order of their first."""
    cells = graph.cells
    flat = []
    for i, at in enumerate(placements):
        for edge in lay(graph.growth.tiles[at.tile], at.turn).edges:
            cell = (at.x + edge.ahead[0], at.y + edge.ahead[1])
            if cell not in cells:
                room = graph.ids[i][edge.half.room]
                flat.append(Open(i, edge.k, room, cell, edge.enters, edge.pos, edge.half))
    by_room: dict[int, list[Open]] = {}
    for o in flat:
        by_room.setdefault(o.room, []).append(o)
    return by_room


def linked(placements: list[Placed], i: int, game: CatacombsGame) -> bool:
    """``link_ok`` the long way: every placement grown, any real tunnel out of tile ``i``."""
    growth = grow(placements, game.cat.tiles)
    owner = growth.tile_of
    return any((owner[t.a] == i) != (owner[t.b] == i) for t in growth.tunnels)


def fits(game: CatacombsGame, state: CatacombsState, frame: Discover) -> list[tuple[int, Any]]:
    """``fits`` the long way: each half of the new tile's top cell at the mover's opening,
    turned to the mover's side, joined to the mover's half: (turn, tunnel)."""
    tile = game.cat.tiles[frame.tile]
    (o,) = [
        o
        for o in game.graph(state).opens[frame.room]
        if (o.place, o.half) == (frame.place, frame.half)
    ]
    against = game.against_arrows(state.players[frame.seat])
    out = []
    for t in range(4):
        for k, half in enumerate(tile.edges):
            if half.cell or half.pos != o.pos or CLOCKWISE[half.side][t] != o.side:
                continue
            room = len(state.rooms) + [r.id for r in tile.rooms].index(half.room)
            joined = join(
                frame.room, o.edge, f"{frame.place}/e{frame.half}", room, half,
                f"{len(state.tiles)}/e{k}",
            )  # fmt: skip
            if joined is None:
                continue
            tunnel = joined[0]
            if tunnel.one_way and tunnel.a != frame.room and not (frame.teleport or against):
                continue
            out.append((t, tunnel))
    return out


@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (3, 1), (4, 3), (4, 4), (4, 5)])
def test_catacombs_graph_is_the_graph_built_afresh(
    seats: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = CatacombsGame(CatacombsGame.options_type(start_side="random"))
    checked = []
    link_ok = game.link_ok

    def checked_link_ok(owner: Mapping[Cell, int], placements: list[Placed], i: int) -> bool:
        answer = link_ok(owner, placements, i)
        assert owner == grow(placements, game.cat.tiles).cells  # the same at other turns
        assert answer == linked(placements, i, game)
        checked.append(i)
        return answer

    monkeypatch.setattr(game, "link_ok", checked_link_ok)
    tiles = 0
    discovered = 0
    for state in decisions(game, seats, seed):
        assert_same_graph(game.graph(state), build(state.tiles, game.cat.tiles))
        for at in state.tiles:
            assert game.cat.layouts.laid(at) == lay(game.cat.tiles[at.tile], at.turn)
        frame = state.stack[-1]
        if isinstance(frame, Discover):
            every = game.fits(state, frame)
            assert [f[:2] for f in every] == fits(game, state, frame)
            graph = game.graph(state)
            assert graph.fitted is not None
            graph.fitted = None  # the rotations found afresh are those kept
            assert game.fits(state, frame) == every
            for turn in range(4):
                assert game.fits(state, frame, turn) == [f for f in every if f[0] == turn]
            discovered += 1
        tiles = len(state.tiles)
    assert tiles > 5 and checked and discovered  # the dungeon grew, a tile turned
    assert len(game._graphs) <= GRAPHS_KEPT


def test_catacombs_graphs_kept_stay_bounded() -> None:
    """Many games on one game object keep at most :data:`GRAPHS_KEPT` graphs."""
    game = CatacombsGame()
    for _ in decisions(game, 4, 0):
        pass
    first = list(game._graphs)
    for seed in range(1, 8):
        for _ in decisions(game, 4, seed):
            pass
    assert len(game._graphs) == GRAPHS_KEPT and not set(first) <= set(game._graphs)


@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (4, 3)])
def test_catacombs_shortcuts_answer_as_the_long_way(seats: int, seed: int) -> None:
    """At every decision, an open edge carries its tile's half-tunnel, and ``takeable`` (which
    sees an empty room by its zone) answers as the engine's with the idols left out."""
    game = CatacombsGame()
    tiles, idols = game.cat.tiles, game.cat.idols
    for state in decisions(game, seats, seed):
        graph = game.graph(state)
        for o in (o for opens in graph.opens.values() for o in opens):
            assert o.edge == tiles[state.tiles[o.place].tile].edges[o.half]
        p = state.players[state.stack[-1].seat]
        for room in graph.order:
            engine = ClankEngine.takeable(game, state, p, room)
            assert game.takeable(state, p, room) == [t for t in engine if t not in idols]


@pytest.mark.parametrize("arrow_a", [None, "out", "in"])
@pytest.mark.parametrize("arrow_b", [None, "out", "in"])
@pytest.mark.parametrize(("lock_a", "lock_b"), [(False, False), (True, False), (False, True)])
def test_catacombs_join_reads_arrows_as_the_long_way(
    arrow_a: Any, arrow_b: Any, lock_a: bool, lock_b: bool
) -> None:
    """``join`` (which reads two arrows not opposed as agreeing) answers as collecting each
    arrow's way: one way a one-way tunnel, opposed ways none."""
    ha = Half(room="a", side="e", arrow=arrow_a, lock=lock_a, monsters=1)
    hb = Half(room="b", side="w", arrow=arrow_b, lock=lock_b, footprints=True)
    ways = set()
    if arrow_a is not None:
        ways.add("ab" if arrow_a == "out" else "ba")
    if arrow_b is not None:
        ways.add("ba" if arrow_b == "out" else "ab")
    keys = tuple(k for k, lock in (("0/e0", lock_a), ("1/e0", lock_b)) if lock)
    a, b = (1, 0) if ways == {"ba"} else (0, 1)
    want = Tunnel(a=a, b=b, boots=2, monsters=1, locked=bool(keys), one_way=bool(ways))
    got = join(0, ha, "0/e0", 1, hb, "1/e0")
    assert got == (None if len(ways) > 1 else (want, keys))


def test_catacombs_open_edges_keep_their_order_as_cells_fill() -> None:
    """A room whose first open edge is covered while another stays now lists after a room of
    its tile whose edge lies between (a tile set may interleave them; the built-in one does
    not), as the open edges gathered the long way."""
    game = CatacombsGame()
    tiles = {
        **game.cat.tiles,
        "x": Tile(
            id="x",
            back="lighter",
            rooms=[TileRoom(id="a"), TileRoom(id="b")],
            edges=[Half(room="a", side="n"), Half(room="b", side="e"), Half(room="a", side="s")],
        ),
        "y": Tile(id="y", back="lighter", rooms=[TileRoom(id="a")]),
    }
    placements = [Placed(START_SIDES[0], 0, 0), Placed("x", 1, 0), Placed("y", 1, -1)]
    before = build(placements[:2], tiles)
    graph = build(placements, tiles)
    a, b = graph.ids[1]["a"], graph.ids[1]["b"]
    assert list(before.opens)[-2:] == [a, b] and list(graph.opens)[-2:] == [b, a]
    assert list(graph.opens.items()) == list(opens(placements, graph).items())
    layouts = Layouts(tiles)
    assert layouts.interleaved("x") and not any(map(layouts.interleaved, game.cat.tiles))
