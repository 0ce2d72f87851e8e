"""Clank! Catacombs rules: :class:`CatacombsGame`, the Clank! engine on a growing dungeon.

Everything Clank! and Catacombs share is the Clank! engine's
(:class:`~meeple.plugins.clank.rules.ClankEngine`); what differs is in Catacombs' parts, one
module per subject, each rule's docstring naming its section of
``seeds/clank-catacombs/rules.md``:

- :mod:`.dungeon`: the map of the placed tiles (cached by the placements), placing and turning
  tiles;
- :mod:`.discovery`: moves off the dungeon's edge, the tile drawn and its rotations;
- :mod:`.locks`: Lockpicks on locks, covered rooms and prices;
- :mod:`.rooms`: room actions, reward rooms, Wayshrines, the market and its offers;
- :mod:`.ghosts`: Ghosts and ward cards in the dragon's attacks, the turns of seats that left;
- :mod:`.scoring`: the conditions and points rules Catacombs registers, and the tally.

Their base, :class:`~.part.CatacombsPart`, is the engine with every effect pack. This module
assembles them into the game and declares what the core asks of it: set-up, the action
values, the views and how rooms are named.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

from meeple.core.rng import Rng, shuffle, stream
from meeple.core.zones import PUBLIC, SECRET, Zone
from meeple.plugins.clank.packs.market_offer import Claim
from meeple.plugins.clank.packs.offer import Accept
from meeple.plugins.clank.rules import ClankEncoding, ClankEngine
from meeple.plugins.clank.state import Turn
from meeple.plugins.clank_catacombs import checks, present
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.catalog import TileCatalog, catalog
from meeple.plugins.clank_catacombs.discovery import Discovery
from meeple.plugins.clank_catacombs.dungeon import Dungeon
from meeple.plugins.clank_catacombs.ghosts import Ghosts
from meeple.plugins.clank_catacombs.locks import Locks
from meeple.plugins.clank_catacombs.rooms import Rooms
from meeple.plugins.clank_catacombs.scoring import Scoring
from meeple.plugins.clank_catacombs.state import (
    CatacombsEvent,
    CatacombsOptions,
    CatacombsState,
    Discover,
    Explore,
    GoTo,
    Mark,
    PickLock,
    Placed,
    PlaceTile,
    Rotate,
    TurnTile,
)


class CatacombsEncoding(ClankEncoding[CatacombsState]):
    """Clank!'s actions, and Catacombs' tiles, for a reinforcement-learning environment."""

    game: CatacombsGame

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[object]]:
        """Clank!'s values, bounded by the tiles: a dungeon of every square tile and a
        starting side has at most their rooms and tunnels, and no cell more steps away from
        the starting tile (whose cells run south from (0, 0)) than it has square tiles."""
        tiles = self.game.cat.tiles.values()
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
            ("token", "room"): self._takes_named(rooms),
            ("x", "y"): cells,
        }


class CatacombsGame(Dungeon, Locks, Scoring, Ghosts, Discovery, Rooms):
    """Clank! Catacombs: the deck-building dungeon crawl whose dungeon grows tile by tile,
    on every effect pack.

    The parts whose hooks each decision calls and hand on to the engine's (``super()``:
    the turn's listing, the room's actions, the moves) come last: ``super()`` looks the
    method up in every class between, and the hot loop pays for each."""

    id = "clank-catacombs"
    title = "Clank! Catacombs"
    version = "4"
    options_type = CatacombsOptions
    state_type = CatacombsState
    action_type = (
        ClankEngine.action_type
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
    event_type = CatacombsEvent
    Effect = cx.CatacombsEffect
    presentation_type = present.CatacombsPresentation
    encoding_type = CatacombsEncoding
    # docs/search.md#the-ladder: 58.2% [53.8%, 62.4%] of 500 games against three heuristic
    # bots. Clank!'s paired search, its own from the first turn; written out, not derived from
    # Clank!'s, so that tuning one game leaves the other's measured settings as they are.
    bot_options = {
        "ismcts": {
            "iterations": "10",
            "rollout": "heuristic",
            "turn": "true",
            "guide": "heuristic",
            "paired": "true",
            "margin": "0.03",
        }
    }
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
    }
    tables_from = resources.files("meeple.seeds") / "clank-catacombs"
    variants = (
        {"start_side": "a"},
        {"start_side": "b"},
        {"start_side": "random", "no_fit": "discard"},
        {"start_side": "random", "empty_replace": "wait"},
    )
    options: CatacombsOptions
    cat: TileCatalog
    turn_frames = (Turn, Discover)

    def make_catalog(self) -> TileCatalog:
        return catalog(self._schema(), self.options)

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
        box = Zone(kind="box")
        fields = self._common_setup(seats, rng, 0, box)
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
            lockpicks=[cat.tables.lockpicks_each] * seats,
            ghosts=cat.tables.ghost_cubes,
            marks=[[] for _ in range(seats)],
            black_damage=[0] * seats,
            ghost_hits=[0] * seats,
        )
        self.arrival(state, 0, [])  # rules.md#start-artifacts
        self._begin(state)
        return state

    def cards(self, state: CatacombsState) -> Iterable[str]:
        pieces = list(self.cat.pieces(state.seats))
        return [*pieces, state.tiles[0].tile, *self.cat.square]

    # -- what the core needs to know -----------------------------------------------------------

    def evaluate(self, state: CatacombsState, seat: int) -> float:
        from meeple.plugins.clank_catacombs.evaluate import evaluate  # it builds on the rules

        return evaluate(self, state, seat)

    def validate_state(self, state: CatacombsState) -> list[str]:
        return [*super().validate_state(state), *checks.check(self, state)]

    def room_name(self, state: CatacombsState, room: int) -> str:
        """``room 12 (light-3:a)``: by the tile placed and its room."""
        return f"room {room} ({self.graph(state).names[room]})"


__all__ = ["CatacombsGame"]
