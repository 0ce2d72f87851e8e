"""The Clank! board drawn as text: every room by its distance from the entrance, with its
features, the tokens lying there, the pawns in it and its tunnels with their costs.

No public transcription gives the rooms' places on the board: of the sources in
``seeds/clank/board-*.json``, kevinkey/klank lists rooms and tunnels only, and
eseidel/clank lib/graph.dart puts the front side's rooms in seven rows without columns and
has no back side. So the map lays both sides' rooms out by how many tunnels separate them
from the entrance: one line per distance, the entrance on top, each room followed by the
rooms its tunnels lead to. Reading upwards is the way out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from meeple.core.zones import HIDDEN
from meeple.plugins.clank.catalog import Graph
from meeple.plugins.clank.content import Tunnel

if TYPE_CHECKING:
    from meeple.plugins.clank.part import S
    from meeple.plugins.clank.rules import ClankEngine

WIDTH = 100
"""The widest the map is drawn, whatever the terminal."""
COLOURS = {
    "red": "#f44336",
    "blue": "#3d5afe",
    "green": "#4caf50",
    "yellow": "#ffeb3b",
    "cyan": "#00e5ff",
    "magenta": "#e040fb",
}
"""Every colour the table draws, by name. A terminal draws a named colour (``red``) as its
theme has it, and Textual's draws red and magenta alike; these are drawn alike everywhere,
and far apart (a terminal of fewer colours gets the nearest it has, still all different)."""
PAWN_COLOURS = ("red", "blue", "green", "yellow")
PAWNS = tuple(f"bold {COLOURS[c]}" for c in PAWN_COLOURS)
"""Each seat's pawn colour, by seat."""
TOKEN = COLOURS["magenta"]
"""The colour of the tokens lying in rooms."""
YOU = "reverse bold"
ENTRANCE = "⌂"
FEATURES = (
    ("crystal_cave", "*", COLOURS["cyan"]),
    ("market", "$", COLOURS["yellow"]),
    ("heal", "+", COLOURS["green"]),
)
"""A room feature's attribute, its mark and the mark's colour."""
TOKENS = {f"{HIDDEN}minor": "s", f"{HIDDEN}major": "S", "monkey-idol": "i"}
"""The marks of the tokens lying in rooms; an artifact reads ``A`` and its value."""
TUNNEL_MARKS = (
    ("b", COLOURS["cyan"], "one boot more: the tunnel costs 2 boots"),
    ("m", COLOURS["red"], "a monster in the tunnel: 1 damage unless a sword is spent"),
    ("k", COLOURS["yellow"], "locked: only a Master Key opens it"),
)
ONE_WAY = ("→", "one-way tunnel out of the room"), ("←", "one-way tunnel into the room only")
PAWNS_KEY = (
    Text(" ").join(Text(str(s), style) for s, style in enumerate(PAWNS)),
    f"the seats' pawns, each in its seat's colour ({', '.join(PAWN_COLOURS)})",
)
"""The legend's line of the pawns, drawn in their colours."""

LEGEND: tuple[tuple[str | Text, str], ...] = (
    ("[12]", "room 12; the number after it in a line: a tunnel from it to that room"),
    ("0 │", "the rooms that many tunnels from the entrance, each with its tunnels"),
    (Text(ENTRANCE, "bold"), "the entrance: leave the dungeon here (with an artifact)"),
    (Text("underlined room", "underline"), "a room in the depths"),
    *((Text(mark, style), attr.replace("_", " ")) for attr, mark, style in FEATURES),
    (Text("s", TOKEN), "a face-down minor secret"),
    (Text("S", TOKEN), "a face-down major secret"),
    (Text("A10", TOKEN), "an artifact worth 10 points"),
    (Text("i", TOKEN), "a Monkey Idol"),
    (Text("t", TOKEN), "another token lying in the room"),
    PAWNS_KEY,
    (Text("reversed room", YOU), "the room you stand in"),
    *ONE_WAY,
    *((Text(mark, style), meaning) for mark, style, meaning in TUNNEL_MARKS),
)
"""Every mark of the board map (:func:`room_label`, :func:`tunnel_label`), as it is drawn."""


def distances(graph: Graph) -> dict[int, int]:
    """Each room's number of tunnels from the entrance, either way through each."""
    near: dict[int, list[int]] = {r: [] for r in graph.order}
    for t in graph.tunnels:
        near[t.a].append(t.b)
        near[t.b].append(t.a)
    far = {graph.start: 0}
    todo = deque([graph.start])
    while todo:
        room = todo.popleft()
        for to in near[room]:
            if to not in far:
                far[to] = far[room] + 1
                todo.append(to)
    return far


def token_mark(piece: str) -> str:
    """A token lying in a room as the map marks it (:data:`TOKENS`, ``A10``, ``t``)."""
    if piece.startswith("artifact-"):
        return "A" + piece.removeprefix("artifact-")
    kind = piece if piece.startswith(HIDDEN) else piece.rsplit("-", 1)[0]
    return TOKENS.get(kind, "t")


def room_label(game: ClankEngine[S], view: S, room: int, seat: int | None) -> Text:
    """``[10* ss 0]``: a room, its features, the tokens there and the pawns in it; reversed
    where ``seat`` stands, underlined in the depths."""
    graph = game.graph(view)
    r = graph.rooms[room]
    label = Text("[")
    label.append(str(room), style="underline" if r.depths else "")
    if r.start:
        label.append(ENTRANCE, style="bold")
    for attr, mark, style in FEATURES:
        if getattr(r, attr):
            label.append(mark, style=style)
    add_tokens(label, view.rooms[graph.index[room]].cards)
    add_pawns(label, view, room)
    label.append("]")
    return mark_yours(label, view, room, seat)


def add_tokens(label: Text, tokens: Iterable[str]) -> None:
    """The marks of the tokens lying in a room, after a space (none if it holds none)."""
    marks = "".join(map(token_mark, tokens))
    if marks:
        label.append(" " + marks, style=TOKEN)


def add_pawns(label: Text, view: Any, room: int) -> None:
    """The pawns of the seats still in the dungeon standing in ``room``, in their colours."""
    for s, p in enumerate(view.players):
        if p.room == room and p.status == "in":
            label.append(" ")
            label.append(str(s), style=PAWNS[s % len(PAWNS)])


def mark_yours(label: Text, view: Any, room: int, seat: int | None) -> Text:
    """``label`` reversed if ``seat`` stands in ``room``."""
    if seat is not None and view.players[seat].room == room:
        label.stylize(YOU)
    return label


def add_marks(label: Text, boots: int, monsters: int, locked: bool) -> Text:
    """A tunnel's marks (:data:`TUNNEL_MARKS`): a boot more, its monsters, a closed lock."""
    for (mark, style, _), n in zip(TUNNEL_MARKS, (boots - 1, monsters, int(locked)), strict=True):
        label.append(mark * n, style=style)
    return label


def tunnel_label(t: Tunnel, room: int) -> Text:
    """A tunnel seen from ``room``: the room it leads to, an arrow if one-way, its marks."""
    out = t.b if t.a == room else t.a
    way = "" if not t.one_way else ONE_WAY[0][0] if t.a == room else ONE_WAY[1][0]
    return add_marks(Text(f"{way}{out}"), t.boots, t.monsters, t.locked)


def entries(game: ClankEngine[S], view: S, seat: int | None) -> dict[int, list[Text]]:
    """Each line's rooms, by distance, each with its tunnels."""
    graph = game.graph(view)
    far = distances(graph)
    lines: dict[int, list[Text]] = {}
    for room in sorted(graph.order, key=lambda r: (far.get(r, len(far)), r)):
        entry = room_label(game, view, room, seat)
        for t in graph.tunnels:
            if room in (t.a, t.b):
                entry.append(" ")
                entry.append(tunnel_label(t, room))
        lines.setdefault(far.get(room, len(far)), []).append(entry)
    return lines


def way_out(game: ClankEngine[S], view: S, seat: int) -> list[int] | None:
    """The fewest tunnels the seat may walk from its room to the entrance: one-way tunnels
    forwards only, locked ones only with a Master Key (``None`` when none leads out)."""
    graph = game.graph(view)
    p = view.players[seat]
    start = p.room
    came: dict[int, int] = {start: start}
    todo = deque([start])
    while todo:
        room = todo.popleft()
        if room == graph.start:
            path = [room]
            while path[-1] != start:
                path.append(came[path[-1]])
            return path[::-1]
        for e in graph.exits[room]:
            if e.to not in came and game.passable(view, p, e, False):
                came[e.to] = room
                todo.append(e.to)
    return None


def pack(lines: dict[int, list[Text]], width: int) -> list[Text]:
    """The map's lines: each distance's rooms side by side, wrapped within ``width``."""
    gutter = len(str(max(lines, default=0)))
    out: list[Text] = []
    for far, rooms in sorted(lines.items()):
        line = Text().append(f"{far:>{gutter}} │ ", style="dim")
        for entry in rooms:
            if line.cell_len + entry.cell_len > width and line.cell_len > gutter + 3:
                line.rstrip()
                out.append(line)
                line = Text().append(" " * gutter + " │ ", style="dim")
            line.append_text(entry)
            line.append("  ")
        line.rstrip()
        out.append(line)
    return out


class BoardMap:
    """The board as :func:`pack` lays it out, within the terminal's width and
    :data:`WIDTH`, then the seat's way out."""

    def __init__(self, game: ClankEngine[Any], view: Any, seat: int | None) -> None:
        self.game, self.view, self.seat = game, view, seat

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        game, view, seat = self.game, self.view, self.seat
        board = game.graph(view).board.name
        yield Text(f"{board}: rooms by tunnels from the entrance", style="bold")
        yield from pack(entries(game, view, seat), min(options.max_width, WIDTH))
        if seat is None or view.players[seat].status != "in":
            return
        path = way_out(game, view, seat)
        if path is not None and len(path) == 1:
            yield Text("You are at the entrance")
        else:
            yield Text("Your way out: " + (" → ".join(map(str, path or ())) or "none to walk"))
