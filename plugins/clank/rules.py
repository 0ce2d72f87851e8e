"""Clank! rules: the generic :class:`ClankEngine` and the :class:`Clank` game on it.

Each rule's docstring names its section of ``seeds/clank/rules.md``. The
engine is assembled from parts over one catalog and one state type -- the map
(:mod:`.map`), the effect interpreter (:mod:`.resolve`), the dragon
(:mod:`.dragon`), typed against each other by :class:`~.part.Part` -- so a
game on it (Clank!, Clank! Catacombs) subclasses ``ClankEngine[ItsState]``
and swaps or extends each part.
The hot path hands out pre-built (or lazily cached) action values and reads
definitions from dictionaries built once per set of tables; every map
question goes through :meth:`~.map.Movement.graph`, which receives the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, TypedDict

from meeple.core.bag import Bag
from meeple.core.rng import Rng, shuffle
from meeple.core.scoring import Score
from meeple.core.state import Event
from meeple.core.turns import Turns
from meeple.core.zones import FACING, HIDDEN, PRIVATE, PUBLIC, SECRET, Zone, draw
from meeple.plugins.clank import checks, content, drawing, present
from meeple.plugins.clank.catalog import SECRET_KINDS, Catalog, Graph
from meeple.plugins.clank.dragon import COLOURS, DRAGON, Dragon
from meeple.plugins.clank.map import Movement
from meeple.plugins.clank.part import S, action, actions_of, points, shared
from meeple.plugins.clank.resolve import ACQUIRED_GEM, GEM_DISCOUNT, Effects
from meeple.plugins.clank.state import (
    END_TURN,
    Acquire,
    Acquired,
    Bought,
    Buy,
    ChooseOne,
    Chose,
    ClankAction,
    ClankEffect,
    ClankEvent,
    ClankOptions,
    ClankState,
    Countdown,
    DiscardCard,
    Discarded,
    DiscardOne,
    EndTurn,
    EngineOptions,
    EngineState,
    Fight,
    Move,
    Pending,
    Pick,
    Play,
    Played,
    Player,
    Refilled,
    Replace,
    Skip,
    Teleport,
    TrashCard,
    Trashed,
    Turn,
    TurnEnded,
    UseDevice,
    UseToken,
)

OFFERS_KEPT = 256
"""Row offers a game object keeps: a turn asks for the same one at every decision, a search
for those of the states it visits."""


class Common(TypedDict):
    """The state fields every game on the engine sets up alike (``common_setup``)."""

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


Offered = tuple[str, content.Card, Any, bool, int]
"""A card of the row or a Reserve top as :meth:`~ClankEngine.card_actions` reads it: its id,
its definition, the action taking it (fight, use or acquire), whether swords pay for it, and
the least Skill (or swords) that can: its cost, 0 for a gem (rules.md#gem-discount). A plain
tuple: unpacking it in the loop is faster than a named one's."""


@lru_cache(maxsize=16)
def on_offer(cat: Catalog) -> dict[str, Offered]:
    """Every card of ``cat`` as it would lie on offer, built once per catalog (and shared, as
    the catalog is, by every game on it): a row offer is then a lookup per card."""
    cards = tuple(cat.card)
    takes = {"monster": shared(Fight, "card", cards), "device": shared(UseDevice, "card", cards)}
    acquire = shared(Acquire, "card", cards)
    out: dict[str, Offered] = {}
    for c, card in cat.card.items():
        take = takes.get(card.kind, acquire)[c]
        out[c] = (c, card, take, card.kind == "monster", 0 if card.gem else card.cost)
    return out


@lru_cache(maxsize=16)
def catalog(schema: content.Schema, o: ClankOptions) -> Catalog:
    """The catalog of the tables ``o`` names, as a game of ``schema`` reads them, built once
    per game and set of options (of the last 16: a tournament over variants cannot grow it)."""
    t = content.read_tables(
        schema,
        cards=o.cards,
        board=o.board,
        board_file=o.board_file,
        variant=o.variant,
        tokens=o.tokens,
    )
    return Catalog(t.cards, t.tokens, t.board)


class ClankEngine(Movement[S], Effects[S], Dragon[S]):
    """The Clank! engine over its state type ``S``: everything the games on it share.

    A game subclasses ``ClankEngine[ItsState]`` and declares its id, options,
    state, catalog and set-up; its rules extend the engine's.
    """

    min_seats = 2
    max_seats = 4
    Action = ClankAction
    Event = ClankEvent
    passes = (Skip, EndTurn)
    zones = {
        "deck": SECRET,
        "hand": PRIVATE,
        "play": PUBLIC,
        "discard": PUBLIC,
        "held": PUBLIC,
        "dungeon": SECRET,
        "row": PUBLIC,
        "dungeon-discard": PUBLIC,
        "reserve": PUBLIC,
        "room": FACING,
        "market": PUBLIC,
        "mastery": PUBLIC,
        "box": SECRET,
        "trash": PUBLIC,
        "spent": PUBLIC,
    }
    options: EngineOptions

    def __init__(self, options: EngineOptions | None = None, cat: Catalog | None = None) -> None:
        super().__init__(options)
        self.cat = cat if cat is not None else self.make_catalog()
        cat = self.cat
        self._handlers = {k: getattr(self, name) for k, name in self.effect_rules().items()}
        self.build_moves()
        self.acts = actions_of(cat)
        self._on_offer = on_offer(cat)
        self._offer = lru_cache(maxsize=OFFERS_KEPT)(self.offer_of)
        self._plays = lru_cache(maxsize=len(cat.card))(self.play_effects)
        self._apply: dict[type, Callable[[S, Any], list[Event]]] = self.bind("action")
        self._facts = self.bind("fact")
        self._frames = self.bind("frame")
        self._conditions = self.bind("condition")
        self._points = self.bind("points")

    def make_catalog(self) -> Catalog:
        """The catalog of the tables the options name."""
        raise NotImplementedError

    @classmethod
    def schema(cls) -> content.Schema:
        """What the game's tables may say: its vocabulary, and the effects, conditions and
        points rules it registers."""
        rules = cls.rules
        return content.Schema(
            cls.Effect,
            tuple(rules["effect"]),
            frozenset(rules["condition"]),
            frozenset(rules["points"]),
        )

    # -- set-up ----------------------------------------------------------------

    def common_setup(self, seats: int, rng: Rng, start: int, box: Zone) -> Common:
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

    def begin(self, state: S) -> None:
        """rules.md#setup, the last steps: the opening row, hands, starting clank, arrivals."""
        t = self.cat.tables
        seats = state.seats
        turns = state.turns
        self.opening_row(state)
        events: list[Event] = []
        for seat in range(seats):
            self.draw(state, seat, t.hand, events)
        for n, seat in zip(t.starting_clank, turns.order, strict=False):
            p = state.players[seat]
            p.supply -= n
            p.clank += n
        for card in list(state.row.cards):  # rules.md#arrive: the opening row, left to right
            self.arrive(state, card, events)
        state.stack.append(Turn(seat=turns.current))

    def opening_row(self, state: S) -> None:
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
        return self.frame_actions(state, frame)

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
            self.card_actions(state, p, graph, skill, swords, out)
        if p.room in graph.markets and state.market.cards:
            self.market_actions(state, p, out)
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

    def card_actions(
        self, state: S, p: Player, graph: Graph, skill: int, swords: int, out: list[Any]
    ) -> None:
        """rules.md#acquire, rules.md#device, rules.md#fight over the row and the Reserve."""
        cards = list(state.row.cards)
        for z in state.reserve:  # the tops of the Reserve's piles
            if z.cards:
                cards.append(z.cards[-1])
        for c, card, act, by_swords, least in self._offer(tuple(cards)):
            if (swords if by_swords else skill) < least:
                continue  # out of reach whatever else holds (the common case)
            where = card.where
            if where is not None and not self.where_ok(graph, p.room, where):
                continue
            kind = card.kind
            if kind == "monster":
                if swords >= card.cost:
                    out.append(act)
            elif kind == "device":
                if skill >= card.cost and self.can_use(p, c):
                    out.append(act)
            # only a gem's price can fall below its cost (rules.md#gem-discount)
            elif skill >= card.cost or (card.gem and skill >= self.skill_price(state, card)):
                out.append(act)

    def offer_of(self, cards: tuple[str, ...]) -> tuple[Offered, ...]:
        """Each distinct card of ``cards`` (the Dungeon Row and the Reserve's tops) as
        :meth:`card_actions` reads it. They change only on an acquire, a fight or a refill,
        so :meth:`card_actions` keeps them by those cards (the last :data:`OFFERS_KEPT`)."""
        offered = self._on_offer
        offer = []
        for c in self.cat.distinct(cards):
            offer.append(offered[c])
        return tuple(offer)

    @staticmethod
    def skill_price(state: EngineState[Any, Any], card: Any) -> int:
        """rules.md#gem-discount: a card's Skill cost, gems cheaper under the discount."""
        if card.gem:
            return max(card.cost - 2 * state.pool.mods.count(GEM_DISCOUNT), 0)
        return card.cost

    def can_use(self, p: Player, card: str) -> bool:
        """Whether the seat can pay a device's price beyond its Skill (nothing more here)."""
        return True

    def where_ok(self, graph: Any, room: int, where: str) -> bool:
        """rules.md#acquire: a card limited to the depths or a crystal cave."""
        return room in (graph.depths if where == "depths" else graph.caves)

    def market_actions(self, state: S, p: Player, out: list[Any]) -> None:
        """rules.md#market: one item kind per action, if the seat has the gold."""
        buy = self.acts.buy
        out.extend(buy[kind] for kind in self.market_kinds(state, p, None))

    def market_kinds(self, state: S, p: Player, price: int | None) -> list[str]:
        """The market item kinds the seat can pay for, at their price or at ``price``."""
        token = self.cat.token
        kinds: list[str] = []
        for tid in state.market.cards:
            tok = token[tid]
            cost = tok.price if price is None else price
            if tok.id not in kinds and p.gold >= cost and self.may_buy(p, tid):
                kinds.append(tok.id)
        return kinds

    def take_from_market(self, state: S, kind: str) -> str:
        """The most valuable item of ``kind`` left leaves the market (its token id)."""
        token = self.cat.token
        tid = next(t for t in state.market.cards if token[t].id == kind)
        state.market.remove(tid)
        return tid

    def may_buy(self, p: Player, tid: str) -> bool:
        """Whether the seat meets a market item's condition beyond its price (none here)."""
        return True

    def own_decision(self, frame: Any) -> bool:
        """Whether ``frame`` is a decision its seat takes for itself while another seat has
        the turn (none here): the state check accepts it on the stack."""
        return False

    def resolve(self, state: S, action: Any) -> list[Event]:
        """The registered rule of ``action``, what it notes for the turn, then what waits
        (:meth:`proceed`)."""
        kind = type(action)
        events = self._apply[kind](state, action)
        note = self._facts.get(kind)
        if note is not None:
            note(state, action, events)
        self.proceed(state, events)
        return events

    # -- the turn's actions --------------------------------------------------------

    def proceed(self, state: S, events: list[Event]) -> None:
        """After every action (:meth:`resolve`): resolve what waits; a knock-out or a chosen
        end ends the turn. Most actions leave nothing waiting and the turn going on."""
        pool = state.pool
        if pool.queue or pool.ifs:
            self.settle(state, events)
        stack = state.stack
        if not stack:
            return
        bottom = stack[0]
        if state.players[state.turns.current].status in ("rescued", "eliminated") or (
            len(stack) == 1 and isinstance(bottom, Turn) and bottom.ending and not pool.queue
        ):
            self.finish_turn(state, events)

    @action(Play)
    def play_card(self, state: S, action: Play) -> list[Event]:
        """rules.md#turn: the card goes to the play area and its effects happen."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        card = action.card
        p.hand.remove(card)
        p.play.add(card)
        state.pool.queue.extend(self._plays(card))
        events: list[Event] = [Played(seat=seat, card=card)]
        return events

    def play_effects(self, card: str) -> tuple[Pending[Any], ...]:
        """The play effects of ``card`` as they wait in the queue. Pending values are
        frozen, so every state's queue may share them: :meth:`play_card` keeps them by card."""
        return tuple(self.pending(self.cat.card[card].play, card))

    def take_card(self, state: S, card: str) -> None:
        """A card leaves the row or the top of its Reserve pile (the row refills at the end)."""
        if card in state.row.cards:
            state.row.remove(card)
            return
        for zone in state.reserve:
            if zone.cards and zone.cards[-1] == card:
                zone.draw()
                return

    @action(Acquire)
    def acquire(self, state: S, action: Acquire) -> list[Event]:
        """rules.md#acquire: pay skill, the card into the discard pile, its acquire effects."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        state.pool.skill -= self.skill_price(state, card)
        if card.gem:  # a discount played later pays some back (rules.md#gem-discount)
            state.pool.done.append(ACQUIRED_GEM + action.card)
        self.take_card(state, action.card)
        state.players[seat].discard.add(action.card)
        state.pool.queue.extend(self.pending(card.acquire, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card)]
        return events

    @action(UseDevice)
    def use_device(self, state: S, action: UseDevice) -> list[Event]:
        """rules.md#device: pay skill, the use effects, the card to the dungeon discard."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        state.pool.skill -= card.cost
        self.take_card(state, action.card)
        state.dungeon_discard.add(action.card)
        state.pool.queue.extend(self.pending(card.use, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card, how="use")]
        return events

    @action(Fight)
    def fight(self, state: S, action: Fight) -> list[Event]:
        """rules.md#fight: pay swords, the defeat reward; the Goblin never leaves."""
        seat = state.stack[-1].seat
        card = self.cat.card[action.card]
        state.pool.swords -= card.cost
        if not card.never_leaves:
            self.take_card(state, action.card)
            state.dungeon_discard.add(action.card)
        state.pool.queue.extend(self.pending(card.defeat, action.card))
        events: list[Event] = [Acquired(seat=seat, card=action.card, how="fight")]
        return events

    @action(Buy)
    def buy(self, state: S, action: Buy) -> list[Event]:
        """rules.md#market: the most valuable item of that kind left, for its price in gold."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        tid = self.take_from_market(state, action.item)
        p.gold -= self.cat.token[tid].price
        p.held.add(tid)
        events: list[Event] = [Bought(seat=seat, token=tid)]
        return events

    @action(UseToken)
    def use_token(self, state: S, action: UseToken) -> list[Event]:
        """rules.md#tokens: a potion is spent on its holder's turn."""
        seat = state.stack[-1].seat
        state.players[seat].held.remove(action.token)
        state.spent.add(action.token)
        state.pool.queue.extend(self.pending(self.cat.token[action.token].use, None))
        events: list[Event] = [Played(seat=seat, card=action.token)]
        return events

    @action(Skip)
    def skip(self, state: S, action: Skip) -> list[Event]:
        """Decline the pending choice."""
        state.stack.pop()
        events: list[Event] = []
        return events

    @action(Pick)
    def pick(self, state: S, action: Pick) -> list[Event]:
        """rules.md#choices: the chosen option's effects happen next."""
        frame = state.stack.pop()
        assert isinstance(frame, ChooseOne)
        state.pool.queue[:0] = self.pending(frame.options[action.option], frame.card)
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
        state.pool.queue[:0] = self.pending(frame.then, frame.card)
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
            self.arrive(state, card, events)
        return events

    def replacement(self, state: S, events: list[Event]) -> str | None:
        """The card that takes a replaced row card's place: the next of the Dungeon Deck
        (rules.md#empty-dungeon says what an empty one does)."""
        return self.deal_dungeon(state, events)

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
            state.pool.queue.extend(self.pending(token[tid].end_of_turn, None))
        events: list[Event] = []
        return events

    def finish_turn(self, state: S, events: list[Event]) -> None:
        """rules.md#end-of-turn steps 2-4, then the next seat's turn."""
        seat = state.turns.current
        p = state.players[seat]
        state.stack.clear()
        state.pool = type(state.pool)()  # the game's own pool: every per-turn field starts over
        p.discard.cards.extend(p.play.take())
        p.discard.cards.extend(p.hand.take())
        if p.status == "in":
            self.draw(state, seat, self.cat.tables.hand, events)
        events.append(TurnEnded(seat=seat))
        self.refill(state, events)
        self.next_turn(state, events)

    def deal_dungeon(self, state: S, events: list[Event]) -> str | None:
        """rules.md#empty-dungeon: the next Dungeon Deck card, reshuffling the discard if told."""
        if not state.dungeon.cards and self.options.empty_dungeon == "end":
            self.knock_out_all(state, events)
            return None
        drawn = draw(state.dungeon, 1, state.rng, reshuffle=state.dungeon_discard)
        return drawn[0] if drawn else None

    def refill(self, state: S, events: list[Event]) -> None:
        """rules.md#end-of-turn steps 3-4: refill, arrive effects, one attack for any symbol."""
        row = state.row
        defs = self.cat.card
        new: list[str] = []
        while len(row.cards) < self.cat.tables.row:
            card = self.deal_dungeon(state, events)
            if card is None:
                break
            row.add(card)
            new.append(card)
        if not new:
            return
        events.append(Refilled(cards=new))
        for card in new:
            self.arrive(state, card, events)
        if any(defs[c].dragon for c in new):
            self.attack(state, events)

    def arrive(self, state: S, card: str, events: list[Event]) -> None:
        """rules.md#arrive: a row card's arrive effects, as it is placed."""
        handle = self._handlers
        seat = state.turns.current
        for e in self.cat.card[card].arrive:
            handle[type(e)](state, seat, e, card, events)

    def next_turn(self, state: S, events: list[Event]) -> None:
        """rules.md#countdown and rules.md#game-end: the next seat in, or the countdown's step."""
        players = state.players
        turns = state.turns
        while any(p.status == "in" for p in players):
            turns.next()
            seat = turns.current
            if players[seat].status == "in":
                state.stack.append(Turn(seat=seat))
                return
            self.left_seat_turn(state, seat, events)
        turns.over = True

    def left_seat_turn(self, state: S, seat: int, events: list[Event]) -> None:
        """rules.md#countdown: the turn of a seat that left moves the countdown pawn on
        (only the countdown seat is still in the order)."""
        extra = self.cat.tables.countdown_extra
        state.countdown += 1
        events.append(Countdown(seat=seat, space=state.countdown))
        if state.countdown > len(extra):
            self.knock_out_all(state, events)
        elif state.countdown > 1:  # rules.md#countdown-first
            self.attack(state, events, extra[state.countdown - 1])

    # -- scoring -------------------------------------------------------------------

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
                cards += card.bonus.points * self.bonus_count(p, owned, card.bonus)
        return {"artifact": artifacts, "tokens": others, "gold": p.gold, "cards": cards}

    def bonus_count(self, p: Player, owned: list[str], bonus: Any) -> int:
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

    def evaluate(self, state: S, seat: int) -> float:
        from meeple.plugins.clank.evaluate import evaluate  # it routes as the bots do: after them

        return evaluate(self, state, seat)

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

    # -- what the core needs to know ---------------------------------------------------

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[Any]]:
        """The values the actions name: off the board, tunnels, rooms, the swords spent
        against a tunnel's monsters; a choice's options; and off the catalog, the cards, the
        tokens (a face-down one by its back), the market items, and the tokens a Take
        names with its room."""
        graph, cat = self.cat.graph, self.cat
        rooms = sorted(graph.rooms)
        return {
            "tunnel": range(len(graph.tunnels)),
            "to": rooms,
            "room": rooms,
            "swords": range(max(t.monsters for t in graph.tunnels) + 1),
            "option": range(len(self.acts.pick)),
            "card": tuple(cat.card),
            "token": tuple(self.acts.take),  # the Takes': every token and face-down back
            "item": tuple(cat.market_items),
            ("token", "room"): self.takes_named(rooms),
        }

    def takes_named(self, rooms: Sequence[int]) -> list[tuple[str, int | None]]:
        """The token and room of each Take: any token or face-down back of the seat's own
        room (which it does not name), or a secret, seen or not, of a room it names (Wand of
        Wind, rules.md#tokens)."""
        token, back = self.cat.token, self.cat.back
        secrets = [t for t in token if token[t].kind in SECRET_KINDS]
        faces = dict.fromkeys([*secrets, *(HIDDEN + back[t] for t in secrets)])
        return [*((t, None) for t in self.acts.take), *((f, r) for r in rooms for f in faces)]

    def action_key(self, seats: int) -> Mapping[type, Sequence[str]]:
        """A move leads through its tunnel out of the seat's room, so the tunnel tells where
        it ends."""
        return {Move: ("tunnel", "swords"), Teleport: ("tunnel",)}

    def cards(self, state: S) -> Iterable[str]:
        return self.cat.pieces(state.seats)

    def back(self, card: str) -> str:
        return self.cat.back.get(card, "")

    def displaced(self, state: S, zone: Zone, card: str) -> Zone:
        """A seat's card goes back into its deck, any other piece into the box."""
        if zone.owner is not None and card in self.cat.card:
            return state.players[zone.owner].deck
        return state.box

    def validate_state(self, state: S) -> list[str]:
        return checks.check(self, state)

    def bag_colours(self, seats: int) -> set[str]:
        """The cube colours the dragon bag may hold."""
        return {DRAGON, *COLOURS[:seats]}

    def cubes_placed(self, state: S, seat: int) -> int:
        """The seat's cubes on the map rather than in its areas (none in Clank!)."""
        return 0

    def room_name(self, state: S, room: int) -> str:
        """How descriptions name a room."""
        return f"room {room}"

    def describe_action(self, state: S, action: Any) -> str:
        return present.describe_action(action, self, state)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        return present.describe_event(event, self, viewer)

    def render(self, view: S, seat: int | None) -> Any:
        return present.render(self, view, seat)

    def render_table(self, view: S, seat: int | None) -> Any:
        return present.render_table(self, view, seat)

    def render_private(self, view: S, seat: int) -> Any:
        return present.render_private(self, view, seat)

    def legend(self) -> Sequence[tuple[Any, str]]:
        return drawing.LEGEND

    def seat_summary(self, state: S) -> Sequence[str]:
        return present.seat_summary(self, state)


class Clank(ClankEngine[ClankState]):
    """Clank!: build a deck, sneak into the dragon's lair, steal an artifact, get out alive."""

    id = "clank"
    title = "Clank!"
    version = "4"
    Options = ClankOptions
    State: ClassVar[type[ClankState]] = ClankState
    Effect = ClankEffect
    variants: ClassVar[Sequence[Mapping[str, Any]]] = (
        {},
        {"board": "back"},
        {"variant": "klank", "teleport_locks": "key"},
        {"board": "back", "variant": "eseidel", "empty_dungeon": "end", "empty_bag": "end"},
        {"gold_bonus": "later", "gem_discount": "later"},
    )
    options: ClankOptions

    def make_catalog(self) -> Catalog:
        """The catalog of the tables the options name."""
        return catalog(self.schema(), self.options)

    def taken_as_action(self, tid: str) -> bool:
        """rules.md#take-artifact: an artifact, unless the option keeps the first edition's
        reading (taken on entry, as the other tokens are)."""
        return self.options.artifact_take == "action" and self.cat.token[tid].kind == "artifact"

    # -- set-up ----------------------------------------------------------------

    def setup(self, seats: int, seed: int) -> ClankState:
        """rules.md#setup, steps 1-14."""
        cat = self.cat
        graph = cat.graph
        rng = Rng(seed=seed)
        box = Zone(kind="box")
        rooms = [Zone(kind="room", up=[]) for _ in graph.order]
        self.place_tokens(rng, seats, rooms, box)
        state = self.State(**self.common_setup(seats, rng, graph.start, box), rooms=rooms, box=box)
        self.begin(state)
        return state

    def place_tokens(self, rng: Rng, seats: int, rooms: list[Zone], box: Zone) -> None:
        """rules.md#setup steps 2, 3 and 5: artifacts, secrets and idols onto their rooms."""
        cat = self.cat
        graph = cat.graph
        artifacts = list(cat.by_kind.get("artifact", []))
        shuffle(rng, artifacts)
        for _ in range(cat.tables.artifacts_removed.get(str(seats), 0)):
            box.add(artifacts.pop())
        value = {cat.points[a]: a for a in artifacts}
        secrets = {k: list(cat.by_kind.get(k, [])) for k in ("major", "minor")}
        for pile in secrets.values():
            shuffle(rng, pile)
        idols = list(cat.by_kind.get("idol", []))
        for i, rid in enumerate(graph.order):
            room = graph.rooms[rid]
            zone = rooms[i]
            for kind, n in (("major", room.major), ("minor", room.minor)):
                for _ in range(n):
                    if secrets[kind]:
                        zone.add(secrets[kind].pop(), False)
            if room.artifact is not None and room.artifact in value:
                zone.add(value.pop(room.artifact), True)
            for _ in range(room.idols):
                if idols:
                    zone.add(idols.pop(0), True)
        for tid in (*secrets["major"], *secrets["minor"], *value.values(), *idols):
            box.add(tid)


__all__ = ["COLOURS", "Clank", "ClankEngine"]
