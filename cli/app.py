"""The ``meeple`` command line, built by a function so plugins and tests can shape it."""

from __future__ import annotations

import os
import sys
import traceback
from importlib import metadata
from typing import Any

import typer
from typer.core import TyperGroup

from meeple.cli import environment, output, signals
from meeple.core.errors import MeepleError
from meeple.core.plugins import plugin_error

COMMANDS = (
    "meeple.cli.games",
    "meeple.cli.plugins",
    "meeple.cli.play",
    "meeple.cli.serve",
    "meeple.cli.host",
    "meeple.cli.join",
    "meeple.cli.simulate",
    "meeple.cli.stats",
    "meeple.cli.compare",
    "meeple.cli.tournament",
    "meeple.cli.balance",
    "meeple.cli.tune",
    "meeple.cli.replay",
    "meeple.cli.validate",
    "meeple.cli.check",
    "meeple.cli.schema",
    "meeple.cli.new",
)
"""Built-in command modules; each defines ``app``, a Typer app with one command."""

EXIT_CODES = (
    "Exit codes: 0 success; 1 invalid input or a failed check (a bad file, an unknown game, "
    "an illegal action, an unwritable --save); 2 a usage error (an unknown command or option); "
    "130 interrupted (Ctrl-C) or the input ended, after saving a game that has --save; "
    "143 stopped by SIGTERM, keeping what Ctrl-C keeps."
)


def _show_version(value: bool) -> None:
    if value:
        output.console.print(f"meeple {metadata.version('meeple')}")
        raise typer.Exit()


class Meeple(TyperGroup):
    """The root command: meeple's own commands at once, plugin commands when asked for.

    Root ``--help`` and ``--version`` never load a plugin: help lists the
    built-in commands and points at ``meeple plugins``, which lists the
    commands plugins add. A command name that is not built in loads the
    plugins and calls ``meeple_commands`` (see :meth:`Env.commands
    <meeple.cli.environment.Env.commands>`); a plugin cannot replace a built-in command.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.builtin = tuple(self.commands)  # Typer builds the group with meeple's own commands

    # ``ctx`` and the result are click's types, which typer vendors without a public path.
    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            for name, found in self.plugin_commands(ctx).items():
                self.commands[name] = found.command
        return self.commands.get(cmd_name)

    def plugin_commands(self, ctx: Any) -> dict[str, environment.PluginCommand]:
        return environment.env(ctx).commands(self.builtin)

    def invoke(self, ctx: Any) -> Any:
        # A command that keeps work on Ctrl-C says what it kept and exits 130 itself (143 on
        # SIGTERM, which signals.Terminable turns into Terminated); for any other, Typer would
        # exit 130 without a word.
        try:
            return super().invoke(ctx)
        except signals.Terminated:
            output.err_console.print("terminated")
            raise typer.Exit(143) from None
        except KeyboardInterrupt:
            output.err_console.print("interrupted")
            raise typer.Exit(130) from None


def make_app(pm: environment.PluginManager | None = None) -> typer.Typer:
    """The root app; ``pm`` replaces the default plugin manager (tests use it)."""
    import importlib

    app = typer.Typer(
        name="meeple",
        cls=Meeple,
        no_args_is_help=True,
        rich_markup_mode="rich",
        # The environment is the context's object from the start: a plugin command
        # is looked up (which loads the plugins) before the root callback runs.
        context_settings={"help_option_names": ["-h", "--help"], "obj": environment.Env(pm)},
        pretty_exceptions_enable=False,
        epilog=EXIT_CODES,
    )

    @app.callback()
    def root(
        version: bool = typer.Option(
            False,
            "--version",
            help="Show meeple's version and exit.",
            is_eager=True,
            callback=_show_version,
        ),
    ) -> None:
        """Play, simulate, replay and validate tabletop card games. Games are plugins.

        Plugins may add commands of their own: `meeple plugins` lists them.

        Example: meeple play clonk --seats human,bot,bot --seed 7
        """

    for path in COMMANDS:
        app.add_typer(importlib.import_module(path).app)
    return app


def main() -> None:
    """Console-script entry point: every failure becomes a message and exit code 1.

    A :class:`MeepleError` is the user's to fix; anything else is a bug, reported
    in one line (``MEEPLE_DEBUG=1`` shows the traceback): a plugin's, naming the
    plugin and the function that raised, when its code raised it (a bot, a
    game's rules), else meeple's.
    """
    try:
        make_app()(prog_name="meeple")
    except MeepleError as exc:
        output.err_console.print(output.error_line(output.message_of(exc)), soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:  # before or after a command runs (a command exits 130 itself)
        output.err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("MEEPLE_DEBUG"):
            raise
        notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
        error = plugin_error(exc)
        if error is not None:  # a plugin's bot or rules: its authors can fix it
            message = f"{error}; MEEPLE_DEBUG=1 shows the traceback{notes}"
            output.err_console.print(output.error_line(message), soft_wrap=True)
            sys.exit(1)
        where = traceback.extract_tb(exc.__traceback__)[-1]
        message = (
            f"{type(exc).__name__}: {exc} (in {where.filename}, line {where.lineno}); "
            f"run again with MEEPLE_DEBUG=1 for the traceback and report it{notes}"
        )
        output.err_console.print(output.error_line(message, "internal error:"), soft_wrap=True)
        sys.exit(1)
