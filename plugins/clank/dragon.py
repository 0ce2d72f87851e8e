"""The dragon: rage, attacks, damage, healing and knock-outs (rules.md#dragon-attack).

:class:`Dragon` is the engine's part for the dragon: it works on the state and the
catalog and knows nothing of cards or the map, so a game on the engine that
adds cubes of its own (Catacombs' ghosts) overrides :meth:`Dragon.hit`.
"""

from __future__ import annotations

from meeple.core.state import Event
from meeple.plugins.clank.part import Part, S, hook
from meeple.plugins.clank.state import (
    Attacked,
    Damaged,
    Healed,
    Out,
    Player,
    Raged,
    Status,
)

DRAGON = "dragon"
COLOURS = ("seat-0", "seat-1", "seat-2", "seat-3")
"""The bag colour of each seat's cubes."""


class Dragon(Part[S]):
    def _raise_rage(self, state: S, n: int, events: list[Event]) -> None:
        """rules.md#rage: the marker climbs; beyond the last space it stays (rules.md#rage-top)."""
        top = len(self.cat.tables.rage_track) - 1
        rage = min(state.rage + n, top)
        if rage != state.rage:
            state.rage = rage
            events.append(Raged(rage=rage))

    def _cubes_drawn(self, state: S, extra: int) -> int:
        """rules.md#dragon-attack: the rage number, one per danger card in the row, the extra."""
        card = self.cat.card
        danger = 0
        for c in state.row.cards:
            danger += card[c].danger
        return self.cat.tables.rage_track[state.rage] + danger + extra

    def _attack(self, state: S, events: list[Event], extra: int = 0) -> None:
        """rules.md#dragon-attack: as many cubes as the rage, the danger and ``extra`` say."""
        self.draw_cubes(state, events, self._cubes_drawn(state, extra))

    @hook
    def draw_cubes(self, state: S, events: list[Event], n: int) -> None:
        """rules.md#dragon-attack: the Clank! area into the bag, then ``n`` cubes drawn."""
        bag = state.bag
        for seat, p in enumerate(state.players):
            if p.clank:
                bag.add(COLOURS[seat], p.clank)
                p.clank = 0
        drawn = bag.draw(state.rng, n)
        events.append(Attacked(cubes=drawn))
        hurt: list[int] = []
        for cube in drawn:
            self.hit(state, cube, hurt)
        for seat in self._from_current(state, hurt):
            events.append(Damaged(seat=seat, n=hurt.count(seat)))
        for seat in self._from_current(state, hurt):
            if state.players[seat].damage >= self.cat.health:
                self._knock_out(state, seat, events)
        if self.options.empty_bag == "end" and not len(bag):  # rules.md#empty-bag
            self._knock_out_all(state, events)

    @hook
    def hit(self, state: S, cube: str, hurt: list[int]) -> None:
        """One drawn cube: black set aside; a seat's cube damages it if it is still in."""
        if cube == DRAGON:
            state.dragon_aside += 1
            return
        seat = COLOURS.index(cube)
        p = state.players[seat]
        if p.status == "in" and p.damage < self.cat.health:
            p.damage += 1
            hurt.append(seat)
        else:  # rules.md#left-cubes
            p.aside += 1

    @staticmethod
    def _from_current(state: S, seats: list[int]) -> list[int]:
        """The distinct ``seats`` in turn order from the seat to play (rules.md#first-leaver)."""
        order = state.turns.order
        i = order.index(state.turns.current)
        return [s for s in order[i:] + order[:i] if s in seats]

    @hook
    def return_dragon_cubes(self, state: S, n: int) -> None:
        """rules.md#dragon-attack: set-aside black cubes back into the bag."""
        n = min(n, state.dragon_aside)
        state.dragon_aside -= n
        state.bag.add(DRAGON, n)

    # -- health --------------------------------------------------------------

    def _can_bear(self, p: Player, n: int) -> bool:
        """rules.md#health: voluntary damage needs the cubes and must not fill the meter."""
        return n == 0 or (p.supply >= n and p.damage + n < self.cat.health)

    def _wound(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """Damage from the supply (voluntary: the caller checked :meth:`_can_bear`)."""
        if n:
            p = state.players[seat]
            p.supply -= n
            p.damage += n
            events.append(Damaged(seat=seat, n=n))

    @hook
    def heal(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """rules.md#health: cubes from the meter back to the supply; the rest is lost."""
        p = state.players[seat]
        n = min(n, p.damage)
        if n:
            p.damage -= n
            p.supply += n
            events.append(Healed(seat=seat, n=n))

    # -- leaving -------------------------------------------------------------

    def _knock_out(self, state: S, seat: int, events: list[Event]) -> None:
        """rules.md#knocked-out: rescued with an artifact outside the Depths, else eliminated."""
        p = state.players[seat]
        if p.status != "in":
            return
        rescued = self.holds(p, "artifact") and p.room not in self.graph(state).depths
        self._leave(state, seat, "rescued" if rescued else "eliminated", events)

    def _knock_out_all(self, state: S, events: list[Event]) -> None:
        for seat in self._from_current(state, list(range(state.seats))):
            self._knock_out(state, seat, events)

    def _leave(self, state: S, seat: int, status: Status, events: list[Event]) -> None:
        """The seat goes out; the first one out takes the countdown track (rules.md#countdown)."""
        state.players[seat].status = status
        events.append(Out(seat=seat, status=status))
        self.left_dungeon(state, seat)

    @hook
    def left_dungeon(self, state: S, seat: int) -> None:
        """rules.md#countdown: what a seat's leaving does to the turn order."""
        if state.countdown_seat is None:
            state.countdown_seat = seat
            state.countdown = 1
        else:  # the countdown seat keeps its turns to move along the track
            state.turns.leave(seat)
