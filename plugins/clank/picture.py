"""The map of a game on the Clank! engine as a picture (SVG), for the web page: rooms as
circles where the game places them, tunnels as lines between them with their marks, the
tokens lying in each room and the seats' pawns.

Clank!'s board tables give no room a place on the board (see :mod:`.drawing`), so
:func:`board_places` lays the rooms out in rows by their distance from the entrance, each
row ordered by where the rooms it is reached from lie; Catacombs places them on its tiles.
Everything drawn comes from the view: a face-down token is drawn as its back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from meeple.core.svg import Picture
from meeple.plugins.clank import drawing
from meeple.plugins.clank.catalog import Graph
from meeple.plugins.clank.content import Tunnel

if TYPE_CHECKING:
    from meeple.plugins.clank.rules import ClankEngine

Place = tuple[float, float]

RADIUS = 17
ROW, COLUMN, MARGIN = 96, 74, 40
"""The room circles' radius, the space between two rows and two rooms of a row, and the
margin around the map."""
GROUND, INK, DEPTHS = "#f3eee2", "#222", "#cfc6b4"
TOKEN_FILL = drawing.COLOURS["magenta"]
PAWN_COLOURS = tuple(drawing.COLOURS[c] for c in drawing.PAWN_COLOURS)
FEATURES = (
    ("start", "exit", "#222"),
    ("crystal_cave", "cave", "#008fa3"),
    ("market", "market", "#a07800"),
    ("heal", "heal", "#2e7d32"),
)
"""A Clank! room's feature, its word on the map and the word's colour."""
KEY = (
    "over a room: s, S a face-down minor, major secret; A10 an artifact worth 10; i a Monkey Idol",
    "on a tunnel: b a boot more, m a monster, k locked (dashed); a dot: one-way, toward it",
)
"""The map's key, under it."""


def board_places(graph: Graph) -> dict[int, Place]:
    """Each room's place: a row per distance from the entrance (rooms no tunnel reaches
    last), each row ordered by the mean place of its rooms' neighbours in the row above,
    then by room number, and centred."""
    far = drawing.distances(graph)
    unreached = max(far.values(), default=0) + 1
    rows: dict[int, list[int]] = {}
    for room in graph.order:
        rows.setdefault(far.get(room, unreached), []).append(room)
    near: dict[int, list[int]] = {r: [] for r in graph.order}
    for t in graph.tunnels:
        near[t.a].append(t.b)
        near[t.b].append(t.a)
    widest = max(len(rooms) for rooms in rows.values())
    places: dict[int, Place] = {}
    for depth, rooms in sorted(rows.items()):

        def above(room: int, depth: int = depth) -> tuple[float, int]:
            xs = [places[n][0] for n in near[room] if n in places and far.get(n) == depth - 1]
            return (sum(xs) / len(xs) if xs else 0.0, room)

        rooms.sort(key=above)
        left = MARGIN + (widest - len(rooms)) * COLUMN / 2
        for i, room in enumerate(rooms):
            places[room] = (left + i * COLUMN + RADIUS, MARGIN + depth * ROW + RADIUS)
    return places


class MapPicture:
    """The map of ``view`` as ``seat`` sees it, drawn on a :class:`Picture` with each room at
    its place in ``places``. ``features(room)`` gives the words under a room, and
    ``closed(k, tunnel)`` whether tunnel ``k`` is locked now."""

    def __init__(
        self,
        game: ClankEngine[Any],
        view: Any,
        seat: int | None,
        places: Mapping[int, Place],
        features: Callable[[int], list[tuple[str, str]]],
        closed: Callable[[int, Tunnel], bool],
    ) -> None:
        self.game, self.view, self.seat = game, view, seat
        self.graph = game.graph(view)
        self.places, self.features, self.closed = places, features, closed

    def draw(self, pic: Picture, skip: frozenset[int] = frozenset()) -> None:
        """The tunnels (but those numbered in ``skip``), then the rooms over them."""
        for k, t in enumerate(self.graph.tunnels):
            if k not in skip:
                self.tunnel(pic, k, t)
        for room in self.graph.order:
            self.room(pic, room)

    def tunnel(self, pic: Picture, k: int, t: Tunnel) -> None:
        """A line between its rooms, an arrow on it for a one-way tunnel, its marks (a boot
        more, monsters, a closed lock) at its middle."""
        (ax, ay), (bx, by) = self.places[t.a], self.places[t.b]
        group = pic.add("g")
        closed = self.closed(k, t)
        pic.add("line", group, x1=ax, y1=ay, x2=bx, y2=by, stroke=INK, stroke_width=2,
                stroke_dasharray="6 4" if closed else None)  # fmt: skip
        mx, my = (ax + bx) / 2, (ay + by) / 2
        if t.one_way:
            pic.add("circle", group, cx=ax + (bx - ax) * 0.7, cy=ay + (by - ay) * 0.7, r=4,
                    fill=INK)  # fmt: skip
        marks = "b" * (t.boots - 1) + "m" * t.monsters + ("k" if closed else "")
        if marks:
            pic.add("rect", group, x=mx - 4 * len(marks) - 3, y=my - 8, width=8 * len(marks) + 6,
                    height=16, rx=3, fill="#fff", stroke=INK)  # fmt: skip
            pic.label(mx, my, marks, group, font_size=12, fill=drawing.COLOURS["red"],
                      font_weight="bold")  # fmt: skip

    def room(self, pic: Picture, room: int) -> None:
        """A circle with the room's number, its features under it, the tokens lying there
        above it and the pawns of the seats still in the dungeon standing there around it;
        ringed where ``seat`` stands."""
        x, y = self.places[room]
        graph, view = self.graph, self.view
        group = pic.add("g")
        depths = room in graph.depths
        here = [s for s, p in enumerate(view.players) if p.room == room and p.status == "in"]
        yours = self.seat is not None and self.seat in here
        pic.add("circle", group, cx=x, cy=y, r=RADIUS, fill=DEPTHS if depths else "#fff",
                stroke=INK, stroke_width=4 if yours else 1.5)  # fmt: skip
        pic.label(x, y, str(room), group, font_size=14, font_weight="bold", fill=INK)
        words = self.features(room)
        for i, (word, colour) in enumerate(words):
            pic.label(x, y + RADIUS + 9 + 11 * i, word, group, font_size=10, fill=colour)
        tokens = view.rooms[graph.index[room]].cards
        if tokens:
            said = ", ".join(drawing.token_mark(t) for t in tokens)
            pic.label(x, y - RADIUS - 9, said, group, font_size=11, fill=TOKEN_FILL,
                      font_weight="bold")  # fmt: skip
        for i, s in enumerate(here):
            px, py = x + RADIUS + 2 + 10 * (i % 2), y - RADIUS / 2 + 10 * (i // 2)
            pic.add("circle", group, cx=px, cy=py, r=6, fill=PAWN_COLOURS[s % len(PAWN_COLOURS)],
                    stroke=INK)  # fmt: skip
            pic.label(px, py, str(s), group, font_size=8, fill=INK)


def key(pic: Picture, y: float) -> None:
    """:data:`KEY`, a line each from ``y`` down."""
    for i, line in enumerate(KEY):
        pic.add("text", text=line, x=8, y=y + 16 * i, font_size=11, fill=INK)


def board_picture(game: ClankEngine[Any], view: Any, seat: int | None) -> str:
    """Clank!'s board as ``seat`` sees it (:func:`board_places`)."""
    graph = game.graph(view)
    places = board_places(graph)
    width = max(x for x, _ in places.values()) + RADIUS + MARGIN
    bottom = max(y for _, y in places.values()) + RADIUS + MARGIN
    height = bottom + 16 * len(KEY)
    pic = Picture(width, height, f"{graph.board.name}: rooms by tunnels from the entrance")
    pic.add("rect", width=width, height=height, fill=GROUND)
    key(pic, bottom)

    def features(room: int) -> list[tuple[str, str]]:
        r = graph.rooms[room]
        return [(word, colour) for attr, word, colour in FEATURES if getattr(r, attr)]

    MapPicture(game, view, seat, places, features, lambda k, t: t.locked).draw(pic)
    return str(pic)
