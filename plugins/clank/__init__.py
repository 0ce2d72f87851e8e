"""Clank!: the built-in game plugin (rules digest in seeds/clank/rules.md)."""

from __future__ import annotations

from collections.abc import Callable

from meeple.core.plugins import hookimpl
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.rules import Clank

__all__ = ["Clank", "HeuristicBot"]

HEURISTIC_GAMES = ("clank",)
"""Games the ``heuristic`` bot plays (every game on the Clank! engine may join)."""


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(Clank)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "heuristic",
        HeuristicBot,
        games=HEURISTIC_GAMES,
        help="builds its deck, walks the cheapest way to the best artifact it can carry out, "
        "and escapes",
    )
