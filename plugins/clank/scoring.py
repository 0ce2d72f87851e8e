"""Scoring: each seat's tally and the points rules of cards (rules.md#scoring).

:class:`Scoring` is the engine's part that counts points: artifacts, other tokens, gold and
cards with their bonuses, each bonus by its registered points rule (:func:`~.part.points`),
and the final scores, eliminated seats below every scoring one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.core.scoring import Score
from meeple.plugins.clank import content
from meeple.plugins.clank.part import Part, S, hook, points
from meeple.plugins.clank.state import Player


class Scoring(Part[S]):
    """The tally, the points rules and the final scores."""

    _points: dict[str, Callable[[Player, list[str], Any], int]]

    @hook
    def tally(self, state: S, seat: int) -> dict[str, int]:
        """rules.md#scoring: artifacts, other tokens, gold, cards with their bonuses."""
        cat = self.cat
        p = state.players[seat]
        token, points = cat.token, cat.points
        held = p.held.cards
        artifacts = sum(points[t] for t in held if token[t].kind == "artifact")
        others = sum(points[t] for t in held if token[t].kind != "artifact")
        owned = [*p.deck.cards, *p.hand.cards, *p.discard.cards, *p.play.cards]
        defs = cat.card
        cards = 0
        for c in owned:
            card = defs[c]
            cards += card.points
            if card.bonus is not None:
                cards += card.bonus.points * self._bonus_count(p, owned, card.bonus)
        return {"artifact": artifacts, "tokens": others, "gold": p.gold, "cards": cards}

    def _bonus_count(self, p: Player, owned: list[str], bonus: Any) -> int:
        """rules.md#scoring: how many times a card's points rule pays (a condition: 0 or 1)."""
        key = bonus.per if isinstance(bonus, content.PointsPer) else bonus.cond
        return self._points[key](p, owned, bonus)

    @points("5-gold")
    def per_5_gold(self, p: Player, owned: list[str], bonus: Any) -> int:
        return p.gold // 5

    @points("secret-tome")
    def per_secret_tome(self, p: Player, owned: list[str], bonus: Any) -> int:
        defs = self.cat.card
        return sum(defs[x].id == "secret-tome" for x in owned)

    @points("mastery")
    def if_mastery(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.holds(p, "mastery") > 0)

    @points("two-of")
    def if_two_of(self, p: Player, owned: list[str], bonus: Any) -> int:
        """rules.md#peddler: two different kinds among ``of``, not two tokens."""
        token = self.cat.token
        return int(len({token[t].id for t in p.held.cards}.intersection(bonus.of)) >= 2)

    def scores(self, state: S) -> list[Score]:
        """rules.md#scoring: eliminated seats score nothing and rank below every scoring seat."""
        out = []
        points, token = self.cat.points, self.cat.token
        for seat, p in enumerate(state.players):
            parts = self.tally(state, seat)
            if p.status == "eliminated":
                parts = dict.fromkeys(parts, 0)
                out.append(Score(seat=seat, total=0, parts=parts, tiebreak=[0, 0], note=p.status))
                continue
            best = max((points[t] for t in p.held.cards if token[t].kind == "artifact"), default=0)
            total = sum(parts.values())
            note = "" if p.status == "in" else p.status
            out.append(Score(seat=seat, total=total, parts=parts, tiebreak=[1, best], note=note))
        return out
