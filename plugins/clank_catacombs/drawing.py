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
COLOURS = base.COLOURS
FEATURES = (
    ("crypt", base.ENTRANCE, "bold"),
    ("crystal_cave", "*", COLOURS["cyan"]),
    ("market", "$", COLOURS["yellow"]),
    ("portal", "O", COLOURS["blue"]),
    ("wayshrine", "W", COLOURS["green"]),
    ("chest", "C", COLOURS["yellow"]),
    ("library", "L", COLOURS["yellow"]),
    ("prison", "P", COLOURS["yellow"]),
    ("monkey_shrine", "I", COLOURS["magenta"]),
)
"""A tile room's feature, its mark and the mark's colour."""
ARTIFACT = COLOURS["magenta"]
REWARD = COLOURS["green"]
EDGE = f"bold {COLOURS['yellow']}"
"""The colours of an artifact room's mark, of a reward's and of :data:`UNEXPLORED`."""
REWARDS = {"minor": "r", "idol": "ri", "gold": "g", "heal": "+"}
"""The mark of a room's reward on entering (gold followed by how much)."""
UNEXPLORED = "?"
WAYS = {(1, 0): ("─", "→", "←"), (0, 1): ("│", "↓", "↑")}
"""A tunnel across a cell edge, east or south of a cell: both ways, one way forward (east,
south), one way back."""

LEGEND: tuple[tuple[str | Text, str], ...] = (
    ("┌2:light-3─┐", "grid cell of placed tile 2 (tile light-3), its rooms inside"),
    (Text(base.ENTRANCE, "bold"), "the Crypt: leave the dungeon here (with an artifact)"),
    (Text("underlined room", "underline"), "a room in the depths"),
    *((Text(mark, style), attr.replace("_", " ")) for attr, mark, style in FEATURES[1:]),
    (Text("A A+ A++", ARTIFACT), "an artifact room, with its plus icons"),
    (Text("r", REWARD), "a minor secret as reward on entering"),
    (Text("ri", REWARD), "a Monkey Idol as reward on entering"),
    (Text("g2", REWARD), "2 gold as reward on entering"),
    (Text("+", REWARD), "one healing as reward on entering"),
    (
        Text("s S A10 i t", base.TOKEN),
        "tokens lying there: secrets, an artifact, a Monkey Idol, another",
    ),
    base.PAWNS_KEY,
    (Text("reversed room", base.YOU), "the room you stand in"),
    ("─ │", "a tunnel between the rooms of two cells"),
    ("→ ← ↓ ↑", "a one-way tunnel, the way it may be walked"),
    *((Text(mark, style), meaning) for mark, style, meaning in base.TUNNEL_MARKS[:2]),
    (Text("k", base.TUNNEL_MARKS[2][1]), "a closed lock: a Lockpick or a Master Key opens it"),
    (Text(UNEXPLORED, EDGE), "a tunnel off the map, into a cell not discovered yet"),
    ("- | > < v ^ *", "the narrow grid: tunnels, one-way tunnels, your room"),
)
"""Every mark of the dungeon map (:func:`draw`) and of the narrow grid it falls back to."""


def features(room: TileRoom) -> Text:
    """A room's marks on the map: its features, artifact room and reward."""
    label = Text()
    for attr, mark, style in FEATURES:
        if getattr(room, attr):
            label.append(mark, style=style)
    if room.artifact is not None:
        label.append("A" + "+" * room.artifact, style=ARTIFACT)
    if room.reward:
        extra = str(room.reward_n) if room.reward == "gold" else ""
        label.append(REWARDS[room.reward] + extra, style=REWARD)
    return label


def room_line(game: CatacombsGame, view: cs.CatacombsState, room: int, seat: int | None) -> Text:
    """``7W s 0``: a room's id, its marks, the tokens there and the pawns in it."""
    graph = game.graph(view)
    label = Text().append(str(room), style="underline" if room in graph.depths else "")
    label.append_text(features(graph.features[room]))
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


class Dungeon:
    """One drawing of the dungeon on a :class:`Canvas`: a box per occupied cell, with a gap
    east and south of each for the tunnels across its edges."""

    WIDE, HIGH = INNER + 2 + GAP, LINES + 3
    """The columns and lines of one cell: its box and the gaps after it."""

    def __init__(self, game: CatacombsGame, view: cs.CatacombsState, seat: int | None) -> None:
        self.game, self.view, self.seat = game, view, seat
        self.graph = game.graph(view)
        self.cell_of = room_cells(game, view)
        xs = [x for x, _ in self.graph.cells]
        ys = [y for _, y in self.graph.cells]
        self.left, self.top = min(xs), min(ys)
        self.canvas = Canvas(
            (max(xs) - self.left + 1) * self.WIDE, (max(ys) - self.top + 1) * self.HIGH
        )

    def corner(self, cell: Cell) -> Cell:
        """The canvas column and line of a cell's box's top left corner."""
        return (cell[0] - self.left) * self.WIDE, (cell[1] - self.top) * self.HIGH

    def boxes(self) -> None:
        """Each cell's box: its tile's placement and name on top, a room a line."""
        graph, put = self.graph, self.canvas.put
        rows: dict[Cell, list[int]] = {}
        for r in graph.order:
            rows.setdefault(self.cell_of[r], []).append(r)
        for cell, place in graph.cells.items():
            x, y = self.corner(cell)
            title = f"{place}:{self.view.tiles[place].tile}"[:INNER]
            put(x, y, "┌" + title.ljust(INNER, "─") + "┐")
            for i in range(LINES):
                put(x, y + 1 + i, "│" + " " * INNER + "│")
            put(x, y + LINES + 1, "└" + "─" * INNER + "┘")
            for i, r in enumerate(rows.get(cell, ())):
                put(x + 1, y + 1 + i, room_line(self.game, self.view, r, self.seat))

    def tunnels(self) -> None:
        """Each tunnel between the rooms of two neighbouring cells, in the gap between their
        boxes: its line or arrow, then its marks; several across one edge side by side."""
        across: dict[tuple[Cell, Cell], int] = {}
        for k, t in enumerate(self.graph.tunnels):
            if k in self.graph.trips:
                continue
            a, b = self.cell_of[t.a], self.cell_of[t.b]
            way = WAYS.get((abs(b[0] - a[0]), abs(b[1] - a[1])))
            if way is None:
                continue
            first, second = min(a, b), max(a, b)
            forward = a == first  # a one-way tunnel runs from ``t.a`` to ``t.b``
            mark = Text(way[0] if not t.one_way else way[1 if forward else 2])
            closed = bool(self.game.locks_to_open(self.view, k))
            base.add_marks(mark, t.boots, t.monsters, closed)
            n = across[first, second] = across.get((first, second), -1) + 1
            x, y = self.corner(first)
            if second[0] > first[0]:  # east: in the gap, on a room line
                if len(mark) > GAP and not t.one_way:
                    mark = mark[1:]  # the marks matter more than the line
                self.canvas.put(x + INNER + 2, y + 1 + min(n, LINES - 1), mark[:GAP])
            else:  # south: under the box
                self.canvas.put(x + 2 + 5 * min(n, 2), y + LINES + 2, mark)

    def unexplored(self) -> None:
        """:data:`UNEXPLORED` on a box's side where a tunnel leads into an empty cell (on the
        top border, right of the tile's name); two openings of a side apart."""
        for opens in self.graph.opens.values():
            for o in opens:
                dx, dy = STEP[o.side]
                x, y = self.corner((o.cell[0] + dx, o.cell[1] + dy))
                side = OPPOSITE[o.side]  # of the room's cell, toward the empty one
                ox, oy = {
                    "n": (INNER - 1, 0),
                    "s": (1 + INNER // 2, LINES + 1),
                    "w": (0, 1 + LINES // 2),
                    "e": (INNER + 1, 1 + LINES // 2),
                }[side]
                shift = 0 if o.pos is None else (-1 if o.pos == 0 else 1)
                ox, oy = (ox + shift, oy) if side in "ns" else (ox, oy + shift)
                self.canvas.put(x + ox, y + oy, Text(UNEXPLORED, style=EDGE))


def draw(game: CatacombsGame, view: cs.CatacombsState, seat: int | None) -> list[Text]:
    """The dungeon, a box per occupied cell, north on top."""
    dungeon = Dungeon(game, view, seat)
    dungeon.boxes()
    dungeon.tunnels()
    dungeon.unexplored()
    return dungeon.canvas.lines()
