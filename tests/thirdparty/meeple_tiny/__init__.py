"""Tiny: a third-party meeple game in a few dozen lines.

Cards 1-6, two of each. Each seat holds 2 cards. On your turn play a hand
card to your public pile, or pass; either way you then draw a card. When the
draw pile runs out the round is finished. The highest sum in your pile wins;
fewer cards breaks ties.
"""

from meeple.core import Action, Frame, Game, State, hookimpl
from meeple.core.rng import Rng, shuffle
from meeple.core.scoring import Score
from meeple.core.turns import Turns
from meeple.core.zones import PRIVATE, PUBLIC, SECRET, Zone

CARDS = [f"c{v}{c}" for v in range(1, 7) for c in "ab"]


class Turn(Frame, tag="turn"):
    pass


class Play(Action, tag="play"):
    card: str


class Draw(Action, tag="draw"):
    pass


class TinyState(State, tag="tiny", kw_only=True):
    stack: list[Turn]
    deck: Zone
    hands: list[Zone]
    piles: list[Zone]


class Tiny(Game[TinyState, Play | Draw]):
    id = "tiny"
    title = "Tiny"
    min_seats, max_seats = 2, 4
    state_type = TinyState
    action_type = Play | Draw
    zones = {"deck": SECRET, "hand": PRIVATE, "pile": PUBLIC}

    def setup(self, seats: int, seed: int) -> TinyState:
        rng = Rng(seed=seed)
        deck = Zone(kind="deck", cards=list(CARDS))
        shuffle(rng, deck.cards)
        hands = [Zone(kind="hand", owner=s, cards=[deck.draw(), deck.draw()]) for s in range(seats)]
        piles = [Zone(kind="pile", owner=s) for s in range(seats)]
        return TinyState(
            seats=seats, rng=rng, turns=Turns.start(seats), stack=[Turn(seat=0)],
            deck=deck, hands=hands, piles=piles,
        )  # fmt: skip

    def legal_actions(self, state: TinyState) -> list[Play | Draw]:
        if not state.stack:
            return []
        hand = state.hands[state.stack[-1].seat].cards
        return [Play(card=c) for c in hand] + ([Draw()] if state.deck.cards else [])

    def resolve(self, state: TinyState, action: Play | Draw) -> list:
        seat = state.stack.pop().seat
        if isinstance(action, Play):
            state.hands[seat].remove(action.card)
            state.piles[seat].add(action.card)
        if state.deck.cards:
            state.hands[seat].add(state.deck.draw())
        if not state.deck.cards:
            state.turns.last_round = True
        if not state.turns.next():
            state.stack.append(Turn(seat=state.turns.current))
        return []

    def scores(self, state: TinyState) -> list[Score]:
        sums = [sum(int(card[1]) for card in pile.cards) for pile in state.piles]
        return [
            Score(seat=s, total=sums[s], parts={"pile": sums[s]}, tiebreak=[-len(pile)])
            for s, pile in enumerate(state.piles)
        ]

    def cards(self, state: TinyState) -> list[str]:
        return CARDS

    def back(self, card: str) -> str:
        return "card"


@hookimpl
def meeple_games(register):
    register(Tiny)
