"""Clank!: the built-in game plugin (rules digest in seeds/clank/rules.md)."""

from __future__ import annotations

from collections.abc import Callable

from meeple.core.plugins import hookimpl
from meeple.plugins.clank.rules import Clank

__all__ = ["Clank"]


@hookimpl
def meeple_games(register: Callable[..., None]) -> None:
    register(Clank)
