"""What a Clank! step shows the seat taking it (Game.reveals), as taking it back needs."""

from __future__ import annotations

import pytest
from clank_build import act, game, place_artifacts, put, started, tiny_board, turn

from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import ClankState, Move, Pick, Play, Take


def reveals(g: Clank, state: ClankState, action: object) -> bool:
    before = g.clone(state)
    act(g, state, action)
    return g.reveals(before, state, 0)


@pytest.fixture
def g():
    return game()


@pytest.fixture
def state(g):
    return started(g, 4, 7)


def test_a_card_that_draws_nothing_reveals_nothing(g, state) -> None:
    """rules.md#turn: Burgle's skill goes into the pool; no card moves but Burgle."""
    turn(g, state, 0, ("burgle-s0-1",))
    assert not reveals(g, state, Play(card="burgle-s0-1"))


def test_a_card_that_draws_reveals(g, state) -> None:
    """rules.md#turn: the Elven Dagger's draw puts a card from the deck in the hand."""
    turn(g, state, 0, ("elven-dagger",))
    assert reveals(g, state, Play(card="elven-dagger"))


def test_a_dragon_attack_reveals(g, state) -> None:
    """rules.md#dragon-attack, #whiskers: the cubes are drawn from the bag at random."""
    turn(g, state, 0, ("mister-whiskers",))
    assert not reveals(g, state, Play(card="mister-whiskers"))  # only a choice is offered
    assert reveals(g, state, Pick(option=0))  # the dragon attacks


def test_a_face_down_secret_is_revealed_when_taken() -> None:
    """rules.md#tokens: a seat entering a room may take one of its face-down secrets, blind:
    the choice it is offered names their backs, so the entry shows nothing; taking one
    reveals it."""
    g = game(board=tiny_board())
    state = started(g, 2, 5)
    place_artifacts(g, state)
    turn(g, state, 0, room=1, boots=1)
    assert not reveals(g, state, Move(tunnel=0, to=2))
    turn(g, state, 0, room=6, boots=1)
    put(state, state.rooms[g.cat.graph.index[5]], "skill-boost-1", up=False)
    assert not reveals(g, state, Move(tunnel=5, to=5))
    assert reveals(g, state, Take(token="?minor"))
