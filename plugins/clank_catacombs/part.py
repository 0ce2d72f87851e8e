"""The base of Catacombs' parts: the Clank! engine with its packs, and what the parts share.

:class:`CatacombsGame` is assembled from parts as the engine is, one per subject:
:mod:`.dungeon` (the map), :mod:`.discovery`, :mod:`.locks`, :mod:`.rooms`, :mod:`.ghosts` and
:mod:`.scoring`. Each is a :class:`CatacombsPart`, the engine over the Catacombs state with
every effect pack Catacombs plays; this module holds the helpers several parts call (the
Lockpicks a seat holds and spends, the kinds a token counts as) and declares, for the type
checker, what a part asks of another. Rules cite seeds/clank-catacombs/rules.md by anchor.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from meeple.core.state import Event
from meeple.plugins.clank.packs.choose_some import ChooseSomePack
from meeple.plugins.clank.packs.free_row_card import FreeRowCardPack
from meeple.plugins.clank.packs.market_offer import MarketOfferPack
from meeple.plugins.clank.packs.may_top_deck import MayTopDeckPack
from meeple.plugins.clank.packs.offer import Offer
from meeple.plugins.clank.packs.per import PerPack
from meeple.plugins.clank.packs.take_secret import TakeSecretPack
from meeple.plugins.clank.packs.trash_self import TrashSelfPack
from meeple.plugins.clank.state import Player
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.catalog import TileCatalog
from meeple.plugins.clank_catacombs.growth import TileGraph
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    CatacombsState,
    Ghosted,
    Lockpicks,
    Opened,
)
from meeple.plugins.clank_catacombs.tiles import TileRoom


class CatacombsPart(
    ChooseSomePack[CatacombsState],
    PerPack[CatacombsState],
    TrashSelfPack[CatacombsState],
    MayTopDeckPack[CatacombsState],
    TakeSecretPack[CatacombsState],
    MarketOfferPack[CatacombsState],
    FreeRowCardPack[CatacombsState],
):
    """The Clank! engine over the Catacombs state, on every effect pack; what parts share."""

    options: CatacombsOptions
    cat: TileCatalog

    if TYPE_CHECKING:  # what a part asks of another (the parts define them)

        def graph(self, state: CatacombsState) -> TileGraph: ...

        def arrival(self, state: CatacombsState, i: int, events: list[Event]) -> None: ...

        def place(self, state: CatacombsState, tile: str, x: int, y: int, turn: int) -> int: ...

        def can_pick(self, state: CatacombsState, p: Player, room: int, f: TileRoom) -> bool: ...

    def holds(self, p: Player, kind: str) -> int:
        """rules.md#tokens: a token counts as the kinds it names (the Golden Monkey Bot as
        a Prisoner and a Monkey Idol, the Discount Coupon as nothing)."""
        counts_as = self.cat.counts_as
        n = 0
        for t in p.held.cards:
            if kind in counts_as[t]:
                n += 1
        return n

    @staticmethod
    def lockpicks(state: CatacombsState, p: Player) -> int:
        """rules.md#lockpick-supply: the Lockpicks ``p``'s seat holds (its zones name the seat)."""
        seat = p.held.owner
        return 0 if seat is None else state.lockpicks[seat]

    @staticmethod
    def spend_lockpicks(
        state: CatacombsState,
        seat: int,
        events: list[Event] | None,
        n: int = 1,
        on: str | None = None,
    ) -> None:
        """The one way a seat spends Lockpicks, and what the table sees.

        A price (rules.md#lockpick-supply: ``pay-lockpicks``, a device) spends ``n``, shown
        as ``Lockpicks`` -- unless ``events`` is ``None``: a device's use shows for its
        price. A lock or a covered room (rules.md#locks), ``on`` as ``picked`` names it,
        keeps one for good, shown as ``Opened``.
        """
        if on is None:
            state.lockpicks[seat] -= n
            if events is not None:
                events.append(Lockpicks(seat=seat, n=-n))
            return
        state.lockpicks[seat] -= 1
        state.picked.append(on)
        if events is not None:
            events.append(Opened(seat=seat, where=on))

    def open_locks(
        self, state: CatacombsState, seat: int, keys: Iterable[str], events: list[Event]
    ) -> None:
        """rules.md#locks: a Lockpick left on each of the locks ``keys`` not yet open."""
        for key in keys:
            if key not in state.picked:
                self.spend_lockpicks(state, seat, events, on=key)

    def against_arrows(self, p: Player) -> bool:
        """rules.md#catacombs-map: whether the seat may walk one-way tunnels backwards."""
        return not self.cat.against_arrows.isdisjoint(p.held.cards)

    @staticmethod
    def discovering(state: CatacombsState) -> bool:
        """rules.md#paused-discovery: a discovered tile waits; the map holds still meanwhile."""
        return bool(state.drawn.cards)

    @staticmethod
    def haunt(state: CatacombsState, events: list[Event]) -> None:
        """rules.md#haunted, #ghost-supply: a Ghost into the Clank! area, while one is left."""
        if state.ghosts:
            state.ghosts -= 1
            state.ghost_clank += 1
            events.append(Ghosted())

    @staticmethod
    def ward_offer(frame: Any) -> bool:
        return type(frame) is Offer and isinstance(frame.effect, cx.GhostWard)
