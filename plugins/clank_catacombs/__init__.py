"""Clank! Catacombs: the built-in game plugin (rules digest in seeds/clank-catacombs/rules.md)."""

from __future__ import annotations

from collections.abc import Callable

from meeple.core.plugins import hookimpl
from meeple.plugins.clank_catacombs.rules import CatacombsGame

__all__ = ["CatacombsGame"]


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(CatacombsGame)
