"""The ``heuristic`` Clank! bot: deck building, route planning and a safe way out.

It sees only its prompt (its seat's view and the legal actions) and decides
in one pass, without search:

* **Cards** are valued from the catalog's effect data (:func:`~.weighing.worth`), never
  by name: skill, boots, swords, draws and teleports per play, points late,
  clank weighed by how angry the dragon is and how hurt the seat is.
* **Routes** are shortest paths over the board graph (:class:`~.weighing.Router`):
  a tunnel costs its boots, plus its monster icons weighed against the
  seat's health, plus a little for a crystal cave that ends the walk; a
  locked tunnel is closed without a Master Key, one-way tunnels run one way.
* **The goal** is the artifact worth most once the trip there and back is
  paid for (:meth:`HeuristicBot.target`), then the way out; a secret, idol,
  market or healing room close to the way is a detour worth taking.

A turn: play every card (draws first, trash and discard cards once the junk
is on the table), use what heals or helps, spend skill and spare swords on
the best cards, walk, spend what is left, end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from meeple.core.bots import Prompt
from meeple.core.rng import Stream
from meeple.core.zones import HIDDEN
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.catalog import Exit
from meeple.plugins.clank.content import Card
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import (
    END_TURN,
    SKIP,
    Acquire,
    Buy,
    ChooseOne,
    DiscardCard,
    DiscardOne,
    EngineState,
    Fight,
    Move,
    Pick,
    Play,
    Replace,
    ReplaceOne,
    Take,
    TakeToken,
    Teleport,
    TrashCard,
    TrashOne,
    UseDevice,
    UseToken,
)
from meeple.plugins.clank.tables import walk
from meeple.plugins.clank.weighing import (
    BOOT,
    COND_KINDS,
    INF,
    KEEP,
    MARGIN,
    PLAIN,
    SECRET,
    SWORD_SPENT,
    Price,
    Weights,
    router,
    worth,
)


class HeuristicBot:
    """Builds its deck, takes the artifact it can carry out, and gets out alive."""

    margin = MARGIN
    """Health kept after voluntary damage."""

    def __init__(self, game: ClankEngine[Any], seat: int, stream: Stream) -> None:
        self.game = game
        self.cat = game.cat
        self.seat = seat
        self.health = game.cat.health
        self.rage_track = game.cat.tables.rage_track
        self.start_value = sum(
            worth(self.cat.card[c].play, PLAIN, self.cat) for c in game.cat.starters[0]
        ) / len(game.cat.starters[0])

    # -- the decision -------------------------------------------------------------

    def choose(self, prompt: Prompt) -> Any:
        legal = prompt.legal
        if len(legal) == 1:
            return legal[0]
        view: EngineState[Any, Any] = prompt.view
        self.prepare(view)
        match view.stack[-1]:
            case ChooseOne(options=options):
                return self.pick(legal, options)
            case TrashOne():
                return self.trash(legal)
            case DiscardOne(then=then):
                return self.discard(legal, then)
            case ReplaceOne():
                return self.replace(legal)
            case TakeToken():
                return self.take(legal)
            case frame:
                answer = self.answer(frame, legal)
                if answer is not None:
                    return answer
        return self.turn(legal)

    def answer(self, frame: Any, legal: Sequence[Any]) -> Any:
        """The answer to a decision that a game on the engine adds (``None``: a turn's)."""
        return None

    def prepare(self, view: EngineState[Any, Any]) -> None:
        """Read the bot's situation and price every resource for it."""
        self.view = view
        # The map comes from the game for the state: a map that grows is read anew.
        self.graph = self.game.graph(view)
        self.router = router(self.graph)
        me = self.me = view.players[self.seat]
        token = self.cat.token
        held = [token[t] for t in me.held.cards]
        self.artifacts = sum(t.kind == "artifact" for t in held)
        self.key = any(t.power == "key" for t in held)
        conds = {COND_KINDS.get(t.kind, t.id) for t in held}
        self.left = self.health - me.damage
        hurt = me.damage / self.health
        rage = self.rage_track[min(view.rage, len(self.rage_track) - 1)]
        self.near_end = self.pressure()
        danger = 0.3 + 0.16 * rage + 1.2 * hurt + 0.2 * self.near_end
        late = self.artifacts > 0 or self.near_end > 0 or me.status != "in"
        plays = 0.0 if me.status != "in" else (0.6 if late else 2.5)
        self.w = Weights(
            clank=danger if me.status == "in" else 0.0,
            unclank=min(danger, 1.0) if me.clank else 0.1,
            gold=1.0 if late else 0.6,
            points=1.0 if late else 0.35,
            heal=0.2 + 2.0 * hurt if me.damage else 0.0,
            boots=BOOT,
            attack=2.0 * danger,
            plays=plays,
            conds=frozenset(conds),
        )
        self.plan()

    # -- where to go ----------------------------------------------------------------

    def price(self, start_ok: bool) -> Price:
        """How the bot prices tunnels now: damage weighs more the more it is hurt."""
        hurt = round(0.6 + 3.0 * (1 - self.left / self.health), 1)
        swords = self.view.pool.swords if self.view.turns.current == self.seat else 0
        # No tunnel shows more icons than this: more swords price the same (one cache entry).
        swords = min(swords, self.router.most_monsters)
        return Price(
            self.key, hurt, max(self.left - self.margin, 0), swords, start_ok, *self.locks()
        )

    def locks(self) -> tuple[float, frozenset[int]]:
        """The cost of a lock the bot can open and the tunnels open already: a Master Key
        opens every lock for free."""
        return 0.0, frozenset()

    def plan(self) -> None:
        """Pick the room to walk to now (``self.goal``) and the costs toward it (``self.dist``)."""
        me = self.me
        self.goal: int | None = None
        self.dist: dict[int, float] = {}
        if me.status != "in":
            return
        start = self.graph.start
        final = self.final()
        price = self.price(start_ok=final == start)
        here = me.room
        toward_final = self.router.toward(final, price) if final is not None else {}
        base = toward_final.get(here, INF)
        best, goal = 0.0, final
        for room, gain in self.detours():
            to_room = self.router.toward(room, price)
            there = to_room.get(here, INF)
            extra = there + toward_final.get(room, INF) - base if final is not None else there
            if extra == INF:
                continue
            value = gain - self.lam() * extra
            if value > best:
                best, goal = value, room
        self.goal = goal
        if goal is not None:
            self.dist = toward_final if goal == final else self.router.toward(goal, price)

    def final(self) -> int | None:
        """Where the bot heads in the end: out with an artifact, else the best artifact."""
        return self.graph.start if self.artifacts else self.target(self.me.room)[0]

    def lam(self) -> float:
        """Cost of one boot of walking, in points: more when hurt or when time runs out."""
        return 1.2 + 2.0 * (1 - self.left / self.health) + 0.8 * self.near_end

    def pressure(self) -> float:
        """How near the end of the game is, in spaces of the countdown track."""
        return float(self.view.countdown)

    def target(self, here: int) -> tuple[int | None, float]:
        """The artifact room worth most once the walk there and back is paid, and that worth."""
        graph = self.graph
        points = self.cat.points
        back = self.router.toward(graph.start, self.price(start_ok=True))
        lam = self.lam()
        best: tuple[int | None, float] = (None, -INF)
        for rid, zone in zip(graph.order, self.view.rooms, strict=True):
            for t in zone.cards:
                if t.startswith(HIDDEN) or self.cat.token[t].kind != "artifact":
                    continue
                there = self.router.toward(rid, self.price(start_ok=False)).get(here, INF)
                home = back.get(rid, INF)
                if there == INF or home == INF:
                    continue
                score = points[t] - lam * (there + 1.3 * home)
                if score > best[1]:
                    best = (rid, score)
        return best

    def detours(self) -> Iterable[tuple[int, float]]:
        """Rooms worth a short detour: secrets, idols, a market when rich, healing when hurt."""
        graph = self.graph
        here = self.me.room
        for rid, zone in zip(graph.order, self.view.rooms, strict=True):
            if rid == here:
                continue
            gain = 0.0
            for t in zone.cards:
                gain = max(gain, SECRET.get(self.kind(t), 0.0))
            if rid in graph.markets and self.me.gold >= 7:
                gain = max(gain, self.market_gain())
            if rid in graph.heal and self.me.damage >= 4:
                gain = max(gain, graph.heal[rid] * self.w.heal)
            gain = max(gain, self.room_gain(rid))
            if gain:
                yield rid, gain

    def kind(self, tid: str) -> str:
        """A token's kind; for a face-down one, its back (``?minor``: ``minor``), all a seat
        knows of it until it takes it."""
        return tid.removeprefix(HIDDEN) if tid.startswith(HIDDEN) else self.cat.token[tid].kind

    def room_gain(self, rid: int) -> float:
        """What a game's own room features are worth to the bot as a detour."""
        return 0.0

    def market_gain(self) -> float:
        """What the best market item is worth to the bot above its price."""
        token = self.cat.token
        best = 0.0
        for tid in self.view.market.cards:
            best = max(best, self.item_value(tid) - token[tid].price + 1.0)
        return best

    def item_value(self, tid: str) -> float:
        """What a market item is worth to the bot, in points (gold scores one point each)."""
        t = self.cat.token[tid]
        return self.cat.points[tid] if t.id == "crown" else 0.0

    # -- a turn --------------------------------------------------------------------------

    def turn(self, legal: Sequence[Any]) -> Any:
        """Play cards, heal, buy, spend, walk, spend the rest, end."""
        plays = [a for a in legal if type(a) is Play]
        if plays:
            return self.next_play(plays)
        for pick in (self.potion, self.market, self.room_action):
            action = pick(legal)
            if action is not None:
                return action
        step = self.step(legal)
        action = self.best_card_action(legal, reserve=self.swords_needed() if step else 0)
        if action is not None:
            return action
        if step is not None:
            return step
        return END_TURN if END_TURN in legal else legal[-1]

    def next_play(self, plays: list[Play]) -> Play:
        """Draws first; discard-to-gain cards while junk is in hand; trash cards last."""
        card = self.cat.card
        hand = len(self.me.hand.cards)

        def order(action: Play) -> tuple[int, float]:
            c = card[action.card]
            effects = list(walk(c.play))
            if any(type(e) is fx.Trash for e in effects):
                return (3, 0.0)
            if any(isinstance(e, fx.DiscardThen) for e in effects):
                return (1, 0.0) if hand > 1 else (4, 0.0)
            draws = any(type(e) is fx.Gain and e.draw for e in effects)
            return (0 if draws else 2, -self.card_value(c))

        return min(plays, key=order)

    def potion(self, legal: Sequence[Any]) -> Any:
        """Drink a healing potion when hurt; a boots or swords one when the next step needs it."""
        token = self.cat.token
        stuck = None
        for a in legal:
            if type(a) is not UseToken:
                continue
            gain = fx.Gain()
            for e in token[a.token].use:
                if type(e) is fx.Gain:
                    gain = e
            if gain.heal and self.me.damage >= 2:
                return a
            if gain.boots or gain.swords:
                if stuck is None:
                    stuck = self.goal is not None and self.step(legal) is None
                way = self.hop(self.me.room, INF) if stuck else None
                if way is not None and (
                    (gain.boots and way.boots > self.view.pool.boots)
                    or (gain.swords and way.monsters > self.view.pool.swords)
                ):
                    return a
        return None

    def room_action(self, legal: Sequence[Any]) -> Any:
        """An action of the bot's room (``None``: none): the artifact taken as a turn action,
        if it is the best one from here; a game on the engine adds its own."""
        for a in legal:
            if type(a) is Take and self.kind(a.token) == "artifact" and self.best_here():
                return a
        return None

    def best_here(self) -> bool:
        """Whether the bot, holding no artifact, stands by the best one it could take."""
        return self.artifacts == 0 and self.target(self.me.room)[0] == self.me.room

    def market(self, legal: Sequence[Any]) -> Any:
        """Buy an item worth more than its gold, or a Master Key that shortens the way."""
        token = self.cat.token
        for a in legal:
            if type(a) is not Buy:
                continue
            tid = next(t for t in self.view.market.cards if token[t].id == a.item)
            t = token[tid]
            if self.item_value(tid) > t.price:  # gold and items both score
                return a
            if t.power == "key" and not self.key and self.key_saves() >= 2:
                return a
        return None

    def key_saves(self) -> float:
        """How much shorter the trip to the goal would be with a Master Key."""
        if self.goal is None:
            return 0.0
        price = self.price(start_ok=self.goal == self.graph.start)
        with_key = self.router.toward(self.goal, price._replace(key=True))
        here = self.me.room
        return self.dist.get(here, INF) - with_key.get(here, INF)

    # -- walking --------------------------------------------------------------------------

    def step(self, legal: Sequence[Any]) -> Any:
        """The move or teleport that gets closer to the goal, the cheapest way.

        Boots go first: a teleport is ranked as if it cost 1.5, so it is kept for a
        tunnel that costs more (footprints, monsters, a lock, the wrong way).
        """
        if self.goal is None:
            return None
        dist = self.dist
        here = dist.get(self.me.room, INF)
        price = self.price(start_ok=self.goal == self.graph.start)
        tunnels = self.graph.tunnels
        best, best_at = None, INF
        for a in legal:
            kind = type(a)
            if kind is Move:
                hurt = tunnels[a.tunnel].monsters - a.swords
                if hurt and self.left - hurt < self.margin:
                    continue
                cost = tunnels[a.tunnel].boots + a.swords * SWORD_SPENT + hurt * price.hurt
                if tunnels[a.tunnel].locked and a.tunnel not in price.opened:
                    cost += price.lock
            elif kind is Teleport:
                cost = 1.5
            else:
                continue
            there = dist.get(a.to, INF)
            if there < here and cost + there < best_at:
                best, best_at = a, cost + there
        return best

    def hop(self, room: int, boots: float) -> Exit | None:
        """The next tunnel of the planned way from ``room`` that ``boots`` pay for."""
        dist = self.dist
        price = self.price(start_ok=self.goal == self.graph.start)
        cost = self.router.cost
        best, best_at = None, dist.get(room, INF)
        for e in self.graph.exits[room]:
            at = cost(e, price) + dist.get(e.to, INF)
            if e.boots <= boots and at <= best_at and dist.get(e.to, INF) < dist.get(room, INF):
                best, best_at = e, at
        return best

    def swords_needed(self) -> int:
        """Swords the walk this turn will want for the monster icons on the way."""
        boots, room, need = self.view.pool.boots, self.me.room, 0
        while boots > 0 and room != self.goal:
            e = self.hop(room, boots)
            if e is None:
                break
            need += e.monsters
            boots -= e.boots
            room = e.to
        return need

    # -- cards --------------------------------------------------------------------------

    def card_value(self, card: Card) -> float:
        """What one play of ``card`` gives (a boot at full worth: it is for a later turn)."""
        return worth(card.play, self.w._replace(boots=BOOT), self.cat)

    def deck_value(self) -> float:
        """The mean play value of the bot's own cards that it can see."""
        me = self.me
        card = self.cat.card
        seen = [c for z in (me.hand, me.play, me.discard) for c in z.cards if c in card]
        if not seen:
            return self.start_value
        return sum(self.card_value(card[c]) for c in seen) / len(seen)

    def action_value(self, a: Any, deck: float) -> float:
        """What acquiring, using or fighting a card is worth now."""
        card = self.cat.card[a.card]
        w = self.w
        if type(a) is Acquire:
            gain = (self.card_value(card) - deck) * w.plays + card.points * w.points
            return gain + worth(card.acquire, w, self.cat)
        if type(a) is UseDevice:
            return worth(card.use, w, self.cat) - 0.3
        return worth(card.defeat, w, self.cat)

    def best_card_action(self, legal: Sequence[Any], reserve: int) -> Any:
        """The most valuable acquire, device or fight, keeping ``reserve`` swords for the walk."""
        card = self.cat.card
        swords = self.view.pool.swords
        deck = self.deck_value()
        best, best_value = None, 0.05
        for a in legal:
            kind = type(a)
            if kind is Fight:
                if swords - card[a.card].cost < reserve:
                    continue
            elif kind is not Acquire and kind is not UseDevice:
                continue
            value = self.action_value(a, deck)
            if value > best_value:
                best, best_value = a, value
        return best

    # -- answers to the other questions ------------------------------------------------

    def pick(self, legal: Sequence[Any], options: Sequence[Sequence[fx.Effect]]) -> Any:
        """The option worth most now."""
        picks = [a for a in legal if type(a) is Pick]
        if not picks:
            return legal[0]
        return max(picks, key=lambda a: worth(options[a.option], self.w, self.cat))

    def trash(self, legal: Sequence[Any]) -> Any:
        """Stumbles first, then Burgles, then the weakest card; an optional trash of a
        good card is declined."""
        cards = [a for a in legal if type(a) is TrashCard]
        if not cards:
            return SKIP
        card = self.cat.card
        worst = min(cards, key=lambda a: (card[a.card].kind != "starter", self.junk(a.card)))
        if SKIP in legal and self.junk(worst.card) > KEEP:
            return SKIP
        return worst

    def junk(self, cid: str) -> float:
        """How little a card is worth keeping (its play value and its points)."""
        card = self.cat.card[cid]
        return self.card_value(card) + card.points

    def discard(self, legal: Sequence[Any], then: Sequence[fx.Effect]) -> Any:
        """Discard the weakest hand card if what it pays for is worth more."""
        cards = [a for a in legal if type(a) is DiscardCard]
        if not cards:
            return SKIP
        worst = min(cards, key=lambda a: self.card_value(self.cat.card[a.card]))
        gain = worth(then, self.w, self.cat)
        return worst if gain > self.card_value(self.cat.card[worst.card]) else SKIP

    def replace(self, legal: Sequence[Any]) -> Any:
        """Send away the row card that hurts most: danger first, then the least useful."""
        cards = [a for a in legal if type(a) is Replace]
        if not cards:
            return legal[0]
        card = self.cat.card
        return min(cards, key=lambda a: (not card[a.card].danger, self.row_use(card[a.card])))

    def row_use(self, card: Card) -> float:
        if card.kind == "monster":
            return worth(card.defeat, self.w, self.cat)
        return self.card_value(card) + card.points

    def take(self, legal: Sequence[Any]) -> Any:
        """Secrets and idols always; an artifact if it is the best one from here."""
        best = None
        for a in legal:
            if type(a) is not Take:
                continue
            if self.kind(a.token) != "artifact":
                best = best or a
                continue
            if self.best_here():
                return a
        return best or SKIP


__all__ = ["HeuristicBot"]
