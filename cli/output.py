"""What a command prints, and how it fails: the consoles, outside text printed safely, a
game's scores as a table, warnings, and errors that end a command in one line.

Outside text -- from a file, a plugin, the command line or the prompt -- is
printed through :func:`plain` (or :func:`shown` for what a game draws): never
read as Rich markup, and with every control character escaped, so that a file
cannot draw a fake line or move the cursor.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import msgspec
import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from meeple.core.errors import MeepleError
from meeple.core.scoring import Score, rank


class _Output(Console):
    """Standard output, whose reader may go away (``meeple play ... | head``).

    Rich then exits at once, which would skip what a command does on an error:
    ``play`` saving its game. Here the output goes quiet, as Rich has it, and
    :class:`BrokenPipeError` is raised instead; Typer ends it with exit code 1.
    """

    def on_broken_pipe(self) -> None:
        try:
            super().on_broken_pipe()
        except SystemExit:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)) from None


console = _Output(highlight=False)
err_console = Console(stderr=True, highlight=False)


# -- printing outside text ---------------------------------------------------

# C0 but tab, DEL and C1: the codes a terminal may act on; and lone surrogates, which
# no encoding can write. Newline is kept only where a text is made of lines (a
# message, a game's drawing); elsewhere a newline from outside could start a line
# that looks like meeple's own.
_CONTROLS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROLS_BUT_NEWLINE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def escaped(text: str, *, lines: bool = False) -> str:
    """``text`` with each control character written as its escape (``\\x1b``).

    Tabs are kept; newlines too when ``lines`` is true. A lone surrogate (a
    byte of a file name the system could not decode) is written ``\\udcff``.
    """
    pattern = _CONTROLS_BUT_NEWLINE if lines else _CONTROLS
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def plain(text: str, style: str = "", *, lines: bool = False) -> Text:
    """``text`` as Rich text, never markup, its control characters escaped (see :func:`escaped`)."""
    return Text(escaped(text, lines=lines), style=style)


class _Escaped:
    """A game's drawing with every control character in its text escaped.

    The game's own styles and markup are kept: they are the game's code. The
    strings inside come from the state, which may come from a file, so the
    escaping happens here, on what is about to reach the terminal, whatever
    renderable the game built.
    """

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            # A control segment (cursor moves, screen clears) is dropped: a table has none.
            if not segment.control:
                yield Segment(escaped(segment.text, lines=True), segment.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        # As wide as the drawing (a table's column fits it), not the whole width given.
        return Measurement.get(console, options, self.renderable)


def shown(drawing: Any) -> RenderableType:
    """What ``Presentation.render`` returned, made safe to print: a string as plain lines."""
    if isinstance(drawing, str):
        return plain(drawing, lines=True)
    return _Escaped(drawing)


def echo_json(data: bytes) -> None:
    """Print encoded JSON, indented, with DEL and C1 characters as ``\\u`` escapes.

    JSON itself escapes only C0; the result is still valid JSON of the same value.
    """
    text = msgspec.json.format(data, indent=2).decode()
    typer.echo(re.sub("[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text))


def error_line(message: str, label: str = "error:", style: str = "bold red") -> Text:
    """``label`` in ``style``, then ``message`` as plain text.

    A message may span lines (a list of options, notes); each line after the
    first is indented, so that none -- even one from a file -- can pass for a
    line of meeple's own.
    """
    return Text.assemble((label, style), " ", plain(message.replace("\n", "\n  "), lines=True))


def message_of(exc: BaseException) -> str:
    """An exception's message and its notes (what was done about it), one per line."""
    return "\n".join([str(exc), *getattr(exc, "__notes__", ())])


def warn(message: str) -> None:
    """Print ``message`` as a warning on standard error, as text (it may quote a plugin)."""
    err_console.print(error_line(message, "warning:", "yellow"), soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` as an error and exit (1: bad input or failed check, 2: usage)."""
    err_console.print(error_line(message), soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def errors() -> Iterator[None]:
    """Turn a :class:`MeepleError` raised inside a command into a message and exit 1."""
    try:
        yield
    except MeepleError as exc:
        fail(message_of(exc))


def score_table(scores: Sequence[Score], seats: Sequence[str], title: str = "Scores") -> Table:
    """Seat, player, each score part, total and place; winners starred."""
    parts = list(dict.fromkeys(k for s in scores for k in s.parts))
    # One space between columns, and folded rather than cut: at 80 columns the names and
    # headings of a four-seat game fit whole, and a longer one wraps onto a second line.
    table = Table(
        title=plain(title), caption="★ winner (ties share the place)", collapse_padding=True
    )
    table.add_column("seat", justify="right", overflow="fold")
    table.add_column("player", overflow="fold")
    for part in parts:
        table.add_column(plain(part.replace("_", " ")), justify="right", overflow="fold")
    table.add_column("total", justify="right", style="bold", overflow="fold")
    table.add_column("place", justify="right", overflow="fold")
    notes = any(s.note for s in scores)
    if notes:
        table.add_column("note", overflow="fold")
    for score, place in zip(scores, rank(scores), strict=True):
        table.add_row(
            str(score.seat),
            plain(seats[score.seat]),
            *(str(score.parts.get(p, "")) for p in parts),
            str(score.total),
            f"★ {place}" if place == 1 else str(place),
            *([plain(score.note)] if notes else []),
        )
    return table
