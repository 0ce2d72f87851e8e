"""The Catacombs dungeon drawn a box per grid cell, and the table split into what every seat
sees and what only one seat does."""

from __future__ import annotations

import re
from collections.abc import Callable

from panes import panes_of_a_played_game, text
from test_catacombs_table import off_the_start, played_until

from meeple.plugins.clank import drawing as base
from meeple.plugins.clank.content import Tunnel
from meeple.plugins.clank_catacombs import drawing
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.present import Map
from meeple.plugins.clank_catacombs.rules import CatacombsGame


def across(
    pick: Callable[[Tunnel], bool],
) -> Callable[[CatacombsGame, cs.CatacombsState], bool]:
    """Whether a tunnel ``pick`` chooses joins the rooms of two neighbouring cells."""

    def found(g: CatacombsGame, state: cs.CatacombsState) -> bool:
        graph, cells = g.graph(state), drawing.room_cells(g, state)
        return any(
            pick(t)
            and k not in graph.trips
            and abs(cells[t.a][0] - cells[t.b][0]) + abs(cells[t.a][1] - cells[t.b][1]) == 1
            for k, t in enumerate(graph.tunnels)
        )

    return found


def test_every_pawn_stands_in_its_room_and_yours_is_marked() -> None:
    g, state = played_until(3, off_the_start)
    state.players[1].room = 5
    lines = drawing.draw(g, g.view(state, 0), 0)
    out = "\n".join(line.plain for line in lines)
    assert "│7W 0 " in out and "│5* 1 " in out
    mine = next(line for line in lines if "│7W 0" in line.plain)
    at = mine.plain.index("7W 0")
    assert any(s.start <= at < s.end and s.style == base.YOU for s in mine.spans)
    theirs = next(line for line in lines if "│5* 1" in line.plain)
    assert not any(s.style == base.YOU for s in theirs.spans)


def test_boxes_and_the_tunnels_across_their_edges() -> None:
    """Seed 3: tile 2 north of the start tile, tile 1 west of its lower cell; the start
    tile's two cells are joined by a tunnel with a monster."""
    g, state = played_until(3, off_the_start)
    out = [line.plain for line in drawing.draw(g, g.view(state, None), None)]
    assert out[0].strip() == "┌2:light-3───?─┐"
    assert out[6].strip() == "┌0:start-b─────┐"
    assert out[11].strip() == "│m   │"  # 0-2 (a monster) and 1-3 cross
    assert out[13].startswith("│5*            │─   │0⌂")  # 0-6, west of the crypt
    unexplored = sum(len(v) for v in g.graph(state).opens.values())
    assert sum(line.count(drawing.UNEXPLORED) for line in out) == unexplored


def test_locked_and_one_way_tunnels_show_their_icons() -> None:
    """A closed lock reads ``k`` after the tunnel's line; a one-way tunnel is an arrow."""
    g, state = played_until(4, across(lambda t: t.locked))
    drawn = "\n".join(line.plain for line in drawing.draw(g, g.view(state, None), None))
    assert re.search("[─│][bm]*k", drawn)
    g, state = played_until(6, across(lambda t: t.one_way))
    drawn = "\n".join(line.plain for line in drawing.draw(g, g.view(state, None), None))
    assert re.search("[→←↓↑]", drawn)


def test_too_wide_a_dungeon_falls_back_to_the_grid() -> None:
    g, state = played_until(3, off_the_start)
    wide = text(Map(g, state, 0))
    assert "┌" in wide
    narrow = text(Map(g, state, 0), 30)
    assert "┌" not in narrow and "[7*,8" in narrow


def test_render_is_the_table_then_the_private_pane() -> None:
    g, state = played_until(3, off_the_start)
    view = g.view(state, 0)
    table, private = (
        text(g.presentation.render_table(view, 0)),
        text(g.presentation.render_private(view, 0)),
    )
    assert text(g.presentation.render(view, 0)) == table + private
    assert "Hand: " in private and "Lockpicks " in private and "Hand: " not in table
    assert "Dungeon, north on top" in table and "You are in room 7" in table
    legend = {str(symbol) for symbol, _ in g.presentation.legend()}
    assert drawing.UNEXPLORED in legend and "k" in legend


def test_no_seat_sees_another_seats_hand() -> None:
    g, state = played_until(3, off_the_start)
    shown = text(g.presentation.render_table(g.view(state, None), None), 200)
    secret = next(c for c in g.cat.dungeon if g.cat.card[c].name not in shown)
    name = g.cat.card[secret].name
    state.players[0].hand.cards.append(secret)
    assert name in text(g.presentation.render_private(g.view(state, 0), 0), 200)
    for seat in (0, 1, None):
        assert name not in text(g.presentation.render_table(g.view(state, seat), seat), 200)


def test_every_view_of_a_seeded_game_renders() -> None:
    for seat, table, private in panes_of_a_played_game(CatacombsGame(), 3, 11):
        assert "Dungeon" in table
        assert seat is None or (private is not None and "Lockpicks " in private)
