"""Clank! content tables: cards, tokens and boards, validated when loaded.

The tables live in ``seeds/clank/`` as JSON in meeple's own schema (below),
turned from public transcriptions; each file keeps its ``source`` and
``confidence``. They are decoded strictly by msgspec (a mistake is reported
with its ``$.path``), checked for consistency, and cached. The state holds
ids only; everything printed on a card or a board is looked up here.

Where the transcriptions disagree, a card carries ``variants``: per source,
the fields that source reads differently. The ``variant`` option picks one
source for every disputed field (``majority``, the default, uses the fields
as written).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from meeple.plugins.clank.effects import AnyEffect

Count = Annotated[int, msgspec.Meta(ge=0, le=999)]
Slug = Annotated[str, msgspec.Meta(pattern="^[a-z0-9]+(-[a-z0-9]+)*$")]

CardKind = Literal["starter", "item", "device", "monster"]
"""``starter``: the starting deck; ``item``: acquired into the deck (blue and
yellow banners); ``device``: used on acquire, then to the dungeon discard
(purple); ``monster``: fought with swords (red)."""

Where = Literal["depths", "crystal-cave"]


class Points(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind"):
    """Points a card is worth beyond its printed value, decided at the end."""


class PointsPer(Points, frozen=True, tag="per"):
    """``points`` for every ``per`` the seat has (``per``: ``5-gold``, ``secret-tome``)."""

    points: Count
    per: Literal["5-gold", "secret-tome"]


class PointsIf(Points, frozen=True, tag="if"):
    """``points`` if the seat holds a Mastery token, or at least two of ``of``."""

    points: Count
    cond: Literal["mastery", "two-of"]
    of: list[Slug] = []


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One kind of card, ``count`` copies of it."""

    id: Slug
    name: str
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]
    kind: CardKind
    cost: Count = 0
    """Skill to acquire or use, or swords to defeat a monster."""
    points: Count = 0
    bonus: PointsPer | PointsIf | None = None
    companion: bool = False
    gem: bool = False
    dragon: bool = False
    """Shows the dragon-attack symbol."""
    danger: bool = False
    where: Where | None = None
    """Only acquired, used or fought in the depths / a crystal cave."""
    reserve: bool = False
    """A Reserve pile (yellow banner) rather than a Dungeon Deck card."""
    never_leaves: bool = False
    """Fought again and again, never discarded (the Goblin)."""
    play: list[AnyEffect] = []
    acquire: list[AnyEffect] = []
    defeat: list[AnyEffect] = []
    use: list[AnyEffect] = []
    arrive: list[AnyEffect] = []
    variants: dict[str, dict[str, bool | int | list[AnyEffect]]] = {}
    """Per source, the fields it reads differently (``{"klank": {"dragon": false}}``); an
    effect list replaces the whole field (Lucky Coin's ``play`` in one source)."""


class Cards(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``seeds/clank/cards.json``: the Dungeon Deck, the Reserve and the starting deck."""

    source: list[str]
    confidence: str
    dungeon: list[Card]
    reserve: list[Card]
    starter: list[Card]


TokenKind = Literal["artifact", "major", "minor", "idol", "market", "mastery"]


class Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One kind of token, ``count`` copies.

    ``take`` happens the moment it is taken (a Skill Boost; a Dragon Egg's
    rage); a token with ``use`` is kept until its holder spends it on their
    turn (potions); ``end_of_turn`` happens when that turn ends (Magic
    Spring); a token with ``keep`` stays in front of the seat for scoring.
    ``values`` gives each copy its own points (artifacts, crowns), most
    valuable first.
    """

    id: Slug
    name: str
    kind: TokenKind
    count: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    points: Count = 0
    values: list[Count] = []
    price: Count = 0
    """Gold to buy it at a market."""
    keep: bool = False
    take: list[AnyEffect] = []
    use: list[AnyEffect] = []
    end_of_turn: list[AnyEffect] = []
    power: Literal["key", "backpack"] | None = None
    """A market item's lasting power: open locked tunnels / carry one more artifact."""
    variants: dict[str, dict[str, Count]] = {}
    """Per source, the numbers it reads differently (the Chalice / Greater Treasure split)."""


class Tokens(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``seeds/clank/tokens.json``: secrets, market items, artifacts, idols, tracks."""

    source: list[str]
    confidence: str
    tokens: list[Token]
    rage_track: list[Count]
    """Cubes drawn per rage space."""
    rage_start: dict[str, Count]
    """Starting rage space by seat count ("2", "3", "4")."""
    artifacts_removed: dict[str, Count]
    """Artifacts returned to the box unseen, by seat count."""
    countdown_extra: list[Count]
    """Extra cubes of the instant attacks on countdown spaces 1..4 (space 5 knocks out)."""
    starting_clank: list[Count]
    """Clank! each seat adds before the first turn, in turn order."""
    cubes: Count
    dragon_cubes: Count
    health: Count
    hand: Count
    row: Count


class Room(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Count
    depths: bool = False
    start: bool = False
    crystal_cave: bool = False
    market: bool = False
    heal: Count = 0
    minor: Count = 0
    major: Count = 0
    artifact: Count | None = None
    monkey_shrine: bool = False
    idols: Count = 0


class Tunnel(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A tunnel between rooms ``a`` and ``b``; a one-way tunnel runs from ``a`` to ``b``."""

    a: Count
    b: Count
    boots: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1
    monsters: Count = 0
    locked: bool = False
    one_way: bool = False


class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``seeds/clank/board-front.json`` and ``board-back.json``."""

    name: str
    source: list[str]
    confidence: str
    note: str = ""
    rooms: list[Room]
    tunnels: list[Tunnel]
