"""``meeple new``: the package it writes installs next to meeple and passes its own tests."""

from __future__ import annotations

import ast
import importlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import time
import tomllib
import venv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.app import make_app
from meeple.cli.common import best_bot, parse_options
from meeple.cli.new import names, write_package
from meeple.core import testing
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError, python
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream


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
        ".gitignore",
    }
    # What following its README leaves in the folder is not the package's to keep.
    ignored = (folder / ".gitignore").read_text().split()
    assert {".venv/", "*.egg-info/", "__pycache__/"} <= set(ignored)
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["build-system"]["build-backend"] == "setuptools.build_meta"
    assert project["project"]["name"] == "meeple-card-race"
    assert project["project"]["requires-python"] == ">=3.11"
    assert project["project"]["dependencies"] == ["meeple"]
    assert project["project"]["entry-points"]["meeple"] == {"card-race": "meeple_card_race"}
    readme = (folder / "README.md").read_text()
    assert "pip install -e /path/to/meeple" in readme and "python -m pytest" in readme
    # Its own lint settings pass: "card-race" imports CardRace before Draw and Play.
    for lint in (["check"], ["format", "--check"]):
        ruff = subprocess.run(
            [sys.executable, "-m", "ruff", *lint, "--no-cache", "."],
            cwd=folder, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert ruff.returncode == 0, ruff.stdout + ruff.stderr


def test_the_next_commands_it_prints_run_as_printed_from_a_folder_with_a_space(cli, tmp_path):
    parent = tmp_path / "my games"
    result = cli("new", "card-race", "--dir", str(parent))
    assert result.exit_code == 0, result.output
    folder = parent / "meeple-card-race"
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("next: ")]
    py = shlex.split(python())  # the Python running meeple, where the game must go
    assert shlex.split(line.removeprefix("next: ")) == [
        *py, "-m", "pip", "install", "-e", f"{folder}[test]",
        "&&",
        *py, "-m", "pytest", str(folder),
    ]  # fmt: skip


def test_a_dir_in_the_home_folder_is_there_when_the_shell_left_its_tilde(
    cli, tmp_path, monkeypatch
):
    """``--dir=~/games`` reaches meeple as it is written: no shell expands that ``~``."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    result = cli("new", "card-race", "--dir=~/games")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / "games" / "meeple-card-race" / "pyproject.toml").is_file()
    assert not (tmp_path / "~").exists()


def test_a_game_named_like_a_name_of_its_module_gets_another_class_name(tmp_path):
    """``meeple new draw`` must not write a class ``Draw`` over the action ``Draw``."""
    folder = write_package("race", tmp_path)
    module = ast.parse((folder / "meeple_race" / "__init__.py").read_text())
    held = {
        alias.asname or alias.name
        for node in module.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    } | {node.name for node in module.body if isinstance(node, ast.ClassDef)}
    for name in sorted(n for n in held - {"Race"} if n == n.capitalize()):  # one-word names
        assert names(name.lower())["cls"] == f"{name}Game"


def test_a_game_named_like_a_test_class_passes_its_tests_without_a_warning(tmp_path):
    """pytest collects classes named ``Test...`` from a test module: ``meeple new testament``
    imports the game class ``Testament`` into its tests, which must not be taken for one."""
    folder = write_package("testament", tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "error",
         "-k", "scenario or goal or play"],
        cwd=folder, env={**os.environ, "PYTHONPATH": str(folder)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" not in done.stdout


@pytest.mark.parametrize("name", ["none", "true", "false", "exception", "not-implemented"])
def test_a_game_named_like_a_python_keyword_or_builtin_compiles(tmp_path, name):
    """The class of ``none`` would be ``None``, a keyword: it gets ``Game`` added, as a name
    the module holds does, and so does a built-in name it would hide."""
    folder = write_package(name, tmp_path)
    cls = names(name)["cls"]
    assert cls.endswith("Game") and cls.isidentifier()
    for path in folder.rglob("*.py"):
        compile(path.read_text(), str(path), "exec")


def test_a_long_id_is_refused_in_a_short_line(cli, tmp_path):
    result = cli("new", "--dir", str(tmp_path), "a" * 10_000)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the game id is 10000 characters long: use at most 40 (card-race)\n"
    )
    assert not list(tmp_path.iterdir())


def test_a_failure_part_way_leaves_nothing_and_a_retry_succeeds(cli, tmp_path, monkeypatch):
    parent = tmp_path / "new" / "games"
    real, calls = Path.write_text, []

    def failing(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(Path, "write_text", failing)
        result = cli("new", "race", "--dir", str(parent))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: cannot write {parent / 'meeple-race'}: No space left on device\n"
    )
    assert not list(tmp_path.iterdir())
    assert cli("new", "race", "--dir", str(parent)).exit_code == 0
    assert [p.name for p in parent.iterdir()] == ["meeple-race"]


@pytest.fixture
def race(tmp_path, monkeypatch):
    """The game class of a package ``meeple new race`` wrote, imported from its folder."""
    monkeypatch.syspath_prepend(str(write_package("race", tmp_path)))
    monkeypatch.delitem(sys.modules, "meeple_race", raising=False)
    return importlib.import_module("meeple_race").Race


def test_the_new_game_plays(race):
    assert race.id == "race" and race.options_type().goal == 15
    assert testing.check_game(race(), games=8) > 0
    game = race()
    state = game.setup(2, seed=1)
    card = state.hands[0].cards[0]
    assert (
        game.presentation.describe_action(state, game.legal_actions(state)[0])
        == f"play a {card[1]}"
    )
    drawing = game.presentation.render(game.view(state, 1), 1)
    assert "seat 0: hand [? ?]" in drawing and "seat 1 (you)" in drawing


def test_the_new_packages_scenario_tests_pass(race, monkeypatch):
    """The scenario tests ``meeple new`` writes (the guide shows them) pass as written."""
    tests = Path(sys.modules[race.__module__].__file__).parents[1] / "tests"
    monkeypatch.syspath_prepend(str(tests))
    monkeypatch.delitem(sys.modules, "test_meeple_race", raising=False)
    module = importlib.import_module("test_meeple_race")
    scenarios = [
        f
        for name, f in vars(module).items()
        if name.startswith("test_") and name != "test_conformance"
    ]
    assert len(scenarios) == 2
    for test in scenarios:
        test()


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


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-plugin.md"
BLOCK = re.compile(r"^```(\w+)\n(?:# (\S+)\n)?(.*?)^```$", re.M | re.S)
"""A code block of the guide: its language, the file it is an excerpt of if its first line
names one (``# meeple_race/__init__.py``), and its code."""

NOT_RUN = {
    "python3 -m venv .venv && . .venv/bin/activate": "the test makes an environment of its own",
    "pip install -e /path/to/meeple": "that environment sees this meeple, as this would give it",
    'pip install "meeple @ git+<meeple\'s repository URL>@<commit>"': "a placeholder URL; offline",
}
"""The guide's commands that the fresh environment does not run, and why."""

OFFLINE = """
meeple() { python -m meeple.cli "$@"; }
pip() { python -m pip "$1" --quiet --no-deps --no-build-isolation --no-index "${@:2}"; }
"""
"""How the guide's commands run without the network: ``meeple`` is the meeple that the
environment sees, and ``pip`` installs only what it is given (its dependencies are there)."""


def guide_blocks() -> list[tuple[str, str, str]]:
    return BLOCK.findall(GUIDE.read_text())


def commands(block: str) -> list[tuple[str, str | None]]:
    """Each command of a console block, comments dropped, with the output the block shows
    after it: ``$ command`` lines are followed by theirs, bare command lines show none."""
    if not block.startswith("$ "):
        lines = (re.sub(r"\s+# .*", "", line) for line in block.splitlines())
        return [(line, None) for line in lines if line]
    return [
        (command, output)
        for command, _, output in (c.partition("\n") for c in block[2:].split("\n$ "))
    ]


def test_every_block_of_the_guide_is_checked():
    """toml and file-labelled python blocks are compared with what ``meeple new`` writes, other
    python blocks run in that package, console blocks run in a fresh environment (the slow test
    below), and the one text block is what ``meeple check`` prints (see test_cli_check.py)."""
    blocks = guide_blocks()
    assert {language for language, _, _ in blocks} == {"toml", "python", "console", "text"}
    shown = {
        command
        for language, _, code in blocks
        if language == "console"
        for command, _ in commands(code)
    }
    assert set(NOT_RUN) <= shown, "an exception names a command the guide no longer shows"


def test_the_guide_shows_the_code_meeple_new_writes(tmp_path):
    """Each labelled block, cut at its ``...`` lines, is found in order in the file it names,
    and the guide's pyproject.toml is the one written."""
    folder = write_package("race", tmp_path)
    blocks = guide_blocks()
    (toml,) = [code for language, _, code in blocks if language == "toml"]
    assert toml == (folder / "pyproject.toml").read_text()
    labelled = [(path, code) for language, path, code in blocks if language == "python" and path]
    assert {path for path, _ in labelled} == {
        "meeple_race/__init__.py",
        "tests/test_meeple_race.py",
    }
    for path, code in labelled:
        text, at = (folder / path).read_text(), 0
        for piece in re.split(r"\n*^ *\.\.\.\n+", code, flags=re.M):
            found = text.find(piece, at)
            assert found >= 0, f"the guide shows code that {path} does not hold:\n{piece}"
            at = found + len(piece)


def test_the_code_the_guide_adds_plays_in_the_package(race):
    """The blocks that name no file (the bot) are added to the module ``meeple new race``
    wrote, as the guide says: its bots register, ``bot`` picks the game's own, and they play."""
    module = sys.modules[race.__module__]
    added = [code for language, path, code in guide_blocks() if language == "python" and not path]
    assert added
    for code in added:
        exec(compile(code, str(GUIDE), "exec"), vars(module))
    registry = Registry(plugin_manager(entry_points=False, extra=[module]))
    own = [
        name for name, specs in registry.bots.items() if any(s.games == ("race",) for s in specs)
    ]
    assert own and best_bot(registry, "race") == min(own)
    game = registry.game("race")()
    for seed in range(20):
        names = [own[0], "random"] if seed % 2 else ["random", own[0]]
        bots = [
            registry.bot(n, "race").factory(game, s, Stream(f"{seed}/{s}"))
            for s, n in enumerate(names)
        ]
        assert len(Match.new(game, 2, seed, Hooks(None)).run(bots)) == 2


def test_the_guides_simulations_of_several_bots_rotate_the_seats(race):
    """Without ``--rotate`` the first seat's edge is counted as its bot's, and ``simulate``
    warns that the run mixes seat and bot: the guide's commands must not earn that warning."""
    module = sys.modules[race.__module__]
    for language, path, code in guide_blocks():
        if language == "python" and not path:
            exec(compile(code, str(GUIDE), "exec"), vars(module))
    app = make_app(plugin_manager(entry_points=False, extra=[module]))
    shown = [
        shlex.split(command)[1:]
        for language, _, code in guide_blocks()
        if language == "console"
        for command, _ in commands(code)
        if command.startswith("meeple simulate")
    ]
    assert any("--seats" in args for args in shown)
    for args in shown:
        result = CliRunner().invoke(app, [*args, "--workers", "1"])
        assert result.exit_code == 0, result.output
        assert "mixes seat and bot" not in " ".join(result.output.split()), args


@pytest.mark.soak  # a new venv and a package built in it: with the long runs
def test_the_guide_from_meeple_new_to_a_tested_game_in_a_fresh_venv(tmp_path):
    """The guide's commands in order, offline (see :data:`OFFLINE`), in a new venv that sees
    this one's packages (meeple included, as ``pip install -e /path/to/meeple`` would give it);
    the code the guide adds to the package is added where the guide shows it. Every command
    succeeds, or prints exactly the output the guide shows for it."""
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
    path = os.pathsep.join([str(env / "bin"), os.environ["PATH"]])
    shell_env = {**os.environ, "PATH": path, "COLUMNS": "200", "VIRTUAL_ENV": str(env)}
    work = tmp_path / "work"
    work.mkdir()
    started = time.monotonic()
    for language, label, code in guide_blocks():
        if language == "python" and not label:
            with (work / "meeple-race" / "meeple_race" / "__init__.py").open("a") as module:
                module.write(f"\n\n{code}")
        for command, shown in commands(code) if language == "console" else ():
            if command in NOT_RUN:
                continue
            done = subprocess.run(
                ["bash", "-c", OFFLINE + command],
                cwd=work, env=shell_env, input="1\n" * 500,  # a human seat plays its first choice
                capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            out = done.stdout + done.stderr
            assert "Traceback" not in out and "internal error" not in out, out
            if shown is None:
                assert done.returncode == 0, f"$ {command}\n{out}"
            else:
                assert out == shown, f"$ {command}"
                assert done.returncode == (1 if shown.startswith("error: ") else 0)
            if command.startswith("python -m pytest"):
                assert " passed" in done.stdout and "failed" not in done.stdout
                print(f"meeple new to passing tests: {time.monotonic() - started:.1f} s")
