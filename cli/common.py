"""What every command shares: the plugin environment, consoles, printing outside
text safely, failing cleanly, checking output paths, and the helpers that turn
command-line text into a game (seats, options) and a finished game back into
text (score table) and files (records).

Outside text -- from a file, a plugin, the command line or the prompt -- is
printed through :func:`plain` (or :func:`shown` for what a game draws): never
read as Rich markup, and with every control character escaped, so that a file
cannot draw a fake line or move the cursor.
"""

from __future__ import annotations

import ast
import errno
import inspect
import itertools
import os
import re
import signal
import stat
import tempfile
import textwrap
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property, partial
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import msgspec
import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from meeple.core.bots import HUMAN, Bot
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError, cut, cut_in, echo, one_of
from meeple.core.files import digests
from meeple.core.game import Game, Options
from meeple.core.plugins import BrokenPlugin, PluginManager, Registry, plugin_manager
from meeple.core.records import Record, Setup
from meeple.core.rng import SEED_MAX
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

BOT = "bot"
"""Seat alias of the game's best bot (``HUMAN``: a person at this terminal)."""

GameClass = type[Game[Any, Any]]


class Env:
    """The plugins one CLI invocation works with (``ctx.obj``), loaded on first use.

    Loading imports the plugins and calls their registration hooks;
    ``meeple_commands`` is called only when plugin commands are needed. A
    plugin that fails is skipped (see :class:`~meeple.core.plugins.BrokenPlugin`)
    and announced in one warning line on standard error, unless ``report``
    is off because the command reports broken plugins in full (``meeple plugins``).
    """

    def __init__(self, pm: PluginManager | None = None) -> None:
        self._pm = pm
        self._registry: Registry | None = None
        self._commands: dict[str, PluginCommand] | None = None
        self._reported = 0
        self.report = True

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._load()
        assert self._registry is not None
        return self._registry

    @property
    def pm(self) -> PluginManager:
        """The plugin manager, once the plugins that failed to register are skipped."""
        return self.registry.pm

    @cached_property
    def hooks(self) -> Hooks:
        return Hooks(self.pm)

    def commands(self, builtin: Collection[str]) -> dict[str, PluginCommand]:
        """The commands plugins add, by name; none may reuse a ``builtin`` name."""
        if self._commands is None:
            self._load(builtin)
        assert self._commands is not None
        return self._commands

    def _load(self, builtin: Collection[str] | None = None) -> None:
        # One step loads what is asked for, so that its failures make one warning line.
        if self._registry is None:
            self._registry = Registry(self._pm if self._pm is not None else plugin_manager())
        pm = self._registry.pm
        if builtin is not None and self._commands is None:
            self._commands = plugin_commands(pm, builtin)
        new = pm.broken[self._reported :]
        self._reported = len(pm.broken)
        if new and self.report:
            which = ", ".join(f"{b.name!r} ({b.stage})" for b in new)
            warn(f"skipped broken plugins: {which}; `meeple plugins` says why")


class PluginCommand(NamedTuple):
    """A command that a plugin adds through ``meeple_commands``."""

    plugin: str
    command: Any
    """The click command Typer built (typer vendors click, so its class has no public path)."""


def plugin_commands(pm: PluginManager, builtin: Collection[str]) -> dict[str, PluginCommand]:
    """Call each plugin's ``meeple_commands`` on an app of its own; a plugin keeps all or none.

    A plugin whose hook raises, or that adds a command meeple or an earlier
    plugin already has, is recorded in ``pm.broken`` and adds nothing.
    """
    found: dict[str, PluginCommand] = {}
    for plugin, call in pm.each_implementation("meeple_commands"):
        app = typer.Typer()
        try:
            call(app=app)
            added = typer.main.get_group(app).commands
            for name in added:
                if name in builtin or name in found:
                    owner = "meeple" if name in builtin else f"plugin {found[name].plugin!r}"
                    raise MeepleError(f"it adds the command {name!r}, which {owner} already has")
        except Exception as exc:  # a plugin may fail in any way
            pm.broken.append(BrokenPlugin.of(plugin, "meeple_commands", exc))
            continue
        found.update((name, PluginCommand(plugin, command)) for name, command in added.items())
    return found


def env(ctx: typer.Context) -> Env:
    """The invocation's :class:`Env`: the root context's object, set by ``make_app``."""
    root = ctx.find_root()
    if not isinstance(root.obj, Env):
        root.obj = Env()
    return root.obj


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


class Terminated(KeyboardInterrupt):
    """SIGTERM heard inside :class:`Terminable`: the command stops as on Ctrl-C, but asks
    nothing and exits 143 (128 + SIGTERM), as a process ended by the signal does."""


def terminate() -> NoReturn:
    """Stop the command where it is (see :class:`Terminated`)."""
    raise Terminated


class Terminable:
    """Inside ``with Terminable() as term``, SIGTERM (a batch system's stop, ``kill``) calls
    ``stop``, which raises :class:`Terminated` unless told otherwise: the command stops as on
    Ctrl-C, keeping its work, rather than end at once, losing it and leaving its workers
    behind. ``term.terminated`` says it came, even when a worker's Ctrl-C surfaced first.

    In the main thread only, the one Python hands signals to."""

    def __init__(self, stop: Callable[[], object] = terminate) -> None:
        self.terminated = False
        self._stop = stop
        self._restore: Callable[[], object] = lambda: None

    def _heard(self, signum: int, frame: object) -> None:
        self.terminated = True
        self._stop()

    def __enter__(self) -> Terminable:
        if threading.current_thread() is threading.main_thread():
            before = signal.signal(signal.SIGTERM, self._heard)
            # A handler set outside Python reads as None: the default stands for it.
            default = signal.SIG_DFL if before is None else before
            self._restore = partial(signal.signal, signal.SIGTERM, default)
        return self

    def __exit__(self, *exc: object) -> None:
        self._restore()


def interrupted(done: int, of: int, unit: str, kept: str = "", *, terminated: bool = False) -> int:
    """Say on standard error how far a run got before Ctrl-C (or SIGTERM, if ``terminated``)
    and where its work is kept; the code to exit with: 130, or 143 (128 + SIGTERM)."""
    said = "terminated" if terminated else "interrupted"
    err_console.print(plain(f"{said} after {done} of {of} {unit}{kept}"), soft_wrap=True)
    return 143 if terminated else 130


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


# -- output paths --------------------------------------------------------------


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


# -- seats -------------------------------------------------------------------


def utf8(text: str, option: str) -> None:
    """Raise :class:`MeepleError` if ``text`` is not UTF-8.

    Bytes the system could not decode (a file name in another encoding) reach
    Python as lone surrogates, which no JSON -- a record, a run file -- can hold:
    refused here, a game played with them could not be saved.
    """
    try:
        text.encode()
    except UnicodeEncodeError:
        raise MeepleError(
            f"{option} {echo(text)}: not UTF-8 text, which a saved game cannot hold "
            "(a file or folder name in another encoding? rename it)"
        ) from None


def best_bot(registry: Registry, game_id: str) -> str:
    """What the ``bot`` alias means for a game: its own bot if it has one, else ``random``.

    A game with several bots of its own gets the first by name.
    """
    own = sorted(
        name
        for name, specs in registry.bots.items()
        if any(s.games is not None and game_id in s.games for s in specs)
    )
    return own[0] if own else "random"


def player_names(registry: Registry, game_id: str, text: str, option: str) -> list[str]:
    """``"Bot,ismcts:iterations=9"`` -> ``["random", "ismcts:iterations=9"]``: the names
    of a comma-separated list, case-blind, with ``bot`` resolved (option values as given)."""
    utf8(text, option)
    names = []
    for player in text.split(","):
        name, colon, options = player.partition(":")
        name = name.strip().lower()  # names are case-blind, option values not
        names.append((best_bot(registry, game_id) if name == BOT else name) + colon + options)
    return names


def parse_seats(registry: Registry, game: GameClass, text: str) -> list[str]:
    """``"bot,human,ismcts:time=0.5"`` -> one player name per seat, ``bot`` resolved to a
    real bot and a bot's options checked and written canonically (see :meth:`Registry.player`)."""
    names = player_names(registry, game.id, text, "--seats")
    if "" in names:
        raise MeepleError(f"--seats {echo(text)}: an empty seat; separate names with single commas")
    if not game.min_seats <= len(names) <= game.max_seats:
        raise MeepleError(
            f"--seats {echo(text)}: {len(names)} seats, but {game.title} takes "
            f"{game.min_seats}-{game.max_seats}"
        )
    # Each bot's options are checked (raising if one is wrong) and written canonically.
    return [n if n == HUMAN else registry.player(n, game.id, pin=True).text for n in names]


def make_bots(
    registry: Registry, game: Game[Any, Any], seats: Sequence[str], seed: int
) -> list[Bot | None]:
    """One bot per bot seat (``None`` for humans), each with its own seeded stream."""
    return [
        None if name == HUMAN else registry.player(name, game.id).make(game, seat, seed)
        for seat, name in enumerate(seats)
    ]


def seed_range(seed: int, n: int) -> range:
    """The seeds of ``n`` games from ``seed``, each one a file can hold (at most ``SEED_MAX``)."""
    if seed + n - 1 > SEED_MAX:
        raise MeepleError(
            f"--seed {seed} with {n:,} games: the last seed would be {seed + n - 1}, past the "
            f"largest, {SEED_MAX}; lower --seed or -n"
        )
    return range(seed, seed + n)


# -- options -----------------------------------------------------------------


def option_docs(options: type[Options]) -> dict[str, str]:
    """Each option's help, on one line: its ``Meta(description=...)`` or the docstring under
    it, in its class or in the base class that declares it."""
    docs: dict[str, str] = {}
    for cls in reversed(options.__mro__[: options.__mro__.index(Options)]):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):  # no source (frozen app, REPL): no docstrings
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for stmt, nxt in itertools.pairwise(body):
            if (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                docs[stmt.target.id] = inspect.cleandoc(nxt.value.value)
    for field in msgspec.structs.fields(options):
        meta = getattr(field.type, "__metadata__", ())
        described = [m.description for m in meta if isinstance(m, msgspec.Meta) and m.description]
        if described:
            docs[field.name] = described[0]
    return {name: _REST.sub(_as_shown, " ".join(doc.split())) for name, doc in docs.items()}


_REST = re.compile(r"``(?P<literal>.+?)``|:[\w:]+:`(?P<role>[^`]+)`")
"""reST's inline literals (````all````) and roles (``:class:`~pkg.Name```), as docstrings
write them."""


def _as_shown(found: re.Match[str]) -> str:
    """A reST literal or role as meeple's help text writes code: in single backquotes, a
    role by its text (``~`` cuts a dotted name to its last part, as Sphinx does)."""
    role = found["role"]
    if role is None:
        return f"`{found['literal']}`"
    text = role.partition(" <")[0]  # `text <target>`
    return f"`{text[1:].rpartition('.')[2] if text.startswith('~') else text}`"


def describe_options(options: type[Options]) -> str:
    """One line per option: name, default and help (for error messages)."""
    docs = option_docs(options)
    lines = []
    for field in msgspec.structs.fields(options):
        default = "" if field.default is msgspec.NODEFAULT else f" (default {field.default!r})"
        doc = docs.get(field.name, "")
        lines.append(f"  {field.name}{default}" + (f": {doc}" if doc else ""))
    return "\n".join(lines) or "  (this game has no options)"


GAME_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}
"""Context settings of commands that take game options as flags (``--board back``)."""


class Flag(str):
    """A game option given as a flag: ``key=value`` like an ``-o`` item, which remembers the
    flag as written (``--hand-limit``), so that an error names the option the user typed."""

    flag: str
    value: str

    def __new__(cls, key: str, value: str, flag: str) -> Flag:
        item = super().__new__(cls, f"{key}={value}")
        item.flag, item.value = flag, value
        return item


def option_flags(ctx: typer.Context, game: GameClass) -> list[str]:
    """Game options given as flags after the command's own: ``--board back`` -> ``board=back``
    (a :class:`Flag`).

    Any option of the game's ``Options`` may be written this way (``-`` for
    ``_``); a flag that is neither the command's nor the game's is a usage error.
    """
    names = {f.name for f in msgspec.structs.fields(game.options_type)}
    args, items = list(ctx.args), list[str]()
    while args:
        arg = args.pop(0)
        flag, sep, value = arg.partition("=")
        key = flag.removeprefix("--").replace("-", "_")
        if not arg.startswith("--") or key not in names:
            hint = f"; {game.title}'s options are:\n{describe_options(game.options_type)}"
            raise typer.BadParameter(
                f"unexpected {echo(arg)}{hint if arg.startswith('--') else ''}"
            )
        if not sep:
            if not args:
                raise typer.BadParameter(f"{cut(arg)} needs a value")
            value = args.pop(0)
        items.append(Flag(key, value, flag))
    return items


def parse_options(game: GameClass, items: Sequence[str]) -> Options:
    """``["key=value", ...]`` -> the game's ``Options``, with errors that list the valid keys.

    An error names an item as given: ``--option 'key=value'``, or a :class:`Flag` as written.
    """
    names = {f.name for f in msgspec.structs.fields(game.options_type)}
    raw: dict[str, Any] = {}
    for item in items:
        option, text = (item.flag, item.value) if isinstance(item, Flag) else ("--option", item)
        utf8(text, option)
        given = f"{option} {echo(text)}"
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise MeepleError(f"{given}: write it as key=value")
        if key not in names:
            raise MeepleError(
                f"{given}: {game.title} has no option {echo(key)}; its options are:\n"
                + describe_options(game.options_type)
            )
        # Lists and tables are written as JSON (tasks=[1,2]); everything else as plain text.
        if value[:1] in ("[", "{"):
            try:
                value = msgspec.json.decode(value)
            except msgspec.DecodeError:
                raise MeepleError(f"{given}: {echo(value)} is not valid JSON") from None
            except RecursionError:
                named = item.flag if isinstance(item, Flag) else f"--option {key}"
                raise MeepleError(f"{named}: its JSON is nested too deeply") from None
        # Each option alone first, so an error names the one at fault (every option has a default).
        try:
            msgspec.convert({key: value}, game.options_type, strict=False)
        except msgspec.ValidationError as exc:
            doc = option_docs(game.options_type).get(key, "")
            hint = f" ({key}: {doc})" if doc else ""
            problem = cut_in(str(exc), value) if isinstance(value, str) else str(exc)
            raise MeepleError(f"{given}: {problem}{hint}{one_of(game.options_type, key)}") from None
        raw[key] = value
    try:
        return msgspec.convert(raw, game.options_type, strict=False)
    except msgspec.ValidationError as exc:  # options that do not go together
        raise MeepleError(f"--option: {exc}") from None


# -- finished games ----------------------------------------------------------


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


def setup_of(game: Game[Any, Any], seats: Sequence[str], seed: int) -> Setup[Any]:
    """The setup that, with the same plugins and files, sets this game up again."""
    return Setup(
        game=game.id,
        version=game.version,
        seats=list(seats),
        seed=seed,
        options=game.options,
        files=digests(game.options),
    )


def record_of(match: Match, setup: Setup[Any], *, scored: bool = True) -> Record[Any, Any]:
    """The record of ``match`` so far; scores are included once it is over, if ``scored``.

    A record is complete without its scores (replays recompute them), which
    is how a game whose score hook fails is still saved.
    """
    over = match.over
    return Record(
        setup=setup,
        actions=list(match.actions),
        over=over,
        digest=match.game.digest(match.state),
        scores=match.scores() if over and scored else None,
    )
