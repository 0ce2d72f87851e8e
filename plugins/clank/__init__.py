"""Clank!: the built-in game plugin (rules digest in seeds/clank/rules.md)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from meeple.core.plugins import hookimpl
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.rules import Clank, ClankBoard

__all__ = ["Clank", "HeuristicBot"]


def on_the_board(game: type) -> bool:
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


LEVELS = {
    "easy": "random",
    "medium": "heuristic",
    "hard": "ismcts:iterations=10:rollout=heuristic:turn=true:guide=heuristic:paired=true"
    ":margin=0.01:defer=move+teleport:until=24:start=12",
}
"""What ``bot:easy``, ``bot:medium`` and ``bot:hard`` play, as measured in docs/search.md#levels
(``python benchmarks/levels.py`` measures them again into seeds/clank/levels.json)."""


@hookimpl
def meeple_levels(register: Callable[..., None]) -> None:
    register(
        Clank.id, LEVELS, measured=resources.files("meeple.seeds").joinpath("clank/levels.json")
    )
