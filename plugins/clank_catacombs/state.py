"""Clank! Catacombs data: options, the state's additions, frames, actions and events.

The state extends the Clank! state with the dungeon that grows: the placed
tiles (tile id, cell, rotation) in placement order, the face-down tile
stack, the box, and the physical pieces Catacombs adds (Prisoners, the
artifact stack, the secret piles). Every piece lies in a zone, so the
core's every-piece-once check, views and leak test cover them. Ghost cubes
and Wayshrine marks are counters, like the seats' cubes, and so are
Lockpicks, which are not limited (rules.md#lockpick-supply), like gold.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from meeple.core.files import FilePath
from meeple.core.state import Action, Count, Event, Frame
from meeple.core.zones import Zone
from meeple.plugins.clank.packs.choose_some import PickSome
from meeple.plugins.clank.packs.free_row_card import FreeCard
from meeple.plugins.clank.packs.market_offer import Claim
from meeple.plugins.clank.packs.offer import Accept, Offer
from meeple.plugins.clank.state import (
    AMOUNT_MAX,
    Amount,
    ClankEvent,
    ClankFrames,
    EngineOptions,
    EngineState,
    Pool,
)
from meeple.plugins.clank_catacombs.effects import CatacombsEffect

Coord = Annotated[int, msgspec.Meta(ge=-AMOUNT_MAX, le=AMOUNT_MAX)]
"""A cell of the grid: the dungeon grows a tile at a time, far inside this range, so the
rules can always name the cells next to a placed tile."""


class CatacombsOptions(EngineOptions, frozen=True):
    """Clank! Catacombs setup options; seeds/clank-catacombs/rules.md#decisions explains each."""

    variant: Literal["majority"] = "majority"
    """The Catacombs tables have one reading."""
    empty_dungeon: Literal["end"] = "end"
    """rules.md#game-end: a row that cannot be refilled ends the game."""
    empty_bag: Literal["end"] = "end"
    """rules.md#game-end: an empty bag after an attack ends the game."""
    teleport_locks: Literal["ignore"] = "ignore"
    """rules.md#teleport: a teleport ignores locks."""
    start_side: Literal["random", "a", "b"] = "random"
    """Which side of the starting tile is up (rules.md#start-side)."""
    no_fit: Literal["place", "discard"] = "place"
    """A discovered tile no rotation of which the mover can use (rules.md#no-fit)."""
    empty_replace: Literal["end", "wait"] = "end"
    """A Row card replaced mid-turn while the Dungeon Deck is empty: the game ends at once
    (``end``) or at the turn's refill (``wait``) (rules.md#empty-replace)."""
    tiles: FilePath | None = None
    """Path of a JSON tile set to use instead of the built-in reconstruction."""


class Placed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A placed tile: its id, the cell of its top (cell 0), its quarter turns clockwise."""

    tile: str
    x: Coord
    y: Coord
    turn: Count = 0


# -- frames -------------------------------------------------------------------


class Discover(Frame, tag="discover"):
    """The mover revealed ``tile`` for the empty cell ``x``/``y`` beyond half ``half`` of
    placed tile ``place``, leaving room ``room``: it chooses a rotation (rules.md#discovery)."""

    tile: str
    x: Coord
    y: Coord
    room: Count
    place: Count
    half: Count
    teleport: bool = False


class PlaceAnywhere(Frame, tag="place-tile"):
    """``place-tile``: the drawn ``tile`` goes to an empty cell beside the seat's tile."""

    tile: str


class ChooseRoom(Frame, tag="choose-room"):
    """A room to teleport to or a Wayshrine to mark from afar."""

    rooms: list[Count]
    why: Literal["teleport", "mark"]
    optional: bool = False


class Spin(Frame, tag="spin"):
    """``rotate-tiles``: the next of ``places`` to turn to a rotation of the seat's choice
    (the seat standing on it, rules.md#rotation)."""

    places: list[Count]


CatacombsFrame = (
    ClankFrames[CatacombsEffect]
    | Discover
    | PlaceAnywhere
    | ChooseRoom
    | Offer[CatacombsEffect]
    | PickSome[CatacombsEffect]
    | FreeCard
    | Spin
)


# -- actions ------------------------------------------------------------------


class Explore(Action, tag="explore"):
    """Move (or teleport) along half ``half`` of placed tile ``place``, off the dungeon's edge."""

    place: int
    half: int
    teleport: bool = False


class Rotate(Action, tag="rotate"):
    """Place the discovered tile turned ``turn`` quarter turns; enter it, spending ``swords``."""

    turn: int
    swords: int = 0
    enter: bool = True


class PlaceTile(Action, tag="place"):
    x: int
    y: int
    turn: int


class GoTo(Action, tag="go-to"):
    room: int


class PickLock(Action, tag="pick-lock"):
    """Spend a Lockpick on this room's Chest, Library or Prison."""


class Mark(Action, tag="mark"):
    """Mark this room's Wayshrine with a cube from the supply."""


class TurnTile(Action, tag="turn-tile"):
    turn: int


CATACOMBS_ACTIONS = (Explore, Rotate, PlaceTile, GoTo, Accept, PickLock, Mark, Claim, TurnTile)
PICK_LOCK = PickLock()
MARK = Mark()


# -- events -------------------------------------------------------------------


class Discovered(Event, tag="discovered"):
    """A tile placed: ``place`` is its placement number."""

    tile: str
    place: int
    x: int
    y: int
    turn: int


class Opened(Event, tag="opened"):
    """A Lockpick left on a lock or a covered room (``where``: ``lock 3/e2``, ``room 7``)."""

    where: str


class Marked(Event, tag="marked"):
    room: int
    gold: int


class Ghosted(Event, tag="ghosted"):
    """A Ghost cube joined the Clank! area."""


class Lockpicks(Event, tag="lockpicks"):
    n: int


class Turned(Event, tag="turned"):
    place: int
    turn: int


class DragonTurn(Event, tag="dragon-turn"):
    """The turn of a seat that left: the dragon draws for it."""


CatacombsEvent = (
    ClankEvent | Discovered | Opened | Marked | Ghosted | Lockpicks | Turned | DragonTurn
)


# -- the state ----------------------------------------------------------------


class CatacombsPool(Pool[CatacombsEffect], kw_only=True):
    """The turn's pool with what Catacombs remembers for one turn."""

    rewarded: list[Count] = msgspec.field(default_factory=list)
    """Reward rooms whose reward the seat to play got this turn."""
    offer: Count | None = None
    """This turn's market offer price, if any (the ``market-offer`` pack's)."""
    offer_anywhere: bool = False
    new_tile: Count | None = None
    """The placement ``place-tile`` made this turn."""


class CatacombsState(
    EngineState[CatacombsFrame, CatacombsEffect], tag="clank-catacombs", kw_only=True
):
    """A Clank! Catacombs table. ``rooms`` holds a zone per room of the placed tiles, room
    ids counting up in placement order (the starting tile's rooms first)."""

    pool: CatacombsPool = msgspec.field(default_factory=CatacombsPool)
    tiles: list[Placed]
    placed: Zone
    """The placed tile ids, in placement order (as ``tiles``)."""
    drawn: Zone
    """The tile revealed for a placement being decided."""
    tile_stack: Zone
    tile_box: Zone
    artifacts: Zone
    majors: Zone
    minors: Zone
    prisoners: Zone
    idols: Zone
    """Monkey Idols waiting for the Monkey Shrine's tile."""
    lockpicks: list[Amount] = []
    """Per seat, the Lockpicks it holds. The bank's never run out (rules.md#lockpick-supply)."""
    picked: list[str] = []
    """Where a Lockpick was left: ``3/e2`` (edge half 2 of placement 3), ``3/i0`` (inner
    tunnel 0), ``room 7`` (a covered Chest, Library or Prison)."""
    ghosts: Amount = 0
    """Ghost cubes beside the Clank! area, not yet in play."""
    ghost_clank: Amount = 0
    """Ghost cubes in the Clank! area."""
    marks: list[list[Count]] = []
    """Per seat, the Wayshrine rooms it marked (one cube each, out of its supply)."""
    black_damage: list[Count] = []
    """Per seat, the set-aside black cubes on its meter: Ghost damage taken with an empty
    supply (rules.md#ghosts). ``dragon_aside`` still counts them."""
    ghost_hits: list[Count] = []
    """Per seat, drawn Ghosts whose damage waits on its choice of a ward card
    (rules.md#ghost-ward)."""
