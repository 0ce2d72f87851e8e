"""Loading, replaying and checking the files a user keeps.

Checking a file goes through the same steps whatever is wrong with it:

1. :func:`load` reads the bytes (size limit), reads the header leniently
   (kind, format, game, rules version) and decodes strictly with the game's
   own types, so every problem names its ``$.json.path``;
2. :func:`replay` re-runs a record action by action, naming the first
   illegal step, and compares the final digest with the recorded one;
3. :func:`check` adds the semantic checks of a state (the game's
   :meth:`~meeple.core.game.Game.check_state` and the
   ``meeple_validate_state`` hook, and that a snapshot's setup agrees with
   its state) and returns the match the file leads to.

:func:`open_saved` is those three steps: ``play --resume`` and ``replay``
open a file with it. :func:`check_file` runs the same steps and turns every
finding into a :class:`Report`. It never raises for bad input: even a game
plugin that crashes on a strange file becomes one problem message, not a
traceback. So a file that validates is a file that plays.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from meeple.core import files, records
from meeple.core.bots import HUMAN
from meeple.core.engine import Hooks, Match
from meeple.core.errors import InvalidFile, MeepleError, PluginError
from meeple.core.game import PLAY_ON_MAX, Game
from meeple.core.plugins import Registry
from meeple.core.state import Action, Event, State


class Narration(Protocol):
    """Follows a replay step by step (``meeple replay`` prints its log this way)."""

    def before(self, step: int, state: State, action: Action) -> None:
        """``action``, about to be applied to ``state`` as step ``step``."""

    def after(self, step: int, state: State, events: list[Event]) -> None:
        """The events that step ``step`` caused; ``state`` is the state after it."""


@dataclass(frozen=True)
class Loaded:
    """A strictly decoded record or snapshot, with the game built from its options."""

    path: str
    kind: str
    """:data:`~meeple.core.records.RECORD` or :data:`~meeple.core.records.SNAPSHOT`."""
    game: Game[Any, Any]
    plugin: str
    """The name of the plugin that registered the game, for error messages."""
    value: Any
    """The :class:`~meeple.core.records.Record` or :class:`~meeple.core.records.Snapshot`."""

    @property
    def setup(self) -> records.Setup[Any]:
        setup: records.Setup[Any] = self.value.setup
        return setup

    @property
    def is_record(self) -> bool:
        return self.kind == records.RECORD


class Report(msgspec.Struct, kw_only=True):
    """The outcome of checking one file (``meeple validate --json`` prints a list of these)."""

    path: str
    ok: bool
    kind: str | None = None
    game: str | None = None
    steps: int | None = None
    """Actions in a record, or the step a snapshot was taken at."""
    problems: list[str] = msgspec.field(default_factory=list)


def load(path: str | os.PathLike[str], registry: Registry) -> Loaded:
    """Read and strictly decode a record or snapshot; :class:`InvalidFile` says what is wrong."""
    where = os.fspath(path)
    data = records.read_bytes(where)
    kind, game_id, version = records.header(data, where)
    try:
        game_cls = registry.game(game_id)
    except MeepleError as exc:
        raise InvalidFile(where, [f"$.setup.game: {exc}"]) from None
    if version != game_cls.version:
        raise InvalidFile(
            where,
            [
                f"$.setup.version: written for version {version!r} of the {game_cls.title} rules, "
                f"but version {game_cls.version!r} is installed; install the plugin release "
                "that wrote it to read it"
            ],
        )
    value = records.decode(data, game_cls, kind, where)
    _raise_problems(where, "", _seat_problems(value.setup, registry))
    # Before the game reads them: only the very files it was played with.
    problems = files.unavailable(value.setup.options, value.setup.files)
    if problems:
        raise InvalidFile(where, problems)
    plugin = registry.game_plugin(game_id)
    try:
        game = game_cls(value.setup.options)
    except Exception as exc:  # a plugin may reject its options in any way
        raise InvalidFile(
            where, [_crash(plugin, "building the game from $.setup.options", exc)]
        ) from None
    return Loaded(where, kind, game, plugin, value)


def replay(
    loaded: Loaded,
    hooks: Hooks,
    *,
    to: int | None = None,
    narration: Narration | None = None,
    check_every: int = 0,
) -> Match:
    """Re-run a record's actions and return the match.

    Raises :class:`InvalidFile` at the first illegal step (naming the step,
    the seat and the action), when the game's code fails, when a state check
    fails (every ``check_every`` steps, if positive), and -- for a full
    replay (``to`` is ``None``) -- when the final digest or the end of the
    game disagree with the record.
    """
    if not loaded.is_record:
        raise InvalidFile(loaded.path, ["this is a snapshot; only a record can be replayed"])
    game, record, path = loaded.game, loaded.value, loaded.path
    seats = len(record.setup.seats)
    if not game.min_seats <= seats <= game.max_seats:
        raise InvalidFile(
            path,
            [
                f"$.setup.seats: {seats} seats, but {game.title} takes "
                f"{game.min_seats}-{game.max_seats}"
            ],
        )
    step = 0
    try:
        match = Match.new(game, seats, record.setup.seed, hooks)
        actions = record.actions if to is None else record.actions[:to]
        for step, action in enumerate(actions, 1):
            legal = match.legal()
            if action not in legal:
                raise InvalidFile(path, [_illegal(game, match.state, step, action, legal)])
            if narration is not None:
                narration.before(step, match.state, action)
            events = match.step(action)
            if narration is not None:
                narration.after(step, match.state, events)
            if check_every > 0 and step % check_every == 0:
                _raise_problems(
                    path, f"after step {step}", state_problems(game, match.state, hooks)
                )
    except MeepleError as exc:
        if isinstance(exc, InvalidFile):
            raise
        raise InvalidFile(path, [f"{_at(step)}: {exc}"]) from None
    except Exception as exc:
        raise InvalidFile(path, [_crash(loaded.plugin, _at(step), exc)]) from None
    if to is None:
        _raise_problems(path, "", _end_problems(loaded, match))
    return match


def state_problems(game: Game[Any, Any], state: State, hooks: Hooks) -> list[str]:
    """The game's own checks of ``state``, then every ``meeple_validate_state`` hook's."""
    problems = game.check_state(state)
    if not problems and hooks.validate_state is not None:
        for found in hooks.validate_state(game=game, state=state):
            problems.extend(found or ())
    return problems


def check(loaded: Loaded, hooks: Hooks, *, check_every: int = 0) -> Match:
    """Every check of a loaded file; returns the match it leads to, ready to play on.

    A record is replayed (see :func:`replay`) and its final state checked; a
    snapshot's state is checked, and must agree with its setup. Raises
    :class:`InvalidFile` listing the problems.
    """
    if loaded.is_record:
        match = replay(loaded, hooks, check_every=check_every)
        _raise_problems(loaded.path, "", _checked(loaded, "the final state", match.state, hooks))
        return match
    _raise_problems(loaded.path, "", _snapshot_problems(loaded, hooks))
    return Match(loaded.game, loaded.value.state, hooks, loaded.setup.seed)


def open_saved(
    path: str | os.PathLike[str], registry: Registry, hooks: Hooks, *, check_every: int = 0
) -> tuple[Loaded, Match]:
    """Open a record or snapshot with every check ``meeple validate`` runs (:func:`load`,
    then :func:`check`): the file and the match to play on or show."""
    loaded = load(path, registry)
    return loaded, check(loaded, hooks, check_every=check_every)


def check_file(
    path: str | os.PathLike[str], registry: Registry, hooks: Hooks, *, check_every: int = 0
) -> Report:
    """Check one file completely; every finding is a problem in the report, never an exception.

    The steps are those of :func:`open_saved`, so a file reported valid opens.
    """
    report = Report(path=os.fspath(path), ok=False)
    try:
        loaded = load(path, registry)
        report.kind, report.game = loaded.kind, loaded.game.id
        report.steps = len(loaded.value.actions) if loaded.is_record else loaded.value.step
        check(loaded, hooks, check_every=check_every)
    except InvalidFile as exc:
        report.problems = list(exc.problems)
    except PluginError as exc:  # a score hook at the end of a replay
        report.problems = [str(exc)]
    except Exception as exc:  # the contract: a report, never a traceback
        report.problems = [f"unexpected error while checking: {type(exc).__name__}: {exc}"]
    report.ok = not report.problems
    return report


def _seat_problems(setup: records.Setup[Any], registry: Registry) -> list[str]:
    """Each seat is ``human`` or a bot that plays the game (else replaying it cannot start),
    with the very files its options pin (a model)."""
    problems = []
    for seat, name in enumerate(setup.seats):
        if name != HUMAN:
            try:
                player = registry.player(name, setup.game)
            except MeepleError as exc:
                problems.append(f"$.setup.seats[{seat}]: {exc}; a seat is {HUMAN!r} or a bot")
                continue
            problems.extend(f"$.setup.seats[{seat}]: {p}" for p in player.unavailable())
    return problems


def _snapshot_problems(loaded: Loaded, hooks: Hooks) -> list[str]:
    """The setup agrees with the state, then the state's checks."""
    setup, state = loaded.setup, loaded.value.state
    if loaded.value.step > PLAY_ON_MAX:
        return [f"$.step: {loaded.value.step}; a saved game's step stays below 2**62"]
    if state.seats != len(setup.seats):
        return [f"$.state.seats: {state.seats} seats, but $.setup.seats names {len(setup.seats)}"]
    game = loaded.game
    if game.min_seats <= state.seats <= game.max_seats:
        try:
            keeps_seed = game.layout(state.seats).keeps_seed
        except Exception as exc:
            return [_crash(loaded.plugin, "setting up a fresh game to compare with", exc)]
        if keeps_seed and state.rng.seed != setup.seed:
            return [
                f"$.state.rng.seed: {state.rng.seed}, but the game was set up with "
                f"$.setup.seed {setup.seed}; a game's random state keeps its seed"
            ]
    return _checked(loaded, "$.state", state, hooks)


def _checked(loaded: Loaded, where: str, state: State, hooks: Hooks) -> list[str]:
    """:func:`state_problems` with each located at ``where``, a crash being one more problem."""
    try:
        return _located(f"in {where}", state_problems(loaded.game, state, hooks))
    except PluginError as exc:  # a hook's failure names its own plugin, not the game's
        return [f"checking {where}: {exc}"]
    except Exception as exc:
        return [_crash(loaded.plugin, f"checking {where}", exc)]


def _end_problems(loaded: Loaded, match: Match) -> list[str]:
    record, game = loaded.value, loaded.game
    problems = []
    digest = game.digest(match.state)
    if digest != record.digest:
        problems.append(
            f"$.digest: the replayed game ends in state {digest}, not {record.digest}; "
            "the record was edited, or made with other rules or house-rule plugins"
        )
    if match.over != record.over:
        problems.append(
            f"$.over: the record says the game is {_over(record.over)}, "
            f"but after its {len(record.actions)} actions it is {_over(match.over)}"
        )
    elif match.over and record.scores is not None and record.scores != match.scores():
        problems.append("$.scores: the recorded scores differ from the replayed game's scores")
    return problems


def _over(over: bool) -> str:
    return "over" if over else "not over"


def _illegal(
    game: Game[Any, Any], state: State, step: int, action: Action, legal: list[Action]
) -> str:
    seat = state.to_move
    said = _describe(game, state, action)
    if seat is None:
        return f"step {step}: {said} comes after the end of the game; the record has extra actions"
    shown = [_describe(game, state, a) for a in legal[:6]]
    more = f" and {len(legal) - 6} more" if len(legal) > 6 else ""
    return (
        f"step {step} (seat {seat}): {said} is not legal: the legal actions were "
        f"{'; '.join(shown)}{more}"
    )


def _describe(game: Game[Any, Any], state: State, action: Action) -> str:
    try:
        return game.presentation.describe_action(state, action)
    except Exception:  # an illegal action may confuse the game's wording; the raw value will do
        return repr(action)


def _at(step: int) -> str:
    return f"step {step}" if step else "the set-up"


def _crash(plugin: str, where: str, exc: BaseException) -> str:
    return (
        f"the {plugin} plugin failed at {where}: {type(exc).__name__}: {exc} "
        "(the file is probably damaged; if not, report this to the plugin's authors)"
    )


def _located(where: str, problems: Iterable[str]) -> list[str]:
    return [f"{where}: {p}" for p in problems]


def _raise_problems(path: str, where: str, problems: list[str]) -> None:
    if problems:
        raise InvalidFile(path, _located(where, problems) if where else problems)
