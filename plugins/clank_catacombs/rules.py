"""Clank! Catacombs rules: :class:`CatacombsGame`, the Clank! engine on a growing dungeon.

Everything Clank! and Catacombs share is the Clank! engine's
(:class:`~meeple.plugins.clank.rules.ClankEngine`); this module adds what differs,
one method per rule, each docstring naming its section of
``seeds/clank-catacombs/rules.md``: the map read from the placed tiles
(:meth:`CatacombsGame.graph`, cached by the placements), discovery and
rotation, locks paid with Lockpicks, reward rooms, room actions, Ghosts, the
dragon's turns for seats that left, and the effects, frames, conditions and points
rules Catacombs registers (:mod:`meeple.plugins.clank.part`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

import msgspec

from meeple.core.rng import Rng, shuffle, stream
from meeple.core.state import Event
from meeple.core.zones import PUBLIC, SECRET, Zone
from meeple.plugins.clank.catalog import Catalog, Exit
from meeple.plugins.clank.content import PointsPer, Schema
from meeple.plugins.clank.dragon import COLOURS
from meeple.plugins.clank.map import NO_MONSTERS
from meeple.plugins.clank.packs.choose_some import ChooseSomePack
from meeple.plugins.clank.packs.free_row_card import FreeRowCardPack
from meeple.plugins.clank.packs.market_offer import Claim, MarketOfferPack
from meeple.plugins.clank.packs.may_top_deck import MayTopDeckPack
from meeple.plugins.clank.packs.offer import Accept, Offer
from meeple.plugins.clank.packs.per import PerPack
from meeple.plugins.clank.packs.take_secret import TakeSecretPack
from meeple.plugins.clank.packs.trash_self import TrashSelfPack
from meeple.plugins.clank.part import action, condition, effect, fact, frame, points
from meeple.plugins.clank.rules import ClankEngine
from meeple.plugins.clank.state import (
    SKIP,
    Acquired,
    Bought,
    Damaged,
    Discarded,
    Fight,
    Move,
    Moved,
    Player,
    Skip,
    Teleport,
    Turn,
    UseDevice,
    UseToken,
)
from meeple.plugins.clank_catacombs import board, checks, content, drawing, present
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.board import (
    Layouts,
    TileGraph,
    build,
    cells_of,
    extend,
    join,
    opposed,
)
from meeple.plugins.clank_catacombs.state import (
    MARK,
    PICK_LOCK,
    CatacombsEvent,
    CatacombsOptions,
    CatacombsState,
    ChooseRoom,
    Discover,
    Discovered,
    DragonTurn,
    Explore,
    Ghosted,
    GoTo,
    Lockpicks,
    Mark,
    Marked,
    Opened,
    PickLock,
    PlaceAnywhere,
    Placed,
    PlaceTile,
    Rotate,
    Spin,
    Turned,
    TurnTile,
)
from meeple.plugins.clank_catacombs.tiles import Tile, TileRoom

GHOST = "ghost"
"""The bag colour of Ghost cubes."""
GRAPHS_KEPT = 64
"""Graphs of placements kept per game object: a game places about 15 tiles, so this holds the
maps of the games in play, and a long simulation on one game object stays within it."""


class TileCatalog(Catalog):
    """The Clank! catalog of the Catacombs cards and tokens, plus the tiles by id.

    ``tokens`` holds each token's Catacombs definition by id, ``counts_as`` the kinds it
    counts as (rules.md#tokens); the sets name the tokens the turn's actions ask about.
    """

    graph: TileGraph

    def __init__(self, tables: content.CatacombsTables) -> None:
        self.tiles: dict[str, Tile] = tables.tile
        self.square = [t.id for t in tables.tiles.tiles if t.back != "start"]
        self.layouts = Layouts(self.tiles)
        super().__init__(tables.cards, tables.tokens, tables.board)
        for tid, tile in self.tiles.items():
            self.back[tid] = tile.back
        self.tokens = {
            tid: t for tid, t in self.token.items() if isinstance(t, content.CatacombsToken)
        }
        self.counts_as = {
            tid: frozenset([t.kind] if t.counts_as is None else t.counts_as)
            for tid, t in self.tokens.items()
        }
        self.idols = frozenset(t for t, kinds in self.counts_as.items() if "idol" in kinds)
        self.spent_in_a_room = frozenset(t for t, tok in self.tokens.items() if tok.where)
        self.against_arrows = frozenset(t for t, tok in self.tokens.items() if tok.against_arrows)

    def make_graph(self, _: Any) -> TileGraph:
        """No fixed board: the graph of side a alone (each state has its own)."""
        return build([Placed(content.START_SIDES[0], 0, 0)], self.tiles, self.layouts)


@lru_cache(maxsize=16)
def catalog(schema: Schema, o: CatacombsOptions) -> TileCatalog:
    return TileCatalog(content.read_tables(schema, cards=o.cards, tokens=o.tokens, tiles=o.tiles))


class CatacombsGame(
    ChooseSomePack[CatacombsState],
    PerPack[CatacombsState],
    TrashSelfPack[CatacombsState],
    MayTopDeckPack[CatacombsState],
    TakeSecretPack[CatacombsState],
    MarketOfferPack[CatacombsState],
    FreeRowCardPack[CatacombsState],
    ClankEngine[CatacombsState],
):
    """Clank! Catacombs: the deck-building dungeon crawl whose dungeon grows tile by tile,
    on every effect pack."""

    id = "clank-catacombs"
    title = "Clank! Catacombs"
    version = "3"
    Options = CatacombsOptions
    State = CatacombsState
    Action = (
        ClankEngine.Action
        | Explore
        | Rotate
        | PlaceTile
        | GoTo
        | Accept
        | PickLock
        | Mark
        | Claim
        | TurnTile
    )
    Event = CatacombsEvent
    Effect = cx.CatacombsEffect
    zones = {
        **ClankEngine.zones,
        "tiles": PUBLIC,
        "drawn": PUBLIC,
        "tile-stack": SECRET,
        "tile-box": SECRET,
        "artifacts": PUBLIC,
        "majors": SECRET,
        "minors": SECRET,
        "prisoners": SECRET,
        "idols": PUBLIC,
        "bank": PUBLIC,
        "picks": PUBLIC,
    }
    variants = (
        {"start_side": "a"},
        {"start_side": "b"},
        {"start_side": "random", "no_fit": "discard"},
        {"start_side": "random", "empty_replace": "wait"},
    )
    options: CatacombsOptions
    cat: TileCatalog
    turn_frames = (Turn, Discover)

    def __init__(self, options: CatacombsOptions | None = None, cat: TileCatalog | None = None):
        super().__init__(options, cat)
        self._graphs: OrderedDict[tuple[Placed, ...], TileGraph] = OrderedDict()
        """Graphs by their placements, the last :data:`GRAPHS_KEPT` asked for last."""
        self._last_tiles: list[Placed] = []
        """The placements of :attr:`_last_graph` (a copy: a state's list grows in place);
        none at first, which no state has."""
        self._last_graph = self.cat.graph
        self._explore: dict[tuple[int, int, bool], Explore] = {}
        self._rotate: dict[tuple[int, int, bool], Rotate] = {}
        self._goto: dict[int, GoTo] = {}
        self._turn_tile = [TurnTile(turn=t) for t in range(4)]

    def make_catalog(self) -> TileCatalog:
        return catalog(self.schema(), self.options)

    # -- the map -------------------------------------------------------------

    def graph(self, state: CatacombsState) -> TileGraph:
        """rules.md#discovery: the graph of the placed tiles, built once per placement (of
        the last :data:`GRAPHS_KEPT`).

        A decision asks for it a few times over one map, so the last one answered is
        checked first: comparing the placements to it is a walk over the same objects,
        cheaper than hashing them.
        """
        tiles = state.tiles
        if tiles == self._last_tiles:
            return self._last_graph
        key = tuple(tiles)
        self._last_graph = graph = self.kept_graph(key)
        self._last_tiles = list(key)
        return graph

    def kept_graph(self, placements: tuple[Placed, ...]) -> TileGraph:
        """The graph of ``placements``, kept (one of the last :data:`GRAPHS_KEPT`)."""
        graphs = self._graphs
        graph = graphs.get(placements)
        if graph is not None:
            graphs.move_to_end(placements)
            return graph
        graph = graphs[placements] = self.placed_graph(placements)
        if len(graphs) > GRAPHS_KEPT:
            graphs.popitem(last=False)
        return graph

    def placed_graph(self, placements: tuple[Placed, ...]) -> TileGraph:
        """The graph of ``placements``, grown from the graph kept of the most of their first
        ones: usually all but the last, since the dungeon grew from it; those before a tile
        that turned otherwise. The graphs between are not built."""
        graphs = self._graphs
        k = len(placements) - 1
        while k and placements[:k] not in graphs:
            k -= 1
        if not k:
            return build(placements, self.cat.tiles, self.cat.layouts)
        return extend(graphs[placements[:k]], placements[k:])

    def where_ok(self, graph: Any, room: int, where: str) -> bool:
        if where == "crystal-cave-or-wayshrine":
            return room in graph.caves or room in graph.wayshrines
        return super().where_ok(graph, room, where)

    def secret_pile(self, state: CatacombsState, kind: str) -> Zone:
        return state.majors if kind == "major" else state.minors

    def turn_offer(self, state: CatacombsState) -> tuple[int | None, bool]:
        return state.pool.offer, state.pool.offer_anywhere

    def set_turn_offer(self, state: CatacombsState, price: int | None, anywhere: bool) -> None:
        state.pool.offer = price
        state.pool.offer_anywhere = anywhere

    def holds(self, p: Player, kind: str) -> int:
        """rules.md#tokens: a token counts as the kinds it names (the Golden Monkey Bot as
        a Prisoner and a Monkey Idol, the Discount Coupon as nothing)."""
        counts_as = self.cat.counts_as
        n = 0
        for t in p.held.cards:
            if kind in counts_as[t]:
                n += 1
        return n

    def lockpicks(self, p: Player) -> list[str]:
        """The Lockpicks the seat holds."""
        token = self.cat.token
        out = []
        for t in p.held.cards:
            if token[t].kind == "lockpick":
                out.append(t)
        return out

    # -- set-up ----------------------------------------------------------------

    def setup(self, seats: int, seed: int) -> CatacombsState:
        """rules.md#setup."""
        cat = self.cat
        rng = Rng(seed=seed)
        side: str = self.options.start_side
        if side == "random":
            side = "ab"[stream(rng).below(2)]
        start = f"start-{side}"
        tiles = cat.tiles
        lighter = [t for t in cat.square if tiles[t].back == "lighter"]
        darker = [t for t in cat.square if tiles[t].back == "darker"]
        shuffle(rng, lighter)
        shuffle(rng, darker)
        piles = {}
        for kind in ("major", "minor", "prisoner"):
            pile = list(cat.by_kind.get(kind, []))
            shuffle(rng, pile)
            piles[kind] = pile
        picks = list(cat.by_kind.get("lockpick", []))
        box = Zone(kind="box")
        fields = self.common_setup(seats, rng, 0, box)
        each = cat.tables.lockpicks_each
        for seat, p in enumerate(fields["players"]):
            for tid in picks[seat * each : (seat + 1) * each]:
                p.held.add(tid)
        placed = [Placed(start, 0, 0)]
        graph = self.kept_graph(tuple(placed))
        for p in fields["players"]:
            p.room = graph.start
        state = CatacombsState(
            **fields,
            rooms=[Zone(kind="room", up=[]) for _ in graph.order],
            box=box,
            tiles=placed,
            placed=Zone(kind="tiles", cards=[start]),
            drawn=Zone(kind="drawn"),
            tile_stack=Zone(kind="tile-stack", cards=[*darker, *lighter[2:]]),
            tile_box=Zone(kind="tile-box", cards=lighter[:2]),
            artifacts=Zone(kind="artifacts", cards=list(cat.by_kind.get("artifact", []))),
            majors=Zone(kind="majors", cards=piles["major"]),
            minors=Zone(kind="minors", cards=piles["minor"]),
            prisoners=Zone(kind="prisoners", cards=piles["prisoner"]),
            idols=Zone(kind="idols", cards=list(cat.by_kind.get("idol", []))),
            bank=Zone(kind="bank", cards=picks[seats * each :]),
            picks=Zone(kind="picks"),
            ghosts=cat.tables.ghost_cubes,
            marks=[[] for _ in range(seats)],
            black_damage=[0] * seats,
            ghost_hits=[0] * seats,
        )
        self.arrival(state, 0, [])  # rules.md#start-artifacts
        self.begin(state)
        return state

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[Any]]:
        """Clank!'s values, bounded by the tiles: a dungeon of every square tile and a
        starting side has at most their rooms and tunnels, and no cell more steps away from
        the starting tile (whose cells run south from (0, 0)) than it has square tiles."""
        tiles = self.cat.tiles.values()
        square = [t for t in tiles if t.back != "start"]
        start = max(len(t.rooms) for t in tiles if t.back == "start")
        placed = len(square) + 1
        rooms = range(start + sum(len(t.rooms) for t in square))
        legs = 0  # tunnels that may lead to a portal: each pair of them may make a trip
        for t in tiles:
            portals = {r.id for r in t.rooms if r.portal}
            legs += sum(i.a in portals or i.b in portals for i in t.inner)
            legs += sum(h.room in portals for h in t.edges)
        tunnels = range(sum(len(t.inner) + len(t.edges) for t in tiles) + legs * legs)
        monsters = max(  # a tunnel across two tiles has the monsters of both halves
            *(i.monsters for t in tiles for i in t.inner),
            *(2 * h.monsters for t in tiles for h in t.edges),
        )
        monsters *= 2  # a portal trip has those of both its tunnels
        reach = len(square)
        below = max(t.cells for t in tiles if t.back == "start") - 1  # start cells below (0, 0)
        cells = [
            (x, y)
            for x in range(-reach, reach + 1)
            for y in range(-reach, below + reach + 1)
            if abs(x) + max(-y, y - below, 0) <= reach
        ]
        return {
            **super().action_values(seats),
            "tunnel": tunnels,
            "to": rooms,
            "room": rooms,
            "swords": range(monsters + 1),
            "place": range(placed),
            "half": range(max(len(t.edges) for t in tiles)),
            "turn": range(4),
            ("token", "room"): self.takes_named(rooms),
            ("x", "y"): cells,
        }

    def cards(self, state: CatacombsState) -> Iterable[str]:
        pieces = list(self.cat.pieces(state.seats))
        return [*pieces, state.tiles[0].tile, *self.cat.square]

    # -- placing tiles -----------------------------------------------------------

    def place(self, state: CatacombsState, tile: str, x: int, y: int, turn: int) -> int:
        """A tile joins the dungeon: its rooms get their zones, then its arrival."""
        state.tiles.append(Placed(tile, x, y, turn))
        state.placed.add(tile)
        state.rooms.extend(Zone(kind="room", up=[]) for _ in self.cat.tiles[tile].rooms)
        i = len(state.tiles) - 1
        return i

    def arrival(self, state: CatacombsState, i: int, events: list[Event]) -> None:
        """rules.md#artifact-rooms, rules.md#haunted, rules.md#idols: a placed tile's arrival."""
        graph = self.graph(state)
        stack = state.artifacts.cards
        for rid in graph.ids[i].values():
            room = graph.features[rid]
            zone = state.rooms[rid]
            if room.artifact is not None and stack:
                k = len(stack) - 1 - room.artifact
                zone.add(stack.pop(k if k >= 0 else 0))
            if room.monkey_shrine:
                for tid in state.idols.take():
                    zone.add(tid)
        if i in graph.haunted:
            self.haunt(state, events)

    @staticmethod
    def haunt(state: CatacombsState, events: list[Event]) -> None:
        """rules.md#haunted, #ghost-supply: a Ghost into the Clank! area, while one is left."""
        if state.ghosts:
            state.ghosts -= 1
            state.ghost_clank += 1
            events.append(Ghosted())

    def owners(self, placements: list[Placed]) -> dict[tuple[int, int], int]:
        """The placement covering each cell: the same whatever the tiles' turns."""
        tiles = self.cat.tiles
        return {cell: j for j, at in enumerate(placements) for cell in cells_of(tiles[at.tile], at)}

    def link_ok(
        self, owner: Mapping[tuple[int, int], int], placements: list[Placed], i: int
    ) -> bool:
        """Whether placement ``i`` has a tunnel to another tile in ``placements``: a half-tunnel
        of its meets one of a tile beside, their arrows not opposed (rules.md#arrows).
        ``owner``: :meth:`owners` of ``placements``, or of the same tiles at other turns."""
        layouts = self.cat.layouts
        at = placements[i]
        for edge in layouts.laid(at).edges:
            cell = (at.x + edge.ahead[0], at.y + edge.ahead[1])
            j = owner.get(cell, i)
            if j != i:
                met = layouts.met(placements[j], cell, edge)
                if met is not None and not opposed(edge.half, met.half):
                    return True
        return False

    # -- legal actions -------------------------------------------------------------

    def turn_actions(self, state: CatacombsState, seat: int) -> list[Any]:
        out = super().turn_actions(state, seat)
        p = state.players[seat]
        if not self.cat.spent_in_a_room.isdisjoint(p.held.cards):
            out[:] = [a for a in out if type(a) is not UseToken or self.usable_here(state, p, a)]
        return out

    def usable_here(self, state: CatacombsState, p: Player, a: UseToken) -> bool:
        """rules.md#tokens: a token spent in one kind of room only (the Discount Coupon in a
        Market, the Puzzle Box at a Wayshrine) is not offered elsewhere."""
        where = self.cat.tokens[a.token].where
        graph = self.graph(state)
        return where is None or p.room in (graph.markets if where == "market" else graph.wayshrines)

    def room_actions(
        self, state: CatacombsState, seat: int, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#chest, #library, #prison, #wayshrine, #offers, after the tokens taken here
        (rules.md#take-artifact)."""
        super().room_actions(state, seat, p, graph, out)
        if p.status != "in":
            return
        room = p.room
        f = graph.features[room]
        if (f.chest or f.library or f.prison) and self.can_pick(state, p, room, f):
            out.append(PICK_LOCK)
        if f.wayshrine and room not in state.marks[seat] and p.supply:
            out.append(MARK)
        if state.pool.offer is not None:  # most turns hold no offer (rules.md#offers)
            self.claim_actions(state, p, graph, out)

    def takeable(self, state: CatacombsState, p: Player, room: int) -> list[str]:
        """rules.md#idols: the Monkey Shrine's idols come only as its reward, one a visit.

        Most rooms are empty: a room id is its zone's index, so that is seen at once.
        """
        if not state.rooms[room].cards:
            return []
        idols = self.cat.idols
        return [t for t in super().takeable(state, p, room) if t not in idols]

    def can_pick(self, state: CatacombsState, p: Player, room: int, f: TileRoom) -> bool:
        """rules.md#chest, #library, #prison: whether the seat can pick the lock of ``room``
        (whose features are ``f``) now."""
        if f"room {room}" in state.picked or not self.lockpicks(p):
            return False
        if f.chest:
            return bool(state.majors.cards)
        if f.library:
            return self.reserve_pile(state, "secret-tome") is not None
        return bool(state.prisoners.cards)

    def may_buy(self, p: Player, tid: str) -> bool:
        """rules.md#market: the Blood Amulet needs damage on the buyer's meter."""
        return p.damage >= self.cat.token[tid].need_damage

    def can_use(self, p: Player, card: str) -> bool:
        """rules.md#device: a device's gold or Lockpick price must be payable too."""
        c = self.cat.card[card]
        return p.gold >= c.use_gold and len(self.lockpicks(p)) >= c.use_lockpick

    def passable(self, state: CatacombsState, p: Player, e: Exit, teleport: bool) -> bool:
        """rules.md#locks: a Lockpick for each lock not yet open; a teleport ignores locks."""
        if teleport:
            return True
        return self.locks_to_open(state, e.tunnel) <= len(self.lockpicks(p))

    def locks_to_open(self, state: CatacombsState, tunnel: int) -> int:
        return sum(k not in state.picked for k in self.graph(state).locks[tunnel])

    def move_actions(
        self, state: CatacombsState, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#discovery: moves and teleports off the dungeon's edge, besides the rest;
        rules.md#catacombs-map: against the arrows with a Catacombs Map."""
        super().move_actions(state, p, graph, out)
        if p.status != "in":
            return
        against = self.against_arrows(p)
        if against:
            self.moves_against_arrows(state, p, graph, out)
        if not state.tile_stack.cards:
            return
        opens = graph.opens.get(p.room)
        if not opens:
            return
        pool = state.pool
        walk = self.can_walk(pool)
        for o in opens:
            half = o.edge
            if (
                walk
                and pool.boots >= (2 if half.footprints else 1)
                and (half.arrow != "in" or against)
                and (not half.lock or f"{o.place}/e{o.half}" in state.picked or self.lockpicks(p))
            ):
                out.append(self.explore_action(o.place, o.half, False))
            if pool.teleports:
                out.append(self.explore_action(o.place, o.half, True))

    def against_arrows(self, p: Player) -> bool:
        """rules.md#catacombs-map: whether the seat may walk one-way tunnels backwards."""
        return not self.cat.against_arrows.isdisjoint(p.held.cards)

    def moves_against_arrows(
        self, state: CatacombsState, p: Player, graph: TileGraph, out: list[Any]
    ) -> None:
        """rules.md#catacombs-map: the one-way tunnels into the seat's room, walked back at
        their usual price (boots, monsters, locks; the Crypt only with an artifact)."""
        pool = state.pool
        if not self.can_walk(pool):
            return
        room = p.room
        for e in graph.near[room]:
            t = graph.tunnels[e.tunnel]
            if not t.one_way or t.b != room or e.boots > pool.boots:
                continue
            if e.to == graph.start and not self.holds(p, "artifact"):
                continue
            if e.locked and not self.passable(state, p, e, False):
                continue
            m = 0 if NO_MONSTERS in pool.mods else e.monsters
            moves = self.moves(e)
            out.extend(moves[s] for s in (self.swords_to_spend(p, m, pool.swords) if m else (0,)))

    def explore_action(self, place: int, half: int, teleport: bool) -> Explore:
        key = (place, half, teleport)
        action = self._explore.get(key)
        if action is None:
            action = self._explore[key] = Explore(place=place, half=half, teleport=teleport)
        return action

    def rotate_action(self, turn: int, swords: int, enter: bool) -> Rotate:
        key = (turn, swords, enter)
        action = self._rotate.get(key)
        if action is None:
            action = self._rotate[key] = Rotate(turn=turn, swords=swords, enter=enter)
        return action

    def goto(self, room: int) -> GoTo:
        action = self._goto.get(room)
        if action is None:
            action = self._goto[room] = GoTo(room=room)
        return action

    @frame(PlaceAnywhere)
    def cells_open(self, state: CatacombsState, frame: PlaceAnywhere) -> list[Any]:
        return [
            PlaceTile(x=x, y=y, turn=t)
            for x, y in self.free_cells(state, frame.seat)
            for t in range(4)
        ]

    @frame(ChooseRoom)
    def rooms_open(self, state: CatacombsState, frame: ChooseRoom) -> list[Any]:
        out: list[Any] = [self.goto(r) for r in frame.rooms]
        return [*out, SKIP] if frame.optional else out

    @frame(Spin)
    def spin_choices(self, state: CatacombsState, frame: Spin) -> list[Any]:
        return [self._turn_tile[t] for t in self.spins(state, frame.places[0])]

    # -- discovery -------------------------------------------------------------------

    @action(Explore)
    def explore(self, state: CatacombsState, action: Explore) -> list[Event]:
        """rules.md#discovery: the lock of the half walked is paid, then the top tile drawn."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        events: list[Event] = []
        graph = self.graph(state)
        o = next(o for o in graph.opens[p.room] if (o.place, o.half) == (action.place, action.half))
        if not action.teleport and o.edge.lock:
            self.open_locks(state, seat, (f"{action.place}/e{action.half}",), events)
        state.drawn.add(state.tile_stack.draw())
        state.stack.append(
            Discover(
                seat=seat,
                tile=state.drawn.cards[-1],
                x=o.cell[0],
                y=o.cell[1],
                room=p.room,
                place=action.place,
                half=action.half,
                teleport=action.teleport,
            )
        )
        return events

    def spend_lockpicks(
        self,
        state: CatacombsState,
        seat: int,
        events: list[Event] | None,
        n: int = 1,
        on: str | None = None,
    ) -> None:
        """The one way a seat spends Lockpicks: which ones, where they go, what the table sees.

        A price (rules.md#lockpick-supply: ``pay-lockpicks``, a device) sends ``n`` back to
        the bank, the first held first, shown as ``Lockpicks`` -- unless ``events`` is
        ``None``: a device's use shows for its price. A lock or a covered room
        (rules.md#locks), ``on`` as ``picked`` names it, keeps one for good, the last held,
        shown as ``Opened``.
        """
        p = state.players[seat]
        held = self.lockpicks(p)
        if on is None:
            spent, to = held[:n], state.bank
            shown: Event = Lockpicks(seat=seat, n=-n)
        else:
            spent, to = held[-1:], state.picks
            state.picked.append(on)
            shown = Opened(seat=seat, where=on)
        for tid in spent:
            p.held.remove(tid)
            to.add(tid)
        if events is not None:
            events.append(shown)

    def fits(
        self, state: CatacombsState, frame: Discover, turn: int | None = None
    ) -> list[tuple[int, Any, tuple[str, ...], int]]:
        """The rotations completing the mover's tunnel: (turn, tunnel, its locks, new room);
        those at ``turn`` alone if given.

        The map keeps the last ones found (:attr:`TileGraph.fitted`): a discovery's rotations
        are listed, then the chosen one is placed, on the same map and for the same question.
        """
        graph = self.graph(state)
        against = self.against_arrows(state.players[frame.seat])
        asked = (frame.tile, frame.room, frame.place, frame.half, frame.teleport, against)
        fitted = graph.fitted
        if fitted is not None and fitted[0] == asked and fitted[1] == len(state.rooms):
            every = fitted[2]
        else:
            every = self.fitting(state, frame, graph, against)
            graph.fitted = (asked, len(state.rooms), every)
        return list(every) if turn is None else [f for f in every if f[0] == turn]

    def fitting(
        self, state: CatacombsState, frame: Discover, graph: TileGraph, against: bool
    ) -> tuple[tuple[int, Any, tuple[str, ...], int], ...]:
        """:meth:`fits` found afresh on ``graph``, the map of ``state``."""
        o = next(
            o for o in graph.opens[frame.room] if (o.place, o.half) == (frame.place, frame.half)
        )
        mine = o.edge
        first = len(state.rooms)
        out = []
        for t, k, half, r in self.cat.layouts.entries(frame.tile, o.side, o.pos):
            room = first + r
            joined = join(
                frame.room,
                mine,
                f"{frame.place}/e{frame.half}",
                room,
                half,
                f"{len(state.tiles)}/e{k}",
            )
            if joined is None:
                continue
            tunnel, keys = joined
            if tunnel.one_way and tunnel.a != frame.room and not (frame.teleport or against):
                continue
            out.append((t, tunnel, keys, room))
        return tuple(out)

    @frame(Discover)
    def rotations(self, state: CatacombsState, frame: Discover) -> list[Any]:
        """rules.md#discovery: each rotation the mover can pay for; pausing to pay stays open."""
        p = state.players[frame.seat]
        pool = state.pool
        out: list[Any] = []
        fits = self.fits(state, frame)
        picks = len(self.lockpicks(p))
        calm = NO_MONSTERS in pool.mods
        for t, tunnel, keys, _ in fits:
            if frame.teleport:
                out.append(self.rotate_action(t, 0, True))
                continue
            need = sum(k not in state.picked for k in keys)
            if pool.boots < tunnel.boots or need > picks:
                continue
            m = 0 if calm else tunnel.monsters
            out.extend(
                self.rotate_action(t, s, True) for s in self.swords_to_spend(p, m, pool.swords)
            )
        if not out:  # rules.md#no-fit
            if self.options.no_fit == "discard":
                out.append(SKIP)
            else:
                turns = sorted({t for t, *_ in fits}) or range(4)
                out.extend(self.rotate_action(t, 0, False) for t in turns)
        if pool.skill or pool.swords:
            self.card_actions(state, p, self.graph(state), pool.skill, pool.swords, out)
        return out

    @action(Rotate)
    def rotate(self, state: CatacombsState, action: Rotate) -> list[Event]:
        """rules.md#discovery: the tile placed; the mover pays the whole tunnel and enters."""
        frame = state.stack[-1]
        assert isinstance(frame, Discover)
        fit = next(iter(self.fits(state, frame, action.turn)), None)
        state.stack.pop()
        seat = frame.seat
        tile = state.drawn.draw()
        i = self.place(state, tile, frame.x, frame.y, action.turn)
        events: list[Event] = [
            Discovered(seat=seat, tile=tile, place=i, x=frame.x, y=frame.y, turn=action.turn)
        ]
        self.arrival(state, i, events)
        if action.enter and fit is not None:
            _, tunnel, keys, room = fit
            pool = state.pool
            damage = 0
            if frame.teleport:
                pool.teleports -= 1
            else:
                self.open_locks(state, seat, keys, events)
                damage = self.pay_tunnel(pool, tunnel, action.swords)
            events.append(Moved(seat=seat, room=room, damage=damage, teleport=frame.teleport))
            self.wound(state, seat, damage, events)
            self.enter(state, seat, room, events)
        return events

    def skip(self, state: CatacombsState, action: Skip) -> list[Event]:
        """rules.md#no-fit: a declined discovery puts the tile under the stack;
        rules.md#ghost-ward: a ward card kept, the Ghost hurts."""
        top = state.stack[-1]
        if type(top) is Discover:
            state.tile_stack.put_under(state.drawn.draw())
        events = super().skip(state, action)
        if self.ward_offer(top):
            self.ghost_hit(state, top.seat, events)
            self.next_ward(state, top.seat, events)
        return events

    @staticmethod
    def discovering(state: CatacombsState) -> bool:
        """rules.md#paused-discovery: a discovered tile waits; the map holds still meanwhile."""
        return bool(state.drawn.cards)

    def free_cells(self, state: CatacombsState, seat: int) -> list[tuple[int, int]]:
        """rules.md#no-space: empty cells sharing a full edge with the seat's tile."""
        graph = self.graph(state)
        i = graph.tile_of[state.players[seat].room]
        at = state.tiles[i]
        out = []
        for x, y in cells_of(self.cat.tiles[at.tile], at):
            for dx, dy in board.STEP.values():
                cell = (x + dx, y + dy)
                if cell not in graph.cells and cell not in out:
                    out.append(cell)
        return out

    @action(PlaceTile)
    def place_anywhere(self, state: CatacombsState, action: PlaceTile) -> list[Event]:
        """``place-tile``: the drawn tile where the seat chose (rules.md#discovery)."""
        seat = state.stack.pop().seat
        tile = state.drawn.draw()
        i = self.place(state, tile, action.x, action.y, action.turn)
        state.pool.new_tile = i
        events: list[Event] = [
            Discovered(seat=seat, tile=tile, place=i, x=action.x, y=action.y, turn=action.turn)
        ]
        self.arrival(state, i, events)
        return events

    # -- moving ------------------------------------------------------------------------

    def move(self, state: CatacombsState, action: Move) -> list[Event]:
        """rules.md#locks: a Lockpick on each lock not yet open."""
        events: list[Event] = []
        self.open_locks(state, state.stack[-1].seat, self.graph(state).locks[action.tunnel], events)
        return events + super().move(state, action)

    def open_locks(
        self, state: CatacombsState, seat: int, keys: Iterable[str], events: list[Event]
    ) -> None:
        """rules.md#locks: a Lockpick left on each of the locks ``keys`` not yet open."""
        for key in keys:
            if key not in state.picked:
                self.spend_lockpicks(state, seat, events, on=key)

    @fact(Fight)
    def defeated_monster(self, state: CatacombsState, action: Fight, events: list[Event]) -> None:
        """rules.md#conditions: a Dungeon Row monster defeated (the Goblin stays: not noted)."""
        if not self.cat.card[action.card].never_leaves:
            state.pool.done.append("defeated-row-monster")

    @fact(Move, Teleport)
    def portal_trip(
        self, state: CatacombsState, action: Move | Teleport, events: list[Event]
    ) -> None:
        """rules.md#conditions: a trip through two Portals."""
        if action.tunnel in self.graph(state).trips:
            state.pool.done.append("used-portal")

    def taken_as_action(self, tid: str) -> bool:
        """rules.md#take-when: every token of a room is taken as a room action, none on entry."""
        return True

    def enter(self, state: CatacombsState, seat: int, room: int, events: list[Event]) -> None:
        """rules.md#reward-rooms: a reward room's reward, once per seat per turn."""
        super().enter(state, seat, room, events)
        p = state.players[seat]
        f = self.graph(state).features[room]
        if p.status != "in" or f.reward is None or room in state.pool.rewarded:
            return
        state.pool.rewarded.append(room)
        if f.reward == "minor":
            if state.minors.cards:
                self.found(state, seat, state.minors.draw(), events)
        elif f.reward == "idol":
            zone = state.rooms[room]
            if zone.cards:
                self.found(state, seat, zone.draw(), events)
        elif f.reward == "gold":
            p.gold += f.reward_n
            state.pool.gold_gained += f.reward_n
        else:
            self.heal(state, seat, f.reward_n, events)

    # -- room actions --------------------------------------------------------------------

    @action(PickLock)
    def pick_lock(self, state: CatacombsState, action: PickLock) -> list[Event]:
        """rules.md#chest, #library, #prison: a Lockpick covers the room for good."""
        seat = state.stack[-1].seat
        p = state.players[seat]
        room = p.room
        f = self.graph(state).features[room]
        events: list[Event] = []
        self.spend_lockpicks(state, seat, events, on=f"room {room}")
        if f.chest:
            self.found(state, seat, state.majors.draw(), events)
        elif f.library:
            zone = self.reserve_pile(state, "secret-tome")
            card = zone.draw()
            p.discard.add(card)
            events.append(Acquired(seat=seat, card=card, how="gain"))
        else:
            for _ in range(min(2, len(state.prisoners))):
                self.found(state, seat, state.prisoners.draw(), events)
        return events

    def replacement(self, state: CatacombsState, events: list[Event]) -> str | None:
        """rules.md#empty-replace: with ``wait``, a Row card replaced from an empty Dungeon
        Deck leaves its slot empty; the game ends at the refill, after the turn."""
        if not state.dungeon.cards and self.options.empty_replace == "wait":
            return None
        return super().replacement(state, events)

    @action(Mark)
    def mark(self, state: CatacombsState, action: Any) -> list[Event]:
        """rules.md#wayshrine: a cube on the shrine, gold for every shrine marked."""
        seat = state.stack[-1].seat
        events: list[Event] = []
        self.mark_shrine(state, seat, state.players[seat].room, events)
        return events

    def mark_shrine(self, state: CatacombsState, seat: int, room: int, events: list[Event]) -> None:
        p = state.players[seat]
        p.supply -= 1
        state.marks[seat].append(room)
        gold = len(state.marks[seat])
        p.gold += gold
        state.pool.gold_gained += gold
        events.append(Marked(seat=seat, room=room, gold=gold))

    def buy(self, state: CatacombsState, action: Any) -> list[Event]:
        """rules.md#market: a bought item's ``take`` effects happen (Blood Amulet, Kit)."""
        events = super().buy(state, action)
        take = self.cat.token[cast(Bought, events[0]).token].take
        if take:  # what the purchase sets off settles before the item's own effects
            self.proceed(state, events)
            state.pool.queue.extend(self.pending(take, None))
        return events

    def use_device(self, state: CatacombsState, action: UseDevice) -> list[Event]:
        """rules.md#device: gold and Lockpicks besides the Skill."""
        card = self.cat.card[action.card]
        seat = state.stack[-1].seat
        state.players[seat].gold -= card.use_gold
        self.spend_lockpicks(state, seat, None, card.use_lockpick)
        return super().use_device(state, action)

    # -- the end of a turn and the dragon ------------------------------------------------

    def next_turn(self, state: CatacombsState, events: list[Event]) -> None:
        """rules.md#rotation, #ghost-ward: decisions the end of a turn asked for (Sudden
        Movement arriving at the refill, a ward card against a Ghost) are answered before the
        next seat plays."""
        super().next_turn(state, events)
        if state.turns.over:
            state.stack.clear()
        else:  # the new turn under what the seats decide
            state.stack.insert(0, state.stack.pop())

    def evaluate(self, state: CatacombsState, seat: int) -> float:
        from meeple.plugins.clank_catacombs.evaluate import evaluate  # it builds on the rules

        return evaluate(self, state, seat)

    def left_dungeon(self, state: CatacombsState, seat: int) -> None:
        """rules.md#left-seats: a seat that left keeps its turns (the dragon's)."""

    def left_seat_turn(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """rules.md#left-seats: a left seat's turn is a fixed dragon draw."""
        events.append(DragonTurn(seat=seat))
        self.draw_cubes(state, events, self.cat.tables.left_draw[str(state.seats)])

    def draw_cubes(self, state: CatacombsState, events: list[Event], n: int) -> None:
        """rules.md#ghosts: Ghosts go into the bag with the rest and come back after; a seat
        holding a ward card decides on it once the cubes are drawn."""
        bag = state.bag
        bag.add(GHOST, state.ghost_clank)
        state.ghost_clank = 0
        super().draw_cubes(state, events, n)
        total = self.cat.tables.ghost_cubes
        state.ghost_clank = total - state.ghosts - bag.cubes.get(GHOST, 0)
        asked = {f.seat for f in state.stack if self.ward_offer(f)}
        waiting = [s for s in range(state.seats) if state.ghost_hits[s] and s not in asked]
        for seat in reversed(self.from_current(state, waiting)):  # the first seat's on top
            self.next_ward(state, seat, events)

    def hit(self, state: CatacombsState, cube: str, hurt: list[int]) -> None:
        """rules.md#ghosts: a Ghost hurts every seat in; a seat holding a ward card decides
        after the draw."""
        if cube != GHOST:
            super().hit(state, cube, hurt)
            return
        for seat in range(state.seats):
            if self.ward(state, seat) is not None and self.ghost_can_hurt(state, seat):
                state.ghost_hits[seat] += 1
            elif self.ghost_damage(state, seat):
                hurt.append(seat)

    def ghost_can_hurt(self, state: CatacombsState, seat: int) -> bool:
        """rules.md#ghost-damage: a seat in, its meter not full, a cube to show the damage with:
        from its supply or, with the supply empty, a black cube set aside."""
        p = state.players[seat]
        return (
            p.status == "in"
            and p.damage < self.cat.health
            and bool(p.supply or self.spare_black(state))
        )

    def ghost_damage(self, state: CatacombsState, seat: int) -> bool:
        """One Ghost's damage to the seat, if it can take it (:meth:`ghost_can_hurt`)."""
        if not self.ghost_can_hurt(state, seat):
            return False
        p = state.players[seat]
        if p.supply:
            p.supply -= 1
        else:
            state.black_damage[seat] += 1
        p.damage += 1
        return True

    @staticmethod
    def spare_black(state: CatacombsState) -> int:
        """Black cubes set aside in the bank, not standing in for damage on a meter."""
        return state.dragon_aside - sum(state.black_damage)

    def heal(self, state: CatacombsState, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#ghosts: healing takes the black cubes off the meter first, back to the bank."""
        black = min(n, state.black_damage[seat])
        super().heal(state, seat, n, events)
        state.black_damage[seat] -= black
        state.players[seat].supply -= black

    def return_dragon_cubes(self, state: CatacombsState, n: int) -> None:
        """rules.md#ghosts: black cubes on a meter stay there."""
        super().return_dragon_cubes(state, min(n, self.spare_black(state)))

    def ward(self, state: CatacombsState, seat: int) -> tuple[str, cx.GhostWard] | None:
        """rules.md#ghost-ward: the first card in the seat's hand that may ward off a Ghost."""
        defs = self.cat.card
        for c in state.players[seat].hand.cards:
            ward = next((e for e in defs[c].reaction if isinstance(e, cx.GhostWard)), None)
            if ward is not None:
                return c, ward
        return None

    @staticmethod
    def ward_offer(frame: Any) -> bool:
        return type(frame) is Offer and isinstance(frame.effect, cx.GhostWard)

    def next_ward(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """rules.md#ghost-ward: the seat's next Ghost waiting on a ward card: offered while it
        holds one, else taken."""
        if not state.ghost_hits[seat]:
            return
        ward = self.ward(state, seat)
        if ward is not None and self.ghost_can_hurt(state, seat):
            # the card stays unnamed: the hand is hidden until it is discarded
            state.stack.append(Offer(seat=seat, effect=ward[1]))
            return
        while state.ghost_hits[seat]:
            self.ghost_hit(state, seat, events)

    def ghost_hit(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """A waiting Ghost's damage taken, and the knock-out a full meter brings."""
        state.ghost_hits[seat] -= 1
        if self.ghost_damage(state, seat):
            events.append(Damaged(seat=seat, n=1))
            if state.players[seat].damage >= self.cat.health:
                self.knock_out(state, seat, events)

    def bag_colours(self, seats: int) -> set[str]:
        return {*super().bag_colours(seats), GHOST}

    def cubes_placed(self, state: CatacombsState, seat: int) -> int:
        """Wayshrine marks are the seat's cubes; black cubes on its meter are not."""
        return len(state.marks[seat]) - state.black_damage[seat]

    # -- conditions and points -------------------------------------------------------------

    # rules.md#conditions: the conditions Catacombs adds. Counts of the turn include what
    # happened before the card was played; places are where the seat stands when asked.

    @condition("made-2-clank")
    def made_2_clank(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.added >= 2

    @condition("gained-3-gold")
    def gained_3_gold(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.gold_gained >= 3

    @condition("skill-6")
    def skill_6(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return state.pool.skill_gained >= 6

    @condition("defeated-row-monster", "used-portal")
    def did(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return cond in state.pool.done

    @condition("in-crystal-cave", "in-market", "in-wayshrine")
    def stands_in(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        graph = self.graph(state)
        rooms: dict[str, Collection[int]] = {
            "in-crystal-cave": graph.caves,
            "in-market": graph.markets,
            "in-wayshrine": graph.wayshrines,
        }
        return state.players[seat].room in rooms[cond]

    @condition("on-haunted-tile")
    def on_haunted(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        graph = self.graph(state)
        return graph.tile_of[state.players[seat].room] in graph.haunted

    @condition("freed-3-prisoners")
    def freed_3(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        return self.holds(state.players[seat], "prisoner") >= 3

    @condition("monkey-idol")
    def holds_idol(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        """rules.md#tokens: the Golden Monkey Bot counts as a Monkey Idol."""
        return self.holds(state.players[seat], "idol") > 0

    @condition("secret-tome-in-play-or-discard")
    def tome_out(self, state: CatacombsState, seat: int, cond: str, card: str | None) -> bool:
        p = state.players[seat]
        defs = self.cat.card
        return any(defs[c].id == "secret-tome" for c in (*p.play.cards, *p.discard.cards))

    # rules.md#scoring: the points rules Catacombs adds.

    @points("artifact-or-idol")
    def per_artifact_or_idol(self, p: Player, owned: list[str], bonus: Any) -> int:
        return self.holds(p, "artifact") + self.holds(p, "idol")

    @points("freed-3-prisoners")
    def if_freed_3(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.holds(p, "prisoner") >= 3)

    @points("crown-and-gem")
    def if_crown_and_gem(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.if_crown(p, owned, bonus) and any(self.cat.card[c].gem for c in owned))

    # rules.md#prisoners-points: the points rules of the Prisoners.

    @points("crown")
    def if_crown(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(any(self.cat.token[t].id == "crown" for t in p.held.cards))

    @points("monkey-idol")
    def if_idol(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.holds(p, "idol") > 0)

    @points("prisoner")
    def per_prisoner(self, p: Player, owned: list[str], bonus: Any) -> int:
        return self.holds(p, "prisoner")

    @points("two-secret-tomes")
    def if_two_tomes(self, p: Player, owned: list[str], bonus: Any) -> int:
        return int(self.per_secret_tome(p, owned, bonus) >= 2)

    def tally(self, state: CatacombsState, seat: int) -> dict[str, int]:
        """rules.md#scoring: the tokens' own points rules count with the tokens."""
        parts = super().tally(state, seat)
        p = state.players[seat]
        owned = [*p.deck.cards, *p.hand.cards, *p.discard.cards, *p.play.cards]
        tokens = self.cat.tokens
        for t in p.held.cards:
            bonus = tokens[t].bonus
            if bonus is None:
                continue
            if isinstance(bonus, PointsPer) and bonus.per == content.MARKED_WAYSHRINE:
                n = len(state.marks[seat])  # the marks are the map's, not the player's
            else:
                n = self.bonus_count(p, owned, bonus)
            parts["tokens"] += bonus.points * n
        return parts

    # -- the effects Catacombs adds ------------------------------------------------------------

    @effect(cx.GhostWard)
    def nothing(self, *_: Any) -> None:
        """A reaction does nothing when played (it acts from the hand: :meth:`ward`)."""

    @effect(cx.TakeLockpicks)
    def take_lockpicks(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.TakeLockpicks,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#lockpick-supply: from the bank; when it runs dry, the Lockpicks lying on
        the map stand in (what they opened stays open: ``picked`` records it)."""
        p = state.players[seat]
        n = min(e.n, len(state.bank) + len(state.picks))
        for _ in range(n):
            p.held.add((state.bank if state.bank.cards else state.picks).draw())
        if n:
            events.append(Lockpicks(seat=seat, n=n))

    @effect(cx.AddGhost)
    def add_ghost(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.AddGhost,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#tokens: the Haunted Prisoner's Ghost."""
        self.haunt(state, events)

    @effect(cx.PayLockpicks)
    def offer_lockpicks(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.PayLockpicks,
        card: str | None,
        events: list[Event],
    ) -> None:
        """Offered only to a seat holding the Lockpicks to pay."""
        if len(self.lockpicks(state.players[seat])) >= e.n:
            state.stack.append(Offer(seat=seat, effect=e, card=card))

    def accepted(self, state: CatacombsState, frame: Offer[Any], events: list[Event]) -> None:
        e = frame.effect
        seat = frame.seat
        if isinstance(e, cx.GhostWard):  # rules.md#ghost-ward: discard, draw, no damage
            ward = self.ward(state, seat)
            if ward is None:  # no ward card left in hand (a hand no other seat sees): it hurts
                self.next_ward(state, seat, events)
                return None
            card, e = ward
            p = state.players[seat]
            p.hand.remove(card)
            p.discard.add(card)
            events.append(Discarded(seat=seat, card=card))
            self.draw(state, seat, e.draw, events)
            state.ghost_hits[seat] -= 1
            self.next_ward(state, seat, events)
            return None
        if not isinstance(e, cx.PayLockpicks):
            return super().accepted(state, frame, events)
        self.spend_lockpicks(state, seat, events, e.n)
        state.pool.queue[:0] = self.pending(e.then, frame.card)

    @effect(cx.MarketOfferHere)
    def market_offer_here(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.MarketOfferHere,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#offers: the offer holds only if the seat stands in a Market room now."""
        if state.players[seat].room in self.graph(state).markets:
            self.set_turn_offer(state, e.price, False)

    @effect(cx.FreePrisoners)
    def free_prisoners(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.FreePrisoners,
        card: str | None,
        events: list[Event],
    ) -> None:
        for _ in range(min(e.n, len(state.prisoners))):
            self.found(state, seat, state.prisoners.draw(), events)

    @effect(cx.TeleportTo)
    def teleport_to_effect(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.TeleportTo,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#teleport: ``teleport-to`` offers the rooms it names."""
        if self.discovering(state):
            return
        graph = self.graph(state)
        p = state.players[seat]
        here = graph.tile_of[p.room]
        if e.to == "wayshrine":
            rooms = graph.wayshrines if p.room in graph.wayshrines else []
        elif e.to == "haunted-tile":
            rooms = [
                r
                for r in graph.order
                if graph.tile_of[r] in graph.haunted and graph.tile_of[r] != here
            ]
        elif e.to == "depths-seat":
            rooms = [
                q.room
                for s, q in enumerate(state.players)
                if s != seat and q.status == "in" and q.room in graph.depths
            ]
        else:
            new = state.pool.new_tile
            rooms = [r for r in graph.order if new is not None and graph.tile_of[r] == new]
        art = self.holds(p, "artifact")
        rooms = sorted({r for r in rooms if r != p.room and (r != graph.start or art)})
        if rooms:
            state.stack.append(
                ChooseRoom(seat=seat, rooms=rooms, why="teleport", optional=e.optional)
            )

    @effect(cx.MarkWayshrine)
    def mark_afar(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.MarkWayshrine,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#mark-afar: any Wayshrine the seat has not marked."""
        rooms = [r for r in self.graph(state).wayshrines if r not in state.marks[seat]]
        if rooms and state.players[seat].supply:
            state.stack.append(ChooseRoom(seat=seat, rooms=rooms, why="mark"))

    @action(GoTo)
    def go_to(self, state: CatacombsState, action: GoTo) -> list[Event]:
        frame = state.stack.pop()
        assert isinstance(frame, ChooseRoom)
        seat = frame.seat
        events: list[Event] = []
        if frame.why == "mark":
            self.mark_shrine(state, seat, action.room, events)
        else:
            events.append(Moved(seat=seat, room=action.room, teleport=True))
            self.enter(state, seat, action.room, events)
        return events

    @effect(cx.PlaceTile)
    def place_tile(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.PlaceTile,
        card: str | None,
        events: list[Event],
    ) -> None:
        """``place-tile`` (rules.md#no-space): only with a tile and an empty cell beside."""
        if state.tile_stack.cards and not self.discovering(state) and self.free_cells(state, seat):
            state.drawn.add(state.tile_stack.draw())
            state.stack.append(PlaceAnywhere(seat=seat, tile=state.drawn.cards[-1]))

    # -- rotation -----------------------------------------------------------------------------

    @effect(cx.RotateTiles)
    def rotate_tiles(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.RotateTiles,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#rotation, #rotation-rules: square tiles with pawns turn. To a new side, each
        is chosen by the seat standing there, in turn order from the seat to play."""
        if self.discovering(state):
            return
        graph = self.graph(state)
        pawns: dict[int, list[int]] = {}
        """The seats on each tile, in turn order from the seat to play."""
        for other in self.from_current(state, list(range(state.seats))):
            p = state.players[other]
            if p.status == "in":
                pawns.setdefault(graph.tile_of[p.room], []).append(other)
        places = [
            i for i, seats in pawns.items() if i and (len(seats) == 1 or e.tiles == "any-pawn")
        ]
        if e.turn == "any":  # the first seat's decision on top
            for i in reversed(places):
                state.stack.append(Spin(seat=pawns[i][0], places=[i]))
            return
        owner = self.owners(state.tiles)
        for i in sorted(places):
            at = state.tiles[i]
            tried = [*state.tiles]
            tried[i] = msgspec.structs.replace(at, turn=(at.turn + 2) % 4)
            if self.link_ok(owner, tried, i) or not self.link_ok(owner, state.tiles, i):
                state.tiles[i] = tried[i]
                events.append(Turned(seat=seat, place=i, turn=tried[i].turn))

    def spins(self, state: CatacombsState, i: int) -> list[int]:
        """The other rotations of placement ``i``, counted clockwise from its own; those
        keeping a tunnel out if any does (rules.md#rotation-rules)."""
        at = state.tiles[i]
        others = [(at.turn + k) % 4 for k in (1, 2, 3)]
        owner = self.owners(state.tiles)
        keep = []
        for t in others:
            tried = [*state.tiles]
            tried[i] = msgspec.structs.replace(at, turn=t)
            if self.link_ok(owner, tried, i):
                keep.append(t)
        return keep or others

    @action(TurnTile)
    def turn_tile(self, state: CatacombsState, action: TurnTile) -> list[Event]:
        frame = state.stack[-1]
        assert isinstance(frame, Spin)
        i = frame.places.pop(0)
        state.tiles[i] = msgspec.structs.replace(state.tiles[i], turn=action.turn)
        if not frame.places:
            state.stack.pop()
        events: list[Event] = [Turned(seat=frame.seat, place=i, turn=action.turn)]
        return events

    # -- what the core needs to know -----------------------------------------------------------

    def validate_state(self, state: CatacombsState) -> list[str]:
        return [*super().validate_state(state), *checks.check(self, state)]

    def own_decision(self, frame: Any) -> bool:
        """Each seat takes its tile's new side (rules.md#rotation) and a ward card against a
        Ghost (rules.md#ghost-ward) for itself. Asked as a turn ends, they stand even if the
        attack that follows knocks the seat to play out."""
        kind = type(frame)
        return kind is Spin or (kind is Offer and isinstance(frame.effect, cx.GhostWard))

    def render_table(self, view: CatacombsState, seat: int | None) -> Any:
        return present.render_table(self, view, seat)

    def render_private(self, view: CatacombsState, seat: int) -> Any:
        return present.render_private(self, view, seat)

    def legend(self) -> Sequence[tuple[Any, str]]:
        return drawing.LEGEND

    def room_name(self, state: CatacombsState, room: int) -> str:
        return present.room_name(self, state, room)

    def describe_action(self, state: CatacombsState, action: Any) -> str:
        return present.describe_action(action, self, state)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        return present.describe_event(event, self, viewer)


__all__ = ["COLOURS", "CatacombsGame", "TileCatalog"]
