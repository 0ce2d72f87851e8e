"""The full-screen table of ``meeple play``: the game in panes that stay put.

The table pane shows what every seat sees (``Presentation.render_table``), the
private pane what only the seat at the screen sees (``Presentation.render_private``),
the log the plain mode's lines (:class:`~meeple.cli.play.Narrator`), and the
actions list the legal answers of the seat to move. Between two people
sharing the screen, a "pass to seat N" screen covers the table until the
next one confirms.

The match runs in a thread of its own, through the same :class:`~meeple.cli.tabletop.Table`
as line mode -- so saving, quitting and whatever stops the game behave as there
(:func:`~meeple.cli.tabletop.finish`) -- while the app only draws and takes keys. The two
talk through :meth:`TableApp.post` (the thread's news, drawn in order) and a queue of
requests (:attr:`TableApp.requests`), which the thread reads before each decision and
while a person decides; the state is only read in the thread, between actions.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import math
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from meeple.cli import arguments, output, signals, tabletop
from meeple.cli.play import Human, Narrator, choice, roster
from meeple.cli.tabletop import Lines, Quit, Table, final_scores, finish
from meeple.core.bots import Bot, Prompt
from meeple.core.game import Game
from meeple.core.scoring import Score
from meeple.core.state import Action, Event

MIN_SIZE = (80, 24)
"""The smallest terminal (columns, rows) the table is drawn in."""

DELIVERY_WAIT = 10.0
"""Seconds a download is waited for (a browser fetches it at once, unless it blocks it)."""

Stop = Literal["interrupt", "terminate"]
Request = int | Stop | Literal["save", "quit", "undo"] | Exception
"""What the app asks of the match's thread: a choice among the legal actions (by index),
or to save, to quit (offering to save), to stop as Ctrl-C or SIGTERM stops line mode, to
take the deciding seat's last decision back, or to stop with the error that closed the app."""

KEYS = (
    ("↑ ↓, Enter", "choose an action (or click it)"),
    ("1-9", "choose by number (type more digits, or Enter, past 9)"),
    ("s", "save: to --save's file, else to one it asks for (a served page downloads it)"),
    ("u", "take your last decision back, while it showed you nothing new"),
    ("q", "quit (offers to save)"),
    ("l", "the game's legend: what its symbols mean"),
    ("?", "this help"),
    ("Ctrl-C", "stop now: saved to --save if given, as in line mode"),
)


@dataclass
class Picture:
    """What the panes show after an action, drawn in the match's thread."""

    status: str
    board: Any
    private: Any


@dataclass
class Decision:
    """A person's decision: the seat, its picture, and its actions described."""

    seat: int
    picture: Picture
    actions: list[str]


class Drawing:
    """A game's drawing in a pane: made safe to show (:func:`~meeple.cli.output.shown`), and
    rendered once for each width -- a pane is measured and drawn again and again, and a
    game's table can take milliseconds to render."""

    def __init__(self, drawing: Any) -> None:
        self.drawing = output.shown(drawing)
        self.lines: dict[int, list[list[Segment]]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if width not in self.lines:
            self.lines[width] = console.render_lines(
                self.drawing, options.update(height=None), pad=False
            )
        for line in self.lines[width]:
            yield from line
            yield Segment.line()


class News(Message):
    """Something the match's thread has to show, in the order it happened."""

    def __init__(self, show: Callable[[], object]) -> None:
        super().__init__()
        self.show = show


class Seat(Human):
    """A person at the full-screen table: their decisions are made in the app."""

    def __init__(self, app: TableApp, seat: int) -> None:
        super().__init__(app.table, seat)
        self.app = app

    def choose(self, prompt: Prompt) -> Action:
        return prompt.legal[self.app.decide(prompt, self)]


class Log(Narrator):
    """The plain mode's narration, written to the log pane, with the seat to move shown
    and the app's requests heard before each decision."""

    def __init__(self, app: TableApp, players: list[Any], viewer: int | None) -> None:
        table = app.table
        super().__init__(players, table.match, table.setup.seats, viewer)
        self.app = app

    def choose(self, prompt: Prompt) -> Action:
        self.app.hear()
        self.app.post(self.app.thinking, prompt.seat, time.monotonic())
        return super().choose(prompt)

    def events(self, seat: int, action: Action, events: list[Event]) -> None:
        if not self.app.quiet:
            super().events(seat, action, events)
        self.app.redraw()

    def heading(self, text: str) -> None:
        self.app.post(self.app.log_line, output.plain(f"── {text} ──", "dim"))

    def tell(self, line: str) -> None:
        self.app.post(self.app.log_line, output.plain(line))


class Front(tabletop.Front):
    """The table's questions and news, asked and told in the app (from the match's thread).

    Each notice is shown once, at the table. What still matters once the full screen is gone
    is kept, to be printed then: why the game stopped, and where it was last saved (or why
    it could not be). A question the app closes on gets no answer: it ends as the end of the
    input does (``EOFError``).
    """

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.why: str | None = None
        self.last_save: tuple[Path, str | None] | None = None
        self.answers: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.closed = False
        self.deliveries: dict[str, queue.SimpleQueue[bool]] = {}
        """Whether each download under way (by its key) was taken, once it is known."""
        self.keys = itertools.count()

    def ask(self, prompt: str) -> str:
        answer = self.answers.put
        if self.closed or not self.app.post(
            lambda: self.app.push_screen(Ask(prompt), lambda reply: answer(reply or ""))
        ):
            raise EOFError
        if (reply := self.answers.get()) is None:
            raise self.app.crash or EOFError()
        return reply

    def hang_up(self) -> None:
        """The app is closing: no question is answered any more, nor a download taken."""
        self.closed = True
        self.answers.put(None)
        for taken in list(self.deliveries.values()):
            taken.put(False)

    def say(self, text: str) -> None:
        self.app.post(self.app.tell, text, "information")

    def complain(self, message: str) -> None:
        self.app.post(self.app.tell, message, "error")

    def stopped(self, why: str) -> None:
        self.why = why

    def deliver(self, name: str, data: bytes) -> bool:
        """Textual's delivery (a download, in a served page's browser), waited for: the game
        may end right after, and the browser fetches the file from this process."""
        key = str(next(self.keys))
        taken = self.deliveries[key] = queue.SimpleQueue()
        try:
            delivered = self.app.post(
                # As text: Textual's terminal drivers write a BytesIO as if it were text.
                lambda: self.app.deliver_text(
                    io.StringIO(data.decode()), save_filename=name, name=key
                )
            )
            return delivered and not self.closed and taken.get(timeout=DELIVERY_WAIT)
        except queue.Empty:  # the browser never asked for it (a pop-up blocked)
            return False
        finally:
            del self.deliveries[key]

    def delivered(self, key: str | None, taken: bool) -> None:
        if key in self.deliveries:
            self.deliveries[key].put(taken)

    def saved(self, path: Path, failure: str | None) -> None:
        super().saved(path, failure)
        self.last_save = path, failure


class FullScreen(App[None]):
    """The full-screen table of one game, whatever plays it: the panes, the keys and the
    screens over them. Where the game is played, and where a person's choices go, is a
    subclass's: :class:`TableApp` plays a match here; the table of ``meeple join``
    (:class:`~meeple.cli.joined.JoinedTable`) a seat of a game hosted elsewhere.

    A subclass starts the game in :meth:`begin`, has the table :meth:`present` each
    decision of a person here, :meth:`draw` what changed, :meth:`log_line` the log and
    show the end (:meth:`over`), and carries out the choice in :meth:`send`.
    """

    TITLE = "meeple"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #main { height: 1fr; }
    #board { width: 2fr; border: round $primary; }
    #side { width: 1fr; }
    #private { height: auto; max-height: 50%; border: round $secondary; }
    #log { height: 1fr; border: round $panel-lighten-2; }
    #actions { height: auto; max-height: 10; border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "save", "save"),
        Binding("u", "undo", "undo"),
        Binding("q", "quit", "quit"),
        Binding("l", "legend", "legend"),
        Binding("question_mark", "help", "help"),
        Binding("ctrl+c", "interrupt", "stop", show=False, priority=True),
        Binding("ctrl+q", "quit", show=False, priority=True),
    ]
    keys: ClassVar[Sequence[tuple[str, str]]] = KEYS
    """What the help says of each key."""

    def __init__(self, game: Game[Any, Any], seats: list[str], humans: list[int], quiet: bool):
        super().__init__()
        self.game, self.seats, self.humans, self.quiet = game, seats, humans, quiet
        """The game, who plays each seat, and the seats played at this screen."""
        self.viewer = humans[0] if len(humans) == 1 else None
        """Whose view the panes show: the one person's, or the last seat that was passed the
        screen (``None``: an onlooker's, until then)."""
        self.scores: list[Score] | None = None
        self.failure: BaseException | None = None
        """What stopped the game, raised again once the app is gone."""
        # The app's side: the decision shown, the digits typed so far, the last seat shown.
        self.decision: Decision | None = None
        self.typed = ""
        self.shown_seat: int | None = None
        self.thinker: tuple[int, float] | None = None
        self.deadline: float | None = None
        """When the seat deciding runs out of time (``time.monotonic``), in a hosted game
        with a timer."""
        self.away: frozenset[int] = frozenset()
        """The seats of a hosted game whose people are not connected now."""
        self.status = ""
        self.status_line = ""
        self.main = TableScreen()

    def begin(self) -> None:
        """Start the game, once the table's panes are mounted."""
        raise NotImplementedError

    def send(self, request: int | Literal["undo"]) -> None:
        """Carry out the choice of the decision shown (an index), or take it back."""
        raise NotImplementedError

    def post(self, show: Callable[..., object], *args: Any) -> bool:
        """Have the app call ``show(*args)``, after everything posted before (``False``: the
        app is closed); from any thread."""
        return self.post_message(News(lambda: show(*args)))

    def get_default_screen(self) -> Screen[None]:
        return self.main

    def on_mount(self) -> None:
        self.main.log_pane.display = not self.quiet
        self.set_interval(0.1, self.show_status)
        self.check_size()

    def on_news(self, news: News) -> None:
        news.show()

    def check_size(self) -> None:
        """Cover the table while the terminal is too small for it (a legend, a question or
        the pass screen opened meanwhile go on top of the notice)."""
        small = self.size.width < MIN_SIZE[0] or self.size.height < MIN_SIZE[1]
        if small and not any(isinstance(s, TooSmall) for s in self.screen_stack):
            self.push_screen(TooSmall())
        elif not small and isinstance(self.screen, TooSmall):
            self.pop_screen()

    def draw(self, picture: Picture) -> None:
        self.status = picture.status
        main = self.main
        main.board.update(Drawing(picture.board))
        main.private_pane.display = picture.private is not None
        if picture.private is not None:
            main.private.update(Drawing(picture.private))
        self.show_status()

    def thinking(self, seat: int, since: float) -> None:
        self.thinker = None if seat in self.humans else (seat, since)

    def show_status(self) -> None:
        names = self.seats
        if self.scores is not None:
            turn = "game over: q or Enter to leave"
        elif self.decision is not None:
            seat = self.decision.seat
            turn = f"seat {seat}, your turn"
        elif self.thinker is not None:
            seat, since = self.thinker
            turn = f"seat {seat} ({names[seat]}) thinking {time.monotonic() - since:.1f}s"
        else:
            turn = ""
        timer = ""
        if self.deadline is not None:
            timer = f"{math.ceil(max(0.0, self.deadline - time.monotonic()))} s left to decide"
        seats = f"seats: {roster(names, self.away)}"
        line = " · ".join(p for p in (self.status, turn, timer, seats) if p)
        if line != self.status_line:  # an update draws the screen again
            self.status_line = line
            self.main.status.update(output.plain(line))

    def log_line(self, line: RenderableType) -> None:
        self.main.log_pane.write(line)

    def tell(self, text: str, severity: Literal["information", "error"]) -> None:
        self.log_line(output.plain(text, "bold red" if severity == "error" else "bold"))
        self.notify(output.escaped(text), severity=severity, markup=False)

    def ask_seat(self, decision: Decision) -> None:
        """Show ``decision``, after passing the screen to its seat if another person had it."""
        if len(self.humans) > 1 and decision.seat != self.shown_seat:
            self.push_screen(PassTo(decision.seat), lambda _: self.present(decision))
        else:
            self.present(decision)

    def present(self, decision: Decision) -> None:
        self.decision, self.typed, self.shown_seat = decision, "", decision.seat
        self.draw(decision.picture)
        actions = self.main.actions
        actions.set_options(
            Option(output.plain(f"{i:>3}. {text}")) for i, text in enumerate(decision.actions, 1)
        )
        actions.highlighted = 0
        actions.focus()

    def over(self, scores: list[Score], picture: Picture) -> None:
        self.scores, self.decision = scores, None
        board = Group(final_scores(self.game, self.seats, scores), picture.board)
        self.draw(Picture(picture.status, board, picture.private))
        self.main.board_pane.scroll_home(animate=False)
        actions = self.main.actions
        actions.set_options([Option(output.plain("leave the table"))])
        actions.highlighted = 0
        actions.focus()

    def choose(self, index: int) -> None:
        if self.decision is None:
            return
        self.ask_match(index, "(waiting for the other seats)")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.scores is not None:
            self.exit()
        else:
            self.choose(event.option_index)

    def type_digit(self, digit: str) -> None:
        """Choose an action by number, as in line mode: at once when no more digits could
        make another choice, else once a further digit or Enter says which."""
        if self.decision is None:
            return
        n = len(self.decision.actions)
        typed = self.typed + digit
        index = choice(typed, n)
        if index is None:
            self.typed = ""
            self.bell()
        elif len(typed) == len(str(n)) or int(typed) * 10 > n:
            self.choose(index)
        else:
            self.typed = typed
            self.main.actions.highlighted = index

    def ask_match(self, request: int | Literal["undo"], meanwhile: str) -> None:
        """Answer the decision shown with ``request``; the actions say ``meanwhile`` until the
        match's thread shows the next one."""
        self.decision = None
        self.main.actions.set_options([Option(output.plain(meanwhile), disabled=True)])
        self.send(request)

    def action_help(self) -> None:
        self.push_screen(Note("keys", self.keys))

    def action_legend(self) -> None:
        legend = self.game.presentation.legend()
        self.push_screen(Note(f"{self.game.title}: legend", legend))


class TableApp(FullScreen):
    """The full-screen table of a game played here (see the module's docstring)."""

    def __init__(self, table: Table, bots: Sequence[Bot | None], quiet: bool) -> None:
        names = table.setup.seats
        humans = [s for s, name in enumerate(names) if name == arguments.HUMAN]
        super().__init__(table.match.game, names, humans, quiet)
        self.table = table
        self.requests: queue.SimpleQueue[Request] = queue.SimpleQueue()
        players = [Seat(self, s) if b is None else b for s, b in enumerate(bots)]
        self.narrator = Log(self, players, self.viewer)
        table.players = [self.narrator] * len(players)
        self.front = table.front = Front(self)
        self.drawn = 0.0
        self.crash: Exception | None = None
        """The error that closed the app (see :meth:`_handle_exception`)."""
        self.match_thread = threading.Thread(target=self.play, name="meeple match", daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        """The app's event loop while it is mounted (for :meth:`terminate`)."""

    # -- the match's thread ------------------------------------------------------------

    def play(self) -> None:
        """The match's thread: log the moves made before the game was resumed, play to the
        end as line mode does, then let the app know."""
        table = self.table
        try:
            if not self.quiet:
                self.narrator.retell(*table.history())
            finish(
                table,
                lambda: table.match.run(
                    [table] * len(table.players), on_events=self.narrator.events
                ),
                lambda scores: self.post(self.over, scores, self.picture()),
            )
        except BaseException as failure:  # raised again by play_full_screen, once the app is gone
            self.failure = failure
            self.post(self.exit)

    def hear(self) -> None:
        """Carry out what was asked while the match went on: save, or leave."""
        while True:
            try:
                request = self.requests.get_nowait()
            except queue.Empty:
                return
            self.carry_out(request)

    def carry_out(self, request: Request) -> None:
        if request == "save":
            self.table.save_now()
        elif request == "quit":
            raise Quit
        elif request == "interrupt":
            raise KeyboardInterrupt
        elif request == "terminate":
            raise signals.Terminated
        elif isinstance(request, Exception):
            raise request

    def decide(self, prompt: Prompt, seat: Seat) -> int:
        """The index of the action the person at ``seat`` chooses."""
        game, view = prompt.game, prompt.view
        if len(self.humans) > 1:
            self.viewer = prompt.seat
        actions = [game.presentation.describe_action(view, action) for action in prompt.legal]
        decision = Decision(prompt.seat, self.picture(), actions)
        self.post(self.ask_seat, decision)
        while not isinstance(request := self.requests.get(), int):
            if request == "undo":
                seat.take_back()  # raises Rewound once taken back: the engine asks again
                self.post(self.ask_seat, decision)  # refused: the same decision again
            else:
                self.carry_out(request)
        return request

    def redraw(self) -> None:
        """Draw the table again after an action, at most a few times a second."""
        if time.monotonic() - self.drawn > 0.25:
            self.post(self.draw, self.picture())

    def picture(self) -> Picture:
        """The panes as the viewer sees the state now."""
        self.drawn = time.monotonic()
        match, seat = self.table.match, self.viewer
        game = match.game
        view = game.view(match.state, seat)
        return Picture(
            status=f"{game.title} · round {match.state.turns.round}",
            board=game.presentation.render_table(view, seat),
            private=None if seat is None else game.presentation.render_private(view, seat),
        )

    # -- the app's side ----------------------------------------------------------------

    def begin(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.match_thread.start()

    def send(self, request: int | Literal["undo"]) -> None:
        self.requests.put(request)

    def on_unmount(self) -> None:
        self.loop = None
        self.front.hang_up()

    def _handle_exception(self, error: Exception) -> None:
        # Textual's one way in for an error raised while it draws or handles an event (it has
        # no public hook). It would print its traceback once the app is gone, and the match
        # would stop as if interrupted; instead the match stops with this error, as with a
        # bot's: saved first (Table.rescue), then reported by the CLI in one line.
        if self.crash is None:
            self.crash = error
            self.requests.put(error)
        self.exit(return_code=1)

    def action_save(self) -> None:
        if self.scores is None:
            self.requests.put("save")
        else:
            threading.Thread(target=self.table.save_now, daemon=True).start()

    def action_undo(self) -> None:
        if self.decision is None:
            self.notify("u takes your last decision back when you are asked for the next one")
            return
        self.ask_match("undo", "(taking back)")

    async def action_quit(self) -> None:
        if self.scores is not None:
            self.exit()
        else:
            self.requests.put("quit")

    def action_interrupt(self) -> None:
        self.stop_game("interrupt")

    def stop_game(self, how: Stop) -> None:
        """Stop the game as line mode stops on Ctrl-C or SIGTERM; once it is over, close."""
        if self.scores is not None:
            self.exit()
        else:
            self.requests.put(how)

    def terminate(self) -> None:
        """SIGTERM, in a signal handler: :meth:`stop_game` in the app's loop, woken for it; before
        the app runs or once it is gone, the match's thread hears it at its next decision."""
        if self.loop is None or self.loop.is_closed():
            self.requests.put("terminate")
        else:
            self.loop.call_soon_threadsafe(self.stop_game, "terminate")

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        self.front.delivered(event.name, True)

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        self.front.delivered(event.name, False)


class Whole(Screen[None]):
    """A screen covering the whole terminal, which may turn too small for the table."""

    @property
    def table_app(self) -> FullScreen:
        app = self.app
        assert isinstance(app, FullScreen)
        return app

    def on_resize(self, _event: events.Resize) -> None:
        self.table_app.check_size()

    def on_screen_resume(self, _event: events.ScreenResume) -> None:
        # Uncovered again (a legend closed, a seat confirmed): the terminal may have been
        # resized meanwhile, when only the screen on top heard of it.
        self.table_app.check_size()


class TableScreen(Whole):
    """The panes: status line, table, private pane, log and actions.

    They are laid out at least at :data:`MIN_SIZE`, clipped, under :class:`TooSmall` on a
    smaller terminal: some of Textual's widgets fail when measured at no width at all.
    """

    # Whenever Textual picks the focus here -- as the screen is composed, or uncovered with
    # nothing focused (the app lost the focus meanwhile) -- the actions take the keys, not
    # the first focusable pane, the table.
    AUTO_FOCUS = "#actions"
    DEFAULT_CSS = f"""
    TableScreen {{ overflow: hidden; }}
    #whole {{ min-width: {MIN_SIZE[0]}; min-height: {MIN_SIZE[1]}; }}
    """

    def __init__(self) -> None:
        super().__init__()
        self.status = Static(id="status")
        self.board, self.board_pane = Static(), ScrollableContainer(id="board")
        self.private, self.private_pane = Static(), VerticalScroll(id="private")
        self.log_pane = RichLog(id="log", max_lines=1000, min_width=20, wrap=True)
        self.actions = OptionList(id="actions")
        for pane, title in (
            (self.board_pane, "table"),
            (self.private_pane, "yours alone"),
            (self.log_pane, "log"),
            (self.actions, "actions"),
        ):
            pane.border_title = title
        self.private_pane.display = False

    def compose(self) -> ComposeResult:
        with Vertical(id="whole"):
            yield self.status
            with Horizontal(id="main"):
                with self.board_pane:
                    yield self.board
                with Vertical(id="side"):
                    with self.private_pane:
                        yield self.private
                    yield self.log_pane
            yield self.actions
            yield Footer()

    def on_mount(self) -> None:
        # The game begins once the panes are mounted, which Textual may do only after the
        # app's own mount: a decision shown before would focus an actions list on no screen
        # yet, which Textual ignores, and an app started unfocused (a served page's) would
        # then focus nothing, so Enter would choose nothing.
        self.table_app.begin()

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdecimal():
            event.stop()
            self.table_app.type_digit(event.character)


class Ask(ModalScreen[str]):
    """One line of answer to a question of the table (Escape: an empty answer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss('')", "cancel"),
        # Enter pressed before the field has the focus (it takes it once drawn) still answers.
        Binding("enter", "answer", show=False),
    ]
    DEFAULT_CSS = """
    Ask { align: center middle; }
    Ask > Vertical { width: 70; height: auto; border: thick $accent; background: $surface; }
    """

    def __init__(self, prompt: str) -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(output.plain(self.prompt))
            yield Input()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_answer(self) -> None:
        self.dismiss(self.query_one(Input).value)


class Note(ModalScreen[None]):
    """A titled list of pairs (keys, or a legend's symbols, each in bold or in the style the
    game gave it): the arrow and page keys scroll a long one, any other key goes back to the
    table."""

    SCROLLING = frozenset({"up", "down", "pageup", "pagedown", "home", "end"})
    DEFAULT_CSS = """
    Note { align: center middle; }
    Note > VerticalScroll { width: 90%; max-width: 100; height: auto; max-height: 90%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, rows: Sequence[tuple[Any, str]]) -> None:
        super().__init__()
        self.title_text, self.rows = title, rows

    def compose(self) -> ComposeResult:
        table = RichTable(title=output.plain(self.title_text), show_header=False, box=None)
        for key, meaning in self.rows:
            shown = output.plain(key, "bold") if isinstance(key, str) else output.shown(key)
            table.add_row(shown, output.plain(meaning))
        if not self.rows:
            table.add_row(output.plain("(this game draws no symbols that need one)"))
        table.caption = "↑ ↓: scroll · any other key: back to the table"
        with VerticalScroll():
            yield Static(table)

    def on_key(self, event: events.Key) -> None:
        if event.key not in self.SCROLLING:
            event.stop()
            self.dismiss()


class PassTo(Whole):
    """Covers the table until the person at ``seat`` says they are the one looking."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "dismiss", "I am seat")]
    DEFAULT_CSS = "PassTo { align: center middle; } PassTo Static { text-align: center; }"

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Center():
            yield Static(
                Text.assemble(
                    (f"Pass to seat {self.seat}\n\n", "bold"),
                    f"Seat {self.seat}: press Enter when only you can see the screen.",
                )
            )


class TooSmall(Whole):
    """Says the terminal is too small for the table, until it is not."""

    DEFAULT_CSS = "TooSmall { align: center middle; } TooSmall Static { text-align: center; }"

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.describe()

    def on_resize(self, _event: events.Resize) -> None:
        self.describe()

    def describe(self) -> None:
        width, height = self.table_app.size
        self.query_one(Static).update(
            f"Terminal too small: the table needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]}, "
            f"and this one is {width}x{height}.\nEnlarge it, or play with --plain."
        )


def play_full_screen(table: Table, bots: Sequence[Bot | None], quiet: bool) -> None:
    """Play ``table`` at the full-screen table; what stopped the game is raised again here."""
    app = TableApp(table, bots, quiet)
    with signals.Terminable(app.terminate):
        app.run()
        if app.match_thread.is_alive():
            # Closed from outside (textual-serve quits the app when its browser page goes):
            # stop the match as Ctrl-C does, which saves it to --save.
            app.requests.put("interrupt")
            app.match_thread.join()
    if sys.stdout.isatty():  # what the full screen showed last, left on the terminal
        if app.scores is not None:
            output.console.print(final_scores(app.game, app.seats, app.scores))
        if app.front.why is not None:
            output.err_console.print(app.front.why)
        if app.front.last_save is not None:
            Lines().saved(*app.front.last_save)
    if (failure := app.failure or app.crash) is not None:
        raise failure
