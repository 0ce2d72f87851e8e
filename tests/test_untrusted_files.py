"""Untrusted paths at the command line: saved games, and the files game options name.

Every command that reads a file refuses a folder, a device, a named pipe or a
file over the limit at once, with one line and exit 1. A named pipe is tried
in a subprocess with a timeout, so that a reader that waits fails the test
instead of hanging it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from meeple.core import records
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
