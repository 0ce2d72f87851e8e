"""Builders for exact Clonk! situations: states, custom card tables, short drivers.

``build`` lays out named cards where a test wants them; every other card
goes where it harms nothing (Treasure cards to the bottom of the draw pile,
Snore and Kablooey cards to their supplies), so the state passes
``check_state`` and the test reads like the rulebook's scenario.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path

from meeple.core.rng import Rng
from meeple.core.turns import Turns
from meeple.core.zones import Zone
from meeple.plugins.clonk.content import AWAKENING
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


def shaft(cards: Iterable[str]) -> Zone:
    """A shaft from bottom to top; a ``~`` prefix lays a card face down."""
    cards = list(cards)
    return Zone(
        kind="shaft",
        cards=[c.lstrip("~") for c in cards],
        up=[not c.startswith("~") for c in cards],
    )


def build(
    game: Clonk,
    seats: int = 2,
    *,
    hands: Mapping[int, Sequence[str]] = {},
    carts: Mapping[int, Sequence[str]] = {},
    galleries: Mapping[int, Sequence[str]] = {},
    kablooeys: Mapping[int, int] = {},
    shafts: Sequence[Sequence[str]] = (),
    draw: Sequence[str] = (),
    tasks: Mapping[int, tuple[str, str]] = {},
    discard: Sequence[str] = (),
    snores: int | None = None,
    frame: object = None,
    current: int = 0,
    round: int = 2,
    awakening: str = "draw",
) -> ClonkState:
    """A state with the named cards in place, ``current`` to move in ``frame`` (default: digging).

    Seats that have had a turn and whose cart is not named get one card in it.

    ``draw`` lists the cards on top of the draw pile, bottom first (the last
    is drawn first); ``awakening`` is ``"draw"`` (at the bottom of the pile),
    ``"top"`` (drawn next) or ``"aside"`` (already drawn: the last round).
    ``snores`` is how many Snore cards are left in the supply (default all).
    """
    c = game.content
    used = [
        *(x for v in (hands, carts, galleries) for cards in v.values() for x in cards),
        *(x.lstrip("~") for s in shafts for x in s),
        *draw,
        *discard,
    ]
    rest = [x for x in c.treasures if x not in set(used)]
    # rules.md#fill-cart: a seat that has had a turn has a cart; unless the test names one,
    # it holds a card from the bottom of the draw pile.
    order = Turns.start(seats).order
    had_turn = [round > 1 or order.index(s) < order.index(current) for s in range(seats)]
    cart_cards = [
        list(carts[s]) if s in carts else [rest.pop(0)] if had_turn[s] else [] for s in range(seats)
    ]
    pile = [*rest, *draw]
    if awakening == "draw":
        pile.insert(0, AWAKENING)
    elif awakening == "top":
        pile.append(AWAKENING)
    snore_pile = list(c.snores)
    kablooey_pile = list(c.kablooeys)
    held = [[kablooey_pile.pop() for _ in range(kablooeys.get(s, 0))] for s in range(seats)]
    snore_left = len(snore_pile) if snores is None else snores
    spare_snores, snore_pile = snore_pile[snore_left:], snore_pile[:snore_left]
    if spare_snores:  # Snore cards gone from the supply lie under seat 0's cart.
        cart_cards[0][:0] = spare_snores
    tiles = [
        tasks.get(s, (f"task-colour-{c.colours[s]}", f"task-type-{c.types[s]}"))
        for s in range(seats)
    ]
    dealt = {t for pair in tiles for t in pair}
    turns = Turns.start(seats)
    turns.current, turns.round = current, round
    turns.last_round = awakening == "aside"
    shaft_zones = [shaft(s) for s in shafts]
    shaft_zones += [Zone(kind="shaft", up=[]) for _ in range(5 - len(shaft_zones))]
    return ClonkState(
        seats=seats,
        rng=Rng(seed=7),
        turns=turns,
        stack=[frame if frame is not None else Unearth(seat=current)],  # type: ignore[list-item]
        draw=Zone(kind="draw", cards=pile),
        shafts=shaft_zones,
        hands=[Zone(kind="hand", owner=s, cards=list(hands.get(s, ()))) for s in range(seats)],
        galleries=[
            Zone(kind="gallery", owner=s, cards=list(galleries.get(s, ()))) for s in range(seats)
        ],
        carts=[Zone(kind="cart", owner=s, cards=cart_cards[s]) for s in range(seats)],
        tasks=[
            Zone(kind="tasks", owner=s, cards=list(tiles[s]), up=[True, False])
            for s in range(seats)
        ],
        kablooeys=[Zone(kind="kablooey", owner=s, cards=held[s]) for s in range(seats)],
        task_piles=[
            Zone(kind="task-pile", cards=[t for t in c.colour_tasks if t not in dealt]),
            Zone(kind="task-pile", cards=[t for t in c.type_tasks if t not in dealt]),
        ],
        snore_supply=Zone(kind="snore-supply", cards=snore_pile),
        kablooey_supply=Zone(kind="kablooey-supply", cards=kablooey_pile),
        discard=Zone(kind="discard", cards=list(discard)),
        aside=Zone(kind="aside", cards=[AWAKENING] if awakening == "aside" else []),
    )


def clonk(**options: object) -> Clonk:
    return Clonk(ClonkOptions(**options))  # type: ignore[arg-type]


def play(game, state, *actions):
    """Play ``actions`` in order through the legality check; every state after is valid."""
    events = []
    for action in actions:
        events += game.apply(state, action)
        assert game.check_state(state) == [], action
    return events


def scored(game, **kw):
    """The scores of a built table whose game is over."""
    state = build(game, **kw)
    state.stack.clear()
    return game.scores(state)
