"""Fixtures of the balance report's tests: the Labels test game, and runs of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import labels_game as labels
import pytest

from meeple.core.engine import Hooks
from meeple.core.plugins import PluginManager, Registry, plugin_manager
from meeple.core.runner import GameResult, RunSpec, play

Runs = Callable[..., tuple[RunSpec, list[GameResult]]]


@pytest.fixture
def labels_pm() -> PluginManager:
    """The built-in plugins and the Labels game."""
    return plugin_manager(entry_points=False, extra=[labels])


@pytest.fixture
def runs(labels_pm: PluginManager) -> Runs:
    """``runs(n, seed=0, bots=("random",) * 4, rotate=False, **options)``: a run of Labels
    with card facts, its spec and its games."""
    registry, hooks = Registry(labels_pm), Hooks(labels_pm)

    def run(
        n: int, seed: int = 0, bots: Any = ("random",) * 4, rotate: bool = False, **options: Any
    ) -> tuple[RunSpec, list[GameResult]]:
        game = registry.game("labels")(labels.LabelsOptions(**options))
        spec = RunSpec.of(game, bots, rotate, card_facts=True)
        return spec, list(play(registry, hooks, spec, range(seed, seed + n)))

    return run


@pytest.fixture
def meeple(labels_pm: PluginManager) -> Callable[..., Any]:
    """``meeple(*args)``: the command line, in this process, with the Labels game."""
    from typer.testing import CliRunner

    from meeple.cli.app import make_app

    def invoke(*args: object) -> Any:
        result = CliRunner().invoke(make_app(labels_pm), [str(a) for a in args])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return invoke
