"""The Clank! table at 80 columns: the countdown track, market items and where a card is
fought, each in a reader's words."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import Buy


def text(renderable: Any, width: int) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_the_table_says_the_countdown_where_and_items_in_words() -> None:
    """rules.md#countdown: Clank! has the track; rules.md#market: items by their names."""
    g = Clank()
    state = g.setup(2, 1)
    depths = next(c for c, card in g.cat.card.items() if card.where == "depths")
    state.row.cards[0] = depths
    assert "…" not in text(g.presentation.render(g.view(state, 0), 0), 80)
    out = text(g.presentation.render(g.view(state, 0), 0), 200)  # a cell on one line
    assert "countdown -" in out
    assert "only in the depths" in out and "only depths" not in out
    assert (
        g.presentation.describe_action(state, Buy(item="master-key"))
        == "buy a Master Key at the market"
    )
