"""``testing.scenario``: an exact situation from a real set-up, or an error naming the fault."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.testing import ConformanceError, scenario
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import Turn
from meeple.plugins.clonk.rules import Clonk


@pytest.fixture(scope="module")
def clank() -> Clank:
    return Clank()


def test_named_cards_move_and_every_other_card_stays(clank: Clank) -> None:
    fresh = clank.setup(2, 1)
    state = scenario(
        clank,
        {"players[0].hand": ["burgle-s0-1", "stumble-s0-1"]},
        top={"players[1].deck": ["sneak-1"]},
        bottom={"players[0].deck": ["scramble-s0"]},
    )
    assert state.players[0].hand.cards == ["burgle-s0-1", "stumble-s0-1"]
    assert state.players[1].deck.top == "sneak-1"
    assert state.players[0].deck.cards[0] == "scramble-s0"
    # The hand's other cards went into the seat's deck (the game's displaced()).
    left = [c for c in fresh.players[0].hand.cards if c not in state.players[0].hand.cards]
    assert set(left) <= set(state.players[0].deck.cards)
    assert state.players[1].hand == fresh.players[1].hand


def test_values_the_seat_to_move_and_the_stack(clank: Clank) -> None:
    state = scenario(clank, {"players[2].gold": 7, "$.pool.skill": 4}, seats=3, seed=2, to_move=2)
    assert (state.players[2].gold, state.pool.skill) == (7, 4)
    assert state.turns.current == 2 and state.stack == [Turn(seat=2)]
    edited = scenario(clank, edit=lambda s: setattr(s.players[1], "room", 2), stack=[Turn(seat=0)])
    assert edited.players[1].room == 2 and edited.stack == [Turn(seat=0)]


def test_a_mapping_sets_the_fields_of_a_struct(clank: Clank) -> None:
    state = scenario(
        clank, {"players[1]": {"hand": ["sneak-1"], "gold": 3, "room": 2}, "pool": {"boots": 1}}
    )
    p = state.players[1]
    assert (p.hand.cards, p.gold, p.room, state.pool.boots) == (["sneak-1"], 3, 2, 1)


def test_a_wildcard_is_overridden_by_the_index_it_names() -> None:
    clonk = Clonk()
    state = scenario(clonk, {"hands[*]": [], "hands[1]": ["red-hammer-1"]})
    assert [z.cards for z in state.hands] == [[], ["red-hammer-1"]]
    laid = scenario(clonk, {"shafts[0]": ["blue-chain-1", "red-crown-1"]}, down={"blue-chain-1"})
    assert laid.shafts[0].up == [False, True]


def test_a_mapping_keyed_by_index_sets_the_items_of_a_list(clank: Clank) -> None:
    state = scenario(Clonk(), {"hands[*]": [], "hands": {0: ["red-hammer-1"]}}, seats=3)
    assert [z.cards for z in state.hands] == [["red-hammer-1"], [], []]
    seats = scenario(clank, {"players": {1: {"gold": 3, "hand": ["sneak-1"]}}})
    assert (seats.players[1].gold, seats.players[1].hand.cards) == (3, ["sneak-1"])


def test_a_wildcard_sets_a_value_at_every_index(clank: Clank) -> None:
    state = scenario(clank, {"players[*].gold": 5, "players[2]": {"gold": 1}}, seats=3, seed=1)
    assert [p.gold for p in state.players] == [5, 5, 1]


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (
            {"fields": {"players[0].hnd": []}},
            "'players[0].hnd': players[0] has no 'hnd' (its fields: room, deck, hand, ",
        ),
        ({"top": {"players[0].hnd": []}}, "no zone 'players[0].hnd' in the state (its zones: "),
        ({"top": {"players[0].hand": ["gem-x"]}}, "card 'gem-x' is not a card of Clank!"),
        (
            {"fields": {"players[0].hand": ["sneak-1"]}, "top": {"row": ["sneak-1"]}},
            "card 'sneak-1' is named 2 times, but Clank! has 1",
        ),
        ({"fields": {"players[0].hand": "sneak-1"}}, "'players[0].hand' is a zone: give it a list"),
        ({"fields": {"players[9].gold": 1}}, "'players[9].gold': players has no 9"),
        ({"fields": {"players[0]..gold": 1}}, "is not a path like 'players[0].gold'"),
        ({"fields": {"players": {"0": {"gold": 1}}}}, "'players' is a list: key its mapping by"),
        ({"fields": {"players": {5: {"gold": 1}}}}, "'players[5]': players has no 5"),
    ],
)
def test_what_is_not_there_is_named(clank: Clank, kw: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="the scenario names what is not there") as err:
        scenario(clank, kw.pop("fields", {}), **kw)
    assert message in str(err.value)


def test_a_state_failing_its_checks_lists_the_problems(clank: Clank) -> None:
    with pytest.raises(ConformanceError, match=r"\$\.players\[0\]\.room: no room 99"):
        scenario(clank, {"players[0].room": 99})
    with pytest.raises(ConformanceError, match=r"does not decode.*\$\.pool\.skill"):
        scenario(clank, {"pool.skill": -1})


def test_a_displaced_card_needs_a_place_the_game_names(tiny: Any) -> None:
    """A game without ``displaced`` can still name every card of a zone it fills exactly."""
    state = tiny.setup(2, 1)
    hand = state.hands[0].cards
    with pytest.raises(ValueError, match=rf"card '{hand[0]}' lay in hands\[0\].*no zone to go to"):
        scenario(tiny, {"hands[0]": []})
    assert scenario(tiny, {"hands[0]": hand[::-1]}).hands[0].cards == hand[::-1]
