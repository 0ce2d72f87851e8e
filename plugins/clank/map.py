"""Movement over the board graph: boots, monsters, locks, caves, teleports, tokens.

:class:`Movement` is the engine's part that moves pawns. It reads the board only
through :meth:`Movement.graph`, which receives the state: Clank! answers
with its fixed board, a game whose map grows as it is explored (Catacombs)
with a graph derived from the state. Move and Teleport values are built
lazily and cached, since a growing map cannot list them up front.
"""

from __future__ import annotations

import functools
from typing import Any

from meeple.core.state import Event
from meeple.core.zones import HIDDEN, Zone
from meeple.plugins.clank.catalog import SECRET_KINDS, Exit, Graph
from meeple.plugins.clank.content import Tunnel
from meeple.plugins.clank.part import Part, S, action, frame, hook
from meeple.plugins.clank.state import (
    SKIP,
    Move,
    Moved,
    Player,
    Pool,
    Take,
    TakeToken,
    Teleport,
    Took,
)

NO_EXHAUST = "no-crystal-exhaust"
NO_MONSTERS = "ignore-tunnel-monsters"
MOVES_KEPT = 4096
"""Move and Teleport values kept per game object (a fixed board has a few hundred)."""


def moves_through(tunnel: int, to: int, monsters: int) -> tuple[Move, ...]:
    """The Move values through a tunnel, one per number of swords spent."""
    return tuple(Move(tunnel=tunnel, to=to, swords=s) for s in range(monsters + 1))


def teleport_through(tunnel: int, to: int) -> Teleport:
    return Teleport(tunnel=tunnel, to=to)


class Movement(Part[S]):
    def _build_moves(self) -> None:
        """The caches of Move and Teleport values, filled as moves come up, and bounded: a map
        that grows numbers its tunnels anew in each game, so new keys keep coming over many
        games."""
        self._moves_through = functools.lru_cache(maxsize=MOVES_KEPT)(moves_through)
        self._teleports_through = functools.lru_cache(maxsize=MOVES_KEPT)(teleport_through)

    @hook
    def graph(self, state: S) -> Graph:
        """The map of ``state``: every map question goes through here (Clank!: the board)."""
        return self.cat.graph

    def _moves(self, e: Exit) -> tuple[Move, ...]:
        """The Move values through exit ``e``, one per number of swords spent."""
        return self._moves_through(
            e.tunnel, e.to, e.monsters
        )  # a growing map may renumber its tunnels

    def _teleport_to(self, e: Exit) -> Teleport:
        return self._teleports_through(
            e.tunnel, e.to
        )  # positional: a cache key of keywords costs more

    @hook
    def passable(self, state: S, p: Player, e: Exit, teleport: bool) -> bool:
        """rules.md#movement, rules.md#teleport-locks: a locked tunnel needs a Master Key."""
        if not e.locked or (teleport and self.options.teleport_locks != "key"):
            return True
        return bool(self._power(p, "key"))

    def _power(self, p: Player, power: str) -> int:
        """How many held tokens grant ``power`` (``key``, ``backpack``)."""
        token = self.cat.token
        n = 0
        for t in p.held.cards:
            if token[t].power == power:
                n += 1
        return n

    @staticmethod
    def _can_walk(pool: Pool) -> bool:
        """rules.md#movement: boots left, and no crystal cave entered this turn (unless a
        card lifts that)."""
        return bool(pool.boots) and not (pool.exhausted and NO_EXHAUST not in pool.mods)

    def _swords_to_spend(self, p: Player, monsters: int, swords: int) -> range:
        """rules.md#movement: the swords the seat may spend against ``monsters``, most first;
        the monsters left hurt it, so it must be able to bear them."""
        top = min(monsters, swords)
        s = top
        while s >= 0 and self._can_bear(p, monsters - s):
            s -= 1
        return range(top, s, -1)

    @staticmethod
    def _pay_tunnel(pool: Pool, tunnel: Tunnel, swords: int) -> int:
        """rules.md#movement: boots and ``swords`` for ``tunnel``; returns the damage its
        other monsters do."""
        pool.boots -= tunnel.boots
        pool.swords -= swords
        return 0 if NO_MONSTERS in pool.mods else tunnel.monsters - swords

    @hook
    def move_actions(self, state: S, p: Player, graph: Any, out: list[Any]) -> None:
        """rules.md#movement and rules.md#teleport: every move open to the seat now over
        ``graph``, the state's map (into the start only with an artifact, rules.md#escape:
        asked only of a tunnel leading there)."""
        pool = state.pool
        if p.status != "in":  # rules.md#escape: an escaped seat cannot move
            return
        if not (pool.boots or pool.teleports):  # every move costs one or the other
            return
        start = graph.start
        if self._can_walk(pool):
            calm = NO_MONSTERS in pool.mods
            swords = pool.swords
            for e in graph.exits[p.room]:
                if e.boots > pool.boots or (e.to == start and not self.holds(p, "artifact")):
                    continue
                if e.locked and not self.passable(state, p, e, False):
                    continue
                moves = self._moves(e)
                m = 0 if calm else e.monsters
                if not m:
                    out.append(moves[0])
                    continue
                for s in self._swords_to_spend(p, m, swords):
                    out.append(moves[s])
        if pool.teleports:
            for e in graph.near[p.room]:
                if e.to == start and not self.holds(p, "artifact"):
                    continue
                if e.locked and not self.passable(state, p, e, True):
                    continue
                out.append(self._teleport_to(e))

    @action(Move)
    def move(self, state: S, action: Move) -> list[Event]:
        """rules.md#movement: pay boots and swords, take the rest of the monsters as damage."""
        seat = state.stack[-1].seat
        events: list[Event] = []
        self.pay_locks(state, seat, action.tunnel, events)
        damage = self._pay_tunnel(
            state.pool, self.graph(state).tunnels[action.tunnel], action.swords
        )
        events.append(Moved(seat=seat, room=action.to, damage=damage))
        self._wound(state, seat, damage, events)
        self.enter(state, seat, action.to, events)
        return events

    @hook
    def pay_locks(self, state: S, seat: int, tunnel: int, events: list[Event]) -> None:
        """rules.md#movement: what a walk through ``tunnel`` pays for its locks, before its
        boots and monsters (nothing here: a Master Key opens them and stays held)."""

    @action(Teleport)
    def teleport(self, state: S, action: Teleport) -> list[Event]:
        """rules.md#teleport: to an adjacent room, ignoring the tunnel."""
        seat = state.stack[-1].seat
        state.pool.teleports -= 1
        events: list[Event] = [Moved(seat=seat, room=action.to, teleport=True)]
        self.enter(state, seat, action.to, events)
        return events

    @hook
    def enter(self, state: S, seat: int, room: int, events: list[Event]) -> None:
        """Entering a room: cave, healing, escape, then the offer of one token."""
        graph = self.graph(state)
        p = state.players[seat]
        p.room = room
        if room in graph.caves:
            state.pool.exhausted = True
        heal = graph.heal.get(room)
        if heal:
            self.heal(state, seat, heal, events)
        if room == graph.start:
            self._escape(state, seat, events)
            return
        self._offer_tokens(state, seat, room)

    def _offer_tokens(self, state: S, seat: int, room: int) -> None:
        """rules.md#token-offer: the tokens of the room entered are offered at once, but
        those taken as a turn action (:meth:`taken_as_action`)."""
        if self._offered(self.takeable(state, state.players[seat], room)):
            state.stack.append(TakeToken(seat=seat, room=room))

    @hook
    def taken_as_action(self, tid: str) -> bool:
        """Whether token ``tid`` is taken as a turn action while the seat stands in its room,
        on any turn, rather than offered on entry (rules.md#take-artifact; none here)."""
        return False

    def _offered(self, tokens: list[str]) -> list[str]:
        """The tokens of ``tokens`` offered on entry."""
        return [t for t in tokens if not self.taken_as_action(t)]

    @hook
    def room_actions(self, state: S, seat: int, p: Player, graph: Any, out: list[Any]) -> None:
        """The turn actions the seat's room offers, listed last (rules.md#take-artifact: taking
        a token of the room). Most rooms hold no token taken so, and are passed over before
        :meth:`takeable` is asked."""
        if p.status != "in":
            return
        for tid in state.rooms[graph.index[p.room]].cards:
            if self.taken_as_action(tid):
                tokens = [t for t in self.takeable(state, p, p.room) if self.taken_as_action(t)]
                out += self._takes(state, p.room, tokens)
                return

    def _escape(self, state: S, seat: int, events: list[Event]) -> None:
        """rules.md#escape: out of the dungeon with an artifact, and a Mastery token."""
        p = state.players[seat]
        if state.mastery.cards:
            token = state.mastery.draw()
            p.held.add(token)
            events.append(Took(seat=seat, token=token))
        self._leave(state, seat, "escaped", events)

    @hook
    def takeable(self, state: S, p: Player, room: int) -> list[str]:
        """rules.md#tokens: the tokens of ``room`` the seat may take (artifacts if it has room)."""
        cards = state.rooms[self.graph(state).index[room]].cards
        if not cards:
            return []
        token = self.cat.token
        if self.holds(p, "artifact") < 1 + self._power(p, "backpack"):
            return list(cards)
        return [t for t in cards if token[t].kind != "artifact"]

    def _adjacent_secrets(self, state: S, room: int) -> dict[int, list[str]]:
        """rules.md#tokens: the secrets in each room next to ``room`` that holds any (Wand of
        Wind), by room."""
        graph = self.graph(state)
        token = self.cat.token
        out: dict[int, list[str]] = {}
        for e in graph.near[room]:
            secrets = [
                t for t in state.rooms[graph.index[e.to]].cards if token[t].kind in SECRET_KINDS
            ]
            if secrets:
                out[e.to] = secrets
        return out

    def _face(self, zone: Zone, i: int) -> str:
        """What every seat sees of token ``i`` of a room's ``zone``: the token if it lies face
        up, else its back's placeholder (``?minor``), as in a view."""
        tid = zone.cards[i]
        return tid if zone.is_up(i) else HIDDEN + self.back(tid)

    def _takes(self, state: S, room: int, tokens: list[str], named: bool = False) -> list[Take]:
        """rules.md#tokens: the Takes of ``tokens`` (tokens of ``room``) as a seat sees them,
        one per :meth:`_face`: a face-up token by its id, the face-down ones one Take per back,
        since nobody can tell them apart. ``named``: each names the room (Wand of Wind)."""
        zone = state.rooms[self.graph(state).index[room]]
        wanted = set(tokens)
        faces = dict.fromkeys(self._face(zone, i) for i, t in enumerate(zone.cards) if t in wanted)
        if named:
            return [Take(token=face, room=room) for face in faces]
        take = self.acts.take
        return [take[face] for face in faces]

    @frame(TakeToken)
    def token_actions(self, state: S, frame: TakeToken) -> list[Any]:
        """rules.md#tokens: a token of the room entered, a secret of a room next to the seat's
        (Wand of Wind), or none."""
        if frame.adjacent:
            rooms = self._adjacent_secrets(state, frame.room).items()
            takes = [a for room, ts in rooms for a in self._takes(state, room, ts, named=True)]
        else:
            p = state.players[frame.seat]
            takes = self._takes(
                state, frame.room, self._offered(self.takeable(state, p, frame.room))
            )
        return [*takes, SKIP]

    @action(Take)
    def take(self, state: S, action: Any) -> list[Event]:
        """rules.md#tokens: the token leaves its room and is revealed; its effects follow.

        Taken when offered (a pending :class:`TakeToken`) or, in a game that lets a seat
        take a token while it stands in the room, as a turn action. A face-down token is
        taken blind (:meth:`_takes`): the top one of its back in the room, as dealt.
        """
        frame = state.stack[-1]
        if type(frame) is TakeToken:
            state.stack.pop()
            room = frame.room if action.room is None else action.room
        else:
            room = state.players[frame.seat].room
        zone = state.rooms[self.graph(state).index[room]]
        top = max(i for i in range(len(zone)) if self._face(zone, i) == action.token)
        tid = zone.cards[top]
        zone.remove(tid)
        events: list[Event] = [Took(seat=frame.seat, token=tid)]
        self._gain_token(state, frame.seat, tid)
        return events

    def _gain_token(self, state: S, seat: int, tid: str) -> None:
        """A taken token: its ``take`` effects queue; kept, usable or end-of-turn ones stay."""
        token = self.cat.token[tid]
        pool = state.pool
        pool.queue.extend(self._pending(token.take, None))
        if token.keep or token.use or token.end_of_turn:
            state.players[seat].held.add(tid)
        else:
            state.spent.add(tid)

    def _found(self, state: S, seat: int, tid: str, events: list[Event]) -> None:
        """A token comes to the seat from a pile or a room: kept or spent, its effects queued."""
        events.append(Took(seat=seat, token=tid))
        self._gain_token(state, seat, tid)
