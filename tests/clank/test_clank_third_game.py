"""A third game on the Clank! engine costs only its own rules.

Clank! with shrines, a house-rules game that lives here only: once a turn, a seat
standing in a crystal cave may pray (a room rule: a new action, offered in those
rooms), which queues a blessing (a new effect: two gold and one healing), and reads
as its own words. None of it needs an edit to any file of the engine; all of it goes
through its registrations and its effect queue like the engine's own.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from clank_build import act, started, turn

from meeple.core.rng import Rng, stream
from meeple.core.state import Action, Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import present
from meeple.plugins.clank.part import action, effect
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import SKIP, ClankAction, ClankState

PRAYED = "prayed"


class Blessing(fx.Effect, frozen=True, tag="blessing"):
    """Gold and healing from a shrine."""

    gold: int = 2
    heal: int = 1


class Pray(Action, frozen=True, tag="pray"):
    """Pray at the crystal cave the seat stands in."""


PRAY = Pray()


class Shrines(Clank):
    """Clank! with shrines in the crystal caves."""

    id = "clank-shrines"
    title = "Clank! with shrines"
    Action = ClankAction | Pray

    def turn_actions(self, state: ClankState, seat: int) -> list[Any]:
        out = super().turn_actions(state, seat)
        p = state.players[seat]
        if p.status == "in" and p.room in self.graph(state).caves and PRAYED not in state.pool.done:
            out.append(PRAY)
        return out

    @action(Pray)
    def pray(self, state: ClankState, a: Pray) -> list[Event]:
        state.pool.done.append(PRAYED)
        state.pool.queue.extend(self.pending([Blessing()], None))
        return []

    @effect(Blessing)
    def bless(
        self, state: ClankState, seat: int, e: Blessing, card: str | None, events: list[Event]
    ) -> None:
        self.gain(state, seat, fx.Gain(gold=e.gold, heal=e.heal), card, events)

    def describe_action(self, state: ClankState, action: Any) -> str:
        return describe_action(action, self, state)


@singledispatch
def describe_action(action: Action, game: Shrines, state: ClankState) -> str:
    """The engine's words for the engine's actions."""
    return present.describe_action(action, game, state)


@describe_action.register(Pray)
def _(action: Pray, game: Shrines, state: ClankState) -> str:
    return "pray at the crystal cave's shrine"


def test_a_seat_in_a_crystal_cave_prays_once_a_turn() -> None:
    g = Shrines()
    state = started(g, 2, 1)
    cave = min(g.graph(state).caves)
    turn(g, state, 0, room=cave)
    p = state.players[0]
    p.supply -= 2
    p.damage = 2
    assert PRAY in g.legal_actions(state)
    act(g, state, PRAY)
    assert (p.gold, p.damage) == (2, 1)
    assert not state.pool.queue
    assert PRAY not in g.legal_actions(state)


def test_a_prayer_reads_as_the_game_s_words_and_the_rest_as_the_engine_s() -> None:
    g = Shrines()
    state = started(g, 2, 1)
    assert g.describe_action(state, PRAY) == "pray at the crystal cave's shrine"
    assert g.describe_action(state, SKIP) == "decline"


def test_no_prayer_outside_the_caves() -> None:
    g = Shrines()
    state = started(g, 2, 1)
    turn(g, state, 0, room=g.graph(state).start)
    assert PRAY not in g.legal_actions(state)
    assert PRAY not in Clank().legal_actions(state)


def test_whole_games_with_prayers_keep_the_engine_s_invariants() -> None:
    g = Shrines()
    prayed = 0
    for seed in range(6):
        state = g.setup(2, seed)
        rng = stream(Rng(seed=seed))
        while not g.is_over(state):
            legal = g.legal_actions(state)
            if PRAY in legal:
                prayed += 1
                act(g, state, PRAY)
            else:
                act(g, state, legal[rng.below(len(legal))])
            assert g.clone(state) == state
    assert prayed
