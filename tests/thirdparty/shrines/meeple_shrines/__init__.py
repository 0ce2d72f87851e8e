"""Clank! with shrines: a game on the Clank! engine, from a package of its own.

The crystal caves hold shrines. A blessing (an effect of this game: gold and healing)
comes from a card of its own table (``cards.json`` here: Clank!'s, with Sidestep offering
a blessing instead of its boot), and at the end of a turn (the ``turn_ended`` hook) a
seat standing in a crystal cave is blessed with one healing. The rest is Clank!'s: its
board and tokens, its set-up, and its ``heuristic`` bot, which plays every game on the
board.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import TYPE_CHECKING, Any

from meeple.core import hookimpl
from meeple.core.state import Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import effect
from meeple.plugins.clank.present import effect_text
from meeple.plugins.clank.rules import ClankBoard
from meeple.plugins.clank.state import ClankFrames, EngineState


class Blessing(fx.Effect, frozen=True, tag="blessing"):
    """Gold and healing from a shrine."""

    gold: int = 2
    heal: int = 1


# The engine's effects and the blessing: mypy sees the base type, msgspec decodes the union.
if TYPE_CHECKING:
    ShrinesEffect = fx.Effect
else:
    ShrinesEffect = fx.vocabulary(__name__, "ShrinesEffect", (*fx.BASE_EFFECTS, Blessing))


class ShrinesState(
    EngineState[ClankFrames[ShrinesEffect], ShrinesEffect], tag="clank-shrines", kw_only=True
):
    """A Clank! table whose pending effects and choices may hold blessings."""


class Shrines(ClankBoard[ShrinesState]):
    """Clank! with shrines in the crystal caves."""

    id = "clank-shrines"
    title = "Clank! with shrines"
    state_type = ShrinesState
    Effect = ShrinesEffect
    tables_from = resources.files(__name__)  # cards.json; the rest is Clank!'s

    @effect(Blessing)
    def bless(
        self, state: ShrinesState, seat: int, e: Blessing, card: str | None, events: list[Event]
    ) -> None:
        self.gain(state, seat, fx.Gain(gold=e.gold), card, events)
        self.heal(state, seat, e.heal, events)

    def turn_ended(self, state: ShrinesState, seat: int, events: list[Event]) -> None:
        p = state.players[seat]
        if p.status == "in" and p.room in self.graph(state).caves:
            self.bless(state, seat, Blessing(gold=0, heal=1), None, events)


@effect_text.register
def _blessing(e: Blessing) -> str:
    return f"a blessing: {e.gold} gold, heal {e.heal}"


@hookimpl
def meeple_games(register: Callable[..., Any]) -> None:
    register(Shrines)
