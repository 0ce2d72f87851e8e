"""The turn: set-up, the listing of a seat's actions, resolving one, the choices, the turn's end.

:class:`TurnRules` is the engine's part that runs the turns: the fields every game sets up
alike (rules.md#setup), the seat's free actions (rules.md#turn) or the answers to the
pending decision, what happens after every action (the queue, the turn's end), the answers
to the engine's choices (rules.md#choices, rules.md#trash, rules.md#arrive) and the end of a
turn: refill, arrivals, the next seat or the countdown (rules.md#end-of-turn,
rules.md#countdown, rules.md#game-end). The hooks ``turn_started`` and ``turn_ended``
bracket every turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from meeple.core.bag import Bag
from meeple.core.rng import Rng, shuffle
from meeple.core.state import Event
from meeple.core.turns import Turns
from meeple.core.zones import Zone, draw
from meeple.plugins.clank.dragon import DRAGON
from meeple.plugins.clank.part import Part, S, action, hook
from meeple.plugins.clank.resolve import Handler
from meeple.plugins.clank.state import (
    END_TURN,
    ChooseOne,
    Chose,
    Countdown,
    DiscardCard,
    Discarded,
    DiscardOne,
    EndTurn,
    Pick,
    Player,
    Refilled,
    Replace,
    Skip,
    TrashCard,
    Trashed,
    Turn,
    TurnEnded,
)


class Common(TypedDict):
    """The state fields every game on the engine sets up alike (``_common_setup``)."""

    seats: int
    rng: Rng
    turns: Turns
    stack: list[Any]
    players: list[Player]
    bag: Bag
    rage: int
    dungeon: Zone
    row: Zone
    dungeon_discard: Zone
    reserve: list[Zone]
    market: Zone
    mastery: Zone
    trash: Zone
    spent: Zone


class TurnRules(Part[S]):
    """Set-up, the turn's listing and resolving, its choices and its end."""

    _handlers: dict[type, Handler[S]]
    _apply: dict[type, Callable[[S, Any], list[Event]]]
    _facts: dict[type, Callable[[S, Any, list[Event]], None]]

    # -- set-up ----------------------------------------------------------------

    def _common_setup(self, seats: int, rng: Rng, start: int, box: Zone) -> Common:
        """The state fields every game on the engine sets up alike: decks, cubes, the
        dragon, the Dungeon Deck, the Reserve, the market and the Mastery tokens (the
        ones not needed go to ``box``)."""
        cat = self.cat
        t = cat.tables
        players = []
        for seat in range(seats):
            deck = list(cat.starters[seat])
            shuffle(rng, deck)
            players.append(
                Player(
                    room=start,
                    deck=Zone(kind="deck", owner=seat, cards=deck),
                    hand=Zone(kind="hand", owner=seat),
                    play=Zone(kind="play", owner=seat),
                    discard=Zone(kind="discard", owner=seat),
                    held=Zone(kind="held", owner=seat),
                    supply=t.cubes,
                )
            )
        mastery = cat.by_kind.get("mastery", [])
        for tid in mastery[seats:]:
            box.add(tid)
        dungeon = list(cat.dungeon)
        shuffle(rng, dungeon)
        return Common(
            seats=seats,
            rng=rng,
            turns=Turns.start(seats),
            stack=[],
            players=players,
            bag=Bag(cubes={DRAGON: t.dragon_cubes}),
            rage=t.rage_start[str(seats)],
            dungeon=Zone(kind="dungeon", cards=dungeon),
            row=Zone(kind="row"),
            dungeon_discard=Zone(kind="dungeon-discard"),
            reserve=[Zone(kind="reserve", cards=list(pile)) for pile in cat.reserve],
            market=Zone(kind="market", cards=list(cat.market_stock)),
            mastery=Zone(kind="mastery", cards=list(mastery[:seats])),
            trash=Zone(kind="trash"),
            spent=Zone(kind="spent"),
        )

    def _begin(self, state: S) -> None:
        """rules.md#setup, the last steps: the opening row, hands, starting clank, arrivals."""
        t = self.cat.tables
        seats = state.seats
        turns = state.turns
        self._opening_row(state)
        events: list[Event] = []
        for seat in range(seats):
            self._draw(state, seat, t.hand, events)
        for n, seat in zip(t.starting_clank, turns.order, strict=False):
            p = state.players[seat]
            p.supply -= n
            p.clank += n
        for card in list(state.row.cards):  # rules.md#arrive: the opening row, left to right
            self._arrive(state, card, events)
        state.stack.append(Turn(seat=turns.current))
        self.turn_started(state, turns.current, events)

    def _opening_row(self, state: S) -> None:
        """rules.md#setup step 11: six cards, dragon-attack cards replaced and shuffled back."""
        defs = self.cat.card
        row, deck = state.row, state.dungeon.cards
        put_back: list[str] = []
        while len(row) < self.cat.tables.row and deck:
            card = deck.pop()
            (put_back if defs[card].dragon else row.cards).append(card)
        if put_back:
            deck.extend(put_back)
            shuffle(state.rng, deck)

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: S) -> list[Any]:
        stack = state.stack
        if not stack:
            return []
        frame = stack[-1]
        if type(frame) is Turn:
            return self.turn_actions(state, frame.seat)
        return self._frame_actions(state, frame)

    @hook
    def turn_actions(self, state: S, seat: int) -> list[Any]:
        """rules.md#turn: play a card, acquire, use, fight, buy, move, spend a potion, end.

        The map is asked for once and handed to each part of the listing: a map that grows
        is found from the state (:meth:`~.map.Movement.graph`), at a price."""
        p = state.players[seat]
        pool = state.pool
        play = self.acts.play
        hand = p.hand.cards
        out: list[Any] = []
        if hand:
            for c in self.cat.distinct(hand):
                out.append(play[c])
        graph = self.graph(state)
        skill, swords = pool.skill, pool.swords
        if skill or swords:
            self._card_actions(state, p, graph, skill, swords, out)
        if p.room in graph.markets and state.market.cards:
            self._market_actions(state, p, out)
        self.move_actions(state, p, graph, out)
        if p.held.cards:
            token = self.cat.token
            use = self.acts.use_token
            for t in p.held.cards:  # a loop: a comprehension costs a call, and few are held
                if token[t].use:
                    out.append(use[t])
        if not hand:
            out.append(END_TURN)
        self.room_actions(state, seat, p, graph, out)
        return out

    @hook
    def own_decision(self, frame: Any) -> bool:
        """Whether ``frame`` is a decision its seat takes for itself while another seat has
        the turn (none here): the state check accepts it on the stack."""
        return False

    def resolve(self, state: S, action: Any) -> list[Event]:
        """The registered rule of ``action``, what it notes for the turn, then what waits
        (:meth:`_proceed`)."""
        kind = type(action)
        events = self._apply[kind](state, action)
        note = self._facts.get(kind)
        if note is not None:
            note(state, action, events)
        self._proceed(state, events)
        return events

    def _proceed(self, state: S, events: list[Event]) -> None:
        """After every action (:meth:`resolve`): resolve what waits; a knock-out or a chosen
        end ends the turn. Most actions leave nothing waiting and the turn going on."""
        pool = state.pool
        if pool.queue or pool.waiting:
            self._settle(state, events)
        stack = state.stack
        if not stack:
            return
        bottom = stack[0]
        if state.players[state.turns.current].status in ("rescued", "eliminated") or (
            len(stack) == 1 and isinstance(bottom, Turn) and bottom.ending and not pool.queue
        ):
            self._finish_turn(state, events)

    # -- the choices ---------------------------------------------------------------

    @action(Skip)
    def skip(self, state: S, action: Skip) -> list[Event]:
        """Decline the pending choice."""
        events: list[Event] = []
        self.declined(state, state.stack.pop(), events)
        return events

    @hook
    def declined(self, state: S, frame: Any, events: list[Event]) -> None:
        """What declining ``frame``, just taken off the stack, does (nothing here)."""

    @action(Pick)
    def pick(self, state: S, action: Pick) -> list[Event]:
        """rules.md#choices: the chosen option's effects happen next."""
        frame = state.stack.pop()
        assert isinstance(frame, ChooseOne)
        state.pool.queue[:0] = self._pending(frame.options[action.option], frame.card)
        chosen = frame.options[action.option]
        events: list[Event] = [Chose(seat=frame.seat, option=action.option, effects=chosen)]
        return events

    @action(TrashCard)
    def trash_card(self, state: S, action: TrashCard) -> list[Event]:
        """rules.md#trash: the card leaves the game."""
        seat = state.stack.pop().seat
        p = state.players[seat]
        (p.play if action.card in p.play.cards else p.discard).remove(action.card)
        state.trash.add(action.card)
        events: list[Event] = [Trashed(seat=seat, card=action.card)]
        return events

    @action(DiscardCard)
    def discard_card(self, state: S, action: DiscardCard) -> list[Event]:
        """rules.md#choices: the discard, then what it pays for."""
        frame = state.stack.pop()
        assert isinstance(frame, DiscardOne)
        p = state.players[frame.seat]
        p.hand.remove(action.card)
        p.discard.add(action.card)
        state.pool.queue[:0] = self._pending(frame.then, frame.card)
        events: list[Event] = [Discarded(seat=frame.seat, card=action.card)]
        return events

    @action(Replace)
    def replace(self, state: S, action: Replace) -> list[Event]:
        """rules.md#arrive: a row card to the dungeon discard, a new one at once, no attack."""
        seat = state.stack.pop().seat
        state.row.remove(action.card)
        state.dungeon_discard.add(action.card)
        events: list[Event] = [Trashed(seat=seat, card=action.card)]
        card = self.replacement(state, events)
        if card is not None:
            state.row.add(card)
            events.append(Refilled(seat=seat, cards=[card]))
            self._arrive(state, card, events)
        return events

    @hook
    def replacement(self, state: S, events: list[Event]) -> str | None:
        """The card that takes a replaced row card's place: the next of the Dungeon Deck
        (rules.md#empty-dungeon says what an empty one does)."""
        return self._deal_dungeon(state, events)

    # -- end of turn ---------------------------------------------------------------

    @action(EndTurn)
    def end_turn(self, state: S, action: EndTurn) -> list[Event]:
        """rules.md#end-of-turn step 1: tokens' end-of-turn effects (Magic Spring) first."""
        frame = state.stack[-1]
        assert isinstance(frame, Turn)
        seat = frame.seat
        frame.ending = True
        p = state.players[seat]
        token = self.cat.token
        for tid in [t for t in p.held.cards if token[t].end_of_turn]:
            p.held.remove(tid)
            state.spent.add(tid)
            state.pool.queue.extend(self._pending(token[tid].end_of_turn, None))
        events: list[Event] = []
        return events

    def _finish_turn(self, state: S, events: list[Event]) -> None:
        """rules.md#end-of-turn steps 2-4, then the next seat's turn."""
        seat = state.turns.current
        self.turn_ended(state, seat, events)
        p = state.players[seat]
        state.stack.clear()
        state.pool = type(state.pool)()  # the game's own pool: every per-turn field starts over
        p.discard.cards.extend(p.play.take())
        p.discard.cards.extend(p.hand.take())
        if p.status == "in":
            self._draw(state, seat, self.cat.tables.hand, events)
        events.append(TurnEnded(seat=seat))
        self._refill(state, events)
        self._next_turn(state, events)

    def _deal_dungeon(self, state: S, events: list[Event]) -> str | None:
        """rules.md#empty-dungeon: the next Dungeon Deck card, reshuffling the discard if told."""
        if not state.dungeon.cards and self.options.empty_dungeon == "end":
            self._knock_out_all(state, events)
            return None
        drawn = draw(state.dungeon, 1, state.rng, reshuffle=state.dungeon_discard)
        return drawn[0] if drawn else None

    def _refill(self, state: S, events: list[Event]) -> None:
        """rules.md#end-of-turn steps 3-4: refill, arrive effects, one attack for any symbol."""
        row = state.row
        defs = self.cat.card
        new: list[str] = []
        while len(row.cards) < self.cat.tables.row:
            card = self._deal_dungeon(state, events)
            if card is None:
                break
            row.add(card)
            new.append(card)
        if not new:
            return
        events.append(Refilled(cards=new))
        for card in new:
            self._arrive(state, card, events)
        if any(defs[c].dragon for c in new):
            self._attack(state, events)

    def _arrive(self, state: S, card: str, events: list[Event]) -> None:
        """rules.md#arrive: a row card's arrive effects, as it is placed."""
        handle = self._handlers
        seat = state.turns.current
        for e in self.cat.card[card].arrive:
            handle[type(e)](state, seat, e, card, events)

    def _next_turn(self, state: S, events: list[Event]) -> None:
        """rules.md#countdown and rules.md#game-end: the next seat in, or the countdown's step."""
        players = state.players
        turns = state.turns
        while any(p.status == "in" for p in players):
            turns.next()
            seat = turns.current
            if players[seat].status == "in":
                # under the decisions the last turn's end asked for: they are answered first
                state.stack.insert(0, Turn(seat=seat))
                self.turn_started(state, seat, events)
                return
            self.left_seat_turn(state, seat, events)
        turns.over = True
        state.stack.clear()  # nothing is left to decide in a game that is over

    @hook
    def turn_started(self, state: S, seat: int, events: list[Event]) -> None:
        """The seat's turn begins, its ``Turn`` frame on the stack and its pool fresh (the
        first turn too, at set-up); nothing happens here."""

    @hook
    def turn_ended(self, state: S, seat: int, events: list[Event]) -> None:
        """The seat's turn is over, played out or ended by its leaving: its pool still holds
        the turn's resources, its cards are not yet discarded; nothing happens here. Any
        decision still pending is dropped after it."""

    @hook
    def left_seat_turn(self, state: S, seat: int, events: list[Event]) -> None:
        """rules.md#countdown: the turn of a seat that left moves the countdown pawn on
        (only the countdown seat is still in the order)."""
        extra = self.cat.tables.countdown_extra
        state.countdown += 1
        events.append(Countdown(seat=seat, space=state.countdown))
        if state.countdown > len(extra):
            self._knock_out_all(state, events)
        elif state.countdown > 1:  # rules.md#countdown-first
            self._attack(state, events, extra[state.countdown - 1])
