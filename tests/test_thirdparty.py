"""A new game is one package: the tiny game, installed as a distribution, works in the real CLI.

The tiny game lives in tests/thirdparty with its own pyproject.toml and
``meeple`` entry point; the ``tiny_path`` fixture installs it (a copied
package and a generated dist-info) on ``PYTHONPATH``. Each command runs in a
fresh interpreter, as a user would run it.
"""

from __future__ import annotations

import json

from meeple.core.plugins import BUILTIN_PLUGINS


def test_the_game_is_not_built_in():
    assert not any("tiny" in path for path in BUILTIN_PLUGINS)


def test_games_and_plugins_list_it(run):
    games = run("games")
    assert games.returncode == 0, games.stderr
    assert "tiny" in games.stdout and "Tiny" in games.stdout
    plugins = run("plugins")
    assert plugins.returncode == 0, plugins.stderr
    assert "tiny" in plugins.stdout and "meeple-tiny" in plugins.stdout


def test_it_comes_from_the_entry_point(run):
    hidden = run("games", env={"MEEPLE_NO_ENTRYPOINTS": "1"})
    assert hidden.returncode == 0
    assert "tiny" not in hidden.stdout


def test_play_simulate_and_validate(run, tmp_path):
    played = run("play", "tiny", "--seats", "bot,bot", "--seed", "4", "--save", "game.json")
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["kind"] == "meeple.record" and record["over"] is True
    simulated = run("simulate", "tiny", "-n", "5")
    assert simulated.returncode == 0, simulated.stderr
    validated = run("validate", "game.json")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "OK" in validated.stdout
    replayed = run("replay", "game.json")
    assert replayed.returncode == 0, replayed.stderr
    schema = run("schema", "tiny")
    assert schema.returncode == 0 and "TinyState" in schema.stdout


def test_without_the_package_its_files_are_reported_not_crashed(run, tmp_path):
    assert run("play", "tiny", "--seats", "bot,bot", "--save", "game.json").returncode == 0
    missing = run("validate", "game.json", env={"MEEPLE_NO_ENTRYPOINTS": "1"})
    assert missing.returncode == 1
    assert "no game 'tiny' is installed" in missing.stdout
