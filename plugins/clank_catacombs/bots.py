"""The ``heuristic`` bot on Clank! Catacombs: the Clank! bot, taught to explore.

:class:`CatacombsBot` is :class:`~meeple.plugins.clank.bots.HeuristicBot`
with the hooks Catacombs needs; routes still come from the shared
:class:`~meeple.plugins.clank.bots.Router`, over the graph of the placed
tiles (a new graph, so new routes, only when the map changes).

* **Exploring.** While no artifact is worth the trip there and back, an open
  edge of the dungeon is a goal: what the next tile may bring (its back says
  lighter or darker; a darker one is likelier to hold an artifact, and more
  dangerous) less the walk there. At the edge room the bot walks off the map.
* **Rotations** are scored on the dungeon they make: a tunnel paid cheaply,
  edges left open onward, an artifact or useful room reachable from the
  entry room (:meth:`CatacombsBot.layout`).
* **Lockpicks** open locks on the way (each weighs a little), and Chests,
  Libraries and Prisons when the bot holds more than its route may need.
* **Rooms**: artifacts taken as in Clank!, every Wayshrine marked, items
  claimed or bought when worth their gold, reward rooms as small detours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.zones import HIDDEN
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.packs.choose_some import PickSome
from meeple.plugins.clank.packs.free_row_card import FreeCard
from meeple.plugins.clank.packs.market_offer import Claim
from meeple.plugins.clank.packs.offer import ACCEPT, Offer
from meeple.plugins.clank.packs.trash_self import TrashSelf
from meeple.plugins.clank.state import SKIP, Acquire, Take, UseDevice
from meeple.plugins.clank.weighing import INF, SECRET, Router, worth
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.growth import TileGraph
from meeple.plugins.clank_catacombs.state import (
    MARK,
    PICK_LOCK,
    CatacombsState,
    ChooseRoom,
    Discover,
    Explore,
    PlaceAnywhere,
    Placed,
    PlaceTile,
    Rotate,
    Spin,
    TurnTile,
)

LOCK = 1.0
"""Route cost of a lock still shut: a Lockpick is left on it."""
PICK = 2.0
"""Worth of a Lockpick kept, in points."""
EXPLORE = {"lighter": 2.5, "darker": 3.5}
"""Worth of what a tile of each back brings besides an artifact (rooms, secrets, a way on)."""
OPEN_EDGE = 0.8
"""Worth of an edge left open onward by a placed tile."""
IN_HAND = 4.0
"""Worth of the first artifact at hand over one still to reach: another seat may take that one
first, and a seat without an artifact cannot leave."""
ROOM_WORTH = {"chest": 1.5, "prison": 1.5, "library": 1.0, "wayshrine": 1.5, "market": 0.5}
"""Worth of a useful room on a placed tile, reachable from where the bot enters it."""


class CatacombsBot(HeuristicBot):
    """Explores the growing dungeon until an artifact is worth the trip, then as in Clank!."""

    margin = 2
    """Health kept after voluntary damage: less than in Clank!, so that a hurt seat deep in the
    dungeon still finds a way past monsters (staying there is what knocks it out)."""
    game: Any
    cat: TileCatalog
    view: CatacombsState
    graph: TileGraph

    def __init__(self, game: Any, seat: int, stream: Any) -> None:
        super().__init__(game, seat, stream)
        tiles = game.cat.tiles
        self.art_chance = {
            back: sum(any(r.artifact is not None for r in t.rooms) for t in group) / len(group)
            for back in ("lighter", "darker")
            if (group := [t for t in tiles.values() if t.back == back])
        }
        """The share of tiles of each back with an Artifact room."""
        self.tried: set[tuple[int, int, int]] = set()
        """Edges walked off (turn number, placement, half): a discovery declined
        (rules.md#no-fit, ``discard``) leaves the edge open, so the bot would try for ever."""

    # -- the situation ----------------------------------------------------------------

    def prepare(self, view: Any) -> None:
        self.picks = view.lockpicks[self.seat]
        self.exploring = False
        super().prepare(view)

    def pressure(self) -> float:
        """Every seat that left draws cubes on each of its turns: the end comes nearer. Only a
        seat with an artifact hurries out; one without must keep looking, at full pace."""
        if not self.artifacts:
            return 0.0
        return float(sum(p.status != "in" for p in self.view.players))

    def locks(self) -> tuple[float, frozenset[int]]:
        """A lock costs a Lockpick; tunnels whose every lock bears one are open."""
        view, graph = self.view, self.graph
        key = self.view_key()
        if key != getattr(self, "_opened_key", None):
            picked = set(view.picked)
            self._opened = frozenset(
                i for i, keys in enumerate(graph.locks) if keys and all(k in picked for k in keys)
            )
            self._opened_key = key
        return LOCK, self._opened

    def view_key(self) -> tuple[TileGraph, int]:
        """The graph itself, not its ``id``: a graph the game no longer caches may be freed,
        and a new one could then reuse its address."""
        return self.graph, len(self.view.picked)

    def price(self, start_ok: bool) -> Any:
        """A Lockpick held opens a lock, like a Master Key in Clank!."""
        return super().price(start_ok)._replace(key=self.key or self.picks > 0)

    # -- where to go ------------------------------------------------------------------

    def final(self) -> int | None:
        """Out with an artifact; else the best artifact, or an open edge worth more."""
        graph = self.graph
        if self.artifacts:
            back = self.router.toward(graph.start, self.price(start_ok=True))
            if back.get(self.me.room, INF) < INF:
                return graph.start
            return self.edge()[0]  # no way out known: discover one
        room, score = self.target(self.me.room)
        edge, worth = self.edge()
        if edge is not None and (room is None or worth > score):
            self.exploring = True
            return edge
        return room

    def edge(self) -> tuple[int | None, float]:
        """The room with an open edge worth most to explore from, and that worth."""
        view, graph = self.view, self.graph
        stack = view.tile_stack.cards
        if not stack or not graph.opens:
            return None, -INF
        back = stack[-1].removeprefix(HIDDEN)
        lam = self.lam()
        art = self.artifact_ahead()
        gain = EXPLORE.get(back, 3.0) - (self.w.attack * 0.5 if back == "darker" else 0.0)
        chance = self.art_chance.get(back, 0.0) if not self.artifacts else 0.0
        here = self.me.room
        price = self.price(start_ok=False)
        home = self.router.toward(graph.start, self.price(start_ok=True))
        best: tuple[int | None, float] = (None, -INF)
        for room, opens in graph.opens.items():
            way = min((self.way_off(o.place, o.half) for o in opens), default=INF)
            if way == INF:
                continue
            there = 0.0 if room == here else self.router.toward(room, price).get(here, INF)
            if there == INF:
                continue
            carry = chance * max(art - lam * 1.3 * (home.get(room, 12.0) + 1.5), 0.0)
            score = gain + carry - lam * (there + way)
            if score > best[1]:
                best = (room, score)
        return best

    def artifact_ahead(self) -> float:
        """The points of the artifact the next Artifact room would get (no plus icon)."""
        arts = self.view.artifacts.cards
        return float(self.cat.points[arts[-1]]) if arts else 0.0

    def room_gain(self, rid: int) -> float:
        """Unmarked Wayshrines, and covered rooms while Lockpicks are spare."""
        f = self.graph.features[rid]
        gain = 0.0
        if f.wayshrine and rid not in self.view.marks[self.seat] and self.me.supply > 8:
            gain = 1.0 + len(self.view.marks[self.seat])
        if (f.chest or f.prison) and self.picks > 1 and f"room {rid}" not in self.view.picked:
            gain = max(gain, ROOM_WORTH["chest"])
        if f.reward in ("minor", "idol") and rid not in self.view.pool.rewarded:
            gain = max(gain, SECRET["minor"] * 0.5)
        return gain

    # -- walking ----------------------------------------------------------------------

    def step(self, legal: Sequence[Any]) -> Any:
        """At the edge room being explored from, off the map; else as in Clank!."""
        if self.goal is not None and self.goal == self.me.room and self.goal in self.graph.opens:
            turn = self.view.turns.turn
            walk = [
                a
                for a in legal
                if type(a) is Explore
                and not a.teleport
                and (turn, a.place, a.half) not in self.tried
            ]
            if walk:
                return min(walk, key=lambda a: self.way_off(a.place, a.half))
        return super().step(legal)

    def way_off(self, place: int, half: int) -> float:
        """What walking off the map along a half costs (``INF``: the bot cannot)."""
        h = self.cat.tiles[self.view.tiles[place].tile].edges[half]
        shut = h.lock and f"{place}/e{half}" not in self.view.picked
        if h.arrow == "in" or (shut and not self.picks):
            return INF
        return 1.0 + h.footprints + h.monsters + (LOCK if shut else 0.0)

    # -- room actions ------------------------------------------------------------------

    def room_action(self, legal: Sequence[Any]) -> Any:
        """Take tokens, mark the Wayshrine, open a covered room, claim an offered item."""
        token = self.cat.token
        for a in legal:
            kind = type(a)
            if kind is Take:
                if self.kind(a.token) != "artifact" or self.wants_artifact():
                    return a
            elif kind is Claim:
                tid = next(t for t in self.view.market.cards if token[t].id == a.item)
                if self.item_value(tid) > (self.view.pool.offer or 0):
                    return a
            elif (a is MARK and self.me.supply > 6) or (
                a is PICK_LOCK and self.lock_worth() > self.pick_worth()
            ):
                return a
        return None

    def wants_artifact(self) -> bool:
        """The first artifact unless one elsewhere is clearly better; a second with a Backpack."""
        here = self.me.room
        if self.artifacts == 0:
            room, score = self.target(here)
            return room == here or self.score_here() + IN_HAND >= score
        backpack = any(self.cat.token[t].power == "backpack" for t in self.me.held.cards)
        return backpack and self.artifacts < 2

    def score_here(self) -> float:
        """What the best artifact of the bot's room is worth once the walk out is paid."""
        home = self.router.toward(self.graph.start, self.price(start_ok=True)).get(
            self.me.room, INF
        )
        points = self.cat.points
        token = self.cat.token
        arts = [
            points[t]
            for t in self.view.rooms[self.me.room].cards
            if t in token and token[t].kind == "artifact"
        ]
        return max(arts, default=-INF) - self.lam() * 1.3 * home

    def lock_worth(self) -> float:
        f = self.graph.features[self.me.room]
        if f.chest:
            return 3.0
        if f.prison:
            return 4.0
        return self.card_value(self.cat.kinds["secret-tome"]) * self.w.plays + 0.5

    def pick_worth(self) -> float:
        """A Lockpick kept is worth more the fewer remain (locks and rooms ahead)."""
        return PICK * 2 if self.picks <= 1 else PICK

    def item_value(self, tid: str) -> float:
        """Crowns by points; the Catacombs items by their points and what they give now."""
        t = self.cat.token[tid]
        value = float(self.cat.points[tid])
        if t.id == "blood-amulet":
            value += 2 * self.w.heal
        elif t.id == "burglars-kit":
            value += 2 * PICK
        elif t.id == "backpack":
            value += 2.0 if self.artifacts == 1 else 0.0
        return value

    # -- the decisions Catacombs adds ----------------------------------------------------

    def answer(self, frame: Any, legal: Sequence[Any]) -> Any:
        kind = type(frame)
        if kind is Discover:
            self.tried.add((self.view.turns.turn, frame.place, frame.half))
            return self.rotation(frame, legal)
        if kind is PlaceAnywhere:
            return self.placement(frame, legal)
        if kind is PickSome:
            return self.pick(legal, frame.options)
        if kind is ChooseRoom:
            return self.room_choice(frame, legal)
        if kind is Offer:
            return ACCEPT if self.accepts(frame) else SKIP
        if kind is FreeCard:
            free = [a for a in legal if type(a) in (Acquire, UseDevice)]
            deck = self.deck_value()
            best = max(free, key=lambda a: self.action_value(a, deck), default=None)
            return best if best is not None else SKIP
        if kind is Spin:
            return self.spin(frame, legal)
        return None

    def rotation(self, frame: Discover, legal: Sequence[Any]) -> Any:
        """The rotation making the best dungeon, paid the cheapest way (swords before health)."""
        rotations = [a for a in legal if type(a) is Rotate]
        if not rotations:
            return None  # the turn's actions: a card to pay with first
        price = self.price(start_ok=False)
        layouts: dict[int, float] = {}
        entry = len(self.view.rooms)
        for a in rotations:
            if a.turn not in layouts:
                at = Placed(frame.tile, frame.x, frame.y, a.turn)
                layouts[a.turn] = self.layout(
                    [*self.view.tiles, at], frame.room if not a.enter else None, entry
                )

        def score(a: Rotate) -> float:
            hurt = 0 if not a.enter else self.monsters(frame, a) - a.swords
            return layouts[a.turn] - hurt * price.hurt - a.swords * 0.3

        return max(rotations, key=score)

    def monsters(self, frame: Discover, a: Rotate) -> int:
        fit = self.game.fits(self.view, frame, a.turn)[0]
        return 0 if frame.teleport else fit[1].monsters

    def layout(self, placements: list[Placed], room: int | None, entry: int) -> float:
        """How good a dungeon is from the new tile: rooms reachable from where the bot stands
        after the placement (``room``, or the new tile's entry room), edges open onward."""
        graph = self.game.placed_graph(tuple(placements))  # from the graphs the game keeps
        i = len(placements) - 1
        router = Router(graph)
        price = self.price(start_ok=False)
        if room is None:
            reach = [r for r in graph.order if graph.tile_of[r] == i]
            room = reach[0] if reach else self.me.room
        value = 0.0
        arts = self.view.artifacts.cards
        for rid in graph.order:
            if graph.tile_of[rid] != i:
                continue
            d = router.toward(rid, price).get(room, INF) if rid != room else 0.0
            if d == INF:
                d = 6.0
            f = graph.features[rid]
            near = 1.0 / (1.0 + d)
            if f.artifact is not None and arts and not self.artifacts:
                value += self.cat.points[arts[max(len(arts) - 1 - f.artifact, 0)]] * 0.5 * near
            for name, w in ROOM_WORTH.items():
                if getattr(f, name):
                    value += w * near
            value += OPEN_EDGE * len(graph.opens.get(rid, ()))
        home = router.toward(graph.start, self.price(start_ok=True)).get(room, INF)
        if self.artifacts and home < INF:
            value += 5.0 - 0.5 * home
        return value

    def placement(self, frame: PlaceAnywhere, legal: Sequence[Any]) -> Any:
        """``place-tile``: the cell and rotation making the best dungeon from the bot's room."""
        tiles = self.view.tiles
        entry = len(self.view.rooms)
        return max(
            (a for a in legal if type(a) is PlaceTile),
            key=lambda a: self.layout(
                [*tiles, Placed(frame.tile, a.x, a.y, a.turn)], self.me.room, entry
            ),
        )

    def spin(self, frame: Spin, legal: Sequence[Any]) -> Any:
        """``rotate-tiles``: the turn that leaves the bot's way best."""
        i = frame.places[0]
        tiles = self.view.tiles

        def score(a: TurnTile) -> float:
            tried = [*tiles]
            tried[i] = Placed(tiles[i].tile, tiles[i].x, tiles[i].y, a.turn)
            return self.layout(tried, self.me.room, 0)

        return max((a for a in legal if type(a) is TurnTile), key=score)

    def room_choice(self, frame: ChooseRoom, legal: Sequence[Any]) -> Any:
        """A Wayshrine to mark: any; a teleport: the room nearest the goal, if nearer than here."""
        rooms = [a for a in legal if a is not SKIP]
        if frame.why == "mark" or not rooms:
            return rooms[0] if rooms else SKIP
        dist = self.dist
        best = min(rooms, key=lambda a: dist.get(a.room, INF))
        if SKIP in legal and dist.get(best.room, INF) >= dist.get(self.me.room, INF):
            return SKIP
        return best

    def accepts(self, frame: Offer[Any]) -> bool:
        """Lockpicks for a major secret while spare; a self-trash when its gain is worth it;
        a card back on the deck when it beats the deck; a ward card against a Ghost always."""
        match frame.effect:
            case cx.GhostWard():
                return True
            case cx.PayLockpicks(n=n, then=then):
                return self.picks - n >= 1 and self.worth_of(then) + 3.0 > PICK * n
            case TrashSelf(then=then):
                card = self.cat.card[frame.card] if frame.card else None
                keep = self.card_value(card) * self.w.plays if card else 0.0
                return self.worth_of(then) > keep
        card = self.cat.card.get(frame.card or "")
        return card is not None and self.card_value(card) > self.deck_value()

    def worth_of(self, effects: Any) -> float:
        return worth(effects, self.w, self.cat)
