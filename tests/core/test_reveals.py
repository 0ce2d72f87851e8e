"""Game.reveals on every game: a step said to show the seat nothing is one it could foresee.

The rules that do show something are checked per game (``tests/*/test_*_reveals.py``).
"""

from __future__ import annotations

from typing import Any

from meeple.core.engine import Hooks, Match
from meeple.core.game import Game
from meeple.core.plugins import Registry
from meeple.core.rng import Stream
from meeple.core.zones import Survey, iter_zones

STEPS = 300
"""Decisions of each game checked (about half a second a game)."""


def named_unseen(game: Game[Any, Any], view: Any, action: Any) -> bool:
    """Whether ``action`` names a card ``view`` does not show (a face-down token to take)."""
    shown = {card for zone in iter_zones(view) for card in zone.cards}
    cards = set(game.cards(view))
    return any(name in cards and name not in shown for _, name in Survey(action).names)


def test_a_step_that_reveals_nothing_is_one_the_seat_could_foresee(
    game_id: str, registry: Registry
) -> None:
    """Any deal of the seat's view before it, taking the same step, leaves the seat the
    same view, choices and log lines after it (an action naming a card the view hides
    cannot be dealt: it is left out)."""
    game = registry.game(game_id)()
    match = Match.new(game, game.min_seats, 3, Hooks(None))
    stream = Stream(game_id)
    for _ in range(STEPS):
        if match.over:
            break
        before, seat = game.clone(match.state), match.state.to_move
        action = match.legal()[stream.below(len(match.legal()))]
        events = match.step(action)
        view = game.view(before, seat)
        if game.reveals(before, match.state, seat) or named_unseen(game, view, action):
            continue
        log = [game.presentation.describe_event(event, seat) for event in events]
        seen = game.digest(game.view(match.state, seat)), game.legal_actions(match.state), log
        deal = game.dealer(view)
        for _ in range(2):
            dealt = deal(stream)
            dealt.rng = before.rng  # the same chance as the real game: no draw was made
            log = [
                game.presentation.describe_event(event, seat)
                for event in game.resolve(dealt, action)
            ]
            choices = game.legal_actions(dealt) if dealt.to_move == seat else seen[1]
            assert (game.digest(game.view(dealt, seat)), choices, log) == seen, action
