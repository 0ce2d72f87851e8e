"""Labels: a test game whose cards are labels only, unless ``strong`` names one that scores.

Eight kinds of card lie in eight face-up supply piles. On a turn the seat is offered the top
card of each pile in turn and takes it into its hand or passes, then plays a card from its
hand to its table, if it holds one. After two rounds each seat scores its luck (0 to 9, drawn
from the seed) and, with the ``strong`` option, 4 points (``bonus``) for each copy of that kind
it owns (``head_start`` adds points to seat 0's). The ``amber`` bot takes amber and nothing else.
Whether a seat takes one kind says nothing of whether it takes another, and nothing but the
strong kind changes a score: a report must find the strong kind and only it, and with no
strong kind, nothing beyond its false-discovery rate.
"""

from __future__ import annotations

from typing import Any

from meeple.core import Action, Frame, Game, Options, State, hookimpl
from meeple.core.rng import Rng, Stream
from meeple.core.scoring import Score
from meeple.core.turns import Turns
from meeple.core.zones import PRIVATE, PUBLIC, Zone

KINDS = ("amber", "birch", "cedar", "dune", "elm", "fern", "gale", "heath")
ROUNDS = 2
COPIES = 4 * ROUNDS
"""Enough for every seat to take one of each kind every turn."""
CARDS = [f"{kind}-{copy}" for kind in KINDS for copy in range(1, COPIES + 1)]
BONUS = 4


class LabelsOptions(Options, frozen=True, kw_only=True):
    strong: str = ""
    """A kind each copy of which scores its owner ``bonus`` points ("" for none)."""
    head_start: int = 0
    """Points seat 0 scores before the game begins."""
    bonus: int = BONUS
    """What each copy of the strong kind scores."""


class Offer(Frame, tag="offer"):
    pile: int


class Place(Frame, tag="place"):
    pass


class Take(Action, tag="take"):
    pass


class Pass(Action, tag="pass"):
    pass


class Play(Action, tag="play"):
    card: str


class LabelsState(State, tag="labels", kw_only=True):
    stack: list[Offer | Place]
    supply: list[Zone]
    hands: list[Zone]
    tables: list[Zone]


class Labels(Game[LabelsState, Any]):
    id = "labels"
    title = "Labels"
    min_seats, max_seats = 2, 4
    options_type = LabelsOptions
    state_type = LabelsState
    action_type = Take | Pass | Play
    zones = {"supply": PUBLIC, "hand": PRIVATE, "table": PUBLIC}
    passes = (Pass,)
    options: LabelsOptions

    def setup(self, seats: int, seed: int) -> LabelsState:
        piles = [[c for c in CARDS if self.encoding.card_kind(c) == kind] for kind in KINDS]
        return LabelsState(
            seats=seats, rng=Rng(seed=seed), turns=Turns.start(seats), stack=self.turn(0),
            supply=[Zone(kind="supply", cards=pile) for pile in piles],
            hands=[Zone(kind="hand", owner=s) for s in range(seats)],
            tables=[Zone(kind="table", owner=s) for s in range(seats)],
        )  # fmt: skip

    @staticmethod
    def turn(seat: int) -> list[Offer | Place]:
        """A turn's decisions, the first on top: an offer from each pile, then a play."""
        return [Place(seat=seat), *(Offer(seat=seat, pile=p) for p in reversed(range(8)))]

    def legal_actions(self, state: LabelsState) -> list[Any]:
        if not state.stack:
            return []
        frame = state.stack[-1]
        if isinstance(frame, Offer):
            return [Take(), Pass()]
        return [Play(card=c) for c in state.hands[frame.seat].cards] or [Pass()]

    def resolve(self, state: LabelsState, action: Any) -> list[Any]:
        frame = state.stack.pop()
        if isinstance(frame, Offer):
            if isinstance(action, Take):
                state.hands[frame.seat].add(state.supply[frame.pile].draw())
            return []
        if isinstance(action, Play):
            state.hands[frame.seat].remove(action.card)
            state.tables[frame.seat].add(action.card)
        if state.turns.round == ROUNDS:
            state.turns.last_round = True
        if not state.turns.next():
            state.stack.extend(self.turn(state.turns.current))
        return []

    def scores(self, state: LabelsState) -> list[Score]:
        out = []
        for seat in range(state.seats):
            luck = Stream(f"labels/{state.rng.seed}/{seat}").below(10)
            owned = state.hands[seat].cards + state.tables[seat].cards
            kinds = map(self.encoding.card_kind, owned)
            bonus = self.options.bonus * sum(kind == self.options.strong for kind in kinds)
            head = self.options.head_start if seat == 0 else 0
            parts = {"luck": luck, "strong": bonus, "head start": head}
            out.append(Score(seat=seat, total=luck + bonus + head, parts=parts))
        return out

    def cards(self, state: LabelsState) -> list[str]:
        return CARDS


class Amber:
    """Takes every amber card offered and passes every other; plays at random."""

    def __init__(self, game: Game[Any, Any], seat: int, stream: Stream) -> None:
        self.stream = stream

    def choose(self, prompt: Any) -> Any:
        view = prompt.view
        frame = view.stack[-1]
        if isinstance(frame, Offer):
            top = view.supply[frame.pile].top or ""
            return Take() if top.startswith("amber") else Pass()
        return self.stream.choice(prompt.legal)


@hookimpl
def meeple_games(register: Any) -> None:
    register(Labels)


@hookimpl
def meeple_bots(register: Any) -> None:
    register("amber", Amber, games=("labels",), help="takes amber, and nothing else")
