"""The check every game's drawing tests share: each view of a seeded game renders its table
pane and its private pane, for every seat and the onlooker."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from rich.color import Color
from rich.console import Console

from meeple.core.game import Game
from meeple.core.rng import Rng, stream


def text(renderable: Any, width: int = 100) -> str:
    """What a terminal ``width`` columns wide shows, without colours."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def panes_of_a_played_game(
    game: Game[Any, Any], seats: int, seed: int, steps: int = 240, every: int = 60
) -> list[tuple[int | None, str, str | None]]:
    """A game of random moves, and at every ``every``-th step each seat's and the
    onlooker's panes as text: ``(seat, table, private)`` (no private pane for the onlooker)."""
    return [
        (seat, text(table), None if private is None else text(private))
        for seat, table, private in drawings_of_a_played_game(game, seats, seed, steps, every)
    ]


def drawings_of_a_played_game(
    game: Game[Any, Any], seats: int, seed: int, steps: int = 240, every: int = 60
) -> list[tuple[int | None, Any, Any]]:
    """:func:`panes_of_a_played_game`'s panes as the game drew them."""
    state = game.setup(seats, seed)
    rng = stream(Rng(seed=seed))
    panes: list[tuple[int | None, Any, Any]] = []
    for step in range(steps):
        if game.is_over(state):
            break
        if step % every == 0:
            for seat in (*range(seats), None):
                view = game.view(state, seat)
                private = None if seat is None else game.presentation.render_private(view, seat)
                panes.append((seat, game.presentation.render_table(view, seat), private))
        legal = game.legal_actions(state)
        game.resolve(state, legal[rng.below(len(legal))])
    return panes


def colours(drawings: Iterable[Any]) -> set[Color]:
    """Every colour ``drawings`` are drawn in, text or background, as the game names it."""
    console = Console(width=100, file=io.StringIO(), color_system="truecolor", highlight=False)
    found: set[Color] = set()
    for drawing in drawings:
        for segment in console.render(drawing):
            if segment.style is not None:
                found |= {segment.style.color, segment.style.bgcolor} - {None}
    return found
