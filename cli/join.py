"""``meeple join LINK``: play a seat of a hosted game from here, a bot or a person.

The seat is reached through its invite link with the client of :mod:`meeple.core.net`,
which needs the game installed here in the host's rules version. A bot (``--bot``)
decides in a worker thread, so the connection is kept alive while it thinks; without
``--bot``, the person at this terminal plays line by line, as ``meeple play --plain``.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any

import typer

from meeple.cli import arguments, environment, output, play, tabletop
from meeple.core import net
from meeple.core.bots import Bot, Prompt
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.rng import SEED_MAX
from meeple.core.state import Action

app = typer.Typer()


@app.command()
def join(
    ctx: typer.Context,
    link: Annotated[
        str,
        typer.Argument(metavar="LINK", help="A seat's invite link, as `meeple host` printed it."),
    ],
    bot: Annotated[
        str | None,
        typer.Option(
            help="The bot that plays the seat, with its options (ismcts:iterations=100), or a "
            "level (bot:hard); without it, you play here, line by line."
        ),
    ] = None,
    retry: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds to keep trying when the server cannot be reached (a host "
            "restarting with --resume keeps its links).",
        ),
    ] = 60.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No log; only the scores.")] = False,
    full_screen: Annotated[
        bool,
        typer.Option(
            "--table",
            help="Play (or, with the spectators' link, watch) at the full-screen table.",
        ),
    ] = False,
) -> None:
    """Play a seat of a game hosted with `meeple host`, through its link.

    The game must be installed here, in the host's rules version. With --bot
    a bot plays the seat; without it, you do, at this terminal, line by line
    (q leaves; the link takes you back). The log shows every move as the
    seat may know it, and the final scores end it.

    With --table you play at the full-screen table, as `meeple play` does,
    shown only what the seat may see; with the spectators' link, you watch
    there. Saving and taking back are the host's (s and u say so); q leaves
    the seat, and a connection lost is tried again for --retry seconds.

    Example: meeple join "http://127.0.0.1:8000/#TOKEN" --bot ismcts:iterations=100
    """
    env = environment.env(ctx)
    if full_screen:
        if bot is not None:
            raise typer.BadParameter("--bot and --table cannot be used together")
        with output.errors():
            join_full_screen(link, env, retry, quiet)
        return
    told: dict[str, Any] = {}
    logged = 0
    """Lines of the log printed (a reconnection is sent the whole log again)."""

    def player(game: Game[Any, Any], seat: int) -> Bot:
        if bot is None:
            return Person(seat)
        names = arguments.player_names(env.registry, game.id, bot, "--bot")
        if len(names) != 1:
            raise MeepleError(f"--bot {bot!r}: one bot plays one seat; name one, without commas")
        return env.registry.player(names[0], game.id).make(game, seat, secrets.randbelow(SEED_MAX))

    def show(remote: net.Remote, update: net.Update) -> None:
        nonlocal logged
        if not told:
            who = f"seat {remote.seat}" if bot is None else f"seat {remote.seat} ({bot})"
            tabletop.say(f"joined {remote.game.title} as {who}")
        told.update(seats=remote.welcome.seats, title=remote.game.title)
        if not quiet:
            for line in net.news(update, logged):
                tabletop.say(line)
        logged = update.log_from + len(update.log)

    with output.errors():
        try:
            final = asyncio.run(
                net.play(link, player, env.registry.game, retry=retry, on_update=show)
            )
        except Leave:
            tabletop.say("left the game; the seat's link takes you back to it")
            raise typer.Exit(0) from None
        except EOFError:
            output.err_console.print("input ended")
            raise typer.Exit(130) from None
    scores = final.scores or []
    title = f"{told['title']}: final scores"
    output.console.print(output.score_table(scores, told["seats"], title))


def join_full_screen(link: str, env: environment.Env, retry: float, quiet: bool) -> None:
    """Play the link's place at the full-screen table; say how it ended once it is gone."""
    if why := play.no_table():
        raise MeepleError(
            f"--table: the full-screen table needs a terminal, and {why}; "
            "play line by line without --table"
        )
    from meeple.cli.joined import join_table  # Textual loads only for a full screen

    app = asyncio.run(join_table(link, env.registry.game, retry, quiet))
    if app.failure is not None:
        raise app.failure
    if app.scores is not None:
        output.console.print(tabletop.final_scores(app.game, app.seats, app.scores))
    else:
        tabletop.say("left the game; the link takes you back to it")
        raise typer.Exit(app.left or 0)


class Leave(Exception):
    """The person at this terminal typed ``q``."""


class Person:
    """The person at this terminal, shown the seat's table and its actions by number."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, prompt: Prompt) -> Action:
        game, view, legal = prompt.game, prompt.view, prompt.legal
        output.console.print(output.shown(game.presentation.render(view, self.seat)))
        for i, text in enumerate(net.choices(game, view, legal), 1):
            tabletop.say(f"  {i:>3}. {text}")
        n = len(legal)
        while True:
            answer = (
                tabletop.ask(f"seat {self.seat}, your choice [1-{n}, q quit]: ").strip().lower()
            )
            if (index := play.choice(answer, n)) is not None:
                return legal[index]
            if answer == "q":
                raise Leave
            tabletop.say(f"{answer[:20]!r} is not a choice: type 1-{n}, or q to quit")
