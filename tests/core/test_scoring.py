"""Ranking: shared places, tie-break keys, winners."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from meeple.core.scoring import Score, rank, winners


def s(seat: int, total: int, *tiebreak: int) -> Score:
    return Score(seat=seat, total=total, parts={"points": total}, tiebreak=list(tiebreak))


def test_ties_share_a_place_and_the_next_place_skips() -> None:
    assert rank([s(0, 10), s(1, 10), s(2, 7)]) == [1, 1, 3]
    assert rank([s(0, 5), s(1, 9), s(2, 9), s(3, 9)]) == [4, 1, 1, 1]


def test_tie_break_keys_decide_in_order() -> None:
    scores = [s(0, 20, -3, 5), s(1, 20, -1, 2), s(2, 20, -1, 4), s(3, 21, -9, 0)]
    assert rank(scores) == [4, 3, 2, 1]


def test_equal_on_every_key_is_a_shared_victory() -> None:
    scores = [s(0, 24, -2, 7), s(1, 24, -2, 7), s(2, 23, 0, 9)]
    assert rank(scores) == [1, 1, 3]
    assert winners(scores) == [0, 1]


def test_winners_uses_the_seat_field() -> None:
    assert winners([s(2, 1), s(0, 3)]) == [0]


def test_score_defaults() -> None:
    score = Score(seat=0, total=0)
    assert score.parts == {} and score.tiebreak == []


scores_st = st.lists(
    st.tuples(st.integers(-5, 5), st.lists(st.integers(-2, 2), min_size=2, max_size=2)),
    min_size=1,
    max_size=6,
).map(lambda rows: [s(i, total, *tb) for i, (total, tb) in enumerate(rows)])


@given(scores_st)
def test_rank_properties(scores: list[Score]) -> None:
    places = rank(scores)
    keys = [(x.total, *x.tiebreak) for x in scores]
    assert min(places) == 1
    assert all(1 <= p <= len(scores) for p in places)
    for i, ki in enumerate(keys):
        # A place is one more than the number of seats strictly ahead.
        assert places[i] == 1 + sum(k > ki for k in keys)
        for j, kj in enumerate(keys):
            if ki == kj:
                assert places[i] == places[j]
            elif ki > kj:
                assert places[i] < places[j]
    assert winners(scores) == [x.seat for x, p in zip(scores, places, strict=True) if p == 1]


@given(scores_st, st.randoms(use_true_random=False))
def test_rank_does_not_depend_on_order(scores: list[Score], rnd) -> None:
    shuffled = list(scores)
    rnd.shuffle(shuffled)
    by_seat = dict(zip((x.seat for x in scores), rank(scores), strict=True))
    assert rank(shuffled) == [by_seat[x.seat] for x in shuffled]
