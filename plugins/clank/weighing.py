"""What the ``heuristic`` Clank! bot weighs: resources, effects and routes, by price.

:func:`worth` values a list of effects from the catalog's effect data, never by card name,
under the :class:`Weights` the bot's situation sets (:data:`PLAIN`: a fresh game's);
:class:`Router` finds the cheapest routes over the board graph at a :class:`Price` (boots,
monsters weighed against health, a crystal cave that ends the walk, locked tunnels), kept
per graph and price. The bot (:mod:`.bots`) and the evaluation (:mod:`.evaluate`) read them.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable
from typing import NamedTuple

from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.catalog import Catalog, Exit, Graph

INF = float("inf")

# -- what one unit of each resource is worth --------------------------------------------------

SKILL = 1.0
SWORD = 0.6
DRAW = 1.1
TELEPORT = 1.6
BOOT = 1.4
"""A boot in a card played later (the walk is what wins the game)."""
TRASH = 1.0
"""Trashing a card: the Stumbles and Burgles leave the deck."""
DISCARD = 0.7
"""Discarding a hand card to pay for an effect."""
MOD = {
    "gem-discount-2": 0.6,
    "gold-bonus-1": 0.5,
    "no-crystal-exhaust": 0.4,
    "ignore-tunnel-monsters": 0.6,
    "skill-per-clank": 0.7,
}
"""This-turn modifiers, on average."""
SECRET = {"minor": 1.5, "major": 3.0, "idol": 5.0}
"""Worth of a token in a room that the bot may pick up on the way."""
KEEP = 1.5
"""A card worth more than this per play is not trashed unless the bot must."""
LIKELY = 0.4
"""Chance that a condition not yet met will hold when the card is played."""
CAVE = 0.6
"""Extra route cost of entering a crystal cave: the walk ends there for the turn."""
MARGIN = 3
"""Health the bot keeps after voluntary damage (a dragon attack may follow)."""
COND_KINDS = {"artifact": "artifact", "idol": "monkey-idol", "mastery": "mastery"}
"""The ``if`` condition that a held token of each kind meets (a Crown meets ``crown``
by its id)."""


class Weights(NamedTuple):
    """What the bot's situation makes each resource worth now."""

    clank: float
    """Cost of one cube in the Clank! area."""
    unclank: float
    """Worth of taking one cube back."""
    gold: float
    points: float
    heal: float
    boots: float
    """A boot this turn (nothing when the bot has nowhere to go)."""
    attack: float
    """Cost of a dragon attack now."""
    plays: float
    """How often a card acquired now will still be played."""
    conds: frozenset[str]
    """Conditions that hold now (``artifact``, ``crown``...)."""


def worth(effects: Iterable[fx.Effect], w: Weights, cat: Catalog) -> float:
    """What a list of effects gives the bot, in skill-equivalents."""
    total = 0.0
    for e in effects:
        match e:
            case fx.Gain():
                total += e.skill * SKILL + e.swords * SWORD + e.boots * w.boots
                total += e.draw * DRAW + e.gold * w.gold + e.heal * w.heal
                total += e.teleport * TELEPORT - e.rage * w.attack
                clank = e.clank
                total -= clank * w.clank if clank > 0 else clank * w.unclank
            case fx.Choose():
                total += max(worth(o, w, cat) for o in e.options)
            case fx.If():
                chance = 1.0 if e.cond in w.conds else LIKELY
                total += chance * worth(e.then, w, cat)
            case fx.DiscardThen():
                total += max(worth(e.then, w, cat) - DISCARD, 0.0)
            case fx.Buy():
                points = cat.kinds[e.card].points * e.n
                total += max(points * w.points - e.gold * w.gold, 0.0)
            case fx.OthersClank():
                total += 0.3 * e.n
            case fx.AllClank():
                total += (0.3 - w.clank) * e.n
            case fx.ThisTurn():
                total += MOD.get(e.mod, 0.3)
            case fx.DragonAttack():
                total -= w.attack
            case _:
                total += EFFECT_WORTH.get(type(e), 0.0)
    return total


EFFECT_WORTH: dict[type, float] = {
    fx.Trash: TRASH,
    fx.ReplaceRowCard: 0.2,
    fx.ReturnDragonCubes: 0.2,
    fx.TakeAdjacentSecret: SECRET["minor"],
}
"""Effects whose worth does not depend on the situation."""


class Price(NamedTuple):
    """How the bot prices tunnels now (the routes are cached per price)."""

    key: bool
    """Holds a Master Key: locked tunnels are open."""
    hurt: float
    """Cost of one point of damage."""
    bearable: int
    """Most damage the bot takes in one tunnel."""
    swords: int
    """Swords in the pool, each paying one monster icon this turn."""
    start_ok: bool
    """May enter the start room (it holds an artifact and heads out)."""
    lock: float = 0.0
    """Cost of passing a lock that ``key`` opens (a Lockpick left behind costs something)."""
    opened: frozenset[int] = frozenset()
    """Locked tunnels already open for everyone."""


SWORD_SPENT = 0.3
"""Cost of spending a sword in a tunnel rather than on a fight."""
ROUTES_KEPT = 2048
"""Searches a :class:`Router` keeps: one board's router serves every game played on it, and
the prices seen keep growing with the games, so the oldest are dropped."""


class Router:
    """Shortest paths over a board graph, cached per target room and :class:`Price`."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        into: dict[int, list[tuple[int, Exit]]] = {rid: [] for rid in graph.order}
        for rid, exits in graph.exits.items():
            for e in exits:
                into[e.to].append((rid, e))
        self.into = into
        self.most_monsters = max((t.monsters for t in graph.tunnels), default=0)
        self._routes = functools.lru_cache(maxsize=ROUTES_KEPT)(self._search)

    def cost(self, e: Exit, price: Price) -> float:
        """What walking one tunnel costs, or ``INF`` if the bot may not or should not."""
        paid = min(e.monsters, price.swords)
        hurt = e.monsters - paid
        lock = e.locked and e.tunnel not in price.opened
        if (lock and not price.key) or hurt > price.bearable:
            return INF
        if e.to == self.graph.start and not price.start_ok:
            return INF
        cave = CAVE if e.to in self.graph.caves else 0.0
        return e.boots + paid * SWORD_SPENT + hurt * price.hurt + cave + (price.lock if lock else 0)

    def toward(self, target: int, price: Price) -> dict[int, float]:
        """The cost from every room to ``target`` (searched once per target and price)."""
        return self._routes(target, price)

    def _search(self, target: int, price: Price) -> dict[int, float]:
        """A search backwards from ``target``."""
        dist = {target: 0.0}
        todo = [(0.0, target)]
        while todo:
            d, room = heapq.heappop(todo)
            if d > dist.get(room, INF):
                continue
            for before, e in self.into[room]:
                nd = d + self.cost(e, price)
                if nd < dist.get(before, INF):
                    dist[before] = nd
                    heapq.heappush(todo, (nd, before))
        return dist


@functools.lru_cache(maxsize=8)
def router(graph: Graph) -> Router:
    """One router per graph, shared by every bot and game on it (a graph never changes: a map
    that grows is a new graph, so routes are searched anew only when the map changes)."""
    return Router(graph)


PLAIN = Weights(
    clank=0.3,
    unclank=0.2,
    gold=0.6,
    points=0.35,
    heal=0.0,
    boots=BOOT,
    attack=0.6,
    plays=2.5,
    conds=frozenset(),
)
"""The weights of a fresh game (the starting deck's worth)."""
