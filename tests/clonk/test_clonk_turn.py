"""Scenario tests of a Clonk! turn, one per rule; each names its rules.md section."""

from __future__ import annotations

import pytest
from clonk_build import build, clonk, play

from meeple.core.rng import Stream
from meeple.core.zones import HIDDEN
from meeple.plugins.clonk.content import AWAKENING
from meeple.plugins.clonk.state import (
    Awakened,
    Blast,
    Cart,
    ChooseTask,
    Dig,
    Discard,
    DiscardCard,
    Drew,
    Feed,
    FeedShaft,
    FirstCart,
    Gift,
    Relaid,
    Stop,
    Unearth,
)

GAME = clonk()


def test_first_turn_puts_a_hand_card_in_the_cart() -> None:
    """rules.md#fill-cart: round 1 starts with a hand card of one's choice into the cart."""
    hand = ["red-hammer-1", "blue-chain-1"]
    state = build(GAME, {"hands[0]": hand}, round=1, stack=[FirstCart(seat=0)])
    assert GAME.legal_actions(state) == [Cart(card=c) for c in hand]
    play(GAME, state, Cart(card="blue-chain-1"))
    assert state.carts[0].cards == ["blue-chain-1"] and state.hands[0].cards == ["red-hammer-1"]
    assert isinstance(state.stack[-1], Unearth)


def test_later_turns_load_the_gallery_rightmost_on_top() -> None:
    """rules.md#fill-cart: the gallery goes into the cart, its rightmost card on top."""
    gallery = ["red-hammer-1", "green-hammer-1", "green-chain-1"]
    fields = {"carts": {0: ["red-chain-1"], 1: ["red-hammer-2"]}, "galleries[1]": gallery}
    state = build(GAME, {**fields, "hands[0]": ["pink-sword-1"]}, stack=[Feed(seat=0)])
    play(GAME, state, FeedShaft(card="pink-sword-1", shaft=0))
    assert state.turns.current == 1
    assert state.carts[1].cards == ["red-hammer-2", *gallery]
    assert state.galleries[1].cards == []


def test_chain_must_match_colour_or_type() -> None:
    """rules.md#chain: each card shares colour or type with the card before it."""
    shafts = {"shafts": {0: ["red-necklace-1"], 1: ["blue-chain-1"]}}
    hand = ["green-sword-1", "red-crown-1"]
    state = build(GAME, {"carts[0]": ["green-necklace-1"], "hands[0]": hand, **shafts})
    digs = {a.source for a in GAME.legal_actions(state) if isinstance(a, Dig)}
    assert digs == {"green-sword-1", 0}
    play(GAME, state, Dig(source=0))
    digs = {a.source for a in GAME.legal_actions(state) if isinstance(a, Dig)}
    assert digs == {"red-crown-1"}  # now red necklace is the card to match
    assert Dig(source="green-sword-1") not in GAME.legal_actions(state)


def test_fourth_card_ends_phase_two() -> None:
    """rules.md#chain and rules.md#d-full-gallery: a full gallery ends digging at once."""
    hand = ["red-hammer-2", "red-hammer-3", "red-chain-1", "red-chain-2"]
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "hands[0]": hand})
    play(GAME, state, *(Dig(source=c) for c in hand))
    assert state.galleries[0].cards == hand
    assert isinstance(state.stack[-1], Feed)
    assert len(state.hands[0].cards) == 1  # only the extra draw


def test_exposed_card_turns_face_up() -> None:
    """rules.md#reveal: the face-down card under a taken top turns face up."""
    state = build(
        GAME,
        {"carts[0]": ["red-hammer-1"], "shafts[0]": ["blue-chain-1", "red-crown-1"]},
        down={"blue-chain-1"},
    )
    play(GAME, state, Dig(source=0))
    assert state.shafts[0].cards == ["blue-chain-1"] and state.shafts[0].up == [True]


def test_emptied_shaft_is_laid_anew() -> None:
    """rules.md#empty-shaft: one face-down and two face-up cards from the draw pile."""
    draw = ["blue-chain-3", "blue-chain-2", "blue-chain-1"]  # the last is drawn first
    state = build(
        GAME, {"carts[0]": ["red-hammer-1"], "shafts[0]": ["red-crown-1"]}, top={"draw": draw}
    )
    events = play(GAME, state, Dig(source=0))
    assert state.shafts[0].cards == ["blue-chain-1", "blue-chain-2", "blue-chain-3"]
    assert state.shafts[0].up == [False, True, True]
    assert Relaid(shaft=0, cards=["blue-chain-2", "blue-chain-3"]) in events


def test_gift_rules() -> None:
    """rules.md#gift and rules.md#d-gift-empty: once per turn, matching the target's last
    card (the cart top when its gallery is empty), never to oneself, a full gallery or a seat
    with nothing to match."""
    carts = {0: ["red-hammer-1"], 1: ["blue-chain-1"], 2: ["white-necklace-1"], 3: ["pink-sword-1"]}
    state = build(
        GAME,
        {
            "carts": carts,
            "galleries[3]": ["pink-crown-1", "pink-crown-2", "pink-crown-3", "pink-statue-1"],
            "hands[0]": ["blue-crown-1", "green-hammer-1"],
            "shafts[0]": ["white-statue-1", "yellow-chain-1"],
        },
        seats=4,
        down={"white-statue-1"},
    )
    gifts = {(a.source, a.target) for a in GAME.legal_actions(state) if isinstance(a, Gift)}
    # Seat 1 takes blue or chain cards; seat 2 white or necklace; seat 3's gallery is full.
    assert gifts == {("blue-crown-1", 1), (0, 1)}
    play(GAME, state, Gift(source=0, target=1))
    assert state.galleries[1].cards == ["yellow-chain-1"]
    assert state.shafts[0].up == [True]
    assert not any(isinstance(a, Gift) for a in GAME.legal_actions(state))


def test_kablooey_blasts_a_shaft_top() -> None:
    """rules.md#kablooey and rules.md#d-blasted: the card goes to the discard pile."""
    shafts = {"shafts": {0: ["blue-chain-1", "green-crown-1"], 1: ["pink-sword-1"]}}
    kablooeys = {"kablooeys[0]": ["kablooey-1", "kablooey-2"]}
    state = build(
        GAME, {"carts[0]": ["red-hammer-1"], **kablooeys, **shafts}, down={"blue-chain-1"}
    )
    assert {a.shaft for a in GAME.legal_actions(state) if isinstance(a, Blast)} == {0, 1}
    supply = len(state.kablooey_supply.cards)
    play(GAME, state, Blast(shaft=0))
    assert state.discard.cards == ["green-crown-1"]
    assert state.shafts[0].up == [True]
    assert len(state.kablooeys[0].cards) == 1 and len(state.kablooey_supply.cards) == supply + 1
    assert Blast(shaft=1) in GAME.legal_actions(state)  # any number per turn by default


def test_one_kablooey_per_turn_option() -> None:
    """rules.md#d-kablooey-count: with the option, a second blast is not offered."""
    game = clonk(one_kablooey_per_turn=True)
    kablooeys = {"kablooeys[0]": ["kablooey-1", "kablooey-2"]}
    state = build(game, {"carts[0]": ["red-hammer-1"], **kablooeys, "shafts[0]": ["blue-chain-1"]})
    play(game, state, Blast(shaft=0))
    assert not any(isinstance(a, Blast) for a in game.legal_actions(state))


def test_no_blast_without_kablooey_and_stop_is_always_offered() -> None:
    """rules.md#stop and rules.md#kablooey: stopping is always a choice; blasting needs a card."""
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "shafts[0]": ["blue-chain-1"]})
    assert GAME.legal_actions(state) == [Stop()]


@pytest.mark.parametrize(
    ("placed", "snore", "kablooey", "draws"),
    [(0, 1, 1, 3), (1, 0, 1, 3), (2, 0, 0, 3), (3, 0, 0, 2), (4, 0, 0, 1)],
)
def test_empty_space_bonus(placed: int, snore: int, kablooey: int, draws: int) -> None:
    """rules.md#bonus and rules.md#draw: Snore, Kablooey, two draws, then one more draw."""
    hand = ["red-hammer-2", "red-hammer-3", "red-chain-1", "red-chain-2"][:placed]
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "hands[0]": hand})
    events = play(GAME, state, *(Dig(source=c) for c in hand), *([Stop()] if placed < 4 else []))
    assert state.carts[0].cards[0].startswith("snore") == bool(snore)
    assert len(state.kablooeys[0].cards) == kablooey
    assert sum(isinstance(e, Drew) for e in events) == draws == len(state.hands[0].cards)


def test_empty_snore_supply_gives_nothing() -> None:
    """rules.md#d-empty-supply: no Snore card left, none taken."""
    snores = [*GAME.content.snores, "red-hammer-1"]  # the Snore cards lie under a cart
    state = build(GAME, {"carts[0]": snores, "snore_supply": []})
    before = list(state.carts[0].cards)
    play(GAME, state, Stop())
    assert state.carts[0].cards == before


def test_feed_is_mandatory_and_face_up() -> None:
    """rules.md#feed: any hand card onto any of the five shafts, face up on top."""
    state = build(
        GAME,
        {
            "hands[0]": ["red-hammer-1", "blue-chain-1"],
            "carts[1]": ["red-chain-1"],
            "shafts[0]": ["pink-sword-1", "green-crown-1"],  # a shaft's top lies face up
        },
        down={"pink-sword-1"},
        stack=[Feed(seat=0)],
    )
    legal = GAME.legal_actions(state)
    assert len(legal) == 10 and all(isinstance(a, FeedShaft) for a in legal)
    play(GAME, state, FeedShaft(card="blue-chain-1", shaft=0))
    assert state.shafts[0].cards == ["pink-sword-1", "green-crown-1", "blue-chain-1"]
    assert state.shafts[0].up == [False, True, True]


def test_hand_limit_discards_of_ones_choice() -> None:
    """rules.md#hand-limit and rules.md#d-discard: down to five, one chosen card per
    decision, onto the open discard pile."""
    hand = [
        "red-hammer-1",
        "red-hammer-2",
        "red-hammer-3",
        "red-chain-1",
        "red-chain-2",
        "red-chain-3",
        "blue-chain-1",
        "blue-chain-2",
    ]
    state = build(GAME, {"hands[0]": hand, "carts[1]": ["pink-sword-1"]}, stack=[Feed(seat=0)])
    play(GAME, state, FeedShaft(card="blue-chain-2", shaft=0))
    assert isinstance(state.stack[-1], Discard)
    assert GAME.legal_actions(state) == [DiscardCard(card=c) for c in hand[:7]]
    play(GAME, state, DiscardCard(card="red-chain-3"), DiscardCard(card="blue-chain-1"))
    assert state.discard.cards == ["red-chain-3", "blue-chain-1"]
    assert GAME.view(state, 1).discard.cards == state.discard.cards
    assert state.turns.current == 1


def test_hand_limit_option() -> None:
    """rules.md#options: hand_limit changes the limit."""
    game = clonk(hand_limit=2)
    hand = ["red-hammer-1", "red-hammer-2", "red-hammer-3", "red-chain-1"]
    state = build(game, {"hands[0]": hand}, stack=[Feed(seat=0)])
    play(game, state, FeedShaft(card="red-chain-1", shaft=0))
    assert isinstance(state.stack[-1], Discard)


def test_awakening_sets_up_the_last_round() -> None:
    """rules.md#end: set aside, replaced by the next card, the round is finished."""
    carts = {"carts": {0: ["red-hammer-1"], 1: ["red-hammer-2"], 2: ["red-hammer-3"]}}
    state = build(
        GAME,
        {**carts, "hands[0]": ["blue-chain-1"]},
        seats=3,
        top={"draw": ["pink-sword-1", "pink-sword-2", AWAKENING]},
        current=1,
    )
    events = play(GAME, state, Stop())
    assert any(isinstance(e, Awakened) for e in events)
    assert state.aside.cards == [AWAKENING] and state.turns.last_round
    assert "pink-sword-2" in state.hands[1].cards  # the replacement
    # Seat 1 then seat 2 finish the round; the game ends before seat 0 plays again.
    while state.stack:
        GAME.resolve(
            state,
            GAME.legal_actions(state)[-1] if not isinstance(state.stack[-1], Unearth) else Stop(),
        )
    assert state.turns.current == 2 and GAME.is_over(state)
    assert GAME.check_state(state) == []


def test_exhausted_draw_pile_and_empty_hand() -> None:
    """rules.md#d-exhausted and rules.md#d-no-feed: nothing drawn, feeding skipped."""
    carts = {"carts": {0: ["red-hammer-1"], 1: ["red-chain-1"]}}
    state = build(GAME, {**carts, "aside": [AWAKENING], "turns.last_round": True})
    state.discard.cards.extend(state.draw.cards)
    state.draw.cards.clear()
    play(GAME, state, Stop())
    assert state.hands[0].cards == [] and state.turns.current == 1


def test_placed_is_placed() -> None:
    """rules.md#placed: a gift stays in the gallery until its owner's Phase I."""
    carts = {"carts": {0: ["red-hammer-1"], 1: ["blue-chain-1"]}}
    state = build(GAME, {**carts, "hands[0]": ["blue-crown-1", "pink-sword-1"]})
    play(GAME, state, Gift(source="blue-crown-1", target=1), Stop())
    assert state.galleries[1].cards == ["blue-crown-1"]
    play(GAME, state, FeedShaft(card="pink-sword-1", shaft=0))
    assert state.galleries[1].cards == [] and state.carts[1].cards[-1] == "blue-crown-1"


def test_hidden_information_in_views() -> None:
    """rules.md#hidden: hands, face-down cards, others' carts below the top, the hidden task."""
    state = build(
        GAME,
        {
            "carts[0]": ["red-hammer-1", "red-chain-1"],
            "hands[0]": ["blue-chain-1"],
            "shafts[0]": ["pink-sword-1", "green-crown-1"],
        },
        down={"pink-sword-1"},
    )
    view = GAME.view(state, 1)
    assert view.hands[0].cards == [HIDDEN + "treasure"]
    assert view.carts[0].cards == [HIDDEN + "treasure", "red-chain-1"]
    assert view.shafts[0].cards == [HIDDEN + "treasure", "green-crown-1"]
    assert view.tasks[0].cards[1] == HIDDEN + "task-type"
    assert set(view.draw.cards) == {HIDDEN + "treasure", HIDDEN + "awakening"}
    own = GAME.view(state, 0)
    assert own.carts[0].cards == state.carts[0].cards and own.tasks[0].cards == state.tasks[0].cards
    drew = Drew(seat=0, card="blue-chain-1")
    assert GAME.presentation.describe_event(drew, 1) == "seat 0 draws a card"
    assert "blue chain" in GAME.presentation.describe_event(drew, 0)


def test_determinized_views_keep_the_awakening_card_in_its_place() -> None:
    """rules.md#hidden: everyone knows where the Awakening card lies in the draw pile."""
    state = GAME.setup(4, 2)
    where = state.draw.cards.index(AWAKENING)
    assert GAME.view(state, None).draw.cards[where] == HIDDEN + "awakening"
    for seed in range(30):
        full = GAME.determinize(GAME.view(state, None), Stream(f"t/{seed}"))
        assert full.draw.cards.index(AWAKENING) == where and GAME.check_state(full) == []


def test_a_blast_that_empties_a_shaft_lays_it_anew() -> None:
    """rules.md#kablooey and rules.md#empty-shaft: blasting a shaft's last card lays the
    shaft anew at once, one card face down and two face up."""
    draw = ["blue-chain-3", "blue-chain-2", "blue-chain-1"]  # the last is drawn first
    state = build(
        GAME,
        {
            "carts[0]": ["red-hammer-1"],
            "kablooeys[0]": ["kablooey-1"],
            "shafts[0]": ["pink-sword-1"],
        },
        top={"draw": draw},
    )
    events = play(GAME, state, Blast(shaft=0))
    assert state.discard.cards == ["pink-sword-1"]
    assert state.shafts[0].cards == ["blue-chain-1", "blue-chain-2", "blue-chain-3"]
    assert state.shafts[0].up == [False, True, True]
    assert Relaid(shaft=0, cards=["blue-chain-2", "blue-chain-3"]) in events


def test_the_awakening_card_turned_up_while_a_shaft_is_laid_anew() -> None:
    """rules.md#end and rules.md#empty-shaft: the Awakening card drawn for a new shaft is set
    aside, the next card takes its place, and this round becomes the last."""
    draw = ["blue-chain-3", "blue-chain-2", AWAKENING, "blue-chain-1"]  # the last is drawn first
    state = build(
        GAME, {"carts[0]": ["red-hammer-1"], "shafts[0]": ["red-crown-1"]}, top={"draw": draw}
    )
    events = play(GAME, state, Dig(source=0))
    assert state.shafts[0].cards == ["blue-chain-1", "blue-chain-2", "blue-chain-3"]
    assert state.aside.cards == [AWAKENING] and state.turns.last_round
    assert Awakened(seat=0) in events


def test_no_gift_to_a_seat_before_its_first_turn() -> None:
    """rules.md#gift: in round 1 a seat whose cart is still empty has nothing to match, so
    the start player has nobody to gift to, and a later seat only the seats before it."""
    hand = ["red-sword-1", "blue-sword-1", "white-crown-1"]
    state = build(
        GAME,
        {"carts[0]": ["red-hammer-1"], "hands[0]": hand, "shafts[0]": ["pink-hammer-1"]},
        seats=3,
        round=1,
    )
    assert not any(isinstance(a, Gift) for a in GAME.legal_actions(state))
    state = build(
        GAME,
        {"carts": {0: ["red-hammer-1"], 1: ["blue-chain-1"]}, "hands[1]": hand},
        seats=3,
        round=1,
        current=1,
    )
    gifts = {(a.source, a.target) for a in GAME.legal_actions(state) if isinstance(a, Gift)}
    assert gifts == {("red-sword-1", 0)}  # seat 2 has not played: its cart is empty


def test_empty_kablooey_supply_gives_nothing() -> None:
    """rules.md#d-empty-supply: no Kablooey card left, none taken; the rest of Phase III
    goes on as usual."""
    held = {"kablooeys[1]": list(GAME.content.kablooeys), "kablooey_supply": []}
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "carts[1]": ["red-chain-1"], **held})
    events = play(GAME, state, Stop())
    assert state.kablooeys[0].cards == [] and state.carts[0].cards[0].startswith("snore")
    assert sum(isinstance(e, Drew) for e in events) == 3


def test_the_last_round_ends_with_the_seat_before_the_start_player() -> None:
    """rules.md#end and rules.md#start: the round in which the Awakening card comes up is
    played to its end, so with seat 1 starting the game ends after seat 0's turn and every
    seat has had as many turns."""
    game = clonk(start_seat=1)
    for seed in range(3):
        state = game.setup(3, seed)
        seats_by_turn: dict[int, int] = {}
        while not game.is_over(state):
            if not isinstance(state.stack[-1], ChooseTask):
                seats_by_turn[state.turns.turn] = state.turns.current
            game.resolve(state, game.legal_actions(state)[-1])  # Stop, when digging
        assert state.aside.cards == [AWAKENING]
        turns = list(seats_by_turn.values())
        assert turns[0] == 1 and turns[-1] == 0
        assert turns.count(0) == turns.count(1) == turns.count(2)


def test_a_seat_may_dig_nothing_though_it_could() -> None:
    """rules.md#stop and rules.md#d-dig-none: stopping is offered before the first card even
    with a match on offer, and an empty first space then brings the Snore card."""
    hand = ["red-crown-1"]
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "hands[0]": hand})
    legal = GAME.legal_actions(state)
    assert Dig(source="red-crown-1") in legal and Stop() in legal
    play(GAME, state, Stop())
    assert state.galleries[0].cards == [] and state.carts[0].cards[0].startswith("snore")


def test_a_hand_limit_below_four_lets_the_dealt_hand_stand() -> None:
    """rules.md#hand-limit and rules.md#draw-pile: the limit is applied at the end of a turn,
    so the four cards dealt at set-up are a valid hand until the seat's first turn ends,
    whatever the limit; after that a hand over the limit is refused."""
    game = clonk(hand_limit=2)
    state = game.setup(3, 1)
    assert game.check_state(state) == []
    while state.turns.round == 1:
        play(game, state, game.legal_actions(state)[-1])  # Stop, when digging
    assert all(len(h.cards) <= 2 for h in state.hands)
    state.hands[1].cards += [state.draw.cards.pop() for _ in range(3 - len(state.hands[1].cards))]
    assert game.check_state(state) == ["$.hands[1]: 3 cards, over the hand limit of 2"]
