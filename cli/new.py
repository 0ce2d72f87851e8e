"""``meeple new``: a game package to start from, installable and tested from the first minute."""

from __future__ import annotations

import builtins
import keyword
import re
import secrets
import shlex
import shutil
from importlib import resources
from pathlib import Path
from string import Template
from typing import Annotated

import typer

from meeple.cli import common
from meeple.core.errors import MeepleError, python

app = typer.Typer()

NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""A game id: lowercase letters, digits and single dashes, starting with a letter."""

LONGEST = 40
"""The longest game id: it names a folder, a module, a class and a command-line argument."""

FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "game.py.tmpl": "{module}/__init__.py",
    "test_game.py.tmpl": "tests/test_{module}.py",
    "gitignore.tmpl": ".gitignore",
}
"""Each template (package data of ``meeple.cli``) and where it goes in the new package."""


TAKEN = frozenset(
    ("Action", "Annotated", "Draw", "Frame", "Game", "Options", "Play", "Presentation", "Rng",
     "Score", "State", "Turn", "Turns", "Zone")
)  # fmt: skip
"""Names the game module already holds: the game ``draw`` gets the class ``DrawGame``."""


def free(cls: str) -> bool:
    """Whether the game module may name its class ``cls``: not a name it holds, nor one Python
    keeps (``None``, ``True``: the game ``none`` would not compile) or has built in
    (``Exception``: the game ``exception`` would hide it)."""
    return not (cls in TAKEN or keyword.iskeyword(cls) or hasattr(builtins, cls))


def names(game_id: str) -> dict[str, str]:
    """What the templates say for game ``game_id`` (``card-race``): distribution, module, class,
    and the names the tests import from the module, in the order isort (and ruff) keeps them."""
    words = game_id.split("-")
    cls = "".join(w.capitalize() for w in words)
    cls += "" if free(cls) else "Game"
    return {
        "id": game_id,
        "dist": f"meeple-{game_id}",
        "module": "meeple_" + "_".join(words),
        "cls": cls,
        "title": " ".join(words).capitalize(),
        "imports": ", ".join(sorted([cls, "Draw", "Play"], key=isort_order)),
    }


def isort_order(name: str) -> tuple[int, str]:
    """isort's default order of imported names: CONSTANTS, then Classes, then the rest,
    each alphabetically regardless of case."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def write_package(game_id: str, parent: Path) -> Path:
    """Write the package of a new game ``game_id`` into a new folder in ``parent``; return it.

    The files are written into a hidden folder beside it, renamed into place once all are
    written: a failure part-way leaves nothing that would block trying again.
    """
    if len(game_id) > LONGEST:
        raise MeepleError(
            f"the game id is {len(game_id)} characters long: use at most {LONGEST} (card-race)"
        )
    if not NAME.fullmatch(game_id):
        raise MeepleError(
            f"{game_id!r} is not a valid game id: use lowercase letters, digits and dashes, "
            "starting with a letter (card-race)"
        )
    subs = names(game_id)
    folder = parent / subs["dist"]
    template = resources.files("meeple.cli") / "template"
    work = parent / f".{folder.name}-{secrets.token_hex(4)}"
    made: list[Path] = []  # the folders --dir names that are not there yet, innermost first
    done = False
    try:
        made = [p for p in (parent, *parent.parents) if not p.exists()]
        if folder.exists() or folder.is_symlink():
            raise MeepleError(f"{folder} already exists; remove it or choose another --dir")
        work.mkdir(parents=True)
        for source, target in FILES.items():
            path = work / target.format(**subs)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(template.joinpath(source).read_text()).substitute(subs))
        # A folder made there meanwhile fails the rename unless it is empty, when it is replaced.
        work.rename(folder)
        done = True
    except OSError as exc:
        raise MeepleError(f"cannot write {folder}: {exc.strerror or exc}") from None
    finally:
        if not done:  # leave nothing, not even the folders --dir named
            shutil.rmtree(work, ignore_errors=True)
            for empty in made:
                try:
                    empty.rmdir()
                except OSError:
                    break
    return folder


@app.command()
def new(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            help="The game's id: up to 40 lowercase letters, digits and dashes, starting with a "
            "letter."
        ),
    ],
    parent: Annotated[
        Path, typer.Option("--dir", help="Where to create the package folder, meeple-NAME.")
    ] = Path("."),
) -> None:
    """Write a new game package: a small working game, its tests and a README.

    The game id must not be taken by an installed game. Then install the
    package next to meeple and run its tests (see its README).

    Example: meeple new card-race --dir ~/games
    """
    with common.errors():
        registry = common.env(ctx).registry
        if name in registry.games:
            raise MeepleError(
                f"a game {name!r} is already installed (plugin {registry.game_plugin(name)!r}); "
                "choose another id"
            )
        # A shell leaves the ~ of --dir=~/games as it is: taken literally, it would be a new
        # folder named ~ here.
        folder = write_package(name, parent.expanduser())
    # Quoted for the shell, so that the line runs as printed from a folder with a space; and
    # run by meeple's Python, which a bare pip or python may not be: it is where meeple finds
    # the game once it is installed.
    install, test = shlex.quote(f"{folder}[test]"), shlex.quote(str(folder))
    py = python()
    common.console.print(
        common.plain(
            f"wrote {folder}\nnext: {py} -m pip install -e {install} && {py} -m pytest {test}",
            lines=True,
        ),
        soft_wrap=True,
    )
