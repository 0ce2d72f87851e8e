"""How well a seat stands in a Clonk! game: its chance to win, from the full state.

The points a seat would score if the game ended now (rules.md#scoring: coins,
both task tiles, the eye penalty of whoever has the most eyes now) are its
expected final points; the turns still to come (rules.md#end) set how much
they may yet move. :func:`~meeple.core.search.win_chances` turns the two into
chances, so a lead counts for more the nearer the end is.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from meeple.core.search import win_chances
from meeple.plugins.clonk.content import AWAKENING

if TYPE_CHECKING:
    from meeple.plugins.clonk.rules import Clonk
    from meeple.plugins.clonk.state import ClonkState

DRAWS_PER_TURN = 1.6
"""Draw-pile cards a turn uses on average: the Phase III draw and shafts laid anew."""
SPREAD_PER_ROUND = 2.5
"""How far a seat's points may move in one round of turns (one standard step)."""
SPREAD_AT_END = 0.5
"""What is left once no turn remains: tie-breaks, which the points already hold."""


def turns_left(state: ClonkState) -> float:
    """About how many turns the game has still to go (rules.md#end).

    Once the Awakening card is out, the rest of this round; before, the
    turns until the draw pile reaches it, plus one round.
    """
    turns = state.turns
    order = turns.order
    rest_of_round = len(order) - order.index(turns.current)
    if turns.last_round:
        return float(rest_of_round)
    pile = state.draw.cards
    above = len(pile) - 1 - pile.index(AWAKENING) if AWAKENING in pile else len(pile)
    return above / DRAWS_PER_TURN + rest_of_round


def evaluate(game: Clonk, state: ClonkState, seat: int) -> float:
    """``seat``'s chance to win: its points now against everyone's, with the luck still to come."""
    # Tie-breaks (fewer eyes, then more Treasure cards) as fractions of a point.
    points = [s.total + 0.01 * s.tiebreak[0] + 0.001 * s.tiebreak[1] for s in game.scores(state)]
    rounds = turns_left(state) / state.seats
    spread = SPREAD_AT_END + SPREAD_PER_ROUND * math.sqrt(rounds)
    return win_chances(points, spread)[seat]
