"""``meeple host``: one game played together, each person at their own screen.

The server holds the one authoritative match (:class:`meeple.core.net.Host`) and prints an
invite link per human seat and one for spectators, each carrying a secret token. A link
opens the game's web page (``meeple.cli.hosting``), which shows that seat only what it may
see; ``meeple join LINK --bot NAME`` seats a bot from another process or machine. Bot seats
are played here.

Nothing is lost: with ``--save`` (or ``--resume``) the record is saved after every action,
and the links beside it (``FILE.links.json``, readable by its owner only), so that
``meeple host --resume FILE`` after a crash continues the same game at the same links.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import typer

from meeple.cli import common, play
from meeple.core import net, records
from meeple.core.engine import Hooks, Match
from meeple.core.errors import IllegalAction, InvalidFile, MeepleError, install_hint
from meeple.core.files import read_file
from meeple.core.records import Setup
from meeple.core.rng import SEED_MAX

app = typer.Typer()

WEB_EXTRA = f"meeple host needs the web extra: {install_hint('web')}"
LINKS_MAX = 64 * 1024
"""The largest links file read (a few hundred bytes per seat)."""


class Links(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The links of a saved game, kept beside it so that a resumed game keeps them."""

    kind: Literal["meeple.links"] = "meeple.links"
    game: str
    seed: int
    tokens: net.Tokens


@app.command("host", context_settings=common.GAME_FLAGS)
def host_game(
    ctx: typer.Context,
    game_id: play.GameId = None,
    seats: play.Seats = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, max=SEED_MAX, help="Seed of the game's randomness (default: a fresh one)."
        ),
    ] = None,
    option: play.GameOptions = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save the game here after every action, and its links beside it (FILE.links.json)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the game saved in this record or snapshot, at the same links if "
            "they were saved beside it (and save back to it)."
        ),
    ] = None,
    force: play.Force = False,
    host: Annotated[
        str,
        typer.Option(
            help="Address to serve on. 0.0.0.0 lets other machines in: anyone who can reach "
            "this one and has a link."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to serve on (0: a free one).")
    ] = 8000,
    timer: Annotated[
        float | None,
        typer.Option(
            min=1, help="Seconds a person has for each decision; then the fallback bot decides."
        ),
    ] = None,
    fallback: Annotated[
        str, typer.Option(help="The bot that decides for a person whose time runs out.")
    ] = "random",
    new_links: Annotated[
        bool,
        typer.Option(
            "--new-links", help="New links for every seat, even for a game whose links were saved."
        ),
    ] = False,
) -> None:
    """Host one game for several people: a link per human seat, a page per link.

    Takes play's options. Prints an invite link for each human seat and one
    for spectators; each opens the game in a web browser, showing only what
    that seat may see. Bot seats are played here; `meeple join LINK --bot
    NAME` plays a human seat's link from another process or machine. The
    server listens on 127.0.0.1 only, unless --host says otherwise.

    With --save FILE, the game is saved after every action, and `meeple host
    --resume FILE` continues it at the same links, after Ctrl-C or a crash
    alike. At the end every page shows the final scores, and the server
    serves on until Ctrl-C stops it (exit 0).

    Example: meeple host clank --seats human,human,ismcts:iterations=200 --save game.json
    """
    env = common.env(ctx)
    with common.errors():
        options = play.game_options(ctx, env, game_id, option)
        table = play.start(env, game_id, seats, seed, options, save, resume, force)
        try:
            from meeple.cli import hosting
        except ImportError:
            raise MeepleError(WEB_EXTRA) from None
        match, setup, path = table.match, table.setup, table.save_path
        game = match.game
        fallbacks = None
        if timer is not None:
            name = common.player_names(env.registry, game.id, fallback, "--fallback")[0]
            bot = env.registry.player(name, game.id)
            fallbacks = [(bot.text, bot.make(game, s, setup.seed)) for s in range(len(setup.seats))]
        tokens = links(path, setup, new_links)
        if not hosting.is_loopback(host):
            common.warn(
                f"serving on {host}: anyone who can reach this machine and has a seat's link "
                "plays that seat, and anyone with the spectators' link watches; share each "
                "link with its player only"
            )
        try:
            sock = hosting.bind(host, port)
        except OSError as exc:
            raise MeepleError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        shown, answers_to = hosting.names(host, sock.getsockname()[1])
        hosted = net.Host(
            match,
            setup.seats,
            common.make_bots(env.registry, game, setup.seats, setup.seed),
            tokens=tokens,
            save=None if path is None else lambda: saved(table, path),
            timer=timer,
            fallback=fallbacks or (),
            log=earlier(table, match),
            draw=hosting.drawer(game),
        )
    if path is not None:
        saved(table, path)  # a game stopped before its first move resumes too
    lobby = net.Lobby()
    lobby.hosts.append(hosted)

    async def game_over() -> None:
        scores = await hosted.run()
        common.console.print(play.final_scores(table, scores))
        play.say("the game is over; every page shows the scores (Ctrl-C stops the server)")

    web = hosting.server(lobby, sock, answers_to)
    try:
        with hosting.sigterm_stops(web) as term:
            announce(game.title, setup.seats, tokens, shown, path)
            # Only Ctrl-C or SIGTERM ends the serving without an error.
            asyncio.run(hosting.serve(web, sock, [game_over()]))
    except KeyboardInterrupt:
        pass
    except Exception as error:
        if path is not None:
            error.add_note(
                f"the game so far is saved in {path}: `meeple host --resume {path}` continues it"
            )
        if isinstance(error, MeepleError):
            common.fail(common.message_of(error))
        raise
    said = "stopped (terminated)" if term.terminated else "stopped"
    if path is not None and not match.over:
        said += f"; the game is saved in {path}: `meeple host --resume {path}` continues it"
    play.say(said)
    raise typer.Exit(143 if term.terminated else 0)


def announce(
    title: str, seats: list[str], tokens: net.Tokens, shown: str, path: Path | None
) -> None:
    """Print the address, then each seat's link (a bot's seat is played here) and the
    spectators'."""
    kept = f"; saved after every action in {path}" if path is not None else ""
    play.say(f"{title} hosted at http://{shown} (Ctrl-C stops the server{kept})")
    for seat, (name, token) in enumerate(zip(seats, tokens.seats, strict=True)):
        link = f"http://{shown}/#{token}" if token is not None else "played here"
        play.say(f"  seat {seat} ({name}): {link}")
    play.say(f"  spectators: http://{shown}/#{tokens.spectators}")


def saved(table: play.Table, path: Path) -> None:
    """Save the game after an action; a failure is said, and the game goes on."""
    try:
        records.write_atomic(path, table.encoded())
    except OSError as exc:
        common.warn(f"could not save to {path}: {exc.strerror or exc}; the next action tries again")


def earlier(table: play.Table, match: Match) -> list[list[str]] | None:
    """The log of a resumed game's moves so far, as each seat may know it, from its
    record; a snapshot, which holds none, says so."""
    if not match.actions:
        return None
    setup = table.setup
    note = f"── resumed after {len(match.actions)} actions ──"
    if table.snapshot_step is None:
        start = Match.new(match.game, len(setup.seats), setup.seed, Hooks(None))
        try:
            return [[*lines, note] for lines in net.log_of(start, setup.seats, match.actions)]
        except IllegalAction:  # a set-up hook changed the game: its moves are not told
            pass
    return [[note] for _ in range(len(setup.seats) + 1)]


def links_file(path: Path) -> Path:
    """Where the links of the game saved in ``path`` are kept: ``game.links.json``."""
    return path.with_name(path.stem + ".links.json")


def links(path: Path | None, setup: Setup[Any], new: bool) -> net.Tokens:
    """The game's links: those kept beside its save if they are this game's (and ``new`` is
    not asked), for its seats as they are now; otherwise new ones. They are kept there."""
    fresh = net.Tokens.new(setup.seats)
    if path is None:
        return fresh
    where = links_file(path)
    kept = None if new or not where.exists() else read_links(where)
    if kept is not None and kept.game == setup.game and kept.seed == setup.seed:
        old = kept.tokens
        fresh.spectators = old.spectators
        for seat, token in enumerate(old.seats[: len(fresh.seats)]):
            if fresh.seats[seat] is not None and token is not None:
                fresh.seats[seat] = token
    data = records.encode(Links(game=setup.game, seed=setup.seed, tokens=fresh))
    try:
        # Created readable by its owner only, which the atomic write keeps: a link is a seat.
        os.close(os.open(where, os.O_WRONLY | os.O_CREAT, 0o600))
        records.write_atomic(where, data)
    except OSError as exc:
        raise MeepleError(f"cannot keep the links in {where}: {exc.strerror or exc}") from None
    return fresh


def read_links(where: Path) -> Links:
    try:
        return msgspec.json.decode(read_file(where, LINKS_MAX), type=Links)
    except (msgspec.DecodeError, InvalidFile, MeepleError) as exc:
        raise MeepleError(
            f"{where}: not the links of a hosted game ({exc}); remove it, or give "
            "--new-links to make new ones"
        ) from None
