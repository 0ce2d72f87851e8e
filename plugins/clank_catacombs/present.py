"""What people read of Clank! Catacombs (:class:`CatacombsPresentation`): the growing dungeon
as a text grid with its tunnels, the room's exits and open edges, and phrases for the actions
and events Catacombs adds.

Everything else is Clank!'s (:mod:`meeple.plugins.clank.present`), extended here,
never copied.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from meeple.core.state import Action, Event
from meeple.plugins.clank import present as base
from meeple.plugins.clank import state as st
from meeple.plugins.clank.content import Tunnel
from meeple.plugins.clank_catacombs import drawing
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.board import OPPOSITE, Open
from meeple.plugins.clank_catacombs.tiles import Half, TileRoom

if TYPE_CHECKING:
    from meeple.plugins.clank_catacombs.rules import CatacombsGame

FEATURES = (
    "crypt",
    "crystal_cave",
    "market",
    "portal",
    "wayshrine",
    "chest",
    "library",
    "prison",
    "monkey_shrine",
)

DIRECTIONS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def offer(state: cs.CatacombsState) -> int | None:
    """This turn's market offer price, if any (the one place that reads it)."""
    return state.pool.offer


def features(room: TileRoom, depths: bool) -> list[str]:
    """A tile's room as printed: ``depths, chest, artifact room +, reward gold 2``."""
    said = ["depths"] if depths else []
    said += [name.replace("_", " ") for name in FEATURES if getattr(room, name)]
    if room.artifact is not None:
        said.append("artifact room" + " +" * room.artifact)
    if room.reward:
        said.append(
            f"reward {room.reward}" + (f" {room.reward_n}" if room.reward == "gold" else "")
        )
    return said


def room_text(game: CatacombsGame, state: cs.CatacombsState, room: int) -> str:
    """A room's name and features: ``room 4 (dark-2:b): depths, chest, reward minor``."""
    said = room_features(game, state, room)
    return game.room_name(state, room) + (": " + ", ".join(said) if said else "")


def room_features(game: CatacombsGame, state: cs.CatacombsState, room: int) -> list[str]:
    """A placed room's features, an opened lock and the tokens lying there."""
    graph = game.graph(state)
    said = features(graph.features[room], room in graph.depths)
    if f"room {room}" in state.picked:
        said.append("picked")
    tokens = state.rooms[room].cards
    if tokens:
        said.append("holds " + ", ".join(base.name(game, t) for t in tokens))
    return said


@base.room_header.register(cs.CatacombsState)
def _(state: cs.CatacombsState, game: CatacombsGame, room: int) -> str:
    """The room by its tile and all it is (rules.md#tiles), ``plain`` when nothing."""
    said = room_features(game, state, room)
    return f"{game.room_name(state, room)}: {', '.join(said) or 'plain'}"


@base.exit_rows.register(cs.CatacombsState)
def _(state: cs.CatacombsState, game: CatacombsGame, room: int) -> list[tuple[str, str]]:
    """The tunnels out, then each open edge (rules.md#discovery): its direction, and what its
    half asks before the new tile adds its own."""
    graph = game.graph(state)
    rows = [
        (room_text(game, state, e.to), base.tunnel_text(game, state, e.tunnel))
        for e in graph.exits[room]
    ]
    rows += [
        (f"{direction(o)}, off the edge", edge_text(game, state, o) + " + the new tile's half")
        for o in graph.opens.get(room, [])
    ]
    return rows


@base.lock_text.register(cs.CatacombsState)
def _(state: cs.CatacombsState, game: CatacombsGame, tunnel: int) -> str:
    """rules.md#locks: a lock with a Lockpick left on it is open for everyone."""
    keys = game.graph(state).locks[tunnel]
    return locks_text(game.locks_to_open(state, tunnel), len(keys))


def locks_text(closed: int, locks: int) -> str:
    """``1 lock closed``, ``lock open``, ``1 lock closed, 1 open``."""
    if not closed:
        return "lock open" if locks == 1 else "locks open"
    return (
        base.plural(closed, "lock")
        + " closed"
        + (f", {locks - closed} open" if locks > closed else "")
    )


def direction(o: Open) -> str:
    """The way an open edge leads out: ``north``."""
    return DIRECTIONS[OPPOSITE[o.side]]


def edge_text(game: CatacombsGame, state: cs.CatacombsState, o: Open) -> str:
    """What an open edge's half asks: ``2 boots, 1 monster, 1 lock closed, one-way in``."""
    half = o.edge
    closed = half.lock and f"{o.place}/e{o.half}" not in state.picked
    t = Tunnel(
        a=o.room,
        b=o.room,
        boots=2 if half.footprints else 1,
        monsters=half.monsters,
        locked=half.lock,
    )
    said = base.costs_text(t, locks_text(int(closed), 1))
    return said + (f", one-way {half.arrow}" if half.arrow else "")


def open_edge(game: CatacombsGame, state: cs.CatacombsState, place: int, half: int) -> Open | None:
    """The open edge of half ``half`` of placed tile ``place``, if it is one."""
    return next(
        (
            o
            for opens in game.graph(state).opens.values()
            for o in opens
            if (o.place, o.half) == (place, half)
        ),
        None,
    )


@singledispatch
def action_words(action: Action, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """Words for the actions Catacombs adds; Clank!'s for the rest."""
    return base.action_words(action, game, state)


@action_words.register(cs.Explore)
def _(action: cs.Explore, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """rules.md#discovery: the edge by its direction and room, and what its half asks."""
    verb = "teleport" if action.teleport else "move"
    o = open_edge(game, state, action.place, action.half)
    if o is None:
        return f"{verb} off the dungeon's edge from tile {action.place} (discover a tile)"
    cost = "" if action.teleport else f"{edge_text(game, state, o)}; "
    where = f"{direction(o)} off the dungeon's edge from {game.room_name(state, o.room)}"
    return f"{verb} {where} ({cost}discover a tile)"


@action_words.register(cs.Rotate)
def _(action: cs.Rotate, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """rules.md#discovery: the room a rotation leads into, and what its tunnel asks."""
    placed = f"place the tile turned {action.turn} quarter turns"
    if not action.enter:
        return f"{placed}, staying put"
    spend = f", spending {action.swords} swords" if action.swords else ""
    frame = state.stack[-1] if state.stack else None
    way = entry(game, state, frame, action.turn) if isinstance(frame, cs.Discover) else None
    return f"{placed} and " + (way or "enter it") + spend


def entry(
    game: CatacombsGame, state: cs.CatacombsState, frame: cs.Discover, turn: int
) -> str | None:
    """The room the drawn tile turned ``turn`` times leads into, with the tunnel's costs,
    icons and locks (none if that rotation does not complete the tunnel)."""
    fit = next(iter(game.fits(state, frame, turn)), None)
    if fit is None:
        return None
    _, tunnel, keys, room = fit
    tile = game.cat.tiles[frame.tile]
    new = tile.rooms[room - len(state.rooms)]
    said = features(new, new.depths if new.depths is not None else tile.back == "darker")
    entered = f"room {room} ({frame.tile}:{new.id})" + (": " + ", ".join(said) if said else "")
    if frame.teleport:
        return f"teleport into {entered}"
    closed = sum(k not in state.picked for k in keys)
    return f"enter {entered}; tunnel {base.costs_text(tunnel, locks_text(closed, len(keys)))}"


@action_words.register(cs.PlaceTile)
def _(action: cs.PlaceTile, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"place the tile at cell {action.x},{action.y} turned {action.turn}"


@action_words.register(cs.GoTo)
def _(action: cs.GoTo, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"choose {game.room_name(state, action.room)}"


@action_words.register(cs.Accept)
def _(action: cs.Accept, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "accept"


@action_words.register(cs.PickLock)
def _(action: cs.PickLock, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "spend a Lockpick on this room's chest, library or prison"


@action_words.register(cs.Mark)
def _(action: cs.Mark, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "mark this Wayshrine"


@action_words.register(cs.Claim)
def _(action: cs.Claim, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"buy a {base.kind_name(game, action.item)} for {offer(state)} gold (offer)"


@action_words.register(cs.TurnTile)
def _(action: cs.TurnTile, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"turn the tile to {action.turn} quarter turns"


@action_words.register(st.Skip)
def _(action: st.Skip, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """Declining a drawn tile puts it back; any other decline reads as Clank!'s."""
    if state.stack and type(state.stack[-1]) is cs.Discover:
        return "put the tile under the stack"
    return base.action_words(action, game, state)


@singledispatch
def event_words(event: Event, game: CatacombsGame, viewer: int | None) -> str | None:
    """Log lines for the events Catacombs adds; Clank!'s for the rest."""
    return base.event_words(event, game, viewer)


@event_words.register(cs.Discovered)
def _(event: cs.Discovered, game: CatacombsGame, viewer: int | None) -> str:
    where = f"(tile {event.place}) at {event.x},{event.y}"
    return f"{base.who(event)} places tile {event.tile} {where}, turned {event.turn}"


@event_words.register(cs.Opened)
def _(event: cs.Opened, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} leaves a Lockpick on {lock_place(event.where)}"


def lock_place(where: str) -> str:
    """Where a Lockpick lies, in words: ``room 12``'s chest, library or prison, the lock of a
    tunnel inside tile 3 (``3/i0``), or of one of its edge halves (``3/e2``)."""
    if where.startswith("room "):
        return f"the lock of {where}"
    place, half = where.split("/")
    inside = "inside" if half.startswith("i") else "at the edge of"
    return f"a tunnel's lock {inside} tile {place}"


@event_words.register(cs.Marked)
def _(event: cs.Marked, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} marks the Wayshrine in room {event.room} for {event.gold} gold"


@event_words.register(cs.Ghosted)
def _(event: cs.Ghosted, game: CatacombsGame, viewer: int | None) -> str:
    return "a Ghost joins the Clank! area"


@event_words.register(cs.Lockpicks)
def _(event: cs.Lockpicks, game: CatacombsGame, viewer: int | None) -> str:
    n = event.n
    return f"{base.who(event)} " + (f"takes {n}" if n > 0 else f"returns {-n}") + " Lockpicks"


@event_words.register(cs.Turned)
def _(event: cs.Turned, game: CatacombsGame, viewer: int | None) -> str:
    return f"tile {event.place} turns to {event.turn} quarter turns"


@event_words.register(cs.DragonTurn)
def _(event: cs.DragonTurn, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} has left: the dragon draws for its turn"


CELL = 12
"""The least width inside one grid cell's brackets in the text map."""
WAYS = {(1, 0): ("-", ">", "<"), (0, 1): ("|", "v", "^")}
"""The mark of a tunnel across a cell edge, east or south of a cell: both ways, one way
forward (east, south), one way back."""


def grid(
    game: CatacombsGame, state: cs.CatacombsState, seat: int | None = None, names: bool = True
) -> str:
    """The placed tiles on their cells: each cell shows its tile and its rooms' ids, and
    each tunnel across a cell edge shows between the cells (``-`` and ``|``, or an arrow
    for a one-way tunnel); its costs are in the tile's tunnel list.

    ``*`` marks the room where ``seat`` stands; the grid's rows run north to south.
    Without ``names`` a cell shows its tile by placement number alone, to fit more cells.
    """
    graph = game.graph(state)
    here = state.players[seat].room if seat is not None else None
    cell_of = drawing.room_cells(game, state)
    rooms: dict[tuple[int, int], list[str]] = {}
    for r in graph.order:
        rooms.setdefault(cell_of[r], []).append(f"{r}*" if r == here else str(r))
    marks: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
    for k, t in enumerate(graph.tunnels):
        if k in graph.trips:
            continue
        (ax, ay), (bx, by) = a, b = cell_of[t.a], cell_of[t.b]
        way = WAYS.get((abs(bx - ax), abs(by - ay)))
        if way is not None:
            forward = (bx - ax) + (by - ay) > 0
            marks[min(a, b), max(a, b)] = way[0] if not t.one_way else way[1 if forward else 2]
    labels = {c: f"{i}:{state.tiles[i].tile}" if names else str(i) for c, i in graph.cells.items()}
    ids = {c: ",".join(r) for c, r in rooms.items()}
    wide = max(CELL if names else 0, *map(len, labels.values()), *map(len, ids.values()))
    xs = [x for x, _ in graph.cells]
    ys = [y for _, y in graph.cells]
    lines = []
    for y in range(min(ys), max(ys) + 1):
        top, bottom, below = [], [], []
        for x in range(min(xs), max(xs) + 1):
            c = (x, y)
            east = marks.get((c, (x + 1, y)), " ")
            south = marks.get((c, (x, y + 1)), " ")
            if c not in graph.cells:
                top.append(" " * (wide + 3))
                bottom.append(" " * (wide + 2) + east)
            else:
                top.append(f"[{labels[c]:<{wide}}] ")
                bottom.append(f"[{ids.get(c, ''):<{wide}}]{east}")
            below.append(f"{south:^{wide + 2}} ")
        lines += ["".join(top).rstrip(), "".join(bottom).rstrip()]
        if y < max(ys):
            lines.append("".join(below).rstrip())
    return "\n".join(lines)


class Map:
    """The dungeon as a terminal shows it: a box per cell (:func:`drawing.draw`) when that
    fits its width, else the grid with the tiles' names, else by placement number alone
    (the tile list names them)."""

    def __init__(self, game: CatacombsGame, state: cs.CatacombsState, seat: int | None):
        self.game, self.state, self.seat = game, state, seat

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        boxes = drawing.draw(self.game, self.state, self.seat)
        if max(line.cell_len for line in boxes) <= min(options.max_width, drawing.WIDTH):
            yield from boxes
            return
        text = grid(self.game, self.state, self.seat)
        if max(map(len, text.splitlines())) > options.max_width:
            text = grid(self.game, self.state, self.seat, names=False)
        yield Text(text)


def half_text(half: Half) -> str:
    """A half-tunnel's icons: ``footprints, 1 monster, lock, arrow out`` (empty if plain)."""
    icons = (
        ("footprints", half.footprints),
        (f"{half.monsters} monster" + ("s" if half.monsters > 1 else ""), half.monsters),
        ("lock", half.lock),
        (f"arrow {half.arrow}", half.arrow),
    )
    return ", ".join(word for word, on in icons if on)


def tile_text(game: CatacombsGame, tile_id: str) -> str:
    """A tile as printed, unturned: its rooms, then each edge tunnel with its side (``n0``,
    ``n1``: a side's two openings clockwise) and icons."""
    tile = game.cat.tiles[tile_id]
    rooms = []
    for r in tile.rooms:
        said = features(r, depths=False)  # the tile's back says its depth
        rooms.append(f"{r.id}" + (f" ({', '.join(said)})" if said else ""))
    edges = [
        f"{h.side}{'' if h.pos is None else h.pos} from {h.room}"
        + (f": {icons}" if (icons := half_text(h)) else "")
        for h in tile.edges
    ]
    kind = tile.back + (", haunted" if tile.haunted else "")
    return (
        f"tile {tile.id} ({kind}): rooms {'; '.join(rooms)}; "
        f"edge tunnels (unturned; each quarter turn moves n to e) {'; '.join(edges)}"
    )


def tunnels_text(game: CatacombsGame, state: cs.CatacombsState, place: int) -> str:
    """The tunnels a tile brought (those inside it and those joining it to tiles placed
    before), then its open edges: ``tunnels 6-7: 1 boot; 7->2: 2 boots, lock open; open
    edges 7 north: 1 boot``."""
    graph = game.graph(state)
    said = [
        f"{t.a}{'->' if t.one_way else '-'}{t.b}: {base.tunnel_text(game, state, k)}"
        for k, t in enumerate(graph.tunnels)
        if graph.tile_of[max(t.a, t.b)] == place and k not in graph.trips
    ]
    edges = [
        f"{o.room} {direction(o)}: {edge_text(game, state, o)}"
        for opens in graph.opens.values()
        for o in opens
        if o.place == place
    ]
    return (
        "tunnels "
        + ("; ".join(said) or "none")
        + ("; open edges " + "; ".join(edges) if edges else "")
    )


class CatacombsPresentation(base.ClankPresentation[cs.CatacombsState]):
    """Clank!'s presentation, with Catacombs' words for its actions and events, and its
    dungeon drawn."""

    game: CatacombsGame

    def describe_action(self, state: cs.CatacombsState, action: Action) -> str:
        return action_words(action, self.game, state)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        return event_words(event, self.game, viewer)

    def legend(self) -> Sequence[tuple[RenderableType, str]]:
        return drawing.LEGEND

    def render_table(self, view: cs.CatacombsState, seat: int | None) -> RenderableType:
        """Clank!'s table (its header and exits in Catacombs' words), then the dungeon drawn,
        every room and tunnel by tile, the piles, and the tile being placed."""
        game = self.game
        graph = game.graph(view)
        parts: list[RenderableType] = [
            *self.table_parts(view, seat),
            Text("Dungeon, north on top", style="bold"),
            Map(game, view, seat),
        ]
        for i, at in enumerate(view.tiles):
            rooms = [r for r in graph.order if graph.tile_of[r] == i]
            parts.append(
                Text(
                    f"tile {i} {at.tile} at {at.x},{at.y} turned {at.turn}: "
                    + "; ".join(room_text(game, view, r) for r in rooms)
                )
            )
            parts.append(Text("  " + tunnels_text(game, view, i), style="dim"))
        parts.append(
            Text(
                f"Tile stack {len(view.tile_stack)}, artifacts "
                + ", ".join(base.name(game, a) for a in reversed(view.artifacts.cards))
                + f"; Ghosts beside {view.ghosts}, in the Clank! area {view.ghost_clank}; "
                "Lockpicks held " + ", ".join(f"seat {s} {n}" for s, n in enumerate(view.lockpicks))
            )
        )
        frame = view.stack[-1] if view.stack else None
        if isinstance(frame, cs.Discover | cs.PlaceAnywhere):
            drawn = tile_text(game, frame.tile)
            parts.append(Text("Drawn: " + drawn, style=f"bold {drawing.COLOURS['yellow']}"))
        return Group(*parts)

    def render_private(self, view: cs.CatacombsState, seat: int) -> RenderableType:
        """Clank!'s private pane, then the seat's Lockpicks and the Wayshrines it marked."""
        marks = view.marks[seat]
        return Group(
            super().render_private(view, seat),
            Text(
                f"Lockpicks {view.lockpicks[seat]}, Wayshrines marked "
                + (", ".join(map(str, marks)) or "none")
            ),
        )
