"""How a game reads to people: the optional part of a game that the rules never call.

A game names its :class:`Presentation` subclass in ``Game.presentation_type``; the game
builds one, on first use, as ``game.presentation``, which keeps the game it presents in
``self.game``. Every method takes its arguments in one order: the state (or the view) a
phrase or a drawing is of, then what it is about (an action, an event, a card), then the seat
it is for. The CLI, the web pages and the logs read a game only through it; a game that
presents nothing of its own still plays, in the defaults below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from rich.console import RenderableType

from meeple.core.state import Action, Event, State

if TYPE_CHECKING:
    from meeple.core.game import Game

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)


class Presentation(Generic[S, A]):
    """What a person sees of a game: phrases for its actions, events and cards, and the table
    drawn for a seat. Subclass it (``class RacePresentation(Presentation[RaceState, Play |
    Draw])``), override what the game words or draws itself, and name it in the game's
    ``presentation_type``.
    """

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game

    def describe_action(self, state: S, action: A) -> str:
        """A short human phrase for ``action`` ("dig red hammer from shaft 2"), given the
        state (a view, for a person's prompt) it is offered in."""
        return repr(action)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        """A log line for ``event`` as ``viewer`` may know it, or ``None`` to hide it."""
        return repr(event)

    def describe_card(self, card: str) -> str:
        """A face-up card as a person reads it, telling apart copies that differ only in a
        mark ("pink hammer, 1 eye" and "pink hammer, 1 coin"). The web page of ``meeple
        host`` writes it on the card, and on an action that would otherwise read like another.

        The card id by default, which tells every copy apart.
        """
        return card

    def render(self, view: S, seat: int | None) -> RenderableType:
        """What a human at ``seat`` sees of the table: a Rich renderable or a string."""
        return repr(view)

    def seat_summary(self, state: S) -> Sequence[str]:
        """One short public line per seat, for listings."""
        return [f"seat {s}" for s in range(state.seats)]

    def render_table(self, view: S, seat: int | None) -> RenderableType:
        """The part of :meth:`render` every seat sees -- the board, the market, the map --
        for the full-screen table's main pane.

        By default all of :meth:`render`, with :meth:`render_private` empty, so a game that
        only renders plays at the full-screen table unchanged.
        """
        return self.render(view, seat)

    def render_private(self, view: S, seat: int) -> RenderableType | None:
        """What only ``seat`` sees -- its hand, its pool -- for the table's private pane,
        or ``None`` when :meth:`render_table` shows it already.

        Between two people sharing a screen (hot-seat), this pane is hidden until the next
        seat's player confirms they are the one looking.
        """
        return None

    def legend(self) -> Sequence[tuple[RenderableType, str]]:
        """Each symbol :meth:`render` draws and what it means: ``[("$", "a coin"), ...]``.

        A symbol is a string, or, to show it in the colour or style it is drawn in, a Rich
        renderable (a ``Text``), as :meth:`render` returns. Shown by the full-screen table on
        request; empty by default.
        """
        return ()


__all__ = ["Presentation"]
