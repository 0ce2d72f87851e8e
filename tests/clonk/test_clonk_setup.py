"""Clonk! set-up, scoring rules and options (rules.md#setup, #scoring, #options)."""

from __future__ import annotations

import pytest
from clonk_build import clonk, scored, table

from meeple.core.errors import MeepleError
from meeple.core.scoring import rank
from meeple.plugins.clonk.content import AWAKENING
from meeple.plugins.clonk.state import ChooseTask, FirstCart, ShowTask

GAME = clonk()


@pytest.mark.parametrize(("seats", "bottom"), [(2, 30), (3, 18), (4, 13)])
def test_setup_layout(seats: int, bottom: int) -> None:
    """rules.md#shafts, rules.md#draw-pile and rules.md#d-draw-split: 5 shafts of 8, hands of
    4, the Awakening card on the bottom pile, which is the smallest."""
    state = GAME.setup(seats, 3)
    assert [len(z.cards) for z in state.shafts] == [8] * 5
    assert all(z.up == [False, False, True, False, True, False, True, True] for z in state.shafts)
    assert [len(h.cards) for h in state.hands] == [4] * seats
    assert state.draw.cards.index(AWAKENING) == bottom
    assert len(state.draw.cards) == 108 - 40 - 4 * seats + 1
    assert GAME.check_state(state) == []


def test_task_choice_is_a_decision_per_seat() -> None:
    """rules.md#tasks: one tile of each kind, both hidden until the seat picks the open one."""
    state = GAME.setup(3, 5)
    assert [f.seat for f in reversed(state.stack)] == [0, 1, 2]
    assert all(isinstance(f, ChooseTask) for f in state.stack)
    for seat in range(3):
        tiles = state.tasks[seat].cards
        assert tiles[0].startswith("task-colour-") and tiles[1].startswith("task-type-")
        legal = GAME.legal_actions(state)
        assert legal == [ShowTask(task=t) for t in tiles]
        GAME.resolve(state, legal[seat % 2])
        assert state.tasks[seat].up == [seat % 2 == 0, seat % 2 == 1]
    assert isinstance(state.stack[-1], FirstCart) and state.stack[-1].seat == 0
    assert GAME.view(state, 1).tasks[0].cards[1].startswith("?")
    assert GAME.check_state(state) == []


def test_start_seat_option() -> None:
    """rules.md#start: the start_seat option picks who begins; a missing seat is refused."""
    game = clonk(start_seat=2)
    state = game.setup(3, 1)
    assert state.stack[-1].seat == 2 and state.turns.order == [2, 0, 1]
    with pytest.raises(MeepleError, match="start_seat 2"):
        game.setup(2, 1)


def test_same_seed_same_game() -> None:
    assert GAME.digest(GAME.setup(4, 9)) == GAME.digest(GAME.setup(4, 9))
    assert GAME.digest(GAME.setup(4, 9)) != GAME.digest(GAME.setup(4, 10))


@pytest.mark.parametrize(
    ("n", "points"),
    [(1, 1), (2, 2), (3, 4), (4, 6), (5, 9), (6, 12), (7, 16), (8, 20), (9, 25), (11, 25)],
)
def test_task_table(n: int, points: int) -> None:
    """rules.md#task-table: 1,2,4,6,9,12,16,20,25 for 9 or more."""
    reds = [f"red-{t}-{k}" for t in GAME.content.types for k in (1, 2, 3)][:n]
    tasks = ["task-colour-red", "task-type-sword"]
    score = scored(GAME, {"carts[0]": reds, "tasks[0]": tasks})[0]
    swords = sum(c.startswith("red-sword") for c in reds)
    assert score.parts["task_colour"] == points
    assert score.parts["task_type"] == [0, 1, 2, 4][swords]


def test_card_counts_for_both_tiles_and_hand_does_not_count(tmp_path) -> None:
    """rules.md#task-table, rules.md#d-hand-cards and rules.md#d-kablooey-coins: a red sword
    counts twice; hands count nothing; each held Kablooey card is a coin."""
    game = clonk(cards=table(tmp_path / "t.json", {"red-sword-1": (2, 0), "blue-chain-1": (3, 0)}))
    s = scored(
        game,
        {
            "carts[0]": ["red-sword-1"],
            "hands[0]": ["blue-chain-1"],
            "tasks[0]": ["task-colour-red", "task-type-sword"],
            "kablooeys[0]": ["kablooey-1", "kablooey-2"],
        },
    )[0]
    assert s.parts == {"coins": 2 + 2, "task_colour": 1, "task_type": 1, "eyes_penalty": 0}


def test_eye_tie_option(tmp_path) -> None:
    """rules.md#d-eye-tie: by default every tied seat pays; with "none" nobody does."""
    path = table(tmp_path / "t.json", {"red-sword-1": (0, 3), "blue-chain-1": (0, 3)})
    for option, penalty in (("all", -2), ("none", 0)):
        carts = {"carts[0]": ["red-sword-1"], "carts[1]": ["blue-chain-1"]}
        s = scored(clonk(cards=path, eye_tie=option), carts)
        assert [x.parts["eyes_penalty"] for x in s] == [penalty, penalty]


def test_snore_eyes_option(tmp_path) -> None:
    """rules.md#d-snore-penalty: Snore eyes pick the leader; the option drops them from the loss."""
    path = table(tmp_path / "t.json", {"red-sword-1": (0, 3), "blue-chain-1": (0, 4)})
    carts = {"carts[0]": ["snore-8", "red-sword-1"], "carts[1]": ["blue-chain-1"]}
    # seat 0: 3 + 3 Snore eyes
    assert [x.parts["eyes_penalty"] for x in scored(clonk(cards=path), carts)] == [-3, 0]
    off = scored(clonk(cards=path, snore_eyes_in_penalty=False), carts)
    assert [x.parts["eyes_penalty"] for x in off] == [-2, 0]


def test_tiebreaks(tmp_path) -> None:
    """rules.md#tiebreak: fewer eyes, then more Treasure cards, then a shared place."""
    values = {
        "red-sword-1": (2, 0),
        "blue-chain-1": (2, 1),
        "pink-crown-1": (1, 0),
        "white-hammer-1": (0, 5),
    }
    game = clonk(cards=table(tmp_path / "t.json", values))
    tasks = {
        "tasks[0]": ["task-colour-white", "task-type-hammer"],
        "tasks[1]": ["task-colour-yellow", "task-type-statue"],
        "tasks[2]": ["task-colour-blue", "task-type-necklace"],
    }

    def totals_and_ranks(seat0, seat1, kablooeys=0):
        carts = {"carts[0]": seat0, "carts[1]": seat1, "carts[2]": ["white-hammer-1"]}
        held = {"kablooeys[1]": GAME.content.kablooeys[:kablooeys]}
        s = scored(game, {**carts, **tasks, **held}, seats=3)  # seat 2 has the most eyes
        return [x.total for x in s[:2]], rank(s[:2])

    assert totals_and_ranks(["red-sword-1"], ["blue-chain-1"]) == ([2, 2], [1, 2])
    more = ["pink-crown-1", "green-crown-1"]
    assert totals_and_ranks(["red-sword-1"], more, kablooeys=1) == ([2, 2], [2, 1])
    shared = (["red-sword-1", "green-crown-2"], more)
    assert totals_and_ranks(*shared, kablooeys=1) == ([2, 2], [1, 1])


def test_snore_eyes_in_tiebreak_option(tmp_path) -> None:
    """rules.md#d-snore-tiebreak and rules.md#tiebreak: on equal totals Snore eyes count
    towards "fewer eyes" by default; with the option off only Treasure eyes do."""
    values = {"red-sword-1": (2, 1), "blue-chain-1": (2, 2), "white-hammer-1": (0, 9)}
    path = table(tmp_path / "t.json", values)
    fields = {
        "carts": {0: ["snore-8", "red-sword-1"], 1: ["blue-chain-1"], 2: ["white-hammer-1"]},
        "tasks[0]": ["task-colour-yellow", "task-type-statue"],
        "tasks[1]": ["task-colour-pink", "task-type-necklace"],
        "tasks[2]": ["task-colour-green", "task-type-crown"],
    }
    s = scored(clonk(cards=path), fields, seats=3)  # seat 2 has the most eyes and pays
    assert [x.total for x in s[:2]] == [2, 2]
    assert [x.tiebreak for x in s[:2]] == [[-4, 1], [-2, 1]] and rank(s[:2]) == [2, 1]
    s = scored(clonk(cards=path, snore_eyes_in_tiebreak=False), fields, seats=3)
    assert [x.tiebreak for x in s[:2]] == [[-1, 1], [-2, 1]] and rank(s[:2]) == [1, 2]
    assert s[2].parts["eyes_penalty"] == -5  # "most eyes" still counts every eye


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_task_tiles_not_dealt_stay_in_their_stacks_unseen(seats: int) -> None:
    """rules.md#tasks and rules.md#hidden: each stack keeps the tiles nobody was dealt, and no
    seat sees which they are."""
    state = GAME.setup(seats, 7)
    colour, kind = state.task_piles
    assert len(colour.cards) == len(kind.cards) == 6 - seats
    dealt = {t for z in state.tasks for t in z.cards}
    assert dealt.isdisjoint(colour.cards + kind.cards)
    assert {*dealt, *colour.cards, *kind.cards} == {
        *GAME.content.colour_tasks,
        *GAME.content.type_tasks,
    }
    for seat in (None, *range(seats)):
        view = GAME.view(state, seat)
        assert all(t.startswith("?") for z in view.task_piles for t in z.cards)
