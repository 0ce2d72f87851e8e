"""The ``greedy`` Clonk! bot: one step of look-ahead with a hand-tuned value of cards.

It sees only its prompt (its view and the legal actions). A Treasure card is
worth its coins, plus what it adds to the bot's task tiles, minus its eyes
weighed by how close the bot is to having the most eyes. Each legal action
gets a value from that, and the best is played (the first of equals).
"""

from __future__ import annotations

from typing import Any

from meeple.core.bots import Prompt
from meeple.core.rng import Stream
from meeple.core.zones import HIDDEN
from meeple.plugins.clonk.rules import TASK_POINTS, Clonk
from meeple.plugins.clonk.state import (
    Blast,
    Cart,
    ClonkState,
    Dig,
    DiscardCard,
    FeedShaft,
    Gift,
    ShowTask,
)

SPACE_COST = (0.0, -1.3, -0.6, -0.6)
"""What filling gallery space 1..4 gives up in Phase III, beyond the Snore of space 1."""


class GreedyBot:
    """Plays to its tasks, coins and eyes; gifts eye-heavy cards."""

    def __init__(self, game: Clonk, seat: int, stream: Stream) -> None:
        self.game = game
        self.content = game.content
        self.seat = seat
        table = game.content.table
        self.avg_eyes = sum(t.eyes for t in table.treasures) / len(table.treasures)
        self.snore_eyes = table.snore.eyes

    def choose(self, prompt: Prompt) -> Any:
        legal = prompt.legal
        if len(legal) == 1:
            return legal[0]
        self.prepare(prompt.view)
        value = self.value
        return max(legal, key=value)

    def prepare(self, view: ClonkState) -> None:
        """What every action's value needs: own cards, task counts, the eye weight."""
        c = self.content
        seat = self.seat
        self.view = view
        mine = [*view.carts[seat].cards, *view.galleries[seat].cards]
        self.tasks = [
            (*c.task[t], sum(c.task[t][0].get(x) == c.task[t][1] for x in mine))
            for t in view.tasks[seat].cards
        ]
        self.eyes = [self.seen_eyes(view, s) for s in range(view.seats)]
        mine_eyes = self.eyes[seat]
        others = max(e for s, e in enumerate(self.eyes) if s != seat)
        # Eyes cost a lot when the bot leads (or nearly leads) on eyes, little otherwise.
        self.eye_weight = 0.6 if mine_eyes >= others - 2 else 0.15
        self.placed = len(view.galleries[seat].cards)

    def seen_eyes(self, view: ClonkState, seat: int) -> float:
        """Known eyes of a seat, with the average for cart cards the bot cannot see."""
        eyes = self.content.eyes
        total = 0.0
        for card in (*view.carts[seat].cards, *view.galleries[seat].cards):
            total += self.avg_eyes if card.startswith(HIDDEN) else eyes.get(card, 0)
        return total

    def worth(self, card: str) -> float:
        """A Treasure card's value to the bot if it ends in its cart."""
        c = self.content
        value = c.coins[card] - c.eyes[card] * self.eye_weight
        for attr, want, n in self.tasks:
            if attr.get(card) == want:
                n = min(n, len(TASK_POINTS) - 2)
                value += TASK_POINTS[n + 1] - TASK_POINTS[n]
        return value

    def card(self, source: str | int) -> str:
        return source if isinstance(source, str) else self.view.shafts[source].cards[-1]

    def value(self, action: Any) -> float:
        kind = type(action)
        if kind is Dig:
            card = self.card(action.source)
            space = self.placed
            bonus = self.snore_eyes * self.eye_weight + 0.5 if space == 0 else SPACE_COST[space]
            return self.worth(card) + bonus + (0.1 if isinstance(action.source, int) else 0.0)
        if kind is Gift:
            card = self.card(action.source)
            c = self.content
            harm = 0.8 * c.eyes[card] - 0.6 * c.coins[card] - 0.2
            if isinstance(action.source, str):
                harm -= 0.3 * self.worth(card)
            return harm
        if kind is FeedShaft or kind is DiscardCard:
            return -self.worth(action.card) - 0.01 * getattr(action, "shaft", 0)
        if kind is Cart:
            c = self.content
            hand = self.view.hands[self.seat].cards
            tops = [z.cards[-1] for z in self.view.shafts if z.cards]
            follow = sum(c.matches(action.card, x) for x in (*hand, *tops) if x != action.card)
            return self.worth(action.card) + 0.5 * follow
        if kind is Blast:
            return -1.5
        if kind is ShowTask:
            return 1.0 if action.task.startswith("task-type-") else 0.0
        return 0.0  # stop
