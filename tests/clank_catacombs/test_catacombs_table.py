"""The Catacombs table as a player reads it at 80 columns: the room and its exits, the
rotations and open edges by what they cost, opened locks, the map's tunnels, no raw ids."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console

from meeple.core.rng import Rng, stream
from meeple.plugins.clank import present as base
from meeple.plugins.clank.state import Move, Pool
from meeple.plugins.clank_catacombs import present
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.rules import CatacombsGame

SIDES = ("north", "east", "south", "west")


def text(renderable: Any) -> str:
    """What a terminal 80 columns wide shows."""
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def played_until(
    seed: int, done: Callable[[CatacombsGame, cs.CatacombsState], bool]
) -> tuple[CatacombsGame, cs.CatacombsState]:
    """A 2-seat game of random moves that explore whenever they can, stopped once ``done``."""
    g = CatacombsGame()
    state = g.setup(2, seed)
    rng = stream(Rng(seed=seed))
    while not done(g, state):
        assert not g.is_over(state), f"seed {seed}: the game ended first"
        legal = g.legal_actions(state)
        found = [a for a in legal if isinstance(a, cs.Rotate | cs.Explore)]
        g.resolve(state, found[-1] if found else legal[rng.below(len(legal))])
    return g, state


def off_the_start(g: CatacombsGame, state: cs.CatacombsState) -> bool:
    """Seat 0 is to move, standing on a tile it discovered."""
    return state.stack[-1].seat == 0 and g.graph(state).tile_of[state.players[0].room] != 0


def test_the_header_names_the_room_and_the_exits_list_every_way_on() -> None:
    """rules.md#tiles, rules.md#discovery: the room by its tile and features; every tunnel
    out and every open edge, by its direction, in the Exits table."""
    g, state = played_until(3, off_the_start)
    room = state.players[0].room
    out = text(g.presentation.render(g.view(state, 0), 0))
    assert f"You are in {present.room_text(g, state, room)}" in out
    assert "You are in room 7 (light-3:a): wayshrine" in out
    assert "seat 0: in, room 7 (light-3:a), damage" in out
    exits = out[out.index("Exits") : out.index("Tokens here")]
    rows = [line.split("│") for line in exits.splitlines() if line.startswith("│")]
    to = " ".join(row[1].strip() for row in rows)  # a long room wraps within its column
    for e in g.graph(state).exits[room]:
        assert present.room_text(g, state, e.to) in to
    for o in g.graph(state).opens[room]:
        assert f"│ {present.direction(o)}, off the edge" in exits
    assert "west, off the edge 1 boot + the new tile's half" in " ".join(
        exits.replace("│", " ").split()
    )


def test_a_plain_room_says_so() -> None:
    g, state = played_until(3, off_the_start)
    state.players[0].room = 6  # light-4:b, nothing printed on it
    assert "You are in room 6 (light-4:b): plain" in text(
        g.presentation.render(g.view(state, 0), 0)
    )


def test_each_rotation_names_the_room_it_enters_and_its_tunnel() -> None:
    """rules.md#discovery: the new room, and the tunnel's boots, monsters and locks."""
    g, state = played_until(1, lambda g, s: type(s.stack[-1]) is cs.Discover)
    frame = state.stack[-1]
    assert isinstance(frame, cs.Discover)
    fits = {turn: (tunnel, room) for turn, tunnel, _, room in g.fits(state, frame)}
    rotations = [a for a in g.legal_actions(state) if isinstance(a, cs.Rotate) and a.enter]
    assert rotations
    for a in rotations:
        said = g.presentation.describe_action(state, a)
        tunnel, room = fits[a.turn]
        assert f"and enter room {room} ({frame.tile}:" in said
        assert f"; tunnel {base.costs_text(tunnel, '')}".rstrip(", ") in said


def test_each_open_edge_names_its_direction_and_cost() -> None:
    """rules.md#discovery: an edge walked off reads by its way out and what its half asks."""
    g, state = played_until(
        1, lambda g, s: any(isinstance(a, cs.Explore) for a in g.legal_actions(s))
    )
    explores = [a for a in g.legal_actions(state) if isinstance(a, cs.Explore)]
    for a in explores:
        said = g.presentation.describe_action(state, a)
        assert any(f" {side} off the dungeon's edge from room " in said for side in SIDES)
        assert a.teleport or " boot" in said
    assert g.presentation.describe_action(state, explores[0]) == (
        "move south off the dungeon's edge from room 0 (start-a:crypt) (1 boot; discover a tile)"
    )


def test_an_opened_lock_no_longer_reads_locked() -> None:
    """rules.md#locks: a Lockpick left on a lock opens it for everyone."""
    g, state = played_until(1, lambda g, s: any(t.locked for t in g.graph(s).tunnels))
    graph = g.graph(state)
    k, t = next((k, t) for k, t in enumerate(graph.tunnels) if t.locked)
    p = state.players[state.stack[-1].seat]
    p.room, state.pool = t.a, Pool(boots=2, swords=2)
    move = Move(tunnel=k, to=t.b)
    assert "lock closed" in g.presentation.describe_action(state, move)
    state.picked.extend(graph.locks[k])
    seat = state.stack[-1].seat
    said = [
        text(g.presentation.render(g.view(state, seat), seat)),
        g.presentation.describe_action(state, move),
    ]
    assert "lock open" in said[1]
    assert not any("locked" in line or "lock closed" in line for line in said)


def test_the_map_shows_every_tunnel_with_its_costs() -> None:
    """rules.md#movement, rules.md#locks: each tunnel by its rooms, boots, monsters, locks."""
    g, state = played_until(3, off_the_start)
    out = " ".join(text(g.presentation.render(g.view(state, 0), 0)).split())  # unwrapped
    for k, t in enumerate(g.graph(state).tunnels):
        assert f"{t.a}{'->' if t.one_way else '-'}{t.b}: {base.tunnel_text(g, state, k)}" in out
    assert (
        "tunnels 7-8: 1 boot, 1 monster; 2-7: 1 boot; "
        "open edges 7 west: 1 boot; 8 north: 1 boot; 8 east: 1 boot"
    ) in out


def test_the_grid_shows_the_tunnels_across_cell_edges() -> None:
    """Each tunnel between two cells shows between them; a narrow terminal gets the grid
    by placement numbers rather than a wrapped one."""
    g, state = played_until(3, off_the_start)
    assert present.grid(g, state, 0).splitlines() == [
        "               [2:light-3   ]",
        "               [7*,8        ]",
        "                     |",
        "               [0:start-b   ]",
        "               [2,3,4       ]",
        "                     |",
        "[1:light-4   ] [0:start-b   ]",
        "[5,6         ]-[0,1         ]",
    ]
    console = Console(width=20, record=True, color_system=None, file=io.StringIO())
    console.print(present.Map(g, state, 0))
    narrow = console.export_text().splitlines()
    assert narrow[:3] == ["        [2    ]", "        [7*,8 ]", "           |"]
    assert all(len(line) <= 20 for line in narrow)


def test_a_game_without_a_countdown_track_shows_none() -> None:
    """rules.md#components: Catacombs has no countdown track."""
    g, state = played_until(3, off_the_start)
    assert "countdown" not in text(g.presentation.render(g.view(state, 0), 0))


def test_no_raw_ids_and_no_cut_words_at_80_columns() -> None:
    """Modifiers, item kinds, where a card is fought and cube colours read as words."""
    g, state = played_until(3, off_the_start)
    where = next(c for c, card in g.cat.card.items() if card.where == "crystal-cave-or-wayshrine")
    state.row.cards[0] = where
    state.pool.mods.append("gem-discount-2")
    state.bag.cubes["seat-0"] = 3
    out = text(g.presentation.render(g.view(state, 0), 0))
    flat = " ".join(out.replace("│", " ").split())
    assert "gems cost 2 less this turn" in flat and "gem-discount-2" not in out
    assert "only in a crystal cave or at a Wayshrine" in flat
    assert "3 seat 0" in out and "seat-0" not in out
    assert "…" not in out
    state.pool.offer = 5
    assert g.presentation.describe_action(state, cs.Claim(item="burglars-kit")) == (
        "buy a Burglar's Kit for 5 gold (offer)"
    )
    for where, said in (
        ("3/e2", "a tunnel's lock at the edge of tile 3"),
        ("3/i0", "a tunnel's lock inside tile 3"),
        ("room 12", "the lock of room 12"),
    ):
        assert g.presentation.describe_event(cs.Opened(seat=0, where=where), 0) == (
            f"seat 0 leaves a Lockpick on {said}"
        )
