"""`meeple --version`, `--help`, `meeple games` and `meeple plugins`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.app import make_app
from meeple.core.plugins import BUILTIN_PLUGINS, BrokenPlugin, PluginManager, plugin_manager

Invoke = Callable[..., Result]


def test_version(cli: Invoke) -> None:
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("meeple ")


@pytest.mark.parametrize("command", ["games", "plugins", "play", "simulate"])
def test_every_command_shows_an_example(cli: Invoke, command: str) -> None:
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert f"Example: meeple {command}" in result.stdout


def test_unknown_command_is_a_usage_error(cli: Invoke) -> None:
    assert cli("dance").exit_code == 2


def test_games_lists_the_third_party_game(cli: Invoke) -> None:
    result = cli("games")
    assert result.exit_code == 0
    assert "tiny" in result.stdout and "Tiny" in result.stdout and "2-4" in result.stdout


def test_games_json(cli: Invoke) -> None:
    result = cli("games", "--json")
    assert result.exit_code == 0
    tiny = {g["id"]: g for g in json.loads(result.stdout)}["tiny"]
    assert tiny == {
        "id": "tiny",
        "title": "Tiny",
        "min_seats": 2,
        "max_seats": 4,
        "version": "1",
        "plugin": "tiny",
    }


def test_games_when_none_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        "MEEPLE_DISABLE_PLUGINS", ",".join(p for p in BUILTIN_PLUGINS if p != "meeple.core.bots")
    )
    result = CliRunner().invoke(make_app(plugin_manager(entry_points=False)), ["games"])
    assert result.exit_code == 0
    assert "No games are installed" in result.stdout


def test_plugins_lists_third_party_only_by_default(cli: Invoke) -> None:
    result = cli("plugins", "--json")
    assert result.exit_code == 0
    listed = json.loads(result.stdout)["plugins"]
    assert [p["name"] for p in listed] == ["tiny"]
    assert listed[0]["hooks"] == ["meeple_games"]
    assert (listed[0]["distribution"], listed[0]["version"]) == ("meeple-tiny", "1.0")


def test_plugins_all_and_hook_filter(cli: Invoke) -> None:
    result = cli("plugins", "--all", "--hook", "meeple_bots")
    assert result.exit_code == 0
    assert "meeple.core.bots" in result.stdout and "tiny" not in result.stdout
    result = cli("plugins", "--hook", "meeple_bots")
    assert result.exit_code == 0
    assert "No third-party plugins implement meeple_bots" in result.stdout


def test_plugins_unknown_hook(cli: Invoke) -> None:
    result = cli("plugins", "--hook", "meeple_nothing")
    assert result.exit_code == 1
    assert "no such hook" in result.stderr and "meeple_games" in result.stderr


def test_broken_plugins_are_warnings(cli: Invoke, pm: PluginManager) -> None:
    pm.broken.append(BrokenPlugin("shaky", "ImportError: no module named shaky_rules"))
    result = cli("plugins")
    assert result.exit_code == 0
    assert "warning" in result.stderr and "shaky" in result.stderr
    assert "tiny" in result.stdout
    assert json.loads(cli("plugins", "--json").stdout)["broken"] == [
        {"name": "shaky", "error": "ImportError: no module named shaky_rules"}
    ]


def test_every_exit_code_is_documented(cli: Invoke) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    shown = " ".join(cli("--help").stdout.split())
    for code in ("0 success", "1 invalid input", "2 a usage error", "130 interrupted"):
        assert code in shown
        assert f"`{code.split()[0]}` {code.split(' ', 1)[1]}" in readme
