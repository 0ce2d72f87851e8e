"""A file that validates is a file that plays: the contract, tested on mutants.

Hypothesis mutates real records and snapshots of every registered game with
structural JSON edits -- numbers (huge, negative, off by one), cards moved or
swapped between zones, zone kinds and owners changed, decisions (frames)
retagged, dropped or duplicated, keys deleted, values retyped, strings
swapped, actions reordered. Every mutant must give a report; each one that
validates is opened as ``play --resume`` and ``replay`` open it, then played
on by random bots to the end without an exception, every seat's view hiding
what the game's visibility declares (the conformance suite's view checks).

The default run tries twenty mutants per game and file kind; the soak
run (``pytest -m soak``) 5,000 per game. ``--hypothesis-show-statistics``
shows how many validated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from json_walk import Path_, walk

from meeple.core import testing
from meeple.core.bots import RandomBot
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry
from meeple.core.rng import SEED_MAX, Stream, bot_stream
from meeple.core.validate import check_file, open_saved

T = TypeVar("T")

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

VIEWS_EVERY = 25
"""Steps between two view checks while a validated mutant is played on."""


class Draw:
    """Where a mutation's choices come from (Hypothesis here; any source of choices works)."""

    def __init__(self, integer: Callable[[int, int], int]) -> None:
        self.integer = integer

    def choice(self, items: Sequence[T]) -> T:
        return items[self.integer(0, len(items) - 1)]


def hypothesis_draw(data: st.DataObject) -> Draw:
    return Draw(lambda lo, hi: data.draw(st.integers(lo, hi)))


# -- the mutations -----------------------------------------------------------------------------

Doc = Any


def get(doc: Doc, path: Path_) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def zones_in(doc: Doc) -> list[dict[str, Any]]:
    return [v for _, v in walk(doc) if isinstance(v, dict) and isinstance(v.get("cards"), list)]


def frames_in(doc: Doc) -> list[dict[str, Any]]:
    return [v for _, v in walk(doc) if isinstance(v, dict) and "frame" in v]


INTS = (-1, 0, 1, 2, 3, 5, 8, 13, 40, 2**31, SEED_MAX, SEED_MAX + 1, 2**64 + 1, -(2**63) - 1)


def number(doc: Doc, draw: Draw, tags: list[str]) -> None:
    spots = [(p, v) for p, v in walk(doc) if type(v) is int and p]
    if spots:
        path, old = draw.choice(spots)
        new = draw.choice([*INTS, old + 1, old - 1, -old])
        get(doc, path[:-1])[path[-1]] = new


def delete(doc: Doc, draw: Draw, tags: list[str]) -> None:
    path, _ = draw.choice([(p, v) for p, v in walk(doc) if p])
    del get(doc, path[:-1])[path[-1]]


def retype(doc: Doc, draw: Draw, tags: list[str]) -> None:
    path, _ = draw.choice([(p, v) for p, v in walk(doc) if p])
    get(doc, path[:-1])[path[-1]] = draw.choice([None, "x", [], {}, 1.5, True, 0])


def string(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """A string (a card id, a tag, a kind) becomes another one found in the file."""
    spots = [(p, v) for p, v in walk(doc) if isinstance(v, str) and p]
    if spots:
        path, _ = draw.choice(spots)
        get(doc, path[:-1])[path[-1]] = draw.choice(spots)[1]


def swap(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """Two items of one list trade places (turn order, zones of a per-seat list, actions)."""
    lists = [v for _, v in walk(doc) if isinstance(v, list) and len(v) > 1]
    if lists:
        items = draw.choice(lists)
        i, j = draw.integer(0, len(items) - 1), draw.integer(0, len(items) - 1)
        items[i], items[j] = items[j], items[i]


def duplicate(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """An item of a list is repeated (an action, a frame, a seat, a card)."""
    lists = [v for _, v in walk(doc) if isinstance(v, list) and v]
    if lists:
        items = draw.choice(lists)
        items.insert(draw.integer(0, len(items)), json.loads(json.dumps(draw.choice(items))))


def move_card(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """A card leaves its zone for another (facing flags kept in step), or two cards trade."""
    zones = zones_in(doc)
    full = [z for z in zones if z["cards"]]
    if not full:
        return
    source, target = draw.choice(full), draw.choice(zones)
    i = draw.integer(0, len(source["cards"]) - 1)
    if target["cards"] and draw.integer(0, 1):
        j = draw.integer(0, len(target["cards"]) - 1)
        source["cards"][i], target["cards"][j] = target["cards"][j], source["cards"][i]
        return
    card = source["cards"].pop(i)
    if isinstance(source.get("up"), list) and i < len(source["up"]):
        del source["up"][i]
    j = draw.integer(0, len(target["cards"]))
    target["cards"].insert(j, card)
    if isinstance(target.get("up"), list):
        target["up"].insert(j, bool(draw.integer(0, 1)))


def relabel(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """A zone takes another zone's kind, or another owner."""
    zones = zones_in(doc)
    if not zones:
        return
    zone = draw.choice(zones)
    if draw.integer(0, 1):
        # An earlier mutation may have deleted a zone's kind; the zone then lends none.
        zone["kind"] = draw.choice(zones).get("kind", "")
    else:
        zone["owner"] = draw.choice([None, -1, 0, 1, 2, 3, 9])


def reframe(doc: Doc, draw: Draw, tags: list[str]) -> None:
    """A pending decision is retagged as another of the game's frames, or its seat changes."""
    frames = frames_in(doc)
    if not frames:
        return
    frame = draw.choice(frames)
    if draw.integer(0, 1):
        frame["frame"] = draw.choice(tags)
    else:
        frame["seat"] = draw.choice([-1, 0, 1, 2, 3, 4])


MUTATIONS = (
    number,
    delete,
    retype,
    string,
    swap,
    duplicate,
    move_card,
    move_card,
    relabel,
    reframe,
)


def mutate(data: bytes, draw: Draw, tags: list[str]) -> tuple[bytes, list[str]]:
    """One to three mutations of a file's JSON; the new bytes and the mutations' names."""
    doc = json.loads(data)
    done = []
    for _ in range(draw.integer(1, 3)):
        how = draw.choice(MUTATIONS)
        how(doc, draw, tags)
        done.append(how.__name__)
    return json.dumps(doc).encode(), done


def frame_tags(game: Any) -> list[str]:
    """The tags of every frame type the game's state may hold."""
    stack = msgspec.inspect.type_info(game.state_type).fields  # type: ignore[attr-defined]
    (field,) = [f for f in stack if f.name == "stack"]
    kinds = field.type.item_type
    types = kinds.types if isinstance(kinds, msgspec.inspect.UnionType) else (kinds,)
    return sorted(str(t.tag) for t in types if isinstance(t, msgspec.inspect.StructType))


# -- the contract ----------------------------------------------------------------------------


def plays_on(path: Path, registry: Registry, hooks: Hooks) -> None:
    """Open ``path`` as ``play --resume`` does and let random bots finish the game, checking
    every seat's view at the start, every ``VIEWS_EVERY`` steps and at the end."""
    loaded, match = open_saved(path, registry, hooks)
    game, state = match.game, match.state
    seats = range(state.seats)

    def views(at: str) -> None:
        for seat in (*seats, None):
            testing.check_view(game, state, seat, Stream(f"mutant/{at}"), at)

    def every(seat: int, action: Any, events: Any) -> None:
        steps = len(match.actions)
        if steps % VIEWS_EVERY == 0:
            views(f"step {steps} after opening")

    views("opening")
    bots = [RandomBot(game, seat, bot_stream(loaded.setup.seed, seat, "random")) for seat in seats]
    match.run(bots, on_events=every, max_steps=testing.MAX_STEPS)
    views("the end")
    testing.check_scores(game, match, "the end")


def check_mutant(data: bytes, path: Path, registry: Registry, hooks: Hooks) -> bool:
    """The contract for one mutant: a report, and if it is valid, a game that plays on."""
    path.write_bytes(data)
    report = check_file(path, registry, hooks)
    assert report.ok == (not report.problems)
    if report.ok:
        plays_on(path, registry, hooks)
    return report.ok


ORIGINALS = {
    # kind: (seats, seed, steps) of each original file
    "record": ((2, 1, None), (3, 2, 25), (4, 3, 120)),
    "snapshot": ((2, 4, 0), (3, 5, 9), (2, 6, 60), (4, 7, 200)),
}


@pytest.fixture(params=sorted(ORIGINALS))
def originals(request, save, game_id) -> list[bytes]:
    """Records (finished and unfinished) or snapshots (at the start and later) of the game."""
    return [
        save(request.param, game_id, seats=seats, seed=seed, steps=steps).read_bytes()
        for seats, seed, steps in ORIGINALS[request.param]
    ]


def mutants_play_on(originals, registry, hooks, game_id, tmp_path, data) -> None:
    original = data.draw(st.sampled_from(originals))
    tags = frame_tags(registry.game(game_id))
    mutant, how = mutate(original, hypothesis_draw(data), tags)
    valid = check_mutant(mutant, tmp_path / "mutant.json", registry, hooks)
    event(f"{game_id}: {'validated' if valid else 'refused'}")
    if valid:
        event(f"{game_id}: validated after {' + '.join(sorted(how))}")


@SETTINGS
@given(data=st.data())
def test_mutants_that_validate_play_on(originals, registry, hooks, game_id, tmp_path, data):
    mutants_play_on(originals, registry, hooks, game_id, tmp_path, data)


@pytest.mark.soak
@settings(SETTINGS, max_examples=2_500)
@given(data=st.data())
def test_mutants_that_validate_play_on_soak(originals, registry, hooks, game_id, tmp_path, data):
    """2,500 mutants of each file kind: 5,000 per game."""
    mutants_play_on(originals, registry, hooks, game_id, tmp_path, data)


def test_the_originals_play_on(originals, registry, hooks, tmp_path):
    for data in originals:
        assert check_mutant(data, tmp_path / "original.json", registry, hooks)


def _move(source: str, target: str) -> Callable[[Doc], None]:
    """Move the top piece of zone field ``source`` onto zone field ``target`` of the state."""

    def move(doc: Doc) -> None:
        state = doc["state"]
        state[target]["cards"].append(state[source]["cards"].pop())

    return move


@pytest.mark.parametrize(
    ("game", "seats", "steps", "change", "expected"),
    [
        (  # the next seat of round 2 would dig with an empty cart
            "clonk",
            3,
            9,
            lambda d: d["state"]["turns"]["order"].reverse(),
            "$.carts[2]: holds 0 cards; a cart holds a card since its first turn",
        ),
        (
            "clonk",
            3,
            9,
            lambda d: d["state"]["carts"][0]["cards"].reverse(),
            "$.carts[0]: snore-8 on top; a Treasure card lies there",
        ),
        (
            "clonk",
            2,
            0,
            lambda d: d["state"]["stack"].append(dict(d["state"]["stack"][-1])),
            "$.stack: a seat chooses its task tiles once",
        ),
        (
            "clonk",
            2,
            0,
            lambda d: d["state"]["turns"].update(current=1),
            "$.turns.current: task tiles are chosen before the start player's first turn",
        ),
        ("clank", 2, 30, _move("market", "row"), "cannot lie here (only cards)"),
        ("clank", 2, 30, _move("row", "trash"), ""),  # a card may be trashed: no problem
        ("clank", 2, 30, _move("row", "spent"), "cannot lie here (only tokens)"),
        (  # a second turn frame: the seat would end turns for ever
            "clank",
            2,
            30,
            lambda d: d["state"]["stack"].append(dict(d["state"]["stack"][-1])),
            "$.stack: the turn is the bottom decision, and the only turn",
        ),
        (
            "clank",
            2,
            30,
            lambda d: d["state"]["players"][0].update(gold=10**9 + 1),
            "Expected `int` <= 1000000000 - at `$.state.players[0].gold`",
        ),
        ("clank-catacombs", 2, 30, _move("row", "tile_stack"), "cannot lie here (only tiles)"),
        ("clank-catacombs", 2, 30, _move("prisoners", "majors"), "cannot lie here (only major"),
        (  # a tile placed beside it would lie beyond what a file holds
            "clank-catacombs",
            2,
            30,
            lambda d: d["state"]["tiles"][0].update(x=2**63 - 1),
            "Expected `int` <= 1000000000 - at `$.state.tiles[0].x`",
        ),
    ],
)
def test_mutants_the_soak_found(save, registry, hooks, game, seats, steps, change, expected):
    """Each crashed a game after validating, before the check that now refuses it."""
    path = save("snapshot", game, seats=seats, seed=5, steps=steps)
    doc = json.loads(path.read_bytes())
    change(doc)
    path.write_text(json.dumps(doc))
    report = check_file(path, registry, hooks)
    if expected:
        assert any(expected in p for p in report.problems), report.problems
    else:
        assert report.ok, report.problems
