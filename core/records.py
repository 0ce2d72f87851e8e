"""The files a user keeps: game records and snapshots (JSON only).

A **record** (``"kind": "meeple.record"``) is the setup -- game, rules
version, seats, seed, options -- plus every action taken and the digest of the
state they lead to. Replaying it re-creates the game exactly (contract 3).
A **snapshot** (``"kind": "meeple.snapshot"``) is a full state at one moment,
with the setup it came from, for resuming or building a test scenario.

Both are decoded in two passes: a lenient header (kind, format, game) picks
the game's types, then a strict typed decode reports the first problem with
its ``$.json.path``. Untrusted input gets limits (size, nesting) and always
an :class:`~meeple.core.errors.InvalidFile`, never a traceback. Writes are
atomic: a temporary file, fsync, then rename.

Schema evolution follows msgspec's rules: new fields get defaults, nothing is
renamed or retyped; an incompatible change bumps :data:`FORMAT`.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec

from meeple.core.errors import InvalidFile, UnreadableFile
from meeple.core.files import read_file
from meeple.core.game import Game
from meeple.core.rng import Seed
from meeple.core.scoring import Score

FORMAT = 1
"""The version of both file formats this meeple writes and reads."""

MAX_BYTES = 32 * 1024 * 1024
"""Largest file ``read`` accepts (a 10,000-step record is well under 1 MiB)."""

RECORD = "meeple.record"
SNAPSHOT = "meeple.snapshot"

O = TypeVar("O")  # noqa: E741 - the option struct
A = TypeVar("A")
S = TypeVar("S")


Sha256 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class Setup(
    msgspec.Struct, Generic[O], kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """How a game was set up: everything needed to set it up again."""

    game: str
    version: str
    seats: list[str]
    """Who plays each seat: a bot name, or ``human``."""
    seed: Seed
    options: O
    files: dict[str, Sha256] = {}
    """The SHA-256 of each file an option names (see :mod:`meeple.core.files`); a game
    without such files writes none, so its files read as before."""


class Record(msgspec.Struct, Generic[O, A], kw_only=True, forbid_unknown_fields=True):
    """A whole game (or a game so far): its setup and every action, in order."""

    kind: Literal["meeple.record"] = "meeple.record"
    format: int = FORMAT
    setup: Setup[O]
    actions: list[A]
    over: bool
    digest: str
    """Digest of the state after the last action (see :meth:`Game.digest`)."""
    scores: list[Score] | None = None
    """Final scores of a finished game, for readers; replays recompute them."""


class Snapshot(msgspec.Struct, Generic[O, S], kw_only=True, forbid_unknown_fields=True):
    """A full state at one moment of a game, after ``step`` actions."""

    kind: Literal["meeple.snapshot"] = "meeple.snapshot"
    format: int = FORMAT
    setup: Setup[O]
    step: Seed
    """Actions taken before this moment (a counter, so ``0 <= step <= SEED_MAX``)."""
    state: S


class _SetupHeader(msgspec.Struct):
    game: str
    version: str


class _Header(msgspec.Struct):
    kind: str
    format: int
    setup: _SetupHeader


def record_type(game: type[Game[Any, Any]]) -> Any:
    return Record[game.options_type, game.action_type]  # type: ignore[name-defined]


def snapshot_type(game: type[Game[Any, Any]]) -> Any:
    return Snapshot[game.options_type, game.state_type]  # type: ignore[name-defined]


def header(data: bytes, path: str) -> tuple[str, str, str]:
    """The kind, game id and rules version of a file's bytes, checked leniently."""
    if not data.strip():
        raise InvalidFile(path, ["the file is empty; a meeple record or snapshot is a JSON object"])
    if b"\x00" in data:
        raise InvalidFile(path, ["this is a binary file, not a meeple JSON record or snapshot"])
    problem = _decode_problem(data, _Header)
    if isinstance(problem, str):
        said = f"not a meeple record or snapshot: {problem}"
        raise InvalidFile(path, [_run_file(data, path) or said])
    head: _Header = problem
    if head.kind not in (RECORD, SNAPSHOT):
        raise InvalidFile(path, [f"$.kind: {head.kind!r} is neither {RECORD!r} nor {SNAPSHOT!r}"])
    if head.format != FORMAT:
        newer = "a newer" if head.format > FORMAT else "an older"
        raise InvalidFile(
            path,
            [
                f"$.format: format {head.format} was written by {newer} meeple; "
                f"this one reads format {FORMAT}"
            ],
        )
    return head.kind, head.setup.game, head.setup.version


def _run_file(data: bytes, path: str) -> str | None:
    """What to say of a file whose first line is the header of a run file (``meeple simulate
    --jsonl``), a file often taken for a saved game; ``None`` for any other file."""
    from meeple.core.runner import Header  # only for a file that is not a saved game

    try:
        msgspec.json.decode(data.partition(b"\n")[0], type=Header)
    except (msgspec.DecodeError, RecursionError):
        return None
    return (
        "this is a run file of `meeple simulate --jsonl`, not a saved game: "
        f"`meeple stats {shlex.quote(path)}` reads it"
    )


def decode(data: bytes, game: type[Game[Any, Any]], kind: str, path: str) -> Any:
    """Strictly decode a record or snapshot of ``game``; errors carry a ``$.json.path``."""
    result = _decode_problem(data, record_type(game) if kind == RECORD else snapshot_type(game))
    if isinstance(result, str):
        raise InvalidFile(path, [result])
    return result


def _decode_problem(data: bytes, type_: Any) -> Any:
    """The decoded value, or a message saying why the bytes are not one."""
    try:
        return msgspec.json.decode(data, type=type_)
    except msgspec.ValidationError as exc:
        return str(exc)
    except msgspec.DecodeError as exc:
        return f"not valid JSON ({exc}); was the file truncated or edited by hand?"
    except RecursionError:
        return "JSON nested too deeply to be a meeple file"


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A record's or snapshot's bytes, read with :func:`~meeple.core.files.read_file`."""
    try:
        return read_file(path, MAX_BYTES)
    except UnreadableFile as exc:
        raise InvalidFile(exc.path, [exc.reason]) from None


def encode(value: Any) -> bytes:
    """Readable, stable JSON for a record or snapshot (same value, same bytes)."""
    return msgspec.json.format(msgspec.json.encode(value, order="deterministic"), indent=1) + b"\n"


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` so that ``path`` holds either the old or the new bytes, never a mix.

    The file gets the permissions a plain write would give it (those of the
    file it replaces, else the umask's), not the temporary file's private ones.
    """
    target = Path(path)
    folder = target.parent
    # A short temporary name: the target's own may be near the 255-byte limit already.
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".meeple-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            mode = _mode_for(target)
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            else:  # Windows before Python 3.13
                os.chmod(tmp, mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself survive a crash, where the system can sync a folder.

    POSIX syncs a folder through a descriptor opened on it; Windows cannot open
    one that way (and has no ``O_DIRECTORY``). The file is in place by now, so
    a file system that refuses the sync does not fail the save.
    """
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
