"""`meeple --version`, `--help`, `meeple games` and `meeple plugins`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from meeple.cli import output
from meeple.cli.app import make_app
from meeple.core import hookimpl
from meeple.core.plugins import (
    BUILTIN_PLUGINS,
    BrokenPlugin,
    PluginManager,
    Registry,
    plugin_manager,
)

Invoke = Callable[..., Result]


def test_version(cli: Invoke) -> None:
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("meeple ")


@pytest.mark.parametrize(
    "command",
    ["games", "plugins", "play", "simulate", "stats", "compare", "tournament", "tune", "report"],
)
def test_every_command_shows_an_example(cli: Invoke, command: str) -> None:
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert f"Example: meeple {command}" in result.stdout


def test_every_command_sums_itself_up_in_one_line() -> None:
    """``meeple --help`` lists each command by its docstring's first paragraph, line breaks
    kept: a summary over two lines breaks the list of commands in the middle of a sentence."""
    root = typer.main.get_command(make_app())
    assert isinstance(root, typer.core.TyperGroup)
    for name, command in root.commands.items():
        summary = (command.help or "").split("\n\n")[0]
        assert "\n" not in summary, f"meeple {name}: {summary!r}"


def test_no_help_paragraph_wraps_raggedly_on_80_columns() -> None:
    """Help keeps a paragraph's line breaks and wraps each line on its own: a paragraph of
    several lines reads as written only if each fits the 76 columns inside the panel."""
    root = typer.main.get_command(make_app())
    assert isinstance(root, typer.core.TyperGroup)
    for name, command in root.commands.items():
        for paragraph in (command.help or "").split("\n\n"):
            lines = paragraph.splitlines()
            too_long = [line for line in lines if len(line) > 76] if len(lines) > 1 else []
            assert not too_long, f"meeple {name}: {too_long}"


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


def test_plugins_all_shows_every_name_whole_at_80_columns(
    cli: Invoke, pm: PluginManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The built-in plugins' names share a long prefix: cut to the width, two read
    ``meeple.plugins.cla…``. Each shows whole, with its hooks and where it comes from."""
    monkeypatch.setattr(output.console, "width", 80)
    result = cli("plugins", "--all")
    assert result.exit_code == 0
    assert "…" not in result.stdout
    rows = [line.split("│")[1:-1] for line in result.stdout.splitlines() if "│" in line]
    names = [name.strip() for name, _, _ in rows if name.strip()]
    assert sorted(names) == sorted([*BUILTIN_PLUGINS, "tiny"])
    sources = [source.strip() for _, _, source in rows if source.strip()]
    assert sorted(sources) == ["built-in"] * len(BUILTIN_PLUGINS) + ["meeple-tiny 1.0"]


def test_games_cuts_nothing_at_80_columns(
    cli: Invoke, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(output.console, "width", 80)
    result = cli("games")
    assert result.exit_code == 0 and "…" not in result.stdout
    cells = "".join(line.split("│")[-2].strip() for line in result.stdout.splitlines()[4:-1])
    assert cells == "".join(registry.game_plugin(g) for g in sorted(registry.games))


def test_plugins_unknown_hook(cli: Invoke) -> None:
    result = cli("plugins", "--hook", "meeple_nothing")
    assert result.exit_code == 1
    assert "no such hook" in result.stderr and "meeple_games" in result.stderr


def test_broken_plugins_are_warnings(cli: Invoke, pm: PluginManager) -> None:
    pm.broken.append(BrokenPlugin("shaky", "ImportError: no module named shaky_rules"))
    result = cli("plugins")
    assert result.exit_code == 0
    assert result.stderr == (
        "warning: plugin 'shaky' failed to load and is skipped (import): "
        "ImportError: no module named shaky_rules\n"
        "Fix or uninstall a broken plugin, or block it: "
        "MEEPLE_DISABLE_PLUGINS=shaky silences these warnings.\n"
    )
    assert "tiny" in result.stdout
    assert json.loads(cli("plugins", "--json").stdout)["broken"] == [
        {"name": "shaky", "error": "ImportError: no module named shaky_rules", "stage": "import"}
    ]


class Greeter:
    """Adds the command ``hello``; counts how often meeple asks for its commands."""

    def __init__(self, name: str = "hello") -> None:
        self.name = name
        self.calls = 0

    @hookimpl
    def meeple_commands(self, app: typer.Typer) -> None:
        self.calls += 1

        @app.command(self.name)
        def hello() -> None:
            """Say hello to the table."""
            print("hello")


def app_with(*plugins: object) -> Callable[..., Result]:
    pm = plugin_manager(entry_points=False)
    for n, plugin in enumerate(plugins):
        pm.register(plugin, name=f"greeter{n}")
    app = make_app(pm)
    return lambda *args: CliRunner().invoke(app, list(args))


def test_plugin_commands_load_only_when_asked_for() -> None:
    greeter = Greeter()
    invoke = app_with(greeter)
    helped = invoke("--help")
    assert "hello" not in helped.stdout and "`meeple plugins` lists them" in helped.stdout
    assert invoke("games").exit_code == 0
    assert greeter.calls == 0
    assert invoke("hello").stdout == "hello\n"
    assert greeter.calls == 1


def test_plugins_lists_the_commands_plugins_add() -> None:
    invoke = app_with(Greeter())
    listed = invoke("plugins")
    assert "Commands added by plugins" in listed.stdout
    assert "hello" in listed.stdout and "Say hello to the table." in listed.stdout
    added = json.loads(invoke("plugins", "--json").stdout)["commands"]
    assert added == [{"name": "hello", "plugin": "greeter0", "help": "Say hello to the table."}]


@pytest.mark.parametrize(("name", "owner"), [("play", "meeple"), ("hello", "plugin 'greeter1'")])
def test_a_plugin_cannot_take_a_command_name(name: str, owner: str) -> None:
    invoke = app_with(Greeter(name), Greeter())  # pluggy calls the last registered first
    listed = invoke("plugins", "--json")
    (broken,) = json.loads(listed.stdout)["broken"]
    assert broken == {
        "name": "greeter0",
        "error": f"it adds the command {name!r}, which {owner} already has",
        "stage": "meeple_commands",
    }
    assert invoke("hello").stdout == "hello\n"
    assert "Example: meeple play" in invoke("play", "--help").stdout


def test_trace_hooks_covers_every_registration_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_TRACE_HOOKS", "1")
    result = app_with(Greeter())("hello")
    assert result.stdout == "hello\n"
    for hook in ("meeple_games", "meeple_bots", "meeple_commands"):
        assert f"  {hook} [hook]" in result.stderr
        assert f"finish {hook} --> [] [hook]" in result.stderr


def test_plugin_text_is_printed_as_text_not_markup() -> None:
    listed = app_with(Greeter("[bold]hi[/bold]"))("plugins")
    assert "[bold]hi[/bold]" in listed.stdout


def test_every_exit_code_is_documented(cli: Invoke) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    shown = " ".join(cli("--help").stdout.split())
    for code in (
        "0 success",
        "1 invalid input",
        "2 a usage error",
        "130 interrupted",
        "143 stopped",
    ):
        assert code in shown
        assert f"`{code.split()[0]}` {code.split(' ', 1)[1]}" in readme
