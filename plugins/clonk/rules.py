"""Clonk! rules: the :class:`Clonk` game, one method per rule.

Each rule's docstring names its section of ``seeds/clonk/rules.md``
(``rules.md#gift``), so any rule is one hop from its text. The hot path
(``legal_actions`` and ``resolve``) works on card ids with lookups built once
per card table and hands out pre-built action values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import countOf
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.rl import Encoding
from meeple.core.rng import Rng, shuffle
from meeple.core.scoring import Score
from meeple.core.state import Event
from meeple.core.turns import Turns
from meeple.core.zones import FACING, FACING_OWNER, PRIVATE, PUBLIC, SECRET, TOP_ONLY, Zone
from meeple.plugins.clonk import checks, evaluate, present
from meeple.plugins.clonk.content import AWAKENING, TASK_COLOUR, Content, load
from meeple.plugins.clonk.state import (
    GALLERY,
    HAND,
    STOP,
    Awakened,
    Blast,
    Blasted,
    Cart,
    Carted,
    ChooseTask,
    ClonkAction,
    ClonkEvent,
    ClonkOptions,
    ClonkState,
    Dig,
    Discard,
    DiscardCard,
    Discarded,
    Drew,
    Dug,
    Fed,
    Feed,
    FeedShaft,
    FirstCart,
    Gift,
    Gifted,
    Relaid,
    Revealed,
    ShowTask,
    Stop,
    Stopped,
    TaskShown,
    Took,
    Unearth,
)

SHAFTS = 5
SHAFT_FACING = (False, False, True, False, True, False, True, True)
"""A new shaft, bottom to top (rules.md#shafts)."""
RELAY_FACING = (False, True, True)
"""An emptied shaft laid anew, bottom to top (rules.md#empty-shaft)."""
TASK_POINTS = (0, 1, 2, 4, 6, 9, 12, 16, 20, 25)
"""Points for 0..9+ cards matching a task tile (rules.md#task-table)."""


@dataclass(frozen=True)
class _Moves:
    """Every action value a game on one table can ever list, built once per table.

    Listing legal actions hands out these shared frozen values instead of
    building new ones at each decision.
    """

    show: dict[str, ShowTask]
    cart: dict[str, Cart]
    dig: dict[str | int, Dig]
    gift: tuple[dict[str | int, Gift], ...]
    """By target seat, then source."""
    blast: tuple[Blast, ...]
    feed: dict[str, tuple[FeedShaft, ...]]
    discard: dict[str, DiscardCard]


@functools.lru_cache(maxsize=8)
def _moves(c: Content, seats: int) -> _Moves:
    shafts = range(SHAFTS)
    sources = (*c.treasures, *shafts)
    return _Moves(
        show={t: ShowTask(task=t) for t in (*c.colour_tasks, *c.type_tasks)},
        cart={t: Cart(card=t) for t in c.treasures},
        dig={s: Dig(source=s) for s in sources},
        gift=tuple({s: Gift(source=s, target=t) for s in sources} for t in range(seats)),
        blast=tuple(Blast(shaft=i) for i in shafts),
        feed={t: tuple(FeedShaft(card=t, shaft=i) for i in shafts) for t in c.treasures},
        discard={t: DiscardCard(card=t) for t in c.treasures},
    )


class ClonkEncoding(Encoding[ClonkState, ClonkAction]):
    """Clonk!'s actions for a reinforcement-learning environment."""

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[Any]]:
        """The ints the actions name: shafts (a ``source`` is a card or a shaft) and seats."""
        return {"source": range(SHAFTS), "shaft": range(SHAFTS), "target": range(seats)}


class Clonk(Game[ClonkState, ClonkAction]):
    """Clonk!: dig chains of matching treasures, mind your tasks, don't wake the monster."""

    id = "clonk"
    title = "Clonk!"
    version = "2"
    min_seats = 2
    max_seats = 4
    options_type = ClonkOptions
    state_type = ClonkState
    action_type = ClonkAction
    event_type = ClonkEvent
    presentation_type = present.ClonkPresentation
    encoding_type = ClonkEncoding
    # docs/search.md#the-ladder: 35.6% [31.5%, 39.9%] of 500 games against three greedy bots.
    bot_options = {"ismcts": {"iterations": "400", "depth": "8", "reuse": "true"}}
    zones = {
        "draw": SECRET,
        "task-pile": SECRET,
        "hand": PRIVATE,
        "shaft": FACING,
        "tasks": FACING_OWNER,
        "cart": TOP_ONLY,
        "gallery": PUBLIC,
        "kablooey": PUBLIC,
        "snore-supply": PUBLIC,
        "kablooey-supply": PUBLIC,
        "discard": PUBLIC,
        "aside": PUBLIC,
    }
    variants = (
        {},
        # the English rulebook's readings where the German walk-through differs, and the
        # house rules, so that the conformance suite covers them too
        {
            "eye_tie": "none",
            "snore_eyes_in_penalty": False,
            "snore_eyes_in_tiebreak": False,
            "one_kablooey_per_turn": True,
            "hand_limit": 3,
            "start_seat": 1,
        },
    )
    options: ClonkOptions

    def __init__(self, options: ClonkOptions | None = None) -> None:
        super().__init__(options)
        self.content: Content = load(self.options.cards)
        self._moves = _moves(self.content, self.max_seats)
        self._apply: dict[type, Callable[[ClonkState, Any], list[Event]]] = {
            ShowTask: self.show_task,
            Cart: self.first_cart,
            Dig: self.dig,
            Gift: self.gift,
            Blast: self.blast,
            Stop: self.stop,
            FeedShaft: self.feed,
            DiscardCard: self.discard,
        }

    # -- set-up ----------------------------------------------------------------

    def setup(self, seats: int, seed: int) -> ClonkState:
        """rules.md#setup: tasks dealt, five shafts, four-card hands, the draw pile."""
        first = self.options.start_seat
        if not 0 <= first < seats:
            raise MeepleError(
                f"start_seat {first} does not exist in a {seats}-seat game; "
                f"choose a seat from 0 to {seats - 1}"
            )
        c = self.content
        rng = Rng(seed=seed)
        colour_tiles, type_tiles = list(c.colour_tasks), list(c.type_tasks)
        shuffle(rng, colour_tiles)
        shuffle(rng, type_tiles)
        deck = list(c.treasures)
        shuffle(rng, deck)
        shafts = [
            Zone(kind="shaft", cards=[deck.pop() for _ in SHAFT_FACING], up=list(SHAFT_FACING))
            for _ in range(SHAFTS)
        ]
        hands = [
            Zone(kind="hand", owner=s, cards=[deck.pop() for _ in range(HAND)])
            for s in range(seats)
        ]
        turns = Turns.start(seats, first)
        return ClonkState(
            seats=seats,
            rng=rng,
            turns=turns,
            stack=[ChooseTask(seat=s) for s in reversed(turns.order)],
            draw=Zone(kind="draw", cards=self.draw_pile(deck, seats)),
            shafts=shafts,
            hands=hands,
            galleries=[Zone(kind="gallery", owner=s) for s in range(seats)],
            carts=[Zone(kind="cart", owner=s) for s in range(seats)],
            tasks=[
                Zone(
                    kind="tasks",
                    owner=s,
                    cards=[colour_tiles.pop(), type_tiles.pop()],
                    up=[False, False],
                )
                for s in range(seats)
            ],
            kablooeys=[Zone(kind="kablooey", owner=s) for s in range(seats)],
            task_piles=[
                Zone(kind="task-pile", cards=colour_tiles),
                Zone(kind="task-pile", cards=type_tiles),
            ],
            snore_supply=Zone(kind="snore-supply", cards=list(c.snores)),
            kablooey_supply=Zone(kind="kablooey-supply", cards=list(c.kablooeys)),
            discard=Zone(kind="discard"),
            aside=Zone(kind="aside"),
        )

    @staticmethod
    def draw_pile(rest: list[str], seats: int) -> list[str]:
        """rules.md#draw-pile: one pile per seat, the Awakening card on top of the bottom one.

        ``rest`` is bottom first; the bottom pile is the smallest when the
        cards do not split evenly.
        """
        bottom = len(rest) // seats
        return [*rest[:bottom], AWAKENING, *rest[bottom:]]

    def show_task(self, state: ClonkState, action: ShowTask) -> list[Event]:
        """rules.md#tasks: the seat lays one of its two tiles face up."""
        seat = state.stack.pop().seat
        tasks = state.tasks[seat]
        tasks.up[tasks.cards.index(action.task)] = True  # type: ignore[index]
        events: list[Event] = [TaskShown(seat=seat, task=action.task)]
        if not state.stack:
            self.begin_turn(state, events)
        return events

    # -- a turn ----------------------------------------------------------------

    def begin_turn(self, state: ClonkState, events: list[Event]) -> None:
        """rules.md#fill-cart: Phase I, the gallery into the cart (round 1: a hand card)."""
        seat = state.turns.current
        if state.turns.round == 1:
            state.stack.append(FirstCart(seat=seat))
            return
        gallery = state.galleries[seat]
        if gallery.cards:
            cards = gallery.take()
            # Left to right onto the pile, so the rightmost card ends on top.
            state.carts[seat].cards.extend(cards)
            events.append(Carted(seat=seat, card=cards[-1], count=len(cards)))
        state.stack.append(Unearth(seat=seat))

    def first_cart(self, state: ClonkState, action: Cart) -> list[Event]:
        """rules.md#fill-cart: on the first turn a chosen hand card starts the cart."""
        frame = state.stack.pop()
        seat = frame.seat
        state.hands[seat].cards.remove(action.card)
        state.carts[seat].cards.append(action.card)
        state.stack.append(Unearth(seat=seat))
        return [Carted(seat=seat, card=action.card)]

    def last_card(self, state: ClonkState, seat: int) -> str | None:
        """rules.md#chain: the card to match: the rightmost in the gallery, else the cart top."""
        cards = state.galleries[seat].cards or state.carts[seat].cards
        return cards[-1] if cards else None

    def legal_actions(self, state: ClonkState) -> list[Any]:
        stack = state.stack
        if not stack:
            return []
        frame = stack[-1]
        kind = type(frame)
        seat = frame.seat
        if kind is Unearth:
            return self.unearth_actions(state, frame)  # type: ignore[arg-type]
        hand = state.hands[seat].cards
        if kind is Feed:
            feed = self._moves.feed
            out: list[Any] = []
            for card in hand:
                out += feed[card]
            return out
        if kind is Discard:
            discard = self._moves.discard
            return [discard[card] for card in hand]
        if kind is FirstCart:
            cart = self._moves.cart
            return [cart[card] for card in hand]
        show = self._moves.show
        return [show[t] for t in state.tasks[seat].cards]

    def unearth_actions(self, state: ClonkState, frame: Unearth) -> list[Any]:
        """rules.md#unearth: every dig, gift and blast open now, and stopping.

        Digs come first, then gifts seat by seat, each in the order of the
        cards on offer: the hand, then the shaft tops left to right.
        """
        chains = self.content.chains
        moves = self._moves
        seat = frame.seat
        galleries, carts = state.galleries, state.carts
        # rules.md#chain: the chains the seat may extend, each with the moves that extend it
        # -- its own, then (rules.md#gift) every other seat's with a free space.
        ends: list[tuple[str | None, Mapping[str | int, ClonkAction]]] = [
            (self.last_card(state, seat), moves.dig)
        ]
        if not frame.gifted:
            for target in range(state.seats):
                their = galleries[target].cards
                if target != seat and len(their) < GALLERY:
                    their = their or carts[target].cards
                    if their:
                        ends.append((their[-1], moves.gift[target]))
        hand = state.hands[seat].cards
        shafts = state.shafts
        out: list[Any] = []
        for end, move in ends:
            chain = chains[end]  # type: ignore[index]
            for card in hand:
                if card in chain:
                    out.append(move[card])
            for i, zone in enumerate(shafts):
                cards = zone.cards
                if cards and cards[-1] in chain:
                    out.append(move[i])
        if state.kablooeys[seat].cards and not (
            frame.blasted and self.options.one_kablooey_per_turn
        ):
            blast = moves.blast
            out += [blast[i] for i, zone in enumerate(shafts) if zone.cards]
        out.append(STOP)
        return out

    def resolve(self, state: ClonkState, action: Any) -> list[Event]:
        return self._apply[type(action)](state, action)

    def take(self, state: ClonkState, source: str | int, seat: int, events: list[Event]) -> str:
        """A card from a hand (``source`` is its id) or a shaft top (``source`` is the shaft)."""
        if isinstance(source, str):
            state.hands[seat].cards.remove(source)
            return source
        return self.take_top(state, source, seat, events)

    def take_top(self, state: ClonkState, shaft: int, seat: int, events: list[Event]) -> str:
        """rules.md#reveal and rules.md#empty-shaft: what taking a shaft's top sets off."""
        zone = state.shafts[shaft]
        card = zone.cards.pop()
        up = zone.up
        up.pop()  # type: ignore[union-attr]
        if zone.cards:
            if not up[-1]:  # type: ignore[index]
                up[-1] = True  # type: ignore[index]
                events.append(Revealed(card=zone.cards[-1], shaft=shaft))
        else:
            self.relay(state, zone, shaft, seat, events)
        return card

    def relay(
        self, state: ClonkState, zone: Zone, shaft: int, seat: int, events: list[Event]
    ) -> None:
        """rules.md#empty-shaft: an emptied shaft gets 1 face-down and 2 face-up cards at once.

        With the draw pile spent it gets what is left, its top face up
        (rules.md#d-exhausted).
        """
        for up in RELAY_FACING:
            card = self.draw_card(state, seat, events)
            if card is None:
                break
            zone.add(card, up)
        if zone.cards:
            zone.up[-1] = True  # type: ignore[index]
            events.append(
                Relaid(
                    shaft=shaft,
                    cards=[c for c, u in zip(zone.cards, zone.up, strict=True) if u],  # type: ignore[arg-type]
                )
            )

    def draw_card(self, state: ClonkState, seat: int, events: list[Event]) -> str | None:
        """rules.md#end: the Awakening card is set aside, replaced, and makes this round the last.

        ``None`` when the draw pile is spent (rules.md#d-exhausted).
        """
        pile = state.draw.cards
        if not pile:
            return None
        card = pile.pop()
        if card == AWAKENING:
            state.aside.cards.append(card)
            state.turns.last_round = True
            events.append(Awakened(seat=seat))
            if not pile:
                return None
            card = pile.pop()
        return card

    def dig(self, state: ClonkState, action: Dig) -> list[Event]:
        """rules.md#chain: a matching card to the next free space; full ends Phase II."""
        seat = state.stack[-1].seat
        events: list[Event] = []
        source = action.source
        card = self.take(state, source, seat, events)
        events.insert(
            0, Dug(seat=seat, card=card, shaft=None if isinstance(source, str) else source)
        )
        gallery = state.galleries[seat].cards
        gallery.append(card)
        if len(gallery) == GALLERY:
            state.stack.pop()
            self.sift(state, seat, events)
        return events

    def gift(self, state: ClonkState, action: Gift) -> list[Event]:
        """rules.md#gift: once per turn, a matching card into another seat's gallery."""
        frame = state.stack[-1]
        frame.gifted = True  # type: ignore[union-attr]
        seat = frame.seat
        events: list[Event] = []
        source = action.source
        card = self.take(state, source, seat, events)
        shaft = None if isinstance(source, str) else source
        events.insert(0, Gifted(seat=seat, card=card, target=action.target, shaft=shaft))
        state.galleries[action.target].cards.append(card)
        return events

    def blast(self, state: ClonkState, action: Blast) -> list[Event]:
        """rules.md#kablooey: a held Kablooey back to the supply, a shaft top to the discard."""
        frame = state.stack[-1]
        frame.blasted = True  # type: ignore[union-attr]
        seat = frame.seat
        state.kablooey_supply.cards.append(state.kablooeys[seat].cards.pop())
        events: list[Event] = []
        card = self.take_top(state, action.shaft, seat, events)
        state.discard.cards.append(card)
        events.insert(0, Blasted(seat=seat, card=card, shaft=action.shaft))
        return events

    def stop(self, state: ClonkState, action: Stop) -> list[Event]:
        """rules.md#stop: the seat ends Phase II."""
        seat = state.stack.pop().seat
        events: list[Event] = [Stopped(seat=seat)]
        self.sift(state, seat, events)
        return events

    def sift(self, state: ClonkState, seat: int, events: list[Event]) -> None:
        """rules.md#bonus and rules.md#draw: Phase III's cards for empty spaces, then one draw."""
        placed = len(state.galleries[seat].cards)
        if placed == 0 and state.snore_supply.cards:
            snore = state.snore_supply.cards.pop()
            state.carts[seat].cards.insert(0, snore)
            events.append(Took(seat=seat, card=snore))
        if placed <= 1 and state.kablooey_supply.cards:
            kablooey = state.kablooey_supply.cards.pop()
            state.kablooeys[seat].cards.append(kablooey)
            events.append(Took(seat=seat, card=kablooey))
        hand = state.hands[seat].cards
        for _ in range((placed < 3) + (placed < 4) + 1):
            card = self.draw_card(state, seat, events)
            if card is None:
                break
            hand.append(card)
            events.append(Drew(seat=seat, card=card))
        if hand:
            state.stack.append(Feed(seat=seat))
        else:  # rules.md#d-no-feed
            self.end_turn(state, events)

    def feed(self, state: ClonkState, action: FeedShaft) -> list[Event]:
        """rules.md#feed: a hand card face up onto a shaft of the seat's choice."""
        seat = state.stack.pop().seat
        hand = state.hands[seat].cards
        hand.remove(action.card)
        state.shafts[action.shaft].add(action.card, True)
        events: list[Event] = [Fed(seat=seat, card=action.card, shaft=action.shaft)]
        if len(hand) > self.options.hand_limit:
            state.stack.append(Discard(seat=seat))
        else:
            self.end_turn(state, events)
        return events

    def discard(self, state: ClonkState, action: DiscardCard) -> list[Event]:
        """rules.md#hand-limit: the seat discards cards of its choice down to the limit."""
        seat = state.stack[-1].seat
        hand = state.hands[seat].cards
        hand.remove(action.card)
        state.discard.cards.append(action.card)
        events: list[Event] = [Discarded(seat=seat, card=action.card)]
        if len(hand) <= self.options.hand_limit:
            state.stack.pop()
            self.end_turn(state, events)
        return events

    def end_turn(self, state: ClonkState, events: list[Event]) -> None:
        """rules.md#end: the next seat's turn, unless the last round just ended."""
        if not state.turns.next():
            self.begin_turn(state, events)
        else:
            self.reveal_tasks(state, events)

    @staticmethod
    def reveal_tasks(state: ClonkState, events: list[Event]) -> None:
        """rules.md#end: every face-down task tile is turned up for scoring, in seat order."""
        for seat, tasks in enumerate(state.tasks):
            up = tasks.up
            assert up is not None  # task tiles lie face up or down
            for i, task in enumerate(tasks.cards):
                if not up[i]:
                    up[i] = True
                    events.append(TaskShown(seat=seat, task=task))

    # -- scoring ---------------------------------------------------------------

    def tally(self, state: ClonkState, seat: int) -> tuple[int, int, int, int, int, int]:
        """rules.md#coins: (coins, colour task, type task, eyes, Snore eyes, Treasure cards)."""
        c = self.content
        coins, eyes = c.coins.__getitem__, c.eyes.__getitem__
        cards = [*state.carts[seat].cards, *state.galleries[seat].cards]
        treasures = [x for x in cards if x in c.colour]
        points = {True: 0, False: 0}
        for task in state.tasks[seat].cards:
            attr, want = c.task[task]
            n = countOf(map(attr.__getitem__, treasures), want)
            points[task.startswith(TASK_COLOUR)] = TASK_POINTS[min(n, len(TASK_POINTS) - 1)]
        all_eyes = sum(map(eyes, cards))
        return (
            sum(map(coins, cards)) + sum(map(coins, state.kablooeys[seat].cards)),
            points[True],
            points[False],
            all_eyes,
            all_eyes - sum(map(eyes, treasures)),
            len(treasures),
        )

    def scores(self, state: ClonkState) -> list[Score]:
        """rules.md#scoring, rules.md#eye-penalty and rules.md#tiebreak."""
        tallies = [self.tally(state, s) for s in range(state.seats)]
        most = max(t[3] for t in tallies)
        leaders = [s for s, t in enumerate(tallies) if t[3] == most] if most else []
        if len(leaders) > 1 and self.options.eye_tie == "none":  # rules.md#d-eye-tie
            leaders = []
        out = []
        options = self.options
        for s, (coins, colour, kind, eyes, snore, treasures) in enumerate(tallies):
            counted = eyes if options.snore_eyes_in_penalty else eyes - snore
            penalty = -((counted + 1) // 2) if s in leaders else 0
            parts = {
                "coins": coins,
                "task_colour": colour,
                "task_type": kind,
                "eyes_penalty": penalty,
            }
            # rules.md#d-snore-tiebreak: which eyes the "fewer eyes" tie-break weighs
            fewer = eyes if options.snore_eyes_in_tiebreak else eyes - snore
            out.append(
                Score(seat=s, total=sum(parts.values()), parts=parts, tiebreak=[-fewer, treasures])
            )
        return out

    def evaluate(self, state: ClonkState, seat: int) -> float:
        return evaluate.evaluate(self, state, seat)

    # -- what the core needs to know ---------------------------------------------

    def cards(self, state: ClonkState) -> Iterable[str]:
        return self.content.all_cards

    def back(self, card: str) -> str:
        return self.content.back.get(card, "")

    def displaced(self, state: ClonkState, zone: Zone, card: str) -> Zone:
        """Snore and Kablooey cards go to their supplies, task tiles to their piles and
        Treasure cards under the draw pile."""
        return {
            "snore": state.snore_supply,
            "kablooey": state.kablooey_supply,
            "task-colour": state.task_piles[0],
            "task-type": state.task_piles[1],
        }.get(self.content.back.get(card, ""), state.draw)

    def validate_state(self, state: ClonkState) -> list[str]:
        return checks.check(self, state)
