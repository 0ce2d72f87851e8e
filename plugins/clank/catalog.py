"""Runtime lookups built once from the content tables.

The state holds physical ids only (``orc-grunt-2``, ``burgle-s1-4``,
``artifact-20``); a :class:`Catalog` maps each to its definition, numbers the
board's rooms and tunnels and precomputes each room's exits, so the hot path
never searches a table. A game on the same engine with another map (Clank!
Catacombs' growing tiles) builds its own :class:`Graph` and keeps the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from meeple.plugins.clank.content import Board, Card, Cards, Room, Token, Tokens, Tunnel

SECRET_KINDS = ("major", "minor")


def copies(base: str, count: int) -> list[str]:
    """Physical ids of ``count`` copies: ``base`` alone for a single copy, else ``base-1``..."""
    return [base] if count == 1 else [f"{base}-{i}" for i in range(1, count + 1)]


def starter_ids(card: Card, seat: int) -> list[str]:
    """``burgle-s1-4``: seat 1's fourth Burgle (seats count from 0, copies from 1)."""
    return copies(f"{card.id}-s{seat}", card.count)


def token_ids(token: Token) -> list[tuple[str, int]]:
    """Physical ids and points of a token kind's copies, most valuable first."""
    if token.values:
        return [(f"{token.id}-{v}", v) for v in token.values]
    return [(i, token.points) for i in copies(token.id, token.count)]


class Exit(NamedTuple):
    """One way out of a room: through ``tunnel`` to room ``to``."""

    to: int
    tunnel: int
    boots: int
    monsters: int
    locked: bool


Ways = dict[int, tuple[Exit, ...]]
"""Exits by room."""


def link(exits: Ways, near: Ways, i: int, t: Tunnel) -> None:
    """Tunnel ``t``, number ``i``, joins the exits and teleport targets of its rooms.

    Each :class:`Exit` is built as a tuple of its fields in order: a named tuple's own
    ``__new__`` is Python code, and a growing map links two for every tunnel it adds."""
    forward = tuple.__new__(Exit, (t.b, i, t.boots, t.monsters, t.locked))
    back = tuple.__new__(Exit, (t.a, i, t.boots, t.monsters, t.locked))
    exits[t.a] += (forward,)
    near[t.a] += (forward,)
    near[t.b] += (back,)
    if not t.one_way:
        exits[t.b] += (back,)


class Graph:
    """A board as a graph: rooms by id, exits by room, teleport targets by room."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.read_rooms(board.rooms)
        self.tunnels = board.tunnels
        exits, near = self.ways(board.tunnels)
        self.exits = exits
        """Exits a seat may walk (one-way tunnels only forwards)."""
        self.near = near
        """Tunnels touching each room in either direction (teleport targets)."""

    def read_rooms(self, rooms: Sequence[Room]) -> None:
        """What the rooms' table says: rooms by id, their order, the start, the depths,
        caves, markets and healing rooms (a graph that grows keeps them as it grows)."""
        self.rooms = {r.id: r for r in rooms}
        self.order = [r.id for r in rooms]
        """Room ids in table order; the state's room zones follow it."""
        self.index = {rid: i for i, rid in enumerate(self.order)}
        self.start = next(r.id for r in rooms if r.start)
        self.depths = frozenset(r.id for r in rooms if r.depths)
        self.caves = frozenset(r.id for r in rooms if r.crystal_cave)
        self.markets = frozenset(r.id for r in rooms if r.market)
        self.heal = {r.id: r.heal for r in rooms if r.heal}

    def ways(self, tunnels: Sequence[Tunnel]) -> tuple[Ways, Ways]:
        """The exits and the teleport targets of each room (a graph that grows keeps them
        from one size to the next)."""
        exits: Ways = dict.fromkeys(self.order, ())
        near = exits.copy()
        for i, t in enumerate(tunnels):
            link(exits, near, i, t)
        return exits, near


class Catalog:
    """Every card, token and room of one set of tables, by physical id."""

    def __init__(self, cards: Cards, tokens: Tokens, board: Board, max_seats: int = 4) -> None:
        self.tables = tokens
        self.graph = self.make_graph(board)
        self.card: dict[str, Card] = {}
        self.kinds: dict[str, Card] = {}
        """Card definitions by card kind id (``burgle``, ``secret-tome``)."""
        self.dungeon: list[str] = []
        self.reserve: list[list[str]] = []
        self.starters: list[list[str]] = [[] for _ in range(max_seats)]
        for card in cards.dungeon:
            self.kinds[card.id] = card
            for cid in copies(card.id, card.count):
                self.card[cid] = card
                self.dungeon.append(cid)
        for card in cards.reserve:
            self.kinds[card.id] = card
            pile = copies(card.id, card.count)
            self.reserve.append(pile)
            for cid in pile:
                self.card[cid] = card
        for card in cards.starter:
            self.kinds[card.id] = card
            for seat in range(max_seats):
                for cid in starter_ids(card, seat):
                    self.card[cid] = card
                    self.starters[seat].append(cid)
        self.kind_of = {cid: card.id for cid, card in self.card.items()}
        """Card kind ids by physical id (what :meth:`distinct` compares)."""
        self.token: dict[str, Token] = {}
        self.points: dict[str, int] = {}
        self.by_kind: dict[str, list[str]] = {}
        """Token ids by token kind (``artifact``, ``major``, ``market``...), most valuable first."""
        self.market_items: list[str] = []
        """Token kind ids sold at the market, in table order."""
        self.market_stock: list[str] = []
        """The market's token ids, in table order (the market zone at set-up)."""
        for token in tokens.tokens:
            if token.kind == "market":
                self.market_items.append(token.id)
            for tid, pts in token_ids(token):
                self.token[tid] = token
                self.points[tid] = pts
                self.by_kind.setdefault(token.kind, []).append(tid)
                if token.kind == "market":
                    self.market_stock.append(tid)
        self.back = {cid: "card" for cid in self.card}
        for tid, token in self.token.items():
            self.back[tid] = token.kind
        self.health = tokens.health

    def distinct(self, cards: Iterable[str]) -> Iterable[str]:
        """One physical card per card kind, the first of each: copies are interchangeable,
        so offering each once keeps the choices short for people and bots alike."""
        firsts: dict[str, str] = {}
        kind_of = self.kind_of
        for c in cards:
            kind = kind_of[c]
            if kind not in firsts:
                firsts[kind] = c
        return firsts.values()

    def make_graph(self, board: Board) -> Graph:
        """The board graph (a subclass's map may grow)."""
        return Graph(board)

    def pieces(self, seats: int) -> list[str]:
        """Every card and token id of a ``seats``-seat game."""
        out = [*self.dungeon, *(c for pile in self.reserve for c in pile)]
        for seat in range(seats):
            out.extend(self.starters[seat])
        out.extend(self.token)
        return out
