"""The refresher's "A turn, played out", step by step with its exact numbers.

Each step cites seeds/clank-catacombs/rules.md. The seat to play is seat 0;
the player to its left is seat 1.
"""

from __future__ import annotations

from catacombs_build import act, game, lay, legal, put, room, turn

from meeple.plugins.clank.state import Acquire, Attacked, EndTurn, Move, Play, Take
from meeple.plugins.clank_catacombs.ghosts import GHOST
from meeple.plugins.clank_catacombs.state import Explore, Mark, Rotate


def test_a_turn_played_out() -> None:
    g = game(start_side="a")
    s = g.setup(2, 11)
    cards = g.cat.card
    hall = lay(g, s, "hall", 1, 0)
    put(s, s.tile_stack, "vault")
    here = room(g, s, "hall:a")
    # One cube of seat 0 and two of seat 1 in the Clank! area, and one Ghost (rules.md#ghosts).
    for p, n in zip(s.players, (1, 2), strict=True):
        p.supply += p.clank - n
        p.clank = n
    s.ghosts, s.ghost_clank = 4, 1
    s.rage = 3  # the marker on the space showing 3 (rules.md#dragon-attack)
    me = s.players[0]
    s.lockpicks[0] = 1  # 1 Lockpick left of 3
    shrine = room(g, s, "start-a:w")  # a Wayshrine marked earlier, on another tile
    s.marks[0].append(shrine)
    me.supply -= 1
    # The row: one danger card and a blue-banner card costing 3; a dragon card next.
    put(s, s.dungeon_discard, *s.row.cards)
    quiet = [
        c
        for c in g.cat.dungeon
        if not (cards[c].dragon or cards[c].danger or cards[c].arrive) and cards[c].cost > 3
    ]
    put(s, s.row, "corrupt-advisor", "bard-1", *quiet[:4])
    put(s, s.dungeon, "rose-quartz-1")
    turn(g, s, 0, hand=("stumble-s0-1", "stumble-s0-2"), room=here, boots=4, swords=2, skill=3)
    assert g.check_state(s) == []

    # The cards give 2 Clank: 3 of seat 0's cubes wait in the area.
    for card in ("stumble-s0-1", "stumble-s0-2"):
        act(g, s, Play(card=card))
    assert me.clank == 3

    # rules.md#acquire: 3 Skill for the blue-banner card; its slot stays empty.
    assert cards["bard-1"].cost == 3
    act(g, s, Acquire(card="bard-1"))
    assert "bard-1" in me.discard.cards and len(s.row) == 5 and s.pool.skill == 0

    # rules.md#movement: footprints and a monster icon: 2 boots and a sword, no damage.
    way = room(g, s, "hall:w")
    walk = [m for m in legal(g, s, Move) if m.to == way]
    assert {m.swords for m in walk} == {0, 1}
    tunnel = walk[0].tunnel
    act(g, s, Move(tunnel=tunnel, to=way, swords=1))
    assert me.room == way and me.damage == 0
    assert (s.pool.boots, s.pool.swords) == (2, 1)

    # rules.md#wayshrine: the second Wayshrine marked is worth 2 gold.
    gold, supply = me.gold, me.supply
    act(g, s, Mark())
    assert me.gold == gold + 2 and me.supply == supply - 1 and s.marks[0] == [shrine, way]

    # rules.md#locks: the last Lockpick stays on the locked edge tunnel, open for everyone.
    explore = [a for a in legal(g, s, Explore) if not a.teleport]
    assert explore == [Explore(place=hall, half=1)]
    act(g, s, explore[0])
    assert s.lockpicks[0] == 0 and s.picked == [f"{hall}/e1"]

    # rules.md#discovery: the vault turned so that its footprints and monster face the tunnel
    # costs exactly the 2 boots and the last sword; turned so that two monsters face it, the
    # seat would pay a sword and take a damage.
    rotations = {(a.turn, a.swords) for a in legal(g, s, Rotate)}
    assert (0, 1) in rotations and (0, 0) in rotations
    act(g, s, Rotate(turn=0, swords=1))
    vault = room(g, s, "vault:art")
    assert me.room == vault and me.damage == 0 and (s.pool.boots, s.pool.swords) == (0, 0)

    # rules.md#artifact-rooms: one plus icon: the second artifact from the top (7).
    assert s.rooms[vault].cards == ["artifact-7"]
    assert s.artifacts.cards[-1] == "artifact-5"

    # rules.md#take-artifact: taking it moves the marker from 3 to 4.
    act(g, s, Take(token="artifact-7"))
    assert s.rage == 4 and "artifact-7" in me.held.cards

    # rules.md#turn: the turn ends; the row refills its one slot with a dragon-attack card;
    # 4 cubes for the rage space plus 1 for the danger card. The draw of the example (3 black,
    # 1 of seat 0's and the Ghost) is found by trying seeds.
    assert cards["rose-quartz-1"].dragon and cards["corrupt-advisor"].danger
    for seed in range(500):
        trial = g.clone(s)
        trial.rng.seed = seed
        events = g.resolve(trial, EndTurn())
        attack = next(e for e in events if isinstance(e, Attacked))
        if sorted(attack.cubes) == sorted(["dragon"] * 3 + ["seat-0", GHOST]):
            break
    else:
        raise AssertionError("no seed gives the example's draw")
    assert len(attack.cubes) == 5
    assert trial.rage == 4 and g.cat.tables.rage_track[trial.rage] == 4
    assert len(trial.players[0].hand) == 5 and trial.row.cards[-1] == "rose-quartz-1"
    # 2 damage to seat 0 (its cube and the Ghost), 1 to seat 1 (the Ghost), black set aside.
    assert [p.damage for p in trial.players] == [2, 1]
    assert trial.dragon_aside == 3
    # The Ghost goes back to the Clank! area.
    assert trial.ghost_clank == 1 and trial.bag.cubes.get(GHOST, 0) == 0
    assert g.check_state(trial) == []
