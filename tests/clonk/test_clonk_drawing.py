"""The Clonk! table split into what every seat sees and what only one seat does, and the
legend of its marks and colours."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from meeple.core.rng import Rng, stream
from meeple.plugins.clonk import present
from meeple.plugins.clonk.rules import Clonk


def text(renderable: Any) -> str:
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_the_legend_names_every_mark_and_colour() -> None:
    legend = dict(Clonk().legend())
    assert {"$", "o", present.FACE_DOWN, "▶"} <= legend.keys()
    for name, colour in present.COLOURS.items():
        assert legend[f"{colour} text"] == f"a {name} crystal card"


def test_render_is_the_table_then_the_private_pane() -> None:
    g = Clonk()
    state = g.setup(3, 1)
    view = g.view(state, 0)
    table, private = text(g.render_table(view, 0)), text(g.render_private(view, 0))
    assert text(g.render(view, 0)) == table + private
    assert "Mine shafts" in table and "Draw pile" in table and "Your hand" not in table
    assert "Your hand: " in private and "Your hidden tasks: " in private
    onlooker = g.view(state, None)
    assert text(g.render(onlooker, None)) == text(g.render_table(onlooker, None))


def test_no_seat_sees_another_seats_hand_or_hidden_tasks() -> None:
    """The table pane is the same whatever seat 0 holds and whichever tasks it hides: it
    shows no hand, and only tasks shown face up."""
    g = Clonk()
    state = g.setup(3, 2)
    other = g.setup(3, 2)
    other.hands[0].cards = other.draw.cards[: len(state.hands[0].cards)]
    other.tasks[0].cards = list(reversed(state.tasks[0].cards))
    for seat in (0, 1, 2, None):
        assert text(g.render_table(g.view(state, seat), seat)) == text(
            g.render_table(g.view(other, seat), seat)
        )
    hand = text(g.render_private(g.view(state, 0), 0))
    assert all(present.name(g, c) in hand for c in state.hands[0].cards)


def test_every_view_of_a_seeded_game_renders() -> None:
    g = Clonk()
    state = g.setup(4, 5)
    rng = stream(Rng(seed=5))
    for step in range(200):
        if g.is_over(state):
            break
        if step % 50 == 0:
            for seat in (*range(state.seats), None):
                view = g.view(state, seat)
                assert "Mine shafts" in text(g.render_table(view, seat))
                if seat is not None:
                    assert "Your hand: " in text(g.render_private(view, seat))
        legal = g.legal_actions(state)
        g.apply(state, legal[rng.below(len(legal))])
