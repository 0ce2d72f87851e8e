"""The seams between the parts of the Clank! engine.

A game on the engine is one class assembled from parts: the map
(:class:`~.map.Movement`), the effect interpreter (:class:`~.resolve.Effects`),
the dragon (:class:`~.dragon.Dragon`) and the turn
(:class:`~.rules.ClankEngine`). :class:`Part` is their one base: it holds what
every part reads (the catalog and the options) and declares what each part asks
of another, so every call across parts is typed against the game's own state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from meeple.core.game import Game
from meeple.core.state import Event
from meeple.plugins.clank.catalog import Catalog, Graph
from meeple.plugins.clank.state import (
    EngineOptions,
    EngineState,
    Pending,
    Player,
    Status,
    TakeToken,
)

S = TypeVar("S", bound=EngineState[Any])
"""The state type of a game on the engine."""


class Part(Game[S, Any]):
    """What the parts of the engine share, and what they ask of one another."""

    cat: Catalog
    options: EngineOptions

    @staticmethod
    def pending(effects: Iterable[Any], card: str | None) -> list[Pending]:
        """``effects`` waiting in the turn's queue, with the card they came from."""
        return [Pending(e, card) for e in effects]

    def holds(self, p: Player, kind: str) -> int:
        """How many tokens of ``kind`` (``artifact``, ``idol``...) the seat holds."""
        token = self.cat.token
        return sum(token[t].kind == kind for t in p.held.cards)

    # -- the turn (rules) ----------------------------------------------------

    def proceed(self, state: S, events: list[Event]) -> None:
        """After an action: resolve what waits, end the turn if it is over."""
        raise NotImplementedError

    # -- the map -------------------------------------------------------------

    def graph(self, state: S) -> Graph:
        """The map of ``state``."""
        raise NotImplementedError

    def adjacent_secrets(self, state: S, room: int) -> list[str]:
        """The secrets in the rooms next to ``room``."""
        raise NotImplementedError

    def token_actions(self, state: S, frame: TakeToken) -> list[Any]:
        """The answers to an offer of tokens."""
        raise NotImplementedError

    # -- the dragon and health -----------------------------------------------

    def raise_rage(self, state: S, n: int, events: list[Event]) -> None:
        """The rage marker climbs ``n`` spaces."""
        raise NotImplementedError

    def attack(self, state: S, events: list[Event], extra: int = 0) -> None:
        """A dragon attack, ``extra`` cubes beyond the rage and the danger."""
        raise NotImplementedError

    def return_dragon_cubes(self, state: S, n: int) -> None:
        """Set-aside black cubes back into the bag."""
        raise NotImplementedError

    def can_bear(self, p: Player, n: int) -> bool:
        """Whether the seat may take ``n`` damage of its own will."""
        raise NotImplementedError

    def wound(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """Voluntary damage from the seat's supply."""
        raise NotImplementedError

    def heal(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """Cubes from the seat's meter back to its supply."""
        raise NotImplementedError

    def leave(self, state: S, seat: int, status: Status, events: list[Event]) -> None:
        """The seat goes out of the dungeon."""
        raise NotImplementedError
