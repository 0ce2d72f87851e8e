"""The hooks a meeple plugin may implement: the plugin author's reference.

A plugin is a module (or any object) with functions marked
``@meeple.core.hookimpl`` whose names are those below. Built-in plugins are
listed by module path in :data:`meeple.core.plugins.BUILTIN_PLUGINS`; a
third-party distribution declares its module in the ``meeple`` entry-point
group::

    [project.entry-points.meeple]
    tiny = "meeple_tiny"

An implementation may accept fewer arguments than the spec names (pluggy's
opt-in arguments), so hooks can grow new arguments without breaking plugins.

Hooks that run while a game is played (``meeple_after_action`` and the
like) are looked up once per match: a hook that no plugin implements costs
nothing in the hot loop.

A plugin that raises in ``meeple_games`` or ``meeple_bots`` is skipped whole
(see :class:`meeple.core.plugins.BrokenPlugin`); one that raises in
``meeple_levels`` or ``meeple_commands`` loses its levels or commands only; an
exception in any other hook becomes a :class:`meeple.core.errors.PluginError` naming the plugin.

Set ``MEEPLE_TRACE_HOOKS=1`` to print every hook call with its arguments and
results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import typer

    from meeple.core.game import Game
    from meeple.core.scoring import Score
    from meeple.core.state import Action, Event, State

NAME = "meeple"
hookspec = pluggy.HookspecMarker(NAME)


# -- Registration hooks: called once per plugin, when the registry is built ----


@hookspec
def meeple_games(register: Callable[..., None]) -> None:
    """Register game classes.

    Kind: collecting; return values are ignored.

    Call ``register(GameClass)`` once per game, with a subclass of
    :class:`meeple.core.game.Game`. Two games with the same ``id`` are an
    error naming both plugins; so is a class that lacks or misdeclares what
    a game needs (:func:`meeple.core.game.class_problems`), naming the class.

    :param register: the callback that records one game class.
    """


@hookspec
def meeple_bots(register: Callable[..., None]) -> None:
    """Register bots (computer players).

    Kind: collecting; return values are ignored.

    Call ``register(name, factory, games=None, help="", options=None)`` once
    per bot. ``factory(game, seat, stream)`` returns an object with a
    ``choose(prompt)`` method (see :class:`meeple.core.bots.Prompt`), where
    ``game`` is the :class:`~meeple.core.game.Game` being played, ``seat``
    the bot's seat and ``stream`` its private
    :class:`~meeple.core.rng.Stream` of random numbers. ``games`` is a tuple
    of game ids the bot can play, a test ``(game class) -> bool`` that picks
    them among the registered games (every game built on an engine, whoever
    registers it: ``lambda game: issubclass(game, MyEngine)``), or ``None``
    for a bot that plays any game.
    ``options`` is a :class:`~meeple.core.plugins.BotOptions` subclass for a
    bot that takes options (``--seats ismcts:iterations=200``); such a bot
    is built as ``factory(game, seat, stream, options, bots)``, ``bots(name)``
    giving the factory of another bot of the same game. Options that name a
    file (a trained model) pin it by its digest, so that records name the very
    file: see :meth:`~meeple.core.plugins.BotOptions.pinned`.

    :param register: the callback that records one bot.
    """


@hookspec
def meeple_levels(register: Callable[..., None]) -> None:
    """Declare what a game's difficulty levels play (``--seats human,bot:easy,bot:hard``).

    Kind: collecting; return values are ignored. Called after every plugin registered its
    games and bots, so a plugin may declare levels for another plugin's game.

    Call ``register(game, levels, measured=None)`` once per game: ``game`` is a game id,
    ``levels`` maps level names (``easy``, ``medium``, ``hard``: any of them) to bots as a
    seat names them (``"ismcts:iterations=400:depth=8"``), and ``measured`` is a file (a
    :class:`pathlib.Path` or an ``importlib.resources`` resource) holding their measured
    strength, a :class:`meeple.core.levels.Measured` table. A level no plugin declares plays
    the generic default (:meth:`meeple.core.plugins.Registry.levels`). A level that names a
    bot the game does not have, declared twice, or an unreadable table skips this plugin's
    levels only (the game keeps the defaults).

    :param register: the callback that records one game's levels.
    """


@hookspec
def meeple_commands(app: typer.Typer) -> None:
    """Add commands to the ``meeple`` command line.

    Kind: collecting; return values are ignored. Called only when plugin
    commands are needed (a command name that is not built in, or
    ``meeple plugins``), never for ``--help`` or ``--version``. Each plugin
    gets an app of its own; a name meeple or another plugin already has, or
    an exception, skips all of this plugin's commands.

    :param app: a Typer app whose commands join meeple's; use ``@app.command()``
        or ``app.add_typer``.
    """


# -- Game lifecycle hooks: called by the engine around a match -----------------


@hookspec
def meeple_setup(game: Game[Any, Any], state: State) -> None:
    """Adjust a freshly set-up state before the first decision (house rules).

    Kind: collecting; return values are ignored. Changes are made to
    ``state`` in place and become part of the game: records replay them
    because the same plugins run again, so a record made with a house-rule
    plugin only validates where that plugin is installed.

    :param game: the game being set up (its ``options`` are the setup options).
    :param state: the new state, which may be changed in place.
    """


@hookspec
def meeple_after_action(
    game: Game[Any, Any], state: State, seat: int, action: Action, events: list[Event]
) -> None:
    """Observe an action after it was applied (logs, statistics, displays).

    Kind: collecting; return values are ignored. Observers must not change
    ``state``; they see everything, hidden cards included, so a display for
    one seat must filter through ``game.presentation.describe_event(event, seat)``.

    :param game: the game being played.
    :param state: the state after the action.
    :param seat: the seat that acted.
    :param action: the action taken.
    :param events: the events the action caused, in order.
    """


@hookspec
def meeple_game_over(game: Game[Any, Any], state: State, scores: list[Score]) -> None:
    """Observe the end of a match, after scores are final.

    Kind: collecting; return values are ignored.

    :param game: the game that ended.
    :param state: the final state.
    :param scores: the final scores (after ``meeple_adjust_scores``), in seat order.
    """


@hookspec
def meeple_adjust_scores(game: Game[Any, Any], state: State, scores: list[Score]) -> None:
    """Change final scores (house rules, handicaps) before ranking.

    Kind: collecting; return values are ignored. Edit the :class:`Score`
    objects in place; keep ``total`` equal to the sum of ``parts`` by adding
    a part of your own (``score.parts["handicap"] = 2; score.total += 2``).

    :param game: the game being scored.
    :param state: the final state.
    :param scores: each seat's score, in seat order.
    """


@hookspec
def meeple_seat_measures(
    game: Game[Any, Any], state: State, seat: int
) -> Mapping[str, float | Mapping[str, int]] | None:
    """Measure a seat at the end of a game played with ``--card-facts``, for the balance report.

    Kind: collecting; the measures of every implementation are recorded, by name, next to
    the seat's card facts (:class:`meeple.core.cards.SeatCards`). Called for every game
    played with ``--card-facts``, so an implementation returns ``None`` for games not its own.

    :param game: the game that ended.
    :param state: the final state; do not change it.
    :param seat: the seat to measure.
    :return: measures by name, each a number (``{"gold": 7}``) or a count per name
        (``{"defeated": {"goblin": 2, "ogre": 1}}``), or ``None``.
    """


# -- Validation hooks ----------------------------------------------------------


@hookspec
def meeple_validate_state(game: Game[Any, Any], state: State) -> list[str] | None:
    """Add semantic checks to ``meeple validate`` and the conformance suite.

    Kind: collecting; every returned list of problems is reported. Called
    after the core's and the game's own checks passed.

    :param game: the game the state belongs to.
    :param state: the state to check; do not change it.
    :return: one message per problem (what, where, how to fix), or ``None``.
    """
