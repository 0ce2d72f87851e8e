"""``meeple new``: the package it writes installs next to meeple and passes its own tests."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import sysconfig
import time
import tomllib
import venv
from pathlib import Path

import pytest

from meeple.cli.common import parse_options
from meeple.cli.new import write_package
from meeple.core import testing
from meeple.core.errors import MeepleError


def test_it_writes_an_installable_package(cli, tmp_path):
    result = cli("new", "card-race", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "meeple-card-race"
    assert f"wrote {folder}" in result.stdout
    written = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert written == {
        "pyproject.toml",
        "README.md",
        "meeple_card_race/__init__.py",
        "tests/test_meeple_card_race.py",
    }
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["build-system"]["build-backend"] == "setuptools.build_meta"
    assert project["project"]["name"] == "meeple-card-race"
    assert project["project"]["requires-python"] == ">=3.11"
    assert project["project"]["dependencies"] == ["meeple"]
    assert project["project"]["entry-points"]["meeple"] == {"card-race": "meeple_card_race"}
    readme = (folder / "README.md").read_text()
    assert "pip install -e /path/to/meeple" in readme and "python -m pytest" in readme


@pytest.fixture
def race(tmp_path, monkeypatch):
    """The game class of a package ``meeple new race`` wrote, imported from its folder."""
    monkeypatch.syspath_prepend(str(write_package("race", tmp_path)))
    monkeypatch.delitem(sys.modules, "meeple_race", raising=False)
    return importlib.import_module("meeple_race").Race


def test_the_new_game_plays(race):
    assert race.id == "race" and race.Options().goal == 15
    assert testing.check_game(race(), games=8) > 0
    game = race()
    state = game.setup(2, seed=1)
    card = state.hands[0].cards[0]
    assert game.describe_action(state, game.legal_actions(state)[0]) == f"play a {card[1]}"
    drawing = game.render(game.view(state, 1), 1)
    assert "seat 0: hand [? ?]" in drawing and "seat 1 (you)" in drawing


def test_a_bad_option_is_refused_by_the_option_parser(race):
    with pytest.raises(MeepleError, match=r"goal=2.*>= 5.*The pile total"):
        parse_options(race, ["goal=2"])


@pytest.mark.parametrize("name", ["Race", "1up", "card_race", "card--race", "-race", "race-", ""])
def test_an_invalid_id_is_refused(cli, tmp_path, name):
    result = cli("new", "--dir", str(tmp_path), "--", name)
    assert result.exit_code == 1
    assert "is not a valid game id: use lowercase letters, digits and dashes" in result.stderr
    assert not list(tmp_path.iterdir())


def test_an_existing_folder_is_refused(cli, tmp_path):
    (tmp_path / "meeple-race").mkdir()
    result = cli("new", "race", "--dir", str(tmp_path))
    assert result.exit_code == 1
    assert "meeple-race already exists" in result.stderr
    assert not list((tmp_path / "meeple-race").iterdir())


def test_an_installed_game_id_is_refused(cli, tmp_path):
    result = cli("new", "tiny", "--dir", str(tmp_path))
    assert result.exit_code == 1
    assert "a game 'tiny' is already installed" in result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_from_meeple_new_to_passing_tests_in_a_fresh_venv(tmp_path):
    """The README's steps, offline: a new venv that sees this one's packages (meeple
    included, as ``pip install -e /path/to/meeple`` would give it), the new package
    installed with ``--no-deps``, then its own tests."""
    started = time.monotonic()
    meeple = [sys.executable, "-m", "meeple.cli"]
    subprocess.run([*meeple, "new", "demo", "--dir", str(tmp_path)], check=True, timeout=60)
    env = tmp_path / "venv"
    venv.create(env, with_pip=False)
    python = str(env / "bin" / "python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    # ``addsitedir`` also reads that folder's .pth files (an editable meeple lives in one).
    here = sysconfig.get_path("purelib")
    Path(site, "outer.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    package = tmp_path / "meeple-demo"
    pip = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run([*pip, "-e", str(package)], check=True, timeout=300)
    tests = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package)],
        cwd=package, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " passed" in tests.stdout and "failed" not in tests.stdout
    print(f"meeple new to passing tests: {time.monotonic() - started:.1f} s")
    listed = subprocess.run(
        [python, "-m", "meeple.cli", "play", "demo", "--seats", "bot,bot", "-o", "goal=2"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert listed.returncode == 1
    assert "goal" in listed.stderr and "Traceback" not in listed.stderr


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-plugin.md"
LABELLED = re.compile(r"^```python\n# (\S+)\n(.*?)^```$", re.M | re.S)
"""A code block of the guide that starts with a file's name: an excerpt of that file."""


def test_the_guide_shows_the_code_meeple_new_writes(tmp_path):
    """Each labelled block, cut at its ``...`` lines, is found in order in the file it names,
    and the guide's pyproject.toml is the one written."""
    folder = write_package("race", tmp_path)
    guide = GUIDE.read_text()
    (toml,) = re.findall(r"^```toml\n(.*?)^```$", guide, re.M | re.S)
    assert toml == (folder / "pyproject.toml").read_text()
    blocks = LABELLED.findall(guide)
    assert {path for path, _ in blocks} == {"meeple_race/__init__.py", "tests/test_meeple_race.py"}
    for path, code in blocks:
        text, at = (folder / path).read_text(), 0
        for piece in re.split(r"\n*^ *\.\.\.\n+", code, flags=re.M):
            found = text.find(piece, at)
            assert found >= 0, f"the guide shows code that {path} does not hold:\n{piece}"
            at = found + len(piece)
