"""Clonk!'s ``evaluate``: win chances from the points now and the turns still to come."""

from __future__ import annotations

import pytest
from clonk_build import build, clonk

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.rng import bot_stream
from meeple.plugins.clonk.rules import Clonk


@pytest.mark.parametrize("seats", [2, 4])
def test_chances_lie_in_0_1_and_add_up_to_1(seats: int) -> None:
    game = Clonk()
    for seed in range(3):
        match = Match.new(game, seats, seed, Hooks(None))
        bots = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
        while match.state.stack:
            chances = [game.evaluate(match.state, s) for s in range(seats)]
            assert all(0 <= c <= 1 for c in chances)
            assert sum(chances) == pytest.approx(1)
            seat = match.state.stack[-1].seat
            match.step(bots[seat].choose(Prompt.of(game, match.state, seat, match.legal())))


def test_a_lead_counts_for_more_the_nearer_the_end() -> None:
    game = clonk()
    by_coins = sorted(game.content.treasures, key=lambda t: -game.content.coins[t])
    lead = {"carts[0]": by_coins[:4], "carts[1]": by_coins[-1:]}
    early = build(game, lead, round=2)
    last = build(game, {**lead, "turns.last_round": True}, round=2)
    assert game.evaluate(early, 0) > 0.5 > game.evaluate(early, 1)
    assert game.evaluate(last, 0) > game.evaluate(early, 0)
    assert game.evaluate(last, 0) > 0.95
