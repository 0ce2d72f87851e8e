"""The engine: checked steps, the run loop, and the lifecycle hooks."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core import hookimpl
from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match, TooLong
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.plugins import PluginManager
from meeple.core.rng import bot_stream
from meeple.core.scoring import Score

HOOK_ATTRS = ("setup", "after_action", "game_over", "adjust_scores", "validate_state")


class Recorder:
    """A plugin implementing every lifecycle hook, recording the arguments."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    @hookimpl
    def meeple_setup(self, game: Any, state: Any) -> None:
        self.calls.append(("setup", {"game": game, "state": state}))
        state.turns.round = 5  # a house rule: changes made here stick

    @hookimpl
    def meeple_after_action(
        self, game: Any, state: Any, seat: int, action: Any, events: list[Any]
    ) -> None:
        self.calls.append(
            ("after_action", {"game": game, "seat": seat, "action": action, "events": events})
        )

    @hookimpl
    def meeple_adjust_scores(self, game: Any, state: Any, scores: list[Score]) -> None:
        self.calls.append(("adjust_scores", {"game": game, "scores": list(scores)}))
        scores[0].parts["handicap"] = 100
        scores[0].total += 100

    @hookimpl
    def meeple_game_over(self, game: Any, state: Any, scores: list[Score]) -> None:
        self.calls.append(("game_over", {"game": game, "state": state, "scores": scores}))

    @hookimpl
    def meeple_validate_state(self, game: Any, state: Any) -> list[str]:
        return [f"seat count {state.seats}"]


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
    hooks = Hooks(manager(Recorder()))
    assert all(getattr(hooks, name) is not None for name in HOOK_ATTRS)


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
    with pytest.raises(IllegalAction, match=r"chose .* not among the legal actions"):
        match.run([Cheat(), Cheat()])


def test_run_stops_at_the_decision_limit(tiny: Any) -> None:
    match = Match.new(tiny, 2, 1, Hooks(None))
    with pytest.raises(TooLong, match="did not end within 3 decisions"):
        match.run(bots(tiny, 2, 1), max_steps=3)


def test_prompt_view_is_lazy_and_for_the_seat(tiny: Any) -> None:
    state = tiny.setup(2, 5)
    calls = []

    class Spy(type(tiny)):  # type: ignore[misc]
        def view(self, state: Any, seat: int | None) -> Any:
            calls.append(seat)
            return super().view(state, seat)

    prompt = Prompt(Spy(), state, 1, tiny.legal_actions(state))
    assert calls == []
    assert prompt.view.hands[1].cards == state.hands[1].cards
    assert prompt.view is prompt.view
    assert calls == [1]


def test_hooks_are_called_with_the_documented_arguments(tiny: Any) -> None:
    rec = Recorder()
    match = Match.new(tiny, 2, 9, Hooks(manager(rec)))
    assert match.state.turns.round == 5  # meeple_setup changed the new state
    seen: list[tuple[int, Any]] = []
    scores = match.run(
        bots(tiny, 2, 9), on_events=lambda seat, action, ev: seen.append((seat, action))
    )
    names = [name for name, _ in rec.calls]
    n = len(match.actions)
    assert names == ["setup"] + ["after_action"] * n + ["adjust_scores", "game_over"]
    assert rec.calls[0][1] == {"game": tiny, "state": match.state}
    after = [args for name, args in rec.calls if name == "after_action"]
    assert [(a["seat"], a["action"]) for a in after] == seen
    assert all(a["game"] is tiny and isinstance(a["events"], list) for a in after)
    # Adjusted scores are the ones returned and the ones game_over observes.
    assert scores[0].parts["handicap"] == 100
    assert rec.calls[-1][1]["scores"] is scores
    assert rec.calls[-1][1]["state"] is match.state
    assert Hooks(manager(rec)).validate_state(game=tiny, state=match.state) == [["seat count 2"]]


def test_scores_apply_the_adjust_hook_every_time(tiny: Any) -> None:
    match = Match.new(tiny, 2, 9, Hooks(manager(Recorder())))
    plain = tiny.scores(match.state)
    assert match.scores()[0].total == plain[0].total + 100
