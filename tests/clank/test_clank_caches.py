"""Clank!'s caches are invisible: at every decision of seeded games, the distinct Dungeon
Row and Reserve cards kept, and the play effects kept per card, equal those worked out
afresh, within their bounds."""

from __future__ import annotations

import pytest

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import plugin_manager
from meeple.core.rng import bot_stream
from meeple.plugins.clank.cards import OFFERS_KEPT
from meeple.plugins.clank.rules import Clank


@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_caches_hold_what_is_worked_out_afresh(seats: int, seed: int) -> None:
    game = Clank()
    match = Match.new(game, seats, seed, Hooks(plugin_manager()))
    bots = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
    state = match.state
    while state.stack:
        cards = (*state.row.cards, *(z.cards[-1] for z in state.reserve if z.cards))
        assert game._offer(cards) == game._offer_of(cards)
        assert [o[0] for o in game._offer(cards)] == list(game.cat.distinct(cards))
        for card in state.players[state.stack[-1].seat].hand.cards:
            fresh = game._pending(game.cat.card[card].play, card)
            assert list(game._plays(card)) == fresh
        seat = state.stack[-1].seat
        match.step(bots[seat].choose(Prompt.of(game, state, seat, match.legal())))
    assert 0 < game._offer.cache_info().currsize <= OFFERS_KEPT
    assert 0 < game._plays.cache_info().currsize <= len(game.cat.card)
