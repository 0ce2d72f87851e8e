"""The Catacombs dungeon drawn as text: each grid cell of a placed tile as a box holding its
rooms (features, tokens, pawns), the tunnels across cell edges between the boxes, and ``?``
on a box's side where a tunnel leads off the map into a cell not yet discovered.

Tunnels inside one cell are not drawn; the tile lines under the map list every tunnel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from meeple.plugins.clank import drawing as base
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.board import OPPOSITE, STEP
from meeple.plugins.clank_catacombs.tiles import TileRoom

if TYPE_CHECKING:
    from meeple.plugins.clank_catacombs.rules import CatacombsGame

Cell = tuple[int, int]

WIDTH = 100
"""The widest the boxes are drawn, whatever the terminal."""
INNER = 14
"""A box's width inside its borders."""
LINES = 3
"""A box's room lines (a cell holds three rooms at most)."""
GAP = 4
"""The columns between two boxes side by side, where tunnels across show."""
FEATURES = (
    ("crypt", base.ENTRANCE, "bold"),
    ("crystal_cave", "*", "cyan"),
    ("market", "$", "yellow"),
    ("portal", "O", "blue"),
    ("wayshrine", "W", "green"),
    ("chest", "C", "yellow"),
    ("library", "L", "yellow"),
    ("prison", "P", "yellow"),
    ("monkey_shrine", "I", "magenta"),
)
"""A tile room's feature, its mark and the mark's colour."""
REWARDS = {"minor": "r", "idol": "ri", "gold": "g", "heal": "+"}
"""The mark of a room's reward on entering (gold followed by how much)."""
UNEXPLORED = "?"
WAYS = {(1, 0): ("─", "→", "←"), (0, 1): ("│", "↓", "↑")}
"""A tunnel across a cell edge, east or south of a cell: both ways, one way forward (east,
south), one way back."""

LEGEND: tuple[tuple[str, str], ...] = (
    ("┌2:light-3─┐", "grid cell of placed tile 2 (tile light-3), its rooms inside"),
    (base.ENTRANCE, "the Crypt: leave the dungeon here (with an artifact)"),
    ("underlined room", "a room in the depths"),
    *((mark, attr.replace("_", " ")) for attr, mark, _ in FEATURES[1:]),
    ("A A+ A++", "an artifact room, with its plus icons"),
    ("r", "a minor secret as reward on entering"),
    ("ri", "a Monkey Idol as reward on entering"),
    ("g2", "2 gold as reward on entering"),
    ("+", "one healing as reward on entering"),
    ("s S A10 i t", "tokens lying there: secrets, an artifact, a Monkey Idol, another"),
    ("0 1 2 3", "the seats' pawns, each in its seat's colour (red, blue, green, yellow)"),
    ("reversed room", "the room you stand in"),
    ("─ │", "a tunnel between the rooms of two cells"),
    ("→ ← ↓ ↑", "a one-way tunnel, the way it may be walked"),
    *((mark, meaning) for mark, _, meaning in base.TUNNEL_MARKS[:2]),
    ("k", "a closed lock: a Lockpick or a Master Key opens it"),
    (UNEXPLORED, "a tunnel off the map, into a cell not discovered yet"),
    ("- | > < v ^ *", "the narrow grid: tunnels, one-way tunnels, your room"),
)
"""Every mark of the dungeon map (:func:`draw`) and of the narrow grid it falls back to."""


def features(room: TileRoom, depths: bool) -> Text:
    """A room's marks on the map: its features, artifact room and reward."""
    label = Text()
    for attr, mark, style in FEATURES:
        if getattr(room, attr):
            label.append(mark, style=style)
    if room.artifact is not None:
        label.append("A" + "+" * room.artifact, style="magenta")
    if room.reward:
        extra = str(room.reward_n) if room.reward == "gold" else ""
        label.append(REWARDS[room.reward] + extra, style="green")
    return label


def room_line(game: CatacombsGame, view: cs.CatacombsState, room: int, seat: int | None) -> Text:
    """``7W s 0``: a room's id, its marks, the tokens there and the pawns in it."""
    graph = game.graph(view)
    label = Text(str(room), style="underline" if room in graph.depths else "")
    label.append_text(features(graph.features[room], room in graph.depths))
    base.add_tokens(label, view.rooms[room].cards)
    base.add_pawns(label, view, room)
    label.truncate(INNER)
    return base.mark_yours(label, view, room, seat)


class Canvas:
    """A grid of characters, each keeping its style, turned into lines of text."""

    def __init__(self, width: int, height: int) -> None:
        self.rows = [[Text(" ")] * width for _ in range(height)]

    def put(self, x: int, y: int, text: Text | str) -> None:
        """``text`` from column ``x`` of line ``y``, over what was there."""
        text = Text(text) if isinstance(text, str) else text
        self.rows[y][x : x + len(text)] = [text[i : i + 1] for i in range(len(text))]

    def lines(self) -> list[Text]:
        out = []
        for row in self.rows:
            line = Text.assemble(*row)
            line.rstrip()
            out.append(line)
        return out


def room_cells(game: CatacombsGame, state: cs.CatacombsState) -> list[Cell]:
    """The grid cell each room lies in, by room id."""
    graph = game.graph(state)
    cells = []
    for r in graph.order:
        at = state.tiles[graph.tile_of[r]]
        local = graph.names[r].split(":")[1]
        cell = next(x.cell for x in game.cat.tiles[at.tile].rooms if x.id == local)
        cells.append((at.x, at.y + cell))
    return cells


def draw(game: CatacombsGame, view: cs.CatacombsState, seat: int | None) -> list[Text]:
    """The dungeon, a box per occupied cell, north on top."""
    graph = game.graph(view)
    cell_of = room_cells(game, view)
    xs = [x for x, _ in graph.cells]
    ys = [y for _, y in graph.cells]
    width, height = INNER + 2 + GAP, LINES + 3  # a box and the gap after it
    canvas = Canvas((max(xs) - min(xs) + 1) * width, (max(ys) - min(ys) + 1) * height)

    def corner(cell: Cell) -> Cell:
        return (cell[0] - min(xs)) * width, (cell[1] - min(ys)) * height

    rows: dict[Cell, list[int]] = {}
    for r in graph.order:
        rows.setdefault(cell_of[r], []).append(r)
    for cell, place in graph.cells.items():
        x, y = corner(cell)
        title = f"{place}:{view.tiles[place].tile}"[:INNER]
        canvas.put(x, y, "┌" + title.ljust(INNER, "─") + "┐")
        for i in range(LINES):
            canvas.put(x, y + 1 + i, "│" + " " * INNER + "│")
        canvas.put(x, y + LINES + 1, "└" + "─" * INNER + "┘")
        for i, r in enumerate(rows.get(cell, ())):
            canvas.put(x + 1, y + 1 + i, room_line(game, view, r, seat))
    across: dict[tuple[Cell, Cell], int] = {}
    for k, t in enumerate(graph.tunnels):
        if k in graph.trips:
            continue
        a, b = cell_of[t.a], cell_of[t.b]
        way = WAYS.get((abs(b[0] - a[0]), abs(b[1] - a[1])))
        if way is None:
            continue
        first, second = min(a, b), max(a, b)
        forward = a == first  # a one-way tunnel runs from ``t.a`` to ``t.b``
        mark = Text(way[0] if not t.one_way else way[1 if forward else 2])
        base.add_marks(mark, t.boots, t.monsters, bool(game.locks_to_open(view, k)))
        n = across[first, second] = across.get((first, second), -1) + 1
        x, y = corner(first)
        if second[0] > first[0]:  # east of ``first``: in the gap, on a room line
            canvas.put(x + INNER + 2, y + 1 + min(n, LINES - 1), mark[: GAP - 1])
        else:  # south: below the box's bottom border
            canvas.put(x + 2 + 5 * min(n, 2), y + LINES + 2, mark)
    for opens in graph.opens.values():
        for o in opens:
            dx, dy = STEP[o.side]
            x, y = corner((o.cell[0] + dx, o.cell[1] + dy))
            side = OPPOSITE[o.side]  # of the room's cell, toward the empty one
            # North to the right of the tile's name, which the top border holds.
            middle = {"n": (INNER - 1, 0), "s": (1 + INNER // 2, LINES + 1)}
            middle |= {"w": (0, 1 + LINES // 2), "e": (INNER + 1, 1 + LINES // 2)}
            ox, oy = middle[side]
            shift = 0 if o.pos is None else (-1 if o.pos == 0 else 1)
            ox, oy = (ox + shift, oy) if side in "ns" else (ox, oy + shift)
            canvas.put(x + ox, y + oy, Text(UNEXPLORED, style="bold yellow"))
    return canvas.lines()
