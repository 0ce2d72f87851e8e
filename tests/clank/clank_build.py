"""Building exact Clank! situations for scenario tests.

Tests build their situation with :func:`meeple.core.testing.scenario`, from a
real set-up, so every piece lies somewhere exactly once; :func:`turn` is the
start of a seat's turn in it, and :func:`put` moves pieces once play has begun.
A small hand-made board (:func:`tiny_board`) gives movement tests tunnels with
exactly the icons they are about.
"""

from __future__ import annotations

from typing import Any

from meeple.core.testing import scenario
from meeple.core.zones import Zone, iter_zones
from meeple.plugins.clank import tables
from meeple.plugins.clank.catalog import Catalog
from meeple.plugins.clank.content import Board, Room, Tunnel
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import ClankOptions, ClankState, Turn

QUIET_ROW = ("ladder-1", "ladder-2", "pickaxe-1", "pickaxe-2", "sneak-1", "sneak-2")
"""Six row cards with neither the danger nor the dragon-attack symbol."""


def tiny_board() -> Board:
    """Seven rooms: 1 start; 2 plain; 3 crystal cave; 4 Depths market with healing;
    5 Depths, artifact 10 and two minor secrets; 6 Depths, artifact 20; 7 a major secret.

    Tunnels (index: a-b): 0: 1-2; 1: 2-3; 2: 2-4 footprints and 2 monsters;
    3: 4-5 locked; 4: 3-5 one way; 5: 5-6; 6: 2-7; 7: 3-7.
    """
    rooms = [
        Room(id=1, start=True),
        Room(id=2),
        Room(id=3, crystal_cave=True),
        Room(id=4, depths=True, market=True, heal=1),
        Room(id=5, depths=True, artifact=10, minor=2),
        Room(id=6, depths=True, artifact=20, monkey_shrine=True, idols=3),
        Room(id=7, major=1),
    ]
    tunnels = [
        Tunnel(a=1, b=2),
        Tunnel(a=2, b=3),
        Tunnel(a=2, b=4, boots=2, monsters=2),
        Tunnel(a=4, b=5, locked=True),
        Tunnel(a=3, b=5, one_way=True),
        Tunnel(a=5, b=6),
        Tunnel(a=2, b=7),
        Tunnel(a=3, b=7),
    ]
    return Board(name="tiny", source=["tests"], confidence="made up", rooms=rooms, tunnels=tunnels)


def game(board: Board | None = None, **options: Any) -> Clank:
    """A Clank! game on the built-in tables, or on ``board`` instead of the printed one."""
    opts = ClankOptions(**options)
    if board is None:
        return Clank(opts)
    t = tables.read_tables(Clank._schema(), variant=opts.variant)
    return Clank(opts, cat=Catalog(t.cards, t.tokens, board))


def find(state: ClankState, piece: str) -> Zone:
    for zone in iter_zones(state):
        if piece in zone.cards:
            return zone
    raise AssertionError(f"{piece} is in no zone")


def put(state: ClankState, zone: Zone, *pieces: str, up: bool = True) -> None:
    """Move each piece from wherever it lies onto ``zone``."""
    for piece in pieces:
        find(state, piece).remove(piece)
        zone.add(piece, up)


def turn(
    g: Clank,
    state: ClankState,
    seat: int,
    hand: tuple[str, ...] = (),
    room: int | None = None,
    **pool: Any,
) -> None:
    """Make it ``seat``'s turn, its pool holding just ``pool``, with exactly ``hand`` in hand
    (the rest under its deck)."""
    me = {"hand": hand} if room is None else {"hand": hand, "room": room}
    fields = {f"players[{seat}]": me, "pool": type(state.pool)(**pool)}
    scenario(g, fields, state=state, to_move=seat, stack=[Turn(seat=seat)])


def clear_clank(state: ClankState) -> None:
    """Every cube in the Clank! area back to its supply."""
    for p in state.players:
        p.supply += p.clank
        p.clank = 0


def started(g: Clank, seats: int, seed: int) -> ClankState:
    """A fresh table of ``g`` with no cube in the Clank! area, so tests count their own."""
    state = g.setup(seats, seed)
    clear_clank(state)
    return state


def act(g: Clank, state: ClankState, action: Any) -> list[Any]:
    """Play ``action`` (checked against the legal ones) and check the state after it."""
    assert action in g.legal_actions(state), action
    events = g.resolve(state, action)
    assert g.check_state(state) == [], g.check_state(state)
    return events


def legal(g: Clank, state: ClankState, kind: type) -> list[Any]:
    return [a for a in g.legal_actions(state) if type(a) is kind]


def to_row(state: ClankState, *cards: str) -> None:
    """Put ``cards`` in the Dungeon Row, others making room to the dungeon discard."""
    row = state.row
    for card in cards:
        if card in row.cards:
            continue
        if len(row) >= 6:
            put(state, state.dungeon_discard, next(c for c in row.cards if c not in cards))
        put(state, row, card)


def place_artifacts(g: Clank, state: ClankState) -> None:
    """Every artifact on its room of the board, none left in the box."""
    graph = g.cat.graph
    for rid, room in graph.rooms.items():
        if room.artifact is not None:
            put(state, state.rooms[graph.index[rid]], f"artifact-{room.artifact}")
