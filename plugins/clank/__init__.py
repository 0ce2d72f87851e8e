"""Clank!: the built-in game plugin (rules digest in seeds/clank/rules.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.core.game import Game
from meeple.core.plugins import hookimpl
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.rules import Clank, ClankBoard

__all__ = ["Clank", "HeuristicBot"]


def on_the_board(game: type[Game[Any, Any]]) -> bool:
    """The games the ``heuristic`` bot plays: every game on Clank!'s board, whichever package
    registers it (a game on another map brings its own, as Catacombs does)."""
    return issubclass(game, ClankBoard)


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(Clank)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "heuristic",
        HeuristicBot,
        games=on_the_board,
        help="builds its deck, walks the cheapest way to the best artifact it can carry out, "
        "and escapes",
    )
