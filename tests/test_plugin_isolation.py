"""One bad plugin breaks nothing else: broken third-party plugins in the real CLI.

Each test installs a small plugin distribution next to the tiny game (the
``install_plugin`` fixture) and runs ``meeple`` in a fresh interpreter, so the
plugins come from their entry points as a user's would. A plugin that fails
to import or raises in a registration hook is reported in full by
``meeple plugins`` and in one warning line by every other command; an error
in a lifecycle hook names the plugin whose implementation raised; ``--help``
and ``--version`` never import a plugin.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

HALF = '''
from meeple.core import hookimpl
from meeple.core.bots import RandomBot
from meeple_tiny import Tiny


class Half(Tiny):
    id = "{name}"
    title = "Half"


@hookimpl
def meeple_games(register):
    register(Half)
    {meeple_games}


@hookimpl
def meeple_bots(register):
    register("{name}bot", RandomBot)
    {meeple_bots}


@hookimpl
def meeple_levels(register):
    register("{name}", {{"hard": "{name}bot"}})
    {meeple_levels}


@hookimpl
def meeple_commands(app):
    @app.command("{name}")
    def command():
        """Half a command."""
        print("half done")

    {meeple_commands}
'''


def half(failing: str, name: str = "half") -> str:
    """A plugin that registers the game, bot, levels and command ``name``, then raises in
    ``failing``."""
    hooks = ("meeple_games", "meeple_bots", "meeple_levels", "meeple_commands")
    fails = {h: "raise RuntimeError('half-way')" if h == failing else "pass" for h in hooks}
    return HALF.format(name=name, **fails)


def warning_line(stage: str, name: str = "half") -> str:
    return f"warning: skipped broken plugins: {name!r} ({stage}); `meeple plugins` says why\n"


def test_a_plugin_that_fails_to_import(install_plugin: Callable[..., None], run: Callable) -> None:
    install_plugin("bad", "raise ImportError('needs libfoo')\n")
    games = run("games")
    assert games.returncode == 0
    assert "tiny" in games.stdout and "clonk" in games.stdout
    assert games.stderr == warning_line("import", "bad")
    listed = run("plugins")
    assert listed.returncode == 0 and "tiny" in listed.stdout
    skipped = "plugin 'bad' failed to load and is skipped (import): ImportError: needs libfoo (in "
    assert skipped in listed.stderr
    assert "meeple_bad" in listed.stderr and "__init__.py, line 1)" in listed.stderr


@pytest.mark.parametrize("hook", ["meeple_games", "meeple_bots"])
def test_a_plugin_raising_in_games_or_bots_is_skipped_whole(
    install_plugin: Callable[..., None], run: Callable, hook: str
) -> None:
    install_plugin("half", half(hook))
    games = run("games")
    assert games.returncode == 0
    assert "tiny" in games.stdout and "Half" not in games.stdout
    assert games.stderr == warning_line(hook)
    full = run("plugins")
    assert full.returncode == 0 and "tiny" in full.stdout
    assert f"plugin 'half' is skipped ({hook}): RuntimeError: half-way (in " in full.stderr
    command = run("half")  # the skipped plugin's command is not there either
    assert command.returncode == 2 and "No such command 'half'" in command.stderr
    assert command.stderr.startswith(warning_line(hook))


def test_a_plugin_raising_in_commands_loses_its_commands_only(
    install_plugin: Callable[..., None], run: Callable
) -> None:
    install_plugin("half", half("meeple_commands"))
    played = run("play", "half", "--seats", "halfbot,bot", "--seed", "2")
    assert played.returncode == 0, played.stderr
    assert played.stderr == ""  # meeple_commands is called only when plugin commands are needed
    command = run("half")
    assert command.returncode == 2 and "No such command 'half'" in command.stderr
    assert command.stderr.startswith(warning_line("meeple_commands"))
    full = run("plugins")
    assert "plugin 'half': its commands are skipped (meeple_commands): RuntimeError: half-way" in (
        full.stderr
    )
    assert "half" in full.stdout  # listed: its games, bots and hooks still work


def test_a_plugin_raising_in_levels_loses_its_levels_only(
    install_plugin: Callable[..., None], run: Callable
) -> None:
    install_plugin("half", half("meeple_levels"))
    played = run("play", "half", "--seats", "bot:hard,halfbot", "--seed", "2", "--save", "g.json")
    assert played.returncode == 0, played.stderr
    assert played.stderr == warning_line("meeple_levels")
    listed = json.loads(run("games", "--bots", "--json").stdout)
    [hard] = [lv for g in listed if g["id"] == "half" for lv in g["levels"] if lv["name"] == "hard"]
    assert (hard["bot"], hard["plugin"]) == ("ismcts", "")  # the default, not halfbot
    full = run("plugins")
    assert "plugin 'half': its levels are skipped (meeple_levels): RuntimeError: half-way" in (
        full.stderr
    )


def test_help_play_and_validate_work_beside_a_plugin_raising_in_each_hook(
    install_plugin: Callable[..., None], run: Callable
) -> None:
    for n, hook in enumerate(("meeple_games", "meeple_bots", "meeple_commands")):
        install_plugin(f"half{n}", half(hook, f"half{n}"))
    helped = run("--help")
    assert helped.returncode == 0 and helped.stderr == ""
    played = run("play", "tiny", "--seats", "bot,bot", "--save", "game.json")
    assert played.returncode == 0, played.stderr
    assert played.stderr.count("\n") == 1  # one warning line for both skipped plugins
    assert "'half0' (meeple_games), 'half1' (meeple_bots);" in played.stderr
    validated = run("validate", "game.json")
    assert validated.returncode == 0 and "OK" in validated.stdout


OBSERVER = """
import os

from meeple.core import hookimpl


def _maybe(hook):
    if os.environ.get("BREAK") == hook:
        raise RuntimeError(hook + " broke")


@hookimpl
def meeple_after_action():
    _maybe("meeple_after_action")


@hookimpl
def meeple_validate_state():
    _maybe("meeple_validate_state")
"""


def blamed(hook: str) -> str:
    return f"plugin 'observer' failed in {hook}: RuntimeError: {hook} broke (in "


def test_a_lifecycle_hook_error_names_its_plugin_in_play_and_validate(
    install_plugin: Callable[..., None], run: Callable
) -> None:
    install_plugin("observer", OBSERVER)
    hook = "meeple_after_action"
    played = run("play", "tiny", "--seats", "bot,bot", "--seed", "3", env={"BREAK": hook})
    assert played.returncode == 1
    assert blamed(hook) in played.stderr and "MEEPLE_DISABLE_PLUGINS=observer" in played.stderr
    assert run("play", "tiny", "--seats", "bot,bot", "--save", "game.json").returncode == 0
    hook = "meeple_validate_state"
    validated = run("validate", "game.json", env={"BREAK": hook})
    assert validated.returncode == 1
    assert blamed(hook) in validated.stdout
    assert "the tiny plugin" not in validated.stdout  # not the game's plugin


FAULTY = """
from meeple.core import hookimpl
from meeple.core.bots import RandomBot
from meeple_tiny import Tiny


class Faulty(Tiny):
    id = "faulty"

    def legal_actions(self, state):
        raise IndexError("no such card")


class Chooser(RandomBot):
    def choose(self, prompt):
        raise ValueError("no move")


@hookimpl
def meeple_games(register):
    register(Faulty)


@hookimpl
def meeple_bots(register):
    register("chooser", Chooser)
"""


@pytest.mark.parametrize(
    ("seats", "blamed"),
    [
        ("chooser,bot", "Chooser.choose: ValueError: no move"),
        ("bot,bot", "Faulty.legal_actions: IndexError: no such card"),
    ],
)
def test_a_bot_or_rules_raising_in_play_name_their_plugin(
    install_plugin: Callable[..., None], run: Callable, seats: str, blamed: str
) -> None:
    """No hook call wraps a bot's decision or a game's rules: the error is still the plugin's,
    with where it was raised and what to do, rather than an internal error of meeple's."""
    install_plugin("faulty", FAULTY)
    game = "tiny" if seats.startswith("chooser") else "faulty"
    played = run("play", game, "--seats", seats, "--seed", "3", "--save", "game.json")
    assert played.returncode == 1
    (line, saved) = played.stderr.splitlines()
    assert line.startswith(f"error: plugin 'faulty' failed in {blamed} (in "), line
    assert line.endswith(
        "block it with MEEPLE_DISABLE_PLUGINS=faulty or report it to the plugin's authors; "
        "MEEPLE_DEBUG=1 shows the traceback"
    )
    assert "meeple_faulty" in line and "game.json" in saved


def test_a_simulated_game_that_fails_in_a_plugin_names_it(
    install_plugin: Callable[..., None], run: Callable
) -> None:
    install_plugin("faulty", FAULTY)
    ran = run("simulate", "tiny", "-n", "3", "--seats", "bot,chooser", "-w", "1")
    assert ran.returncode == 1
    assert (
        "the game of seed 0 failed: plugin 'faulty' failed in Chooser.choose: ValueError: no move"
        in " ".join(ran.stderr.split())
    )


SLOW = """
import os
import pathlib
import time

pathlib.Path(os.environ["SLOW_MARKER"]).write_text("imported")
time.sleep(0.5)
"""


def test_help_and_version_never_import_a_plugin(
    install_plugin: Callable[..., None], run: Callable, tmp_path: Path
) -> None:
    install_plugin("slow", SLOW)
    marker = tmp_path / "imported"
    env = {"SLOW_MARKER": str(marker)}
    for args in (["--version"], ["--help"]):
        result = run(*args, env=env)
        assert result.returncode == 0, result.stderr
        assert not marker.exists(), f"meeple {' '.join(args)} imported the plugins"
    bare = run(env=env)  # no command: help (exit 2 from click 8.2 on, 0 before)
    assert "Usage: " in bare.stdout + bare.stderr and not marker.exists()
    assert run("games", env=env).returncode == 0
    assert marker.exists()  # the marker does tell an import
