"""Bots: computer players. The core ships ``random``, which plays any game.

A bot is any object with ``choose(prompt) -> action``. It is created by the
factory registered through the ``meeple_bots`` hook as
``factory(game, seat, stream)``. It sees the game only through the
:class:`Prompt`: the legal actions, and the view of its own seat -- never
the full state (architecture contract 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

import msgspec

from meeple.core.game import Game
from meeple.core.plugins import hookimpl
from meeple.core.rng import Stream
from meeple.core.state import Action, State

HUMAN = "human"
"""The seat name of a person at the terminal; every other seat name in a file is a bot's."""


class Prompt(msgspec.Struct, kw_only=True, gc=False):
    """One decision put to a player: which seat, the legal answers, and its view.

    ``Prompt(game=..., seat=..., legal=..., make_view=...)``: the view is built by
    ``make_view()`` on first use, so a bot that only needs the legal actions costs the
    game nothing more. :meth:`of` makes one whose view is :meth:`Game.view` of a state.
    The full state is held only inside the builder, and dropped once the view is
    built: no attribute of a prompt is the state, so a bot cannot read hidden cards by
    accident.

    A struct, made without running Python code, as random self-play makes one at every
    decision; untracked by the garbage collector, since nothing a prompt holds refers
    back to it.
    """

    game: Game[Any, Any]
    seat: int
    legal: Sequence[Action]
    make_view: Callable[[], State] | None
    _view: State | None = None

    @classmethod
    def of(cls, game: Game[Any, Any], state: State, seat: int, legal: Sequence[Action]) -> Prompt:
        """The prompt of ``seat`` to move in ``state``, its view ``game.view(state, seat)``."""
        return cls(game=game, seat=seat, legal=legal, make_view=partial(game.view, state, seat))

    @property
    def view(self) -> Any:
        """What this seat may know of the game now (see :meth:`Game.view`)."""
        if self.make_view is not None:
            self._view, self.make_view = self.make_view(), None
        return self._view

    def __repr__(self) -> str:
        return f"Prompt(seat={self.seat}, legal={self.legal!r})"


class Bot(Protocol):
    def choose(self, prompt: Prompt) -> Action: ...


BotFactory = Callable[[Game[Any, Any], int, Stream], Bot]


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, game: Game[Any, Any], seat: int, stream: Stream) -> None:
        self._choice = stream.choice

    def choose(self, prompt: Prompt) -> Action:
        return self._choice(prompt.legal)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register("random", RandomBot, help="picks uniformly among the legal actions")
