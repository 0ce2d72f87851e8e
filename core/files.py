"""Reading files meeple did not write: records, snapshots and the files options name.

Every such file goes through :func:`read_file`. It reads regular files only,
never waits on open (a named pipe with no writer would block for ever), and
reads at most ``limit + 1`` bytes whatever ``stat`` says: ``/dev/zero`` and
``/proc`` files report a size of 0.
"""

from __future__ import annotations

import os
import stat

from meeple.core.errors import UnreadableFile

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
    try:
        fd = os.open(where, _OPEN)
    except OSError as exc:
        raise UnreadableFile(where, _open_problem(where, exc)) from None
    try:
        # What was opened, not what the path named a moment before.
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(where, f"is {_kind(mode)}, not a regular file")
        with open(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise UnreadableFile(where, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise UnreadableFile(where, f"is larger than the {limit:,}-byte limit")
    return data


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _open_problem(where: str, exc: OSError) -> str:
    """Why ``where`` could not be opened; a socket's ``ENXIO`` is said as what it is."""
    try:
        mode = os.stat(where).st_mode
    except OSError:
        return exc.strerror or str(exc)
    if stat.S_ISREG(mode):
        return exc.strerror or str(exc)
    return f"is {_kind(mode)}, not a regular file"
