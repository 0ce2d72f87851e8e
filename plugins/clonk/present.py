"""How Clonk! reads to a human (:class:`ClonkPresentation`): action phrases, log lines, the
table, seat summaries.

Nothing here runs in the hot loop; the CLI calls it for human players and logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from meeple.core.present import Presentation
from meeple.core.state import Event
from meeple.core.zones import HIDDEN
from meeple.plugins.clonk import state as st

if TYPE_CHECKING:
    from meeple.plugins.clonk.rules import Clonk

FACE_DOWN = "▒"
COLOURS = {
    "red": "#f44336",
    "green": "#4caf50",
    "white": "#e0e0e0",
    "yellow": "#ffeb3b",
    "pink": "#ff5fd7",
    "blue": "#3d8bff",
}
"""Each crystal's colour. A terminal draws a named colour (``red``) as its theme has it, and
Textual's draws red and magenta alike; these are drawn alike everywhere, and far apart (a
terminal of fewer colours gets the nearest it has, still all different)."""


LEGEND: tuple[tuple[str | Text, str], ...] = (
    ("$", "a coin on the card (each $ is one)"),
    ("o", "an eye on the card (each o is one)"),
    (Text(FACE_DOWN, "dim"), "a face-down card or task tile"),
    (Text("-", "dim"), "nothing there (an empty mine cart or gallery)"),
    ("▶", "the seat to move"),
    *((Text(f"{hue} text", colour), f"a {hue} crystal card") for hue, colour in COLOURS.items()),
    (Text("bold text", "bold"), "a card of no crystal colour: Snore or Kablooey"),
    ("0: a b c", "mine shaft 0, its cards from the bottom up"),
)
"""Every mark and colour the table draws, as it draws them."""


class Row:
    """``lead`` (``0: ``), then cards or other things in a line, wrapped between them, never
    inside one: a card reads whole however narrow the pane (only one wider than the whole
    pane is cut). A line after the first starts under the first card, or, where the lead
    leaves too little room for the widest, a little indented, the first one too."""

    GAP = "  "

    def __init__(self, lead: str, items: Sequence[Text]) -> None:
        self.lead, self.items = lead, items

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [item.cell_len for item in self.items] or [0]
        lead = cell_len(self.lead)
        return Measurement(
            lead + max(widths), lead + sum(widths) + len(self.GAP) * (len(widths) - 1)
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, lead = options.max_width, cell_len(self.lead)
        widest = max((item.cell_len for item in self.items), default=0)
        indent = lead if lead + widest <= width else min(lead, 2)
        line, fresh = Text(self.lead), True  # fresh: no item on the line yet
        for item in self.items:
            gap = 0 if fresh else len(self.GAP)
            if line.cell_len + gap + item.cell_len > width and line.cell_len > indent:
                yield line
                line, fresh = Text(" " * indent), True
            if not fresh:
                line.append(self.GAP)
            line.append_text(item)
            fresh = False
        yield line


def labelled(label: str, items: list[Text]) -> list[Text]:
    """``items`` for a :class:`Row`, the first after ``label:`` (never a line apart), or
    ``label: -`` for none."""
    first = items[0] if items else Text("-", style="dim")
    return [Text(f"{label}: ").append_text(first), *items[1:]]


class ClonkPresentation(Presentation[st.ClonkState, st.ClonkAction]):
    """How Clonk! reads: each card by its name and marks, in its crystal's colour."""

    game: Clonk

    def name(self, card: str | None) -> str:
        """A card as every action, log line and pane says it: its name, then its coins as
        ``$`` and its eyes as ``o`` (``pink hammer $$$oo``), which tell apart the three copies
        of a colour and type."""
        if card is None:
            return "-"
        if card.startswith(HIDDEN):
            return FACE_DOWN
        c = self.game.content
        return f"{c.name(card)} {'$' * c.coins.get(card, 0)}{'o' * c.eyes.get(card, 0)}".rstrip()

    def _source(self, state: st.ClonkState, source: str | int) -> str:
        if isinstance(source, str):
            return f"{self.name(source)} from hand"
        shaft = state.shafts[source].cards if 0 <= source < len(state.shafts) else []
        return f"{self.name(shaft[-1] if shaft else None)} from shaft {source}"

    def describe_action(self, state: st.ClonkState, action: st.ClonkAction) -> str:
        """rules.md#turn: a short phrase for each kind of decision."""
        name = self.name
        match action:
            case st.ShowTask(task=task):
                return f"show {name(task)} face up"
            case st.Cart(card=card):
                return f"put {name(card)} into the mine cart"
            case st.Dig(source=source):
                return f"dig {self._source(state, source)}"
            case st.Gift(source=source, target=target):
                return f"gift {self._source(state, source)} to seat {target}"
            case st.Blast(shaft=shaft):
                top = state.shafts[shaft].cards if 0 <= shaft < len(state.shafts) else []
                return f"Kablooey: blast {name(top[-1] if top else None)} off shaft {shaft}"
            case st.Stop():
                return "stop digging"
            case st.FeedShaft(card=card, shaft=shaft):
                return f"feed {name(card)} to shaft {shaft}"
            case st.DiscardCard(card=card):
                return f"discard {name(card)}"
        return repr(action)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        """A log line; a draw names its card only to the seat that drew it."""
        who, name = f"seat {event.seat}", self.name
        match event:
            case st.TaskShown(task=task):
                return f"{who} shows {name(task)}"
            case st.Carted(card=card, count=count):
                return f"{who} loads {count} card(s) into the mine cart; {name(card)} on top"
            case st.Dug(card=card, shaft=shaft):
                where = "hand" if shaft is None else f"shaft {shaft}"
                return f"{who} digs {name(card)} from {where}"
            case st.Gifted(card=card, target=target, shaft=shaft):
                where = "hand" if shaft is None else f"shaft {shaft}"
                return f"{who} gifts {name(card)} from {where} to seat {target}"
            case st.Blasted(card=card, shaft=shaft):
                return f"{who} blasts {name(card)} off shaft {shaft}"
            case st.Revealed(card=card, shaft=shaft):
                return f"shaft {shaft} exposes {name(card)}"
            case st.Relaid(shaft=shaft, cards=cards):
                return f"shaft {shaft} is laid anew: {', '.join(map(name, cards))} face up"
            case st.Stopped():
                return f"{who} stops digging"
            case st.Took(card=card):
                under = (
                    " under the mine cart" if self.game.content.back.get(card) == "snore" else ""
                )
                return f"{who} takes a {name(card)} card{under}"
            case st.Drew(card=card):
                return (
                    f"{who} draws {name(card)}" if viewer == event.seat else f"{who} draws a card"
                )
            case st.Awakened():
                return f"{who} turns up the Awakening card: this is the last round"
            case st.Fed(card=card, shaft=shaft):
                return f"{who} feeds {name(card)} to shaft {shaft}"
            case st.Discarded(card=card):
                return f"{who} discards {name(card)}"
        return repr(event)

    def styled(self, card: str | None) -> Text:
        """A card as :meth:`name` says it, in its crystal's colour."""
        if card is None or card.startswith(HIDDEN):
            return Text(self.name(card), style="dim")
        c = self.game.content
        colour = c.colours[c.colour[card]] if card in c.colour else ""
        return Text(self.name(card), style=COLOURS.get(colour, "bold"))

    def legend(self) -> Sequence[tuple[RenderableType, str]]:
        return LEGEND

    def render_table(self, view: st.ClonkState, seat: int | None) -> RenderableType:
        """What every seat sees: the shafts, each seat's area with its face-up tasks, the
        piles. Each line wraps between cards (:class:`Row`), so a narrow pane cuts none."""
        styled = self.styled
        shafts = Table(title="Mine shafts (bottom → top)", show_header=False, box=None)
        for i, z in enumerate(view.shafts):
            cards = [styled(card if z.is_up(j) else HIDDEN) for j, card in enumerate(z.cards)]
            shafts.add_row(Row(f"{i}: ", cards))
        seats = Table(title="Seats", show_header=False, box=None)
        seats.add_column(no_wrap=True)
        for s in range(view.seats):
            cart = view.carts[s].cards
            gallery = [styled(card) for card in view.galleries[s].cards]
            tasks = [Text(task) for task in self.shown_tasks(view, s)]
            things = [
                *labelled(f"cart {len(cart)}, top", [styled(cart[-1])] if cart else []),
                Text(f"Kablooey {len(view.kablooeys[s].cards)}"),
                *labelled("gallery", gallery),
                *labelled("tasks", tasks or [Text(FACE_DOWN, style="dim")]),
            ]
            mark = "▶ " if view.to_move == s else "  "
            seats.add_row(f"{mark}{s}" + (" (you)" if s == seat else ""), Row("", things))
        last = " · last round" if view.turns.last_round else ""
        piles = Text(
            f"Draw pile: {len(view.draw.cards)} · Snore left: {len(view.snore_supply.cards)} · "
            f"Kablooey left: {len(view.kablooey_supply.cards)} · round {view.turns.round}{last}"
        )
        return Group(shafts, seats, piles)

    def shown_tasks(self, state: st.ClonkState, seat: int) -> list[str]:
        """The seat's task tiles shown face up to everyone (a pile without facing flags shows
        none)."""
        tiles = state.tasks[seat]
        return [self.name(t) for t, up in zip(tiles.cards, tiles.up or (), strict=False) if up]

    def render_private(self, view: st.ClonkState, seat: int) -> RenderableType:
        """What only the seat sees: its hand and its tasks still face down, each a
        :class:`Row`."""
        hand = [self.styled(card) for card in view.hands[seat].cards]
        tiles = view.tasks[seat]
        up = tiles.up or [False] * len(tiles.cards)
        hidden = [Text(self.name(t)) for t, shown in zip(tiles.cards, up, strict=True) if not shown]
        return Group(Row("Your hand: ", hand), Row("Your hidden tasks: ", hidden or [Text("none")]))

    def render(self, view: st.ClonkState, seat: int | None) -> RenderableType:
        """The whole table as ``seat`` sees it, for line mode: the table, then its own
        things."""
        table = self.render_table(view, seat)
        return table if seat is None else Group(table, self.render_private(view, seat))

    def seat_summary(self, state: st.ClonkState) -> list[str]:
        """One public line per seat."""
        out = []
        for s in range(state.seats):
            cart = state.carts[s].cards
            shown = self.shown_tasks(state, s)
            out.append(
                f"seat {s}: cart {len(cart)} (top {self.name(cart[-1] if cart else None)}), "
                f"gallery {len(state.galleries[s].cards)}, "
                f"Kablooey {len(state.kablooeys[s].cards)}, "
                f"task {', '.join(shown) or 'hidden'}"
            )
        return out
