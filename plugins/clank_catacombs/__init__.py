"""Clank! Catacombs: the built-in game plugin (rules digest in seeds/clank-catacombs/rules.md)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from meeple.core.plugins import hookimpl
from meeple.plugins.clank_catacombs.bots import CatacombsBot
from meeple.plugins.clank_catacombs.rules import CatacombsGame

__all__ = ["CatacombsBot", "CatacombsGame"]


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(CatacombsGame)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "heuristic",
        CatacombsBot,
        games=(CatacombsGame.id,),
        help="the Clank! heuristic bot that also explores: discovers tiles while no artifact "
        "is worth the trip, turns them to suit its way, spends Lockpicks, and escapes",
    )


LEVELS = {
    "easy": "random",
    "medium": "heuristic",
    "hard": "ismcts:iterations=10:rollout=heuristic:turn=true:guide=heuristic:paired=true"
    ":margin=0.03",
}
"""What ``bot:easy``, ``bot:medium`` and ``bot:hard`` play, as measured in docs/search.md#levels
(``python benchmarks/levels.py`` measures them again into seeds/clank-catacombs/levels.json)."""


@hookimpl
def meeple_levels(register: Callable[..., None]) -> None:
    register(
        CatacombsGame.id,
        LEVELS,
        measured=resources.files("meeple.seeds").joinpath("clank-catacombs/levels.json"),
    )
