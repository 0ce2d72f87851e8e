"""The schema of Clank! Catacombs tiles (``seeds/clank-catacombs/tiles.json``).

No public table of the tiles exists: the built-in set is a reconstruction
(its ``note`` says so), and a user may load their own set of the same schema.

Geometry. The dungeon is a grid of square cells. A square tile covers one
cell; the starting tile covers two (``cells: 2``: cell 0 on top, cell 1
below it), so a tile laid along its long side lines up with its top or its
bottom half. Each tile lists its rooms, the tunnels inside it, and its
*edge tunnels*: half-tunnels that leave a room through one side of one cell.
Two half-tunnels facing each other across a shared edge form one tunnel;
its icons are the sum of both halves (footprints on either half make it cost
two boots; each lock needs its own Lockpick). A half-tunnel facing an empty
cell is where the dungeon can be discovered.

Sides are ``n``, ``e``, ``s``, ``w`` with the tile unrotated; rotating a tile
a quarter turn clockwise turns ``n`` into ``e``, and so on. A side has one
opening in its middle or two (the real tiles show two tunnel ends per edge):
``pos`` 0 and 1 count them clockwise round the tile, so they stay put as the
tile turns, and across a shared edge opening 0 of one tile faces opening 1 of
the other (clockwise runs the other way along it).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
Slug = Annotated[str, msgspec.Meta(pattern="^[a-z0-9]+(-[a-z0-9]+)*$")]
Side = Literal["n", "e", "s", "w"]
Reward = Literal["minor", "idol", "gold", "heal"]


class TileRoom(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One room of a tile, named ``id`` within its tile (``a``, ``b``...)."""

    id: Slug
    cell: Count = 0
    crypt: bool = False
    """The start and escape room (on the starting tile)."""
    depths: bool | None = None
    """Override of the tile's depth (the starting tile's top half is in the depths)."""
    artifact: Annotated[int, msgspec.Meta(ge=0, le=2)] | None = None
    """An Artifact room with this many plus icons."""
    reward: Reward | None = None
    """Given on entering, once per turn: a minor secret, a Monkey Idol, gold or one healing."""
    reward_n: Count = 1
    crystal_cave: bool = False
    market: bool = False
    portal: bool = False
    wayshrine: bool = False
    chest: bool = False
    library: bool = False
    prison: bool = False
    monkey_shrine: bool = False


class Half(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A half-tunnel from room ``room`` out through side ``side`` of cell ``cell``, at
    opening ``pos``.

    ``arrow`` makes the tunnel one-way: ``out`` (away from this room) or ``in``.
    """

    room: Slug
    side: Side
    cell: Count = 0
    footprints: bool = False
    monsters: Count = 0
    lock: bool = False
    arrow: Literal["out", "in"] | None = None
    pos: Literal[0, 1] | None = None
    """Which of the side's two openings, counted clockwise; ``None``: its only one, in the
    middle. A middle opening faces only a middle one."""


class Inner(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A tunnel inside a tile between rooms ``a`` and ``b`` (one-way: from ``a`` to ``b``)."""

    a: Slug
    b: Slug
    footprints: bool = False
    monsters: Count = 0
    lock: bool = False
    one_way: bool = False


class Tile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One tile: its back, its rooms, its inner and edge tunnels."""

    id: Slug
    back: Literal["start", "lighter", "darker"]
    cells: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1
    haunted: bool = False
    rooms: list[TileRoom]
    inner: list[Inner] = []
    edges: list[Half] = []


class Tiles(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``seeds/clank-catacombs/tiles.json``: the starting tile's two sides and the square tiles."""

    note: str
    source: list[str]
    confidence: str
    tiles: list[Tile]
