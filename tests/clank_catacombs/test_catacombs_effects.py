"""Scenario tests of the effects Catacombs adds and of portals, each citing
seeds/clank-catacombs/rules.md.

The games run on the builder's hand-made tiles plus two portal tiles
(:func:`gates`): ``gate-a`` (haunted, a Portal that rewards 1 gold, its west
half with footprints and a monster) and ``gate-b`` (a Portal far from it, and a room ``r``
beyond it through a locked tunnel with a monster).
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest
from catacombs_build import (
    act,
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

sys.path.insert(0, str(Path(__file__).parents[1] / "clank"))

from clank_build import to_row

from meeple.core.testing import scenario
from meeple.plugins.clank.state import (
    Acquire,
    EndTurn,
    Fight,
    Move,
    Pick,
    Play,
    Skip,
    Take,
    Teleport,
    TrashOne,
    UseDevice,
    UseToken,
)
from meeple.plugins.clank_catacombs.state import (
    Accept,
    ChooseRoom,
    Claim,
    GoTo,
    Offer,
    PickLock,
    PickSome,
    PlaceTile,
    Turned,
    TurnTile,
)
from meeple.plugins.clank_catacombs.tiles import Half, Inner, Tile, TileRoom


def gates() -> list[Tile]:
    return [
        *tile_set(),
        Tile(
            id="gate-a",
            back="darker",
            haunted=True,
            rooms=[TileRoom(id="p", portal=True, reward="gold", reward_n=1)],
            edges=[
                Half(room="p", side="w", footprints=True, monsters=1),
                Half(room="p", side="e"),
            ],
        ),
        Tile(
            id="gate-b",
            back="darker",
            rooms=[TileRoom(id="q", portal=True), TileRoom(id="r")],
            inner=[Inner(a="q", b="r", monsters=1, lock=True)],
            edges=[Half(room="q", side="w"), Half(room="r", side="s")],
        ),
    ]


@pytest.fixture
def g():
    return game(gates(), start_side="a")


@pytest.fixture
def s(g):
    return started(g, 2, 4)


def artifact(s, seat: int = 0, n: int = 1) -> None:
    """Give ``seat`` the top ``n`` artifacts of the stack."""
    for _ in range(n):
        s.players[seat].held.add(s.artifacts.draw())


# -- portals --------------------------------------------------------------------------------


def test_portal_trip_costs_one_boot_and_both_tunnels_icons(g, s) -> None:
    """rules.md#portal, rules.md#portal-cost: room -> portal -> portal -> room for one boot in
    all (the footprints add none); the monsters of both tunnels and the lock of the second
    apply; no portal is stopped in, so the first one's reward is not given."""
    lay(g, s, "gate-a", 1, 1)  # its west half meets the Crypt's east half
    lay(g, s, "gate-b", 0, -1)  # touches nothing by a tunnel
    p, q, r = (room(g, s, f"gate-{n}") for n in ("a:p", "b:q", "b:r"))
    me = s.players[0]
    turn(g, s, 0, room=crypt(g, s), boots=2, swords=1)
    targets = {m.to for m in legal(g, s, Move)}
    assert r in targets and not {p, q} & targets
    assert {m.swords for m in legal(g, s, Move) if m.to == r} == {0, 1}  # 2 monsters
    act(g, s, next(m for m in legal(g, s, Move) if m.to == r and m.swords == 1))
    assert me.room == r and s.pool.boots == 1 and me.damage == 1 and me.gold == 0
    assert s.lockpicks[0] == 2 and "used-portal" in s.pool.done
    back = {m.to for m in legal(g, s, Move)}
    assert crypt(g, s) not in back  # no artifact: the Crypt stays closed


def test_portal_trip_needs_a_lockpick_for_the_second_tunnel(g, s) -> None:
    """rules.md#portal: a lock on the exit tunnel still needs a Lockpick."""
    lay(g, s, "gate-a", 1, 1)
    lay(g, s, "gate-b", 0, -1)
    s.lockpicks[0] = 0
    turn(g, s, 0, room=crypt(g, s), boots=2, swords=2)
    assert room(g, s, "gate-b:r") not in {m.to for m in legal(g, s, Move)}


def test_portal_by_teleport_and_the_used_portal_condition(g, s) -> None:
    """rules.md#portal, #teleport, #conditions: rooms joined through portals are adjacent for
    a teleport, which ignores both tunnels; Animated Wall's defeat gives its second boot after
    a portal trip."""
    lay(g, s, "gate-a", 1, 1)
    lay(g, s, "gate-b", 0, -1)
    r = room(g, s, "gate-b:r")
    to_row(s, "animated-wall-1")
    turn(g, s, 0, room=crypt(g, s), teleports=1, swords=2)
    act(g, s, next(t for t in legal(g, s, Teleport) if t.to == r))
    assert s.players[0].room == r and s.players[0].damage == 0
    act(g, s, Fight(card="animated-wall-1"))
    assert s.pool.boots == 2


# -- market offers ------------------------------------------------------------------------


def test_golden_flute_buys_for_5_anywhere_once(g, s) -> None:
    """rules.md#market, #offers: Golden Flute's offer, 5 gold from any room, one item."""
    me = s.players[0]
    flute = {"hand": ["golden-flute"], "room": room(g, s, "start-a:w"), "gold": 5}
    scenario(g, {"players[0]": flute}, state=s)
    assert legal(g, s, Claim) == []
    act(g, s, Play(card="golden-flute"))
    assert me.gold == 6 and me.clank == 1
    items = {c.item for c in legal(g, s, Claim)}
    assert "backpack" in items and "blood-amulet" not in items  # no 5 damage
    act(g, s, Claim(item="crown"))
    assert "crown-10" in me.held.cards and me.gold == 1
    me.gold = 10
    assert legal(g, s, Claim) == []


def test_ogre_merchant_free_item_if_defeated_in_a_market_room(g, s) -> None:
    """rules.md#offers: Ogre Merchant's free item, only if its defeater stands in a Market
    room then (elsewhere the option would do nothing, so it is not offered:
    rules.md#no-empty-option); the Blood Amulet still asks for 5 damage."""
    lay(g, s, "shop", 1, 1)
    to_row(s, "ogre-merchant-1", "ogre-merchant-2")
    shop = room(g, s, "shop:m")
    me = s.players[0]
    turn(g, s, 0, room=crypt(g, s), swords=8, boots=1)
    act(g, s, Fight(card="ogre-merchant-1"))
    assert legal(g, s, Pick) == [Pick(option=0)]  # 5 gold; no free item outside a market
    act(g, s, Pick(option=0))
    assert s.pool.offer is None and me.gold == 5
    act(g, s, next(m for m in legal(g, s, Move) if m.to == shop))
    assert legal(g, s, Claim) == []  # defeated outside: no free item here either
    act(g, s, Fight(card="ogre-merchant-2"))
    act(g, s, Pick(option=1))
    assert s.pool.offer == 0
    assert "blood-amulet" not in {c.item for c in legal(g, s, Claim)}
    me.damage, me.supply = 5, me.supply - 5
    act(g, s, Claim(item="blood-amulet"))
    assert me.gold == 5 and any(t.startswith("blood-amulet") for t in me.held.cards)
    assert me.damage == 3  # healed 2 when bought (rules.md#tokens)


def test_discount_coupon_from_a_prison(g, s) -> None:
    """rules.md#prison, rules.md#tokens, #offers: the Discount Coupon freed is kept, not a
    Prisoner; spent in a Market room (not elsewhere) it takes 5 gold off one item."""
    lay(g, s, "shop", 1, 1)
    lay(g, s, "cave", 2, 1)
    put(s, s.prisoners, "peasant-1", "discount-coupon")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": room(g, s, "cave:p"), "gold": 2}}, state=s)
    act(g, s, PickLock())
    assert {"discount-coupon", "peasant-1"} <= set(me.held.cards) and me.gold == 2
    assert g.holds(me, "prisoner") == 1 and s.pool.offer is None
    assert UseToken(token="discount-coupon") not in g.legal_actions(s)
    me.room = room(g, s, "shop:m")
    act(g, s, UseToken(token="discount-coupon"))
    assert s.pool.offer == 2 and "discount-coupon" not in me.held.cards
    act(g, s, Claim(item="backpack"))
    assert me.gold == 0 and any(t.startswith("backpack") for t in me.held.cards)
    me.gold = 5
    assert legal(g, s, Claim) == []  # one item


# -- free row card, choose-some, per --------------------------------------------------------


def test_grand_theft_pays_a_lockpick_for_a_free_row_card(g, s) -> None:
    """rules.md#acquire, #grand-theft: a Lockpick paid, then a Row item acquired or device used
    without its Skill; a device's gold price still paid; never a monster."""
    to_row(s, "curator", "wishing-well", "ogre-merchant-1")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": ["grand-theft"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="grand-theft"))
    act(g, s, Pick(option=1))
    assert type(s.stack[-1]) is Offer
    act(g, s, Accept())
    assert s.lockpicks[0] == 2
    free = set(g.legal_actions(s))
    assert Acquire(card="curator") in free and UseDevice(card="wishing-well") not in free
    assert not any(type(a) is Fight for a in free) and Skip() in free
    act(g, s, Acquire(card="curator"))
    assert "curator" in me.discard.cards and s.pool.skill == 0


def test_grand_theft_device_still_costs_its_gold(g, s) -> None:
    """rules.md#grand-theft: Wishing Well used for free still takes its 3 gold."""
    to_row(s, "wishing-well")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": ["grand-theft"], "room": crypt(g, s), "gold": 3}}, state=s)
    act(g, s, Play(card="grand-theft"))
    act(g, s, Pick(option=1))
    act(g, s, Accept())
    act(g, s, UseDevice(card="wishing-well"))
    assert me.gold == 0 and len(me.hand) == 2 and s.pool.skill == 0


def test_pay_lockpicks_can_be_declined_and_needs_a_lockpick(g, s) -> None:
    """rules.md#locks, #no-empty-option: ``pay-lockpicks`` is offered only to a seat holding
    enough."""
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": ["imp-familiar"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="imp-familiar"))
    act(g, s, Pick(option=1))
    act(g, s, Skip())
    assert s.lockpicks[0] == 3 and len(me.hand) == 0
    s.lockpicks[0] = 0
    turn(g, s, 0, hand=("imp-familiar",), room=crypt(g, s))
    act(g, s, Play(card="imp-familiar"))
    # Without a Lockpick the option would do nothing, so it is not offered at all.
    assert Pick(option=1) not in g.legal_actions(s) and len(me.hand) == 0


def test_black_market_picks_two_different(g, s) -> None:
    """rules.md#conditions: ``choose-some`` picks ``n`` different options."""
    to_row(s, "black-market")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}, "pool.skill": 5}, state=s)
    me.discard.add(me.deck.draw())  # something to trash, so every option does something
    act(g, s, UseDevice(card="black-market"))
    assert type(s.stack[-1]) is PickSome
    act(g, s, Pick(option=0))
    assert {a.option for a in legal(g, s, Pick)} == {1, 2}
    act(g, s, Pick(option=2))
    # The picked options happen once both are chosen.
    assert me.gold == 2 and s.lockpicks[0] == 4 and type(s.stack[-1]) is not PickSome


@pytest.mark.parametrize("holds", [False, True])
def test_empurror_all_options_with_an_artifact(g, s, holds: bool) -> None:
    """rules.md#conditions, rules.md#counts-grow: Empurror gives one option, all three with an
    artifact; without one, the two not picked wait on it for the rest of the turn."""
    me = s.players[0]
    if holds:
        artifact(s)
    me.supply, me.clank = me.supply - 2, 2
    scenario(g, {"players[0]": {"hand": ["empurror"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="empurror"))
    if holds:
        assert me.clank == 0 and me.gold == 1 and "no-crystal-exhaust" in s.pool.mods
    else:
        assert type(s.stack[-1]) is PickSome and s.stack[-1].n == 1
        act(g, s, Pick(option=1))
        assert me.gold == 1 and me.clank == 2 and type(s.stack[-1]) is not PickSome
        assert [type(w.effect).__name__ for w in s.pool.waiting] == ["If"]


@pytest.mark.parametrize("first", ["empurror", "artifact"])
def test_empurror_played_before_its_artifact_gives_all_three(g, s, first: str) -> None:
    """rules.md#counts-grow: Empurror played before the seat takes an artifact gives the
    option picked at once and the other two once the artifact is taken: all three, as when
    it is played after."""
    lay(g, s, "vault", 1, 0, 3)
    me = s.players[0]
    me.supply, me.clank = me.supply - 2, 2
    turn(g, s, 0, hand=("empurror",), room=room(g, s, "vault:art"))
    if first == "empurror":
        act(g, s, Play(card="empurror"))
        act(g, s, Pick(option=1))
        assert me.gold == 1 and me.clank == 2 and "no-crystal-exhaust" not in s.pool.mods
        act(g, s, Take(token="artifact-7"))
    else:
        act(g, s, Take(token="artifact-7"))
        act(g, s, Play(card="empurror"))
    assert me.clank == 0 and me.gold == 1 and "no-crystal-exhaust" in s.pool.mods
    assert s.pool.waiting == []


def test_choose_some_declined_still_waits_on_all_if(g, s) -> None:
    """rules.md#counts-grow, #no-empty-option: a ``choose-some`` whose options would all
    change nothing yet is declined; they still wait on ``all_if`` and come once it holds."""
    lay(g, s, "vault", 1, 0, 3)
    me = s.players[0]
    turn(g, s, 0, room=room(g, s, "vault:art"))
    put(s, s.box, *me.discard.cards, *me.play.cards)
    e = msgspec.convert(
        {"do": "choose-some", "all_if": "artifact", "options": [[{"do": "trash"}]]},
        type=g.Effect,
    )
    g.choose_some(s, 0, e, None, [])
    assert g.legal_actions(s) == [Skip()]
    act(g, s, Skip())
    assert len(s.pool.waiting) == 1
    put(s, me.discard, "burgle-s0-1")
    act(g, s, Take(token="artifact-7"))
    assert type(s.stack[-1]) is TrashOne and s.pool.waiting == []


@pytest.mark.parametrize("artifacts", [0, 2])
def test_curator_draws_per_artifact(g, s, artifacts: int) -> None:
    """rules.md#conditions, rules.md#counts-grow: Curator draws one card per artifact held."""
    me = s.players[0]
    artifact(s, 0, artifacts)
    scenario(g, {"players[0]": {"hand": ["curator"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="curator"))
    assert len(me.hand) == artifacts and s.pool.boots == 1


@pytest.mark.parametrize("first", ["curator", "artifact"])
def test_curator_draws_for_an_artifact_taken_after_it(g, s, first: str) -> None:
    """rules.md#counts-grow: an artifact taken after Curator was played draws its card then,
    so Curator draws the same whether played before or after."""
    lay(g, s, "vault", 1, 0, 3)
    me = s.players[0]
    turn(g, s, 0, hand=("curator",), room=room(g, s, "vault:art"))
    steps = [Play(card="curator"), Take(token="artifact-7")]
    for step in steps if first == "curator" else steps[::-1]:
        act(g, s, step)
    assert len(me.hand) == 1 and s.pool.boots == 1


@pytest.mark.parametrize(
    "order", [("lute", "stumble-s0-1", "stumble-s0-2"), ("stumble-s0-1", "lute", "stumble-s0-2")]
)
def test_lute_gold_per_cube_added_this_turn(g, s, order: tuple[str, ...]) -> None:
    """rules.md#conditions, rules.md#counts-grow: Lute gives a gold for each cube the seat
    adds this turn, its own included, before or after it: 3 cubes, 3 gold, in any order."""
    me = s.players[0]
    turn(g, s, 0, hand=order, room=crypt(g, s))
    for card in order:
        act(g, s, Play(card=card))
    assert me.gold == 3 and me.clank == 3


def test_lute_pays_for_each_cube_as_it_comes(g, s) -> None:
    """rules.md#counts-grow: what Lute counted is paid at once, each later cube when it is
    added; a cube cancelled by banked negative clank is not added, so pays nothing."""
    me = s.players[0]
    turn(g, s, 0, hand=("stumble-s0-1", "lute", "stumble-s0-2"), room=crypt(g, s))
    act(g, s, Play(card="stumble-s0-1"))
    act(g, s, Play(card="lute"))
    assert me.gold == 2 and me.clank == 2
    s.pool.banked = 1
    act(g, s, Play(card="stumble-s0-2"))
    assert me.gold == 2 and me.clank == 2


# -- teleport-to ----------------------------------------------------------------------------


def test_waystone_offered_once_in_a_wayshrine(g, s) -> None:
    """rules.md#waystone, #teleport, #trash: played elsewhere, Waystone's offer comes when the
    seat reaches a Wayshrine; accepted, it leaves the game and teleports to another one."""
    lay(g, s, "hall", 1, 0)
    shrine, hall_shrine, a = (room(g, s, n) for n in ("start-a:w", "hall:w", "hall:a"))
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": ["waystone"], "room": a}, "pool.boots": 3}, state=s)
    act(g, s, Play(card="waystone"))
    assert type(s.stack[-1]) is not Offer and s.pool.boots == 4
    act(g, s, next(m for m in legal(g, s, Move) if m.to == shrine))
    assert type(s.stack[-1]) is Offer
    act(g, s, Accept())
    assert "waystone" in s.trash.cards and "waystone" not in me.play.cards
    assert g.legal_actions(s) == [GoTo(room=hall_shrine)]
    act(g, s, GoTo(room=hall_shrine))
    assert me.room == hall_shrine and s.pool.boots == 3


def test_payoff_trashes_itself(g, s) -> None:
    """rules.md#trash: Payoff gives 3 Skill and leaves the game."""
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": ["payoff-1"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="payoff-1"))
    assert s.pool.skill == 3 and "payoff-1" in s.trash.cards and not me.play.cards


def test_spectral_rider_to_another_haunted_tile(g, s) -> None:
    """rules.md#teleport: from a haunted tile to a room of another haunted tile, optional."""
    lay(g, s, "gate-a", 1, 1)
    lay(g, s, "cave", 2, 1)
    turn(g, s, 0, hand=("spectral-rider",), room=room(g, s, "gate-a:p"))
    act(g, s, Play(card="spectral-rider"))
    frame = s.stack[-1]
    assert type(frame) is ChooseRoom
    assert frame.rooms == [room(g, s, "cave:c"), room(g, s, "cave:p")]
    assert Skip() in g.legal_actions(s)
    act(g, s, GoTo(room=room(g, s, "cave:c")))
    assert s.players[0].room == room(g, s, "cave:c") and s.pool.exhausted


def test_spectral_rider_off_a_haunted_tile_does_nothing(g, s) -> None:
    """rules.md#conditions: ``on-haunted-tile`` holds only where the seat stands."""
    lay(g, s, "cave", 1, 1)
    scenario(g, {"players[0]": {"hand": ["spectral-rider"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="spectral-rider"))
    assert type(s.stack[-1]) is not ChooseRoom


@pytest.mark.parametrize("where", ["cave:c", "shop:m", "start-a:w"])
def test_blink_spell_to_a_seat_in_the_depths(g, s, where: str) -> None:
    """rules.md#teleport, #depths, #no-empty-option: to the room of another seat in the depths
    (darker tiles and the starting tile's top half), not on a lighter tile."""
    lay(g, s, "shop", 1, 1)
    lay(g, s, "cave", 2, 1)
    s.players[1].room = room(g, s, where)
    scenario(g, {"players[0]": {"hand": ["blink-spell"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="blink-spell"))
    if where == "shop:m":  # no room to go to: the option would do nothing, so is not offered
        assert Pick(option=1) not in g.legal_actions(s)
    else:
        act(g, s, Pick(option=1))
        assert g.legal_actions(s) == [GoTo(room=room(g, s, where))]


def test_marble_guardian_places_a_tile_to_teleport_onto(g, s) -> None:
    """rules.md#teleport, #discovery: ``place-tile`` puts the top tile beside the seat's tile
    (lined up with either half of the starting tile), then ``teleport-to new-tile``."""
    me = s.players[0]
    to_row(s, "marble-guardian")
    top = s.tile_stack.cards[-1]
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}, "pool.swords": 3}, state=s)
    act(g, s, Fight(card="marble-guardian"))
    cells = {(a.x, a.y) for a in legal(g, s, PlaceTile)}
    assert cells == {(0, -1), (1, 0), (1, 1), (0, 2), (-1, 0), (-1, 1)}
    assert len(legal(g, s, PlaceTile)) == 24
    act(g, s, PlaceTile(x=1, y=1, turn=2))
    assert s.tiles[-1].tile == top and (s.tiles[-1].x, s.tiles[-1].y, s.tiles[-1].turn) == (
        1,
        1,
        2,
    )
    act(g, s, Pick(option=0))
    rooms = [r for r in range(len(s.rooms)) if g.graph(s).tile_of[r] == len(s.tiles) - 1]
    assert type(s.stack[-1]) is ChooseRoom and s.stack[-1].rooms == rooms
    act(g, s, GoTo(room=rooms[0]))
    assert me.room == rooms[0]


# -- may-top-deck ----------------------------------------------------------------------------


@pytest.mark.parametrize("accept", [True, False])
def test_may_top_deck(g, s, accept: bool) -> None:
    """rules.md#acquire: ``may-top-deck`` puts the acquired card on the deck, if wished."""
    to_row(s, "lie-in-wait-1")
    me = s.players[0]
    scenario(g, {"players[0]": {"hand": [], "room": crypt(g, s)}, "pool.skill": 3}, state=s)
    act(g, s, Acquire(card="lie-in-wait-1"))
    assert type(s.stack[-1]) is Offer
    act(g, s, Accept() if accept else Skip())
    if accept:
        assert me.deck.cards[-1] == "lie-in-wait-1" and "lie-in-wait-1" not in me.discard.cards
    else:
        assert "lie-in-wait-1" in me.discard.cards


# -- rotate-tiles ----------------------------------------------------------------------------


def arrive_at_refill(g, s, card: str) -> list:
    """End seat 0's turn with ``card`` the next Dungeon Deck card and one row slot empty."""
    put(s, s.dungeon, card)
    put(s, s.dungeon_discard, s.row.cards[0])
    s.stack[-1].seat = 0
    return act(g, s, EndTurn())


def test_sudden_movement_each_seat_alone_turns_its_tile(g, s) -> None:
    """rules.md#rotation, rules.md#rotation-rules: at the refill, each seat alone on a square tile
    chooses its tile's new side, in turn order from the seat whose turn ends, before the next
    seat plays; the rotations offered keep a tunnel; the starting tile never turns."""
    hall = lay(g, s, "hall", 1, 0, 1)  # turned so that no half faces the starting tile
    cave = lay(g, s, "cave", 1, 1)
    rooms = {"players[0].hand": [], "players[0].room": room(g, s, "hall:a")}
    scenario(g, {**rooms, "players[1].room": room(g, s, "cave:c")}, state=s)
    events = arrive_at_refill(g, s, "sudden-movement-1")
    assert not any(isinstance(e, Turned) for e in events)
    assert [(f.seat, f.places) for f in s.stack[1:]] == [(1, [cave]), (0, [hall])]
    assert s.turns.current == 1 and g.validate_state(s) == []
    assert {a.turn for a in legal(g, s, TurnTile)} == {0, 2, 3}
    act(g, s, TurnTile(turn=2))
    assert s.stack[-1].seat == 1 and len(legal(g, s, TurnTile)) == 3  # halves on every side
    act(g, s, TurnTile(turn=3))
    assert (s.tiles[hall].turn, s.tiles[cave].turn, s.tiles[0].turn) == (2, 3, 0)
    assert len(s.stack) == 1 and s.stack[0].seat == 1


def test_sudden_movement_skips_a_tile_with_two_pawns(g, s) -> None:
    """rules.md#rotation: exactly one pawn; with both pawns on it the tile stays."""
    hall = lay(g, s, "hall", 1, 0)
    scenario(g, {"players[*].room": room(g, s, "hall:a"), "players[0].hand": []}, state=s)
    events = arrive_at_refill(g, s, "sudden-movement-1")
    assert not any(isinstance(e, Turned) for e in events) and s.tiles[hall].turn == 0


def test_animated_wall_half_turn_unless_it_cuts_off(g, s) -> None:
    """rules.md#rotation, #rotation-rules: every tile with a pawn turns half a turn, unless
    that would cut it off every neighbour."""
    hall = lay(g, s, "hall", 1, 0)
    vault = lay(g, s, "vault", 1, 1, 3)  # its north half (turned west) meets the Crypt
    rooms = {"players[0].hand": [], "players[0].room": room(g, s, "hall:a")}
    scenario(g, {**rooms, "players[1].room": room(g, s, "vault:art")}, state=s)
    arrive_at_refill(g, s, "animated-wall-1")
    assert s.tiles[hall].turn == 2 and s.tiles[vault].turn == 3
    assert s.players[0].room == room(g, s, "hall:a")


def test_sudden_movement_during_a_turn_asks_the_seat_on_the_tile(g, s) -> None:
    """rules.md#rotation, #rotation-rules: during seat 0's turn, seat 1, alone on its tile, picks
    the new rotation among those keeping a tunnel."""
    hall = lay(g, s, "hall", 1, 0)
    to_row(s, "sudden-movement-1")
    rooms = {"players[0].room": crypt(g, s), "players[1].room": room(g, s, "hall:a")}
    scenario(g, {**rooms, "players[0].hand": []}, state=s)
    g.rotate_tiles(s, 0, g.cat.card["sudden-movement-1"].arrive[0], "sudden-movement-1", [])
    assert s.stack[-1].seat == 1 and set(legal(g, s, TurnTile)) == {TurnTile(turn=2)}
    act(g, s, TurnTile(turn=2))
    assert s.tiles[hall].turn == 2


# -- mark-wayshrine, take-lockpicks, ghost-ward -------------------------------------------------


def test_astral_projection_marks_from_afar(g, s) -> None:
    """rules.md#mark-afar, #wayshrine: with 6 Skill gained, any unmarked Wayshrine is marked
    from afar for the usual gold."""
    lay(g, s, "hall", 1, 0)
    shrines = [room(g, s, "start-a:w"), room(g, s, "hall:w")]
    me = s.players[0]
    s.marks[0].append(shrines[0])
    me.supply -= 1
    turn(g, s, 0, hand=("astral-projection",), room=crypt(g, s), skill=4, skill_gained=4)
    act(g, s, Play(card="astral-projection"))
    assert g.legal_actions(s) == [GoTo(room=shrines[1])]
    act(g, s, GoTo(room=shrines[1]))
    assert me.gold == 2 and s.marks[0] == shrines and me.room == crypt(g, s)


def test_take_lockpicks_whatever_the_seats_hold(g, s) -> None:
    """rules.md#lockpick-supply: the bank never runs out, so taking a Lockpick is offered and
    gives one however many the seats already hold."""
    s.lockpicks = [3, 40]
    scenario(g, {"players[0]": {"hand": ["grand-theft"], "room": crypt(g, s)}}, state=s)
    act(g, s, Play(card="grand-theft"))
    assert Pick(option=0) in g.legal_actions(s)
    act(g, s, Pick(option=0))
    assert s.lockpicks == [4, 40]


def test_ghost_ward_waits_for_the_seat(g, s) -> None:
    """rules.md#ghosts, #ghost-ward: a Ghost does not hurt a seat holding a ward card at once:
    the seat is asked; discarding the card stops the damage and draws a card."""
    me, other = s.players
    scenario(g, {"players[0]": {"hand": ["white-tourmaline-1"], "room": crypt(g, s)}}, state=s)
    hit: list[int] = []
    g.hit(s, "ghost", hit)
    assert hit == [1] and me.damage == 0 and other.damage == 1 and s.ghost_hits == [1, 0]
    g.next_ward(s, 0, [])
    assert legal(g, s, Accept) == [Accept()]
    act(g, s, Accept())
    assert me.damage == 0 and s.ghost_hits == [0, 0]
    assert "white-tourmaline-1" in me.discard.cards and len(me.hand) == 1
