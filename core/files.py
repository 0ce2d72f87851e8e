"""Reading files meeple did not write: records, snapshots and the files options name.

Every such file goes through :func:`read_file` (or :func:`open_file`, for a
run file read line by line). They open regular files only, never wait on open
(a named pipe with no writer would block for ever), and ``read_file`` reads
at most ``limit + 1`` bytes whatever ``stat`` says: ``/dev/zero`` and
``/proc`` files report a size of 0.

An option whose value is the path of a file is declared with the
:data:`FilePath` type. When a game is played, its setup stores the SHA-256 of
each named file (:func:`digests`); a saved game read later plays only with the
very same bytes (:func:`unavailable`), so a file from elsewhere can neither
make meeple read an arbitrary path nor learn whether one exists.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from typing import Annotated, Any, BinaryIO

import msgspec
import msgspec.inspect as mi

from meeple.core.errors import UnreadableFile

FilePath = Annotated[str, msgspec.Meta(extra={"meeple": "file"})]
"""The type of an option that names a file: ``cards: FilePath | None = None``.

The core reads such a file to record its digest in the setup, and refuses a
saved game whose file is not the one it was played with.
"""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)

# Not waiting for a writer on a FIFO; not becoming a terminal's controlling process.
_OPEN = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_OPEN |= getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`UnreadableFile` for anything else: a missing or unreadable
    path, a folder, a device, a named pipe, a socket, or a file over ``limit``.
    """
    where = os.fspath(path)
    with open_file(where) as f:
        try:
            # A read of ``limit + 1`` bytes would allocate that much for any file: read what
            # stat says, and the rest only if there is more (a ``/proc`` file says 0).
            size = min(os.fstat(f.fileno()).st_size, limit)
            data = f.read(size + 1)
            if len(data) > size:
                data += f.read(limit + 1 - len(data))
        except OSError as exc:
            raise UnreadableFile(where, exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise UnreadableFile(where, f"is larger than the {limit:,}-byte limit")
    return data


def open_file(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at ``path``, open for reading as a stream (a file of any size).

    Raises :class:`UnreadableFile` as :func:`read_file` does, never waiting on open.
    """
    where = os.fspath(path)
    try:
        # What the path is, before opening it: opening a device can act (rewind a tape).
        _regular(where, os.stat(where).st_mode)
        fd = os.open(where, _OPEN)
    except OSError as exc:
        raise UnreadableFile(where, exc.strerror or str(exc)) from None
    try:
        # What was opened, which may not be what the path named a moment before.
        _regular(where, os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise UnreadableFile(where, exc.strerror or str(exc)) from None
    except UnreadableFile:
        os.close(fd)
        raise
    return open(fd, "rb")


def _regular(where: str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "something else")
        raise UnreadableFile(where, f"is {kind}, not a regular file")


@functools.cache
def file_options(options: type[msgspec.Struct]) -> tuple[str, ...]:
    """The names of the fields of ``options`` declared as :data:`FilePath`."""
    info = mi.type_info(options)
    assert isinstance(info, mi.StructType)
    return tuple(f.name for f in info.fields if _is_file(f.type))


def _is_file(t: mi.Type) -> bool:
    if isinstance(t, mi.UnionType):
        return any(_is_file(member) for member in t.types)
    return isinstance(t, mi.Metadata) and (t.extra or {}).get("meeple") == "file"


def _named(options: msgspec.Struct) -> dict[str, str]:
    """Each file option of ``options`` that names a file, with its path."""
    named = {name: getattr(options, name) for name in file_options(type(options))}
    return {name: path for name, path in named.items() if path is not None}


MAX_FILE_BYTES = 32 * 1024 * 1024
"""Most bytes read to check a file an option names (the game applies its own limit)."""


def digest(data: bytes) -> str:
    """The fingerprint a setup stores of a file: the SHA-256 of its bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


def digests(options: Any) -> dict[str, str]:
    """The digest of each file ``options`` names, by option name.

    Raises :class:`UnreadableFile` for a file that cannot be read.
    """
    return {name: digest(read_file(path, MAX_FILE_BYTES)) for name, path in _named(options).items()}


def unavailable(options: Any, stored: dict[str, str]) -> list[str]:
    """What keeps a saved game from being played with the files it was played with.

    ``stored`` holds the digests the setup saved (:func:`digests`). A file
    that is missing, unreadable, not a regular file, too big or different
    gets the same message, which says nothing about the path beyond its
    name, so that a file from elsewhere cannot probe the machine.
    """
    named = _named(options)
    problems = [
        f"$.setup.files.{name}: no file option {name!r} names a file in this setup"
        for name in sorted(set(stored) - set(named))
    ]
    for name, path in named.items():
        try:
            same = name in stored and stored[name] == digest(read_file(path, MAX_FILE_BYTES))
        except UnreadableFile:
            same = False
        if not same:
            problems.append(
                f"$.setup.options.{name}: the file {path!r} is not available as it was when "
                "this game was played; put that same file (byte for byte) at that path"
            )
    return problems
