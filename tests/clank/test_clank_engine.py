"""The Clank! engine's extension API: rules registered by decorators, per class."""

from __future__ import annotations

import inspect
from typing import Any

from meeple.core.state import Action, Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import Part, action, condition, effect
from meeple.plugins.clank.rules import Clank, ClankEngine
from meeple.plugins.clank.state import ChooseOne, ClankState, Fight, Play
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import Discover, Explore


class Loud(Clank):
    """Clank! whose Gain effect is handled by a rule of its own, and a new condition."""

    @effect(fx.Gain)
    def shout(self, state: ClankState, seat: int, e: Any, card: Any, events: list[Event]) -> None:
        state.players[seat].gold += 100

    @condition("always")
    def always(self, state: ClankState, seat: int, cond: str, card: str | None) -> bool:
        return True


def test_a_subclass_inherits_the_rules_and_adds_its_own() -> None:
    rules = CatacombsGame.rules
    assert rules["action"][Play] == "play_card"
    assert rules["action"][Explore] == "explore"
    assert rules["frame"][ChooseOne] == "options_open"
    assert rules["frame"][Discover] == "rotations"
    assert rules["fact"][Fight] == "defeated_monster"
    assert Fight not in Clank.rules["fact"]
    assert "made-2-clank" in rules["condition"]
    assert "made-2-clank" not in Clank.rules["condition"]
    assert Explore not in Clank.rules["action"]


def test_a_rule_registered_again_replaces_the_inherited_one() -> None:
    g = Loud()
    state = g.setup(2, 1)
    seat = state.turns.current
    before = state.players[seat].gold
    g.gain(state, seat, fx.Gain(gold=1), None, [])  # the method is still there...
    assert state.players[seat].gold == before + 1
    state.pool.queue.extend(g._pending([fx.Gain(gold=1)], None))
    g._proceed(state, [])  # ...but the queue runs the rule registered last
    assert state.players[seat].gold == before + 1 + 100
    assert g._holds_cond(state, seat, "always", None)
    assert Clank.rules["effect"][fx.Gain] == "gain"


def test_an_override_by_name_keeps_the_registration() -> None:
    class Quiet(Clank):
        def gain(self, *_: Any) -> None:
            """Gains nothing."""

    g = Quiet()
    state = g.setup(2, 1)
    seat = state.turns.current
    before = state.players[seat].gold
    state.pool.queue.extend(g._pending([fx.Gain(gold=3)], None))
    g._proceed(state, [])
    assert state.players[seat].gold == before


class Gift(Action, frozen=True, tag="gift"):
    """An action of a game on the engine only."""


class Giving(Clank):
    @action(Gift)
    def give(self, state: ClankState, a: Gift) -> list[Event]:
        state.pool.queue.extend(self._pending([fx.Gain(gold=2)], None))
        return []


def test_what_an_action_queues_resolves_after_it_once() -> None:
    g = Giving()
    state = g.setup(2, 1)
    seat = state.turns.current
    before = state.players[seat].gold
    g.resolve(state, Gift())
    assert state.players[seat].gold == before + 2
    assert not state.pool.queue


def test_every_seam_the_parts_declare_is_implemented_by_a_part() -> None:
    declared = [
        name
        for name, member in vars(Part).items()
        if inspect.isfunction(member) and member.__code__.co_names == ("NotImplementedError",)
    ]
    assert "graph" in declared and "_proceed" in declared
    assert [name for name in declared if getattr(ClankEngine, name) is vars(Part)[name]] == []
