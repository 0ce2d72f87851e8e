"""One test per hook: each is called when documented, with the documented arguments.

tests/test_hooks.py checks that every hookspec has its ``test_hook_<name>`` here.
"""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core import hookimpl, validate
from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import PluginManager, Registry, plugin_manager
from meeple.core.rng import Stream, bot_stream
from meeple.core.scoring import Score


def hooks_of(*plugins: Any) -> Hooks:
    """Hooks of a manager holding only ``plugins`` (no built-ins, no entry points)."""
    pm = PluginManager()
    for plugin in plugins:
        pm.register(plugin)
    return Hooks(pm)


def run(game: Any, hooks: Hooks, seats: int = 2, seed: int = 9) -> tuple[Match, list[Score]]:
    match = Match.new(game, seats, seed, hooks)
    players = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
    return match, match.run(players)


def test_hook_meeple_games(tiny_module: Any) -> None:
    registry = Registry(plugin_manager(entry_points=False, extra=[tiny_module]))
    assert registry.games["tiny"] is tiny_module.Tiny
    assert registry.game_plugin("tiny") == registry.pm.get_name(tiny_module)


def test_hook_meeple_bots(tiny: Any) -> None:
    made: list[tuple[Any, int, Stream]] = []

    def factory(game: Any, seat: int, stream: Stream) -> RandomBot:
        made.append((game, seat, stream))
        return RandomBot(game, seat, stream)

    class Plugin:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("lazy", factory, games=("tiny",), help="plays at random, slowly")

    spec = Registry(plugin_manager(entry_points=False, extra=[Plugin()])).bot("lazy", "tiny")
    assert (spec.games, spec.help) == (("tiny",), "plays at random, slowly")
    bot = spec.factory(tiny, 1, bot_stream(3, 1, "lazy"))
    assert made[0][:2] == (tiny, 1)
    state = tiny.setup(2, 3)
    legal = tiny.legal_actions(state)
    assert bot.choose(Prompt.of(tiny, state, 0, legal)) in legal


def test_hook_meeple_commands() -> None:
    from typer.testing import CliRunner

    from meeple.cli.app import make_app

    class Plugin:
        @hookimpl
        def meeple_commands(self, app: Any) -> None:
            @app.command()
            def hello(name: str = "table") -> None:
                """Say hello."""
                print(f"hello {name}")

    app = make_app(plugin_manager(entry_points=False, extra=[Plugin()]))
    result = CliRunner().invoke(app, ["hello", "--name", "meeple"])
    assert result.exit_code == 0, result.output
    assert result.output == "hello meeple\n"


def test_hook_meeple_setup(tiny: Any) -> None:
    seen: list[tuple[Any, Any]] = []

    class HouseRule:
        @hookimpl
        def meeple_setup(self, game: Any, state: Any) -> None:
            seen.append((game, state))
            state.turns.round = 5  # changes made here are part of the game

    match = Match.new(tiny, 2, 9, hooks_of(HouseRule()))
    assert seen == [(tiny, match.state)]
    assert seen[0][1] is match.state
    assert match.state.turns.round == 5


def test_hook_meeple_after_action(tiny: Any) -> None:
    calls: list[dict[str, Any]] = []

    class Observer:
        @hookimpl
        def meeple_after_action(
            self, game: Any, state: Any, seat: int, action: Any, events: list[Any]
        ) -> None:
            calls.append(
                {"game": game, "seat": seat, "action": action, "events": events, "state": state}
            )

    match = Match.new(tiny, 2, 9, hooks_of(Observer()))
    seen: list[tuple[int, Any]] = []
    match.run(
        [RandomBot(tiny, s, bot_stream(9, s, "random")) for s in range(2)],
        on_events=lambda seat, action, events: seen.append((seat, action)),
    )
    assert len(calls) == len(match.actions) > 0
    assert [(c["seat"], c["action"]) for c in calls] == seen
    assert [c["action"] for c in calls] == match.actions
    assert all(c["game"] is tiny and c["state"] is match.state for c in calls)
    assert all(isinstance(c["events"], list) for c in calls)


def test_hook_meeple_adjust_scores(tiny: Any) -> None:
    class Handicap:
        @hookimpl
        def meeple_adjust_scores(self, game: Any, state: Any, scores: list[Score]) -> None:
            assert game is tiny and [s.seat for s in scores] == [0, 1]
            scores[0].parts["handicap"] = 100
            scores[0].total += 100

    match, scores = run(tiny, hooks_of(Handicap()))
    plain = tiny.scores(match.state)
    assert scores[0].total == plain[0].total + 100
    assert scores[0].parts == {**plain[0].parts, "handicap": 100}
    assert match.scores()[0].total == scores[0].total  # every scoring goes through the hook


def test_hook_meeple_game_over(tiny: Any) -> None:
    ends: list[tuple[Any, Any, list[Score]]] = []

    class Observer:
        @hookimpl
        def meeple_game_over(self, game: Any, state: Any, scores: list[Score]) -> None:
            ends.append((game, state, scores))

    class Handicap:
        @hookimpl
        def meeple_adjust_scores(self, scores: list[Score]) -> None:
            scores[1].total += 1  # an implementation may take fewer arguments

    match, scores = run(tiny, hooks_of(Observer(), Handicap()))
    assert len(ends) == 1
    game, state, seen = ends[0]
    assert game is tiny and state is match.state and seen is scores
    assert seen[1].total == tiny.scores(match.state)[1].total + 1  # after adjustment


@pytest.mark.parametrize("found", [None, [], ["$.deck: too thin"]])
def test_hook_meeple_validate_state(tiny: Any, found: list[str] | None) -> None:
    class Extra:
        @hookimpl
        def meeple_validate_state(self, game: Any, state: Any) -> list[str] | None:
            assert game is tiny
            return found

    state = tiny.setup(2, 1)
    assert validate.state_problems(tiny, state, hooks_of(Extra())) == (found or [])
    state.deck.cards.pop()  # the hook runs only once the core's checks pass
    problems = validate.state_problems(tiny, state, hooks_of(Extra()))
    assert problems and "too thin" not in " ".join(problems)
