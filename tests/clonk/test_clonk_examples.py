"""The rulebook's worked examples, with their exact numbers."""

from __future__ import annotations

from clonk_build import build, clonk, scored, table

from meeple.core.scoring import rank, winners
from meeple.plugins.clonk.state import Dig, Feed, Gift, Revealed, Stop


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
    game.apply(state, Dig(source=0))
    assert state.galleries[thomas].cards == ["white-necklace-1"]
    game.apply(state, Dig(source="white-statue-1"))  # matches by colour
    events = game.apply(state, Gift(source=1, target=andrea))  # red statue onto red hammer
    assert state.galleries[andrea].cards == ["red-statue-1"]
    assert Revealed(card="yellow-crown-1", shaft=1) in events
    assert state.shafts[1].cards == ["yellow-crown-1"] and state.shafts[1].up == [True]
    game.apply(state, Dig(source=2))  # blue statue
    game.apply(state, Stop())
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
