"""The files a command writes, checked before any work is done: their folder takes them,
and what is there already is overwritten only when it is of the same kind and game."""

from __future__ import annotations

import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from meeple.core.errors import MeepleError


def check_output(path: Path, option: str) -> None:
    """Raise :class:`MeepleError` unless ``path`` can be written (before any work is done).

    Its folder must exist and take a new file; ``path`` itself must be a
    regular file or not exist yet (a FIFO would block the first write).
    """
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise MeepleError(
            f"{option} {path}: the folder {folder} {what}; create it or choose another"
        )
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise MeepleError(f"{option} {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise MeepleError(f"{option} {path}: this is {what}; name a file to write")
    # Trying is the only sure test: permissions, a read-only mount, root's rights.
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".meeple-"):
            pass
    except OSError as exc:
        raise MeepleError(
            f"{option} {path}: cannot write in {folder} ({exc.strerror or exc}); "
            "choose a folder you can write to"
        ) from None


def check_overwrite(
    path: Path,
    option: str,
    game_id: str,
    force: bool,
    game_of: Callable[[Path], str | None],
    kind: tuple[str, str],
) -> None:
    """:func:`check_output`, and an existing ``path`` is overwritten only with ``force`` or
    if it holds a file of ``game_id``'s: ``game_of`` reads whose it is (``None``: not such a
    file at all), ``kind`` names such a file for one game and in general (``("run", "run
    file")``). Anything else there would be lost."""
    check_output(path, option)
    if force or not path.exists():
        return
    game = game_of(path)
    if game != game_id:
        what = f"a {kind[0]} of {game}" if game else f"not a {kind[1]}"
        raise MeepleError(
            f"{option} {path}: the file exists and is {what}; choose another file, "
            "or add --force to overwrite it"
        )
