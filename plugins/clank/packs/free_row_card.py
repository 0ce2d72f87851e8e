"""``free-row-card``: acquire a Dungeon Row card, or use a Row device, without its Skill."""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event, Frame
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import S, effect, frame
from meeple.plugins.clank.present import effect_text
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import SKIP


class FreeRowCard(fx.Effect, frozen=True, tag="free-row-card"):
    """Acquire a Dungeon Row card or use a Row device without paying its Skill (its own
    limits and other costs still apply; rules.md#acquire)."""


class FreeCard(Frame, tag="free-card"):
    """``free-row-card``: a Dungeon Row card to acquire or use without paying its Skill."""


class FreeRowCardPack(ClankEngine[S]):
    """The ``free-row-card`` pack: the seat answers with the engine's acquire or use."""

    @effect(FreeRowCard)
    def free_row_card(
        self, state: S, seat: int, e: FreeRowCard, card: str | None, events: list[Event]
    ) -> None:
        if self._free_cards(state, seat):
            state.stack.append(FreeCard(seat=seat))

    @frame(FreeCard)
    def free_choices(self, state: S, frame: FreeCard) -> list[Any]:
        return [*self._free_cards(state, frame.seat), SKIP]

    def _free_cards(self, state: S, seat: int) -> list[Any]:
        p = state.players[seat]
        graph = self.graph(state)
        out: list[Any] = []
        for c in self.cat.distinct(state.row.cards):
            card = self.cat.card[c]
            if card.where is not None and not self.where_ok(graph, p.room, card.where):
                continue
            if card.kind == "device" and self.can_use(state, p, c):
                out.append(self.acts.use[c])
            elif card.kind == "item":
                out.append(self.acts.acquire[c])
        return out

    def pay_skill(self, state: S, skill: int) -> None:
        """rules.md#grand-theft: a free acquire or use waives the Skill only."""
        if type(state.stack[-1]) is FreeCard:
            state.stack.pop()
            return
        super().pay_skill(state, skill)


@effect_text.register
def _free_row_card(e: FreeRowCard) -> str:
    return "acquire or use a row card for free"
