"""How well a seat stands in Clank! Catacombs: the engine's outlook
(:mod:`meeple.plugins.clank.evaluate`) with this game's dragon and end.

- rules.md#left-seats: every seat that left draws cubes on each of its turns,
  so the dragon draws more the more seats are out;
- rules.md#ghosts: a drawn Ghost hurts every seat still in the dungeon;
- rules.md#game-end: there is no countdown; the game ends when the Dungeon Row
  cannot be refilled, so the Dungeon Deck says how many turns are left.
"""

from __future__ import annotations

from meeple.plugins.clank.evaluate import Outlook
from meeple.plugins.clank.weighing import INF
from meeple.plugins.clank_catacombs.ghosts import GHOST
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import CatacombsState

ROW_CARDS_PER_TURN = 1.5
"""Dungeon Row cards a turn takes (acquired or defeated), refilled from the Dungeon Deck."""


class CatacombsOutlook(Outlook[CatacombsState]):
    """The Catacombs dragon and end."""

    fitted = "clank-catacombs/evaluation.json"
    # Set by hand; its weights and its search's settings were measured with them.
    hurt = 0.2
    attacks = 1.0

    def race(self, mine: float, turns: list[float]) -> float:
        """No countdown: a seat out does not end the others' game (rules.md#left-seats)."""
        return INF

    def turns_left(self, state: CatacombsState) -> float:
        inside = sum(p.status == "in" for p in state.players)
        return len(state.dungeon.cards) / ROW_CARDS_PER_TURN / max(inside, 1)

    def drawn(self, state: CatacombsState) -> float:
        left = sum(p.status != "in" for p in state.players)
        return super().drawn(state) + left * self.game.cat.tables.left_draw[str(state.seats)]

    def share(self, state: CatacombsState, seat: int) -> float:
        ghosts = state.bag.cubes.get(GHOST, 0) + state.ghost_clank
        cubes = len(state.bag) + sum(p.clank for p in state.players) + state.ghost_clank
        return super().share(state, seat) + ghosts / max(cubes, 1)


def evaluate(game: CatacombsGame, state: CatacombsState, seat: int) -> float:
    """``seat``'s chance to win (see :mod:`meeple.plugins.clank.evaluate`)."""
    return CatacombsOutlook(game).chances(state)[seat]
