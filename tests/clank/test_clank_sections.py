"""Scenario tests of the rules digest's sections and decisions not covered elsewhere.

Each test builds an exact state and names the ``rules.md`` anchor it checks; where a
decision has an option, both readings are played.
"""

from __future__ import annotations

import pytest
from clank_build import (
    QUIET_ROW,
    act,
    clear_clank,
    game,
    legal,
    place_artifacts,
    put,
    started,
    tiny_board,
    to_row,
    turn,
)

from meeple.core.bag import Bag
from meeple.core.scoring import rank
from meeple.core.testing import scenario
from meeple.core.zones import HIDDEN
from meeple.plugins.clank.effects import Buy as BuyCards
from meeple.plugins.clank.state import (
    Acquire,
    Attacked,
    ChooseOne,
    Clanked,
    EndTurn,
    Fight,
    Move,
    Pick,
    Play,
    Raged,
    Replace,
    Skip,
    Take,
    Teleport,
    Took,
    TrashCard,
    UseToken,
)


@pytest.fixture
def g():
    return game()


@pytest.fixture
def state(g):
    return started(g, 4, 3)


@pytest.fixture
def tg():
    return game(board=tiny_board())


@pytest.fixture
def tiny(tg):
    s = tg.setup(2, 5)
    clear_clank(s)
    place_artifacts(tg, s)
    return s


def bag_of(state, **cubes: int) -> None:
    """The bag holds exactly ``cubes`` (``dragon=2, seat_1=3``), taken from the supplies."""
    state.bag = Bag()
    for colour, n in cubes.items():
        colour = colour.replace("_", "-")
        state.bag.add(colour, n)
        if colour.startswith("seat-"):
            state.players[int(colour[-1])].supply -= n
    state.dragon_aside = 24 - cubes.get("dragon", 0)


def drawn(events) -> int:
    return sum(len(e.cubes) for e in events if isinstance(e, Attacked))


GAP_IN_ROW = {"row": QUIET_ROW[1:], "dungeon_discard": QUIET_ROW[:1]}
"""A quiet row with one slot empty."""
BAG = {"dragon_aside": 24}
"""Every dragon cube set aside, none in the bag."""


# -- the dragon ------------------------------------------------------------------


def test_only_a_newly_revealed_symbol_calls_the_dragon(g, state) -> None:
    """rules.md#end-of-turn steps 3-4: a dragon-attack card that already lay in the row calls
    no attack at the next refill; a full row is not refilled and calls none either."""
    row = [*QUIET_ROW[:5], "ogre-1"]  # the Ogre shows the symbol
    scenario(g, {"row": row, "dungeon_discard": [QUIET_ROW[5]]}, state=state)
    assert g.cat.card["ogre-1"].dragon
    turn(g, state, 0)
    assert drawn(act(g, state, EndTurn())) == 0  # the row is full: nothing revealed
    put(state, state.dungeon_discard, QUIET_ROW[0])
    put(state, state.dungeon, QUIET_ROW[5])  # the next card to come: no symbol
    turn(g, state, 1)
    events = act(g, state, EndTurn())
    assert QUIET_ROW[5] in state.row.cards and drawn(events) == 0


def test_opening_row_arrive_effects_happen_before_the_first_turn(g) -> None:
    """rules.md#setup, #opening-arrive: a Watcher dealt to the opening row adds one cube of
    every seat's to the starting clank, and a Shrine there has no set-aside cube to return."""
    state = g.setup(4, 4)
    kinds = [g.cat.card[c].id for c in state.row.cards]
    assert "watcher" in kinds and "shrine" in kinds
    assert [p.clank for p in state.players] == [4, 3, 2, 1]
    assert state.bag.cubes == {"dragon": 24} and state.dragon_aside == 0


def test_spare_pieces_go_to_the_box_unseen(g) -> None:
    """rules.md#setup steps 2, 3, 6: with 2 seats, two artifacts, the major secrets beyond one
    per space and the Mastery tokens beyond one per seat lie in the box, where none sees them."""
    state = g.setup(2, 7)
    token = g.cat.token
    kinds = sorted(token[t].kind for t in state.box.cards)
    spaces = sum(r.major for r in g.cat.graph.rooms.values())
    assert kinds == sorted(["artifact"] * 2 + ["major"] * (11 - spaces) + ["mastery"] * 2)
    assert g.view(state, 0).box.cards != state.box.cards  # hidden from every seat


def test_each_danger_card_adds_a_cube(g, state) -> None:
    """rules.md#danger: every danger card in the row adds one cube to the draw."""
    scenario(g, {"row": QUIET_ROW, "rage": 0}, state=state)  # the track says 2
    for n, card in enumerate(("", "kobold-1", "dragon-shrine-1", "kobold-2")):
        if card:
            put(state, state.dungeon_discard, next(c for c in state.row.cards if c in QUIET_ROW))
            put(state, state.row, card)
        bag_of(state, dragon=24)
        events: list = []
        g._attack(state, events)
        assert drawn(events) == 2 + n


def test_full_meter_sets_further_cubes_aside(g, state) -> None:
    """rules.md#full-meter: once the meter is full, the seat's other drawn cubes go aside."""
    cubes = {"players[1]": {"damage": 9, "supply": 18}, "bag.cubes": {"seat-1": 3}, **BAG}
    scenario(g, {**cubes, "row": QUIET_ROW, "rage": 2}, state=state)  # draws 3
    p = state.players[1]
    g._attack(state, [])
    assert (p.damage, p.aside, len(state.bag)) == (10, 2, 0)
    assert p.status == "eliminated"
    assert g.check_state(state) == []


@pytest.mark.parametrize("rage, after", [(5, 6), (6, 6)])
def test_rage_stays_on_the_last_space(tg, tiny, rage: int, after: int) -> None:
    """rules.md#rage-top, #rage: an artifact taken on the top space moves the marker no more."""
    fields = {"players[0].room": 5, "pool.boots": 1, "rage": rage}
    scenario(tg, fields, state=tiny)
    act(tg, tiny, Move(tunnel=5, to=6))
    act(tg, tiny, Skip())  # the idols offered on entry
    events = act(tg, tiny, Take(token="artifact-20"))
    assert tiny.rage == after
    assert any(isinstance(e, Raged) for e in events) == (rage != after)


def test_dragon_egg_raises_rage(tg, tiny) -> None:
    """rules.md#rage: a revealed Dragon Egg moves the marker up one, like an artifact."""
    room5 = {f"rooms[{tg.cat.graph.index[5]}]": ["dragon-egg-1"]}
    fields = {"players[0].room": 6, "pool.boots": 1}
    scenario(tg, fields, state=tiny, top=room5, down={"dragon-egg-1"})
    rage = tiny.rage
    act(tg, tiny, Move(tunnel=5, to=5))
    act(tg, tiny, Take(token="?minor"))
    assert tiny.rage == rage + 1 and "dragon-egg-1" in tiny.players[0].held.cards


@pytest.mark.parametrize("option", ["continue", "end"])
def test_empty_bag(option: str) -> None:
    """rules.md#empty-bag: ``continue`` draws what is left; ``end`` knocks out every seat in."""
    g = game(empty_bag=option)
    state = g.setup(3, 2)
    clear_clank(state)
    to_row(state, *QUIET_ROW)
    state.rage = 0  # the track says 2
    bag_of(state, dragon=1)
    events: list = []
    g._attack(state, events)
    assert drawn(events) == 1 and len(state.bag) == 0
    statuses = [p.status for p in state.players]
    assert statuses == (["in"] * 3 if option == "continue" else ["eliminated"] * 3)
    if option == "continue":  # an empty bag draws nothing and hurts nobody
        events = []
        g._attack(state, events)
        assert drawn(events) == 0 and [p.status for p in state.players] == ["in"] * 3
    else:  # cubes left after the attack: the game goes on
        state = g.setup(3, 2)
        clear_clank(state)
        to_row(state, *QUIET_ROW)
        bag_of(state, dragon=5)
        g._attack(state, [])
        assert [p.status for p in state.players] == ["in"] * 3


def test_first_leaver_counts_from_the_seat_to_play(g, state) -> None:
    """rules.md#first-leaver: seats 1 and 3 go out in one attack on seat 2's turn: seat 3
    is first in turn order from seat 2, so it takes the countdown track."""
    hurt = {f"players[{s}]": {"damage": 9, "supply": 20} for s in (1, 3)}
    cubes = {**hurt, "bag.cubes": {"seat-1": 1, "seat-3": 1}, **BAG}
    scenario(g, {**cubes, "players[2].hand": [], "row": QUIET_ROW}, state=state, to_move=2)
    g._attack(state, [])
    assert [p.status for p in state.players] == ["in", "eliminated", "in", "eliminated"]
    assert state.countdown_seat == 3 and state.countdown == 1
    assert state.turns.left == [1]  # the countdown seat keeps its turns for the track


def test_countdown_first_space_does_nothing(g) -> None:
    """rules.md#countdown-first: the pawn's first space brings no attack; space 2 draws one
    extra cube."""
    me = {"hand": [], "held": ["artifact-5"], "room": 2}
    fields = {"players[0]": me, "pool.boots": 1, "row": QUIET_ROW, "rage": 0}  # the track says 2
    state = scenario(g, fields, seats=2, seed=4, edit=clear_clank)
    events = act(g, state, Move(tunnel=0, to=1)) + act(g, state, EndTurn())
    assert state.countdown == 1 and drawn(events) == 0 and len(state.bag) == 24
    turn(g, state, 1)
    events = act(g, state, EndTurn())
    assert state.countdown == 2 and drawn(events) == 2 + 1


def test_own_knock_out_ends_the_turn_at_once(g, state) -> None:
    """rules.md#own-knock-out: knocked out by Mister Whiskers' attack, the seat stops: hand
    and play area to its discard pile, the row refilled, the next seat to play."""
    me = {"hand": ["mister-whiskers", "burgle-s0-1"], "damage": 9, "supply": 16}
    fields = {"players[0]": me, "bag.cubes": {"seat-0": 5}, **BAG, **GAP_IN_ROW}
    scenario(g, fields, state=state, top={"dungeon": ["search-1"]})  # refills the row
    p = state.players[0]
    act(g, state, Play(card="mister-whiskers"))
    act(g, state, Pick(option=0))
    assert p.status == "eliminated" and not p.hand.cards and not p.play.cards
    assert {"mister-whiskers", "burgle-s0-1"} <= set(p.discard.cards)
    assert "search-1" in state.row.cards and len(state.row) == 6
    assert state.turns.current == 1 and state.stack[-1].seat == 1


# -- the end of the Dungeon Deck -------------------------------------------------


@pytest.mark.parametrize("option", ["reshuffle", "end"])
def test_empty_dungeon(option: str) -> None:
    """rules.md#empty-dungeon: ``reshuffle`` refills from the shuffled dungeon discard;
    ``end`` knocks out every seat still in and ends the game."""
    g = game(empty_dungeon=option)
    state = g.setup(2, 6)
    clear_clank(state)
    to_row(state, *QUIET_ROW)
    put(state, state.dungeon_discard, "sneak-2", *state.dungeon.cards)
    piles = len(state.dungeon_discard)
    turn(g, state, 0)
    act(g, state, EndTurn())
    if option == "reshuffle":
        assert len(state.row) == 6 and len(state.dungeon) + len(state.dungeon_discard) == piles - 1
        assert [p.status for p in state.players] == ["in", "in"] and state.turns.current == 1
    else:
        assert len(state.row) == 5 and len(state.dungeon_discard) == piles
        assert [p.status for p in state.players] == ["eliminated", "eliminated"]
        assert g.is_over(state)


def test_empty_dungeon_and_discard_leave_the_row_short(g) -> None:
    """rules.md#empty-dungeon: with both piles empty, ``reshuffle`` leaves the row short."""
    state = g.setup(2, 6)
    clear_clank(state)
    to_row(state, *QUIET_ROW)
    put(state, state.trash, *state.dungeon.cards, *state.dungeon_discard.cards)
    put(state, state.trash, "sneak-2")
    turn(g, state, 0)
    act(g, state, EndTurn())
    assert len(state.row) == 5 and state.players[0].status == "in"
    assert state.turns.current == 1


# -- arrivals ------------------------------------------------------------------------


def test_arrive_clank_hits_the_seat_ending_its_turn(g, state) -> None:
    """rules.md#arrive-seat: a Watcher refilled at the end of seat 0's turn makes clank for
    every seat in the dungeon, seat 0 included; the escaped seat makes none."""
    fields = {"players[0].hand": [], "players[2].status": "escaped", "turns.left": [2]}
    scenario(g, {**fields, **GAP_IN_ROW}, state=state, top={"dungeon": ["watcher-1"]})
    events = act(g, state, EndTurn())
    assert "watcher-1" in state.row.cards
    assert {e.seat for e in events if isinstance(e, Clanked)} == {0, 1, 3}
    assert [p.clank for p in state.players] == [1, 1, 0, 1]


# -- tokens --------------------------------------------------------------------------


def test_declined_token_needs_a_new_entry(tg, tiny) -> None:
    """rules.md#token-offer: the offer comes with the entry; once declined, no take until
    the seat enters again (but the artifact's, a turn action, rules.md#take-artifact)."""
    fields = {"players[0].room": 6, "pool": {"boots": 1, "teleports": 2}}
    scenario(tg, fields, state=tiny)
    act(tg, tiny, Move(tunnel=5, to=5))
    assert legal(tg, tiny, Take)
    act(tg, tiny, Skip())
    assert legal(tg, tiny, Take) == [Take(token="artifact-10")]
    assert Skip() not in tg.legal_actions(tiny)
    act(tg, tiny, Teleport(tunnel=5, to=6))
    act(tg, tiny, Skip())
    act(tg, tiny, Teleport(tunnel=5, to=5))
    assert legal(tg, tiny, Take)


@pytest.mark.parametrize(
    "secret, back, gold", [("treasure-1", "?minor", 2), ("greater-treasure-1", "?major", 5)]
)
def test_treasure_is_gold_on_take(tg, tiny, secret: str, back: str, gold: int) -> None:
    """rules.md#treasure-secrets, #search: the gold comes the moment the secret is taken, plus
    one under Search's gold-bonus-1 (for a take before Search, when Search is played); the
    token itself is spent."""
    room5 = f"rooms[{tg.cat.graph.index[5]}]"
    fields = {"players[0]": {"hand": ["search-1"], "room": 6}, "pool.boots": 2}
    scenario(tg, fields, state=tiny, top={room5: [secret]}, down={secret})
    p = tiny.players[0]
    act(tg, tiny, Move(tunnel=5, to=5))
    act(tg, tiny, Take(token=back))  # the top one of its back: the secret just laid
    assert p.gold == gold and secret in tiny.spent.cards and secret not in p.held.cards
    act(tg, tiny, Play(card="search-1"))
    assert p.gold == gold + 1
    act(tg, tiny, Move(tunnel=5, to=6))
    act(tg, tiny, Skip())
    put(tiny, tiny.rooms[tg.cat.graph.index[5]], "treasure-2", up=False)
    act(tg, tiny, Move(tunnel=5, to=5))
    act(tg, tiny, Take(token="?minor"))
    assert p.gold == gold + 1 + 2 + 1


def room(tg, rid: int) -> str:
    """The path of room ``rid``'s zone, for :func:`scenario`."""
    return f"rooms[{tg.cat.graph.index[rid]}]"


def test_face_down_secrets_are_offered_blind(tg, tiny) -> None:
    """rules.md#tokens: a room's two face-down minor secrets cannot be told apart until one
    is taken: entering offers one blind take of a minor secret, and the choice not to."""
    fields = {"players[0].room": 6, "pool.boots": 1, room(tg, 5): ["treasure-1", "skill-boost-1"]}
    scenario(tg, fields, state=tiny, down={"treasure-1", "skill-boost-1"})
    act(tg, tiny, Move(tunnel=5, to=5))
    assert tg.legal_actions(tiny) == [Take(token="?minor"), Skip()]
    assert (
        tg.presentation.describe_action(tiny, Take(token="?minor"))
        == "take a face-down minor secret"
    )


def test_a_blind_take_takes_the_top_secret_and_reveals_it(tg, tiny) -> None:
    """rules.md#tokens: the blind take takes the top face-down secret of that back, which is
    revealed as it is taken; the other stays face down."""
    zone = room(tg, 5)
    fields = {"players[0].room": 6, "pool.boots": 1, zone: ["treasure-1", "skill-boost-1"]}
    scenario(tg, fields, state=tiny, down={"treasure-1", "skill-boost-1"})
    act(tg, tiny, Move(tunnel=5, to=5))
    (took,) = [e for e in act(tg, tiny, Take(token="?minor")) if type(e) is Took]
    assert took == Took(seat=0, token="skill-boost-1")
    assert tg.presentation.describe_event(took, 1) == "seat 0 takes Skill Boost"
    assert tiny.pool.skill == 2 and "skill-boost-1" in tiny.spent.cards
    left = tiny.rooms[tg.cat.graph.index[5]]
    assert (left.cards, left.up) == (["treasure-1"], [False])
    assert tg.view(tiny, 1).rooms[tg.cat.graph.index[5]].cards == ["?minor"]


def test_a_face_up_idol_and_a_face_down_secret_are_both_offered(tg, tiny) -> None:
    """rules.md#tokens: a Monkey Idol lies face up and is offered by name, beside the blind
    take of the face-down secret in its room."""
    fields = {"players[0].room": 5, "pool.boots": 1, room(tg, 6): ["treasure-1", "monkey-idol-1"]}
    scenario(tg, fields, state=tiny, down={"treasure-1"})
    act(tg, tiny, Move(tunnel=5, to=6))
    assert tg.legal_actions(tiny) == [Take(token="?minor"), Take(token="monkey-idol-1"), Skip()]
    act(tg, tiny, Take(token="monkey-idol-1"))
    assert "monkey-idol-1" in tiny.players[0].held.cards


def test_wand_of_wind_offers_each_next_rooms_backs(tg, tiny) -> None:
    """rules.md#tokens: Wand of Wind takes a secret of a room next to the seat's, blind: one
    take per room and back, naming the room; it takes the top secret of that back there."""
    fields = {
        "players[0]": {"hand": ["wand-of-wind"], "room": 2},
        room(tg, 3): ["skill-boost-1", "magic-spring-1"],
        room(tg, 7): ["chalice-1", "treasure-1"],
    }
    secrets = {"skill-boost-1", "magic-spring-1", "chalice-1", "treasure-1"}
    scenario(tg, fields, state=tiny, down=secrets)
    act(tg, tiny, Play(card="wand-of-wind"))
    act(tg, tiny, Pick(option=1))
    assert tg.legal_actions(tiny) == [
        Take(token="?minor", room=3),
        Take(token="?major", room=7),
        Take(token="?minor", room=7),
        Skip(),
    ]
    take = Take(token="?minor", room=7)
    assert (
        tg.presentation.describe_action(tiny, take) == "take a face-down minor secret from room 7"
    )
    events = act(tg, tiny, take)
    assert Took(seat=0, token="treasure-1") in events
    assert tiny.players[0].room == 2 and tiny.players[0].gold == 2
    assert tiny.rooms[tg.cat.graph.index[7]].cards == ["chalice-1"]


def test_backpack_carries_another_artifact_and_best_breaks_ties(g, state) -> None:
    """rules.md#backpacks: with a Backpack a seat carries two artifacts, not three; its most
    valuable one breaks a tie."""
    a, b = state.players[0], state.players[1]
    put(state, a.held, "backpack-1", "artifact-5")
    room = next(rid for rid, r in g.cat.graph.rooms.items() if r.artifact == 20)
    zone = state.rooms[g.cat.graph.index[room]]
    put(state, zone, "artifact-20")
    assert "artifact-20" in g.takeable(state, a, room)
    put(state, a.held, "artifact-20")
    put(state, zone, "artifact-10")
    assert "artifact-10" not in g.takeable(state, a, room)
    put(state, b.held, "artifact-25")
    a.status = b.status = "escaped"
    for p in state.players[2:]:
        p.status = "eliminated"
    sa, sb = g.scores(state)[:2]
    b.gold += sa.total - sb.total
    scores = g.scores(state)
    assert scores[0].total == scores[1].total and scores[0].tiebreak == [1, 20]
    assert rank(scores)[:2] == [2, 1]  # seat 1's 25 beats seat 0's best, 20


def sword_splits(tg, tiny) -> set[int]:
    """The swords offered for the 2-monster tunnel from room 2 to room 4."""
    return {a.swords for a in legal(tg, tiny, Move) if a.to == 4}


@pytest.mark.parametrize(
    "swords, damage, supply, splits",
    [
        (2, 0, 30, {0, 1, 2}),  # every split, from no sword to both
        (1, 0, 30, {0, 1}),  # no more swords than the seat has
        (2, 8, 22, {1, 2}),  # 2 damage would fill the meter: 10 of 10
        (1, 9, 21, set()),  # even 1 damage fills it and 2 swords are lacking
        (2, 9, 21, {2}),
        (1, 0, 1, {1}),  # one cube in the supply pays one icon only
    ],
)
def test_every_payable_sword_split(
    tg, tiny, swords: int, damage: int, supply: int, splits: set[int]
) -> None:
    """rules.md#tunnel-swords: each split of swords leaving bearable damage is offered, and
    voluntary damage never fills the meter."""
    cubes = {"room": 2, "damage": damage, "clank": 30 - damage - supply, "supply": supply}
    fields = {"players[0]": cubes, "pool": {"boots": 2, "swords": swords}}
    scenario(tg, fields, state=tiny)
    p = tiny.players[0]
    assert sword_splits(tg, tiny) == splits
    for s in splits:
        assert p.damage + (2 - s) < tg.cat.health


# -- the turn ------------------------------------------------------------------------


def test_conditional_fires_once(g, state) -> None:
    """rules.md#conditions-once: an Archaeologist's idol bonus comes once, however many
    idols follow."""
    me = {"hand": ["archaeologist-1"], "held": ["monkey-idol-1"]}
    scenario(g, {"players[0]": me, "pool.swords": 2}, state=state)
    p = state.players[0]
    act(g, state, Play(card="archaeologist-1"))
    assert state.pool.skill == 2
    put(state, p.held, "monkey-idol-2")
    act(g, state, Fight(card="goblin"))
    assert state.pool.skill == 2 and not state.pool.waiting


def test_short_reserve_pile(g, state) -> None:
    """rules.md#short-pile: two Secret Tomes bought from a pile of one gives one; from an
    empty pile the option cannot be chosen."""
    pile = g._reserve_pile(state, "secret-tome")
    put(state, state.trash, *pile.cards[:-1])
    p = state.players[0]
    turn(g, state, 0, ("underworld-dealing",))
    p.gold = 7
    act(g, state, Play(card="underworld-dealing"))
    assert Pick(option=1) in g.legal_actions(state)
    act(g, state, Pick(option=1))
    assert p.gold == 0 and sum(c.startswith("secret-tome") for c in p.discard.cards) == 1
    assert not pile.cards
    turn(g, state, 0, ("underworld-dealing",))
    p.gold = 7
    act(g, state, Play(card="underworld-dealing"))
    assert g.legal_actions(state) == [Pick(option=0)]


def test_trash_from_play_area_or_discard_only(g, state) -> None:
    """rules.md#trash-source: a trash takes from the play area or the discard pile, never the
    hand or deck; Magic Spring's trash cannot be declined."""
    turn(g, state, 0, ("master-burglar-1", "burgle-s0-1"))
    p = state.players[0]
    put(state, p.deck, "burgle-s0-2")
    act(g, state, Play(card="master-burglar-1"))  # Burgles only in hand and deck: no trash
    assert not legal(g, state, TrashCard)
    put(state, p.discard, "burgle-s0-3")
    turn(g, state, 0, ("master-burglar-2", "burgle-s0-1"))
    act(g, state, Play(card="master-burglar-2"))
    assert g.legal_actions(state) == [TrashCard(card="burgle-s0-3")]  # not the one in hand
    act(g, state, TrashCard(card="burgle-s0-3"))
    turn(g, state, 0, ("burgle-s0-1",))
    put(state, p.held, "magic-spring-1")
    for card in [*p.discard.cards, *p.play.cards]:
        put(state, p.deck, card)
    put(state, p.discard, "stumble-s0-1")
    act(g, state, Play(card="burgle-s0-1"))
    act(g, state, EndTurn())
    assert set(g.legal_actions(state)) == {
        TrashCard(card="burgle-s0-1"),
        TrashCard(card="stumble-s0-1"),
    }


def test_no_option_is_passed_over(g, state) -> None:
    """rules.md#no-option: a choose with nothing feasible offers only a pass; Treasure
    Hunter with an empty row asks nothing, with a row it must replace."""
    turn(g, state, 0)
    option = [BuyCards(gold=7, card="secret-tome", n=2)]
    state.stack.append(ChooseOne(seat=0, options=[option, option]))
    assert g.legal_actions(state) == [Skip()]
    act(g, state, Skip())
    turn(g, state, 0, ("treasure-hunter-1", "treasure-hunter-2"))
    act(g, state, Play(card="treasure-hunter-1"))
    acts = g.legal_actions(state)
    assert acts and all(isinstance(a, Replace) for a in acts)
    act(g, state, acts[0])
    put(state, state.dungeon_discard, *state.row.cards)
    act(g, state, Play(card="treasure-hunter-2"))
    assert not any(isinstance(a, (Replace, Skip)) for a in g.legal_actions(state))
    assert EndTurn() in g.legal_actions(state)


def test_escaped_seat_finishes_its_turn_without_moving(g, state) -> None:
    """rules.md#escaped-turn: after room 1 the seat plays, acquires, fights and drinks a
    potion, but makes no clank, moves and teleports nowhere."""
    hand, held = ["stumble-s0-1", "burgle-s0-1"], ["artifact-5", "potion-of-strength-1"]
    pool = {"boots": 2, "teleports": 1}
    scenario(g, {"players[0]": {"hand": hand, "held": held, "room": 2}, "pool": pool}, state=state)
    p = state.players[0]
    act(g, state, Move(tunnel=next(e.tunnel for e in g.cat.graph.exits[2] if e.to == 1), to=1))
    assert p.status == "escaped"
    assert legal(g, state, Move) == [] and legal(g, state, Teleport) == []
    act(g, state, Play(card="stumble-s0-1"))
    act(g, state, Play(card="burgle-s0-1"))
    assert p.clank == 0 and state.pool.skill == 1
    act(g, state, UseToken(token="potion-of-strength-1"))
    act(g, state, Fight(card="goblin"))
    assert p.gold == 1
    state.pool.skill = 3
    card = state.reserve[0].cards[-1]
    act(g, state, Acquire(card=card))
    assert card in p.discard.cards and p.clank == 0


def test_gold_has_no_bank_limit(g, state) -> None:
    """rules.md#gold-supply: gold is unlimited; a rich seat still gains."""
    scenario(g, {"players[*].gold": 500, "pool.swords": 2}, state=state)
    act(g, state, Fight(card="goblin"))
    assert state.players[0].gold == 501


def test_dwarven_peddler_counts_kinds(g, state) -> None:
    """rules.md#peddler: "two of" means two different kinds: two Monkey Idols are not, an
    idol and a Chalice are."""
    p = state.players[0]
    put(state, p.discard, "dwarven-peddler")
    put(state, p.held, "monkey-idol-1")
    before = g.tally(state, 0)["cards"]
    put(state, p.held, "monkey-idol-2")
    assert g.tally(state, 0)["cards"] == before
    put(state, p.held, "chalice-1")
    assert g.tally(state, 0)["cards"] == before + 4


# -- hidden information -------------------------------------------------------------


def test_view_hides_what_the_seat_may_not_know(g, state) -> None:
    """rules.md#hidden: a seat sees its hand, not its deck, others' hands, face-down
    secrets, the box or the Dungeon Deck; the row, discards and bag counts are public."""
    put(state, state.players[0].discard, "burgle-s0-1")
    view = g.view(state, 0)
    me, other = view.players[0], view.players[1]
    assert me.hand.cards == state.players[0].hand.cards
    assert all(c.startswith(HIDDEN) for c in me.deck.cards)
    assert all(c.startswith(HIDDEN) for c in other.hand.cards)
    assert len(other.hand) == 5 and len(me.deck) == len(state.players[0].deck)
    facing = [
        (v, c, up)
        for z, r in zip(view.rooms, state.rooms, strict=True)
        for v, c, up in zip(z.cards, r.cards, r.up, strict=True)
    ]
    assert any(not up for _, _, up in facing)  # the set-up lays secrets face down
    assert all((v == c) == up for v, c, up in facing)
    assert all(c.startswith(HIDDEN) for c in (*view.box.cards, *view.dungeon.cards))
    assert view.row.cards == state.row.cards
    assert me.discard.cards == state.players[0].discard.cards
    assert view.bag.cubes == state.bag.cubes and view.rng.seed == 0
    onlooker = g.view(state, None)
    assert all(c.startswith(HIDDEN) for p in onlooker.players for c in p.hand.cards)
