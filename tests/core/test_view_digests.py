"""Views are exactly what the card-by-card algorithm gives: a digest over thousands of views.

The reference below is the straightforward view -- a copy, every field of
every struct walked, each card asked :func:`sees` on its own -- and
:meth:`Game.view`, which walks only the fields that can hold a zone and
decides per zone, must encode to the same bytes for every game, every seat
and the onlooker, at every few decisions of seeded random games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import msgspec

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.game import Game
from meeple.core.plugins import Registry
from meeple.core.rng import bot_stream
from meeple.core.zones import HIDDEN, Zone, sees

SEEDS = 2
EVERY = 3
"""Views are taken at every ``EVERY``-th decision of ``SEEDS`` games per seat count."""


def every_zone(obj: object) -> Iterator[Zone]:
    """Every zone, every field of every struct walked (lists, tuples and dicts too)."""
    if isinstance(obj, Zone):
        yield obj
    elif isinstance(obj, msgspec.Struct):
        for name in obj.__struct_fields__:
            yield from every_zone(getattr(obj, name))
    elif isinstance(obj, list | tuple):
        for item in obj:
            yield from every_zone(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from every_zone(item)


def reference_view(game: Game[Any, Any], state: Any, seat: int | None) -> Any:
    view = game.clone(state)
    view.rng.seed = 0
    for zone in every_zone(view):
        vis = game.zones[zone.kind]
        cards = zone.cards
        for i, card in enumerate(cards):
            if not sees(vis, zone, seat, i):
                cards[i] = HIDDEN + game.back(card)
    return view


def test_views_encode_as_the_card_by_card_algorithm(
    registry: Registry, hooks: Hooks, game_id: str
) -> None:
    game = registry.game(game_id)()
    encode = msgspec.msgpack.encode
    fast, slow = hashlib.sha256(), hashlib.sha256()
    views = 0
    for seats in sorted({game.min_seats, game.max_seats}):
        for seed in range(SEEDS):
            match = Match.new(game, seats, seed, hooks)
            bots = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
            step = 0
            while not match.over:
                if step % EVERY == 0:
                    for seat in (None, *range(seats)):
                        fast.update(encode(game.view(match.state, seat)))
                        slow.update(encode(reference_view(game, match.state, seat)))
                        views += 1
                seat = match.state.to_move
                match.step(bots[seat].choose(Prompt.of(game, match.state, seat, match.legal())))
                step += 1
    print(f"{views} views")
    assert fast.hexdigest() == slow.hexdigest()
