"""Scenario tests of the seeds/clank-catacombs/rules.md sections and decisions that no other
test reaches: each builds an exact state and would fail if its rule were implemented wrongly.

Besides the builder's tiles (:func:`catacombs_build.tile_set`): ``oneway`` and ``twin``
(darker, a room whose west half carries an arrow out), ``into`` (lighter, a room whose west
half carries an arrow in), ``shrine`` (darker, the Monkey Shrine) and ``blank`` (lighter, a
room with a single half west).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from catacombs_build import (
    act,
    arrow_tile,
    clear_clank,
    crypt,
    game,
    lay,
    legal,
    put,
    room,
    start_tile,
    started,
    tile_set,
    turn,
)

sys.path.insert(0, str(Path(__file__).parents[1] / "clank"))

from clank_build import to_row

from meeple.core.testing import scenario
from meeple.plugins.clank.state import (
    Attacked,
    EndTurn,
    Fight,
    Move,
    Pick,
    Play,
    Skip,
    Take,
    Teleport,
    UseDevice,
)
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import (
    Accept,
    CatacombsOptions,
    ChooseRoom,
    DragonTurn,
    Explore,
    Offer,
    PlaceAnywhere,
    Placed,
    Rotate,
)
from meeple.plugins.clank_catacombs.tiles import Half, Tile, TileRoom


def tiles() -> list[Tile]:
    return [
        *tile_set(),
        arrow_tile("oneway", "out"),
        arrow_tile("twin", "out"),
        arrow_tile("into", "in"),
        Tile(
            id="shrine",
            back="darker",
            rooms=[TileRoom(id="s", reward="idol", monkey_shrine=True)],
            edges=[Half(room="s", side="w"), Half(room="s", side="e")],
        ),
        Tile(
            id="blank",
            back="lighter",
            rooms=[TileRoom(id="b")],
            edges=[Half(room="b", side="w")],
        ),
    ]


@pytest.fixture
def g():
    return game(tiles(), start_side="a")


@pytest.fixture
def s(g):
    return started(g, 2, 4)


def shrine(g, s) -> int:
    return room(g, s, "start-a:w")


def moves_to(g, s, to: int) -> list[Move]:
    return [m for m in legal(g, s, Move) if m.to == to]


# -- set-up -----------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["a", "b"])
def test_start_side_option_fixes_the_side(side: str) -> None:
    """rules.md#start-side: ``a`` or ``b`` always lays that side of the starting tile."""
    real = CatacombsGame(CatacombsOptions(start_side=side))  # type: ignore[arg-type]
    for seed in range(6):
        s = real.setup(2, seed)
        assert s.tiles[0].tile == f"start-{side}" and s.placed.cards == [f"start-{side}"]
        assert s.tile_box.cards and f"start-{'ab'[side == 'a']}" not in s.tile_stack.cards


def test_start_side_random_draws_both_and_repeats_per_seed() -> None:
    """rules.md#start-side: ``random`` (the default) draws the side at set-up: both come up
    over the seeds, and a seed always draws the same one."""
    real = CatacombsGame(CatacombsOptions())
    assert real.options.start_side == "random"
    sides = {seed: real.setup(2, seed).tiles[0].tile for seed in range(16)}
    assert set(sides.values()) == {"start-a", "start-b"}
    assert all(real.setup(2, seed).tiles[0].tile == side for seed, side in sides.items())


def test_start_artifacts_built_in_none_a_users_gets_the_top(g, s) -> None:
    """rules.md#start-artifacts: the built-in starting tile holds no artifact; a user's
    starting tile with an Artifact room gets the top artifact of the stack at set-up."""
    assert not any(z.cards for z in s.rooms) and len(s.artifacts) == 7
    start = start_tile()
    start.rooms.append(TileRoom(id="art", artifact=0, depths=True))
    start.inner.append(type(start.inner[0])(a="w", b="art"))
    mine = game([start, *tiles()[1:]], start_side="a")
    state = mine.setup(2, 4)
    assert state.rooms[room(mine, state, "start-a:art")].cards == ["artifact-5"]
    assert "artifact-5" not in state.artifacts.cards and len(state.artifacts) == 6


def test_idols_wait_for_the_monkey_shrines_tile(g, s) -> None:
    """rules.md#idols: no idol lies in the dungeon until the Monkey Shrine's tile is placed;
    then all three go on the shrine."""
    idols = list(s.idols.cards)
    assert len(idols) == 3 and not any(z.cards for z in s.rooms)
    lay(g, s, "hall", 1, 0)
    assert s.idols.cards == idols
    lay(g, s, "shrine", 1, 1)
    assert s.idols.cards == [] and sorted(s.rooms[room(g, s, "shrine:s")].cards) == sorted(idols)


def test_hidden_tile_stack_and_boxed_tiles_in_every_view(g) -> None:
    """rules.md#hidden: the tile stack's order and the 2 lighter tiles back in the box are
    unseen by every seat and by an onlooker; the placed tiles are public."""
    real = CatacombsGame(CatacombsOptions())
    s = real.setup(3, 2)
    secret = {*s.tile_stack.cards, *s.tile_box.cards}
    for viewer in (0, 1, 2, None):
        v = real.view(s, viewer)
        assert not secret & {*v.tile_stack.cards, *v.tile_box.cards}, viewer
        assert len(v.tile_stack) == len(s.tile_stack) and len(v.tile_box) == 2
        assert v.placed.cards == s.placed.cards and v.tiles == s.tiles


# -- turn basics on the Catacombs engine ----------------------------------------------------


def test_resources_pool_is_lost_and_gold_kept(g, s) -> None:
    """rules.md#resources: Skill, swords and boots end with the turn; gold stays; the next
    hand of five reshuffles the discard pile when the deck runs short."""
    me = s.players[0]
    fields = {"players[0]": {"hand": [], "room": crypt(g, s), "gold": 5}}
    scenario(g, {**fields, "pool": {"skill": 4, "swords": 2, "boots": 3}}, state=s)
    # Two cards left in the deck, five in the discard pile: the new hand reshuffles.
    while len(me.deck) > 2:
        put(s, me.discard, me.deck.cards[-1])
    put(s, me.play, me.discard.cards[0])
    act(g, s, EndTurn())
    assert (s.pool.skill, s.pool.swords, s.pool.boots) == (0, 0, 0) and me.gold == 5
    assert len(me.hand) == 5


def test_clank_from_the_supply_and_back(g, s) -> None:
    """rules.md#clank: clank takes cubes from the supply (no more than it holds); negative
    clank takes own cubes back and banks the rest against later clank this turn."""
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}}, state=s)
    events: list = []
    me.supply = 2
    g._make_clank(s, 0, 3, events)
    assert (me.clank, me.supply) == (2, 0)
    g._unclank(s, 0, 3, events)
    assert (me.clank, me.supply, s.pool.banked) == (0, 2, 1)
    g._make_clank(s, 0, 2, events)
    assert (me.clank, me.supply) == (1, 1)


def test_device_gold_and_lockpick_prices(g, s) -> None:
    """rules.md#device: Skill uses a Row device, which goes to the dungeon discard; Locked
    Trunk also takes a Lockpick, Wishing Well 3 gold; without them, no use."""
    to_row(s, "locked-trunk", "wishing-well")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}, "pool.skill": 10}, state=s)
    s.lockpicks[0] = 0
    me.gold = 2
    assert not legal(g, s, UseDevice)
    s.lockpicks[0] = 1
    me.gold = 3
    act(g, s, UseDevice(card="locked-trunk"))
    assert s.lockpicks[0] == 0
    assert "locked-trunk" in s.dungeon_discard.cards and s.pool.skill == 7
    assert any(g.cat.token[t].kind == "major" for t in me.held.cards)
    act(g, s, UseDevice(card="wishing-well"))
    assert me.gold == 0 and s.pool.skill == 7


def test_fight_goblin_again_and_depths_monster(g, s) -> None:
    """rules.md#fight: the Goblin stays to be fought again; The Warden (``where: depths``) is
    fought only from a room in the depths."""
    to_row(s, "the-warden")
    lay(g, s, "blank", 1, 1, 2)  # a lighter tile: not the depths
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}, "pool.swords": 8}, state=s)
    fights = {f.card for f in legal(g, s, Fight)}
    assert "the-warden" not in fights
    act(g, s, Fight(card="goblin"))
    act(g, s, Fight(card="goblin"))
    assert Fight(card="goblin") in g.legal_actions(s) and s.pool.swords == 4
    s.players[0].room = shrine(g, s)  # the starting tile's top half lies in the depths
    assert Fight(card="the-warden") in g.legal_actions(s)


def test_health_no_move_that_fills_the_meter(g, s) -> None:
    """rules.md#health: a monster icon's damage cannot be chosen when it would fill the meter
    or the supply cannot pay it; a sword pays it instead."""
    lay(g, s, "hall", 1, 0)
    me = s.players[0]
    a, w = room(g, s, "hall:a"), room(g, s, "hall:w")
    hurt = {"players[0]": {"hand": [], "room": a, "damage": 9, "supply": 21}}
    scenario(g, {**hurt, "pool.boots": 2}, state=s)
    assert moves_to(g, s, w) == []
    s.pool.swords = 1
    assert [m.swords for m in moves_to(g, s, w)] == [1]
    me.damage, me.supply, s.pool.swords = 0, 0, 0
    assert moves_to(g, s, w) == []


def test_depths_darker_tiles_and_the_top_half(g, s) -> None:
    """rules.md#depths: rooms on darker tiles and the starting tile's top half are in the
    depths; lighter tiles and the Crypt's half are not."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "shop", 1, 1, 2)
    depths = g.graph(s).depths
    names = g.graph(s).names
    assert {names[r] for r in depths} == {"start-a:w", "hall:a", "hall:w"}


# -- the dragon ------------------------------------------------------------------------------


def test_danger_adds_a_cube_to_each_attack(g, s) -> None:
    """rules.md#danger: each danger card in the Row adds one cube drawn."""
    s.rage = 0
    events: list = []
    plain = g._cubes_drawn(s, 0) - sum(g.cat.card[c].danger for c in s.row.cards)
    to_row(s, "wishing-well")
    danger = sum(g.cat.card[c].danger for c in s.row.cards)
    assert danger >= 1
    g._attack(s, events)
    drawn = next(e for e in events if isinstance(e, Attacked)).cubes
    assert len(drawn) == min(plain + danger, 24)


def test_left_cubes_two_seats_draw_six_and_set_aside(g, s) -> None:
    """rules.md#left-cubes, rules.md#left-seats: with 2 seats the turn of a seat that left
    draws exactly 6 cubes; its own drawn cubes are set aside, no damage to it."""
    me, other = s.players
    seats = {0: {"status": "escaped", "supply": 20, "clank": 10}, 1: {"hand": []}}
    fields = {"players": seats, "bag.cubes": {}, "dragon_aside": 24, "rage": 6}
    scenario(g, fields, state=s, top={"players[0].held": ["artifact-20"]}, to_move=1)
    events = act(g, s, EndTurn())
    assert any(isinstance(e, DragonTurn) and e.seat == 0 for e in events)
    drawn = next(e for e in events if isinstance(e, Attacked)).cubes
    assert len(drawn) == 6
    # Ten of its cubes in the bag, whatever the rage: six drawn, set aside, four left.
    assert me.damage == 0 and me.aside == 6 and len(s.bag) == 4 and other.damage == 0


def test_ghost_ward_is_the_seats_choice(g, s) -> None:
    """rules.md#ghosts, #ghost-ward: a seat holding a ward card chooses, once the cubes are
    drawn, whether to discard it (and draw) or take the Ghost's damage; seat 1 decides during
    seat 0's turn."""
    me, other = s.players
    put(s, other.hand, "white-tourmaline-1", "black-tourmaline")
    s.bag.cubes["ghost"], s.ghosts = 3, 2
    s.bag.cubes.update({c: 0 for c in ("dragon", "seat-0", "seat-1")})
    s.dragon_aside = 24
    events: list = []
    g.draw_cubes(s, events, 2)
    assert me.damage == 2 and other.damage == 0 and s.ghost_hits == [0, 2]
    assert g.ward_offer(s.stack[-1]) and s.stack[-1].seat == 1 and g.validate_state(s) == []
    hand = len(other.hand)
    act(g, s, Accept())
    assert other.damage == 0 and "white-tourmaline-1" in other.discard.cards
    assert len(other.hand) == hand  # one discarded, one drawn
    assert g.ward_offer(s.stack[-1]) and s.stack[-1].card is None  # the hand stays hidden
    act(g, s, Skip())
    assert other.damage == 1 and "black-tourmaline" in other.hand.cards
    assert s.ghost_hits == [0, 0] and s.stack[-1].seat == 0 and g.validate_state(s) == []


def test_more_ghosts_waiting_than_there_are_is_refused(g, s) -> None:
    """rules.md#ghost-ward: each drawn Ghost waits once on a seat, so a file saying a seat
    waits on more Ghosts than the game has is refused, not played (its damage would not end)."""
    s.ghost_hits = [6, 0]
    assert any("$.ghost_hits: [6, 0]" in p for p in g.validate_state(s))
    s.ghost_hits = [5, 0]
    assert not any("$.ghost_hits" in p for p in g.validate_state(s))


# -- map decisions --------------------------------------------------------------------------


def test_arrows_one_way_half_and_opposing_arrows(g, s) -> None:
    """rules.md#arrows: an arrow on one half makes the whole tunnel one-way (no way back);
    two opposing arrows close the tunnel both ways."""
    lay(g, s, "oneway", 1, 0)  # its arrow out faces west: out of it into the start
    o, w = room(g, s, "oneway:o"), shrine(g, s)
    scenario(g, {"players[0]": {"hand": [], "room": o}, "pool.boots": 2}, state=s)
    assert moves_to(g, s, w)
    s.players[0].room = w
    assert moves_to(g, s, o) == []
    # A teleport ignores arrows (rules.md#teleport).
    s.pool.teleports = 1
    assert any(t.to == o for t in legal(g, s, Teleport))
    # ``oneway`` turned so that its arrow points east, out of it, then a tile beside it.
    for other, there, back in (("into", True, False), ("twin", False, False)):
        s2 = g.setup(2, 4)
        lay(g, s2, "oneway", 1, 1, 2)
        lay(g, s2, other, 2, 1)
        exits = g.graph(s2).exits
        o2, x = room(g, s2, "oneway:o"), room(g, s2, f"{other}:{other[0]}")
        # Same way (into's arrow in): one-way onwards; opposing (twin's arrow out): closed.
        assert (x in {e.to for e in exits.get(o2, ())}) is there
        assert (o2 in {e.to for e in exits.get(x, ())}) is back


def test_arrows_discovery_rotation_closing_the_tunnel_does_not_complete(g, s) -> None:
    """rules.md#arrows: a discovered tile's rotation whose arrow would run against the
    mover's way does not complete the tunnel."""
    for tile, turns in (("into", {0, 2}), ("oneway", {2})):
        s = g.setup(2, 4)
        clear_clank(s)
        lay(g, s, "hall", 1, 0)
        put(s, s.tile_stack, tile)
        turn(g, s, 0, room=room(g, s, "hall:w"), boots=2)
        act(g, s, Explore(place=1, half=1))  # through the hall's lock, a Lockpick left there
        # Turn 0 sets the arrowed west half against the tunnel: ``into``'s arrow runs the
        # mover's way, ``oneway``'s against it; turn 2 sets the plain east half there.
        assert {a.turn for a in legal(g, s, Rotate) if a.enter} == turns, tile


def test_walls_a_half_against_a_side_without_one(g, s) -> None:
    """rules.md#walls: a half that meets a side without a half is a wall: no tunnel, and not
    an open edge to discover from either."""
    lay(g, s, "blank", 1, 1, 2)  # its only half turned east: the Crypt's east half meets a wall
    c, b = crypt(g, s), room(g, s, "blank:b")
    graph = g.graph(s)
    assert b not in {e.to for e in graph.exits.get(c, ())}
    assert all((o.place, o.half) != (0, 1) for o in graph.opens.get(c, []))
    turn(g, s, 0, room=c, boots=3, teleports=1)
    assert not [e for e in legal(g, s, Explore) if (e.place, e.half) == (0, 1)]
    assert not [t for t in legal(g, s, Teleport) if t.to == b]


def test_no_space_place_tile_without_an_empty_cell(g, s) -> None:
    """rules.md#no-space and rules.md#no-empty-option: with no empty cell beside the seat's
    tile ``place-tile`` (Marble Guardian) would do nothing, and the teleport onto a new tile
    neither, so that option is not offered and the tile stays on the stack."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "vault", 1, -1)
    lay(g, s, "cave", 2, 0)
    lay(g, s, "shop", 1, 1)
    me = s.players[0]
    to_row(s, "marble-guardian")
    top = list(s.tile_stack.cards)
    turn(g, s, 0, room=room(g, s, "hall:a"), swords=3)
    assert g.free_cells(s, 0) == []
    act(g, s, Fight(card="marble-guardian"))
    assert Pick(option=0) not in g.legal_actions(s)
    assert s.tile_stack.cards == top and len(s.tiles) == 5
    assert not any(isinstance(f, (PlaceAnywhere, ChooseRoom)) for f in s.stack)
    assert me.room == room(g, s, "hall:a")


def test_teleport_discovery_off_an_edge(g, s) -> None:
    """rules.md#teleport-discovery: a teleport along an open half discovers a tile; its icons
    (the vault's footprints and monster, or two monsters) are ignored: every completing
    rotation is offered without boots or swords, and no damage follows."""
    put(s, s.tile_stack, "vault")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": shrine(g, s)}, "pool.teleports": 1}, state=s)
    act(g, s, Explore(place=0, half=0, teleport=True))
    assert {a.turn for a in legal(g, s, Rotate)} == {0, 3}
    act(g, s, Rotate(turn=3))
    assert me.room == room(g, s, "vault:art") and me.damage == 0 and s.pool.teleports == 0


def test_paused_discovery_holds_the_map_still(g, s) -> None:
    """rules.md#paused-discovery: while a discovered tile waits for its rotation,
    ``place-tile``, ``rotate-tiles`` and ``teleport-to`` do nothing."""
    hall = lay(g, s, "hall", 1, 0)
    lay(g, s, "cave", 2, 0)  # haunted: ``teleport-to haunted-tile`` would offer its rooms
    s.players[1].room = room(g, s, "hall:a")
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:crypt"), boots=1)
    act(g, s, Explore(place=0, half=1))
    stack, tiles_, top = list(s.stack), list(s.tiles), list(s.tile_stack.cards)
    card = g.cat.card["sudden-movement-1"]
    g.rotate_tiles(s, 0, card.arrive[0], "sudden-movement-1", [])
    g.place_tile(s, 0, cx.PlaceTile(), None, [])
    s.players[1].room = room(g, s, "hall:a")
    g.teleport_to_effect(s, 0, cx.TeleportTo(to="haunted-tile"), None, [])
    assert s.stack == stack and s.tiles == tiles_ and s.tile_stack.cards == top
    assert s.tiles[hall].turn == 0


def test_room_ids_in_placement_order_and_kept(g, s) -> None:
    """rules.md#room-ids: rooms count from 0 in placement order (the starting tile's first,
    each tile's in its table order), keep their numbers when tiles turn, and read as
    ``<tile>:<room>`` beside the number."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "cave", 1, 1)
    names = g.graph(s).names
    assert names == ["start-a:crypt", "start-a:w", "hall:a", "hall:w", "cave:c", "cave:p"]
    s.tiles[2] = Placed("cave", 1, 1, 3)
    assert g.graph(s).names == names
    turn(g, s, 0, room=room(g, s, "hall:a"), boots=5)
    text = g.presentation.describe_action(s, moves_to(g, s, room(g, s, "hall:w"))[0])
    assert "hall:w" in text and "3" in text


def test_idols_one_per_visit_never_a_room_action(g, s) -> None:
    """rules.md#idols, #reward-once, #take-when: the Monkey Shrine gives one idol on entry,
    once per seat per turn; staying (or coming back that turn) yields no other, and the
    idols are never taken as a room action; a later turn's visit gives the next."""
    lay(g, s, "shrine", 1, 0)
    me = s.players[0]
    s_room = room(g, s, "shrine:s")
    assert len(s.rooms[s_room]) == 3
    scenario(g, {"players[0]": {"hand": [], "room": shrine(g, s)}, "pool.boots": 3}, state=s)
    act(g, s, moves_to(g, s, s_room)[0])
    assert g.holds(me, "idol") == 1 and len(s.rooms[s_room]) == 2
    assert not legal(g, s, Take)
    act(g, s, moves_to(g, s, shrine(g, s))[0])
    act(g, s, moves_to(g, s, s_room)[0])
    assert g.holds(me, "idol") == 1 and not legal(g, s, Take)
    turn(g, s, 0, room=shrine(g, s), boots=1)
    act(g, s, moves_to(g, s, s_room)[0])
    assert g.holds(me, "idol") == 2 and len(s.rooms[s_room]) == 1


def test_condition_kinds_place_now_or_later_counts_whole_turn(g, s) -> None:
    """rules.md#condition-kinds: a location condition holds where the seat stands when the
    card is played or later that turn, not where it stood before; a count condition
    (``made-2-clank``) holds whether the clank came before or after the card."""
    lay(g, s, "hall", 1, 0)
    me = s.players[0]
    turn(g, s, 0, hand=("waystone",), room=shrine(g, s), boots=1)
    act(g, s, moves_to(g, s, room(g, s, "hall:a"))[0])
    act(g, s, Play(card="waystone"))
    assert not isinstance(s.stack[-1], Offer)
    for hand in (
        ("stumble-s0-1", "stumble-s0-2", "flamboyance-1"),
        ("flamboyance-1", "stumble-s0-1", "stumble-s0-2"),
    ):
        s = g.setup(2, 4)
        clear_clank(s)
        me = s.players[0]
        turn(g, s, 0, hand=hand, room=crypt(g, s))
        for card in hand:
            act(g, s, Play(card=card))
        assert me.clank == 2 and s.pool.skill == 2, hand
