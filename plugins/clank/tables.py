"""The Clank! tables read whole and checked: one file per table, then their consistency.

:func:`read_tables` reads the cards, tokens and board a game's options name (built-in or a
user's files, decoded strictly by :mod:`.content`) and checks them as a whole: card counts,
effects and conditions the game registers, variant fields, token counts, the board's rooms
and tunnels. Every problem is reported at once, each with the file and its ``$.path``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping

from meeple.core.errors import ContentError
from meeple.plugins.clank.content import (
    BOARDS,
    CARD_PARTS,
    CARD_VARIANT_FIELDS,
    DUNGEON_CARDS,
    MAX_SEATS,
    STARTER_CARDS,
    TOKEN_VARIANT_FIELDS,
    VARIANTS,
    Board,
    Cards,
    PointsIf,
    PointsPer,
    Schema,
    Tables,
    Tokens,
    apply_variant,
    decode_table,
    not_overridable,
    read_table,
)
from meeple.plugins.clank.effects import Buy, Effect, Trash


@functools.lru_cache(maxsize=16)
def read_tables(
    schema: Schema,
    cards: str | None = None,
    board: str = "front",
    board_file: str | None = None,
    variant: str = "majority",
    tokens: str | None = None,
) -> Tables:
    """The checked tables of the game whose ``schema`` is given: its own (from its package:
    :attr:`~.content.Schema.tables_from`), or a user's files where a path is given.

    ``board`` picks the built-in side unless ``board_file`` names a file;
    ``variant`` picks how disputed fields read (:data:`VARIANTS`). Any problem
    raises :class:`ContentError` naming the file and the ``$.path``, all
    problems at once.
    """
    if variant not in VARIANTS:
        raise ContentError(f"variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    if board_file is None and board not in BOARDS:
        raise ContentError(f"board {board!r}: choose one of {', '.join(BOARDS)}")
    cards_bytes, cards_at = read_table(cards, "cards.json", "card table", schema)
    tokens_bytes, tokens_at = read_table(tokens, "tokens.json", "token table", schema)
    board_bytes, board_at = read_table(board_file, f"board-{board}.json", "board", schema)
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
        raise ContentError(f"{schema.game} content is inconsistent:\n  " + "\n  ".join(problems))
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
            problems.append(f"{path}.variants.{source}: {not_overridable(bad, allowed)}")
    return problems


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
