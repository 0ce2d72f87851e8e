"""Bots: computer players. The core ships ``random``, which plays any game.

A bot is any object with ``choose(prompt) -> action``. It is created by the
factory registered through the ``meeple_bots`` hook as
``factory(game, seat, stream)``. It sees the game only through the
:class:`Prompt`: the legal actions, and the view of its own seat -- never
the full state (architecture contract 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from meeple.core.game import Game
from meeple.core.plugins import hookimpl
from meeple.core.rng import Stream
from meeple.core.state import Action, State

HUMAN = "human"
"""The seat name of a person at the terminal; every other seat name in a file is a bot's."""


class Prompt:
    """One decision put to a player: which seat, the legal answers, and its view.

    The view is computed on first use, so a bot that only needs the legal
    actions costs the game nothing more. The full state is held only by
    the closure that builds the view, and dropped once the view is built:
    no attribute of a prompt leads to it, so a bot cannot read hidden cards
    by accident.
    """

    __slots__ = ("_build", "_view", "game", "legal", "seat")

    def __init__(
        self, game: Game[Any, Any], state: State, seat: int, legal: Sequence[Action]
    ) -> None:
        self.game = game
        self.seat = seat
        self.legal = legal
        self._build: Callable[[], State] | None = lambda: game.view(state, seat)
        self._view: State | None = None

    @property
    def view(self) -> Any:
        """What this seat may know of the game now (see :meth:`Game.view`)."""
        if self._build is not None:
            self._view, self._build = self._build(), None
        return self._view


class Bot(Protocol):
    def choose(self, prompt: Prompt) -> Action: ...


BotFactory = Callable[[Game[Any, Any], int, Stream], Bot]


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, game: Game[Any, Any], seat: int, stream: Stream) -> None:
        self._below = stream.below

    def choose(self, prompt: Prompt) -> Action:
        legal = prompt.legal
        return legal[self._below(len(legal))]


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register("random", RandomBot, help="picks uniformly among the legal actions")
