"""What people read of Clank! Catacombs: the growing dungeon as a text grid, the room's
exits and open edges, and phrases for the actions and events Catacombs adds.

Everything else is Clank!'s (:mod:`meeple.plugins.clank.present`), extended here,
never copied.
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.text import Text

from meeple.core.state import Action, Event
from meeple.plugins.clank import present as base
from meeple.plugins.clank import state as st
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.tiles import Half

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


def room_name(game: CatacombsGame, state: cs.CatacombsState, room: int) -> str:
    """``room 12 (light-3:a)``."""
    return f"room {room} ({game.graph(state).names[room]})"


def room_text(game: CatacombsGame, state: cs.CatacombsState, room: int) -> str:
    """A room's name and features: ``room 4 (dark-2:b): depths, chest, reward minor``."""
    graph = game.graph(state)
    f = graph.features[room]
    said = [name.replace("_", " ") for name in FEATURES if getattr(f, name)]
    if room in graph.depths:
        said.insert(0, "depths")
    if f.artifact is not None:
        said.append("artifact room" + " +" * f.artifact)
    if f.reward:
        said.append(f"reward {f.reward}" + (f" {f.reward_n}" if f.reward == "gold" else ""))
    if f"room {room}" in state.picked:
        said.append("picked")
    tokens = state.rooms[room].cards
    if tokens:
        said.append("holds " + ", ".join(base.name(game, t) for t in tokens))
    return room_name(game, state, room) + (": " + ", ".join(said) if said else "")


@singledispatch
def describe_action(action: Action, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """Words for the actions Catacombs adds; Clank!'s for the rest."""
    return base.describe_action(action, game, state)


@describe_action.register(cs.Explore)
def _(action: cs.Explore, game: CatacombsGame, state: cs.CatacombsState) -> str:
    verb = "teleport" if action.teleport else "move"
    return f"{verb} off the dungeon's edge from tile {action.place} (discover a tile)"


@describe_action.register(cs.Rotate)
def _(action: cs.Rotate, game: CatacombsGame, state: cs.CatacombsState) -> str:
    if not action.enter:
        return f"place the tile turned {action.turn} quarter turns, staying put"
    spend = f", spending {action.swords} swords" if action.swords else ""
    return f"place the tile turned {action.turn} quarter turns and enter it{spend}"


@describe_action.register(cs.PlaceTile)
def _(action: cs.PlaceTile, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"place the tile at cell {action.x},{action.y} turned {action.turn}"


@describe_action.register(cs.GoTo)
def _(action: cs.GoTo, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"choose {room_name(game, state, action.room)}"


@describe_action.register(cs.Accept)
def _(action: cs.Accept, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "accept"


@describe_action.register(cs.PickLock)
def _(action: cs.PickLock, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "spend a Lockpick on this room's chest, library or prison"


@describe_action.register(cs.Mark)
def _(action: cs.Mark, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return "mark this Wayshrine"


@describe_action.register(cs.Claim)
def _(action: cs.Claim, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"buy a {action.item} for {state.pool.offer} gold (offer)"


@describe_action.register(cs.TurnTile)
def _(action: cs.TurnTile, game: CatacombsGame, state: cs.CatacombsState) -> str:
    return f"turn the tile to {action.turn} quarter turns"


@describe_action.register(st.Skip)
def _(action: st.Skip, game: CatacombsGame, state: cs.CatacombsState) -> str:
    """Declining a drawn tile puts it back; any other decline reads as Clank!'s."""
    if state.stack and type(state.stack[-1]) is cs.Discover:
        return "put the tile under the stack"
    return base.describe_action(action, game, state)


@singledispatch
def describe_event(event: Event, game: CatacombsGame, viewer: int | None) -> str | None:
    """Log lines for the events Catacombs adds; Clank!'s for the rest."""
    return base.describe_event(event, game, viewer)


@describe_event.register(cs.Discovered)
def _(event: cs.Discovered, game: CatacombsGame, viewer: int | None) -> str:
    where = f"(tile {event.place}) at {event.x},{event.y}"
    return f"{base.who(event)} places tile {event.tile} {where}, turned {event.turn}"


@describe_event.register(cs.Opened)
def _(event: cs.Opened, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} leaves a Lockpick on {event.where}"


@describe_event.register(cs.Marked)
def _(event: cs.Marked, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} marks the Wayshrine in room {event.room} for {event.gold} gold"


@describe_event.register(cs.Ghosted)
def _(event: cs.Ghosted, game: CatacombsGame, viewer: int | None) -> str:
    return "a Ghost joins the Clank! area"


@describe_event.register(cs.Lockpicks)
def _(event: cs.Lockpicks, game: CatacombsGame, viewer: int | None) -> str:
    n = event.n
    return f"{base.who(event)} " + (f"takes {n}" if n > 0 else f"returns {-n}") + " Lockpicks"


@describe_event.register(cs.Turned)
def _(event: cs.Turned, game: CatacombsGame, viewer: int | None) -> str:
    return f"tile {event.place} turns to {event.turn} quarter turns"


@describe_event.register(cs.DragonTurn)
def _(event: cs.DragonTurn, game: CatacombsGame, viewer: int | None) -> str:
    return f"{base.who(event)} has left: the dragon draws for its turn"


CELL = 14
"""Width of one grid cell in the text map."""


def grid(game: CatacombsGame, state: cs.CatacombsState, seat: int | None = None) -> str:
    """The placed tiles on their cells: each cell shows its tile and its rooms' ids.

    ``*`` marks the room where ``seat`` stands; the grid's rows run north to south.
    """
    graph = game.graph(state)
    here = state.players[seat].room if seat is not None else None
    rooms: dict[tuple[int, int], list[str]] = {}
    for r in graph.order:
        at = state.tiles[graph.tile_of[r]]
        local = graph.names[r].split(":")[1]
        cell = next(x.cell for x in game.cat.tiles[at.tile].rooms if x.id == local)
        rooms.setdefault((at.x, at.y + cell), []).append(f"{r}*" if r == here else str(r))
    xs = [x for x, _ in graph.cells]
    ys = [y for _, y in graph.cells]
    lines = []
    for y in range(min(ys), max(ys) + 1):
        top, bottom = [], []
        for x in range(min(xs), max(xs) + 1):
            i = graph.cells.get((x, y))
            if i is None:
                top.append(" " * CELL)
                bottom.append(" " * CELL)
                continue
            label = f"{i}:{state.tiles[i].tile}"[: CELL - 2]
            ids = ",".join(rooms.get((x, y), []))[: CELL - 2]
            top.append(f"[{label:<{CELL - 2}}]")
            bottom.append(f"[{ids:<{CELL - 2}}]")
        lines += ["".join(top).rstrip(), "".join(bottom).rstrip()]
    return "\n".join(lines)


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
    """A tile as printed, unturned: its rooms, then each edge tunnel with its side and icons."""
    tile = game.cat.tiles[tile_id]
    rooms = []
    for r in tile.rooms:
        said = [name.replace("_", " ") for name in FEATURES if getattr(r, name)]
        if r.artifact is not None:
            said.append("artifact room" + " +" * r.artifact)
        if r.reward:
            said.append(f"reward {r.reward}")
        rooms.append(f"{r.id}" + (f" ({', '.join(said)})" if said else ""))
    edges = [
        f"{h.side} from {h.room}" + (f": {icons}" if (icons := half_text(h)) else "")
        for h in tile.edges
    ]
    kind = tile.back + (", haunted" if tile.haunted else "")
    return (
        f"tile {tile.id} ({kind}): rooms {'; '.join(rooms)}; "
        f"edge tunnels (unturned; each quarter turn moves n to e) {'; '.join(edges)}"
    )


def render(game: CatacombsGame, view: cs.CatacombsState, seat: int | None) -> Any:
    """Clank!'s table, then the dungeon grid, every room by tile, and the seat's way on."""
    graph = game.graph(view)
    parts: list[Any] = [base.render(game, view, seat), Text("Dungeon", style="bold")]
    parts.append(Text(grid(game, view, seat)))
    for i, at in enumerate(view.tiles):
        rooms = [r for r in graph.order if graph.tile_of[r] == i]
        parts.append(
            Text(
                f"tile {i} {at.tile} at {at.x},{at.y} turned {at.turn}: "
                + "; ".join(room_text(game, view, r) for r in rooms)
            )
        )
    parts.append(
        Text(
            f"Tile stack {len(view.tile_stack)}, artifacts "
            + ", ".join(base.name(game, a) for a in reversed(view.artifacts.cards))
            + f"; Ghosts beside {view.ghosts}, in the Clank! area {view.ghost_clank}; "
            f"Lockpicks in the bank {len(view.bank)}"
        )
    )
    frame = view.stack[-1] if view.stack else None
    if isinstance(frame, cs.Discover | cs.PlaceAnywhere):
        parts.append(Text("Drawn: " + tile_text(game, frame.tile), style="bold yellow"))
    if seat is not None:
        p = view.players[seat]
        parts.append(Text("Here: " + room_text(game, view, p.room), style="bold"))
        for e in graph.exits[p.room]:
            parts.append(
                Text(f"  exit to {room_name(game, view, e.to)}: {tunnel(game, view, e.tunnel)}")
            )
        for o in graph.opens.get(p.room, []):
            half = game.cat.tiles[view.tiles[o.place].tile].edges[o.half]
            parts.append(
                Text(
                    f"  open edge toward cell {o.cell[0]},{o.cell[1]}: {half_text(half) or 'plain'}"
                )
            )
        marks = view.marks[seat]
        parts.append(
            Text(
                f"Lockpicks {len(game.lockpicks(p))}, Wayshrines marked "
                + (", ".join(map(str, marks)) or "none")
            )
        )
    return Group(*parts)


def tunnel(game: CatacombsGame, state: cs.CatacombsState, t: int) -> str:
    """A tunnel's costs and icons, with how many of its locks are still closed."""
    shut = game.locks_to_open(state, t)
    return base.tunnel_text(game, state, t, f"{shut} lock(s) closed" if shut else "unlocked")
