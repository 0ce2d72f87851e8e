"""More scenario tests of the Catacombs rules, each citing seeds/clank-catacombs/rules.md:
set-up, discovery's placement, locks across tiles, artifact placement, room actions, the
dragon, the end and scoring, and one test per check of the state's validation.

Besides the builder's tiles (:func:`catacombs_build.tile_set`): ``door`` (lighter, a
locked half west), ``deep`` (darker, an Artifact room with two plus icons) and ``plain``
(lighter, an Artifact room without plus icons).
"""

from __future__ import annotations

import pytest
from catacombs_build import (
    act,
    clear_clank,
    game,
    lay,
    legal,
    put,
    room,
    started,
    tile_set,
    turn,
)

from meeple.core.scoring import rank
from meeple.core.testing import scenario
from meeple.plugins.clank.state import (
    Attacked,
    Buy,
    EndTurn,
    Fight,
    Move,
    Play,
    Replace,
    Take,
    Teleport,
)
from meeple.plugins.clank_catacombs.ghosts import GHOST
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import (
    CatacombsOptions,
    DragonTurn,
    Explore,
    Mark,
    Opened,
    PickLock,
    Placed,
    Rotate,
)
from meeple.plugins.clank_catacombs.tiles import Half, Inner, Tile, TileRoom


def tiles() -> list[Tile]:
    return [
        *tile_set(),
        Tile(
            id="door",
            back="lighter",
            rooms=[TileRoom(id="d")],
            edges=[Half(room="d", side="w", lock=True), Half(room="d", side="e")],
        ),
        Tile(
            id="deep",
            back="darker",
            rooms=[TileRoom(id="art", artifact=2)],
            edges=[Half(room="art", side="w"), Half(room="art", side="n")],
        ),
        Tile(
            id="plain",
            back="lighter",
            rooms=[TileRoom(id="art", artifact=0)],
            edges=[Half(room="art", side="w")],
        ),
    ]


@pytest.fixture
def g():
    return game(tiles(), start_side="a")


@pytest.fixture
def s(g):
    return started(g, 2, 4)


def drop_lockpicks(s, seat: int, keep: int = 0) -> None:
    """Seat ``seat`` keeps ``keep`` Lockpicks."""
    s.lockpicks[seat] = keep


def hurt(p, n: int) -> None:
    p.supply -= n
    p.damage += n


# -- set-up ---------------------------------------------------------------------------------


def test_setup_two_lighter_tiles_return_unseen_and_either_side() -> None:
    """rules.md#setup, #start-side, #hidden: 2 lighter tiles go back to the box face down, the
    tile stack is hidden; with ``random`` both sides of the starting tile come up."""
    real = CatacombsGame(CatacombsOptions())
    sides = set()
    for seed in range(12):
        s = real.setup(3, seed)
        sides.add(s.tiles[0].tile)
        backs = [real.cat.tiles[t].back for t in s.tile_box.cards]
        assert backs == ["lighter", "lighter"]
        assert [real.cat.tiles[t].back for t in s.tile_stack.cards[:-4]] == ["darker"] * 22
        view = real.view(s, 0)
        assert (
            view.tile_box.cards != s.tile_box.cards
            and view.tile_stack.cards[-1] != (s.tile_stack.cards[-1])
        )
    assert sides == {"start-a", "start-b"}


@pytest.mark.parametrize("side", ["a", "b"])
def test_setup_puts_the_idols_on_the_monkey_shrine(side: str) -> None:
    """rules.md#setup, #idols: the built-in starting tile holds the Monkey Shrine on both sides,
    so the 3 Monkey Idols go there at set-up."""
    real = CatacombsGame(CatacombsOptions(start_side=side))
    s = real.setup(2, 0)
    shrine = room(real, s, f"start-{side}:m")
    assert len(s.rooms[shrine].cards) == 3 and not s.idols.cards


def test_setup_three_lockpicks_each(g) -> None:
    """rules.md#setup, #lockpick-supply: 3 Lockpicks each, from a bank that never runs out."""
    for seats in (2, 3, 4):
        s = g.setup(seats, 1)
        assert s.lockpicks == [3] * seats and all(g.lockpicks(s, p) == 3 for p in s.players)


# -- discovery --------------------------------------------------------------------------------


@pytest.mark.parametrize(("half", "cell"), [("start-a:w", (1, 0)), ("start-a:crypt", (1, 1))])
def test_discovery_lines_up_with_the_starting_tiles_halves(g, s, half, cell) -> None:
    """rules.md#discovery: beside the starting tile's long side a square tile lines up with
    its top or its bottom half, the one the tunnel leaves."""
    put(s, s.tile_stack, "cave")
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, half)}, "pool.boots": 1}, state=s)
    act(g, s, legal(g, s, Explore)[0])
    # The cave has a half on every side: each of the four rotations completes the tunnel.
    assert {a.turn for a in legal(g, s, Rotate)} == {0, 1, 2, 3}
    act(g, s, Rotate(turn=1))
    assert (s.tiles[-1].x, s.tiles[-1].y) == cell
    assert s.players[0].room == room(g, s, "cave:c")


def test_discovery_against_the_tile_being_left(g, s) -> None:
    """rules.md#discovery, #teleport-discovery: from a square tile the new tile goes into the
    empty cell beyond the half taken, sharing that full edge, in a rotation that turns one of
    its halves to face the tunnel."""
    cave = lay(g, s, "cave", 1, 1)
    put(s, s.tile_stack, "shop")
    turn(g, s, 0, room=room(g, s, "cave:c"), teleports=1)
    act(g, s, Explore(place=cave, half=0, teleport=True))  # the cave's north half
    # The shop's halves (west and east) face south after 3 or 1 quarter turns.
    assert {a.turn for a in legal(g, s, Rotate)} == {1, 3}
    act(g, s, Rotate(turn=3))
    assert s.tiles[-1] == Placed("shop", 1, 0, 3)
    assert s.players[0].room == room(g, s, "shop:m") and s.pool.teleports == 0


def test_discovery_pause_to_fight_for_the_boots(g, s) -> None:
    """rules.md#discovery: the mover may fight while the tile waits, to pay a rotation."""
    put(s, s.tile_stack, "vault")
    put(s, s.row, "animated-wall-1")
    put(s, s.dungeon_discard, s.row.cards[0])
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1, swords=2)
    act(g, s, Explore(place=0, half=0))
    # Footprints (turn 0) need 2 boots: only the north half (turn 3) is payable now.
    assert {a.turn for a in legal(g, s, Rotate)} == {3}
    assert Fight(card="animated-wall-1") in g.legal_actions(s)
    act(g, s, Fight(card="animated-wall-1"))
    assert s.pool.boots == 2 and 0 in {a.turn for a in legal(g, s, Rotate)}
    act(g, s, Rotate(turn=0))
    assert s.players[0].room == room(g, s, "vault:art") and s.players[0].damage == 1


def test_discovery_rotation_must_pay_the_new_half_lock(g, s) -> None:
    """rules.md#discovery, #locks: a rotation whose new half holds a lock needs a Lockpick."""
    lay(g, s, "hall", 1, 0)
    put(s, s.tile_stack, "door")
    hall = 1
    turn(g, s, 0, room=room(g, s, "hall:w"), boots=1)
    drop_lockpicks(s, 0, keep=1)
    act(g, s, Explore(place=hall, half=1))  # the hall's own lock takes the only Lockpick
    # The door's locked west half is the only one that can face the tunnel (turn 0) or its
    # east half (turn 2): without a Lockpick only turn 2.
    assert {a.turn for a in legal(g, s, Rotate) if a.enter} == {2}
    s.lockpicks[0] += 1
    assert {a.turn for a in legal(g, s, Rotate) if a.enter} == {0, 2}


# -- locks ------------------------------------------------------------------------------------


def test_two_locks_across_two_tiles_need_two_lockpicks(g, s) -> None:
    """rules.md#locks: a tunnel with a lock on each half takes two Lockpicks, left there."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "door", 2, 0)
    way, d = room(g, s, "hall:w"), room(g, s, "door:d")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": way}, "pool.boots": 1}, state=s)
    drop_lockpicks(s, 0, keep=1)
    assert d not in {m.to for m in legal(g, s, Move)}
    s.lockpicks[0] += 1
    events = act(g, s, next(m for m in legal(g, s, Move) if m.to == d))
    assert me.room == d and s.lockpicks[0] == 0
    assert sorted(s.picked) == ["1/e1", "2/e0"]
    assert sum(isinstance(e, Opened) for e in events) == 2


def test_teleport_ignores_locks(g, s) -> None:
    """rules.md#teleport: a teleport needs no Lockpick."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "door", 2, 0)
    turn(g, s, 0, room=room(g, s, "hall:w"), teleports=1)
    drop_lockpicks(s, 0)
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == room(g, s, "door:d")))
    assert s.picked == []


# -- artifact rooms -----------------------------------------------------------------------------


def test_artifact_plus_icons(g, s) -> None:
    """rules.md#artifact-rooms: no plus icon, the top artifact; two, the one two below it."""
    lay(g, s, "plain", 1, 1)
    assert s.rooms[room(g, s, "plain:art")].cards == ["artifact-5"]
    lay(g, s, "deep", 1, 0)
    assert s.rooms[room(g, s, "deep:art")].cards == ["artifact-12"]
    assert s.artifacts.cards == [
        "artifact-20",
        "artifact-17",
        "artifact-15",
        "artifact-10",
        "artifact-7",
    ]


def test_artifact_short_stack_gives_the_most_valuable(g, s) -> None:
    """rules.md#artifact-rooms: a stack too short gives the most valuable left; an empty stack
    nothing."""
    box = s.artifacts.cards[2:]
    put(s, s.box, *box)
    assert s.artifacts.cards == ["artifact-20", "artifact-17"]
    lay(g, s, "deep", 1, 0)
    assert s.rooms[room(g, s, "deep:art")].cards == ["artifact-20"]
    put(s, s.box, "artifact-17")
    lay(g, s, "plain", 1, 1)
    assert s.rooms[room(g, s, "plain:art")].cards == []


# -- rooms -------------------------------------------------------------------------------------


def test_crystal_cave_exhausts_after_a_teleport(g, s) -> None:
    """rules.md#crystal-cave: a teleport into a cave exhausts too; teleports stay open."""
    lay(g, s, "cave", 1, 1)
    turn(g, s, 0, room=room(g, s, "start-a:crypt"), boots=3, teleports=2)
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == room(g, s, "cave:c")))
    assert s.pool.exhausted and legal(g, s, Move) == []
    assert all(a.teleport for a in legal(g, s, Explore)) and legal(g, s, Teleport)


def test_reward_once_per_turn_by_teleport_too(g, s) -> None:
    """rules.md#reward-rooms, rules.md#reward-once: a teleport into a reward room gets its reward,
    once a turn; the next turn again."""
    lay(g, s, "shop", 1, 1)
    chest, market = room(g, s, "shop:k"), room(g, s, "shop:m")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": market}, "pool.teleports": 2}, state=s)
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == chest))
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == market))
    assert me.gold == 2
    s.pool.rewarded.clear()  # what the end of the turn does
    turn(g, s, 0, room=market, teleports=1)
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == chest))
    assert me.gold == 4


def test_haunted_tile_with_every_ghost_in_play(g, s) -> None:
    """rules.md#ghost-supply: with all 5 Ghosts in play a haunted tile adds none."""
    s.ghosts, s.ghost_clank = 0, 5
    lay(g, s, "cave", 1, 1)
    assert (s.ghosts, s.ghost_clank) == (0, 5)


def test_ghost_hurts_an_empty_supply_with_a_black_cube(g, s) -> None:
    """rules.md#ghosts, #ghost-damage: a seat with no cube in its supply still takes the
    Ghost's damage, shown with a black cube set aside; healing sends it back to the bank."""
    poor = s.players[1]
    poor.aside, poor.supply = poor.supply, 0
    s.bag.cubes["dragon"] -= 1
    s.dragon_aside += 1
    hit: list[int] = []
    g.hit(s, GHOST, hit)
    assert hit == [0, 1] and s.players[0].damage == 1 and poor.damage == 1
    assert s.black_damage == [0, 1] and g.validate_state(s) == []
    g.hit(s, GHOST, hit)  # no black cube left to show it with
    assert poor.damage == 1 and s.players[0].damage == 2
    g.heal(s, 1, 1, [])
    assert (poor.damage, poor.supply, s.black_damage) == (0, 0, [0, 0])
    assert g.validate_state(s) == []


def test_backpack_carries_a_second_artifact(g, s) -> None:
    """rules.md#take-artifact: a Backpack lets a seat holding an artifact take another."""
    lay(g, s, "plain", 1, 1)
    me = s.players[0]
    put(s, me.held, "artifact-20")
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "plain:art")}}, state=s)
    assert legal(g, s, Take) == []
    put(s, me.held, "backpack-1")
    act(g, s, Take(token="artifact-5"))
    assert {"artifact-5", "artifact-20"} <= set(me.held.cards)


def test_market_blood_amulet_and_crowns(g, s) -> None:
    """rules.md#market: 7 gold an item; the Blood Amulet needs 5 damage; a Crown buyer gets
    the most valuable Crown left."""
    lay(g, s, "shop", 1, 1)
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "shop:m"), "gold": 21}}, state=s)
    assert Buy(item="blood-amulet") not in g.legal_actions(s)
    hurt(me, 5)
    act(g, s, Buy(item="blood-amulet"))
    assert me.gold == 14 and me.damage == 3
    put(s, s.box, "crown-10")
    act(g, s, Buy(item="crown"))
    assert "crown-9" in me.held.cards and me.gold == 7


def test_library_gives_a_secret_tome(g, s) -> None:
    """rules.md#library: a Lockpick covers it for a Secret Tome into the discard pile; not when
    the pile is empty."""
    lib = Tile(
        id="lib",
        back="lighter",
        rooms=[TileRoom(id="l", library=True)],
        edges=[Half(room="l", side="w")],
    )
    g = game([*tiles(), lib], start_side="a")
    s = g.setup(2, 4)
    lay(g, s, "lib", 1, 1)
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "lib:l")}}, state=s)
    pile = g._reserve_pile(s, "secret-tome")
    top = pile.cards[-1]
    act(g, s, PickLock())
    assert me.discard.cards[-1] == top and s.lockpicks[0] == 2
    assert PickLock() not in g.legal_actions(s)
    s.picked.remove(f"room {me.room}")
    put(s, s.box, *g._reserve_pile(s, "secret-tome").cards)
    assert PickLock() not in g.legal_actions(s)


@pytest.mark.parametrize("left", [3, 1, 0])
def test_prison_frees_two_or_the_last(g, s, left: int) -> None:
    """rules.md#prison: two Prisoners, the last one alone, none from an empty pile."""
    lay(g, s, "cave", 1, 1)
    keep = ["peasant-1", "peasant-2", "golden-monkey-bot"][:left]
    put(s, s.box, *[t for t in s.prisoners.cards if t not in keep])
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "cave:p")}}, state=s)
    if not left:
        assert PickLock() not in g.legal_actions(s)
        return
    act(g, s, PickLock())
    freed = [t for t in me.held.cards if g.cat.token[t].kind == "prisoner"]
    assert len(freed) == min(2, left) and len(s.prisoners) == left - len(freed)


def test_wayshrine_not_with_an_empty_supply(g, s) -> None:
    """rules.md#wayshrine: no mark without a cube in the supply."""
    me = s.players[0]
    me.aside, me.supply = me.supply, 0
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "start-a:w")}}, state=s)
    assert Mark() not in g.legal_actions(s)


# -- the dragon and the end ---------------------------------------------------------------------


def test_attack_counts_danger(g, s) -> None:
    """rules.md#dragon-attack, #danger: the rage number plus one per danger card."""
    danger = [c for c in g.cat.dungeon if g.cat.card[c].danger]
    put(s, s.dungeon_discard, *s.row.cards[:2])
    put(s, s.row, *danger[:2])
    s.rage = 5
    assert sum(g.cat.card[c].danger for c in s.row.cards) == 2
    events: list = []
    g._attack(s, events)
    attack = next(e for e in events if isinstance(e, Attacked))
    assert len(attack.cubes) == g.cat.tables.rage_track[5] + 2


def test_left_seat_draws_four_with_three_seats(g) -> None:
    """rules.md#left-seats: exactly 4 cubes for a seat that left (3 seats), whatever the rage
    and the danger cards; a Ghost drawn spares the seat that left."""
    s = g.setup(3, 5)
    clear_clank(s)
    danger = [c for c in g.cat.dungeon if g.cat.card[c].danger]
    put(s, s.dungeon_discard, s.row.cards[0])
    put(s, s.row, danger[0])
    me = s.players[0]
    seats = {"players": {0: {"status": "escaped"}, 2: {"hand": []}}, "rage": 6}
    scenario(g, seats, state=s, top={"players[0].held": ["artifact-20"]}, to_move=2)
    events = act(g, s, EndTurn())
    assert any(isinstance(e, DragonTurn) and e.seat == 0 for e in events)
    attack = next(e for e in events if isinstance(e, Attacked))
    assert len(attack.cubes) == 4 and s.turns.current == 1
    assert me.damage == 0


def test_escape_scores_and_takes_mastery(g, s) -> None:
    """rules.md#escape, #scoring: entering the Crypt with an artifact escapes with a Mastery
    token; the score counts it, the artifact, gold and every card owned."""
    me = s.players[0]
    fields = {"players[0]": {"hand": [], "room": room(g, s, "start-a:w"), "gold": 3}}
    scenario(g, {**fields, "pool.boots": 1}, state=s, top={"players[0].held": ["artifact-10"]})
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "start-a:crypt")))
    assert me.status == "escaped" and any(t.startswith("mastery") for t in me.held.cards)
    parts = g.scores(s)[0].parts
    assert parts["artifact"] == 10 and parts["tokens"] == 20 and parts["gold"] == 3


def test_without_an_artifact_the_crypt_is_closed(g, s) -> None:
    """rules.md#escape: a seat without an artifact cannot enter the Crypt."""
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1, teleports=1)
    crypt = room(g, s, "start-a:crypt")
    assert crypt not in {a.to for a in (*legal(g, s, Move), *legal(g, s, Teleport))}


@pytest.mark.parametrize(("where", "scores"), [("shop:m", True), ("cave:c", False)])
def test_knocked_out_outside_or_in_the_depths(g, s, where: str, scores: bool) -> None:
    """rules.md#knocked-out, #depths: knocked out with an artifact on a lighter tile scores;
    on a darker tile, nothing."""
    lay(g, s, "shop", 1, 1)
    lay(g, s, "cave", 2, 1)
    me = s.players[0]
    put(s, me.held, "artifact-10")
    me.room = room(g, s, where)
    hurt(me, 10)
    g._knock_out(s, 0, [])
    assert (g.scores(s)[0].total > 0) is scores


def test_row_that_cannot_be_refilled_ends_the_game(g, s) -> None:
    """rules.md#game-end: an empty Dungeon Deck at the refill knocks out everyone left."""
    lay(g, s, "shop", 1, 1)
    me, other = s.players
    put(s, s.dungeon_discard, s.row.cards[0])
    fields = {"players": {0: {"hand": []}, 1: {"room": room(g, s, "shop:m")}}, "dungeon": []}
    scenario(g, fields, state=s, top={"players[1].held": ["artifact-10"]})
    act(g, s, EndTurn())
    assert g.is_over(s)
    assert me.status == "eliminated" and other.status == "rescued"


def test_scoring_counts_deck_hand_and_discard(g, s) -> None:
    """rules.md#scoring: the points of the cards in deck, hand and discard pile."""
    me = s.players[0]
    base = g.scores(s)[0].parts["cards"]
    put(s, me.deck, "curator")  # 2 points
    put(s, me.hand, "lute")  # 3 points
    put(s, me.discard, "grand-theft")  # 3 points
    assert g.scores(s)[0].parts["cards"] == base + 8


def test_tie_goes_to_the_more_valuable_artifact(g, s) -> None:
    """rules.md#scoring: a tie goes to the seat with the more valuable artifact."""
    held = {"players[0].held": ["artifact-10"], "players[1].held": ["artifact-5"]}
    fields = {"players[*].status": "escaped", "players": {0: {"gold": 0}, 1: {"gold": 5}}}
    scenario(g, fields, state=s, top=held)
    scores = g.scores(s)
    assert scores[0].total == scores[1].total
    assert rank(scores) == [1, 2]


# -- validation -------------------------------------------------------------------------------


def test_check_overlap(g, s) -> None:
    """rules.md#tiles: placed tiles never overlap."""
    lay(g, s, "hall", 1, 0)
    s.tiles[1] = Placed("hall", 0, 1)
    assert any("overlaps $.tiles[0]" in p for p in g.check_state(s))


def test_check_full_edge(g, s) -> None:
    """rules.md#discovery: each placed tile shares a full edge with an earlier one."""
    lay(g, s, "hall", 1, 0)
    s.tiles[1] = Placed("hall", 2, 2)
    assert any("shares no full edge" in p for p in g.check_state(s))


def test_check_each_tile_once(g, s) -> None:
    """rules.md#tiles: a tile is placed at most once."""
    lay(g, s, "hall", 1, 0)
    s.tile_stack.add("hall")
    assert any("'hall' appears more than once" in p for p in g.check_state(s))


def test_check_lockpicks(g, s) -> None:
    """rules.md#lockpick-supply: a count of Lockpicks per seat, and each Lockpick on the map
    on a place of its own."""
    s.lockpicks.append(3)
    assert any(p.startswith("$.lockpicks") for p in g.check_state(s))
    s = g.setup(2, 4)
    lay(g, s, "hall", 1, 0)
    s.picked = ["1/e1", "1/e1"]
    assert any(p.startswith("$.picked") for p in g.check_state(s))


def test_check_ghosts_conserved(g, s) -> None:
    """rules.md#ghosts: 5 Ghost cubes beside, in the Clank! area or in the bag."""
    s.ghost_clank += 1
    assert any(p.startswith("$.ghosts") for p in g.check_state(s))
    s.ghost_clank -= 1
    s.bag.add(GHOST, 1)
    assert any(p.startswith("$.ghosts") for p in g.check_state(s))


def test_check_prisoners_conserved(g, s) -> None:
    """rules.md#prison: every Prisoner lies in one place."""
    s.players[0].held.add(s.prisoners.cards[0])
    assert any("appears more than once" in p for p in g.check_state(s))


def test_check_wayshrine_cubes_conserved(g, s) -> None:
    """rules.md#wayshrine: a mark is a cube of the seat's 30, on a Wayshrine, once each."""
    shrine = room(g, s, "start-a:w")
    s.marks[0].append(shrine)
    assert any("30" in p and p.startswith("$.players[0]") for p in g.check_state(s))
    s.players[0].supply -= 1
    assert g.check_state(s) == []
    s.marks[0].append(shrine)
    s.players[0].supply -= 1
    assert any(p.startswith("$.marks[0]") for p in g.check_state(s))


# -- facts that held with no scenario of their own ---------------------------------------------


def test_escape_comes_before_the_refill_and_its_attack(g, s) -> None:
    """rules.md#escape, #turn, #left-cubes: the seat escaping this turn is out before the
    refill; two new dragon-attack cards bring one attack, whose cubes of the escaped seat hurt
    nobody."""
    me = s.players[0]
    me.held.add(s.artifacts.draw())
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    me.supply, me.clank = me.supply - 3, 3
    # the bag holds the seat's 3 cubes alone, as many as the rage draws (the bag then empties)
    s.dragon_aside += s.bag.remove("dragon", 99)
    dragons = [c for c in s.dungeon.cards if g.cat.card[c].dragon and not g.cat.card[c].arrive]
    put(s, s.dungeon, *dragons[:2])  # on top, the next two cards dealt
    put(s, s.dungeon_discard, *s.row.cards[:2])
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "start-a:crypt")))
    assert me.status == "escaped"
    events = act(g, s, EndTurn())
    attacks = [e for e in events if isinstance(e, Attacked)]
    assert len(attacks) == 1 and len(attacks[0].cubes) == g.cat.tables.rage_track[s.rage] == 3
    assert me.damage == 0 and me.aside == 3


def test_two_reward_rooms_both_pay_in_one_turn() -> None:
    """rules.md#reward-rooms: the once-a-turn limit is per room: two different reward rooms
    entered in one turn both give their rewards."""
    spa = Tile(
        id="spa",
        back="lighter",
        rooms=[TileRoom(id="h", reward="heal"), TileRoom(id="m", reward="minor")],
        inner=[Inner(a="h", b="m")],
        edges=[Half(room="h", side="w")],
    )
    g = game([*tiles(), spa], start_side="a")
    s = started(g, 2, 4)
    lay(g, s, "spa", 1, 1)
    me = s.players[0]
    hurt(me, 2)
    turn(g, s, 0, room=room(g, s, "spa:m"), boots=2)
    held, minors = len(me.held), len(s.minors)
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "spa:h")))
    assert me.damage == 1
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "spa:m")))
    assert len(s.minors) == minors - 1 and len(me.held) == held + 1 and me.damage == 1


def test_a_covered_chest_stays_shut_for_every_seat(g, s) -> None:
    """rules.md#chest: once one seat has picked a Chest, no seat may pick it again, on any
    later turn."""
    lay(g, s, "shop", 1, 1)
    chest = room(g, s, "shop:k")
    scenario(g, {"players[0]": {"hand": [], "room": chest}}, state=s)
    act(g, s, PickLock())
    turn(g, s, 1, room=chest)
    assert s.lockpicks[1] and s.majors.cards
    assert PickLock() not in g.legal_actions(s)


@pytest.mark.parametrize("option", ["end", "wait"])
def test_empty_replace_ends_at_once_or_at_the_refill(option: str) -> None:
    """rules.md#empty-replace, #game-end: Remove Traps replacing a Row card from an empty
    Dungeon Deck ends the game at once (``end``), or leaves the slot empty so that the seat
    finishes its turn and the game ends at the refill (``wait``)."""
    g = game(tiles(), start_side="a", empty_replace=option)
    s = started(g, 2, 4)
    me = s.players[0]
    me.held.add(s.artifacts.draw())
    put(s, s.dungeon_discard, *s.dungeon.cards)
    turn(g, s, 0, ("remove-traps-1",), room=room(g, s, "start-a:w"), boots=1)
    act(g, s, Play(card="remove-traps-1"))
    act(g, s, next(a for a in g.legal_actions(s) if isinstance(a, Replace)))
    if option == "end":
        assert [p.status for p in s.players] == ["eliminated", "eliminated"] and g.is_over(s)
        return
    assert me.status == "in" and len(s.row) == 5
    act(g, s, next(m for m in legal(g, s, Move) if m.to == room(g, s, "start-a:crypt")))
    act(g, s, EndTurn())
    assert [p.status for p in s.players] == ["escaped", "eliminated"] and g.is_over(s)
