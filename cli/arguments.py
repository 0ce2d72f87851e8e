"""From command-line text to a game: the players of its seats (``bot`` resolved), the seeds
of a run, and the game's options, given as ``--option key=value`` or as flags of their own."""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import textwrap
from collections.abc import Sequence
from typing import Any

import msgspec
import typer

from meeple.core.bots import HUMAN, Bot
from meeple.core.errors import MeepleError, cut, cut_in, echo, one_of
from meeple.core.game import Game, Options
from meeple.core.plugins import Registry
from meeple.core.rng import SEED_MAX

BOT = "bot"
"""Seat alias of the game's best bot (``HUMAN``: a person at this terminal)."""

GameClass = type[Game[Any, Any]]


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
    return registry.own_bot(game_id) or "random"


def player_names(registry: Registry, game_id: str, text: str, option: str) -> list[str]:
    """``"Bot,bot:hard,ismcts:iterations=9"`` -> ``["random", "ismcts", "ismcts:iterations=9"]``:
    the names of a comma-separated list, case-blind, with ``bot`` and each level ``bot:LEVEL``
    resolved to the bot it stands for (option values as given)."""
    utf8(text, option)
    names = []
    for player in text.split(","):
        name, colon, options = player.partition(":")
        name = name.strip().lower()  # names are case-blind, option values not
        level, more, _ = options.partition(":")
        if name == BOT and options and "=" not in level:  # bot:LEVEL, not bot:key=value
            if more:
                raise MeepleError(
                    f"{option} {echo(player)}: a level names a whole bot and takes no options; "
                    "name the bot itself to change them (`meeple games --bots` shows them)"
                )
            try:
                names.append(registry.level(game_id, level.strip().lower()).bot)
            except MeepleError as exc:
                raise MeepleError(f"{option} {echo(player)}: {exc}") from None
            continue
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
