"""The generic parts of Game, exercised on the tiny third-party game."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.rng import Stream
from meeple.core.zones import HIDDEN, Zone, iter_zones


@pytest.fixture
def state(tiny: Any) -> Any:
    """A 3-seat Tiny game, two actions in (some cards in piles, hands full)."""
    s = tiny.setup(3, 7)
    for _ in range(2):
        tiny.resolve(s, tiny.legal_actions(s)[0])
    return s


def cards_of(state: Any) -> list[str]:
    return sorted(c for z in iter_zones(state) for c in z.cards)


def test_clone_is_equal_and_independent(tiny: Any, state: Any) -> None:
    before = tiny.digest(state)
    copy = tiny.clone(state)
    assert copy == state and copy is not state
    tiny.resolve(copy, tiny.legal_actions(copy)[0])
    copy.hands[0].cards.append("x")
    assert tiny.digest(state) == before
    assert copy != state


def test_digest_is_stable_and_sensitive(tiny: Any, state: Any) -> None:
    d = tiny.digest(state)
    assert len(d) == 32 and int(d, 16) >= 0
    assert tiny.digest(tiny.clone(state)) == d
    assert tiny.digest(tiny.setup(3, 7)) == tiny.digest(tiny.setup(3, 7))
    assert tiny.digest(tiny.setup(3, 8)) != tiny.digest(tiny.setup(3, 7))
    state.rng.counter += 1
    assert tiny.digest(state) != d


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_view_hides_what_the_seat_may_not_see(tiny: Any, state: Any, seat: int) -> None:
    view = tiny.view(state, seat)
    assert view.rng.seed == 0  # the seed would let a bot replay the deck
    assert view.deck.cards == [HIDDEN + "card"] * len(state.deck.cards)
    for s in range(3):
        expected = state.hands[s].cards if s == seat else [HIDDEN + "card"] * len(state.hands[s])
        assert view.hands[s].cards == expected
        assert view.piles[s].cards == state.piles[s].cards  # public
    assert state.rng.seed == 7 and not any(c.startswith(HIDDEN) for c in cards_of(state))


def test_onlooker_view_hides_every_hand(tiny: Any, state: Any) -> None:
    view = tiny.view(state, None)
    assert all(c.startswith(HIDDEN) for h in view.hands for c in h.cards)


def test_determinize_deals_the_unseen_cards(tiny: Any, state: Any) -> None:
    view = tiny.view(state, 1)
    full = tiny.determinize(view, Stream("sample/1"))
    assert cards_of(full) == cards_of(state)  # every card exactly once
    assert tiny.check_state(full) == []
    assert full.hands[1].cards == state.hands[1].cards  # what seat 1 knew is kept
    assert [p.cards for p in full.piles] == [p.cards for p in state.piles]
    assert [len(h) for h in full.hands] == [len(h) for h in state.hands]
    assert full.rng.seed != 0
    assert all(c.startswith(HIDDEN) for c in view.deck.cards)  # the view is not changed
    # Another stream gives another deal, the same stream the same one.
    again = tiny.determinize(view, Stream("sample/1"))
    assert tiny.digest(again) == tiny.digest(full)
    deals = {tuple(tiny.determinize(view, Stream(f"s/{i}")).deck.cards) for i in range(10)}
    assert len(deals) > 1


def test_check_state_accepts_real_states(tiny: Any, state: Any) -> None:
    assert tiny.check_state(tiny.setup(2, 1)) == []
    assert tiny.check_state(state) == []


def problems_after(tiny: Any, state: Any, change: Any) -> list[str]:
    s = tiny.clone(state)
    change(s)
    return tiny.check_state(s)


def test_check_state_finds_missing_duplicate_and_foreign_cards(tiny: Any, state: Any) -> None:
    (missing,) = problems_after(tiny, state, lambda s: s.deck.cards.pop())
    assert "is missing (1 of 1 not in any zone)" in missing
    (dup,) = problems_after(tiny, state, lambda s: s.piles[2].cards.append(s.hands[0].cards[0]))
    assert "appears more than once (1 extra)" in dup
    (foreign,) = problems_after(tiny, state, lambda s: s.piles[2].cards.append("joker"))
    assert foreign == "card 'joker' is not a card of this game (1 extra)"


def test_check_state_checks_zones(tiny: Any, state: Any) -> None:
    def bad_kind(s: Any) -> None:
        s.piles[0].kind = "bin"

    assert problems_after(tiny, state, bad_kind) == [
        "$.piles[0].kind: 'bin' is not a zone kind of Tiny"
    ]

    def flags(s: Any) -> None:
        s.deck.up = [True] * len(s.deck.cards)

    assert "facing flags must be given exactly" in problems_after(tiny, state, flags)[0]

    def owner(s: Any) -> None:
        s.hands[0].owner = 5

    assert problems_after(tiny, state, owner) == [
        "$.hands[0].owner: 5, but seat 0 owns the zone kept here"
    ]

    def relabel(s: Any) -> None:  # the deck's order would show in every view
        s.deck.kind = "pile"

    assert problems_after(tiny, state, relabel) == [
        "$.deck.kind: 'pile', but Tiny keeps its 'deck' zone here; "
        "a zone's kind is fixed by where it lies"
    ]

    def extra_zone(s: Any) -> None:
        s.piles.append(Zone(kind="pile", owner=3))

    assert problems_after(tiny, state, extra_zone) == [
        "$.piles[3].owner: seat 3 does not exist",
        "$.piles: must hold one 'pile' zone per seat, in order",
    ]

    def lost_zone(s: Any) -> None:  # seat 2 would have nowhere to play
        s.piles.pop()

    assert problems_after(tiny, state, lost_zone) == [
        "$.piles: must hold one 'pile' zone per seat, in order"
    ]


def test_check_state_leaves_counters_room_to_play_on(tiny: Any, state: Any) -> None:
    def far(s: Any) -> None:  # decodes (below 2**63), but one more draw would not
        s.rng.counter = 2**63 - 1

    assert problems_after(tiny, state, far) == [
        f"$.rng.counter: {2**63 - 1}; a saved game's counters stay below 2**62, "
        "leaving room to play on"
    ]


def test_check_state_checks_seats_turns_and_stack(tiny: Any, state: Any) -> None:
    def seats(s: Any) -> None:
        s.seats = 9

    assert any("9 seats, but Tiny takes 2-4" in p for p in problems_after(tiny, state, seats))

    def order(s: Any) -> None:
        s.turns.order = [0, 0, 1]

    assert problems_after(tiny, state, order) == [
        "$.turns.order: must list each of the 3 seats once"
    ]

    def current(s: Any) -> None:
        s.turns.current = 4

    assert problems_after(tiny, state, current) == ["$.turns.current: seat 4 does not exist"]

    def stack(s: Any) -> None:
        s.stack[-1].seat = -1

    assert problems_after(tiny, state, stack) == [
        "$.stack: a decision for seat -1, which does not exist"
    ]


def test_game_validate_state_runs_after_the_generic_checks(tiny_module: Any) -> None:
    calls: list[Any] = []

    class Picky(tiny_module.Tiny):
        def validate_state(self, state: Any) -> list[str]:
            calls.append(state)
            return ["$.deck: too picky"]

    game = Picky()
    s = game.setup(2, 3)
    assert game.check_state(s) == ["$.deck: too picky"]
    s.deck.cards.pop()
    assert len(calls) == 1
    assert "too picky" not in " ".join(game.check_state(s))
    assert len(calls) == 1  # not called while the generic checks fail


def test_is_over_and_defaults(tiny: Any, state: Any) -> None:
    assert not tiny.is_over(state)
    state.stack.clear()
    assert tiny.is_over(state)
    assert state.to_move is None
    assert tiny.legal_actions(state) == []


def test_reveals_a_card_drawn_but_not_one_played(tiny: Any, state: Any) -> None:
    seat = state.stack[-1].seat
    before = tiny.clone(state)
    tiny.resolve(state, tiny.legal_actions(state)[0])  # plays a card, then draws one
    assert tiny.reveals(before, state, seat)
    state.deck.cards.clear()  # nothing left to draw: the next seat only plays
    seat = state.stack[-1].seat
    before = tiny.clone(state)
    tiny.resolve(state, tiny.legal_actions(state)[0])
    assert not tiny.reveals(before, state, seat)


def test_reveals_another_seats_card_and_any_random_draw(tiny: Any, state: Any) -> None:
    before = tiny.clone(state)
    card = state.hands[1].cards[0]
    state.hands[1].remove(card)
    state.piles[1].add(card)
    assert tiny.reveals(before, state, 0)  # seat 1's hidden card, now face up on its pile
    assert not tiny.reveals(before, state, 1)  # seat 1 knew it
    after = tiny.clone(before)
    after.rng.counter += 1
    assert tiny.reveals(before, after, 0)


def test_a_game_builds_each_optional_part_once(tiny_module: Any) -> None:
    """The presentation and the encoding are one object each per game, given that game; a
    game names neither and gets the core's defaults."""
    from meeple.core.present import Presentation
    from meeple.core.rl import Encoding

    one, other = tiny_module.Tiny(), tiny_module.Tiny()
    assert one.presentation is one.presentation and one.presentation.game is one
    assert one.encoding is one.encoding and one.encoding.game is one
    assert one.presentation is not other.presentation
    assert type(one.presentation) is Presentation and type(one.encoding) is Encoding
    assert one.encoding.card_kind("mercenary-3") == "mercenary"


def test_table_panes_default_to_render(tiny: Any, state: Any) -> None:
    view = tiny.view(state, 0)
    assert tiny.presentation.render_table(view, 0) == tiny.presentation.render(view, 0)
    assert tiny.presentation.render_private(view, 0) is None
    assert tiny.presentation.legend() == ()
