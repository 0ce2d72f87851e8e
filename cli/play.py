"""``meeple play``: a game at the terminal, human seats against bots or each other.

A human seat sees only its own view (``game.presentation.render(game.view(state, seat))``)
and answers each decision by number. The log shows every action as the one
human at the table may know it -- or, with no human or several, as an
onlooker would.

No game is lost: the table saves it whatever stops it (:mod:`meeple.cli.tabletop`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any

import typer

from meeple.cli import arguments, environment, output, signals
from meeple.cli.tabletop import (
    Force,
    GameId,
    GameOptions,
    Quit,
    Seats,
    Table,
    ask,
    final_scores,
    finish,
    game_options,
    say,
    start,
)
from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match, Rewound
from meeple.core.errors import MeepleError
from meeple.core.rng import SEED_MAX
from meeple.core.state import Action, Event, State

app = typer.Typer()

ERASE_SCROLLBACK = "\x1b[3J"
"""Clears what a terminal keeps scrolled off the screen (xterm and its kin; ignored elsewhere)."""


def choice(answer: str, n: int) -> int | None:
    """The index of the choice ``answer`` names among ``n`` (numbered from 1), or ``None``.

    Any decimal digits count (``٣`` is 3); other digits (``²``) and numbers
    too long to be a choice do not.
    """
    digits = answer.lstrip("0")  # bounded before int(): a pasted megabyte of digits is no choice
    if answer.isdecimal() and 0 < len(digits) <= len(str(n)) and int(digits) <= n:
        return int(digits) - 1
    return None


class Human:
    """A person at this terminal: shown their view, answering by number, or ``u`` to take
    their last decision back (:meth:`Table.take_back`).

    Between two people sharing the terminal (hot-seat), the next one is asked to take
    their seat first, and on a terminal the screen is cleared so that the last one's
    hand is not left on it.
    """

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat

    def choose(self, prompt: Prompt) -> Action:
        game, view, legal, out = prompt.game, prompt.view, prompt.legal, output.console
        table = self.table
        if table.shown not in (None, self.seat) and table.setup.seats.count(arguments.HUMAN) > 1:
            self.pass_here()
        table.shown = self.seat
        out.print()
        out.print(output.shown(game.presentation.render(view, self.seat)))
        for i, action in enumerate(legal, 1):
            say(f"  {i:>3}. {game.presentation.describe_action(view, action)}")
        n = len(legal)
        while True:
            answer = ask(f"seat {self.seat}, your choice [1-{n}, u undo, s save, q quit]: ")
            answer = answer.strip().lower()
            if (index := choice(answer, n)) is not None:
                return legal[index]
            if answer == "u":
                self.take_back()
            elif answer == "s":
                self.table.save_now()
            elif answer == "q":
                raise Quit
            else:
                typed = answer if len(answer) <= 20 else answer[:20] + "…"
                say(f"{typed!r} is not a choice: type 1-{n}, u to undo, s to save or q to quit")

    def pass_here(self) -> None:
        """Clear the last seat's view off a terminal, and wait for this seat's player.

        Piped input is not waited for: its lines answer decisions only.
        """
        out = output.console
        if out.is_terminal and not out.is_dumb_terminal:
            out.clear()
            out.file.write(ERASE_SCROLLBACK)
        if sys.stdin is not None and sys.stdin.isatty():
            ask(f"pass to seat {self.seat}, press Enter ")
        else:
            say(f"pass to seat {self.seat}")

    def take_back(self) -> None:
        """Take this seat's last decision back and have the engine ask again, or say why not."""
        match = self.table.match
        last = match.actions[-1] if match.actions else None
        if why := self.table.take_back(self.seat):
            self.table.front.say(f"cannot take that back: {why}")
            return
        game = match.game
        said = game.presentation.describe_action(game.view(match.state, self.seat), last)
        self.table.front.say(f"taken back: {said}")
        raise Rewound


class Narrator:
    """Plays every seat through its real player, logging each action as ``viewer`` may know it.

    An action's log line is the game's description of the events it caused,
    as ``viewer`` may see them; for an action with no visible event, the
    action itself, described on the viewer's view of the state before it.
    """

    def __init__(
        self, players: list[Any], match: Match, seats: list[str], viewer: int | None
    ) -> None:
        self.players, self.match, self.seats, self.viewer = players, match, seats, viewer
        self.round = 0
        self.said = ""

    def choose(self, prompt: Prompt) -> Action:
        state = self.match.state
        self.new_round(state)
        action = self.players[prompt.seat].choose(prompt)
        self.said = self.saying(state, prompt.seat, action)
        return action

    def retell(self, start: State, actions: list[Action]) -> None:
        """Log ``actions``, played from ``start``, as if they were played now: the moves of a
        game before it was resumed, each as ``viewer`` may know it."""
        game = self.match.game
        replay = Match(game, game.clone(start), Hooks(None), self.match.seed)
        for action in actions:
            state, seat = replay.state, replay.state.stack[-1].seat
            self.new_round(state)
            self.said = self.saying(state, seat, action)
            self.events(seat, action, replay.apply_legal(action))

    def new_round(self, state: State) -> None:
        if state.turns.round != self.round:
            self.round = state.turns.round
            self.heading(f"round {self.round}")

    def saying(self, state: State, seat: int, action: Action) -> str:
        """``action`` of ``seat`` in ``state``, as ``viewer`` may know it."""
        game = self.match.game
        who = "you" if seat == self.viewer else f"seat {seat} ({self.seats[seat]})"
        return f"{who}: {game.presentation.describe_action(game.view(state, self.viewer), action)}"

    def events(self, _seat: int, _action: Action, events: list[Event]) -> None:
        seen = [
            d for e in events if (d := self.match.game.presentation.describe_event(e, self.viewer))
        ]
        self.tell("; ".join(seen) if seen else self.said)

    def heading(self, text: str) -> None:
        """Mark where a new round starts in the log."""
        output.console.rule(text)

    def tell(self, line: str) -> None:
        """Log one action."""
        say(line)


@app.command(context_settings=arguments.GAME_FLAGS)
def play(
    ctx: typer.Context,
    game_id: GameId = None,
    seats: Seats = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, max=SEED_MAX, help="Seed of the game's randomness (default: a fresh one)."
        ),
    ] = None,
    option: GameOptions = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here when it ends or on `s`.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the game saved in this record or snapshot (and save back to it)."
        ),
    ] = None,
    force: Force = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No log; only prompts and scores.")
    ] = False,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="Line mode: print the table and take answers a line at a time."
        ),
    ] = False,
    full_screen: Annotated[
        bool,
        typer.Option(
            "--table", help="The full-screen table even for a game of bots (at a terminal)."
        ),
    ] = False,
    page: Annotated[
        bool,
        typer.Option(
            "--page",
            hidden=True,  # meeple serve's: its pages' visitors may not name files on the server
            help="A served page's game: s downloads it, unless --save names the file.",
        ),
    ] = False,
) -> None:
    """Play a game at the terminal: humans pick from numbered legal actions.

    Default seats: one human, then the game's best bot for the other seats it
    needs. Type s to save, u to take a decision back, q to quit. With --save,
    Ctrl-C, the end of the input and an error all save the game first;
    without it, Ctrl-C at a terminal asks for a file.

    A game with a human seat, on a terminal, is played at a full-screen table
    (press ? there for its keys); --plain plays it line by line, as a game of
    bots, or one whose input or output is not a terminal (or is TERM=dumb),
    always is. SIGTERM stops a game as Ctrl-C does, and exits 143.

    Any game option may also be given as a flag of its own: --board back.

    Example: meeple play clonk --seats human,bot,bot --seed 7 --save game.json
    """
    env = environment.env(ctx)
    with output.errors():
        options = game_options(ctx, env, game_id, option)
        if plain and full_screen:
            raise typer.BadParameter("--plain and --table cannot be used together")
        if full_screen and (why := no_table()):
            raise MeepleError(
                f"--table: the full-screen table needs a terminal, and {why}; "
                "play line by line without --table, or in a browser with `meeple serve`"
            )
        table = start(env, game_id, seats, seed, options, save, resume, force)
        table.page = page
        run(env, table, quiet, full_screen or (not plain and at_terminal(table)))


def at_terminal(table: Table) -> bool:
    """Whether ``table`` is played full-screen unless told otherwise: a person plays at it,
    at a terminal that can draw it (pipes, tests and dumb terminals play line by line)."""
    return arguments.HUMAN in table.setup.seats and not no_table()


def no_table() -> str | None:
    """Why the full-screen table cannot be played here (``None``: it can).

    It reads keys from standard input and draws on standard error (as Textual does), and
    the scores stay on standard output once it is gone: without a terminal on each, it would
    wait for keys that never come, or draw where nobody sees. A terminal that says it is
    dumb (``TERM=dumb``, as Rich reads it) would be sent escapes it cannot draw.

    None of this is needed when Textual is told to draw elsewhere (``TEXTUAL_DRIVER``): the
    page of ``meeple serve`` runs the table that way, through pipes.
    """
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    streams = ("input", sys.stdin), ("output", sys.stdout), ("error", sys.stderr)
    for name, stream in streams:
        if stream is None or not stream.isatty():
            return f"standard {name} is not one"
    if output.console.is_dumb_terminal:
        return f"this one cannot draw it (TERM={os.environ.get('TERM')})"
    return None


def run(env: environment.Env, table: Table, quiet: bool, full_screen: bool = False) -> None:
    """Play ``table`` to the end, then print the scores and save."""
    match, names = table.match, table.setup.seats
    bots = arguments.make_bots(env.registry, match.game, names, table.setup.seed)
    if full_screen:
        from meeple.cli.table import play_full_screen  # Textual loads only for a full screen

        play_full_screen(table, bots, quiet)
        return
    players: list[Any] = [Human(table, s) if b is None else b for s, b in enumerate(bots)]
    humans = [s for s, n in enumerate(names) if n == arguments.HUMAN]
    on_events = None
    if not quiet:
        say(f"{match.game.title}, seats: {roster(names)}")
        narrator = Narrator(players, match, names, humans[0] if len(humans) == 1 else None)
        players, on_events = [narrator] * len(players), narrator.events
    table.players = players
    with signals.Terminable():
        finish(
            table,
            lambda: match.run([table] * len(players), on_events=on_events),
            lambda scores: output.console.print(final_scores(match.game, names, scores)),
        )


def roster(seats: list[str], away: Collection[int] = ()) -> str:
    """Each seat's number and player; the one human's marked "(you)", and the seats of
    ``away`` (a hosted game's people not connected now) "(away)"."""
    alone = seats.count(arguments.HUMAN) == 1
    return ", ".join(
        f"{s} {name}"
        + (" (you)" if alone and name == arguments.HUMAN else "")
        + (" (away)" if s in away else "")
        for s, name in enumerate(seats)
    )
