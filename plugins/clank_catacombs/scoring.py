"""Catacombs' conditions and points: what an ``if`` asks, and what cards and tokens score.

seeds/clank-catacombs/rules.md#conditions (what the turn's counts and the seat's place say,
and the facts actions note for them), #scoring and #prisoners-points (the points rules, the
tokens' own among them), #tokens (the kinds a token counts as).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank.content import PointsPer
from meeple.plugins.clank.part import condition, fact, points
from meeple.plugins.clank.state import Fight, Move, Player, Teleport
from meeple.plugins.clank_catacombs import content
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import CatacombsState


class Scoring(CatacombsPart):
    """The conditions, the facts they read, the points rules and the tally."""

    # rules.md#conditions: the conditions Catacombs adds. Counts of the turn include what
    # happened before the card was played; places are where the seat stands when asked.

    @fact(Fight)
    def defeated_monster(self, state: CatacombsState, action: Fight, events: list[Event]) -> None:
        """rules.md#conditions: a Dungeon Row monster defeated (the Goblin stays: not noted)."""
        if not self.cat.card[action.card].never_leaves:
            state.pool.done.append("defeated-row-monster")

    @fact(Move, Teleport)
    def portal_trip(
        self, state: CatacombsState, action: Move | Teleport, events: list[Event]
    ) -> None:
        """rules.md#conditions: a trip through two Portals."""
        if action.tunnel in self.graph(state).trips:
            state.pool.done.append("used-portal")

    @condition("made-2-clank")
    def made_2_clank(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.added >= 2

    @condition("gained-3-gold")
    def gained_3_gold(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.gold_gained >= 3

    @condition("skill-6")
    def skill_6(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.skill_gained >= 6

    @condition("defeated-row-monster", "used-portal")
    def did(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return cond in state.pool.done

    @condition("in-crystal-cave", "in-market", "in-wayshrine")
    def stands_in(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        graph = self.graph(state)
        rooms: dict[str, Collection[int]] = {
            "in-crystal-cave": graph.caves,
            "in-market": graph.markets,
            "in-wayshrine": graph.wayshrines,
        }
        return state.players[seat].room in rooms[cond]

    @condition("on-haunted-tile")
    def on_haunted(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        graph = self.graph(state)
        return graph.tile_of[state.players[seat].room] in graph.haunted

    @condition("freed-3-prisoners")
    def freed_3(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return self.holds(state.players[seat], "prisoner") >= 3

    @condition("monkey-idol")
    def holds_idol(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        """rules.md#tokens: the Golden Monkey Bot counts as a Monkey Idol."""
        return self.holds(state.players[seat], "idol") > 0

    @condition("secret-tome-in-play-or-discard")
    def tome_out(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        p = state.players[seat]
        defs = self.cat.card
        return any(defs[c].id == "secret-tome" for c in (*p.play.cards, *p.discard.cards))

    # rules.md#scoring: the points rules Catacombs adds.

    @points("artifact-or-idol")
    def per_artifact_or_idol(self, p: Player, owned: list[str], bonus: Any) -> int:
        return self.holds(p, "artifact") + self.holds(p, "idol")

    @points("freed-3-prisoners")
    def if_freed_3(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.holds(p, "prisoner") >= 3)

    @points("crown-and-gem")
    def if_crown_and_gem(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.if_crown(p, owned, bonus) and any(self.cat.card[c].gem for c in owned))

    # rules.md#prisoners-points: the points rules of the Prisoners.

    @points("crown")
    def if_crown(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(any(self.cat.token[t].id == "crown" for t in p.held.cards))

    @points("monkey-idol")
    def if_idol(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.holds(p, "idol") > 0)

    @points("prisoner")
    def per_prisoner(self, p: Player, owned: list[str], bonus: Any) -> int:
        return self.holds(p, "prisoner")

    @points("two-secret-tomes")
    def if_two_tomes(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.per_secret_tome(p, owned, bonus) >= 2)

    def tally(self, state: CatacombsState, seat: int) -> dict[str, int]:
        """rules.md#scoring: the tokens' own points rules count with the tokens."""
        parts = super().tally(state, seat)
        p = state.players[seat]
        owned = [*p.deck.cards, *p.hand.cards, *p.discard.cards, *p.play.cards]
        tokens = self.cat.tokens
        for t in p.held.cards:
            bonus = tokens[t].bonus
            if bonus is None:
                continue
            if isinstance(bonus, PointsPer) and bonus.per == content.MARKED_WAYSHRINE:
                n = len(state.marks[seat])  # the marks are the map's, not the player's
            else:
                n = self._bonus_count(p, owned, bonus)
            parts["tokens"] += bonus.points * n
        return parts
