"""The engine: checked steps, the run loop, and the lifecycle hooks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meeple.core import hookimpl
from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match, Rewound, TooLong
from meeple.core.errors import IllegalAction, MeepleError, PluginError
from meeple.core.plugins import PluginManager, Registry, plugin_manager
from meeple.core.rng import bot_stream
from meeple.core.state import State

HOOK_ATTRS = ("setup", "after_action", "game_over", "adjust_scores", "validate_state")


def manager(*plugins: Any) -> PluginManager:
    pm = PluginManager()
    for plugin in plugins:
        pm.register(plugin)
    return pm


def bots(game: Any, seats: int, seed: int) -> list[RandomBot]:
    return [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]


def test_unimplemented_hooks_are_none() -> None:
    for hooks in (Hooks(None), Hooks(manager())):
        assert all(getattr(hooks, name) is None for name in HOOK_ATTRS)


def test_implemented_hooks_are_looked_up() -> None:
    class Observer:
        @hookimpl
        def meeple_after_action(self) -> None:
            pass

    hooks = Hooks(manager(Observer()))
    assert hooks.after_action is not None
    assert all(getattr(hooks, name) is None for name in HOOK_ATTRS if name != "after_action")


def test_step_applies_legal_actions_and_logs_them(tiny: Any) -> None:
    match = Match.new(tiny, 2, 4, Hooks(None))
    action = match.legal()[0]
    assert match.legal() is match.legal()  # computed once per state
    match.step(action)
    assert match.actions == [action]
    assert tiny.check_state(match.state) == []


def test_step_rejects_an_illegal_action_with_a_clear_message(tiny: Any, tiny_module: Any) -> None:
    match = Match.new(tiny, 2, 4, Hooks(None))
    before = tiny.digest(match.state)
    with pytest.raises(IllegalAction, match=r"^step 1: .* is not legal for seat 0 now$"):
        match.step(tiny_module.Play(card="c9z"))
    assert tiny.digest(match.state) == before and match.actions == []


def test_step_after_the_end_says_the_game_is_over(tiny: Any, tiny_module: Any) -> None:
    match = Match.new(tiny, 2, 4, Hooks(None))
    match.run(bots(tiny, 2, 4))
    n = len(match.actions)
    with pytest.raises(IllegalAction, match=rf"^step {n + 1}: the game is already over$"):
        match.step(tiny_module.Draw())


def test_new_rejects_a_bad_seat_count(tiny: Any) -> None:
    with pytest.raises(MeepleError, match="Tiny takes 2-4 seats, not 5"):
        Match.new(tiny, 5, 1, Hooks(None))


def test_run_is_deterministic(tiny: Any) -> None:
    def play() -> tuple[str, list[Any]]:
        match = Match.new(tiny, 3, 11, Hooks(None))
        match.run(bots(tiny, 3, 11))
        return tiny.digest(match.state), match.actions

    assert play() == play()


def test_run_rejects_a_player_choosing_an_illegal_action(tiny: Any, tiny_module: Any) -> None:
    class Cheat:
        def choose(self, prompt: Prompt) -> Any:
            return tiny_module.Play(card="c9z")

    match = Match.new(tiny, 2, 1, Hooks(None))
    with pytest.raises(IllegalAction, match=r"^step 1: .* is not legal for seat 0 now$"):
        match.run([Cheat(), Cheat()])


def test_run_stops_at_the_decision_limit(tiny: Any) -> None:
    match = Match.new(tiny, 2, 1, Hooks(None))
    with pytest.raises(TooLong, match="did not end within 3 decisions"):
        match.run(bots(tiny, 2, 1), max_steps=3)


def test_a_game_ending_on_the_last_allowed_decision_is_not_too_long(tiny: Any) -> None:
    whole = Match.new(tiny, 2, 1, Hooks(None))
    whole.run(bots(tiny, 2, 1))
    match = Match.new(tiny, 2, 1, Hooks(None))
    match.run(bots(tiny, 2, 1), max_steps=len(whole.actions))
    assert match.over and match.actions == whole.actions


def test_prompt_view_is_lazy_and_for_the_seat(tiny: Any) -> None:
    state = tiny.setup(2, 5)
    calls = []

    class Spy(type(tiny)):  # type: ignore[misc]
        def view(self, state: Any, seat: int | None) -> Any:
            calls.append(seat)
            return super().view(state, seat)

    prompt = Prompt.of(Spy(), state, 1, tiny.legal_actions(state))
    assert calls == []
    assert prompt.view.hands[1].cards == state.hands[1].cards
    assert prompt.view is prompt.view
    assert calls == [1]


def reachable(obj: object) -> Iterator[object]:
    """Every attribute of ``obj`` (by ``dir``, ``vars`` and slots), and each of theirs."""
    for value in attributes(obj):
        yield value
        yield from attributes(value)


def attributes(obj: object) -> Iterator[object]:
    names = set(dir(obj)) | set(getattr(obj, "__dict__", ())) | set(getattr(obj, "__slots__", ()))
    for name in sorted(names):
        try:
            yield getattr(obj, name)
        except Exception:  # an attribute that cannot be read leads nowhere
            continue


def test_a_prompt_leads_to_the_view_but_never_to_the_state(tiny: Any) -> None:
    builtin = Registry(plugin_manager(entry_points=False)).games.values()
    for game in [tiny, *(game_class() for game_class in builtin)]:
        state = game.setup(game.min_seats, 3)
        seat = state.to_move
        prompt = Prompt.of(game, state, seat, game.legal_actions(state))
        for built in (False, True):  # before and after the view is built
            found = [o for o in reachable(prompt) if isinstance(o, State) and o is not prompt.view]
            assert found == [], (game.id, built)
        assert prompt.view == game.view(state, seat)


def test_every_builtin_game_object_keeps_fewer_than_30_attributes() -> None:
    # CPython shares a class's attribute keys only up to 30; past that, attribute and method
    # lookups on the game object slow the hot loop (docs/architecture.md).
    for game_class in Registry(plugin_manager(entry_points=False)).games.values():
        assert len(vars(game_class())) < 30, game_class.id


def test_a_bot_never_reaches_the_state_of_the_match(tiny: Any) -> None:
    match = Match.new(tiny, 2, 7, Hooks(None))

    class Snoop(RandomBot):
        def choose(self, prompt: Prompt) -> Any:
            assert all(o is not match.state for o in reachable(prompt))
            assert prompt.view == tiny.view(match.state, prompt.seat)
            return super().choose(prompt)

    match.run([Snoop(tiny, s, bot_stream(7, s, "snoop")) for s in range(2)])


class Innocent:
    """Implements every lifecycle hook and never fails."""

    @hookimpl
    def meeple_setup(self) -> None:
        pass

    @hookimpl
    def meeple_after_action(self) -> None:
        pass

    @hookimpl
    def meeple_game_over(self) -> None:
        pass

    @hookimpl
    def meeple_adjust_scores(self) -> None:
        pass


def explode(hook: str) -> None:
    raise RuntimeError(f"{hook} broke")  # a frame below the implementation's own


class Failing:
    """Fails in one lifecycle hook, from a helper function."""

    def __init__(self, hook: str) -> None:
        self.hook = hook

    def _maybe(self, hook: str) -> None:
        if hook == self.hook:
            explode(hook)

    @hookimpl
    def meeple_setup(self) -> None:
        self._maybe("meeple_setup")

    @hookimpl
    def meeple_after_action(self) -> None:
        self._maybe("meeple_after_action")

    @hookimpl
    def meeple_game_over(self) -> None:
        self._maybe("meeple_game_over")

    @hookimpl
    def meeple_adjust_scores(self) -> None:
        self._maybe("meeple_adjust_scores")


@pytest.mark.parametrize(
    "hook", ["meeple_setup", "meeple_after_action", "meeple_game_over", "meeple_adjust_scores"]
)
def test_a_failing_hook_names_the_plugin_whose_implementation_raised(tiny: Any, hook: str) -> None:
    # Registered around the failing one, and two instances of one class: only ``self`` tells
    # the failing implementation from the innocent one.
    pm = PluginManager()
    pm.register(Innocent(), name="first")
    pm.register(Failing(hook), name="culprit")
    pm.register(Failing("none"), name="twin")
    pm.register(Innocent(), name="last")
    with pytest.raises(PluginError) as raised:
        Match.new(tiny, 2, 3, Hooks(pm)).run(bots(tiny, 2, 3))
    error = raised.value
    assert (error.plugins, error.hook) == (("culprit",), hook)
    assert isinstance(error.__cause__, RuntimeError)
    assert str(error).startswith(f"plugin 'culprit' failed in {hook}: RuntimeError: {hook} broke")
    assert f"(in {__file__}, line " in str(error)  # the plugin's own line that raised
    assert "block it with MEEPLE_DISABLE_PLUGINS=culprit" in str(error)


def test_a_failure_in_no_implementation_s_frame_names_every_implementer(tiny: Any) -> None:
    class NoYield:
        @hookimpl(wrapper=True)
        def meeple_after_action(self) -> Any:  # a wrapper that never yields: pluggy raises
            return
            yield

    pm = PluginManager()
    pm.register(Innocent(), name="innocent")
    pm.register(NoYield(), name="wrapper")
    with pytest.raises(PluginError, match=r"one of the plugins 'wrapper', 'innocent' failed in "):
        Match.new(tiny, 2, 3, Hooks(pm)).run(bots(tiny, 2, 3))


class First:
    def choose(self, prompt: Prompt) -> Any:
        return prompt.legal[0]


def test_a_player_that_rewinds_is_asked_again_from_where_the_match_went_back(tiny: Any) -> None:
    match = Match.new(tiny, 2, 1, Hooks(None))
    start = tiny.clone(match.state)
    asked: list[int] = []  # how many actions the log held at each decision

    class Regretful(First):
        """Takes the game's first action back, once, when next asked."""

        def choose(self, prompt: Prompt) -> Any:
            asked.append(len(match.actions))
            if asked == [0, 1]:
                match.rewind(tiny.clone(start), 0)
                raise Rewound
            return super().choose(prompt)

    match.run([Regretful(), Regretful()])
    plain = Match.new(tiny, 2, 1, Hooks(None))
    plain.run([First(), First()])
    assert asked[:4] == [0, 1, 0, 1]
    assert match.actions == plain.actions
    assert tiny.digest(match.state) == tiny.digest(plain.state)
