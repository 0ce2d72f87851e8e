"""The rulebook's worked examples, with their exact numbers."""

from __future__ import annotations

from clank_build import act, clear_clank, game, legal, put, turn

from meeple.core.bag import Bag
from meeple.plugins.clank.state import (
    Acquire,
    Attacked,
    EndTurn,
    Fight,
    Move,
    Play,
)

GREEN, YELLOW = 0, 1


def test_green_players_turn() -> None:
    """rules.md#turn, #clank, #movement, #fight, #acquire: the green player's turn."""
    g = game()
    state = g.setup(4, 1)
    clear_clank(state)
    hand = ("stumble-s0-1", "move-silently-1", "mercenary-1", "burgle-s0-1", "burgle-s0-2")
    turn(g, state, GREEN, hand, room=2)
    for card in state.row.cards[:2]:
        put(state, state.dungeon_discard, card)
    put(state, state.row, "orc-grunt-1", "kobold-merchant")
    green = state.players[GREEN]
    supply = green.supply

    act(g, state, Play(card="stumble-s0-1"))
    assert green.clank == 1 and green.supply == supply - 1
    act(g, state, Play(card="move-silently-1"))
    # The Stumble's cube comes back, and one negative clank is left banked.
    assert green.clank == 0 and green.supply == supply
    assert state.pool.banked == 1 and state.pool.boots == 2
    for card in hand[2:]:
        act(g, state, Play(card=card))
    assert (state.pool.skill, state.pool.swords) == (3, 2)

    act(g, state, Move(tunnel=1, to=3))
    act(g, state, Move(tunnel=3, to=8))  # room 8 is a crystal cave
    assert green.room == 8 and state.pool.exhausted
    state.pool.boots += 1  # even with another boot she could go no farther
    assert legal(g, state, Move) == []

    act(g, state, Fight(card="orc-grunt-1"))
    assert green.gold == 3 and state.pool.swords == 0
    assert "orc-grunt-1" in state.dungeon_discard.cards
    act(g, state, Acquire(card="kobold-merchant"))
    assert state.pool.skill == 0
    assert "kobold-merchant" in green.discard.cards
    assert "kobold-merchant" not in state.row.cards
    assert len(state.row) == 4  # both slots stay empty until the turn ends
    act(g, state, EndTurn())
    assert green.gold == 3 and green.clank == 0  # the banked clank is lost


def test_yellow_players_dragon_attack() -> None:
    """rules.md#end-of-turn, #dragon-attack: three refilled cards, two symbols, one attack."""
    g = game()
    state = g.setup(4, 2)
    clear_clank(state)
    turn(g, state, YELLOW)
    state.rage = 4  # the fifth space of the rage track (the first is 0) draws 4 cubes
    assert g.cat.tables.rage_track[state.rage] == 4
    # Three row slots are empty; the deck's top three: two with the symbol, one without.
    for card in state.row.cards[:]:
        put(state, state.dungeon_discard, card)
    put(state, state.row, "pickaxe-1", "sneak-1", "tattle-1")
    put(state, state.dungeon, "ladder-1", "ogre-1", "orc-grunt-2")
    # The bag holds exactly the four cubes the rulebook draws.
    state.bag = Bag(cubes={"dragon": 1, "seat-0": 1, "seat-1": 2})
    state.dragon_aside = 23
    for seat, p in enumerate(state.players):
        p.supply -= {GREEN: 1, YELLOW: 2}.get(seat, 0)
    events = act(g, state, EndTurn())

    attacks = [e for e in events if isinstance(e, Attacked)]
    assert len(attacks) == 1
    assert sorted(attacks[0].cubes) == ["dragon", "seat-0", "seat-1", "seat-1"]
    assert state.dragon_aside == 24
    assert state.players[GREEN].damage == 1
    assert state.players[YELLOW].damage == 2
    assert len(state.bag) == 0
