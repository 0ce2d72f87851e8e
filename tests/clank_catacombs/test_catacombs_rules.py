"""Scenario tests of the Catacombs rules, each citing seeds/clank-catacombs/rules.md."""

from __future__ import annotations

import pytest
from catacombs_build import act, game, lay, legal, put, room, started, turn

from meeple.core.rng import Rng, stream
from meeple.core.testing import scenario
from meeple.plugins.clank.state import EndTurn, Move, Skip, Take
from meeple.plugins.clank_catacombs.ghosts import GHOST
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    DragonTurn,
    Explore,
    Mark,
    PickLock,
    Rotate,
)


@pytest.fixture
def g():
    return game(start_side="a")


@pytest.fixture
def s(g):
    return started(g, 2, 4)


def test_setup(g) -> None:
    """rules.md#setup: lighter tiles on top, 3 Lockpicks each, artifacts 5 on top, rage by seats."""
    real = CatacombsGame(CatacombsOptions(start_side="b"))
    for seats, rage in ((2, 2), (3, 1), (4, 0)):
        state = real.setup(seats, 7)
        assert state.rage == rage and real.check_state(state) == []
        tiles = real.cat.tiles
        assert [tiles[t].back for t in state.tile_stack.cards[-4:]] == ["lighter"] * 4
        assert len(state.tile_box) == 2 and state.tiles[0].tile == "start-b"
        assert state.lockpicks == [3] * seats
        assert (
            state.artifacts.cards[-1] == "artifact-5" and state.artifacts.cards[0] == "artifact-20"
        )
        assert (
            state.ghosts == 5
            and [p.room for p in state.players] == [real.graph(state).start] * seats
        )


def test_discovery_completes_the_tunnel(g, s) -> None:
    """rules.md#discovery: the tile goes into the empty cell; only rotations completing the
    tunnel whose icons the mover can pay are offered."""
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    act(g, s, Explore(place=0, half=0))
    assert s.drawn.cards == ["vault"]
    # Footprints on the vault's west half: 2 boots; one boot cannot pay; the north half (turn
    # 3) has 2 monsters and no footprints: 1 boot, damage it can bear.
    assert {(a.turn, a.swords) for a in legal(g, s, Rotate)} == {(3, 0)}
    act(g, s, Rotate(turn=3))
    art = room(g, s, "vault:art")
    assert s.players[0].room == art and s.players[0].damage == 2
    assert s.tiles[-1].x == 1 and s.tiles[-1].y == 0


def test_no_fit_places_and_stays(g, s) -> None:
    """rules.md#no-fit: with no rotation payable the mover places the tile and stays."""
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    s.players[0].damage, s.players[0].supply = 9, s.players[0].supply - 9  # no 2 monsters
    act(g, s, Explore(place=0, half=0))
    assert all(not a.enter for a in legal(g, s, Rotate))
    act(g, s, Rotate(turn=0, enter=False))
    assert s.players[0].room == room(g, s, "start-a:w") and s.pool.boots == 1


def test_no_fit_discard_option() -> None:
    """rules.md#no-fit, option discard: the tile goes under the stack."""
    g = game(start_side="a", no_fit="discard")
    s = g.setup(2, 4)
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    s.players[0].damage, s.players[0].supply = 9, s.players[0].supply - 9
    act(g, s, Explore(place=0, half=0))
    act(g, s, Skip())
    assert s.tile_stack.cards[0] == "vault" and len(s.tiles) == 1


def test_teleport_discovers_ignoring_icons(g, s) -> None:
    """rules.md#teleport, #teleport-discovery: any completing rotation, no boots, no damage."""
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:w"), teleports=1)
    act(g, s, Explore(place=0, half=0, teleport=True))
    assert {a.turn for a in legal(g, s, Rotate)} == {0, 3}
    act(g, s, Rotate(turn=0))
    assert s.players[0].room == room(g, s, "vault:art") and s.players[0].damage == 0


def test_empty_stack_no_discovery(g, s) -> None:
    """rules.md#discovery: with an empty stack nothing is discovered."""
    s.tile_stack.cards.clear()
    s.tile_box.cards.extend(["hall", "vault", "cave"])
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=3, teleports=1)
    assert legal(g, s, Explore) == []


def test_locks_need_a_lockpick_each_and_stay_open(g, s) -> None:
    """rules.md#locks: a Lockpick left on the lock opens it for everyone."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "shop", 2, 0)  # its west half meets the hall's locked east half
    way, market = room(g, s, "hall:w"), room(g, s, "shop:m")
    scenario(g, {"players[0]": {"hand": [], "room": way}, "pool.boots": 2}, state=s)
    s.lockpicks = [0, 0]
    assert market not in {m.to for m in legal(g, s, Move)}
    s.lockpicks[0] = 1
    move = next(m for m in legal(g, s, Move) if m.to == market)
    act(g, s, move)
    assert s.lockpicks[0] == 0 and len(s.picked) == 1
    turn(g, s, 1, room=way, boots=1)
    assert market in {m.to for m in legal(g, s, Move)}


def test_haunted_tile_adds_a_ghost_and_ghosts_hurt_everyone(g, s) -> None:
    """rules.md#haunted, #ghosts: a Ghost to the Clank! area; drawn, 1 damage to every seat in."""
    lay(g, s, "cave", 1, 0)
    assert s.ghost_clank == 1 and s.ghosts == 4
    s.dragon_aside += s.bag.remove("dragon", 99)
    events = []
    s.players[1].status = "escaped"
    g.draw_cubes(s, events, 1)
    assert [p.damage for p in s.players] == [1, 0]
    assert s.ghost_clank == 1 and s.ghosts == 4 and not s.bag.cubes.get(GHOST)
    # rules.md#game-end: the bag is empty after the attack: the seat still in is knocked out.
    assert s.players[0].status == "eliminated"


def test_reward_once_per_turn_and_crystal_cave(g, s) -> None:
    """rules.md#reward-rooms, #crystal-cave: gold once per turn; a cave exhausts."""
    lay(g, s, "shop", 1, 1)
    lay(g, s, "cave", 2, 1)
    chest, cave = room(g, s, "shop:k"), room(g, s, "cave:c")
    me = s.players[0]
    turn(g, s, 0, room=room(g, s, "shop:m"), boots=4)
    act(g, s, next(m for m in legal(g, s, Move) if m.to == chest))
    assert me.gold == 2
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "shop:m")))
    act(g, s, next(m for m in legal(g, s, Move) if m.to == chest))
    assert me.gold == 2
    act(g, s, next(m for m in legal(g, s, Move) if m.to == cave))
    assert s.pool.exhausted and legal(g, s, Move) == []


def test_chest_and_wayshrine(g, s) -> None:
    """rules.md#chest: a Lockpick covers it for a major secret; rules.md#wayshrine: once each."""
    lay(g, s, "shop", 1, 1)
    chest = room(g, s, "shop:k")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": chest}}, state=s)
    majors = len(s.majors)
    act(g, s, PickLock())
    assert len(s.majors) == majors - 1 and f"room {chest}" in s.picked
    assert PickLock() not in g.legal_actions(s)
    turn(g, s, 0, room=room(g, s, "start-a:w"))
    act(g, s, Mark())
    assert me.gold == 1 and Mark() not in g.legal_actions(s)


def test_artifact_taken_later_and_backpack(g, s) -> None:
    """rules.md#take-artifact: not on entry but as a room action; one without a Backpack."""
    lay(g, s, "vault", 1, 0, 3)
    art = room(g, s, "vault:art")
    scenario(g, {"players[0]": {"hand": [], "room": art}}, state=s)
    assert legal(g, s, Take) == [Take(token="artifact-7")]
    s.players[0].held.add(s.artifacts.draw())
    assert legal(g, s, Take) == []


def test_left_seat_draws_four_and_game_end(g, s) -> None:
    """rules.md#left-seats, #game-end: a seat out has a dragon turn of 6 cubes (2 seats);
    an empty bag ends the game with the rest knocked out."""
    me = s.players[0]
    me.held.add(s.artifacts.draw())
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    act(g, s, next(m for m in legal(g, s, Move) if m.to == g.graph(s).start))
    assert me.status == "escaped"
    s.bag.cubes = {"dragon": 3}
    s.dragon_aside = 21
    events = act(g, s, EndTurn())
    assert not any(isinstance(e, DragonTurn) for e in events)
    turn(g, s, 1)
    events = act(g, s, EndTurn())
    # Seat 0's turn is the dragon's: 6 cubes wanted, 3 in the bag: it empties, seat 1 is out.
    assert any(isinstance(e, DragonTurn) and e.seat == 0 for e in events)
    assert s.players[1].status == "eliminated" and g.is_over(s)


def test_knocked_out_in_the_depths_scores_nothing(g, s) -> None:
    """rules.md#knocked-out, #depths: the starting tile's top half is in the depths."""
    me = s.players[0]
    me.held.add(s.artifacts.draw())
    me.room = room(g, s, "start-a:w")
    me.supply, me.damage = me.supply - 10, 10
    g._knock_out(s, 0, [])
    assert me.status == "eliminated" and g.scores(s)[0].total == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_random_games(seats: int) -> None:
    """Whole games of random play end with every invariant holding (built-in tiles)."""
    g = CatacombsGame(CatacombsOptions())
    for seed in range(2):
        s = g.setup(seats, seed)
        pick = stream(Rng(seed=seed))
        steps = 0
        while not g.is_over(s):
            actions = g.legal_actions(s)
            g.resolve(s, actions[pick.below(len(actions))])
            steps += 1
            assert g.check_state(s) == [], steps
        assert all(p.status != "in" for p in s.players)
