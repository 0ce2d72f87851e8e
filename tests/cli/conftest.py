"""Fixtures for the command-line tests: the whole ``meeple`` app around a test plugin manager."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
from meeple.core.plugins import PluginManager

Invoke = Callable[..., Result]


@pytest.fixture
def cli(pm: PluginManager) -> Invoke:
    """``cli("play", "tiny", input="1\\n")``: run a command with the tiny game installed."""
    app = make_app(pm)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return invoke
