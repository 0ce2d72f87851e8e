"""Scenario tests of movement on a small hand-made board (see clank_build.tiny_board)."""

from __future__ import annotations

import pytest
from clank_build import (
    act,
    game,
    legal,
    place_artifacts,
    put,
    started,
    tiny_board,
    turn,
)

from meeple.plugins.clank.state import Damaged, Move, Skip, Take, TakeToken, Teleport, UseToken


@pytest.fixture
def g():
    return game(board=tiny_board())


@pytest.fixture
def state(g):
    s = started(g, 2, 5)
    place_artifacts(g, s)
    return s


def moves(g, state):
    return {(a.to, a.swords) for a in legal(g, state, Move)}


def test_boots_and_footprints(g, state) -> None:
    """rules.md#movement: a tunnel costs 1 boot, footprints 2."""
    turn(g, state, 0, room=2, boots=1, swords=2)
    assert 4 not in {to for to, _ in moves(g, state)}
    state.pool.boots = 2
    assert (4, 2) in moves(g, state)


def test_monsters_damage_unless_swords(g, state) -> None:
    """rules.md#movement: each monster icon is 1 damage unless a sword is spent on it."""
    turn(g, state, 0, room=2, boots=2, swords=1)
    assert {(4, 0), (4, 1)} <= moves(g, state)
    events = act(g, state, Move(tunnel=2, to=4, swords=1))
    assert state.pool.swords == 0
    assert [e.n for e in events if isinstance(e, Damaged)] == [1]  # one icon paid, one taken


def test_voluntary_damage_never_fills_the_meter(g, state) -> None:
    """rules.md#health: monster damage cannot fill the meter or come from an empty supply."""
    turn(g, state, 0, room=2, boots=2)
    p = state.players[0]
    p.damage, p.supply = 8, 22
    assert (4, 0) not in moves(g, state)
    p.damage, p.supply = 7, 23
    assert (4, 0) in moves(g, state)
    p.clank, p.supply = 22, 1
    assert (4, 0) not in moves(g, state)


def test_flying_carpet_ignores_monsters(g, state) -> None:
    """rules.md#movement: ignore-tunnel-monsters makes the icons harmless."""
    turn(g, state, 0, room=2, boots=2, mods=["ignore-tunnel-monsters"])
    act(g, state, Move(tunnel=2, to=4))
    assert state.players[0].damage == 0


def test_locked_tunnel_needs_a_master_key(g, state) -> None:
    """rules.md#movement: a locked tunnel only with a Master Key, which is kept."""
    turn(g, state, 0, room=4, boots=1)
    assert 5 not in {to for to, _ in moves(g, state)}
    put(state, state.players[0].held, "master-key-1")
    act(g, state, Move(tunnel=3, to=5))
    assert "master-key-1" in state.players[0].held.cards


def test_one_way_tunnel(g, state) -> None:
    """rules.md#movement: a one-way tunnel only in its arrow's direction."""
    turn(g, state, 0, room=3, boots=1)
    assert 5 in {to for to, _ in moves(g, state)}
    turn(g, state, 0, room=5, boots=1)
    assert 3 not in {to for to, _ in moves(g, state)}


def test_crystal_cave_exhausts(g, state) -> None:
    """rules.md#movement: no more boots after entering a crystal cave; Dead Run lifts it."""
    turn(g, state, 0, room=2, boots=3)
    act(g, state, Move(tunnel=1, to=3))
    assert state.pool.exhausted and moves(g, state) == set()
    state.pool.mods.append("no-crystal-exhaust")
    assert moves(g, state)


def test_teleport_ignores_arrows_icons_and_exhaustion(g, state) -> None:
    """rules.md#teleport: any adjacent room, against the arrow, after a cave."""
    turn(g, state, 0, room=5, teleports=1, exhausted=True)
    targets = {a.to for a in legal(g, state, Teleport)}
    assert targets == {3, 4, 6}  # 3 against the arrow, 4 through the lock
    act(g, state, Teleport(tunnel=4, to=3))
    assert state.players[0].room == 3 and state.pool.teleports == 0


def test_teleport_through_a_lock_by_option(state) -> None:
    """rules.md#teleport-locks: with ``key``, a locked tunnel needs a key even to teleport."""
    g = game(board=tiny_board(), teleport_locks="key")
    turn(g, state, 0, room=5, teleports=1)
    assert 4 not in {a.to for a in legal(g, state, Teleport)}


def test_one_token_per_entry(g, state) -> None:
    """rules.md#tokens: entering offers one token; taking another needs a new entry."""
    turn(g, state, 0, room=6, boots=2)
    act(g, state, Move(tunnel=5, to=5))
    frame = state.stack[-1]
    assert isinstance(frame, TakeToken) and Skip() in g.legal_actions(state)
    secrets = [a for a in legal(g, state, Take) if not a.token.startswith("artifact")]
    assert secrets == [Take(token="?minor")]  # the two minor secrets, taken blind
    act(g, state, secrets[0])
    assert legal(g, state, Take) == [Take(token="artifact-10")]  # rules.md#take-artifact
    assert g.legal_actions(state)  # back to the turn


def test_secret_is_revealed_and_resolved(g, state) -> None:
    """rules.md#tokens: a Skill Boost gives its skill at once and is spent."""
    turn(g, state, 0, room=6, boots=1)
    room5 = state.rooms[g.cat.graph.index[5]]
    put(state, room5, "skill-boost-1", up=False)
    act(g, state, Move(tunnel=5, to=5))
    act(g, state, Take(token="?minor"))  # the top minor secret
    assert state.pool.skill == 2 and "skill-boost-1" in state.spent.cards


def test_artifact_taken_in_its_room_on_any_turn(g, state) -> None:
    """rules.md#take-artifact, #rage: taking an artifact is a turn action in its room, on a
    later turn too; it moves the marker up; a second needs a Backpack, which may be bought
    after entering."""
    p = state.players[0]
    turn(g, state, 0, room=6, boots=1)
    act(g, state, Move(tunnel=5, to=5))
    assert all(a.token != "artifact-10" for a in legal(g, state, Take))  # not on entry
    act(g, state, Skip())
    assert Take(token="artifact-10") in g.legal_actions(state)
    turn(g, state, 0, room=5)  # a later turn, still in the room
    rage = state.rage
    act(g, state, Take(token="artifact-10"))
    assert state.rage == rage + 1 and "artifact-10" in p.held.cards
    turn(g, state, 0, room=6)
    assert legal(g, state, Take) == []
    put(state, p.held, "backpack-1")
    assert legal(g, state, Take) == [Take(token="artifact-20")]


def test_artifact_raises_rage_and_one_at_a_time(state) -> None:
    """rules.md#take-artifact (``artifact_take=entry``), #tokens, #rage: an artifact is taken
    on entry only; it moves the marker up; a second needs a Backpack."""
    g = game(board=tiny_board(), artifact_take="entry")
    turn(g, state, 0, room=5, boots=2)
    rage = state.rage
    act(g, state, Move(tunnel=5, to=6))
    act(g, state, Take(token="artifact-20"))
    assert state.rage == rage + 1
    act(g, state, Move(tunnel=5, to=5))
    assert Take(token="artifact-10") not in g.legal_actions(state)
    act(g, state, Skip())
    put(state, state.players[0].held, "backpack-1")
    state.pool.teleports = 1
    act(g, state, Teleport(tunnel=5, to=6))
    act(g, state, Skip())
    state.pool.teleports = 1
    act(g, state, Teleport(tunnel=5, to=5))
    assert Take(token="artifact-10") in g.legal_actions(state)


def test_healing_room(g, state) -> None:
    """rules.md#movement: a healing room heals on each entry."""
    turn(g, state, 0, room=2, boots=2, swords=2)
    p = state.players[0]
    p.damage, p.supply = 3, 27
    act(g, state, Move(tunnel=2, to=4, swords=2))
    assert p.damage == 2


def test_damage_and_healing_move_cubes_between_supply_and_meter(g, state) -> None:
    """rules.md#health: a monster passed without a sword puts the seat's own cubes from its
    supply on its meter; healing puts them back in the supply; healing beyond the damage is
    lost."""
    turn(g, state, 0, room=2, boots=2)
    p = state.players[0]
    put(state, p.held, "potion-of-greater-healing-1")
    supply = p.supply
    act(g, state, Move(tunnel=2, to=4, swords=0))  # two monsters, then the room heals 1
    assert (p.damage, p.supply) == (1, supply - 1)
    act(g, state, UseToken(token="potion-of-greater-healing-1"))  # heals 2, only 1 to heal
    assert (p.damage, p.supply) == (0, supply)


def test_start_room_only_with_an_artifact(g, state) -> None:
    """rules.md#movement, #escape: room 1 needs an artifact; entering it escapes with Mastery."""
    turn(g, state, 0, room=2, boots=1)
    assert 1 not in {to for to, _ in moves(g, state)}
    put(state, state.players[0].held, "artifact-10")
    act(g, state, Move(tunnel=0, to=1))
    p = state.players[0]
    assert p.status == "escaped" and any(t.startswith("mastery") for t in p.held.cards)
    assert state.countdown_seat == 0 and state.countdown == 1
    state.pool.boots = 1
    assert moves(g, state) == set()  # an escaped seat cannot move
