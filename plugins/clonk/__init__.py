"""Clonk!: the built-in game plugin (rules digest in seeds/clonk/rules.md)."""

from __future__ import annotations

from collections.abc import Callable

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
