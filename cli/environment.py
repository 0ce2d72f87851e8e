"""The plugins one command works with: :class:`Env`, loaded on first use, and the commands
plugins add."""

from __future__ import annotations

from collections.abc import Collection
from functools import cached_property
from typing import Any, NamedTuple

import typer

from meeple.cli import output
from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError
from meeple.core.plugins import BrokenPlugin, PluginManager, Registry, plugin_manager


class Env:
    """The plugins one CLI invocation works with (``ctx.obj``), loaded on first use.

    Loading imports the plugins and calls their registration hooks;
    ``meeple_commands`` is called only when plugin commands are needed. A
    plugin that fails is skipped (see :class:`~meeple.core.plugins.BrokenPlugin`)
    and announced in one warning line on standard error, unless ``report``
    is off because the command reports broken plugins in full (``meeple plugins``).
    """

    def __init__(self, pm: PluginManager | None = None) -> None:
        self._pm = pm
        self._registry: Registry | None = None
        self._commands: dict[str, PluginCommand] | None = None
        self._reported = 0
        self.report = True

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._load()
        assert self._registry is not None
        return self._registry

    @property
    def pm(self) -> PluginManager:
        """The plugin manager, once the plugins that failed to register are skipped."""
        return self.registry.pm

    @cached_property
    def hooks(self) -> Hooks:
        return Hooks(self.pm)

    def commands(self, builtin: Collection[str]) -> dict[str, PluginCommand]:
        """The commands plugins add, by name; none may reuse a ``builtin`` name."""
        if self._commands is None:
            self._load(builtin)
        assert self._commands is not None
        return self._commands

    def _load(self, builtin: Collection[str] | None = None) -> None:
        # One step loads what is asked for, so that its failures make one warning line.
        if self._registry is None:
            self._registry = Registry(self._pm if self._pm is not None else plugin_manager())
        pm = self._registry.pm
        if builtin is not None and self._commands is None:
            self._commands = plugin_commands(pm, builtin)
        new = pm.broken[self._reported :]
        self._reported = len(pm.broken)
        if new and self.report:
            which = ", ".join(f"{b.name!r} ({b.stage})" for b in new)
            output.warn(f"skipped broken plugins: {which}; `meeple plugins` says why")


class PluginCommand(NamedTuple):
    """A command that a plugin adds through ``meeple_commands``."""

    plugin: str
    command: Any
    """The click command Typer built (typer vendors click, so its class has no public path)."""


def plugin_commands(pm: PluginManager, builtin: Collection[str]) -> dict[str, PluginCommand]:
    """Call each plugin's ``meeple_commands`` on an app of its own; a plugin keeps all or none.

    A plugin whose hook raises, or that adds a command meeple or an earlier
    plugin already has, is recorded in ``pm.broken`` and adds nothing.
    """
    found: dict[str, PluginCommand] = {}
    for plugin, call in pm.each_implementation("meeple_commands"):
        app = typer.Typer()
        try:
            call(app=app)
            added = typer.main.get_group(app).commands
            for name in added:
                if name in builtin or name in found:
                    owner = "meeple" if name in builtin else f"plugin {found[name].plugin!r}"
                    raise MeepleError(f"it adds the command {name!r}, which {owner} already has")
        except Exception as exc:  # a plugin may fail in any way
            pm.broken.append(BrokenPlugin.of(plugin, "meeple_commands", exc))
            continue
        found.update((name, PluginCommand(plugin, command)) for name, command in added.items())
    return found


def env(ctx: typer.Context) -> Env:
    """The invocation's :class:`Env`: the root context's object, set by ``make_app``."""
    root = ctx.find_root()
    if not isinstance(root.obj, Env):
        root.obj = Env()
    return root.obj
