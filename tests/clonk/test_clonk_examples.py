"""The rulebook's worked examples, with their exact numbers."""

from __future__ import annotations

from clonk_build import build, clonk, scored, table

from meeple.core.scoring import rank, winners
from meeple.plugins.clonk.state import Dig, Drew, Feed, FeedShaft, Gift, Revealed, Stop, Took

GAME = clonk()


def test_unearthing_chain_example() -> None:
    """rules.md#chain, #gift, #reveal: Thomas's turn from the rulebook, step by step."""
    game = clonk()
    thomas, andrea = 0, 1
    state = build(
        game,
        {
            f"hands[{thomas}]": ["white-statue-1", "red-necklace-1"],
            "carts": {thomas: ["green-necklace-1"], andrea: ["red-hammer-1"]},
            "shafts[0]": ["red-chain-1", "white-necklace-1"],
            "shafts[1]": ["yellow-crown-1", "red-statue-1"],
            "shafts[2]": ["green-sword-1", "blue-statue-1"],
            "shafts[3]": ["yellow-hammer-1", "pink-necklace-1"],
        },
        down={"yellow-crown-1", "green-sword-1"},
    )
    legal = game.legal_actions(state)
    # The white necklace matches the green necklace by type, as do the red and pink ones.
    for source in (0, "red-necklace-1", 3):
        assert Dig(source=source) in legal
    assert Dig(source="white-statue-1") not in legal
    game.resolve(state, Dig(source=0))
    assert state.galleries[thomas].cards == ["white-necklace-1"]
    game.resolve(state, Dig(source="white-statue-1"))  # matches by colour
    events = game.resolve(state, Gift(source=1, target=andrea))  # red statue onto red hammer
    assert state.galleries[andrea].cards == ["red-statue-1"]
    assert Revealed(card="yellow-crown-1", shaft=1) in events
    assert state.shafts[1].cards == ["yellow-crown-1"] and state.shafts[1].up == [True]
    game.resolve(state, Dig(source=2))  # blue statue
    game.resolve(state, Stop())
    assert state.galleries[thomas].cards == ["white-necklace-1", "white-statue-1", "blue-statue-1"]
    assert isinstance(state.stack[-1], Feed)
    assert game.check_state(state) == []


def test_scoring_example(tmp_path) -> None:
    """rules.md#example: Thomas 19 + 6 + 6 - 8 = 23, Andrea 14 + 6 + 4 = 24; Andrea wins."""
    thomas_cards = {
        "red-necklace-1": (3, 2),
        "white-necklace-1": (3, 2),
        "yellow-necklace-1": (3, 2),
        "pink-necklace-1": (3, 2),
        "green-hammer-1": (3, 2),
        "green-statue-1": (3, 2),
        "green-crown-1": (1, 2),
        "green-sword-1": (0, 1),
    }
    andrea_cards = {
        "white-crown-1": (2, 2),
        "yellow-crown-1": (2, 2),
        "pink-crown-1": (2, 2),
        "blue-crown-1": (2, 2),
        "red-hammer-2": (2, 2),
        "red-statue-2": (2, 2),
        "red-sword-2": (2, 2),
    }
    game = clonk(cards=table(tmp_path / "cards.json", {**thomas_cards, **andrea_cards}))
    thomas = list(thomas_cards)
    andrea = list(andrea_cards)
    t, a = scored(
        game,
        {
            # Andrea's red hammer tops her cart: the red gallery matches it
            "carts": {0: thomas[:5], 1: andrea[:5]},
            "galleries": {0: thomas[5:], 1: andrea[5:]},
            "tasks[0]": ["task-colour-green", "task-type-necklace"],
            "tasks[1]": ["task-colour-red", "task-type-crown"],
            "hands[1]": ["blue-chain-3"],
        },
    )
    assert t.parts == {"coins": 19, "task_colour": 6, "task_type": 6, "eyes_penalty": -8}
    assert t.total == 23 and t.tiebreak == [-15, 8]
    assert a.parts == {"coins": 14, "task_colour": 4, "task_type": 6, "eyes_penalty": 0}
    assert a.total == 24 and a.tiebreak == [-14, 7]
    assert winners([t, a]) == [1] and rank([t, a]) == [2, 1]


def test_filling_the_cart_example() -> None:
    """rules.md#fill-cart: the rulebook's cart example: the red hammer goes in first, then the
    green hammer to its right, which ends on top and is the card the next dig matches."""
    state = build(
        GAME,
        {
            "carts": {0: ["blue-hammer-1"], 1: ["pink-sword-1"]},
            "galleries[0]": ["red-hammer-1", "green-hammer-1"],
            "hands[0]": ["green-crown-1", "red-crown-1"],
            "hands[1]": ["white-statue-1"],
        },
        current=1,
        stack=[Feed(seat=1)],
    )
    GAME.resolve(state, FeedShaft(card="white-statue-1", shaft=0))  # seat 1's turn ends
    assert state.carts[0].cards == ["blue-hammer-1", "red-hammer-1", "green-hammer-1"]
    digs = {a.source for a in GAME.legal_actions(state) if isinstance(a, Dig)}
    assert digs == {"green-crown-1"}  # green matches the green hammer; red does not


def test_empty_gallery_example() -> None:
    """rules.md#bonus, #draw and #feed: Andrea's turn from the rulebook: she unearths nothing,
    so she takes a Snore card, a Kablooey card and two Treasure cards, draws the one card
    every turn ends with, and lays a card from her hand on a shaft."""
    andrea = 1
    draw = ["white-crown-3", "white-crown-2", "white-crown-1"]  # the last is drawn first
    state = build(
        GAME,
        {"carts": {0: ["blue-chain-1"], 1: ["pink-sword-1"]}, "hands[1]": ["red-hammer-1"]},
        top={"draw": draw},
        current=andrea,
    )
    events = GAME.resolve(state, Stop())
    took = [e.card for e in events if isinstance(e, Took)]
    assert [c.split("-")[0] for c in took] == ["snore", "kablooey"]
    assert state.carts[andrea].cards[0].startswith("snore")  # under the cart
    assert len(state.kablooeys[andrea].cards) == 1
    assert sum(isinstance(e, Drew) for e in events) == 3
    assert state.hands[andrea].cards == ["red-hammer-1", *reversed(draw)]
    assert state.stack == [Feed(seat=andrea)]
    GAME.resolve(state, FeedShaft(card="white-crown-2", shaft=3))
    assert state.shafts[3].cards[-1] == "white-crown-2" and state.shafts[3].up[-1]
