"""Untrusted paths at the command line: saved games, and the files game options name.

Every command that reads a file refuses a folder, a device, a named pipe or a
file over the limit at once, with one line and exit 1. A named pipe is tried
in a subprocess with a timeout, so that a reader that waits fails the test
instead of hanging it. A file option inside a saved game must name the very
file the game was played with; anything else gets one message that tells
nothing about the path (docs/files.md#files-named-by-options).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meeple.core import records
from meeple.core.plugins import Registry
from meeple.plugins.clank.content import MAX_TABLE_BYTES

SAVED_GAME_COMMANDS = [("validate",), ("replay",), ("play", "--resume")]
FILE_OPTIONS = [
    ("clonk", "cards", "Clonk! card table"),
    ("clank", "cards", "Clank! card table"),
    ("clank", "tokens", "Clank! token table"),
    ("clank", "board_file", "Clank! board"),
    ("clank-catacombs", "cards", "Clank! Catacombs card table"),
    ("clank-catacombs", "tokens", "Clank! Catacombs token table"),
    ("clank-catacombs", "tiles", "Clank! Catacombs tile set"),
]
OPTION_IDS = [f"{game}-{option}" for game, option, _ in FILE_OPTIONS]


def bad_path(tmp_path: Path, kind: str, size: int) -> tuple[Path, str]:
    """A path naming ``kind`` of thing (``size``: a byte more than the limit), and the reason."""
    path = tmp_path / f"{kind}.json"
    if kind == "folder":
        path.mkdir()
        return path, "is a folder, not a regular file"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
        return path, "is a device, not a regular file"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "is a named pipe (FIFO), not a regular file"
    path.write_bytes(b" " * size)
    return path, "-byte limit"


def meeple(*args: object) -> subprocess.CompletedProcess[str]:
    """``meeple ARGS`` in a subprocess that must end within seconds."""
    return subprocess.run(
        [sys.executable, "-m", "meeple.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def record_naming(registry: Registry, folder: Path, game_id: str, option: str, path: Path) -> Path:
    """A record of ``game_id`` whose ``option`` names ``path``, with the digest of other bytes."""
    game = registry.game(game_id)
    setup = records.Setup(
        game=game_id,
        version=game.version,
        seats=["random", "random"],
        seed=1,
        options=msgspec.convert({option: str(path)}, game.options_type),
        files={option: hashlib.sha256(b"the table played with").hexdigest()},
    )
    saved = folder / f"{game_id}-{option}.json"
    record = records.Record(setup=setup, actions=[], over=False, digest="0")
    records.write_atomic(saved, records.encode(record))
    return saved


def unavailable(option: str, path: Path) -> str:
    return (
        f"$.setup.options.{option}: the file {str(path)!r} is not available as it was when "
        "this game was played; put that same file (byte for byte) at that path"
    )


# -- records and snapshots -------------------------------------------------------------------


@pytest.mark.parametrize("command", SAVED_GAME_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", ["folder", "dev-zero", "too-big"])
def test_a_saved_game_that_is_no_regular_file(
    cli: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command, kind
) -> None:
    monkeypatch.setattr(records, "MAX_BYTES", 100)
    path, reason = bad_path(tmp_path, kind, 101)
    result = cli(*command, path)
    assert result.exit_code == 1, result.output
    assert reason in result.output


@pytest.mark.parametrize("command", SAVED_GAME_COMMANDS, ids=" ".join)
def test_a_saved_game_that_is_a_fifo_is_refused_at_once(tmp_path: Path, command) -> None:
    path, reason = bad_path(tmp_path, "fifo", 0)
    done = meeple(*command, path)
    assert done.returncode == 1, done.stderr
    assert reason in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_a_saved_game_whose_name_is_not_utf8_is_named_with_escapes(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    """Such a name cannot be written to a UTF-8 terminal or JSON as it is: a play whose
    record was saved failed when it said where, and validate --json did not report."""
    saved = tmp_path / os.fsdecode(b"partie-\xe9.json")  # Latin-1, not UTF-8
    played = cli("play", "clonk", "--seats", "bot,bot", "--seed", "3", "-q", "--save", saved)
    assert played.exit_code == 0, played.output
    assert "saved to " + str(saved).replace("\udce9", "\\udce9") in played.output
    checked = cli("validate", saved)
    assert checked.exit_code == 0 and "partie-\\udce9.json (record of clonk" in checked.output
    [report] = json.loads(cli("validate", saved, "--json").stdout)
    assert report["ok"] and report["path"].endswith("partie-\\udce9.json")


# -- run files: read line by line, of any size ------------------------------------------------


@pytest.mark.parametrize("kind", ["folder", "dev-zero", "fifo"])
def test_a_run_file_that_is_no_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path, reason = bad_path(tmp_path, kind, 0)
    done = meeple("stats", path)
    assert done.returncode == 1, done.stderr
    assert f"{path}: {reason}; name a run file" in done.stderr and "Traceback" not in done.stderr


# -- file options on the command line: the user named the path, so the details are said --------


@pytest.mark.parametrize(("game", "option", "what"), FILE_OPTIONS, ids=OPTION_IDS)
@pytest.mark.parametrize("kind", ["folder", "dev-zero", "too-big"])
def test_a_file_option_that_is_no_regular_file(
    cli: Callable[..., Any], tmp_path: Path, game: str, option: str, what: str, kind: str
) -> None:
    path, reason = bad_path(tmp_path, kind, MAX_TABLE_BYTES + 1)
    result = cli("play", game, "--seats", "bot,bot", "--option", f"{option}={path}")
    assert result.exit_code == 1, result.output
    assert f"cannot read the {what} {str(path)!r} (" in result.output
    assert reason in result.output


@pytest.mark.parametrize(("game", "option", "what"), FILE_OPTIONS, ids=OPTION_IDS)
def test_a_file_option_that_is_a_fifo_is_refused_at_once(
    tmp_path: Path, game: str, option: str, what: str
) -> None:
    path, reason = bad_path(tmp_path, "fifo", 0)
    done = meeple("play", game, "--seats", "bot,bot", "--option", f"{option}={path}")
    assert done.returncode == 1, done.stderr
    assert f"cannot read the {what}" in done.stderr and reason in done.stderr


def test_a_file_option_whose_name_is_not_utf8_is_refused_before_the_game(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    """The record keeps the path as JSON text, which cannot hold undecodable bytes: the game
    would be played to its end and then not saved."""
    folder = tmp_path / os.fsdecode(b"cartes-\xe9")  # Latin-1, not UTF-8
    folder.mkdir()
    table = folder / "cards.json"
    table.write_bytes((Path(records.__file__).parents[1] / "seeds/clonk/cards.json").read_bytes())
    saved = tmp_path / "game.json"
    result = cli(
        "play", "clonk", "--seats", "bot,bot", "--option", f"cards={table}", "--save", saved
    )
    assert result.exit_code == 1, result.output
    assert "not UTF-8 text, which a saved game cannot hold" in result.output
    assert not saved.exists()


# -- file options inside a saved game: the same file, or one uniform refusal ---------------------


@pytest.mark.parametrize(("game", "option"), [o[:2] for o in FILE_OPTIONS], ids=OPTION_IDS)
@pytest.mark.parametrize("kind", ["folder", "dev-zero", "too-big", "missing", "other"])
def test_a_file_option_in_a_record_that_is_not_the_file_played_with(
    cli: Callable[..., Any],
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    option: str,
    kind: str,
) -> None:
    if kind in ("missing", "other"):
        path = tmp_path / "table.json"
        if kind == "other":
            path.write_bytes(b"another table")
    else:
        monkeypatch.setattr("meeple.core.files.MAX_FILE_BYTES", 100)
        path, _ = bad_path(tmp_path, kind, 101)
    result = cli("validate", record_naming(registry, tmp_path, game, option, path))
    assert result.exit_code == 1, result.output
    assert f"  - {unavailable(option, path)}\n" in result.output


def test_file_options_in_records_that_are_fifos_are_refused_at_once(
    registry: Registry, tmp_path: Path
) -> None:
    fifo, _ = bad_path(tmp_path, "fifo", 0)
    saved = [record_naming(registry, tmp_path, g, o, fifo) for g, o, _ in FILE_OPTIONS]
    done = meeple("validate", *saved)
    assert done.returncode == 1, done.stderr
    for (_, option, _), path in zip(FILE_OPTIONS, saved, strict=True):
        assert f"INVALID {path}\n  - {unavailable(option, fifo)}\n" in done.stdout


def test_a_saved_game_plays_with_the_very_file_it_was_played_with(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    """The setup keeps the table's SHA-256; validate, replay and resume check it first."""
    table = tmp_path / "cards.json"
    built_in = Path(records.__file__).parents[1] / "seeds" / "clonk" / "cards.json"
    table.write_bytes(built_in.read_bytes())
    saved = tmp_path / "game.json"
    played = cli(
        "play", "clonk", "--seats", "bot,bot", "--seed", "3", "-q",
        "--option", f"cards={table}", "--save", saved,
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    setup = json.loads(saved.read_text())["setup"]
    assert setup["files"] == {"cards": hashlib.sha256(table.read_bytes()).hexdigest()}
    for command in SAVED_GAME_COMMANDS:
        assert cli(*command, saved).exit_code == 0, command

    message = unavailable("cards", table)
    table.write_bytes(table.read_bytes() + b" ")  # still a valid table, but not the same
    for command in SAVED_GAME_COMMANDS:
        result = cli(*command, saved)
        assert result.exit_code == 1 and message in result.output, command

    table.write_bytes(built_in.read_bytes())
    no_digest = json.loads(saved.read_text())
    del no_digest["setup"]["files"]
    saved.write_text(json.dumps(no_digest))
    result = cli("validate", saved)
    assert result.exit_code == 1 and message in result.output
