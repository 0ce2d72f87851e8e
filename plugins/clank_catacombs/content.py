"""Clank! Catacombs content tables: cards, tokens and tiles, validated when loaded.

The tables live in ``seeds/clank-catacombs/`` in the schema of Clank!
(:mod:`meeple.plugins.clank.content`, whose reading machinery this module
reuses) plus the tile schema (:mod:`meeple.plugins.clank_catacombs.tiles`).
The built-in tile set is a reconstruction (rules.md#tiles); a user may load
their own cards, tokens or tiles, checked the same way, every problem named
with its file and ``$.path``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal

from meeple.core.errors import ContentError
from meeple.plugins.clank.content import (
    CARD_PARTS,
    MAX_SEATS,
    Board,
    Cards,
    E,
    PointsIf,
    PointsPer,
    Schema,
    Tables,
    Token,
    TokenKind,
    Tokens,
    decode_table,
    read_table,
)
from meeple.plugins.clank.packs.may_top_deck import MayTopDeck
from meeple.plugins.clank.tables import check_cards_and_tokens, walk
from meeple.plugins.clank_catacombs.effects import GhostWard
from meeple.plugins.clank_catacombs.tiles import Tile, Tiles

MARKED_WAYSHRINE = "marked-wayshrine"
"""The points rule of the Wayshrines a seat marked (the Monk): the marks lie on the map,
so the game's tally counts them itself rather than through a registered rule."""
START_SIDES = ("start-a", "start-b")
LIGHTER = 6
DARKER = 22
PORTALS = 2
HAUNTED = 4
"""rulebook p. 9-11: 4 of the 22 darker (Depths) tiles are haunted."""
SIDES_OF_CELL = {0: {"n", "e", "w"}, 1: {"e", "s", "w"}}
"""The outer sides of the starting tile's cells (cell 0 on top of cell 1)."""

NO_BOARD = Board(
    name="Clank! Catacombs",
    source=[],
    confidence="",
    note="no fixed board: the dungeon grows from tiles (rules.md#discovery)",
    rooms=[],
    tunnels=[],
)


class CatacombsToken(Token[E], Generic[E], frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Clank! token, and what the Catacombs Token Reference Guide asks beyond it
    (rules.md#tokens)."""

    bonus: PointsPer | PointsIf | None = None
    """Points decided at the end beyond ``points`` (Mayor, Monk, Warrior...): a points rule
    the game registers, as a card's ``bonus``."""
    counts_as: list[TokenKind] | None = None
    """The kinds it counts as for every rule (the Golden Monkey Bot: a Prisoner and a Monkey
    Idol; the Discount Coupon: none); by default its own ``kind``, the pile it comes from."""
    where: Literal["market", "wayshrine"] | None = None
    """Where its ``use`` may be spent (the Discount Coupon in a Market, the Puzzle Box at a
    Wayshrine)."""
    against_arrows: bool = False
    """Its holder may walk one-way tunnels against the arrow (the Catacombs Map)."""


class CatacombsTokens(Tokens[E], Generic[E], frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``seeds/clank-catacombs/tokens.json``: the Clank! token table of Catacombs tokens."""

    tokens: Sequence[CatacombsToken[E]]


@dataclass(frozen=True)
class CatacombsTables(Tables):
    """The Clank! tables (``board`` empty: see :data:`NO_BOARD`) and the tiles.

    ``tile`` looks a tile up by id. Shared through a cache: never mutate.
    """

    tiles: Tiles = field(kw_only=True)
    tile: dict[str, Tile] = field(init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "tile", {t.id: t for t in self.tiles.tiles})


@functools.lru_cache(maxsize=8)
def read_tables(
    schema: Schema, cards: str | None = None, tokens: str | None = None, tiles: str | None = None
) -> CatacombsTables:
    """The checked tables of the game whose ``schema`` is given: built-in ones, or a user's
    files where a path is given.

    Any problem raises :class:`ContentError` naming the file and the ``$.path``,
    all problems at once.
    """
    found = {
        name: read_table(path, f"{name}.json", what, schema)
        for name, path, what in (
            ("cards", cards, "card table"),
            ("tokens", tokens, "token table"),
            ("tiles", tiles, "tile set"),
        )
    }
    files = {name: at for name, (_, at) in found.items()}
    tables = CatacombsTables(
        decode_table(found["cards"][0], files["cards"], schema.over(Cards)),
        decode_table(found["tokens"][0], files["tokens"], schema.over(CatacombsTokens)),
        NO_BOARD,
        "majority",
        files,
        tiles=decode_table(found["tiles"][0], files["tiles"], Tiles),
    )
    artifacts = sum(t.count for t in tables.tokens.tokens if t.kind == "artifact")
    problems = [
        *check_cards_and_tokens(tables, schema, countdown=False),
        *_check_catacombs(tables, schema),
        *check_tiles(tables.tiles, files["tiles"], artifacts),
    ]
    if problems:
        raise ContentError(f"{schema.game} content is inconsistent:\n  " + "\n  ".join(problems))
    return tables


def _check_catacombs(t: CatacombsTables, schema: Schema) -> list[str]:
    """What Catacombs asks of cards and tokens beyond the Clank! checks."""
    problems = []
    at = t.files["cards"]
    for section in ("dungeon", "reserve", "starter"):
        for i, c in enumerate(getattr(t.cards, section)):
            path = f"{at}: $.{section}[{i}]"
            if (c.use_gold or c.use_lockpick) and c.kind != "device":
                problems.append(f"{path}: use_gold and use_lockpick are prices of a device")
            for part in CARD_PARTS:
                for e in walk(getattr(c, part)):
                    if isinstance(e, GhostWard) != (part == "reaction"):
                        problems.append(f"{path}.{part}: 'ghost-ward' is the only reaction")
                    if isinstance(e, MayTopDeck) and part != "acquire":
                        problems.append(f"{path}.{part}: 'may-top-deck' acts on acquire only")
    at = t.files["tokens"]
    tk = t.tokens
    counts: Counter[str] = Counter()
    for token in tk.tokens:
        counts[token.kind] += token.count
    for i, token in enumerate(tk.tokens):
        bonus = token.bonus if isinstance(token, CatacombsToken) else None
        rule = bonus.per if isinstance(bonus, PointsPer) else bonus.cond if bonus else None
        if rule is not None and rule not in schema.points | {MARKED_WAYSHRINE}:
            problems.append(
                f"{at}: $.tokens[{i}].bonus: points rule {rule!r} is not part of this game"
            )
    if counts["prisoner"] < 1:
        problems.append(f"{at}: $.tokens: no prisoner tokens; the Prisons free them")
    if tk.ghost_cubes < 1:
        problems.append(f"{at}: $.ghost_cubes: give the number of Ghost cubes (5)")
    missing = [str(n) for n in range(2, MAX_SEATS + 1) if str(n) not in tk.left_draw]
    if missing:
        problems.append(f"{at}: $.left_draw: no entry for {', '.join(missing)} seats")
    return problems


def check_tiles(tiles: Tiles, where: str = "tiles", artifacts: int = 7) -> list[str]:
    """Everything that makes a tile set unplayable, one message per problem.

    ``where`` names the file in messages; ``artifacts``: how many artifact rooms the
    square tiles need at least, so every artifact can be placed (rules.md#tiles).
    """
    problems = []
    backs: Counter[str] = Counter(t.back for t in tiles.tiles)
    want = {"start": len(START_SIDES), "lighter": LIGHTER, "darker": DARKER}
    for back, n in want.items():
        if backs[back] != n:
            problems.append(f"{where}: $.tiles: {backs[back]} tiles with back {back!r}; give {n}")
    starts = sorted(t.id for t in tiles.tiles if t.back == "start")
    if backs["start"] == len(START_SIDES) and starts != sorted(START_SIDES):
        problems.append(
            f"{where}: $.tiles: the starting tile's sides are named {starts}; "
            f"name them {' and '.join(START_SIDES)}"
        )
    seen: set[str] = set()
    for i, tile in enumerate(tiles.tiles):
        path = f"{where}: $.tiles[{i}]"
        if tile.id in seen:
            problems.append(f"{path}.id: {tile.id!r} is used by another tile; ids are unique")
        seen.add(tile.id)
        problems += _check_tile(tile, path)
    square = [r for t in tiles.tiles if t.back != "start" for r in t.rooms]
    rooms = sum(r.artifact is not None for r in square)
    if rooms < artifacts:
        problems.append(
            f"{where}: $.tiles: {rooms} artifact rooms on the square tiles; give at least "
            f"{artifacts}, one per artifact"
        )
    haunted = [t.back for t in tiles.tiles if t.haunted]
    if haunted != ["darker"] * HAUNTED:
        problems.append(
            f"{where}: $.tiles: {len(haunted)} haunted tiles; give {HAUNTED}, all darker"
        )
    portals = sum(r.portal for r in square)
    if portals < PORTALS:
        problems.append(f"{where}: $.tiles: {portals} portals; give at least {PORTALS}")
    return problems


def _check_tile(tile: Tile, path: str) -> list[str]:
    """One tile: its shape, its rooms, and every tunnel naming a room and a side it has."""
    problems = []
    start = tile.back == "start"
    if tile.cells != (2 if start else 1):
        problems.append(f"{path}.cells: the starting tile has 2 cells, a square tile 1")
    cell_of: dict[str, int] = {}
    for k, room in enumerate(tile.rooms):
        at = f"{path}.rooms[{k}]"
        if room.id in cell_of:
            problems.append(f"{at}.id: {room.id!r} is used twice on tile {tile.id!r}")
        cell_of[room.id] = room.cell
        if room.cell >= tile.cells:
            problems.append(f"{at}.cell: {room.cell}; tile {tile.id!r} has {tile.cells} cell(s)")
        if room.crypt and not (start and room.cell == 1):
            problems.append(f"{at}.crypt: the Crypt lies in the starting tile's bottom cell (1)")
        if room.depths is not None and not start:
            problems.append(f"{at}.depths: only the starting tile's rooms override the depths")
        if (room.reward == "idol") != room.monkey_shrine:
            problems.append(f"{at}: the Monkey Shrine, and only it, rewards a Monkey Idol")
        if room.reward_n != 1 and room.reward != "gold":
            problems.append(f"{at}.reward_n: only a gold reward gives more than one")
    if start and sum(r.crypt for r in tile.rooms) != 1:
        problems.append(f"{path}.rooms: each side of the starting tile has exactly one Crypt")
    if not tile.rooms:
        problems.append(f"{path}.rooms: a tile has at least one room")
    links: dict[str, set[str]] = {r: set() for r in cell_of}
    for k, inner in enumerate(tile.inner):
        at = f"{path}.inner[{k}]"
        for end in ("a", "b"):
            if getattr(inner, end) not in cell_of:
                problems.append(f"{at}.{end}: no room {getattr(inner, end)!r} on this tile")
        if inner.a == inner.b:
            problems.append(f"{at}: a tunnel joins two different rooms")
        links.setdefault(inner.a, set()).add(inner.b)
        links.setdefault(inner.b, set()).add(inner.a)
    used: set[tuple[int, str, int]] = set()
    for k, half in enumerate(tile.edges):
        at = f"{path}.edges[{k}]"
        if half.room not in cell_of:
            problems.append(f"{at}.room: no room {half.room!r} on this tile")
        elif half.cell != cell_of[half.room]:
            problems.append(f"{at}.cell: room {half.room!r} lies in cell {cell_of[half.room]}")
        if half.cell >= tile.cells:
            problems.append(f"{at}.cell: {half.cell}; tile {tile.id!r} has {tile.cells} cell(s)")
        elif start and half.side not in SIDES_OF_CELL[half.cell]:
            problems.append(f"{at}.side: side {half.side!r} of cell {half.cell} is inside the tile")
        # a middle opening fills its side; openings 0 and 1 share one
        taken = {(half.cell, half.side, n) for n in ((0, 1) if half.pos is None else (half.pos,))}
        if taken & used:
            problems.append(
                f"{at}: a second tunnel through side {half.side!r} at the same opening; one "
                "per opening: the middle, or openings 0 and 1"
            )
        used |= taken
    if len({h.side for h in tile.edges}) < 2:
        problems.append(f"{path}.edges: tunnels leave through fewer than two sides")
    # Every room can be walked to from the tile's edges (tunnels inside taken both ways).
    reached = {h.room for h in tile.edges}
    todo = list(reached)
    while todo:
        for nxt in links.get(todo.pop(), ()):
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    cut = sorted(set(cell_of) - reached)
    if cut:
        problems.append(f"{path}.rooms: {cut} joined to no edge tunnel, even through other rooms")
    return problems
