"""A game on the Clank! engine changes the engine only at its hooks.

The engine marks each step a game may override with :func:`~meeple.plugins.clank.part.hook`;
its other methods are its rules (registered by key: a game registers another method for
the key rather than redefining it), the core ``Game`` contract, or private by name. Every
game found on the engine (Clank!, Catacombs, the third test game and any subclass
imported), and every effect pack, is held to that, and the hook table of
``docs/clank-engine.md`` lists every hook.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from clank_build import act, started, turn
from test_clank_third_game import Shrines

from meeple.core.game import Game
from meeple.core.state import Event
from meeple.plugins.clank import packs
from meeple.plugins.clank.part import Part
from meeple.plugins.clank.rules import Clank, ClankEngine
from meeple.plugins.clank.state import END_TURN, Turn
from meeple.plugins.clank_catacombs.rules import CatacombsGame

DOCS = Path(__file__).parents[2] / "docs" / "clank-engine.md"
CONTRACT = frozenset(name for klass in Game.__mro__ for name in vars(klass))
"""The core ``Game`` contract: what every game of the framework defines or may redefine."""


def engine_classes() -> set[type]:
    """The engine's own classes: its parts and its effect packs."""
    found = {k for k in ClankEngine.__mro__ if issubclass(k, Part)}
    pending = list(ClankEngine.__subclasses__())
    while pending:
        klass = pending.pop()
        pending.extend(klass.__subclasses__())
        if klass.__module__.startswith(packs.__name__ + "."):
            found.add(klass)
    return found


def on_the_engine() -> set[type]:
    """Every class found on the engine: the games, their parts and the packs (not the
    classes the tests below make inside a test, some of them wrong on purpose)."""
    found: set[type] = set()
    pending: list[type] = [ClankEngine, Shrines, CatacombsGame, Clank]
    while pending:
        klass = pending.pop()
        for sub in klass.__subclasses__():
            if sub not in found and "<locals>" not in sub.__qualname__:
                found.add(sub)
                pending.append(sub)
    return found


def methods(klass: type) -> dict[str, Any]:
    return {
        name: member
        for name, member in vars(klass).items()
        if inspect.isfunction(member) or isinstance(member, (staticmethod, classmethod, property))
    }


def unhooked(klass: type, engine: set[type]) -> list[str]:
    """The methods ``klass`` redefines that the engine defines and marks no hook."""
    hooks = getattr(klass, "hooks", frozenset())
    out = []
    for name in methods(klass):
        if name in hooks or name in CONTRACT:
            continue
        if any(name in vars(base) for base in klass.__mro__[1:] if base in engine):
            out.append(f"{klass.__name__}.{name}")
    return out


def test_games_on_the_engine_override_only_hooks() -> None:
    engine = engine_classes()
    checked = on_the_engine() - {ClankEngine}
    assert {Clank, CatacombsGame, Shrines} <= checked
    assert [n for k in sorted(checked, key=repr) for n in unhooked(k, engine)] == []


def test_a_game_redefining_a_rule_or_a_step_is_caught() -> None:
    """Both a registered rule redefined by name and a private step are found."""

    class Meddler(Clank):
        def skip(self, state: Any, action: Any) -> list[Event]:
            return []

        def _finish_turn(self, state: Any, events: list[Event]) -> None:
            pass

        def tally(self, state: Any, seat: int) -> dict[str, int]:  # a hook: allowed
            return {}

    assert unhooked(Meddler, engine_classes()) == ["Meddler.skip", "Meddler._finish_turn"]


def test_every_public_method_of_the_engine_is_a_hook_a_rule_or_the_contract() -> None:
    """``Part`` declares some of the hooks and rules its parts define (``graph``, ``heal``)."""
    ruled = {name for kind in ClankEngine.rules.values() for name in kind.values()}
    for klass in engine_classes():
        rules = {name for kind in klass.rules.values() for name in kind.values()}
        public = [n for n in methods(klass) if not n.startswith("_")]
        named = klass.hooks | ClankEngine.hooks | rules | ruled | CONTRACT
        assert [n for n in public if n not in named] == [], klass.__name__


def test_the_hook_table_lists_every_hook() -> None:
    text = DOCS.read_text()
    section = text[text.index("## Hooks") : text.index("## The game's vocabulary")]
    table = set(re.findall(r"^\| `(\w+)\(", section, re.M))
    every = set().union(*(k.hooks for k in engine_classes()))
    assert every == table


class Logged(Clank):
    """Clank! noting each turn's start and end, and what the pool held at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, int, int]] = []

    def turn_started(self, state: Any, seat: int, events: list[Event]) -> None:
        assert state.stack[0] == Turn(seat=seat) and state.pool.skill == 0
        self.log.append(("start", seat, 0))

    def turn_ended(self, state: Any, seat: int, events: list[Event]) -> None:
        self.log.append(("end", seat, state.pool.skill))


def test_turn_hooks_bracket_each_turn() -> None:
    """The first turn starts at set-up; a turn ends with its pool as played, and the next
    seat's starts on a fresh one."""
    g = Logged()
    state = started(g, 2, 3)
    assert g.log == [("start", 0, 0)]
    turn(g, state, 0, skill=4)
    g.log.clear()
    act(g, state, END_TURN)
    assert g.log == [("end", 0, 4), ("start", 1, 0)]


@pytest.mark.parametrize("game", [Clank, CatacombsGame])
def test_whole_games_start_and_end_every_turn_once(game: type[ClankEngine[Any]]) -> None:
    log: list[tuple[str, int]] = []

    class Counted(game):  # type: ignore[valid-type,misc]
        def turn_started(self, state: Any, seat: int, events: list[Event]) -> None:
            log.append(("start", seat))
            super().turn_started(state, seat, events)

        def turn_ended(self, state: Any, seat: int, events: list[Event]) -> None:
            log.append(("end", seat))
            super().turn_ended(state, seat, events)

    g = Counted()
    for seed in range(3):
        log.clear()
        state = g.setup(3, seed)
        while not g.is_over(state):
            legal = g.legal_actions(state)
            g.resolve(state, legal[(seed + len(log)) % len(legal)])
        starts = [s for what, s in log if what == "start"]
        ends = [s for what, s in log if what == "end"]
        assert starts[: len(ends)] == ends and len(starts) - len(ends) in (0, 1)
        assert [what for what, _ in log[::2]] == ["start"] * len(log[::2])
