"""``per``: a gain once per thing the seat has, counted when the effect resolves."""

from __future__ import annotations

from typing import Literal

from meeple.core.state import Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import S, effect
from meeple.plugins.clank.present import effect_text
from meeple.plugins.clank.rules import ClankEngine

PerWhat = Literal["artifact", "clank-made"]


class Per(fx.Effect, frozen=True, tag="per"):
    """``gain`` once per ``per`` the seat has: each artifact it holds (Curator),
    each Clank! it added this turn (Lute). Counted when the effect resolves
    (clank-catacombs rules.md#counts-now)."""

    per: PerWhat
    gain: fx.Gain


class PerPack(ClankEngine[S]):
    """The ``per`` pack."""

    @effect(Per)
    def per(self, state: S, seat: int, e: Per, card: str | None, events: list[Event]) -> None:
        """``per``: the gain once per artifact held or cube added this turn, counted now."""
        p = state.players[seat]
        n = self.holds(p, "artifact") if e.per == "artifact" else state.pool.added
        for _ in range(n):
            self.gain(state, seat, e.gain, card, events)


@effect_text.register
def _per(e: Per) -> str:
    return f"{effect_text(e.gain)} per {'artifact held' if e.per == 'artifact' else 'clank added'}"
