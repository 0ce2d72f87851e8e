"""Interpreting the effect vocabulary: one handler per effect type.

:class:`Effects` is the engine's part that interprets effects. Effects wait in the turn's
queue (``state.pool.queue``) and resolve in order whenever no decision is
pending; an effect that needs a choice pushes a frame and the queue resumes
once it is answered. Each handler is registered for its effect type
(:func:`~.part.effect`): a game on the engine registers handlers of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import msgspec

from meeple.core import copier
from meeple.core.state import Event
from meeple.core.zones import draw
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import Part, S, condition, effect, frame, watch
from meeple.plugins.clank.state import (
    SKIP,
    Acquired,
    ChooseOne,
    Clanked,
    DiscardOne,
    Drew,
    Player,
    Pool,
    ReplaceOne,
    TakeToken,
    TrashOne,
    Turn,
    Waiting,
)

Handler = Callable[[S, int, Any, "str | None", list[Event]], None]

SKILL_PER_CLANK = "skill-per-clank"
GOLD_BONUS = "gold-bonus-1"
GAINED_GOLD = "gained-gold"
GEM_DISCOUNT = "gem-discount-2"
ACQUIRED_GEM = "acquired-gem:"
"""The mark of a gem acquired this turn in the pool's ``done``, the card's id after it."""


class Effects(Part[S]):
    Effect: ClassVar[Any] = fx.Effect
    """The game's effect union, its vocabulary (:func:`~.effects.vocabulary`)."""
    _handlers: dict[type, Handler[S]]
    _conditions: dict[str, Callable[[S, int, str, str | None], bool]]
    _watchers: dict[type, Callable[[S, int, Waiting[Any]], Waiting[Any] | None]]
    _frames: dict[type, Callable[[S, Any], list[Any]]]
    turn_frames: tuple[type, ...] = (Turn,)
    """Frames under which the seat still acts freely, so queued effects resolve (a game
    whose move pauses for a decision adds that frame)."""

    @classmethod
    def _effect_rules(cls, kind: Literal["effect", "watch"] = "effect") -> dict[type, str]:
        """The handler (method name) of each registered effect type and of each kind of the
        game's vocabulary, found along the kind's MRO: a game's re-typed ``Choose`` is handled
        as the engine's. Built once per game, so the queue's dispatch stays one dict lookup.
        ``kind`` ``watch``: the watchers of the effects that wait."""
        named = cls.rules[kind]
        table = dict(named)
        for member in fx.kinds(cls.Effect):
            base = next((k for k in member.__mro__ if k in named), None)
            if base is not None:
                table.setdefault(member, named[base])
        return table

    # -- the queue -----------------------------------------------------------

    def _settle(self, state: S, events: list[Event]) -> None:
        """Resolve queued effects, then let the waiting ones look again, until a decision is
        pending or nothing more comes.

        rules.md#conditions: every waiting effect looks at the turn after each step.
        """
        pool = state.pool
        stack = state.stack
        handle = self._handlers
        free = self.turn_frames
        while stack and type(stack[-1]) in free:
            seat = stack[-1].seat
            if pool.queue:
                item = pool.queue.pop(0)
                handle[type(item.effect)](state, seat, item.effect, item.card, events)
                if state.players[seat].status in ("rescued", "eliminated"):
                    return
            elif not (pool.waiting and self._watch(state, seat)):
                return

    def _watch(self, state: S, seat: int) -> bool:
        """Each waiting effect's registered watcher, in order (rules.md#conditions); whether
        any of them queued what it gives. Called with the queue empty."""
        pool = state.pool
        watchers = self._watchers
        kept = []
        for item in pool.waiting:
            now = watchers[type(item.effect)](state, seat, item)
            if now is not None:
                kept.append(now)
        pool.waiting = kept
        return bool(pool.queue)

    def _holds_cond(self, state: S, seat: int, cond: str, card: str | None) -> bool:
        """rules.md#conditions: what an ``if`` asks of the seat (the registered condition)."""
        return self._conditions[cond](state, seat, cond, card)

    @condition("companion-in-play")
    def companion_in_play(self, state: S, seat: int, cond: str, card: str | None) -> bool:
        defs = self.cat.card
        return any(defs[c].companion for c in state.players[seat].play.cards if c != card)

    @condition("crown")
    def holds_crown(self, state: S, seat: int, cond: str, card: str | None) -> bool:
        token = self.cat.token
        return any(token[t].id == "crown" for t in state.players[seat].held.cards)

    @condition("artifact", "monkey-idol", "mastery")
    def holds_kind(self, state: S, seat: int, cond: str, card: str | None) -> bool:
        kind = {"artifact": "artifact", "monkey-idol": "idol", "mastery": "mastery"}[cond]
        token = self.cat.token
        return any(token[t].kind == kind for t in state.players[seat].held.cards)

    # -- resources -----------------------------------------------------------

    @effect(fx.Gain)
    def gain(self, state: S, seat: int, e: fx.Gain, card: str | None, events: list[Event]) -> None:
        pool = state.pool
        pool.skill += e.skill
        pool.skill_gained += e.skill
        pool.swords += e.swords
        pool.boots += e.boots
        pool.teleports += e.teleport
        if e.gold:  # rules.md#gold: Search adds one to each gain (rules.md#search)
            self._gain_gold(state, seat, e.gold + pool.mods.count(GOLD_BONUS))
            pool.done.append(GAINED_GOLD)
        if e.clank > 0:
            self._make_clank(state, seat, e.clank, events)
        elif e.clank < 0:
            self._unclank(state, seat, -e.clank, events)
        if e.draw:
            self._draw(state, seat, e.draw, events)
        if e.heal:
            self.heal(state, seat, e.heal, events)
        if e.rage:
            self._raise_rage(state, e.rage, events)

    def _gain_gold(self, state: S, seat: int, gold: int) -> None:
        """Gold from the bank, counted in the turn's total."""
        state.players[seat].gold += gold
        state.pool.gold_gained += gold

    def _make_clank(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#clank: cubes from the supply, after the turn's bank; none if it is empty."""
        p = state.players[seat]
        if p.status != "in":
            return
        pool = state.pool
        own = seat == state.turns.current
        if own and pool.banked:
            cancel = min(n, pool.banked)
            pool.banked -= cancel
            n -= cancel
        n = min(n, p.supply)
        if not n:
            return
        p.supply -= n
        p.clank += n
        events.append(Clanked(seat=seat, n=n))
        if own:
            pool.added += n
            pool.skill += n * pool.mods.count(SKILL_PER_CLANK)

    def _unclank(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#clank: own cubes back from the Clank! area; the rest banked for the turn."""
        p = state.players[seat]
        back = min(n, p.clank)
        p.clank -= back
        p.supply += back
        state.pool.banked += n - back
        if back:
            events.append(Clanked(seat=seat, n=-back))

    def _draw(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#end-of-turn: draws reshuffle the discard pile (never the play area)."""
        p = state.players[seat]
        drawn = draw(p.deck, n, state.rng, reshuffle=p.discard)
        if drawn:
            p.hand.cards.extend(drawn)
            events.append(Drew(seat=seat, cards=drawn))

    @effect(fx.OthersClank)
    def others_clank(
        self, state: S, seat: int, e: fx.OthersClank, card: str | None, events: list[Event]
    ) -> None:
        for other in range(state.seats):
            if other != seat:
                self._make_clank(state, other, e.n, events)

    @effect(fx.AllClank)
    def all_clank(
        self, state: S, seat: int, e: fx.AllClank, card: str | None, events: list[Event]
    ) -> None:
        for other in range(state.seats):
            self._make_clank(state, other, e.n, events)

    @effect(fx.ThisTurn)
    def this_turn(
        self, state: S, seat: int, e: fx.ThisTurn, card: str | None, events: list[Event]
    ) -> None:
        """rules.md#conditions: a modifier for the whole turn, Swagger counting earlier clank,
        Search earlier gains of gold (rules.md#search), and Gem Collector earlier gems under
        the option that reads it so (rules.md#gem-discount)."""
        pool = state.pool
        pool.mods.append(e.mod)
        if e.mod == SKILL_PER_CLANK:
            pool.skill += pool.added
        elif e.mod == GOLD_BONUS and self.options.gold_bonus == "turn":
            self._gain_gold(state, seat, pool.done.count(GAINED_GOLD))
        elif e.mod == GEM_DISCOUNT and self.options.gem_discount == "turn":
            pool.skill += self._gem_refund(pool)

    def _gem_refund(self, pool: Pool[Any]) -> int:
        """rules.md#gem-discount: the Skill back for the gems acquired this turn before the
        latest discount: each was paid at one discount fewer, and no price falls below 0."""
        n = pool.mods.count(GEM_DISCOUNT)
        card = self.cat.card
        costs = [card[d[len(ACQUIRED_GEM) :]].cost for d in pool.done if d.startswith(ACQUIRED_GEM)]
        return sum(max(c - 2 * (n - 1), 0) - max(c - 2 * n, 0) for c in costs)

    @effect(fx.If)
    def when(self, state: S, seat: int, e: fx.If, card: str | None, events: list[Event]) -> None:
        """rules.md#conditions: the ``if`` waits on the turn (:meth:`when_holds`)."""
        state.pool.waiting.append(Waiting(e, card))

    @watch(fx.If)
    def when_holds(self, state: S, seat: int, item: Waiting[Any]) -> Waiting[Any] | None:
        """rules.md#conditions, #conditions-once: ``then`` once the condition holds, once."""
        e = item.effect
        if not self._holds_cond(state, seat, e.cond, item.card):
            return item
        state.pool.queue.extend(self._pending(e.then, item.card))
        return None

    @effect(fx.DragonAttack)
    def dragon_attack(
        self, state: S, seat: int, e: Any, card: str | None, events: list[Event]
    ) -> None:
        self._attack(state, events)

    @effect(fx.ReturnDragonCubes)
    def return_cubes(
        self,
        state: S,
        seat: int,
        e: fx.ReturnDragonCubes,
        card: str | None,
        events: list[Event],
    ) -> None:
        self.return_dragon_cubes(state, e.n)

    # -- effects that ask -----------------------------------------------------

    @effect(fx.Choose)
    def choose(
        self, state: S, seat: int, e: fx.Choose, card: str | None, events: list[Event]
    ) -> None:
        state.stack.append(ChooseOne(seat=seat, options=e.options, card=card))

    def _feasible(
        self, state: S, seat: int, options: Sequence[list[Any]], card: str | None
    ) -> list[bool]:
        """rules.md#choices: for each of ``options``, whether the seat can carry it out and
        whether it would change the table (rules.md#no-empty-option); an option that fails
        either may not be picked."""
        p = state.players[seat]
        table = self._trial_table(state)
        trial: S | None = None
        dirty = False  # whether ``trial`` holds an option tried before
        out = []
        for effects in options:
            payable = not any(
                type(e) is fx.Buy and (p.gold < e.gold or not self._reserve_pile(state, e.card))
                for e in effects
            )
            if not payable:
                out.append(False)
                continue
            if trial is None:
                trial = self.clone(table)
            elif dirty:
                trial = copier.restore(trial, table)
            dirty = self._changes(trial, table, seat, effects, card)
            out.append(dirty)
        return out

    @staticmethod
    def _trial_table(state: S) -> S:
        """The table as :meth:`_changes` tries options on it: ``state`` with what else waits in
        the turn's queue and its waiting effects set aside (a shallow copy: ``state`` is left
        as is)."""
        pool = msgspec.structs.replace(state.pool, queue=[], waiting=[])
        return msgspec.structs.replace(state, pool=pool)

    def _changes(self, trial: S, table: S, seat: int, effects: list[Any], card: str | None) -> bool:
        """Whether ``effects`` would change ``table`` (:meth:`_trial_table`): tried on
        ``trial``, a copy of it. One test for every effect type, a game's own included, where
        a rule per type would repeat its handler. The comparison stops at the first field that
        differs, so an option that does something (nearly all) costs little more than the
        copy, and one copy serves every option of a choice (:func:`~meeple.core.copier.restore`
        mends it after each)."""
        handle = self._handlers
        events: list[Event] = []
        for e in effects:
            handle[type(e)](trial, seat, e, card, events)
        return trial != table

    @effect(fx.Trash)
    def trash(
        self, state: S, seat: int, e: fx.Trash, card: str | None, events: list[Event]
    ) -> None:
        """rules.md#trash: from the play area or discard pile; with none there, nothing happens."""
        if self._trashable(state.players[seat], e.name):
            state.stack.append(TrashOne(seat=seat, name=e.name, optional=e.optional))

    def _trashable(self, p: Player, name: str | None) -> list[str]:
        cards = [*p.play.cards, *p.discard.cards]
        if name is None:
            return cards
        defs = self.cat.card
        return [c for c in cards if defs[c].id == name]

    @effect(fx.DiscardThen)
    def discard_then(
        self, state: S, seat: int, e: fx.DiscardThen, card: str | None, events: list[Event]
    ) -> None:
        """rules.md#choices: discard a hand card first, or nothing happens."""
        if state.players[seat].hand.cards:
            state.stack.append(DiscardOne(seat=seat, then=e.then, card=card))

    @effect(fx.ReplaceRowCard)
    def replace_row_card(
        self, state: S, seat: int, e: Any, card: str | None, events: list[Event]
    ) -> None:
        if state.row.cards:
            state.stack.append(ReplaceOne(seat=seat))

    @effect(fx.TakeAdjacentSecret)
    def take_adjacent_secret(
        self, state: S, seat: int, e: Any, card: str | None, events: list[Event]
    ) -> None:
        room = state.players[seat].room
        if self._adjacent_secrets(state, room):
            state.stack.append(TakeToken(seat=seat, room=room, adjacent=True))

    def _reserve_pile(self, state: S, kind: str) -> Any:
        """The Reserve zone of card kind ``kind`` (``secret-tome``), or ``None`` if empty."""
        defs = self.cat.card
        for zone in state.reserve:
            if zone.cards and defs[zone.cards[-1]].id == kind:
                return zone
        return None

    @effect(fx.Buy)
    def buy_cards(
        self, state: S, seat: int, e: fx.Buy, card: str | None, events: list[Event]
    ) -> None:
        """Underworld Dealing: gold for Reserve cards, straight into the discard pile."""
        p = state.players[seat]
        if p.gold < e.gold:
            return
        p.gold -= e.gold
        for _ in range(e.n):
            zone = self._reserve_pile(state, e.card)
            if zone is None:
                break
            got = zone.draw()
            p.discard.add(got)
            events.append(Acquired(seat=seat, card=got, how="gain"))

    # -- answers to the frames ----------------------------------------------

    def _frame_actions(self, state: S, frame: Any) -> list[Any]:
        """The answers to a pending choice other than the turn itself (the registered ones)."""
        return self._frames[type(frame)](state, frame)

    @frame(ChooseOne)
    def options_open(self, state: S, frame: ChooseOne) -> list[Any]:
        """rules.md#choices: each option the seat can carry out, or none."""
        ok = self._feasible(state, frame.seat, frame.options, frame.card)
        return [self.acts.pick[i] for i, yes in enumerate(ok) if yes] or [SKIP]

    @frame(TrashOne)
    def trash_choices(self, state: S, frame: TrashOne) -> list[Any]:
        trash = self.acts.trash
        p = state.players[frame.seat]
        out: list[Any] = [trash[c] for c in self.cat.distinct(self._trashable(p, frame.name))]
        return [*out, SKIP] if frame.optional or not out else out

    @frame(DiscardOne)
    def discard_choices(self, state: S, frame: DiscardOne) -> list[Any]:
        hand = state.players[frame.seat].hand.cards
        return [*(self.acts.discard[c] for c in self.cat.distinct(hand)), SKIP]

    @frame(ReplaceOne)
    def replace_choices(self, state: S, frame: ReplaceOne) -> list[Any]:
        return [self.acts.replace[c] for c in state.row.cards] or [SKIP]
