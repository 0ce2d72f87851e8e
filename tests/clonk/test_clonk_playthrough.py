"""Whole Clonk! games with bots end in valid states (rules.md#end), via the plugin registry."""

from __future__ import annotations

import pytest

from meeple.core.bots import RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import bot_stream
from meeple.plugins.clonk import Clonk


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_valid(seats: int) -> None:
    """rules.md#end: every game ends after a full last round, every state valid on the way."""
    game = Clonk()
    for seed in range(8):
        match = Match.new(game, seats, seed, Hooks(None))
        bots = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]

        def check(seat, action, events, state=match.state, seed=seed):
            assert game.check_state(state) == [], (seed, action)

        scores = match.run(bots, on_events=check)
        state = match.state
        assert game.is_over(state) and state.turns.last_round and state.aside.cards == ["awakening"]
        assert game.check_state(state) == []
        assert all(s.total == sum(s.parts.values()) for s in scores)


def test_registered_with_the_greedy_bot() -> None:
    """The plugin registers the game and its greedy bot, which plays legal moves to the end."""
    registry = Registry(plugin_manager(entry_points=False))
    assert registry.game("clonk") is Clonk
    spec = registry.bot("greedy", "clonk")
    game = Clonk()
    for seed in range(3):
        match = Match.new(game, 4, seed, Hooks(None))
        bots = [spec.factory(game, s, bot_stream(seed, s, "greedy")) for s in range(4)]
        match.run(bots)
        assert game.check_state(match.state) == []
        text = game.presentation.render(game.view(match.state, 0), 0)
        assert text is not None and len(game.presentation.seat_summary(match.state)) == 4
