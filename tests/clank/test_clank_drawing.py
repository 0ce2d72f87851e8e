"""The Clank! board drawn as a map, and the table split into what every seat sees and what
only one seat does."""

from __future__ import annotations

import re

import pytest
from panes import panes_of_a_played_game, text
from rich.text import Text

from meeple.plugins.clank import drawing
from meeple.plugins.clank.rules import Clank, ClankOptions
from meeple.plugins.clank.state import ClankState


def rooms(game: Clank, view: ClankState, seat: int | None) -> dict[int, Text]:
    """Each room's entry on the map, by room id."""
    return {
        room_of(entry): entry
        for line in drawing.entries(game, view, seat).values()
        for entry in line
    }


def room_of(entry: Text) -> int:
    found = re.match(r"\[(\d+)", entry.plain)
    assert found is not None
    return int(found[1])


def label(entry: Text) -> str:
    """The bracketed room of an entry: ``[14* 1 2]``."""
    return entry.plain[: entry.plain.index("]") + 1]


def reversed_at(entry: Text, i: int) -> bool:
    return any(s.start <= i < s.end and s.style == drawing.YOU for s in entry.spans)


@pytest.fixture
def game() -> Clank:
    return Clank()


def test_the_legend_draws_each_mark_as_the_map_does(game: Clank) -> None:
    legend = {str(symbol): symbol for symbol, _ in game.presentation.legend()}
    marks = [(mark, style) for _, mark, style in drawing.FEATURES]
    marks += [(mark, style) for mark, style, _ in drawing.TUNNEL_MARKS]
    marks += [(mark, drawing.TOKEN) for mark in ("s", "S", "i", "t")]
    for mark, style in marks:
        symbol = legend[mark]
        assert isinstance(symbol, Text) and symbol.style == style, mark
    pawns = legend["0 1 2 3"]
    assert isinstance(pawns, Text)
    assert [(pawns.plain[s.start : s.end], s.style) for s in pawns.spans] == [
        (str(seat), style) for seat, style in enumerate(drawing.PAWNS)
    ]


def test_every_pawn_stands_in_its_room_and_yours_is_marked(game: Clank) -> None:
    state = game.setup(4, 1)
    for seat, room in enumerate((14, 14, 21, 1)):
        state.players[seat].room = room
    view = game.view(state, 2)
    entries = rooms(game, view, 2)
    assert label(entries[14]).endswith(" 0 1]")
    assert label(entries[21]) == "[21 A7 2]"
    assert label(entries[1]) == "[1⌂ 3]"
    pawns = sum(label(e).count(f" {s}") for e in entries.values() for s in "0123")
    assert pawns == 4
    assert reversed_at(entries[21], 0) and not reversed_at(entries[14], 0)
    out = text(game.presentation.render_table(view, 2))
    way = next(line for line in out.splitlines() if line.startswith("Your way out: "))
    assert way.startswith("Your way out: 21 → ") and way.endswith(" → 2 → 1")
    assert "[21 A7 2]" in out


def test_tunnel_costs_and_icons_show_from_both_ends(game: Clank) -> None:
    """Board front: 4-9 locked, 6->5 one-way, 5-10 a monster, 3-4 two boots, 14-19 two
    monsters."""
    entries = rooms(game, game.view(game.setup(2, 1), 0), 0)
    said = {r: e.plain.split("]", 1)[1].split() for r, e in entries.items()}
    assert "9k" in said[4] and "4k" in said[9]
    assert "→5" in said[6] and "←6" in said[5]
    assert "10m" in said[5] and "5m" in said[10]
    assert "4b" in said[3] and "3b" in said[4]
    assert "19mm" in said[14]
    styles = {s.style for s in entries[4].spans}
    # the boot and the lock, in their colours
    assert {drawing.COLOURS["cyan"], drawing.COLOURS["yellow"]} <= styles


def test_rooms_lie_by_distance_from_the_entrance(game: Clank) -> None:
    lines = drawing.entries(game, game.view(game.setup(2, 1), None), None)
    assert [label(e) for e in lines[0]] == ["[1⌂ 0 1]"]  # both pawns wait outside
    assert [label(e) for e in lines[1]] == ["[2]"]
    assert {label(e).split()[0].rstrip("]") for e in lines[3]} == {"[4", "[7*", "[8*"}


def test_the_back_board_draws_another_map(game: Clank) -> None:
    back = Clank(ClankOptions(board="back"))
    front_map = text(drawing.BoardMap(game, game.view(game.setup(2, 1), 0), 0))
    back_map = text(drawing.BoardMap(back, back.view(back.setup(2, 1), 0), 0))
    assert "front side" in front_map and "back side" in back_map
    assert front_map.splitlines()[1:] != back_map.splitlines()[1:]
    assert "[43*+]" in back_map  # a crystal cave that heals, only on the back
    for out in (front_map, back_map):
        assert max(map(len, out.splitlines())) <= drawing.WIDTH


def test_the_map_wraps_within_a_narrow_terminal(game: Clank) -> None:
    out = text(drawing.BoardMap(game, game.view(game.setup(2, 1), 0), 0), 60)
    assert max(map(len, out.splitlines())) <= 60
    assert "│ [5 S] 4b 10m ←6" in out


def test_render_is_the_table_then_the_private_pane(game: Clank) -> None:
    state = game.setup(2, 1)
    view = game.view(state, 0)
    table, private, whole = (
        text(game.presentation.render_table(view, 0)),
        text(game.presentation.render_private(view, 0)),
        text(game.presentation.render(view, 0)),
    )
    assert whole == table + private
    assert "Hand: " in private and "Pool: " in private and "Hand: " not in table
    assert "You are in room 1" in table and "rooms by tunnels from the entrance" in table
    assert text(game.presentation.render(game.view(state, None), None)) == text(
        game.presentation.render_table(game.view(state, None), None)
    )
    assert {str(symbol): meaning for symbol, meaning in game.presentation.legend()}["k"].startswith(
        "locked"
    )


def test_no_seat_sees_another_seats_hand(game: Clank) -> None:
    """The table pane holds no hand, its own or another's: a seat's hidden cards change
    nothing any seat is shown there."""
    state = game.setup(3, 4)
    shown = {c for c in state.row.cards} | {z.cards[-1] for z in state.reserve if z.cards}
    secret = next(c for c in game.cat.dungeon if c not in shown)
    name = game.cat.card[secret].name
    assert name not in text(game.presentation.render_table(game.view(state, 0), 0), 200)
    state.players[0].hand.cards.append(secret)
    assert name in text(game.presentation.render_private(game.view(state, 0), 0), 200)
    for seat in (0, 1, 2, None):
        assert name not in text(game.presentation.render_table(game.view(state, seat), seat), 200)


def test_every_view_of_a_seeded_game_renders(game: Clank) -> None:
    """The table and private panes of every seat and the onlooker, at a few points of a game
    of random moves."""
    for seat, table, private in panes_of_a_played_game(game, 4, 7):
        assert "entrance" in table
        assert seat is None or (private is not None and "Hand: " in private)
