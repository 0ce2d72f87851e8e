"""Difficulty levels: what ``bot:easy``, ``bot:medium`` and ``bot:hard`` play in a game.

A plugin declares a game's levels through the ``meeple_levels`` hook, each naming a bot as a
seat does (``ismcts:iterations=400:depth=8:reuse=true``), with a table of their measured
strength (:class:`Measured`, written by ``benchmarks/levels.py``). A level a game does not
declare gets :meth:`meeple.core.plugins.Registry.levels`' generic default. A seat that names
a level is written as the bot it stands for, so a record names that very bot even after the
levels are tuned again.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from meeple.core.errors import MeepleError, echo

LEVELS = ("easy", "medium", "hard")
"""The level names, weakest first: ``--seats human,bot:easy,bot:hard``."""


class Strength(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How one level fared in a tournament of a game's levels (``meeple tournament``)."""

    bot: str
    """The bot that was measured, canonical: the level counts as measured while it plays it."""
    games: int
    wins: float
    """Its share of the wins (a win shared by k seats counts 1/k)."""
    low: float
    """The 95% Wilson interval of ``wins``."""
    high: float
    mu: float
    """Its openskill (Plackett-Luce) skill; ``sigma`` its uncertainty."""
    sigma: float


class Measured(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table of a game's levels' strength, as ``benchmarks/levels.py`` writes it."""

    game: str
    seats: int
    """Seats in each game: the fair share of the wins is 1 / seats."""
    games: int
    command: str
    """The command that plays the tournament again."""
    levels: dict[str, Strength]


class Readable(Protocol):
    """A file to read: a :class:`pathlib.Path` or an ``importlib.resources`` resource."""

    def read_bytes(self) -> bytes: ...


class Level(msgspec.Struct, frozen=True, kw_only=True):
    """A level of one game, resolved."""

    name: str
    bot: str
    """The bot it plays, canonical (as records name it)."""
    plugin: str
    """The plugin that declared it; ``""`` for the generic default."""
    note: str = ""
    """Why it plays that bot, for a default."""
    strength: Strength | None = None
    """As measured, when the table measured this very bot."""
    measured: str = ""
    """The command that measured it."""
    seats: int = 0
    """Seats in each game it was measured in: the fair share of the wins is 1 / seats."""


def read_measured(table: Readable, game_id: str) -> Measured:
    """The strength table ``table`` of ``game_id``'s levels; raises :class:`MeepleError` naming
    what is wrong in it."""
    try:
        measured = msgspec.json.decode(table.read_bytes(), type=Measured)
    except (OSError, msgspec.DecodeError) as exc:
        raise MeepleError(f"its strength table {table} for {game_id}: {exc}") from None
    if measured.game != game_id:
        raise MeepleError(
            f"its strength table {table} for {game_id} measured {echo(measured.game)} instead"
        )
    unknown = sorted(set(measured.levels) - set(LEVELS))
    if unknown:
        raise MeepleError(
            f"its strength table {table} has no such level {echo(unknown[0])} "
            f"(levels: {', '.join(LEVELS)})"
        )
    return measured
