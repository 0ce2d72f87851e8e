"""The Catacombs dungeon as a picture (SVG), for the web page: each grid cell of a placed
tile as a square titled by its tile, its rooms inside it, the tunnels between the rooms
(:class:`meeple.plugins.clank.picture.MapPicture`), and ``?`` on a square's side where a
tunnel leads into a cell not discovered yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.svg import Picture
from meeple.plugins.clank import picture as base
from meeple.plugins.clank.content import Tunnel
from meeple.plugins.clank_catacombs import drawing
from meeple.plugins.clank_catacombs import state as cs
from meeple.plugins.clank_catacombs.board import OPPOSITE, STEP

if TYPE_CHECKING:
    from meeple.plugins.clank_catacombs.rules import CatacombsGame

CELL = 190
"""A grid cell's side in the picture."""
SPOTS = {
    1: ((0.5, 0.5),),
    2: ((0.28, 0.5), (0.72, 0.5)),
    3: ((0.25, 0.35), (0.75, 0.35), (0.5, 0.72)),
}
"""Where the rooms of a cell lie in it, by how many it holds (a cell holds three at most)."""
READABLE = {"bold": base.INK, drawing.COLOURS["yellow"]: "#a07800"}
"""The text map's marks' colours that do not read on the picture's light ground, and theirs."""
SIDE_SPOTS = {"n": (0.5, 0.0), "e": (1.0, 0.5), "s": (0.5, 1.0), "w": (0.0, 0.5)}


def room_words(game: CatacombsGame, view: cs.CatacombsState, room: int) -> list[tuple[str, str]]:
    """A room's features in words, then its artifact room and its reward, each in its
    colour."""
    features = game.graph(view).features[room]
    words = [
        (attr.replace("_", " "), READABLE.get(colour, colour))
        for attr, _, colour in drawing.FEATURES
        if getattr(features, attr)
    ]
    if features.artifact is not None:
        words.append(("artifact" + "+" * features.artifact, drawing.ARTIFACT))
    if features.reward:
        gold = f" {features.reward_n}" if features.reward == "gold" else ""
        words.append((f"reward: {features.reward}{gold}", drawing.REWARD))
    return words


def dungeon_picture(game: CatacombsGame, view: cs.CatacombsState, seat: int | None) -> str:
    """The dungeon as ``seat`` sees it, north on top."""
    graph = game.graph(view)
    cell_of = drawing.room_cells(game, view)
    left = min(x for x, _ in graph.cells)
    top = min(y for _, y in graph.cells)
    columns = max(x for x, _ in graph.cells) - left + 1
    rows = max(y for _, y in graph.cells) - top + 1
    width = columns * CELL + 2 * base.MARGIN
    bottom = rows * CELL + 2 * base.MARGIN
    pic = Picture(width, bottom + 16 * len(base.KEY), "Catacombs: the tiles placed so far")
    pic.add("rect", width=width, height=bottom + 16 * len(base.KEY), fill=base.GROUND)

    def corner(cell: tuple[int, int]) -> tuple[float, float]:
        return base.MARGIN + (cell[0] - left) * CELL, base.MARGIN + (cell[1] - top) * CELL

    for cell, place in graph.cells.items():
        x, y = corner(cell)
        pic.add("rect", x=x + 2, y=y + 2, width=CELL - 4, height=CELL - 4, rx=8, fill="#e6dcc6",
                stroke="#8c8778")  # fmt: skip
        pic.add("text", text=f"{place}: {view.tiles[place].tile}", x=x + 8, y=y + 16,
                font_size=11, fill="#555")  # fmt: skip
    in_cell: dict[tuple[int, int], list[int]] = {}
    for room in graph.order:
        in_cell.setdefault(cell_of[graph.index[room]], []).append(room)
    places: dict[int, base.Place] = {}
    for cell, rooms in in_cell.items():
        x, y = corner(cell)
        for room, (fx, fy) in zip(rooms, SPOTS[min(len(rooms), 3)], strict=False):
            places[room] = (x + fx * CELL, y + fy * CELL)
    for opens in graph.opens.values():
        for o in opens:
            dx, dy = STEP[o.side]
            x, y = corner((o.cell[0] + dx, o.cell[1] + dy))
            fx, fy = SIDE_SPOTS[OPPOSITE[o.side]]
            shift = 0.0 if o.pos is None else (-0.2 if o.pos == 0 else 0.2)
            fx, fy = (fx + shift, fy) if fy in (0.0, 1.0) else (fx, fy + shift)
            pic.label(x + fx * CELL, y + fy * CELL, drawing.UNEXPLORED, font_size=18,
                      font_weight="bold", fill="#b07800")  # fmt: skip

    def closed(k: int, t: Tunnel) -> bool:
        return bool(game.locks_to_open(view, k))

    def words(room: int) -> list[tuple[str, str]]:
        return room_words(game, view, room)

    base.MapPicture(game, view, seat, places, words, closed).draw(pic, graph.trips)
    base.key(pic, bottom)
    return str(pic)
