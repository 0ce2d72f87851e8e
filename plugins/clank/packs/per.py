"""``per``: a gain once per thing the seat has, as many times as the turn makes it have."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from meeple.core.state import Event
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import S, effect, watch
from meeple.plugins.clank.present import effect_text
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import Waiting

PerWhat = Literal["artifact", "clank-made"]


class Per(fx.Effect, frozen=True, tag="per"):
    """``gain`` once per ``per`` the seat has: each artifact it holds (Curator),
    each Clank! it added this turn (Lute). Paid as the card resolves, and again for
    each one the turn adds later (clank-catacombs rules.md#counts-grow)."""

    per: PerWhat
    gain: fx.Gain


class PerPack(ClankEngine[S]):
    """The ``per`` pack."""

    def _per_count(self, state: S, seat: int, e: Per) -> int:
        """What ``e`` counts now: the artifacts the seat holds, or its cubes added this turn."""
        if e.per == "artifact":
            return self.holds(state.players[seat], "artifact")
        return state.pool.added

    @effect(Per)
    def per(self, state: S, seat: int, e: Per, card: str | None, events: list[Event]) -> None:
        """``per``: the gain once per thing counted now; then it waits on the turn
        (:meth:`per_grows`)."""
        n = self._per_count(state, seat, e)
        for _ in range(n):
            self.gain(state, seat, e.gain, card, events)
        state.pool.waiting.append(Waiting(e, card, n))

    @watch(Per)
    def per_grows(self, state: S, seat: int, item: Waiting[Any]) -> Waiting[Any]:
        """clank-catacombs rules.md#counts-grow: once more for each thing the count has gained
        since; it waits until the turn ends."""
        n = self._per_count(state, seat, item.effect)
        if n <= item.given:
            return item
        state.pool.queue.extend(self._pending([item.effect.gain] * (n - item.given), item.card))
        return msgspec.structs.replace(item, given=n)


@effect_text.register
def _per(e: Per) -> str:
    return f"{effect_text(e.gain)} per {'artifact held' if e.per == 'artifact' else 'clank added'}"
