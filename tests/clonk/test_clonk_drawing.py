"""The Clonk! table split into what every seat sees and what only one seat does, and the
legend of its marks and colours."""

from __future__ import annotations

import pytest
from panes import panes_of_a_played_game, text
from rich.text import Text

from meeple.core.rng import Stream
from meeple.plugins.clonk import present
from meeple.plugins.clonk.rules import Clonk


def test_the_legend_names_every_mark_and_colour_in_that_colour() -> None:
    """Each crystal's entry is drawn as that crystal's cards are."""
    g = Clonk()
    legend = {str(symbol): (symbol, meaning) for symbol, meaning in g.presentation.legend()}
    assert {"$", "o", present.FACE_DOWN, "▶"} <= legend.keys()
    for card in g.content.treasures:
        name = g.content.colours[g.content.colour[card]]
        symbol, meaning = legend[f"{name} text"]
        assert meaning == f"a {name} crystal card"
        assert isinstance(symbol, Text) and symbol.style == g.presentation.styled(card).style


def test_render_is_the_table_then_the_private_pane() -> None:
    g = Clonk()
    state = g.setup(3, 1)
    view = g.view(state, 0)
    table, private = (
        text(g.presentation.render_table(view, 0)),
        text(g.presentation.render_private(view, 0)),
    )
    assert text(g.presentation.render(view, 0)) == table + private
    assert "Mine shafts" in table and "Draw pile" in table and "Your hand" not in table
    assert "Your hand: " in private and "Your hidden tasks: " in private
    onlooker = g.view(state, None)
    assert text(g.presentation.render(onlooker, None)) == text(
        g.presentation.render_table(onlooker, None)
    )


def test_no_seat_sees_another_seats_hand_or_hidden_tasks() -> None:
    """The table pane is the same whatever seat 0 holds and whichever tasks it hides: it
    shows no hand, and only tasks shown face up."""
    g = Clonk()
    state = g.setup(3, 2)
    other = g.setup(3, 2)
    other.hands[0].cards = other.draw.cards[: len(state.hands[0].cards)]
    other.tasks[0].cards = list(reversed(state.tasks[0].cards))
    for seat in (0, 1, 2, None):
        assert text(g.presentation.render_table(g.view(state, seat), seat)) == text(
            g.presentation.render_table(g.view(other, seat), seat)
        )
    hand = text(g.presentation.render_private(g.view(state, 0), 0))
    assert all(g.presentation.name(c) in hand for c in state.hands[0].cards)


@pytest.mark.parametrize("width", [48, 62, 76, 80, 120])
def test_no_card_is_split_between_lines(width: int) -> None:
    """Line mode at 80 and 120 columns, and the table's pane at 80, 100 and 120 (48, 62 and
    76 wide): each card shown, in a shaft, a cart, a gallery or the hand, reads whole on one
    line; rows wrap between cards."""
    g = Clonk()
    state = g.setup(4, 5)
    pick = Stream("whole cards")
    for step in range(400):
        if g.is_over(state):
            break
        if step % 20 == 0:
            for seat in range(4):
                view = g.view(state, seat)
                shown = [c for z in view.shafts for j, c in enumerate(z.cards) if z.is_up(j)]
                shown += [z.cards[-1] for z in view.carts if z.cards]
                shown += [c for z in view.galleries for c in z.cards]
                shown += view.hands[seat].cards
                lines = text(g.presentation.render(view, seat), width).splitlines()
                for card in shown:
                    assert any(g.presentation.name(card) in line for line in lines), (step, card)
        g.resolve(state, pick.choice(g.legal_actions(state)))


def test_every_view_of_a_seeded_game_renders() -> None:
    for seat, table, private in panes_of_a_played_game(Clonk(), 4, 5, steps=200, every=50):
        assert "Mine shafts" in table
        assert seat is None or (private is not None and "Your hand: " in private)
