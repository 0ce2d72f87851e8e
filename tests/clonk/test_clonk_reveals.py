"""What a Clonk! step shows the seat taking it (Game.reveals), as taking it back needs."""

from __future__ import annotations

from clonk_build import build, clonk

from meeple.plugins.clonk.state import Dig

GAME = clonk()


def reveals(state, action) -> bool:
    after = GAME.clone(state)
    GAME.resolve(after, action)
    return GAME.reveals(state, after, 0)


def test_a_dig_that_turns_a_card_up_reveals() -> None:
    """rules.md#reveal: the face-down card under the taken top turns face up."""
    shaft = {"carts[0]": ["red-hammer-1"], "shafts[0]": ["blue-chain-1", "red-crown-1"]}
    assert reveals(build(GAME, shaft, down={"blue-chain-1"}), Dig(source=0))
    assert not reveals(build(GAME, shaft), Dig(source=0))  # the card below lay face up


def test_a_dig_that_empties_a_shaft_reveals() -> None:
    """rules.md#empty-shaft: the shaft is laid anew from the draw pile, two cards face up."""
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "shafts[0]": ["red-crown-1"]})
    assert reveals(state, Dig(source=0))


def test_a_dig_from_the_hand_reveals_nothing() -> None:
    """rules.md#chain: a hand card goes to the gallery; nothing else moves."""
    state = build(GAME, {"carts[0]": ["red-hammer-1"], "hands[0]": ["red-crown-1"]})
    assert not reveals(state, Dig(source="red-crown-1"))
