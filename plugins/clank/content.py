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

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec

from meeple.core.errors import ContentError, UnreadableFile
from meeple.core.files import read_file
from meeple.plugins.clank.effects import Effect

T = TypeVar("T")
E = TypeVar("E")
"""A game's effect union: the card and token schemas are generic over it."""

Count = Annotated[int, msgspec.Meta(ge=0, le=999)]
Slug = Annotated[str, msgspec.Meta(pattern="^[a-z0-9]+(-[a-z0-9]+)*$")]

CardKind = Literal["starter", "item", "device", "monster"]
"""``starter``: the starting deck; ``item``: acquired into the deck (blue and
yellow banners); ``device``: used on acquire, then to the dungeon discard
(purple); ``monster``: fought with swords (red)."""

Where = Literal["depths", "crystal-cave", "crystal-cave-or-wayshrine"]


class Points(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind"):
    """Points a card is worth beyond its printed value, decided at the end."""


class PointsPer(Points, frozen=True, tag="per"):
    """``points`` for every ``per`` the seat has: a points rule the game registers
    (:func:`~.part.points`; Clank!: ``5-gold``, ``secret-tome``)."""

    points: Count
    per: str


class PointsIf(Points, frozen=True, tag="if"):
    """``points`` if ``cond`` holds: a points rule the game registers (Clank!: ``mastery``,
    a Mastery token; ``two-of``, at least two different kinds of token among ``of``)."""

    points: Count
    cond: str
    of: list[Slug] = []


class Card(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True, kw_only=True):
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
    play: list[E] = []
    acquire: list[E] = []
    defeat: list[E] = []
    use: list[E] = []
    arrive: list[E] = []
    reaction: list[E] = []
    """Offered while the card is in the seat's hand, outside its turn (``ghost-ward``)."""
    use_gold: Count = 0
    """Gold paid, besides the Skill, to use this device (Wishing Well)."""
    use_lockpick: Count = 0
    """Lockpicks paid, besides the Skill, to use this device (Locked Trunk)."""
    variants: dict[str, dict[str, bool | int | list[E]]] = {}
    """Per source, the fields it reads differently (``{"klank": {"dragon": false}}``); an
    effect list replaces the whole field (Lucky Coin's ``play`` in one source)."""


class Cards(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True):
    """``seeds/clank/cards.json``: the Dungeon Deck, the Reserve and the starting deck."""

    source: list[str]
    confidence: str
    dungeon: list[Card[E]]
    reserve: list[Card[E]]
    starter: list[Card[E]]


TokenKind = Literal["artifact", "major", "minor", "idol", "market", "mastery", "prisoner"]
"""Catacombs adds ``prisoner`` (freed from Prisons)."""


class Token(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True, kw_only=True):
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
    need_damage: Count = 0
    """Damage the buyer must have on its meter (Blood Amulet)."""
    authored: str = ""
    """What of this token no public source gives and the table reconstructs (its effect)."""
    keep: bool = False
    take: list[E] = []
    use: list[E] = []
    end_of_turn: list[E] = []
    power: Literal["key", "backpack"] | None = None
    """A market item's lasting power: open locked tunnels / carry one more artifact."""
    variants: dict[str, dict[str, Count]] = {}
    """Per source, the numbers it reads differently (the Chalice / Greater Treasure split)."""


class Tokens(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``seeds/clank/tokens.json``: secrets, market items, artifacts, idols, tracks."""

    source: list[str]
    confidence: str
    tokens: Sequence[Token[E]]
    """Read only, so a game's table may narrow it to its own token type."""
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
    lockpicks_each: Count = 0
    """Lockpicks each seat starts with (Catacombs; the bank's are not limited)."""
    ghost_cubes: Count = 0
    """White Ghost cubes in the bank (Catacombs)."""
    left_draw: dict[str, Count] = {}
    """Cubes drawn on the turn of a seat that left the dungeon, by seat count (Catacombs)."""


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


# --- Reading and checking -------------------------------------------------------------------

MAX_TABLE_BYTES = 1_000_000
VARIANTS = ("majority", "klank", "eseidel")
"""The ``variant`` option: the vote of the sources, or one source throughout."""
BOARDS = ("front", "back")
DUNGEON_CARDS = 100
STARTER_CARDS = 10
MAX_SEATS = 4
CARD_VARIANT_FIELDS = frozenset(
    {"count", "cost", "points", "companion", "dragon", "danger"}
    | {"play", "acquire", "defeat", "use", "arrive"}
)
TOKEN_VARIANT_FIELDS = frozenset({"count", "points", "price"})
CARD_PARTS = ("play", "acquire", "defeat", "use", "arrive", "reaction")
"""A card's effect lists."""


@dataclass(frozen=True)
class Schema:
    """What one game's tables may say: its effect union (the tables decode it), and the
    effect kinds, conditions and points rules it registers (the tables are checked against
    them); where its own tables lie, and its name for messages."""

    effect: Any
    effects: tuple[type[Effect], ...]
    conditions: frozenset[str]
    points: frozenset[str]
    tables_from: tuple[Traversable, ...]
    """The folders of the game's package and its bases' (``importlib.resources`` anchors),
    searched in order for each of its tables (``cards.json``...)."""
    game: str

    def over(self, table: Any) -> Any:
        """``table[effect]``: a table type (``Cards``) over this game's effect union, which is
        known at run time only."""
        return table[self.effect]


@dataclass(frozen=True)
class Tables:
    """The decoded, checked tables of one game set-up, the ``variant`` applied.

    ``card``, ``token`` and ``room`` look items up by id; ``files`` names where
    each table came from (for messages). Shared through a cache: never mutate.
    """

    cards: Cards
    tokens: Tokens
    board: Board
    variant: str
    files: dict[str, str]
    card: dict[str, Card] = field(init=False)
    token: dict[str, Token] = field(init=False)
    room: dict[int, Room] = field(init=False)

    def __post_init__(self) -> None:
        every = [*self.cards.dungeon, *self.cards.reserve, *self.cards.starter]
        object.__setattr__(self, "card", {c.id: c for c in every})
        object.__setattr__(self, "token", {t.id: t for t in self.tokens.tokens})
        object.__setattr__(self, "room", {r.id: r for r in self.board.rooms})


def read_table(path: str | None, builtin: str, what: str, schema: Schema) -> tuple[bytes, str]:
    """The bytes of a user's file, or of the game's own table ``builtin``: from the first of
    its packages' folders that holds it (:attr:`Schema.tables_from`); and how to name it in
    messages."""
    game = schema.game
    if path is None:
        found = next((t for t in schema.tables_from if t.joinpath(builtin).is_file()), None)
        if found is None:
            raise ContentError(f"{game} has no table {builtin} in its package")
        return found.joinpath(builtin).read_bytes(), f"built-in {game} {builtin}"
    try:
        data = read_file(path, MAX_TABLE_BYTES)
    except UnreadableFile as exc:
        raise ContentError(
            f"cannot read the {game} {what} {path!r} ({exc.reason}); "
            f"give the path of a JSON file like the built-in {builtin}"
        ) from None
    return data, f"{game} {what} {path}"


def decode_table(data: bytes, where: str, kind: type[T]) -> T:
    """``data`` decoded strictly as ``kind``; a mistake names ``where`` and its ``$.path``."""
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as exc:
        raise ContentError(f"{where}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ContentError(f"{where}: not valid JSON ({exc})") from None


S = TypeVar("S", Card[Any], Token[Any])


def _with_variant(item: S, kind: Any, variant: str, allowed: frozenset[str], path: str) -> S:
    """``item`` (decoded as ``kind``) with the fields ``variant`` reads differently; a bad
    override names its path."""
    changes = item.variants.get(variant) if variant != "majority" else None
    if not changes:
        return item
    bad = sorted(set(changes) - allowed)
    if bad:
        raise ContentError(f"{path}.variants.{variant}: {not_overridable(bad, allowed)}")
    merged = {**msgspec.to_builtins(item), **msgspec.to_builtins(changes)}
    try:
        converted: S = msgspec.convert(merged, type=kind)
        return converted
    except msgspec.ValidationError as exc:
        raise ContentError(f"{path}.variants.{variant}: {exc}") from None


def apply_variant(
    cards: Cards[E], tokens: Tokens[E], variant: str, where: dict[str, str], schema: Schema
) -> tuple[Cards[E], Tokens[E]]:
    """Both tables as the source ``variant`` reads them."""
    card, token = schema.over(Card), schema.over(Token)
    parts = {}
    for name in ("dungeon", "reserve", "starter"):
        parts[name] = [
            _with_variant(c, card, variant, CARD_VARIANT_FIELDS, f"{where['cards']}: $.{name}[{i}]")
            for i, c in enumerate(getattr(cards, name))
        ]
    items = [
        _with_variant(t, token, variant, TOKEN_VARIANT_FIELDS, f"{where['tokens']}: $.tokens[{i}]")
        for i, t in enumerate(tokens.tokens)
    ]
    return msgspec.structs.replace(cards, **parts), msgspec.structs.replace(tokens, tokens=items)


def not_overridable(bad: list[str], allowed: frozenset[str]) -> str:
    return f"cannot override {', '.join(bad)}; only {', '.join(sorted(allowed))}"
