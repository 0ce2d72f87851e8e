"""Scenario tests of the Catacombs tokens as the Token Reference Guide has them, each citing
its section of seeds/clank-catacombs/rules.md.

Besides the builder's tiles (:func:`catacombs_build.tile_set`): ``oneway`` (a room whose west
half carries an arrow out) and ``into`` (a room whose west half carries an arrow in).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from catacombs_build import (
    act,
    arrow_tile,
    crypt,
    game,
    lay,
    legal,
    put,
    room,
    started,
    tile_set,
    turn,
)

from meeple.core.state import Event
from meeple.core.testing import scenario
from meeple.plugins.clank.state import Move, UseToken
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    CatacombsState,
    Explore,
    Lockpicks,
    PickLock,
)
from meeple.plugins.clank_catacombs.tiles import Tile


def tiles() -> list[Tile]:
    return [*tile_set(), arrow_tile("oneway", "out"), arrow_tile("into", "in")]


@pytest.fixture
def g() -> CatacombsGame:
    return game(tiles(), start_side="a")


@pytest.fixture
def s(g: CatacombsGame) -> Any:
    return started(g, 2, 4)


def free(g: CatacombsGame, s: Any, prisoner: str) -> None:
    """Seat 0 picks the cave's Prison, freeing a Peasant and ``prisoner``."""
    lay(g, s, "cave", 1, 0)
    me = {"hand": [], "room": room(g, s, "cave:p")}
    scenario(g, {"players[0]": me}, state=s, top={"prisoners": ["peasant-1", prisoner]})
    act(g, s, PickLock())


# -- prisoners' effects -------------------------------------------------------------------------


def test_adventurer_raises_the_rage(g, s) -> None:
    """rules.md#tokens (Token Reference Guide p. 17-18): an Adventurer freed moves the dragon
    marker up one space."""
    rage = s.rage
    free(g, s, "adventurer-1")
    assert s.rage == rage + 1


def test_barbarian_gives_two_swords(g, s) -> None:
    """rules.md#tokens: a Barbarian freed gives 2 swords this turn."""
    free(g, s, "barbarian-1")
    assert s.pool.swords == 2


def test_cleric_heals_one(g, s) -> None:
    """rules.md#tokens: a Cleric freed heals 1."""
    me = s.players[0]
    me.damage, me.supply = 2, me.supply - 2
    free(g, s, "cleric-1")
    assert me.damage == 1


def test_haunted_prisoner_adds_a_ghost(g, s) -> None:
    """rules.md#tokens, #ghost-supply: the Haunted Prisoner puts a Ghost from beside the
    Clank! area into it; none when all are in play."""
    ghosts, area = s.ghosts, s.ghost_clank
    free(g, s, "haunted-prisoner")  # the cave is haunted: one Ghost as it is placed
    assert (s.ghosts, s.ghost_clank) == (ghosts - 2, area + 2)
    s.ghost_clank += s.ghosts
    s.ghosts = 0
    events: list[Event] = []
    g.add_ghost(s, 0, cx.AddGhost(), None, events)
    assert s.ghosts == 0 and events == []


# -- points ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "tomes", "marks", "points"),
    [
        (("peasant-1",), 0, 0, 2),
        (("adventurer-1",), 0, 0, 3),
        (("barbarian-1", "cleric-1"), 0, 0, 2 + 2),
        (("haunted-prisoner", "golden-monkey-bot"), 0, 0, 3 + 3),
        (("mayor",), 0, 0, 0),
        (("mayor", "mastery-1"), 0, 0, 5 + 20),
        (("monk",), 0, 0, 0),
        (("monk",), 0, 3, 3),
        (("primatologist",), 0, 0, 0),
        (("primatologist", "monkey-idol-1"), 0, 0, 5 + 5),
        (("primatologist", "golden-monkey-bot"), 0, 0, 5 + 3),
        (("prince", "princess"), 0, 0, 0),
        (("prince", "princess", "crown-8"), 0, 0, 5 + 5 + 8),
        (("sorceress-1",), 1, 0, 0),
        (("sorceress-1", "sorceress-2"), 2, 0, 5 + 5),
        (("warrior-1", "peasant-1", "discount-coupon"), 0, 0, 2 + 2),
        (("warrior-1", "warrior-2", "peasant-1"), 0, 0, 3 + 3 + 2),
        (("blood-amulet-1", "catacombs-map-1", "discount-coupon"), 0, 0, 7 + 5),
    ],
)
def test_token_points(g, s, held: tuple[str, ...], tomes: int, marks: int, points: int) -> None:
    """rules.md#tokens, #scoring: each token's points (Token Reference Guide p. 17-18): Mayor
    with a Mastery token, Monk per Wayshrine marked, Primatologist with a Monkey Idol (the
    Golden Monkey Bot counts, scoring 3), Prince and Princess with a Crown, Sorceress with
    2 Secret Tomes, Warrior per Prisoner freed (itself included, not the Discount Coupon)."""
    me = s.players[0]
    put(s, me.held, *held)
    put(s, me.discard, *[f"secret-tome-{k}" for k in range(1, tomes + 1)])
    s.marks[0] = list(range(marks))
    assert g.tally(s, 0)["tokens"] == points


def test_golden_monkey_bot_counts_as_an_idol(g, s) -> None:
    """rules.md#tokens: the Golden Monkey Bot is a Prisoner and a Monkey Idol for every rule
    (``monkey-idol`` conditions, Thirst for Adventure); the Discount Coupon is not a Prisoner
    (Brave Hero's 3 Prisoners)."""
    me = s.players[0]
    put(s, me.held, "golden-monkey-bot", "peasant-1", "discount-coupon")
    put(s, me.discard, "thirst-for-adventure", "brave-hero")
    assert (g.holds(me, "idol"), g.holds(me, "prisoner")) == (1, 2)
    assert g._holds_cond(s, 0, "monkey-idol", None)
    owned = me.discard.cards
    thirst, hero = (g.cat.card[c].bonus for c in ("thirst-for-adventure", "brave-hero"))
    assert (g._bonus_count(me, owned, thirst), g._bonus_count(me, owned, hero)) == (1, 0)
    put(s, me.held, "peasant-2")
    assert g._bonus_count(me, owned, hero) == 1


# -- tokens spent in one kind of room -------------------------------------------------------------


def test_puzzle_box_at_a_wayshrine_for_a_major_secret(g, s) -> None:
    """rules.md#tokens: the Puzzle Box is handed in at a Wayshrine (not elsewhere) for the top
    major secret."""
    me = s.players[0]
    top = {"players[0].held": ["puzzle-box-1"], "majors": ["chalice-1"]}
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}}, state=s, top=top)
    assert UseToken(token="puzzle-box-1") not in g.legal_actions(s)
    me.room = room(g, s, "start-a:w")
    act(g, s, UseToken(token="puzzle-box-1"))
    assert "chalice-1" in me.held.cards and "puzzle-box-1" not in me.held.cards


# -- the Catacombs Map ---------------------------------------------------------------------------


def test_catacombs_map_walks_against_the_arrow(g, s) -> None:
    """rules.md#catacombs-map: with a Catacombs Map the seat walks a one-way tunnel against
    its arrow, at the tunnel's usual price."""
    lay(g, s, "oneway", 1, 0)  # its room's arrow points into the Wayshrine room
    me = s.players[0]
    o = room(g, s, "oneway:o")
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    assert [m for m in legal(g, s, Move) if m.to == o] == []
    put(s, me.held, "catacombs-map-1")
    act(g, s, next(m for m in legal(g, s, Move) if m.to == o))
    assert me.room == o and s.pool.boots == 0


def test_catacombs_map_explores_against_the_arrow(g, s) -> None:
    """rules.md#catacombs-map: with a Catacombs Map an open half whose arrow points in may be
    walked out of, discovering a tile."""
    lay(g, s, "into", 1, 0, 2)  # turned: its arrow-in half is now the open edge east
    me = s.players[0]
    turn(g, s, 0, room=room(g, s, "into:i"), boots=2)
    assert legal(g, s, Explore) == []
    put(s, me.held, "catacombs-map-1")
    assert legal(g, s, Explore)


# -- Lockpicks and Monkey Idols ---------------------------------------------------------------


def test_lockpicks_never_run_out(g, s) -> None:
    """rules.md#lockpick-supply: Lockpicks are not limited, so a seat gains them however many
    the seats hold and lie on the map; the state check and a saved game's strict decoding
    take any number."""
    hall, _ = lay(g, s, "hall", 1, 0), lay(g, s, "cave", 2, 0)
    picked = [f"room {room(g, s, 'cave:p')}", f"{hall}/e1"]  # a Prison, the hall's locked half
    s.picked = list(picked)
    s.lockpicks = [3, 40]  # more than any box holds
    events: list[Event] = []
    g.take_lockpicks(s, 0, cx.TakeLockpicks(n=2), None, events)
    assert s.lockpicks == [5, 40] and events == [Lockpicks(seat=0, n=2)]
    assert s.picked == picked and g.validate_state(s) == []
    saved = msgspec.json.decode(msgspec.json.encode(s), type=CatacombsState)
    assert saved == s


def test_check_lockpicks_lie_on_locks(g, s) -> None:
    """rules.md#locks, #chest: a Lockpick left on the map names a lock of a placed tile or a
    locked room; a saved game naming anything else (a card, say) is refused."""
    hall, _ = lay(g, s, "hall", 1, 0), lay(g, s, "cave", 2, 0)
    for on in (f"{hall}/e1", f"room {room(g, s, 'cave:p')}"):
        s.picked = [on]
        assert g.validate_state(s) == [], on
    for on in ("mercenary-6", f"{hall}/e0", f"{hall}/i0", "9/e1", f"room {room(g, s, 'hall:a')}"):
        s.picked = [on]
        assert any(p.startswith("$.picked[0]") for p in g.validate_state(s)), on


@pytest.mark.parametrize("side", ["a", "b"])
def test_monkey_idols_on_the_starting_tile_at_setup(side: str) -> None:
    """rules.md#idols (rulebook p. 4): the Monkey Shrine is on the starting tile; its three
    idols are put there at set-up."""
    g = CatacombsGame(CatacombsOptions(start_side=side))
    s = g.setup(2, 7)
    graph = g.graph(s)
    (shrine,) = [r for r in graph.order if graph.features[r].monkey_shrine]
    assert graph.tile_of[shrine] == 0
    assert [g.cat.token[t].kind for t in s.rooms[shrine].cards] == ["idol"] * 3
    assert s.idols.cards == []
