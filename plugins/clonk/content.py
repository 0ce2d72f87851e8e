"""Clonk! content: the card table, validated when loaded, cached, flattened for speed.

The built-in table (``seeds/clonk/cards.json``) is a balanced reconstruction
(see its ``note``); a user may load their own table of the same schema with
the ``cards`` option, read through the core's reader of untrusted files. A
table is decoded strictly by msgspec (errors name the
``$.path``), then its counts are checked. The state only ever holds card ids;
every attribute is looked up here, in dicts built once per table.
"""

from __future__ import annotations

import functools
from collections import Counter
from importlib import resources
from typing import Annotated

import msgspec

from meeple.core.errors import ContentError, UnreadableFile
from meeple.core.files import read_file

COPIES = 3
"""Copies of each colour/type pair."""
TASK_COLOUR = "task-colour-"
TASK_TYPE = "task-type-"
AWAKENING = "awakening"
MAX_TABLE_BYTES = 1_000_000

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Name = Annotated[str, msgspec.Meta(pattern="^[a-z][a-z0-9]*$")]


class Treasure(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One Treasure card: its crystal colour, treasure type, copy number, coins and eyes."""

    colour: str
    type: str
    copy: Annotated[int, msgspec.Meta(ge=1, le=COPIES)]
    coins: Annotated[int, msgspec.Meta(ge=0, le=3)]
    eyes: NonNegative


class SnoreSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]
    eyes: NonNegative


class KablooeySpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]
    coins: NonNegative


class Table(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The JSON schema of a Clonk! card table."""

    note: str
    source: str
    colours: Annotated[list[Name], msgspec.Meta(min_length=6, max_length=6)]
    types: Annotated[list[Name], msgspec.Meta(min_length=6, max_length=6)]
    treasures: list[Treasure]
    snore: SnoreSpec
    kablooey: KablooeySpec


class Content:
    """A validated table, flattened into per-card lookups keyed by card id."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.colours = tuple(table.colours)
        self.types = tuple(table.types)
        self.treasures = tuple(f"{t.colour}-{t.type}-{t.copy}" for t in table.treasures)
        self.snores = tuple(f"snore-{i}" for i in range(1, table.snore.count + 1))
        self.kablooeys = tuple(f"kablooey-{i}" for i in range(1, table.kablooey.count + 1))
        self.colour_tasks = tuple(TASK_COLOUR + c for c in self.colours)
        self.type_tasks = tuple(TASK_TYPE + t for t in self.types)
        # Colour and type as small ints: chain matching is two int compares.
        ci = {c: i for i, c in enumerate(self.colours)}
        ti = {t: i for i, t in enumerate(self.types)}
        self.colour = {
            c: ci[t.colour] for c, t in zip(self.treasures, table.treasures, strict=True)
        }
        self.type = {c: ti[t.type] for c, t in zip(self.treasures, table.treasures, strict=True)}
        self.coins: dict[str, int] = {
            c: t.coins for c, t in zip(self.treasures, table.treasures, strict=True)
        }
        self.eyes: dict[str, int] = {
            c: t.eyes for c, t in zip(self.treasures, table.treasures, strict=True)
        }
        self.coins.update(dict.fromkeys(self.kablooeys, table.kablooey.coins))
        self.coins.update(dict.fromkeys(self.snores, 0))
        self.eyes.update(dict.fromkeys(self.snores, table.snore.eyes))
        self.eyes.update(dict.fromkeys(self.kablooeys, 0))
        # Each Treasure card's chain partners: matching a card is one set lookup.
        self.chains: dict[str, frozenset[str]] = {
            a: frozenset(b for b in self.treasures if self.matches(a, b)) for a in self.treasures
        }
        # A task tile as (attribute lookup, index): a card matches if lookup[card] == index.
        self.task: dict[str, tuple[dict[str, int], int]] = {
            **{TASK_COLOUR + c: (self.colour, ci[c]) for c in self.colours},
            **{TASK_TYPE + t: (self.type, ti[t]) for t in self.types},
        }
        backs = {c: "treasure" for c in self.treasures}
        backs[AWAKENING] = "awakening"
        backs.update(dict.fromkeys(self.colour_tasks, "task-colour"))
        backs.update(dict.fromkeys(self.type_tasks, "task-type"))
        backs.update(dict.fromkeys(self.snores, "snore"))
        backs.update(dict.fromkeys(self.kablooeys, "kablooey"))
        self.back = backs
        self.all_cards = (
            *self.treasures,
            AWAKENING,
            *self.colour_tasks,
            *self.type_tasks,
            *self.snores,
            *self.kablooeys,
        )

    def matches(self, a: str, b: str) -> bool:
        """Whether two Treasure cards share their crystal colour or their treasure type."""
        return self.colour[a] == self.colour[b] or self.type[a] == self.type[b]

    def name(self, card: str) -> str:
        """A card as a reader says it: "red hammer", "task: colour red", "Snore"."""
        if card in self.colour:
            return f"{self.colours[self.colour[card]]} {self.types[self.type[card]]}"
        if card.startswith(TASK_COLOUR):
            return f"task colour {card[len(TASK_COLOUR) :]}"
        if card.startswith(TASK_TYPE):
            return f"task type {card[len(TASK_TYPE) :]}"
        return {"snore": "Snore", "kablooey": "Kablooey"}.get(self.back.get(card, ""), card)


def check(table: Table) -> list[str]:
    """The count checks a decoded table must pass, one message per problem."""
    problems = []
    for field, names in (("colours", table.colours), ("types", table.types)):
        dup = sorted(n for n, k in Counter(names).items() if k > 1)
        if dup:
            problems.append(
                f"$.{field}: {', '.join(dup)} listed more than once; give 6 distinct names"
            )
    seen: Counter[tuple[str, str, int]] = Counter()
    for i, t in enumerate(table.treasures):
        if t.colour not in table.colours:
            problems.append(f"$.treasures[{i}].colour: {t.colour!r} is not one of $.colours")
        if t.type not in table.types:
            problems.append(f"$.treasures[{i}].type: {t.type!r} is not one of $.types")
        seen[(t.colour, t.type, t.copy)] += 1
        if seen[(t.colour, t.type, t.copy)] == 2:
            problems.append(f"$.treasures[{i}]: {t.colour} {t.type} copy {t.copy} appears twice")
    want = len(table.colours) * len(table.types) * COPIES
    if len(table.treasures) != want:
        problems.append(
            f"$.treasures: {len(table.treasures)} cards, but a table needs {want} "
            f"({COPIES} copies of each colour and type pair)"
        )
    if not problems:
        missing = [
            f"{c} {t} copy {k}"
            for c in table.colours
            for t in table.types
            for k in range(1, COPIES + 1)
            if (c, t, k) not in seen
        ]
        if missing:
            problems.append(f"$.treasures: missing {', '.join(missing[:5])}")
    return problems


def decode(data: bytes | str, where: str) -> Content:
    """Decode and check a table; :class:`ContentError` names ``where`` and the ``$.path``."""
    try:
        table = msgspec.json.decode(data, type=Table)
    except msgspec.ValidationError as exc:
        raise ContentError(f"{where}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ContentError(f"{where}: not valid JSON ({exc})") from None
    problems = check(table)
    if problems:
        raise ContentError(f"{where}: " + "; ".join(problems))
    return Content(table)


def load(path: str | None = None) -> Content:
    """The table at ``path`` (a JSON file), or the built-in one.

    A file is read each time, so an edited table is seen; a table is decoded
    once per content.
    """
    if path is None:
        return _built_in()
    try:
        data = read_file(path, MAX_TABLE_BYTES)
    except UnreadableFile as exc:
        raise ContentError(
            f"cannot read the Clonk! card table {path!r} ({exc.reason}); "
            "give the path of a JSON file like seeds/clonk/cards.json"
        ) from None
    return _decoded(data, f"card table {path}")


@functools.cache
def _built_in() -> Content:
    data = resources.files("meeple.seeds").joinpath("clonk/cards.json").read_bytes()
    return decode(data, "built-in Clonk! card table")


_decoded = functools.lru_cache(maxsize=8)(decode)
