"""``choose-some``: pick ``n`` different options of several, or get them all if a
condition holds (Black Market: two of three; Empurror: all three with an artifact)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from meeple.core.state import Count, Event, Frame
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import S, action, effect, frame
from meeple.plugins.clank.present import CONDITIONS, effect_text, effects_text
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import SKIP, Pick, Waiting

E = TypeVar("E")


class ChooseSome(fx.Effect, frozen=True, tag="choose-some"):
    """The seat picks ``n`` different ``options``, or gets every option if ``all_if`` holds.

    ``all_if`` holds whatever the order of play: the options the seat did not pick wait on it
    as an ``if`` for the rest of the turn (clank-catacombs rules.md#counts-grow).
    """

    asks = ("all_if",)

    options: list[list[fx.Effect]]
    n: fx.Count = 1
    all_if: fx.Condition | None = None


class PickSome(Frame, Generic[E], tag="choose-some"):
    """``choose-some``: ``n`` more different options to pick; those not picked wait on
    ``all_if``, if any, once the frame is done."""

    options: list[list[E]]
    n: Count
    picked: list[Count] = []
    card: str | None = None
    all_if: fx.Condition | None = None


class ChooseSomePack(ClankEngine[S]):
    """The ``choose-some`` pack: its effect and its frame (answered with the engine's ``Pick``)."""

    @effect(ChooseSome)
    def choose_some(
        self, state: S, seat: int, e: ChooseSome, card: str | None, events: list[Event]
    ) -> None:
        """rules.md#conditions: ``n`` different options, all of them if ``all_if`` holds
        (or comes to hold later in the turn, rules.md#counts-grow)."""
        if e.all_if is not None and self._holds_cond(state, seat, e.all_if, card):
            for option in e.options:
                state.pool.queue.extend(self._pending(option, card))
            return
        state.stack.append(
            PickSome(seat=seat, options=e.options, n=e.n, card=card, all_if=e.all_if)
        )

    @frame(PickSome)
    def options_left(self, state: S, frame: PickSome[Any]) -> list[Any]:
        left = [(i, o) for i, o in enumerate(frame.options) if i not in frame.picked]
        ok = self._feasible(state, frame.seat, [o for _, o in left], frame.card)
        return [self.acts.pick[i] for (i, _), yes in zip(left, ok, strict=True) if yes] or [SKIP]

    @action(Pick)
    def pick_some(self, state: S, action: Pick) -> list[Event]:
        """An option of a ``choose-some``; a ``choose``'s goes to the engine's rule."""
        frame = state.stack[-1]
        if type(frame) is not PickSome:
            return self.pick(state, action)
        frame.picked.append(action.option)
        frame.n -= 1
        if frame.n <= 0 or len(frame.picked) == len(frame.options):
            state.stack.pop()
            self._rest_wait(state, frame)
        state.pool.queue[:0] = self._pending(frame.options[action.option], frame.card)
        events: list[Event] = []
        return events

    def declined(self, state: S, frame: Any, events: list[Event]) -> None:
        """A ``choose-some`` with no option the seat can carry out: every option waits."""
        if type(frame) is PickSome:
            self._rest_wait(state, frame)
        super().declined(state, frame, events)

    def _rest_wait(self, state: S, frame: PickSome[Any]) -> None:
        """rules.md#counts-grow: the options not picked wait, as an ``if`` on ``all_if``, for
        the rest of the turn."""
        if frame.all_if is None:
            return
        rest = [e for i, o in enumerate(frame.options) if i not in frame.picked for e in o]
        if rest:
            when = fx.kind_of(self.Effect, fx.If)
            state.pool.waiting.append(Waiting(when(cond=frame.all_if, then=rest), frame.card))


@effect_text.register
def _choose_some(e: ChooseSome) -> str:
    pick = "choose: " if e.n == 1 else f"choose {e.n}: "
    said = pick + " or ".join(effects_text(o) for o in e.options)
    return f"{said} (all {CONDITIONS.get(e.all_if, e.all_if)})" if e.all_if else said
