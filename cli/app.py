"""The ``meeple`` command line, built by a function so plugins and tests can shape it."""

from __future__ import annotations

import os
import sys
import traceback
from importlib import metadata

import typer

from meeple.cli import common
from meeple.core.errors import MeepleError

COMMANDS = (
    "meeple.cli.games",
    "meeple.cli.plugins",
    "meeple.cli.play",
    "meeple.cli.simulate",
    "meeple.cli.replay",
    "meeple.cli.validate",
    "meeple.cli.schema",
)
"""Built-in command modules; each defines ``app``, a Typer app with one command."""

EXIT_CODES = (
    "Exit codes: 0 success; 1 invalid input or a failed check (a bad file, an unknown game, "
    "an illegal action, an unwritable --save); 2 a usage error (an unknown command or option); "
    "130 interrupted (Ctrl-C) or the input ended, after saving a game that has --save."
)


def _show_version(value: bool) -> None:
    if value:
        common.console.print(f"meeple {metadata.version('meeple')}")
        raise typer.Exit()


def make_app(pm: common.PluginManager | None = None) -> typer.Typer:
    """The root app; ``pm`` replaces the default plugin manager (tests use it)."""
    import importlib

    app = typer.Typer(
        name="meeple",
        no_args_is_help=True,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
        epilog=EXIT_CODES,
    )

    environment = common.Env(pm)

    @app.callback()
    def root(
        ctx: typer.Context,
        version: bool = typer.Option(
            False,
            "--version",
            help="Show meeple's version and exit.",
            is_eager=True,
            callback=_show_version,
        ),
    ) -> None:
        """Play, simulate, replay and validate tabletop card games. Games are plugins.

        Example: meeple play clonk --seats human,bot,bot --seed 7
        """
        ctx.obj = environment

    for path in COMMANDS:
        app.add_typer(importlib.import_module(path).app)
    environment.pm.hook.meeple_commands(app=app)
    return app


def main() -> None:
    """Console-script entry point: every failure becomes a message and exit code 1.

    A :class:`MeepleError` is the user's to fix; anything else is a bug in
    meeple or a plugin, reported in one line (``MEEPLE_DEBUG=1`` shows the
    traceback).
    """
    try:
        make_app()(prog_name="meeple")
    except MeepleError as exc:
        common.err_console.print(common.error_line(common.message_of(exc)), soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:  # before or after a command runs (a command exits 130 itself)
        common.err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("MEEPLE_DEBUG"):
            raise
        where = traceback.extract_tb(exc.__traceback__)[-1]
        notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
        message = (
            f"{type(exc).__name__}: {exc} (in {where.filename}, line {where.lineno}); "
            f"run again with MEEPLE_DEBUG=1 for the traceback and report it{notes}"
        )
        common.err_console.print(common.error_line(message, "internal error:"), soft_wrap=True)
        sys.exit(1)
