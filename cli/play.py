"""``meeple play``: a game at the terminal, human seats against bots or each other.

A human seat sees only its own view (``game.presentation.render(game.view(state, seat))``)
and answers each decision by number. The log shows every action as the one
human at the table may know it -- or, with no human or several, as an
onlooker would.

No game is lost: the ``--save`` file is checked before the game starts, and
whatever stops the game -- ``q``, Ctrl-C, SIGTERM, the end of the input, an
error in a bot, the rules or a hook -- saves it there first.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, Protocol

import typer
from rich.table import Table as RichTable

from meeple.cli import common
from meeple.core import records
from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match, Rewound
from meeple.core.errors import InvalidFile, MeepleError
from meeple.core.records import Setup, Snapshot
from meeple.core.rng import SEED_MAX
from meeple.core.scoring import Score
from meeple.core.state import Action, Event, State
from meeple.core.validate import open_saved

app = typer.Typer()

ERASE_SCROLLBACK = "\x1b[3J"
"""Clears what a terminal keeps scrolled off the screen (xterm and its kin; ignored elsewhere)."""


YES = ("y", "yes")
NO = ("n", "no")


class Quit(Exception):
    """A human typed ``q``."""


class Front(Protocol):
    """How a :class:`Table` talks to the people at it: line by line on the terminal
    (:class:`Lines`), or through the full-screen table's dialogs and log."""

    def ask(self, prompt: str) -> str:
        """One line of answer (``EOFError`` when the input ends)."""
        ...

    def say(self, text: str) -> None:
        """One line of news: a decision taken back, or why it could not be."""
        ...

    def complain(self, message: str) -> None:
        """Why something asked for could not be done."""
        ...

    def stopped(self, why: str) -> None:
        """Why the game stops now: ``interrupted``, ``terminated``, ``input ended``."""
        ...

    def deliver(self, name: str, data: bytes) -> bool:
        """Hand the people the file ``name`` holding ``data`` (a download, in the browser of
        a ``meeple serve`` page); whether it was taken."""
        ...

    def saved(self, path: Path, failure: str | None) -> None:
        """Where the game was saved, or why it could not be (``failure``)."""
        if failure is None:
            self.say(f"saved to {path}")
        else:
            self.complain(f"could not save to {path}: {failure}")


class Lines(Front):
    """The terminal, a line at a time: :func:`ask`, :func:`say`, errors on standard error."""

    def ask(self, prompt: str) -> str:
        return ask(prompt)

    def say(self, text: str) -> None:
        say(text)

    def complain(self, message: str) -> None:
        common.err_console.print(common.error_line(message), soft_wrap=True)

    def stopped(self, why: str) -> None:
        common.err_console.print(f"\n{why}")

    def deliver(self, name: str, data: bytes) -> bool:
        return False  # a terminal has no browser to take a download


def check_save(path: Path, game_id: str, force: bool) -> None:
    """Raise :class:`MeepleError` unless ``game_id``'s game may be saved to ``path``.

    The folder must take the file, and an existing file is overwritten only
    if it is a record or snapshot of the same game (resuming saves back so)
    or with ``force``.
    """
    kind = ("game", "meeple record or snapshot")
    common.check_overwrite(path, "--save", game_id, force, _saved_game, kind)


def _saved_game(path: Path) -> str | None:
    """The game of the record or snapshot at ``path`` (``None``: it is neither)."""
    try:
        return records.header(records.read_bytes(path), str(path))[1]
    except InvalidFile:
        return None


class Table:
    """The game being played, how to save it, and how to take a decision back.

    A game started here or resumed from a record saves as a record; one
    resumed from a snapshot (whose earlier actions are unknown) as a snapshot.
    The table asks each seat's player in turn (it is every seat's player for
    the engine), so it knows when an action was chosen but not yet logged,
    and which seat chose each action.
    """

    def __init__(
        self, match: Match, setup: Setup[Any], save: Path | None, snapshot_step: int | None
    ):
        self.match = match
        self.setup = setup
        self.save_path = save
        self.snapshot_step = snapshot_step
        self.players: list[Any] = []
        # Where the actions logged from now on start from, to rebuild the state
        # after an action that was cut short (see ``settle``).
        self.start = match.game.clone(match.state)
        self.logged = len(match.actions)
        self.chosen: int | None = None
        """How many actions were logged when the last choice was made (``None``: choosing)."""
        self.choosers: dict[int, int] = {}
        """The seat that chose each action chosen here, by its index in the match's actions."""
        self.shown: int | None = None
        """The human seat whose view was shown last (see :class:`Human`)."""
        self.front: Front = Lines()
        self.page = False
        """A served page's table (``--page``): its visitor names no file on the server."""

    def choose(self, prompt: Prompt) -> Action:
        self.chosen = None
        action = self.players[prompt.seat].choose(prompt)
        self.chosen = len(self.match.actions)
        self.choosers[self.chosen] = prompt.seat
        return action

    def history(self) -> tuple[State, list[Action]]:
        """How the game was set up, and the actions played before this table's start (none
        in a new game, or one resumed from a snapshot, which does not know them)."""
        match, setup = self.match, self.setup
        if not self.logged:
            return self.start, []
        start = Match.new(match.game, len(setup.seats), setup.seed, match.hooks).state
        return start, match.actions[: self.logged]

    def replayed(self, actions: int) -> State:
        """The state after the match's first ``actions`` actions, rebuilt from the start by
        the logged actions alone; observer hooks are not called again (they must not change
        a state)."""
        match = self.match
        replay = Match(match.game, match.game.clone(self.start), Hooks(None), match.seed)
        for action in match.actions[self.logged : actions]:
            replay.step(action)
        return replay.state

    def settle(self) -> None:
        """Undo an action cut short by an error or Ctrl-C, which may have half-changed the state."""
        match = self.match
        if self.chosen != len(match.actions):
            return
        match.rewind(self.replayed(len(match.actions)), len(match.actions))
        self.chosen = None

    def take_back(self, seat: int) -> str | None:
        """Take back ``seat``'s last decision: ``None`` when done, otherwise why not, to show.

        Only the last action may be taken back, by the seat that chose it at this table,
        and only if it showed that seat nothing new (:meth:`~meeple.core.game.Game.reveals`),
        so an undo never buys a second look; taking back again takes back the one before,
        while the same holds. The state is rebuilt from the start (as :meth:`settle` does)
        and the match's log loses the action, so a saved record keeps only the actions
        that stand. Observer hooks already told of the action are not told to forget it.

        A player taking back while asked for a decision raises
        :class:`~meeple.core.engine.Rewound` next, so that the engine asks again.
        """
        match = self.match
        last = len(match.actions) - 1
        if last < self.logged:
            return "no decision made at this table is left to take back"
        chooser = self.choosers.get(last)
        if chooser != seat:
            who = "before this game was resumed" if chooser is None else f"by seat {chooser}"
            return f"the last decision was made {who}, and only your own last one can go"
        before = self.replayed(last)
        if match.game.reveals(before, match.state, seat):
            return "it showed you something you could not know before, so it stands"
        match.rewind(before, last)
        del self.choosers[last]
        return None

    def encoded(self, *, scored: bool = True) -> bytes:
        match = self.match
        if self.snapshot_step is None:
            return records.encode(common.record_of(match, self.setup, scored=scored))
        step = self.snapshot_step + len(match.actions)
        return records.encode(Snapshot(setup=self.setup, step=step, state=match.state))

    def save(self, path: Path, *, scored: bool = True) -> bool:
        """Write the game to ``path``; say where, or why not."""
        try:
            records.write_atomic(path, self.encoded(scored=scored))
        except OSError as exc:
            self.front.saved(path, exc.strerror or str(exc))
            return False
        self.save_path = path
        self.front.saved(path, None)
        return True

    def save_as(self, path: Path) -> bool:
        """Save to a file a person named: a new one, as nothing is overwritten on a word typed
        at the table (another game may be saved there); whether it was saved."""
        if "\0" in str(path):  # typed (Ctrl-@); no file name holds one
            self.front.complain(f"cannot save to {str(path)!r}: a NUL character in its name")
            return False
        try:
            common.check_output(path, "cannot save to")
        except MeepleError as exc:
            self.front.complain(str(exc))
            return False
        if path.exists():
            self.front.complain(f"{path} exists already; name a new file")
            return False
        return self.save(path)

    def save_now(self) -> None:
        """Save where the game saves, asking for a file the first time (a served page
        downloads it instead: a visitor names no file on the server)."""
        if self.save_path is not None:
            self.save(self.save_path)
        elif self.page:
            self.download()
        else:
            self.ask_file("Save to which file? (Enter or n: cancel) ")

    def offer_save(self) -> None:
        """Ask whether (and where) to save before leaving."""
        if self.save_path is not None:
            if self.agrees(f"Save to {self.save_path} before leaving?"):
                self.save(self.save_path)
        elif self.page:
            if self.agrees("Download the game before leaving?"):
                self.download()
        else:
            self.ask_file("Save to which file? (Enter or n: leave without saving) ")

    def agrees(self, question: str) -> bool:
        """Ask ``question`` until answered yes (y, yes or Enter) or no (n or no)."""
        while (answer := self.front.ask(f"{question} [Y/n] ").strip().lower()) not in NO:
            if answer in ("", *YES):
                return True
            self.front.complain("answer y (or Enter) to say yes, n to say no")
        return False

    def ask_file(self, prompt: str) -> None:
        """Ask for a file until the game is saved there or the person declines (Enter, n or
        no: a file named ``n`` is far likelier a no than a wish)."""
        while (name := self.front.ask(prompt).strip()).lower() not in ("", *NO):
            if name.lower() in YES:
                prompt = "Type the file's name (Enter: none) "
            elif self.save_as(Path(name)):
                return

    def download(self) -> None:
        """Hand the game to the browser of a served page, as a file named after it."""
        name = f"{self.match.game.id}-{self.setup.seed}.json"
        if self.front.deliver(name, self.encoded()):
            self.front.say(f"downloaded as {name}")
        else:
            self.front.complain("the download did not start: let this page open pop-ups")

    def stop(self, stop: KeyboardInterrupt | EOFError) -> NoReturn:
        """Leave after Ctrl-C, SIGTERM or the end of the input: save if the game has a file,
        and exit 130 (143 after SIGTERM).

        Without one, a person at a terminal is asked for a file -- not after SIGTERM:
        whatever sent it wants the process gone, not a question.
        """
        terminated = isinstance(stop, common.Terminated)
        if isinstance(stop, EOFError):
            why = "input ended"
        else:
            why = "terminated" if terminated else "interrupted"
        asks = not terminated and sys.stdin is not None and sys.stdin.isatty()
        if self.save_path is None and not asks:
            why += "\nnot saved: give --save FILE to keep a game when it stops"
        self.front.stopped(why)
        with contextlib.suppress(KeyboardInterrupt, EOFError):
            if self.save_path is not None:
                self.settle()
                self.save(self.save_path)
            elif asks:
                self.offer_save()
        raise typer.Exit(143 if terminated else 130)

    def rescue(self, error: Exception) -> None:
        """Save the game after ``error`` stopped it, and note on ``error`` where it went."""
        path = self.save_path
        if path is None:
            return
        try:
            self.settle()
            try:
                saved = self.save(path)
            except Exception:  # a failing score hook: a record is whole without its scores
                saved = self.save(path, scored=False)
        except Exception as failure:
            saved = False
            error.add_note(f"saving failed too: {type(failure).__name__}: {failure}")
        error.add_note(
            f"the game so far is saved in {path}; `meeple play --resume {path}` continues it"
            if saved
            else f"the game so far could not be saved to {path}"
        )


def ask(prompt: str) -> str:
    """Read one line from the person at the table (``EOFError`` when the input ends)."""
    if sys.stdin is None:  # started with its input closed (``<&-``): it has ended already
        raise EOFError
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        # A line that is not in the input's encoding is an answer like any other, not a crash.
        sys.stdin.reconfigure(errors="replace")
    return common.console.input(common.plain(prompt))


def say(text: str) -> None:
    """Print one line of outside text (see :func:`~meeple.cli.common.plain`)."""
    common.console.print(common.plain(text), soft_wrap=True)


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
        game, view, legal, out = prompt.game, prompt.view, prompt.legal, common.console
        table = self.table
        if table.shown not in (None, self.seat) and table.setup.seats.count(common.HUMAN) > 1:
            self.pass_here()
        table.shown = self.seat
        out.print()
        out.print(common.shown(game.presentation.render(view, self.seat)))
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
        out = common.console
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
        common.console.rule(text)

    def tell(self, line: str) -> None:
        """Log one action."""
        say(line)


def resume_table(path: Path, env: common.Env, save: Path | None) -> Table:
    """The game saved in ``path``, opened with every check ``meeple validate`` runs."""
    loaded, match = open_saved(path, env.registry, env.hooks)
    return Table(match, loaded.setup, save, None if loaded.is_record else loaded.value.step)


GameId = Annotated[str | None, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")]
Seats = Annotated[
    str | None,
    typer.Option(help="Comma-separated players: human, bot (the game's best), or a bot name."),
]
GameOptions = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option, key=value.")
]
Force = Annotated[
    bool,
    typer.Option(help="Let --save overwrite a file that is not a saved game of this game."),
]
"""Options ``meeple serve`` shares with ``play``, as Typer reads them."""


def game_options(
    ctx: typer.Context, env: common.Env, game_id: str | None, option: list[str] | None
) -> list[str]:
    """The ``-o`` options, with any game option given as a flag of its own (``--board back``)."""
    if ctx.args and game_id is not None:
        return [*(option or []), *common.option_flags(ctx, env.registry.game(game_id))]
    if ctx.args:
        raise typer.BadParameter(f"unexpected {ctx.args[0]!r}")
    return option or []


@app.command(context_settings=common.GAME_FLAGS)
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
    env = common.env(ctx)
    with common.errors():
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
    return common.HUMAN in table.setup.seats and not no_table()


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
    if common.console.is_dumb_terminal:
        return f"this one cannot draw it (TERM={os.environ.get('TERM')})"
    return None


def start(
    env: common.Env,
    game_id: str | None,
    seats: str | None,
    seed: int | None,
    option: list[str],
    save: Path | None,
    resume: Path | None,
    force: bool = False,
) -> Table:
    registry = env.registry
    if resume is not None:
        if seed is not None or option:
            raise MeepleError(
                "--seed and --option cannot change a resumed game; the file fixes them"
            )
        table = resume_table(resume, env, save or resume)
        game = table.match.game
        if game_id is not None and game_id != game.id:
            raise MeepleError(f"{resume} is a game of {game.id}, not {game_id}")
        check_save(save or resume, game.id, force)
        if seats is not None:
            names = common.parse_seats(registry, type(game), seats)
            if len(names) != len(table.setup.seats):
                raise MeepleError(f"--seats: the saved game has {len(table.setup.seats)} seats")
            table.setup.seats = names
        say(f"resumed {resume} after {len(table.match.actions)} actions")
        return table
    if game_id is None:
        raise MeepleError("name the GAME to play (see `meeple games`), or --resume a saved one")
    game_cls = registry.game(game_id)
    if seats is None:
        seats = ",".join([common.HUMAN] + [common.BOT] * max(1, game_cls.min_seats - 1))
    names = common.parse_seats(registry, game_cls, seats)
    game = game_cls(common.parse_options(game_cls, option))
    if save is not None:
        check_save(save, game.id, force)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
        say(f"seed {seed} (play this game again with --seed {seed})")
    match = Match.new(game, len(names), seed, env.hooks)
    return Table(match, common.setup_of(game, names, seed), save, None)


def run(env: common.Env, table: Table, quiet: bool, full_screen: bool = False) -> None:
    """Play ``table`` to the end, then print the scores and save."""
    match, names = table.match, table.setup.seats
    bots = common.make_bots(env.registry, match.game, names, table.setup.seed)
    if full_screen:
        from meeple.cli.table import play_full_screen  # Textual loads only for a full screen

        play_full_screen(table, bots, quiet)
        return
    players: list[Any] = [Human(table, s) if b is None else b for s, b in enumerate(bots)]
    humans = [s for s, n in enumerate(names) if n == common.HUMAN]
    on_events = None
    if not quiet:
        say(f"{match.game.title}, seats: {roster(names)}")
        narrator = Narrator(players, match, names, humans[0] if len(humans) == 1 else None)
        players, on_events = [narrator] * len(players), narrator.events
    table.players = players
    with common.Terminable():
        finish(
            table,
            lambda: match.run([table] * len(players), on_events=on_events),
            lambda scores: common.console.print(final_scores(table, scores)),
        )


def roster(seats: list[str]) -> str:
    """Each seat's number and player; the one human's marked "(you)"."""
    alone = seats.count(common.HUMAN) == 1
    return ", ".join(
        f"{s} {name}" + (" (you)" if alone and name == common.HUMAN else "")
        for s, name in enumerate(seats)
    )


def final_scores(table: Table, scores: list[Score]) -> RichTable:
    return common.score_table(scores, table.setup.seats, f"{table.match.game.title}: final scores")


def finish(
    table: Table, play: Callable[[], list[Score]], show: Callable[[list[Score]], object]
) -> None:
    """Run ``play`` (the game at ``table``) to the end, ``show`` the scores and save.

    Whatever stops the game saves it first, as the module's docstring promises:
    ``q`` offers to, Ctrl-C and the end of the input do when the game has a file
    (:meth:`Table.stop`), an error does before it is raised (:meth:`Table.rescue`).
    """
    try:
        try:
            show(play())
        except Quit:
            table.offer_save()  # Ctrl-C or an error while it asks: handled as below
            raise typer.Exit(0) from None
    except (KeyboardInterrupt, EOFError) as stop:
        table.stop(stop)
    except typer.Exit:
        raise
    except Exception as error:  # a bot, the rules, a hook, the full-screen table: save first
        table.rescue(error)
        raise
    if table.save_path is not None and not table.save(table.save_path):
        raise typer.Exit(1)  # the game was played, but it is not where the user asked
