"""Exact Clonk! situations: a quiet table mid-game, custom card tables, short drivers.

``build`` is :func:`meeple.core.testing.scenario` on a table where only the cards a
test names are on offer: every other card lies where it harms nothing (Treasure cards
under the draw pile, Snore and Kablooey cards in their supplies).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from meeple.core import Frame
from meeple.core.scoring import Score
from meeple.core.testing import scenario
from meeple.core.turns import Turns
from meeple.plugins.clonk.rules import Clonk
from meeple.plugins.clonk.state import ClonkOptions, ClonkState, Unearth

BUILT_IN = resources.files("meeple.seeds").joinpath("clonk/cards.json")


def table(path: Path, values: Mapping[str, tuple[int, int]] = {}, **changes: object) -> str:
    """Write a card table where every Treasure card is worth 0 coins and 0 eyes but ``values``.

    ``values`` maps card ids to (coins, eyes); ``changes`` replace top-level
    fields. Returns the path, for ``ClonkOptions(cards=...)``.
    """
    data = json.loads(BUILT_IN.read_text())
    for t in data["treasures"]:
        t["coins"], t["eyes"] = values.get(f"{t['colour']}-{t['type']}-{t['copy']}", (0, 0))
    data.update(changes)
    path.write_text(json.dumps(data))
    return str(path)


def build(
    game: Clonk,
    fields: Mapping[str, object] = {},
    /,
    *,
    seats: int = 2,
    current: int = 0,
    round: int = 2,
    stack: Sequence[Frame] | None = None,
    **more: Any,
) -> ClonkState:
    """Seat ``current``'s turn in ``round``: digging unless ``stack`` says otherwise
    (``stack=[]``: the game is over, every task tile shown).

    Every hand, shaft and gallery is empty but for the cards ``fields`` names, so only
    they matter. Each seat holds a colour and a type task tile (the first ones no seat is
    given), its colour tile shown; a seat that has had a turn (rules.md#fill-cart) and
    whose cart is not named holds one Treasure card in it. ``fields`` and ``more`` are
    :func:`meeple.core.testing.scenario`'s.
    """
    named = set(_strings([fields, more.get("top", {})]))
    order = Turns.start(seats).order
    c = game.content
    spare = (t for t in c.treasures if t not in named)
    had_turn = [s for s in range(seats) if round > 1 or order.index(s) < order.index(current)]
    carts = {f"carts[{s}]": [next(spare)] for s in had_turn}  # a cart named in fields wins
    free = [[t for t in tiles if t not in named] for tiles in (c.colour_tasks, c.type_tasks)]
    over = stack is not None and not stack
    tasks = {f"tasks[{s}]": [free[0][s], free[1][s]] for s in range(seats)}
    shown = {f"tasks[{s}].up": [True, over] for s in range(seats)}
    quiet = {"hands[*]": [], "shafts[*]": [], "galleries[*]": []}
    turns = {"turns": {"round": round, "over": over}}
    return scenario(
        game,
        {**quiet, **carts, **tasks, **shown, **turns, **fields},
        seats=seats,
        to_move=current,
        stack=[Unearth(seat=current)] if stack is None else stack,
        **more,
    )


def _strings(value: object) -> Iterator[str]:
    """Every string in ``value`` and the lists and mappings it holds: the cards named."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping | list | tuple):
        for item in value.values() if isinstance(value, Mapping) else value:
            yield from _strings(item)


def clonk(**options: object) -> Clonk:
    return Clonk(ClonkOptions(**options))  # type: ignore[arg-type]


def play(game, state, *actions):
    """Play ``actions`` in order through the legality check; every state after is valid."""
    events = []
    for action in actions:
        assert action in game.legal_actions(state), action
        events += game.resolve(state, action)
        assert game.check_state(state) == [], action
    return events


def scored(game: Clonk, fields: Mapping[str, object] = {}, /, **kw: Any) -> list[Score]:
    """The scores of a finished game's table (see :func:`build`)."""
    return game.scores(build(game, fields, stack=[], **kw))
