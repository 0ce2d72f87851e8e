"""Building the plugin manager and the registry of games and bots.

There is no module-level manager: the CLI and each test build their own with
:func:`plugin_manager`, then :class:`Registry` collects what the plugins
register. The order follows pluggy's own host example: hookspecs, then
third-party plugins from the ``meeple`` entry-point group, then the built-in
plugins (which are ordinary plugins, registered by module path), then
``check_pending`` so a misspelled hook fails at start-up. A third-party plugin
that fails to load, or any plugin that raises in a registration hook, is
skipped and recorded in ``pm.broken`` (:class:`BrokenPlugin`); the others
keep working.

Environment:

``MEEPLE_NO_ENTRYPOINTS=1``
    Load no third-party plugins (built-ins only).
``MEEPLE_DISABLE_PLUGINS=a,b``
    Block plugins by name (an entry-point name or a built-in module path).
``MEEPLE_TRACE_HOOKS=1``
    Print every hook call and its result to standard error, the registration
    hooks included.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import metadata
from typing import Annotated, Any, NamedTuple

import msgspec
import pluggy

from meeple import plugins as builtin_games
from meeple.core import hookspecs
from meeple.core.errors import (
    MeepleError,
    PluginError,
    UnknownGame,
    cut,
    cut_in,
    echo,
    explain,
    one_of,
)
from meeple.core.game import Game, class_problems
from meeple.core.levels import LEVELS, Level, Measured, Readable, read_measured
from meeple.core.rng import bot_stream

hookimpl = pluggy.HookimplMarker(hookspecs.NAME)
"""Marker for hook implementations: ``@hookimpl def meeple_games(register): ...``."""

ENTRY_POINT_GROUP = "meeple"

BUILTIN_PLUGINS = (
    "meeple.core.bots",
    "meeple.core.search",
    "meeple.core.policy",
    *builtin_games.GAMES,
)
"""Built-in plugins, by module path, registered after third-party ones. The core
names none of the games: their list belongs to the package that holds them."""


class PluginInfo(msgspec.Struct, frozen=True):
    """One registered plugin, for listings."""

    name: str
    builtin: bool
    hooks: list[str]
    distribution: str | None = None
    version: str | None = None


PARTIAL = {"meeple_commands": "commands", "meeple_levels": "levels"}
"""The hooks whose failure costs a plugin only what they add, not its registration."""


class BrokenPlugin(msgspec.Struct, frozen=True):
    """A plugin that failed to load or to register; the other plugins still work.

    A plugin that fails to import, implements a hook meeple does not know,
    or raises in ``meeple_games`` or ``meeple_bots`` is skipped whole: it is
    unregistered and nothing it registered is kept. One that raises in
    ``meeple_commands`` loses its commands only, because that hook is called
    only when plugin commands are needed; one that raises in ``meeple_levels``
    loses its levels only, which the games' generic defaults replace.
    """

    name: str
    error: str
    """What went wrong, in one line: the exception, its message and where it was raised."""
    stage: str = "import"
    """``import``, or the registration hook that raised."""

    @classmethod
    def of(cls, name: str, stage: str, exc: BaseException) -> BrokenPlugin:
        if isinstance(exc, pluggy.PluginValidationError):  # pluggy's own words; its frame is noise
            return cls(name, f"{type(exc).__name__}: {exc}", stage)
        return cls(name, explain(exc), stage)

    def describe(self) -> str:
        """What is skipped and why, for the full report of ``meeple plugins``."""
        if what := PARTIAL.get(self.stage):
            return f"plugin {self.name!r}: its {what} are skipped ({self.stage}): {self.error}"
        skipped = "failed to load and is skipped" if self.stage == "import" else "is skipped"
        return f"plugin {self.name!r} {skipped} ({self.stage}): {self.error}"


class PluginManager(pluggy.PluginManager):
    """pluggy's manager, remembering the distributions and the broken plugins it met."""

    def __init__(self) -> None:
        super().__init__(hookspecs.NAME)
        self.add_hookspecs(hookspecs)
        self.broken: list[BrokenPlugin] = []
        self.dists: dict[str, tuple[str, str]] = {}

    def skip(self, name: str, stage: str, exc: BaseException) -> None:
        """Unregister the plugin ``name`` (if it is registered) and record it as broken."""
        if self.has_plugin(name):
            self.unregister(name=name)
        self.broken.append(BrokenPlugin.of(name, stage, exc))

    def each_implementation(self, hook: str) -> Iterator[tuple[str, Callable[..., Any]]]:
        """``(plugin name, call)`` for every plugin implementing ``hook``, in pluggy's call order.

        ``call(**kwargs)`` calls that plugin's implementation alone, through
        pluggy (so ``MEEPLE_TRACE_HOOKS`` traces it): a registration hook is
        called plugin by plugin so that one failing plugin can be skipped.
        """
        impls = getattr(self.hook, hook).get_hookimpls()
        for impl in reversed(impls):  # pluggy calls the last registered first
            others = [i.plugin for i in impls if i.plugin is not impl.plugin]
            yield impl.plugin_name, self.subset_hook_caller(hook, others)


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
            pm.skip(ep.name, "import", exc)  # registration may have stopped half-way
            continue
        dist = ep.dist
        if dist is not None:
            pm.dists[ep.name] = (dist.metadata["Name"], dist.version)


def plugin_error(exc: BaseException) -> PluginError | None:
    """``exc`` as the error of the third-party plugin whose code raised it, naming the
    function that did (``plugin 'cards' failed in Deck.draw: ...``): the innermost frame in
    the package of a ``meeple`` entry point. ``None`` when no plugin's code was on the way:
    a bug of meeple's own.

    For an error that no hook call wrapped (a bot's decision, a game's rules), so that the
    command line and a run's failed game blame the plugin its authors can fix.
    """
    packages = {
        ep.module.partition(".")[0]: ep.name
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)
        if not ep.module.startswith(("meeple.", "meeple:"))
    }
    found = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        plugin = packages.get(str(frame.f_globals.get("__name__", "")).partition(".")[0])
        if plugin is not None:
            found = (plugin, frame.f_code.co_qualname)
        tb = tb.tb_next
    return None if found is None else PluginError(found[:1], found[1], exc)


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


class BotOptions(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, frozen=True):
    """A bot's options. Subclass with defaulted fields; docstrings are the help.

    A field typed :data:`BotName` names another bot (a rollout policy): the
    registry checks that it plays the game.

    Options that name a file (a trained model) pin it down, so that a saved game or a run
    names the very file: :meth:`pinned` fills in its digest when the local user names the
    seat, and :meth:`unavailable` says when a saved game's file is no longer that one.
    """

    def pinned(self) -> BotOptions:
        """These options as a saved game keeps them, for a seat the local user names (the
        command line, never a file): what they name is read and pinned (a file's digest).
        Raises :class:`MeepleError` when it cannot be. By default, the options as given."""
        return self

    def unavailable(self) -> list[str]:
        """What keeps these options, read from a saved game, from playing as they did: a
        file they name that is not the one they pin. By default, nothing."""
        return []


BotName = Annotated[str, msgspec.Meta(extra={"bot": True})]
"""An option that names another bot of the same game."""

_BotOptions = BotOptions  # for annotations inside BotSpec, whose ``options`` field shadows it


class BotSpec(msgspec.Struct, frozen=True):
    """A registered bot: its name, the games it plays (``None``: all), its help and options.

    A bot without options is built as ``factory(game, seat, stream)``; one
    that declares an ``options`` struct as ``factory(game, seat, stream,
    options, bots)``, where ``bots(name)`` is the factory of another bot
    that plays the same game (for the options typed :data:`BotName`).
    """

    name: str
    factory: Callable[..., Any]
    games: tuple[str, ...] | None = None
    help: str = ""
    plugin: str = ""
    options: type[_BotOptions] | None = None

    def plays(self, game_id: str) -> bool:
        return self.games is None or game_id in self.games

    def clash(self, other: BotSpec) -> str | None:
        """Where ``other``, a bot of the same name, would be taken for this one: ``"every
        game"`` or the games both play (``None``: nowhere -- a game's own bot may share
        a generic bot's name, and wins over it)."""
        if (self.games is None) != (other.games is None):
            return None
        if self.games is None or other.games is None:
            return "every game"
        both = [g for g in self.games if g in other.games]
        return ", ".join(both) or None


class Player(msgspec.Struct, frozen=True):
    """A seat's bot with its options, as ``--seats`` and records name it (``ismcts:time=0.5``)."""

    spec: BotSpec
    options: BotOptions | None
    text: str
    """The canonical name: the bot's, then each option given or pinned, ``:key=value``."""
    bots: Callable[[str], Callable[..., Any]]

    def unavailable(self) -> list[str]:
        """What keeps this seat, read from a saved game, from playing as it did
        (:meth:`BotOptions.unavailable`)."""
        return [] if self.options is None else self.options.unavailable()

    def make(self, game: Game[Any, Any], seat: int, seed: int) -> Any:
        """The bot for ``seat`` of the game seeded ``seed``, with its private stream.

        A factory that raises is reported as its plugin's error (:class:`PluginError`).
        """
        spec = self.spec
        stream = bot_stream(seed, seat, spec.name)
        try:
            if self.options is None:
                return spec.factory(game, seat, stream)
            return spec.factory(game, seat, stream, self.options, self.bots)
        except MeepleError:  # phrased for a user already
            raise
        except Exception as exc:  # a plugin's code may fail in any way
            raise PluginError((spec.plugin,), f"the factory of bot {spec.name!r}", exc) from exc


def option_text(value: Any) -> str:
    """An option's value as a seat name writes it (``0.5``, ``true``, ``random``)."""
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


class Registry:
    """The games and bots that the plugins of one manager register.

    Each plugin's ``meeple_games`` and ``meeple_bots`` are called on their
    own; a plugin that raises in either (or registers a game id another
    plugin has, a bot another plugin has for the same games, something that
    is not a game, or a game class with
    :func:`~meeple.core.game.class_problems`) is skipped whole -- see
    :class:`BrokenPlugin` -- and keeps nothing it registered. Plugins are
    called in pluggy's order, the last registered first, so a third-party
    plugin that reuses a built-in game's id is the one skipped. Then each
    plugin's ``meeple_levels``: one that raises, or declares levels that do
    not resolve, loses its levels only (:meth:`levels`).
    """

    def __init__(self, pm: PluginManager) -> None:
        self.pm = pm
        self.games: dict[str, type[Game[Any, Any]]] = {}
        self.bots: dict[str, list[BotSpec]] = {}
        self._game_plugins: dict[str, str] = {}
        for plugin, call in pm.each_implementation("meeple_games"):
            games: dict[str, type[Game[Any, Any]]] = {}
            try:
                call(register=self._game_registrar(plugin, games))
            except Exception as exc:  # a plugin may fail in any way
                pm.skip(plugin, "meeple_games", exc)
                continue
            self.games.update(games)
            self._game_plugins.update(dict.fromkeys(games, plugin))
        for plugin, call in pm.each_implementation("meeple_bots"):
            bots: list[BotSpec] = []
            try:
                call(register=self._bot_registrar(plugin, bots))
            except Exception as exc:
                pm.skip(plugin, "meeple_bots", exc)
                for game_id in [g for g, p in self._game_plugins.items() if p == plugin]:
                    del self.games[game_id], self._game_plugins[game_id]
                continue
            for spec in bots:
                self.bots.setdefault(spec.name, []).append(spec)
        self._levels: dict[str, _Declared] = {}
        for plugin, call in pm.each_implementation("meeple_levels"):
            declared: dict[str, _Declared] = {}
            try:
                call(register=self._level_registrar(plugin, declared))
            except Exception as exc:
                pm.broken.append(BrokenPlugin.of(plugin, "meeple_levels", exc))
                continue
            self._levels.update(declared)

    def _game_registrar(
        self, plugin: str, games: dict[str, type[Game[Any, Any]]]
    ) -> Callable[[type[Game[Any, Any]]], None]:
        def register(game: type[Game[Any, Any]]) -> None:
            if not (isinstance(game, type) and issubclass(game, Game)):
                raise MeepleError(f"it registered {game!r}, which is not a Game subclass")
            problems = class_problems(game)
            if problems:
                name = f"{game.__module__}.{game.__qualname__}"
                raise MeepleError(f"its game class {name} {'; '.join(problems)}")
            if game.id in self.games or game.id in games:
                first = self._game_plugins.get(game.id, plugin)
                raise MeepleError(
                    f"game id {game.id!r} is registered by both {first!r} and {plugin!r}; "
                    "uninstall one or block it with MEEPLE_DISABLE_PLUGINS"
                )
            games[game.id] = game

        return register

    def _bot_registrar(self, plugin: str, bots: list[BotSpec]) -> Callable[..., None]:
        def register(
            name: str,
            factory: Callable[..., Any],
            games: Iterable[str] | Callable[[type[Game[Any, Any]]], bool] | None = None,
            help: str = "",
            options: type[BotOptions] | None = None,
        ) -> None:
            # Every plugin's games are registered before any bot: a test picks among them all.
            playable = (
                None
                if games is None
                else tuple(g for g, cls in self.games.items() if games(cls))
                if callable(games)
                else tuple(games)
            )
            spec = BotSpec(name, factory, playable, help, plugin, options)
            for other in [*self.bots.get(name, ()), *(b for b in bots if b.name == name)]:
                if where := spec.clash(other):
                    who = (
                        f"twice by {plugin!r}"
                        if other.plugin == plugin
                        else f"by both {other.plugin!r} and {plugin!r}"
                    )
                    raise MeepleError(
                        f"bot {name!r} for {where} is registered {who}; rename one, uninstall "
                        "one or block it with MEEPLE_DISABLE_PLUGINS"
                    )
            bots.append(spec)

        return register

    def _level_registrar(self, plugin: str, declared: dict[str, _Declared]) -> Callable[..., None]:
        def register(
            game: str, levels: Mapping[str, str], measured: Readable | None = None
        ) -> None:
            if game not in self.games:
                raise MeepleError(f"it declares levels for {echo(game)}, which is not installed")
            if game in self._levels or game in declared:
                first = self._levels[game].plugin if game in self._levels else plugin
                raise MeepleError(
                    f"the levels of {game} are declared by both {first!r} and {plugin!r}"
                )
            unknown = sorted(set(levels) - set(LEVELS))
            if unknown:
                raise MeepleError(
                    f"it declares a level {echo(unknown[0])} for {game}; "
                    f"the levels are {', '.join(LEVELS)}"
                )
            bots = {}
            for name, text in levels.items():
                try:
                    bots[name] = self.player(text, game).text
                except MeepleError as exc:
                    raise MeepleError(f"its level {name} of {game}: {exc}") from None
            table = None if measured is None else read_measured(measured, game)
            declared[game] = _Declared(plugin, bots, table)

        return register

    def levels(self, game_id: str) -> list[Level]:
        """The game's levels, weakest first, each resolved to a bot with its measured strength.

        A level no plugin declares plays a generic default: ``easy`` plays ``random``;
        ``medium`` and ``hard`` the game's own bot (:meth:`own_bot`), or the search bot
        ``ismcts`` with its defaults if the game has none.
        """
        declared = self._levels.get(game_id)
        own = self.own_bot(game_id)
        if own is None:
            own = "ismcts" if "ismcts" in self.bot_names(game_id) else "random"
        out = []
        for name in LEVELS:
            if declared is not None and name in declared.bots:
                level = Level(name=name, bot=declared.bots[name], plugin=declared.plugin)
            else:
                bot = "random" if name == "easy" else own
                note = f"{game_id} declares no {name} level: it plays the default, {bot}"
                level = Level(name=name, bot=bot, plugin="", note=note)
            table = declared.measured if declared is not None else None
            strength = table.levels.get(name) if table is not None else None
            if table is not None and strength is not None and strength.bot == level.bot:
                level = msgspec.structs.replace(
                    level, strength=strength, measured=table.command, seats=table.seats
                )
            out.append(level)
        return out

    def level(self, game_id: str, name: str) -> Level:
        """The level ``name`` of the game, or an error listing its levels."""
        levels = self.levels(game_id)
        for level in levels:
            if level.name == name:
                return level
        known = ", ".join(f"{lv.name} ({lv.bot})" for lv in levels)
        raise MeepleError(
            f"no level {echo(name)} in {game_id}; its levels: {known} "
            f"(write bot:{LEVELS[0]}; `meeple games --bots` shows them)"
        )

    def own_bot(self, game_id: str) -> str | None:
        """The game's own bot (the first by name, when it has several): one registered for
        some games only, that plays this one. ``None`` if it has none."""
        own = (
            name
            for name, specs in self.bots.items()
            if any(s.games is not None and game_id in s.games for s in specs)
        )
        return min(own, default=None)

    def game(self, game_id: str) -> type[Game[Any, Any]]:
        """The game class with this id, or an error listing the installed ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(
                f"no game {echo(game_id)} is installed (installed: {known}); "
                "`meeple games` lists them"
            ) from None

    def game_plugin(self, game_id: str) -> str:
        return self._game_plugins[game_id]

    def bot(self, name: str, game_id: str) -> BotSpec:
        """The bot ``name`` for ``game_id``; a game-specific bot wins over a generic one."""
        specs = [s for s in self.bots.get(name, ()) if s.plays(game_id)]
        if not specs:
            known = ", ".join(self.bot_names(game_id)) or "none"
            raise MeepleError(f"no bot {echo(name)} plays {game_id} (bots for {game_id}: {known})")
        return min(specs, key=lambda s: s.games is None)

    def player(self, text: str, game_id: str, *, pin: bool = False) -> Player:
        """The bot a seat names, with its options: ``name`` or ``name:key=value:key=value``.

        ``pin``: the local user names the seat (the command line), so its options are
        pinned (:meth:`BotOptions.pinned`), and the canonical name holds what that adds.
        A name read from a file is taken as written. The game's
        :attr:`~meeple.core.game.Game.bot_options` fill in the options the seat does not
        give, and the canonical name holds them too.

        Raises :class:`MeepleError` in one line naming the bot and the option
        at fault (unknown, of the wrong type, out of range).
        """
        name, *items = text.split(":")
        spec = self.bot(name.strip(), game_id)
        if spec.options is None:
            if items:
                raise MeepleError(f"bot {spec.name!r} takes no options, but was given {echo(text)}")
            return Player(spec, None, spec.name, self._bots(game_id))
        fields = {f.name: f for f in msgspec.structs.fields(spec.options)}
        # The game's own defaults, then what the seat gives: both checked alike.
        game = self.games.get(game_id)
        defaults = game.bot_options.get(spec.name, {}) if game is not None else {}
        raw: dict[str, str] = {}
        for item in [f"{k}={v}" for k, v in defaults.items()] + items:
            key, sep, value = (part.strip() for part in item.partition("="))
            if not sep or key not in fields:
                what = (
                    f"has no option {echo(key)}" if sep else f"option {echo(item)} is not key=value"
                )
                raise MeepleError(
                    f"bot {spec.name!r} {what}; its options: {', '.join(fields)} "
                    f"(write {spec.name}:{next(iter(fields), 'key')}=value)"
                )
            try:  # each option alone, so that the message names it
                msgspec.convert({key: value}, spec.options, strict=False)
            except msgspec.ValidationError as exc:  # its path is the option, named already
                problem = str(exc).rpartition(" - at `$")[0] or str(exc)
                raise MeepleError(
                    f"bot {spec.name!r}, option {cut(f'{key}={value}')}: {cut_in(problem, value)}"
                    + one_of(spec.options, key)
                ) from None
            if _names_bot(fields[key]):
                try:
                    self.bot(value, game_id)
                except MeepleError as exc:
                    raise MeepleError(
                        f"bot {spec.name!r}, option {cut(f'{key}={value}')}: {exc}"
                    ) from None
            raw[key] = value
        try:
            given = msgspec.convert(raw, spec.options, strict=False)
        except msgspec.ValidationError as exc:  # options that do not go together
            raise MeepleError(f"bot {spec.name!r}: {exc}") from None
        options = given.pinned() if pin else given
        named = [k for k in fields if k in raw or getattr(options, k) != getattr(given, k)]
        text = spec.name + "".join(f":{k}={option_text(getattr(options, k))}" for k in named)
        return Player(spec, options, text, self._bots(game_id))

    def _bots(self, game_id: str) -> Callable[[str], Callable[..., Any]]:
        """``bots(name)``: the factory ``(game, seat, stream)`` of a bot of this game,
        with its default options if it takes any."""

        def bots(name: str) -> Callable[..., Any]:
            spec = self.bot(name, game_id)
            if spec.options is None:
                return spec.factory
            factory, defaults = spec.factory, spec.options()
            return lambda game, seat, stream: factory(game, seat, stream, defaults, bots)

        return bots

    def bot_names(self, game_id: str) -> list[str]:
        return sorted(n for n, specs in self.bots.items() if any(s.plays(game_id) for s in specs))


class _Declared(NamedTuple):
    """The levels one plugin declared for one game: their bots, canonical, and strength."""

    plugin: str
    bots: dict[str, str]
    measured: Measured | None


def _names_bot(field: msgspec.structs.FieldInfo) -> bool:
    """Whether an option field is typed :data:`BotName`."""
    meta = getattr(field.type, "__metadata__", ())
    return any(isinstance(m, msgspec.Meta) and (m.extra or {}).get("bot") for m in meta)
