"""Clonk!: the built-in game plugin (rules digest in seeds/clonk/rules.md)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from meeple.core.plugins import hookimpl
from meeple.plugins.clonk.bots import GreedyBot
from meeple.plugins.clonk.rules import Clonk

__all__ = ["Clonk", "GreedyBot"]


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(Clonk)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "greedy",
        GreedyBot,
        games=("clonk",),
        help="weighs each legal action one step ahead: tasks, coins, eyes against the eye leader",
    )


LEVELS = {
    "easy": "random",
    "medium": "greedy",
    "hard": "ismcts:iterations=400:depth=8:reuse=true",
}
"""What ``bot:easy``, ``bot:medium`` and ``bot:hard`` play, as measured in docs/search.md#levels
(``python benchmarks/levels.py`` measures them again into seeds/clonk/levels.json)."""


@hookimpl
def meeple_levels(register: Callable[..., None]) -> None:
    register(
        Clonk.id, LEVELS, measured=resources.files("meeple.seeds").joinpath("clonk/levels.json")
    )
