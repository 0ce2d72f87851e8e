"""The errors meeple raises for things a user can fix.

Each one says what went wrong, where, and how to fix it; the CLI prints the
message and exits with code 1 (never a traceback).
"""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
import sys
import traceback
from typing import Any

import msgspec
import msgspec.inspect as mi


class MeepleError(Exception):
    """Base class of every error a user can act on."""


class UnknownGame(MeepleError):
    """No registered game has the requested id."""


class IllegalAction(MeepleError):
    """An action that is not among the legal actions of the current state."""


class ContentError(MeepleError):
    """A game's content table (cards, boards, tiles) is malformed."""


class InvalidFile(MeepleError):
    """A record or snapshot file could not be read or failed a check.

    ``problems`` lists every finding, each already phrased for a user
    (what, where -- a ``$.json.path`` or a step number -- and how to fix it).
    """

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


class UnreadableFile(MeepleError):
    """A file meeple was asked to read is not a regular file it can read within its limit.

    ``reason`` says why (missing, a folder, a device, a named pipe, too big),
    so that a caller can name the file as it knows it and say how to fix it.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class PluginError(MeepleError):
    """A plugin's hook implementation raised; the original exception is the ``__cause__``.

    The message names the plugin whose implementation raised, the hook, the
    error and where it was raised. ``plugins`` holds several names only in
    the rare case that the raising implementation could not be told apart
    from the others (see :class:`meeple.core.engine.Hooks`).
    """

    def __init__(self, plugins: tuple[str, ...], hook: str, exc: BaseException) -> None:
        self.plugins = plugins
        self.hook = hook
        names = ", ".join(map(repr, plugins))
        who = f"plugin {names}" if len(plugins) == 1 else f"one of the plugins {names}"
        block = "=" + plugins[0] if len(plugins) == 1 else ""
        super().__init__(
            f"{who} failed in {hook}: {explain(exc)}; "
            f"block it with MEEPLE_DISABLE_PLUGINS{block} or report it to the plugin's authors"
        )


def explain(exc: BaseException) -> str:
    """``exc`` in one line for a report about plugin code: type, message, where it was raised.

    A :class:`MeepleError` is already phrased for a user: its message alone.
    """
    if isinstance(exc, MeepleError):
        return str(exc)
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, SyntaxError):  # its message already names the file and line
        return text
    # The line to show is the plugin's: the innermost outside the import system ("<frozen ...>"
    # and importlib) and meeple's core. A module that is not there has no line of its own.
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if not f.filename.startswith(("<", *_NOT_PLUGIN_CODE))
    ]
    if frames:
        text += f" (in {frames[-1].filename}, line {frames[-1].lineno})"
    return text


def install_hint(extra: str) -> str:
    """The shell line that installs meeple's ``extra`` (``web``) where meeple runs: through
    :func:`python`, as a bare ``pip`` may be another Python's, outside meeple's environment."""
    return f'{python()} -m pip install "meeple[{extra}]"'


def python() -> str:
    """The Python running meeple, as a shell line may name it: ``python`` (or the like) when
    the shell's ``PATH`` finds this very file -- a virtual environment that is active -- else
    its path, from the working folder when it is under it (``.venv/bin/python``); quoted."""
    if not sys.executable:  # an embedded Python that cannot tell
        return "python"
    exe = os.path.normcase(os.path.abspath(sys.executable))
    for name in dict.fromkeys(("python", "python3", os.path.basename(exe))):
        found = shutil.which(name)
        if found and os.path.normcase(os.path.abspath(found)) == os.path.normcase(exe):
            return shlex.quote(name)
    relative = os.path.relpath(exe)
    if relative.startswith(os.pardir):
        return shlex.quote(exe)
    return shlex.quote(os.path.join(os.curdir, relative) if os.sep not in relative else relative)


_NOT_PLUGIN_CODE = tuple(
    os.path.join(os.path.dirname(path), "") for path in (importlib.__file__, __file__)
)


def one_of(struct: type[msgspec.Struct], key: str) -> str:
    """``"; reward is one of: win, rank"``: the end of a message refusing a value of field
    ``key`` of ``struct`` (game or bot options), when its type names the values it takes (a
    ``Literal``, an enum); otherwise ``""``."""
    info = mi.type_info(struct)
    assert isinstance(info, mi.StructType)
    [field] = [f for f in info.fields if f.name == key]
    named: list[Any] = []
    for t in field.type.types if isinstance(field.type, mi.UnionType) else [field.type]:
        t = t.type if isinstance(t, mi.Metadata) else t
        if isinstance(t, mi.LiteralType):
            named += t.values
        elif isinstance(t, mi.EnumType):
            named += [member.value for member in t.cls]
    return f"; {key} is one of: {', '.join(map(str, named))}" if named else ""


ECHOED = 200
"""The most characters of a value an error line repeats: a value of 120 kB, repeated whole,
would bury the line that says what is wrong with it, and a pinned model's name (its digest
included, about 100) must still show whole."""


def cut(text: str) -> str:
    """``text`` as an error line repeats it: whole up to :data:`ECHOED` characters, past that
    its start, an ellipsis and its length (``xxxx… (120,000 characters)``)."""
    return text if len(text) <= ECHOED else f"{text[:ECHOED]}… ({len(text):,} characters)"


def echo(text: str) -> str:
    """``text`` quoted (its ``repr``), as an error line repeats a value: cut as by :func:`cut`."""
    if len(text) <= ECHOED:
        return repr(text)
    return f"{text[:ECHOED]!r}… ({len(text):,} characters)"


def cut_in(message: str, value: str) -> str:
    """``message`` (a library's, which may repeat ``value`` whole) with ``value`` cut."""
    return message.replace(value, cut(value)) if len(value) > ECHOED else message
