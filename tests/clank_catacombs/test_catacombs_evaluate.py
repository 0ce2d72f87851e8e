"""Catacombs' ``evaluate``: the engine's outlook with this game's dragon and end."""

from __future__ import annotations

from meeple.core.testing import scenario
from meeple.plugins.clank_catacombs.evaluate import CatacombsOutlook
from meeple.plugins.clank_catacombs.rules import CatacombsGame


def test_seats_that_left_feed_the_dragon_and_the_dungeon_deck_ends_the_game() -> None:
    game = CatacombsGame()
    outlook = CatacombsOutlook(game)
    state = game.setup(4, 1)
    draws = game.cat.tables.left_draw["4"]
    out = scenario(game, {"players[1].status": "escaped", "turns.left": [1]}, seats=4)
    assert outlook.drawn(out) == outlook.drawn(state) + draws
    short = scenario(game, {"dungeon": state.dungeon.cards[-3:]}, seats=4)
    assert outlook.turns_left(short) < outlook.turns_left(state)
