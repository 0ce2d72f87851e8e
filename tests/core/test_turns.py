"""Turn order: rounds, the last round, seats leaving."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from meeple.core.turns import Turns


def play(turns: Turns, limit: int = 100) -> list[int]:
    """The seats that move, in order, until the turn order ends (at most ``limit``)."""
    seen = [turns.current]
    while len(seen) < limit and not turns.next():
        seen.append(turns.current)
    return seen


def test_start_orders_clockwise_from_first() -> None:
    t = Turns.start(4, first=2)
    assert t.order == [2, 3, 0, 1]
    assert (t.current, t.first, t.round, t.turn) == (2, 2, 1, 1)
    assert t.active == [2, 3, 0, 1]


def test_rounds_advance_when_the_order_wraps() -> None:
    t = Turns.start(3, first=1)
    moves = []
    for _ in range(7):
        moves.append((t.round, t.current))
        assert t.next() is False
    assert moves == [(1, 1), (1, 2), (1, 0), (2, 1), (2, 2), (2, 0), (3, 1)]
    assert t.turn == 8


def test_last_round_triggered_mid_round_finishes_the_round() -> None:
    t = Turns.start(4)
    t.next()  # seat 1 now moves
    t.last_round = True
    assert t.next() is False and t.current == 2
    assert t.next() is False and t.current == 3
    assert t.next() is True  # passing the end of the order ends the game
    assert t.over
    assert t.round == 1


def test_last_round_triggered_by_the_last_seat_ends_at_once() -> None:
    t = Turns.start(3)
    t.next()
    t.next()
    t.last_round = True
    assert t.is_last_in_round(t.current)
    assert t.next() is True


@given(
    seats=st.integers(1, 6),
    first=st.integers(0, 5),
    trigger=st.integers(0, 40),
)
def test_everyone_gets_the_same_number_of_turns(seats: int, first: int, trigger: int) -> None:
    t = Turns.start(seats, first=first % seats)
    moves = [t.current]
    for _ in range(trigger):
        t.next()
        moves.append(t.current)
    t.last_round = True  # whoever is to move triggers the end
    while not t.next():
        moves.append(t.current)
    counts = Counter(moves)
    assert len(counts) == seats
    assert len(set(counts.values())) == 1
    assert t.over


def test_leaving_seats_are_skipped() -> None:
    t = Turns.start(4)
    t.leave(2)
    t.leave(2)  # leaving twice is harmless
    assert t.left == [2]
    assert t.active == [0, 1, 3]
    assert play(t, limit=6) == [0, 1, 3, 0, 1, 3]


def test_start_player_leaving_keeps_the_round_boundary() -> None:
    t = Turns.start(3, first=1)  # order 1, 2, 0
    t.leave(1)  # the start player leaves during their own turn
    assert t.first == 1
    t.next()
    assert (t.current, t.round) == (2, 1)
    t.next()
    assert (t.current, t.round) == (0, 1)
    t.next()  # the round still ends after seat 0, the last seat of the order
    assert (t.current, t.round) == (2, 2)
    assert not t.is_last_in_round(2)
    assert t.is_last_in_round(0)


def test_last_seat_leaving_makes_previous_seat_last_in_round() -> None:
    t = Turns.start(3)
    t.leave(2)
    assert t.is_last_in_round(1)
    t.next()
    t.last_round = True
    assert t.next() is True


def test_all_seats_leaving_ends_the_game() -> None:
    t = Turns.start(3)
    for seat in range(3):
        t.leave(seat)
    assert t.active == []
    assert t.next() is True
    assert t.over


@given(
    seats=st.integers(2, 5),
    ops=st.lists(st.one_of(st.just("next"), st.integers(0, 4)), max_size=40),
)
def test_turns_invariants(seats: int, ops: list[str | int]) -> None:
    """Whatever happens, the seat to move is active and turns only move forward."""
    t = Turns.start(seats)
    for op in ops:
        if t.over:
            break
        if op == "next":
            before = (t.round, t.turn)
            ended = t.next()
            assert ended == t.over
            if not ended:
                assert t.current in t.active
                assert t.turn == before[1] + 1
                assert t.round in (before[0], before[0] + 1)
        elif isinstance(op, int) and op < seats:
            t.leave(op)
    if not t.over and t.current not in t.left:
        assert t.current in t.active
