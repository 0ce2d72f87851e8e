"""A third game on the Clank! engine costs only its own rules.

Clank! with shrines, a house-rules game that lives here only: once a turn, a seat
standing in a crystal cave may pray (a room rule: a new action, offered in those
rooms), which queues a blessing (a new effect: two gold and one healing) and reads as
its own words. Its card table prints the blessing too: Sidestep offers it as a choice.
None of this needs an edit to any file of the engine; all of it goes through its
registrations, its effect queue and its own vocabulary like the engine's own.
"""

from __future__ import annotations

import json
from functools import singledispatch
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from clank_build import act, started, turn

from meeple.core.errors import ContentError
from meeple.core.rng import Rng, stream
from meeple.core.state import Action, Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import present
from meeple.plugins.clank.part import action, effect
from meeple.plugins.clank.present import card_text, effect_text
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import (
    SKIP,
    ChooseOne,
    ClankAction,
    ClankFrames,
    ClankOptions,
    EngineState,
    Pick,
    Play,
)

PRAYED = "prayed"


class Blessing(fx.Effect, frozen=True, tag="blessing"):
    """Gold and healing from a shrine."""

    gold: int = 2
    heal: int = 1


class Pray(Action, frozen=True, tag="pray"):
    """Pray at the crystal cave the seat stands in."""


PRAY = Pray()

# Clank!'s effects and the blessing: mypy sees the base type, msgspec decodes the union.
if TYPE_CHECKING:
    ShrinesEffect = fx.Effect
else:
    ShrinesEffect = fx.vocabulary(__name__, "ShrinesEffect", (*fx.BASE_EFFECTS, Blessing))


class ShrinesState(
    EngineState[ClankFrames[ShrinesEffect], ShrinesEffect], tag="clank-shrines", kw_only=True
):
    """A Clank! table whose pending effects and choices may hold blessings."""


@singledispatch
def action_words(action: Action, game: Shrines, state: ShrinesState) -> str:
    """The engine's words for the engine's actions."""
    return present.action_words(action, game, state)


@action_words.register(Pray)
def _(action: Pray, game: Shrines, state: ShrinesState) -> str:
    return "pray at the crystal cave's shrine"


class ShrinesPresentation(present.ClankPresentation[ShrinesState]):
    """Clank!'s presentation, with the words for a prayer."""

    def describe_action(self, state: ShrinesState, action: Action) -> str:
        return action_words(action, self.game, state)


class Shrines(Clank):
    """Clank! with shrines in the crystal caves."""

    id = "clank-shrines"
    title = "Clank! with shrines"
    action_type = ClankAction | Pray
    Effect = ShrinesEffect
    state_type = ShrinesState
    presentation_type = ShrinesPresentation

    def turn_actions(self, state: ShrinesState, seat: int) -> list[Any]:
        out = super().turn_actions(state, seat)
        p = state.players[seat]
        if p.status == "in" and p.room in self.graph(state).caves and PRAYED not in state.pool.done:
            out.append(PRAY)
        return out

    @action(Pray)
    def pray(self, state: ShrinesState, a: Pray) -> list[Event]:
        state.pool.done.append(PRAYED)
        state.pool.queue.extend(self._pending([Blessing()], None))
        return []

    @effect(Blessing)
    def bless(
        self, state: ShrinesState, seat: int, e: Blessing, card: str | None, events: list[Event]
    ) -> None:
        self.gain(state, seat, fx.Gain(gold=e.gold, heal=e.heal), card, events)


@effect_text.register
def _blessing(e: Blessing) -> str:
    return f"a blessing: {e.gold} gold, heal {e.heal}"


@pytest.fixture(scope="module")
def g(tmp_path_factory: pytest.TempPathFactory) -> Shrines:
    """The game on its own card table: Clank!'s, Sidestep offering a blessing instead."""
    cards = json.loads(resources.files("meeple.seeds").joinpath("clank/cards.json").read_text())
    sidestep = next(c for c in cards["starter"] if c["id"] == "sidestep")
    sidestep["play"] = [{"do": "choose", "options": [sidestep["play"], [{"do": "blessing"}]]}]
    path: Path = tmp_path_factory.mktemp("shrines") / "cards.json"
    path.write_text(json.dumps(cards))
    return Shrines(ClankOptions(cards=str(path)))


def test_its_card_table_decodes_its_effect(g: Shrines) -> None:
    """The table names the blessing, even inside a choice; Clank! refuses it."""
    assert Shrines._schema().effects == (*Clank._schema().effects, Blessing)
    sidestep = g.cat.kinds["sidestep"]
    assert sidestep.play[0].options[1] == [Blessing()]
    assert card_text(sidestep) == "play: choose: 1 boots or a blessing: 2 gold, heal 1"
    with pytest.raises(ContentError, match="blessing"):
        Clank(g.options)


def test_a_seat_chooses_a_blessing_from_its_card(g: Shrines) -> None:
    state = started(g, 2, 1)
    turn(g, state, 0, hand=("sidestep-s0",))
    act(g, state, Play(card="sidestep-s0"))
    frame = state.stack[-1]
    assert isinstance(frame, ChooseOne) and frame.options[1] == [Blessing()]
    assert g.clone(state) == state  # a pending blessing survives a snapshot
    act(g, state, Pick(option=1))
    assert state.players[0].gold == 2


def test_a_seat_in_a_crystal_cave_prays_once_a_turn(g: Shrines) -> None:
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


def test_a_prayer_reads_as_the_game_s_words_and_the_rest_as_the_engine_s(g: Shrines) -> None:
    state = started(g, 2, 1)
    assert g.presentation.describe_action(state, PRAY) == "pray at the crystal cave's shrine"
    assert g.presentation.describe_action(state, SKIP) == "decline"


def test_no_prayer_outside_the_caves(g: Shrines) -> None:
    state = started(g, 2, 1)
    turn(g, state, 0, room=g.graph(state).start)
    assert PRAY not in g.legal_actions(state)
    assert PRAY not in Clank().legal_actions(state)


def test_whole_games_with_prayers_keep_the_engine_s_invariants(g: Shrines) -> None:
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
