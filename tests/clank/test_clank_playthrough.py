"""Whole random games: every seat count, both boards, every option, invariants at each step."""

from __future__ import annotations

import pytest

from meeple.core import testing
from meeple.core.rng import Stream
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import ClankOptions

OPTIONS = [
    ClankOptions(),
    ClankOptions(board="back"),
    ClankOptions(
        board="back",
        variant="klank",
        teleport_locks="key",
        artifact_take="entry",
        gold_bonus="later",
    ),
    ClankOptions(variant="eseidel", empty_dungeon="end", empty_bag="end"),
]


def play_out(game: Clank, seats: int, seed: int) -> int:
    state = game.setup(seats, seed)
    chooser = Stream(f"playthrough/{seed}")
    steps = 0
    while not game.is_over(state):
        assert game.check_state(state) == [], f"step {steps}: {game.check_state(state)}"
        game.resolve(state, chooser.choice(game.legal_actions(state)))
        steps += 1
        assert steps < 20_000, "the game does not end"
    assert game.check_state(state) == []
    assert all(p.status != "in" for p in state.players)
    scores = game.scores(state)
    assert all(s.total == sum(s.parts.values()) for s in scores)
    return steps


# One seed of each in the default run, which also plays every variant in the conformance suite.
SEEDS = [0, *(pytest.param(seed, marks=pytest.mark.soak) for seed in (1, 2))]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.board}-{o.variant}")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_cleanly(options: ClankOptions, seats: int, seed: int) -> None:
    """rules.md#game-end: random games end with every seat out and every invariant kept."""
    assert play_out(Clank(options), seats, seed) > 0


def test_same_actions_same_game() -> None:
    """Determinism: the same seed and choices give the same final digest."""
    game = Clank()
    digests = set()
    for _ in range(2):
        state = game.setup(3, 9)
        chooser = Stream("same")
        while not game.is_over(state):
            game.resolve(state, chooser.choice(game.legal_actions(state)))
        digests.add(game.digest(state))
    assert len(digests) == 1


def test_the_other_readings_keep_every_contract() -> None:
    """rules.md#artifact-take, #search: the first edition's artifact on entry and Search for
    later gold only pass the conformance suite (no empty option included), as the defaults
    do in every variant."""
    game = Clank(ClankOptions(artifact_take="entry", gold_bonus="later"))
    for seats in (2, 4):
        testing.playthrough(game, testing.Case(seats, seed=seats, views=False))
