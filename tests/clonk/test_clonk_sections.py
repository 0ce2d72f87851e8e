"""Scenario tests for the Clonk! sections no narrower test pins down: a whole turn's phase
order, the Phase II menu, Phase III exactly, the scored cards, coins, the eye penalty and the
order of task choices. Each names its rules.md section."""

from __future__ import annotations

import pytest
from clonk_build import build, clonk, play, scored, table

from meeple.core.rng import Stream
from meeple.core.zones import HIDDEN
from meeple.plugins.clonk.state import (
    Blast,
    Cart,
    Carted,
    ChooseTask,
    Dig,
    Drew,
    Dug,
    Fed,
    Feed,
    FeedShaft,
    FirstCart,
    Gift,
    ShowTask,
    Stop,
    Stopped,
    TaskShown,
    Took,
    Unearth,
)

GAME = clonk()


def run(game, state, *actions):
    """Play ``actions``, checking the state after each; the events of each action, in order."""
    return [play(game, state, action) for action in actions]


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def test_a_later_turn_runs_phase_one_two_three_in_order() -> None:
    """rules.md#turn: the cart is filled, then digging, then the rubble, then the next seat."""
    state = build(
        GAME,
        {
            "carts": {0: ["red-hammer-1"], 1: ["blue-chain-1"]},
            "galleries": {0: ["red-crown-1"], 1: ["blue-sword-1", "blue-statue-1"]},
            "hands": {0: ["red-statue-1"], 1: ["pink-sword-1"]},
        },
        top={"draw": ["white-hammer-3", "white-hammer-2", "white-hammer-1"]},
        current=1,
        stack=[Feed(seat=1)],
    )
    fed, dug, stopped, passed = run(
        GAME,
        state,
        FeedShaft(card="pink-sword-1", shaft=4),
        Dig(source="red-statue-1"),
        Stop(),
        FeedShaft(card="white-hammer-1", shaft=0),
    )
    # Seat 1's turn ends and seat 0's Phase I happens with no decision: the crown tops the cart.
    assert fed == [Fed(seat=1, card="pink-sword-1", shaft=4), Carted(seat=0, card="red-crown-1")]
    assert state.carts[0].cards == ["red-hammer-1", "red-crown-1"]
    assert kinds(dug) == ["Dug"] and state.galleries[0].cards == ["red-statue-1"]
    # Phase III: one placed card leaves spaces 2-4 empty, then the extra draw.
    assert kinds(stopped) == ["Stopped", "Took", "Drew", "Drew", "Drew"]
    assert passed == [
        Fed(seat=0, card="white-hammer-1", shaft=0),
        Carted(seat=1, card="blue-statue-1", count=2),
    ]
    assert state.turns.current == 1 and state.stack == [Unearth(seat=1)]


def test_a_first_round_turn_starts_with_a_hand_card() -> None:
    """rules.md#turn and rules.md#fill-cart: in round 1 Phase I is a choice, then Phase II."""
    state = build(
        GAME,
        {"hands": {0: ["red-hammer-1", "red-crown-1"], 1: ["blue-chain-1"]}},
        round=1,
        stack=[FirstCart(seat=0)],
    )
    assert all(isinstance(a, Cart) for a in GAME.legal_actions(state))
    carted, stopped, fed = run(
        GAME, state, Cart(card="red-hammer-1"), Stop(), FeedShaft(card="red-crown-1", shaft=2)
    )
    assert kinds(carted) == ["Carted"]
    assert kinds(stopped) == ["Stopped", "Took", "Took", "Drew", "Drew", "Drew"]
    assert kinds(fed) == ["Fed"]
    # The next seat's first turn opens with its own Phase I choice.
    assert state.stack == [FirstCart(seat=1)]


def test_phase_two_offers_exactly_the_open_moves() -> None:
    """rules.md#unearth: digs from hand and shaft tops, gifts, blasts and stopping, no more."""
    state = build(
        GAME,
        {
            # nothing on offer matches seat 2's white necklace
            "carts": {0: ["red-hammer-1"], 1: ["blue-chain-1"], 2: ["white-necklace-1"]},
            "hands[0]": ["red-crown-1", "green-hammer-1", "blue-sword-1", "pink-statue-1"],
            "shafts[0]": ["white-statue-1", "yellow-hammer-1"],
            "shafts[1]": ["green-crown-1", "blue-statue-1"],
            "shafts[2]": ["white-chain-1", "pink-crown-1"],
            "kablooeys[0]": ["kablooey-1"],
        },
        seats=3,
        down={"white-statue-1", "green-crown-1", "white-chain-1"},
    )
    legal = GAME.legal_actions(state)
    expected = {
        Dig(source="red-crown-1"),
        Dig(source="green-hammer-1"),
        Dig(source=0),
        Gift(source="blue-sword-1", target=1),
        Gift(source=1, target=1),
        Blast(shaft=0),
        Blast(shaft=1),
        Blast(shaft=2),
        Stop(),
    }
    assert len(legal) == len(expected) and set(legal) == expected
    # Digs, a gift and a blast mix in any order; the phase stays open until the seat stops.
    run(GAME, state, Dig(source=0), Gift(source=1, target=1), Blast(shaft=2))
    assert state.galleries[0].cards == ["yellow-hammer-1"]
    assert state.galleries[1].cards == ["blue-statue-1"]
    assert isinstance(state.stack[-1], Unearth)
    # Now the yellow hammer is the card to match; the gift and the only Kablooey are spent.
    assert GAME.legal_actions(state) == [Dig(source="green-hammer-1"), Stop()]


@pytest.mark.parametrize(
    ("placed", "taken", "draws"),
    [
        (0, ["snore-8", "kablooey-9"], 3),
        (1, ["kablooey-9"], 3),
        (2, [], 3),
        (3, [], 2),
        (4, [], 1),
    ],
)
def test_sift_gives_exactly_the_cards_for_the_empty_spaces(
    placed: int, taken: list[str], draws: int
) -> None:
    """rules.md#sift: for 0-4 placed cards, these Snore, Kablooey and drawn cards, in this order,
    then the feed."""
    hand = ["red-hammer-2", "red-hammer-3", "red-chain-1", "red-chain-2"][:placed]
    draw = ["white-crown-3", "white-crown-2", "white-crown-1", "white-chain-1"]  # last on top
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "hands[0]": hand}, top={"draw": draw})
    events = run(GAME, state, *(Dig(source=c) for c in hand), *([Stop()] if placed < 4 else []))
    drawn = ["white-chain-1", "white-crown-1", "white-crown-2"][:draws]
    rubble = [*(Took(seat=0, card=c) for c in taken), *(Drew(seat=0, card=c) for c in drawn)]
    first = Stopped(seat=0) if placed < 4 else Dug(seat=0, card=hand[-1])
    assert events[-1] == [first, *rubble]
    snores = [c for c in taken if c.startswith("snore")]
    assert state.carts[0].cards == [*snores, "red-hammer-1"]  # the Snore card lies under
    assert state.kablooeys[0].cards == [c for c in taken if c.startswith("kablooey")]
    assert state.hands[0].cards == drawn
    assert state.draw.cards[-1] == draw[-1 - draws]  # nothing more was drawn
    assert state.stack == [Feed(seat=0)]


def test_scored_cards_and_coins(tmp_path) -> None:
    """rules.md#scoring, rules.md#coins, rules.md#d-kablooey-coins and rules.md#d-hand-cards:
    cart, gallery and held Kablooey cards score; hand cards and the supply do not."""
    values = {
        "red-sword-1": (3, 0),
        "blue-sword-1": (2, 0),
        "pink-crown-1": (3, 4),
        "red-crown-1": (3, 0),
    }
    game = clonk(cards=table(tmp_path / "t.json", values))
    seat0, seat1 = scored(
        game,
        {
            # one Snore card (3 eyes, no coin) under seat 0's cart
            "carts[0]": ["snore-8", "red-sword-1"],
            "carts[1]": ["red-crown-1"],
            "galleries[0]": ["blue-sword-1"],  # a sword on a sword
            "hands[0]": ["pink-crown-1"],  # coins, eyes and a crown: all worthless in hand
            "tasks[0]": ["task-colour-red", "task-type-crown"],
            "kablooeys": {0: ["kablooey-1", "kablooey-2"], 1: ["kablooey-3"]},
        },
    )
    assert seat0.parts == {"coins": 3 + 2 + 2, "task_colour": 1, "task_type": 0, "eyes_penalty": -2}
    assert seat0.total == 6 and seat0.tiebreak == [-3, 2]
    assert seat1.parts == {"coins": 3 + 1, "task_colour": 0, "task_type": 0, "eyes_penalty": 0}
    assert seat1.total == 4 and seat1.tiebreak == [0, 1]


def test_a_kablooey_card_is_worth_what_the_table_says(tmp_path) -> None:
    """rules.md#d-kablooey-coins: each held Kablooey card adds its coin value."""
    path = table(tmp_path / "t.json", kablooey={"count": 9, "coins": 2})
    held = {"kablooeys[0]": ["kablooey-1", "kablooey-2", "kablooey-3"]}
    both = {**held, "kablooeys[1]": ["kablooey-4"]}
    assert [s.parts["coins"] for s in scored(clonk(cards=path), both)] == [6, 2]
    with_cards = [s.parts["coins"] for s in scored(GAME, held)]
    without = [s.parts["coins"] for s in scored(GAME)]  # the cart cards' coins
    assert [a - b for a, b in zip(with_cards, without, strict=True)] == [3, 0]


@pytest.mark.parametrize(
    ("cart0", "gallery0", "cart1", "penalties"),
    [
        (7, 8, 5, [-8, 0]),  # 15 eyes, odd: 8
        (7, 7, 5, [-7, 0]),  # 14 eyes, even: 7
        (1, 1, 5, [0, -3]),  # seat 1 leads on 5 despite 20 eyes in hand
        (0, 1, 0, [-1, 0]),  # a single eye still costs a point
        (0, 0, 4, [0, -2]),
        (0, 0, 0, [0, 0]),  # nobody has an eye: nobody pays
    ],
)
def test_eye_penalty(tmp_path, cart0: int, gallery0: int, cart1: int, penalties: list[int]) -> None:
    """rules.md#eye-penalty: the most eyes (cart and gallery, not hand) lose half, rounded up."""
    values = {
        "red-sword-1": (0, cart0),
        "red-sword-2": (0, gallery0),
        "blue-chain-1": (0, cart1),
        "blue-chain-2": (0, 20),
    }
    scores = scored(
        clonk(cards=table(tmp_path / "t.json", values)),
        {
            "carts": {0: ["red-sword-1"], 1: ["blue-chain-1"]},
            "galleries[0]": ["red-sword-2"],
            "hands[1]": ["blue-chain-2"],
            "tasks[0]": ["task-colour-white", "task-type-statue"],
            "tasks[1]": ["task-colour-pink", "task-type-crown"],
        },
    )
    assert [s.parts["eyes_penalty"] for s in scores] == penalties
    assert [s.tiebreak[0] for s in scores] == [-(cart0 + gallery0), -cart1]
    assert [s.total for s in scores] == penalties  # no coins, no task matches


def test_task_choices_go_in_turn_order_from_the_start_player() -> None:
    """rules.md#d-task-order and rules.md#tasks: seats choose from the start player on, and a
    later seat sees the face-up tiles chosen before it."""
    game = clonk(start_seat=2)
    state = game.setup(3, 4)
    assert state.stack == [ChooseTask(seat=1), ChooseTask(seat=0), ChooseTask(seat=2)]
    hidden = [HIDDEN + "task-colour", HIDDEN + "task-type"]
    assert game.view(state, 0).tasks[2].cards == hidden  # seat 2 has not chosen yet
    colour2, type2 = state.tasks[2].cards
    assert game.legal_actions(state) == [ShowTask(task=colour2), ShowTask(task=type2)]
    run(game, state, ShowTask(task=type2))
    # Seat 0 now chooses, knowing seat 2's open tile but not its hidden one.
    assert game.legal_actions(state) == [ShowTask(task=t) for t in state.tasks[0].cards]
    assert game.view(state, 0).tasks[2].cards == [HIDDEN + "task-colour", type2]
    colour0, _ = state.tasks[0].cards
    run(game, state, ShowTask(task=colour0))
    assert game.view(state, 1).tasks[0].cards == [colour0, HIDDEN + "task-type"]
    assert game.view(state, 1).tasks[2].cards == [HIDDEN + "task-colour", type2]
    run(game, state, game.legal_actions(state)[0])
    assert state.stack == [FirstCart(seat=2)]  # play then begins with the start player


def test_the_secret_task_tiles_are_revealed_when_the_game_ends() -> None:
    """rules.md#end and rules.md#hidden: the last turn's end turns every face-down task tile
    up, in seat order, so views of the finished game show them to everyone."""
    game = clonk()
    state = game.setup(3, 7)
    rng = Stream("reveal")
    while True:
        hidden = [
            (s, t)
            for s, tiles in enumerate(state.tasks)
            for t, up in zip(tiles.cards, tiles.up or (), strict=True)
            if not up
        ]
        events = play(game, state, rng.choice(game.legal_actions(state)))
        if not state.stack:
            break
    shown = [(e.seat, e.task) for e in events if type(e) is TaskShown]
    assert shown == hidden and len(hidden) == 3  # one secret tile per seat
    for seat in (None, 0, 1, 2):
        view = game.view(state, seat)
        assert [z.cards for z in view.tasks] == [z.cards for z in state.tasks]
