"""The engine: plays a game, records it, and calls the hooks around it.

:class:`Match` is the one place that checks legality, keeps the action log,
calls observers and scores the end -- the bookkeeping no game may skip (as a
final template method does in TAG). Games are called directly in the hot
loop; hooks are looked up once per match, and one that no plugin implements
is never called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pluggy

from meeple.core.bots import Bot, Prompt
from meeple.core.errors import IllegalAction, MeepleError, PluginError
from meeple.core.game import Game
from meeple.core.scoring import Score
from meeple.core.state import Action, Event, State


class Hooks:
    """Typed access to the lifecycle hooks, each ``None`` when nobody implements it.

    A hook that some plugin implements is wrapped so that an exception from
    an implementation becomes a :class:`~meeple.core.errors.PluginError`
    naming the plugin whose implementation raised -- not the game being
    played. The wrapper costs one call when the hook runs and nothing
    otherwise.
    """

    def __init__(self, pm: pluggy.PluginManager | None) -> None:
        def caller(name: str) -> _Hook | None:
            if pm is None:
                return None
            hook = getattr(pm.hook, name)
            return _Hook(hook) if hook.get_hookimpls() else None

        self.setup = caller("meeple_setup")
        self.after_action = caller("meeple_after_action")
        self.game_over = caller("meeple_game_over")
        self.adjust_scores = caller("meeple_adjust_scores")
        self.validate_state = caller("meeple_validate_state")
        self.seat_measures = caller("meeple_seat_measures")


class _Hook:
    """One hook caller whose failures name the plugin at fault."""

    __slots__ = ("_caller",)

    def __init__(self, caller: pluggy.HookCaller) -> None:
        self._caller = caller

    def __call__(self, **kwargs: Any) -> Any:
        try:
            return self._caller(**kwargs)
        except Exception as exc:
            raise PluginError(_raisers(self._caller, exc), self._caller.name, exc) from exc


def _raisers(caller: pluggy.HookCaller, exc: BaseException) -> tuple[str, ...]:
    """The plugin whose implementation of ``caller``'s hook raised ``exc``.

    pluggy calls each implementation from its own loop, so the outermost
    traceback frame running an implementation's code is the one pluggy
    called. Two plugins may share that code (instances of one class); the
    frame's ``self`` then tells them apart. Without such a frame (an
    implementation that is not a Python function) every implementing plugin
    is named.
    """
    impls = caller.get_hookimpls()
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        running = [i for i in impls if _code(i.function) is frame.f_code]
        if running:
            first = frame.f_code.co_varnames[:1]
            owner = frame.f_locals.get(first[0]) if first else None
            mine = [i for i in running if getattr(i.function, "__self__", None) is owner]
            return ((mine or running)[0].plugin_name,)
        tb = tb.tb_next
    return tuple(i.plugin_name for i in reversed(impls))


def _code(function: Callable[..., Any]) -> object:
    return getattr(getattr(function, "__func__", function), "__code__", None)


class TooLong(MeepleError):
    """A match went past its decision limit (a game that cannot end, or a loop of free actions)."""


MAX_DECISIONS = 1_000_000
"""The decisions :meth:`Match.run` lets a game take before it stops it as :class:`TooLong`."""


class Rewound(Exception):
    """Raised by a player that took the match back (:meth:`Match.rewind`) while asked for
    a decision: :meth:`Match.run` asks again, at the state the match is in now."""


class Match:
    """One game in progress: the state, the actions so far, the hooks.

    ``Match.new`` sets a game up; ``step`` applies one checked action (``apply_legal`` one
    taken from ``legal``); ``run`` lets players answer every decision until the game is
    over; ``rewind`` takes actions back.
    """

    def __init__(self, game: Game[Any, Any], state: State, hooks: Hooks, seed: int) -> None:
        self.game = game
        self.state = state
        self.hooks = hooks
        self.seed = seed
        self.actions: list[Action] = []
        self._legal: list[Action] | None = None

    @classmethod
    def new(cls, game: Game[Any, Any], seats: int, seed: int, hooks: Hooks) -> Match:
        if not game.min_seats <= seats <= game.max_seats:
            raise MeepleError(
                f"{game.title} takes {game.min_seats}-{game.max_seats} seats, not {seats}"
            )
        state = game.setup(seats, seed)
        if hooks.setup is not None:
            hooks.setup(game=game, state=state)
        return cls(game, state, hooks, seed)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def legal(self) -> list[Action]:
        """The legal actions now (computed once per state)."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state)
        return self._legal

    def step(self, action: Action) -> list[Event]:
        """Apply ``action`` if it is legal now; raise :class:`IllegalAction` otherwise."""
        self._check(action, self.legal())
        return self.apply_legal(action)

    def _check(self, action: Action, legal: list[Action]) -> None:
        """The one legality check of a game: the rules (``Game.resolve``) trust their caller.

        ``in`` tries identity first, so checking a bot's pick, taken from ``legal``, is cheap.
        """
        if action not in legal:
            seat, step = self.state.to_move, len(self.actions) + 1
            raise IllegalAction(
                f"step {step}: {self.game.presentation.describe_action(self.state, action)} "
                f"is not legal for seat {seat} now"
                if seat is not None
                else f"step {step}: the game is already over"
            )

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply ``action``, taken from this state's :meth:`legal` list, without checking it
        again (a caller that picks from that list needs no second search of it)."""
        seat = self.state.to_move
        events = self.game.resolve(self.state, action)
        self.actions.append(action)
        self._legal = None
        if self.hooks.after_action is not None:
            self.hooks.after_action(
                game=self.game, state=self.state, seat=seat, action=action, events=events
            )
        return events

    def rewind(self, state: State, kept: int) -> None:
        """Go back to ``state``, the state after the first ``kept`` actions (rebuilt by
        replaying them), as if none of the later ones had been chosen: they leave the log.

        Observer hooks already told of a later action are not told to forget it.
        """
        self.state = state
        del self.actions[kept:]
        self._legal = None

    def run(
        self,
        players: Sequence[Bot],
        *,
        on_events: Callable[[int, Action, list[Event]], None] | None = None,
        max_steps: int = MAX_DECISIONS,
    ) -> list[Score]:
        """Let ``players[seat]`` answer every decision until the game ends; return the scores.

        The loop is :meth:`step` unrolled: the same check of each pick against
        the legal actions, the same log and hooks, with every lookup hoisted
        out of it -- at tens of thousands of decisions a second its own
        overhead counts for every game.
        """
        game, state = self.game, self.state
        legal_actions, resolve, log = game.legal_actions, game.resolve, self.actions.append
        check = self._check
        after_action = self.hooks.after_action
        legal, self._legal = self._legal, None
        # One view builder per seat, made once: the state changes in place.
        views = [partial(game.view, state, s) for s in range(len(players))]
        for _ in range(max_steps):
            if not state.stack:
                break
            seat = state.stack[-1].seat
            if legal is None:
                legal = legal_actions(state)
            try:
                action = players[seat].choose(
                    Prompt(game=game, seat=seat, legal=legal, make_view=views[seat])
                )
            except Rewound:
                state, legal = self.state, None
                views = [partial(game.view, state, s) for s in range(len(players))]
                continue
            check(action, legal)
            legal = None
            events = resolve(state, action)
            log(action)
            if after_action is not None:
                after_action(game=game, state=state, seat=seat, action=action, events=events)
            if on_events is not None:
                on_events(seat, action, events)
        else:
            if state.stack:
                raise TooLong(f"{game.title} did not end within {max_steps} decisions")
        scores = self.scores()
        if self.hooks.game_over is not None:
            self.hooks.game_over(game=game, state=state, scores=scores)
        return scores

    def scores(self) -> list[Score]:
        """Scores of the state now, after the score-adjustment hooks."""
        scores = self.game.scores(self.state)
        if self.hooks.adjust_scores is not None:
            self.hooks.adjust_scores(game=self.game, state=self.state, scores=scores)
        return scores
