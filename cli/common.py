"""What every command shares: the plugin environment, consoles, and failing cleanly."""

from __future__ import annotations

from functools import cached_property
from typing import NoReturn

import typer
from rich.console import Console

from meeple.core.engine import Hooks
from meeple.core.plugins import PluginManager, Registry, plugin_manager

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


class Env:
    """The plugin manager and registry one CLI invocation works with (``ctx.obj``)."""

    def __init__(self, pm: PluginManager | None = None) -> None:
        self._pm = pm

    @cached_property
    def pm(self) -> PluginManager:
        return self._pm if self._pm is not None else plugin_manager()

    @cached_property
    def registry(self) -> Registry:
        return Registry(self.pm)

    @cached_property
    def hooks(self) -> Hooks:
        return Hooks(self.pm)


def env(ctx: typer.Context) -> Env:
    """The invocation's :class:`Env` (set up by the root callback)."""
    root = ctx.find_root()
    if not isinstance(root.obj, Env):
        root.obj = Env()
    return root.obj


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` as an error and exit (1: bad input or failed check, 2: usage)."""
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    raise typer.Exit(code)
