"""``meeple serve``: the full-screen table as a web page, one game for every page opened.

The page is textual-serve's terminal (the ``web`` extra): each browser
connection starts ``meeple play ... --table --page`` in a process of its own
and shows it (:mod:`meeple.cli.server` says what a page may and may not do).
The options are play's, checked here once before serving, so a mistake is
reported at the command line rather than in every page.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli import arguments, environment, output, tabletop
from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError, install_hint
from meeple.core.rng import SEED_MAX
from meeple.core.validate import open_saved

app = typer.Typer()

WEB_EXTRA = f"meeple serve needs the web extra: {install_hint('web')}"


@app.command(context_settings=arguments.GAME_FLAGS)
def serve(
    ctx: typer.Context,
    game_id: tabletop.GameId = None,
    seats: tabletop.Seats = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, max=SEED_MAX, help="Seed of every page's game (default: a fresh one each)."
        ),
    ] = None,
    option: tabletop.GameOptions = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save each page's game here when it ends, on `s`, or when the page closes."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Every page continues the game saved in this record or snapshot (and saves back)."
        ),
    ] = None,
    force: tabletop.Force = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No log pane.")] = False,
    host: Annotated[
        str,
        typer.Option(
            help="Address to serve on; another than 127.0.0.1 or localhost lets other "
            "machines' pages play."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to serve on.")] = 8000,
    max_pages: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Pages that may play at once, each a game process of its own "
            "(with --save or --resume: one).",
        ),
    ] = 4,
) -> None:
    """Serve the full-screen table as a web page: every page opened plays its own game.

    Takes play's options. Each page plays in a game process of its own, up to
    --max-pages at once; a page refused says why. With --save (or --resume)
    the file holds one game, played on one page at a time: a page closed or
    reloaded ends its game, saved there first, and the next page opened
    continues it while it is not over, and starts a new one otherwise (with
    --resume FILE every page continues the game saved there). Without a file,
    s downloads the page's game in the browser: a visitor never names a file
    on this machine.

    Only this server's own pages play: a request naming another host, or a
    websocket from another site's page, is refused. Ctrl-C stops the server
    (exit 0), saving the games still open the same way.

    Example: meeple serve clank --seats human,bot --save game.json, then open
    http://127.0.0.1:8000
    """
    env = environment.env(ctx)
    with output.errors():
        options = tabletop.game_options(ctx, env, game_id, option)
        with output.console.capture():  # play's own checks, without its greeting
            table = tabletop.start(env, game_id, seats, seed, options, save, resume, force)
        try:
            from meeple.cli.server import TableServer
        except ImportError:
            raise MeepleError(WEB_EXTRA) from None
        fresh = play_command(game_id, seats, seed, options, save, resume, force, quiet)
        command: Callable[[], list[str]]
        if save is None or resume is not None:
            command = functools.partial(list, fresh)
        else:
            going_on = play_command(game_id, seats, None, [], None, save, force, quiet)
            command = functools.partial(page_command, env, save, fresh, going_on)
        check_address(host, port)
        if not loopback(host):
            tabletop.say(
                f"warning: {host} is not this machine's loopback address: anyone who can "
                f"reach its port {port} can open a page and play, and every page's game "
                "runs on this machine"
            )
        one_game = save is not None or resume is not None
        title = table.match.game.title
        TableServer(command, host, port, title, max_pages=max_pages, one_game=one_game).serve()
    tabletop.say("stopped")


def page_command(
    env: environment.Env, save: Path, fresh: list[str], going_on: list[str]
) -> list[str]:
    """The command a page opened now runs: ``going_on`` (``--resume`` the save) while the
    ``--save`` file holds a game not yet over -- a page closed or reloaded mid-game left it
    there, and a new game would overwrite it -- else ``fresh``, a new game."""
    try:
        _, match = open_saved(save, env.registry, Hooks(None))
    except (MeepleError, OSError):  # no file yet (or no game in it: play's check allowed it)
        return fresh
    return fresh if match.game.is_over(match.state) else going_on


def loopback(host: str) -> bool:
    """Whether only this machine reaches a server on ``host``."""
    try:
        return host == "localhost" or ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_address(host: str, port: int) -> None:
    """Raise :class:`MeepleError` unless ``host:port`` is free to serve on.

    Checked before serving, so a taken port is one error line rather than an
    address announced and a traceback.
    """
    try:
        socket.create_server((host, port)).close()
    except OSError as exc:  # the port is taken, or the host is not this machine's
        raise MeepleError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def play_command(
    game_id: str | None,
    seats: str | None,
    seed: int | None,
    options: list[str],
    save: Path | None,
    resume: Path | None,
    force: bool = False,
    quiet: bool = False,
) -> list[str]:
    """The ``meeple play`` every page runs: these options, at the full-screen table, as a
    page's game (``--page``: its visitor names no file on the server)."""
    command = [sys.executable, "-m", "meeple.cli", "play", *([game_id] if game_id else [])]
    valued = {"--seats": seats, "--seed": seed, "--save": save, "--resume": resume}
    command += [
        arg for flag, value in valued.items() if value is not None for arg in (flag, str(value))
    ]
    command += [arg for item in options for arg in ("-o", item)]
    switches = {"--force": force, "--quiet": quiet}
    return [*command, *(flag for flag, on in switches.items() if on), "--table", "--page"]
