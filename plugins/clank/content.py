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

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec

from meeple.core.errors import ContentError, UnreadableFile
from meeple.core.files import read_file
from meeple.plugins.clank.effects import Buy, Effect, Trash

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


TokenKind = Literal[
    "artifact", "major", "minor", "idol", "market", "mastery", "prisoner", "lockpick"
]
"""Catacombs adds ``prisoner`` (freed from Prisons) and ``lockpick`` (the bank's Lockpicks)."""


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
    """Lockpicks each seat starts with (Catacombs); the rest of ``lockpick`` tokens is the bank."""
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
    them)."""

    effect: Any
    effects: tuple[type[Effect], ...]
    conditions: frozenset[str]
    points: frozenset[str]

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


def read_table(
    path: str | None, builtin: str, what: str, folder: str = "clank", game: str = "Clank!"
) -> tuple[bytes, str]:
    """The bytes of a user's file, or of the built-in table ``seeds/<folder>/<builtin>``;
    and how to name it in messages (``game`` names the game)."""
    if path is None:
        return resources.files("meeple.seeds").joinpath(f"{folder}/{builtin}").read_bytes(), (
            f"built-in {game} {builtin}"
        )
    try:
        data = read_file(path, MAX_TABLE_BYTES)
    except UnreadableFile as exc:
        raise ContentError(
            f"cannot read the {game} {what} {path!r} ({exc.reason}); "
            f"give the path of a JSON file like seeds/{folder}/{builtin}"
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
        raise ContentError(f"{path}.variants.{variant}: {_not_overridable(bad, allowed)}")
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


@functools.lru_cache(maxsize=16)
def read_tables(
    schema: Schema,
    cards: str | None = None,
    board: str = "front",
    board_file: str | None = None,
    variant: str = "majority",
    tokens: str | None = None,
) -> Tables:
    """The checked tables of the game whose ``schema`` is given: built-in ones, or a user's
    files where a path is given.

    ``board`` picks the built-in side unless ``board_file`` names a file;
    ``variant`` picks how disputed fields read (:data:`VARIANTS`). Any problem
    raises :class:`ContentError` naming the file and the ``$.path``, all
    problems at once.
    """
    if variant not in VARIANTS:
        raise ContentError(f"variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    if board_file is None and board not in BOARDS:
        raise ContentError(f"board {board!r}: choose one of {', '.join(BOARDS)}")
    cards_bytes, cards_at = read_table(cards, "cards.json", "card table")
    tokens_bytes, tokens_at = read_table(tokens, "tokens.json", "token table")
    board_bytes, board_at = read_table(board_file, f"board-{board}.json", "board")
    files = {"cards": cards_at, "tokens": tokens_at, "board": board_at}
    c, t = apply_variant(
        decode_table(cards_bytes, cards_at, schema.over(Cards)),
        decode_table(tokens_bytes, tokens_at, schema.over(Tokens)),
        variant,
        files,
        schema,
    )
    tables = Tables(c, t, decode_table(board_bytes, board_at, Board), variant, files)
    problems = check_tables(tables, schema)
    if problems:
        raise ContentError("Clank! content is inconsistent:\n  " + "\n  ".join(problems))
    return tables


def walk(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every effect in ``effects``, nested ones (an effect's ``options`` and ``then``) included."""
    for e in effects:
        yield e
        for option in getattr(e, "options", ()):
            yield from walk(option)
        yield from walk(getattr(e, "then", ()))


def check_tables(t: Tables, schema: Schema) -> list[str]:
    """Everything that makes the tables inconsistent, one message per problem.

    ``schema``: what the game supports (a table naming other effects or conditions is refused).
    """
    return [*check_cards_and_tokens(t, schema), *_check_board(t)]


def check_cards_and_tokens(t: Tables, schema: Schema, countdown: bool = True) -> list[str]:
    """The checks of the card and token tables, whatever the map (a board or tiles).

    ``countdown``: the game has the base game's countdown track (Catacombs has none).
    """
    return [*_check_cards(t, schema), *_check_tokens(t, schema, countdown)]


def _check_cards(t: Tables, schema: Schema) -> list[str]:
    at = t.files["cards"]
    problems = []
    total = sum(c.count for c in t.cards.dungeon)
    if total != DUNGEON_CARDS:
        problems.append(f"{at}: $.dungeon: {total} cards; the Dungeon Deck has {DUNGEON_CARDS}")
    total = sum(c.count for c in t.cards.starter)
    if total != STARTER_CARDS:
        problems.append(f"{at}: $.starter: {total} cards; a starting deck has {STARTER_CARDS}")
    seen: set[str] = set()
    reserve = {c.id for c in t.cards.reserve}
    sections = (("dungeon", t.cards.dungeon), ("reserve", t.cards.reserve))
    for section, cards in (*sections, ("starter", t.cards.starter)):
        for i, c in enumerate(cards):
            path = f"{at}: $.{section}[{i}]"
            if c.id in seen:
                problems.append(f"{path}.id: {c.id!r} is used by another card; ids are unique")
            seen.add(c.id)
            if (section == "reserve") != c.reserve:
                problems.append(f"{path}.reserve: true exactly for the cards under $.reserve")
            if (section == "starter") != (c.kind == "starter"):
                problems.append(f"{path}.kind: 'starter' exactly for the cards under $.starter")
            if c.never_leaves and not (c.reserve and c.kind == "monster"):
                problems.append(f"{path}.never_leaves: only a Reserve monster stays (the Goblin)")
            if c.bonus is not None:
                rule = c.bonus.per if isinstance(c.bonus, PointsPer) else c.bonus.cond
                if rule not in schema.points:
                    problems.append(f"{path}.bonus: points rule {rule!r} is not part of this game")
            if isinstance(c.bonus, PointsIf) and c.bonus.cond == "two-of":
                for k, token in enumerate(c.bonus.of):
                    if token not in t.token:
                        problems.append(f"{path}.bonus.of[{k}]: no token {token!r} in tokens")
            problems += _check_variants(c.variants, CARD_VARIANT_FIELDS, path)
            for part in CARD_PARTS:
                problems += _check_effects(getattr(c, part), f"{path}.{part}", t, schema)
    for section, cards in sections:
        # Buying a card by effect works only on a Reserve pile.
        for i, c in enumerate(cards):
            for part in CARD_PARTS:
                for e in walk(getattr(c, part)):
                    if isinstance(e, Buy) and e.card not in reserve:
                        problems.append(
                            f"{at}: $.{section}[{i}].{part}: buys {e.card!r}, "
                            "which is no Reserve card"
                        )
    return problems


def _check_variants(
    variants: Mapping[str, Mapping[str, object]], allowed: frozenset[str], path: str
) -> list[str]:
    """Every source's reading, whichever variant is played: known sources, known fields."""
    problems = []
    for source, changes in variants.items():
        if source not in VARIANTS[1:]:
            problems.append(
                f"{path}.variants: unknown source {source!r}; use {' or '.join(VARIANTS[1:])}"
            )
        bad = sorted(set(changes) - allowed)
        if bad:
            problems.append(f"{path}.variants.{source}: {_not_overridable(bad, allowed)}")
    return problems


def _not_overridable(bad: list[str], allowed: frozenset[str]) -> str:
    return f"cannot override {', '.join(bad)}; only {', '.join(sorted(allowed))}"


def _check_effects(effects: list[Effect], path: str, t: Tables, schema: Schema) -> list[str]:
    problems = []
    for e in walk(effects):
        kind = type(e)
        if not any(k in schema.effects for k in kind.__mro__):
            problems.append(f"{path}: effect {kind.__name__!r} is not part of this game")
        for name in kind.asks:
            cond = getattr(e, name)
            if cond is not None and cond not in schema.conditions:
                problems.append(f"{path}: condition {cond!r} is not part of this game")
        if isinstance(e, Trash) and e.name is not None and e.name not in t.card:
            problems.append(f"{path}: trash names {e.name!r}, which is no card id")
    return problems


def _check_tokens(t: Tables, schema: Schema, countdown: bool) -> list[str]:
    at = t.files["tokens"]
    tk = t.tokens
    problems = []
    seen: set[str] = set()
    for i, token in enumerate(tk.tokens):
        path = f"{at}: $.tokens[{i}]"
        if token.id in seen:
            problems.append(f"{path}.id: {token.id!r} is used by another token; ids are unique")
        seen.add(token.id)
        if token.values and len(token.values) != token.count:
            problems.append(
                f"{path}.values: {len(token.values)} values for {token.count} copies; "
                "give one per copy"
            )
        if token.kind == "market" and not token.price:
            problems.append(f"{path}.price: a market item needs a price in gold")
        problems += _check_variants(token.variants, TOKEN_VARIANT_FIELDS, path)
        for part in ("take", "use", "end_of_turn"):
            problems += _check_effects(getattr(token, part), f"{path}.{part}", t, schema)
    counts = _token_counts(t)
    for kind, least in (("artifact", MAX_SEATS), ("mastery", MAX_SEATS), ("idol", 1)):
        if counts[kind] < least:
            problems.append(f"{at}: $.tokens: {counts[kind]} {kind} tokens; give at least {least}")
    if not tk.rage_track:
        problems.append(f"{at}: $.rage_track: empty; give the cubes drawn on each space")
    for key, table in (("rage_start", tk.rage_start), ("artifacts_removed", tk.artifacts_removed)):
        missing = [str(n) for n in range(2, MAX_SEATS + 1) if str(n) not in table]
        if missing:
            problems.append(f"{at}: $.{key}: no entry for {', '.join(missing)} seats")
    for seats, space in tk.rage_start.items():
        if space >= len(tk.rage_track):
            problems.append(f"{at}: $.rage_start.{seats}: space {space} is off the rage track")
    for seats, n in tk.artifacts_removed.items():
        if not seats.isdigit() or counts["artifact"] - n < int(seats):
            problems.append(f"{at}: $.artifacts_removed.{seats}: leaves fewer artifacts than seats")
    if len(tk.starting_clank) < MAX_SEATS:
        problems.append(f"{at}: $.starting_clank: give a number for each of {MAX_SEATS} seats")
    if countdown and len(tk.countdown_extra) != 4:
        problems.append(f"{at}: $.countdown_extra: give the extra cubes of spaces 1 to 4")
    if tk.hand < 1 or tk.row < 1 or tk.health < 1 or tk.cubes < tk.health:
        problems.append(f"{at}: hand, row and health must be positive, cubes at least health")
    return problems


def _token_counts(t: Tables) -> Counter[str]:
    counts: Counter[str] = Counter()
    for token in t.tokens.tokens:
        counts[token.kind] += token.count
    return counts


def _check_board(t: Tables) -> list[str]:
    at = t.files["board"]
    b = t.board
    problems = []
    if len(t.room) != len(b.rooms):
        dup = sorted(i for i, k in Counter(r.id for r in b.rooms).items() if k > 1)
        problems.append(f"{at}: $.rooms: room ids {dup} appear more than once")
    starts = [r.id for r in b.rooms if r.start]
    if len(starts) != 1:
        problems.append(f"{at}: $.rooms: {len(starts)} start rooms; mark exactly one start")
    for i, r in enumerate(b.rooms):
        if r.idols and not r.monkey_shrine:
            problems.append(f"{at}: $.rooms[{i}].idols: idols lie only on a Monkey Shrine")
        if r.start and (r.depths or r.minor or r.major or r.artifact is not None or r.idols):
            problems.append(f"{at}: $.rooms[{i}]: the start room lies outside, with no tokens")
    for i, tunnel in enumerate(b.tunnels):
        for end in ("a", "b"):
            if getattr(tunnel, end) not in t.room:
                problems.append(
                    f"{at}: $.tunnels[{i}].{end}: room {getattr(tunnel, end)} is not in $.rooms"
                )
        if tunnel.a == tunnel.b:
            problems.append(f"{at}: $.tunnels[{i}]: a tunnel joins two different rooms")
    # What the tokens fill must fit the board.
    by_kind: dict[str, list[int]] = {}
    for token in t.tokens.tokens:
        by_kind.setdefault(token.kind, []).extend(token.values or [token.points] * token.count)
    on_board = sorted(r.artifact for r in b.rooms if r.artifact is not None)
    if on_board != sorted(by_kind.get("artifact", [])):
        problems.append(
            f"{at}: artifact spaces {on_board} do not match the artifacts "
            f"{sorted(by_kind.get('artifact', []))} of {t.files['tokens']}"
        )
    counts = _token_counts(t)
    for kind in ("major", "minor", "idol"):
        spaces = sum(getattr(r, {"idol": "idols"}.get(kind, kind)) for r in b.rooms)
        if spaces > counts[kind]:
            problems.append(
                f"{at}: the board holds {spaces} {kind} tokens but {t.files['tokens']} "
                f"has only {counts[kind]}"
            )
    if starts and len(starts) == 1:
        unreached = sorted(set(t.room) - reachable(b, starts[0]))
        if unreached:
            problems.append(f"{at}: rooms {unreached} cannot be reached from the start")
    return problems


def reachable(board: Board, start: int) -> set[int]:
    """The rooms a pawn can walk to from ``start``, respecting one-way tunnels."""
    out: dict[int, list[int]] = {}
    for tunnel in board.tunnels:
        out.setdefault(tunnel.a, []).append(tunnel.b)
        if not tunnel.one_way:
            out.setdefault(tunnel.b, []).append(tunnel.a)
    seen, todo = {start}, [start]
    while todo:
        for nxt in out.get(todo.pop(), []):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
