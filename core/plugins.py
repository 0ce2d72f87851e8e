"""Building the plugin manager and the registry of games and bots.

There is no module-level manager: the CLI and each test build their own with
:func:`plugin_manager`, then :class:`Registry` collects what the plugins
register. The order follows pluggy's own host example: hookspecs, then
third-party plugins from the ``meeple`` entry-point group, then the built-in
plugins (which are ordinary plugins, registered by module path), then
``check_pending`` so a misspelled hook fails at start-up.

Environment:

``MEEPLE_NO_ENTRYPOINTS=1``
    Load no third-party plugins (built-ins only).
``MEEPLE_DISABLE_PLUGINS=a,b``
    Block plugins by name (an entry-point name or a built-in module path).
``MEEPLE_TRACE_HOOKS=1``
    Print every hook call and its result to standard error.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

import msgspec
import pluggy

from meeple import plugins as builtin_games
from meeple.core import hookspecs
from meeple.core.errors import MeepleError, UnknownGame
from meeple.core.game import Game

hookimpl = pluggy.HookimplMarker(hookspecs.NAME)
"""Marker for hook implementations: ``@hookimpl def meeple_games(register): ...``."""

ENTRY_POINT_GROUP = "meeple"

BUILTIN_PLUGINS = ("meeple.core.bots", *builtin_games.GAMES)
"""Built-in plugins, by module path, registered after third-party ones. The core
names none of the games: their list belongs to the package that holds them."""


class PluginInfo(msgspec.Struct, frozen=True):
    """One registered plugin, for listings."""

    name: str
    builtin: bool
    hooks: list[str]
    distribution: str | None = None
    version: str | None = None


class BrokenPlugin(msgspec.Struct, frozen=True):
    """A third-party plugin that failed to load; the rest still work."""

    name: str
    error: str


class PluginManager(pluggy.PluginManager):
    """pluggy's manager, remembering the distributions and the broken plugins it met."""

    def __init__(self) -> None:
        super().__init__(hookspecs.NAME)
        self.add_hookspecs(hookspecs)
        self.broken: list[BrokenPlugin] = []
        self.dists: dict[str, tuple[str, str]] = {}


def plugin_manager(*, entry_points: bool | None = None, extra: Iterable[Any] = ()) -> PluginManager:
    """A fresh plugin manager with the hookspecs, third-party and built-in plugins.

    ``entry_points`` defaults to ``True`` unless ``MEEPLE_NO_ENTRYPOINTS`` is
    set. ``extra`` plugins (objects or modules) are registered last, which is
    how tests add a plugin for their own duration.
    """
    pm = PluginManager()
    for name in filter(None, os.environ.get("MEEPLE_DISABLE_PLUGINS", "").split(",")):
        pm.set_blocked(name.strip())
    if entry_points is None:
        entry_points = not os.environ.get("MEEPLE_NO_ENTRYPOINTS")
    if entry_points:
        _load_entry_points(pm)
    for path in BUILTIN_PLUGINS:
        if not pm.is_blocked(path):
            pm.register(importlib.import_module(path), name=path)
    for plugin in extra:
        pm.register(plugin)
    pm.check_pending()
    if os.environ.get("MEEPLE_TRACE_HOOKS"):
        pm.trace.root.setwriter(lambda text: print(text, end="", file=sys.stderr))
        pm.enable_tracing()
    return pm


def _load_entry_points(pm: PluginManager) -> None:
    # Each entry point is loaded on its own so that one broken plugin is
    # reported (``meeple plugins``) instead of stopping every command.
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if pm.is_blocked(ep.name) or pm.get_plugin(ep.name) is not None:
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
            pm.check_pending()  # a misspelled hook makes this plugin broken, not the CLI
        except Exception as exc:  # a plugin's import may fail in any way
            if pm.has_plugin(ep.name):  # registration may have stopped half-way
                pm.unregister(name=ep.name)
            pm.broken.append(BrokenPlugin(ep.name, f"{type(exc).__name__}: {exc}"))
            continue
        dist = ep.dist
        if dist is not None:
            pm.dists[ep.name] = (dist.metadata["Name"], dist.version)


def list_plugins(pm: PluginManager) -> list[PluginInfo]:
    """Every registered plugin with the hooks it implements."""
    dists = pm.dists
    out = []
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or ())
        dist = dists.get(name)
        out.append(
            PluginInfo(
                name=name,
                builtin=name in BUILTIN_PLUGINS,
                hooks=hooks,
                distribution=dist[0] if dist else None,
                version=dist[1] if dist else None,
            )
        )
    return sorted(out, key=lambda p: (p.builtin, p.name))


class BotSpec(msgspec.Struct, frozen=True):
    """A registered bot: its name, the games it plays (``None``: all), its help."""

    name: str
    factory: Callable[..., Any]
    games: tuple[str, ...] | None = None
    help: str = ""
    plugin: str = ""

    def plays(self, game_id: str) -> bool:
        return self.games is None or game_id in self.games


class Registry:
    """The games and bots that the plugins of one manager register."""

    def __init__(self, pm: PluginManager) -> None:
        self.pm = pm
        self.games: dict[str, type[Game[Any, Any]]] = {}
        self.bots: dict[str, list[BotSpec]] = {}
        self._game_plugins: dict[str, str] = {}
        for impl in pm.hook.meeple_games.get_hookimpls():
            impl.function(register=self._game_registrar(impl.plugin_name))
        for impl in pm.hook.meeple_bots.get_hookimpls():
            impl.function(register=self._bot_registrar(impl.plugin_name))

    def _game_registrar(self, plugin: str) -> Callable[[type[Game[Any, Any]]], None]:
        def register(game: type[Game[Any, Any]]) -> None:
            if not (isinstance(game, type) and issubclass(game, Game)):
                raise MeepleError(
                    f"plugin {plugin!r} registered {game!r}, which is not a Game subclass"
                )
            if game.id in self.games:
                raise MeepleError(
                    f"game id {game.id!r} is registered by both {self._game_plugins[game.id]!r} "
                    f"and {plugin!r}; uninstall one or block it with MEEPLE_DISABLE_PLUGINS"
                )
            self.games[game.id] = game
            self._game_plugins[game.id] = plugin

        return register

    def _bot_registrar(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            factory: Callable[..., Any],
            games: Iterable[str] | None = None,
            help: str = "",
        ) -> None:
            spec = BotSpec(name, factory, tuple(games) if games is not None else None, help, plugin)
            self.bots.setdefault(name, []).append(spec)

        return register

    def game(self, game_id: str) -> type[Game[Any, Any]]:
        """The game class with this id, or an error listing the installed ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(
                f"no game {game_id!r} is installed (installed: {known}); `meeple games` lists them"
            ) from None

    def game_plugin(self, game_id: str) -> str:
        return self._game_plugins[game_id]

    def bot(self, name: str, game_id: str) -> BotSpec:
        """The bot ``name`` for ``game_id``; a game-specific bot wins over a generic one."""
        specs = [s for s in self.bots.get(name, ()) if s.plays(game_id)]
        if not specs:
            known = ", ".join(self.bot_names(game_id)) or "none"
            raise MeepleError(f"no bot {name!r} plays {game_id} (bots for {game_id}: {known})")
        return min(specs, key=lambda s: s.games is None)

    def bot_names(self, game_id: str) -> list[str]:
        return sorted(n for n, specs in self.bots.items() if any(s.plays(game_id) for s in specs))
