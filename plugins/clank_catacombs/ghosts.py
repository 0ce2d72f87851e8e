"""Catacombs' dragon: Ghosts, ward cards, black cubes on a meter, the turns of seats that left.

seeds/clank-catacombs/rules.md#ghosts, #ghost-supply, #ghost-damage and #ghost-ward (Ghost
cubes in the dragon bag, and the cards that ward them off), #haunted (a Ghost on a haunted
tile's arrival), #left-seats (a seat that left keeps its turns, the dragon's).
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import Event
from meeple.plugins.clank.packs.offer import Offer
from meeple.plugins.clank.part import effect
from meeple.plugins.clank.state import Damaged, Discarded
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.part import CatacombsPart
from meeple.plugins.clank_catacombs.state import CatacombsState, DragonTurn, Spin

GHOST = "ghost"
"""The bag colour of Ghost cubes."""


class Ghosts(CatacombsPart):
    """The dragon bag with Ghosts, and the turns of seats that left."""

    def left_dungeon(self, state: CatacombsState, seat: int) -> None:
        """rules.md#left-seats: a seat that left keeps its turns (the dragon's)."""

    def left_seat_turn(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """rules.md#left-seats: a left seat's turn is a fixed dragon draw."""
        events.append(DragonTurn(seat=seat))
        self.draw_cubes(state, events, self.cat.tables.left_draw[str(state.seats)])

    def draw_cubes(self, state: CatacombsState, events: list[Event], n: int) -> None:
        """rules.md#ghosts: Ghosts go into the bag with the rest and come back after; a seat
        holding a ward card decides on it once the cubes are drawn."""
        bag = state.bag
        bag.add(GHOST, state.ghost_clank)
        state.ghost_clank = 0
        super().draw_cubes(state, events, n)
        total = self.cat.tables.ghost_cubes
        state.ghost_clank = total - state.ghosts - bag.cubes.get(GHOST, 0)
        asked = {f.seat for f in state.stack if self.ward_offer(f)}
        waiting = [s for s in range(state.seats) if state.ghost_hits[s] and s not in asked]
        for seat in reversed(self._from_current(state, waiting)):  # the first seat's on top
            self.next_ward(state, seat, events)

    def hit(self, state: CatacombsState, cube: str, hurt: list[int]) -> None:
        """rules.md#ghosts: a Ghost hurts every seat in; a seat holding a ward card decides
        after the draw."""
        if cube != GHOST:
            super().hit(state, cube, hurt)
            return
        for seat in range(state.seats):
            if self.ward(state, seat) is not None and self.ghost_can_hurt(state, seat):
                state.ghost_hits[seat] += 1
            elif self.ghost_damage(state, seat):
                hurt.append(seat)

    def ghost_can_hurt(self, state: CatacombsState, seat: int) -> bool:
        """rules.md#ghost-damage: a seat in, its meter not full, a cube to show the damage with:
        from its supply or, with the supply empty, a black cube set aside."""
        p = state.players[seat]
        return (
            p.status == "in"
            and p.damage < self.cat.health
            and bool(p.supply or self.spare_black(state))
        )

    def ghost_damage(self, state: CatacombsState, seat: int) -> bool:
        """One Ghost's damage to the seat, if it can take it (:meth:`ghost_can_hurt`)."""
        if not self.ghost_can_hurt(state, seat):
            return False
        p = state.players[seat]
        if p.supply:
            p.supply -= 1
        else:
            state.black_damage[seat] += 1
        p.damage += 1
        return True

    @staticmethod
    def spare_black(state: CatacombsState) -> int:
        """Black cubes set aside in the bank, not standing in for damage on a meter."""
        return state.dragon_aside - sum(state.black_damage)

    def heal(self, state: CatacombsState, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#ghosts: healing takes the black cubes off the meter first, back to the bank."""
        black = min(n, state.black_damage[seat])
        super().heal(state, seat, n, events)
        state.black_damage[seat] -= black
        state.players[seat].supply -= black

    def return_dragon_cubes(self, state: CatacombsState, n: int) -> None:
        """rules.md#ghosts: black cubes on a meter stay there."""
        super().return_dragon_cubes(state, min(n, self.spare_black(state)))

    def ward(self, state: CatacombsState, seat: int) -> tuple[str, cx.GhostWard] | None:
        """rules.md#ghost-ward: the first card in the seat's hand that may ward off a Ghost."""
        defs = self.cat.card
        for c in state.players[seat].hand.cards:
            ward = next((e for e in defs[c].reaction if isinstance(e, cx.GhostWard)), None)
            if ward is not None:
                return c, ward
        return None

    def next_ward(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """rules.md#ghost-ward: the seat's next Ghost waiting on a ward card: offered while it
        holds one, else taken."""
        if not state.ghost_hits[seat]:
            return
        ward = self.ward(state, seat)
        if ward is not None and self.ghost_can_hurt(state, seat):
            # the card stays unnamed: the hand is hidden until it is discarded
            state.stack.append(Offer(seat=seat, effect=ward[1]))
            return
        while state.ghost_hits[seat]:
            self.ghost_hit(state, seat, events)

    def ghost_hit(self, state: CatacombsState, seat: int, events: list[Event]) -> None:
        """A waiting Ghost's damage taken, and the knock-out a full meter brings."""
        state.ghost_hits[seat] -= 1
        if self.ghost_damage(state, seat):
            events.append(Damaged(seat=seat, n=1))
            if state.players[seat].damage >= self.cat.health:
                self._knock_out(state, seat, events)

    @effect(cx.GhostWard)
    def nothing(self, *_: Any) -> None:
        """A reaction does nothing when played (it acts from the hand: :meth:`ward`)."""

    @effect(cx.AddGhost)
    def add_ghost(
        self,
        state: CatacombsState,
        seat: int,
        e: cx.AddGhost,
        card: str | None,
        events: list[Event],
    ) -> None:
        """rules.md#tokens: the Haunted Prisoner's Ghost."""
        self.haunt(state, events)

    def declined(self, state: CatacombsState, frame: Any, events: list[Event]) -> None:
        """rules.md#ghost-ward: a ward card kept, the Ghost hurts."""
        if self.ward_offer(frame):
            self.ghost_hit(state, frame.seat, events)
            self.next_ward(state, frame.seat, events)
        else:
            super().declined(state, frame, events)

    def accepted(self, state: CatacombsState, frame: Offer[Any], events: list[Event]) -> None:
        """rules.md#ghost-ward: the ward card discarded, its draw, no damage."""
        e = frame.effect
        if not isinstance(e, cx.GhostWard):
            return super().accepted(state, frame, events)
        seat = frame.seat
        ward = self.ward(state, seat)
        if ward is None:  # no ward card left in hand (a hand no other seat sees): it hurts
            self.next_ward(state, seat, events)
            return None
        card, e = ward
        p = state.players[seat]
        p.hand.remove(card)
        p.discard.add(card)
        events.append(Discarded(seat=seat, card=card))
        self._draw(state, seat, e.draw, events)
        state.ghost_hits[seat] -= 1
        self.next_ward(state, seat, events)
        return None

    def bag_colours(self, seats: int) -> set[str]:
        return {*super().bag_colours(seats), GHOST}

    def cubes_placed(self, state: CatacombsState, seat: int) -> int:
        """Wayshrine marks are the seat's cubes; black cubes on its meter are not."""
        return len(state.marks[seat]) - state.black_damage[seat]

    def own_decision(self, frame: Any) -> bool:
        """Each seat takes its tile's new side (rules.md#rotation) and a ward card against a
        Ghost (rules.md#ghost-ward) for itself. Asked as a turn ends, they stand even if the
        attack that follows knocks the seat to play out."""
        kind = type(frame)
        return kind is Spin or (kind is Offer and isinstance(frame.effect, cx.GhostWard))
