"""The conformance suite on every registered game, and proof that it catches broken games.

The default run plays each game's smallest set of seeded random playthroughs
that covers every declared variant at every seat count, with every invariant
checked after every action, and each seat's view checked at every step (the
leak test and determinization) in a few of them: in every variant and at
every seat count. The soak run (``pytest -m soak``, ``tox -e soak``) plays
``SOAK_GAMES`` per game with the views checked in every ``SOAK_VIEWS_EVERY``-th.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from meeple.core import Action, testing
from meeple.core.game import Game
from meeple.core.zones import Zone

BATCHES = 6
SOAK_GAMES = 200
SOAK_BATCHES = 8
SOAK_VIEWS_EVERY = 4


def quick_cases(game: type[Game[Any, Any]]) -> list[testing.Case]:
    """Each variant at each seat count once, views in every variant and at every seat count.

    With the view checks every ``seat counts``-th case, one round of the
    combinations checks views in every variant; a game with fewer variants
    than seat counts needs a few rounds for the views to reach every count.
    """
    counts = game.max_seats - game.min_seats + 1
    rounds = max(1, counts - len(game.variants) + 1)
    return testing.cases(game, counts * len(game.variants) * rounds, views_every=counts)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_playthroughs(registry, hooks, game_id, batch):
    game_cls = registry.game(game_id)
    for case in quick_cases(game_cls)[batch::BATCHES]:
        testing.playthrough(case.game(game_cls), case, hooks=hooks)


def test_quick_cases_cover_every_variant_at_every_seat_count(registry, game_id):
    game = registry.game(game_id)
    counts = set(range(game.min_seats, game.max_seats + 1))
    variants = {tuple(sorted(v.items())) for v in game.variants}
    cases = quick_cases(game)
    assert len(cases) >= BATCHES  # no batch of test_random_playthroughs plays nothing
    assert {(c.seats, c.options) for c in cases} == set(itertools.product(counts, variants))
    assert {c.options for c in cases if c.views} == variants
    assert {c.seats for c in cases if c.views} == counts


@pytest.mark.soak
@pytest.mark.parametrize("batch", range(SOAK_BATCHES))
def test_many_random_playthroughs(registry, hooks, game_id, batch):
    game_cls = registry.game(game_id)
    cases = testing.cases(game_cls, SOAK_GAMES, views_every=SOAK_VIEWS_EVERY)
    for case in cases[batch::SOAK_BATCHES]:
        testing.playthrough(case.game(game_cls), case, hooks=hooks)


@pytest.mark.parametrize(("args", "soak"), [((), False), (("-m", "soak"), True)])
def test_soak_tests_run_only_when_asked_for(args, soak):
    """A plain ``pytest`` leaves the soak tests out; ``pytest -m soak`` runs only them."""
    here = Path(__file__)
    collect = [sys.executable, "-m", "pytest", "--collect-only", "-q"]
    # Without the plugins a listing does not need: each would add to its start-up.
    collect += ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:xdist"]
    listed = subprocess.run(
        [*collect, *args, here.name],
        cwd=here.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert ("test_many_random_playthroughs[" in listed) == soak
    assert ("test_random_playthroughs[" in listed) != soak


def test_cases_spread_over_seat_counts(registry):
    cases = testing.cases(registry.game("tiny"), 200, views_every=4)
    assert len({(c.seats, c.seed) for c in cases}) == 200
    assert {c.seats for c in cases} == {2, 3, 4}
    assert sum(c.views for c in cases) == 49
    assert {c.seats for c in cases[:12] if c.views} == {2, 3, 4}


def test_cases_cover_every_variant_at_every_seat_count(registry):
    class Varied(registry.game("tiny")):
        variants = ({}, {"x": 1}, {"x": 2})

    cases = testing.cases(Varied, 18)
    assert {(c.seats, c.options) for c in cases} == {
        (n, v) for n in (2, 3, 4) for v in ((), (("x", 1),), (("x", 2),))
    }
    assert str(cases[3]) == "2seats-seed3-x=1-views"


def test_view_checks_turn_over_variants_and_rounds(registry):
    class Varied(registry.game("tiny")):
        variants = ({}, {"x": 1}, {"x": 2}, {"x": 3})

    one_round = testing.cases(Varied, 12, views_every=3)
    assert [(c.seats, dict(c.options)) for c in one_round if c.views] == [
        (2, {}),
        (4, {"x": 1}),
        (3, {"x": 2}),
        (2, {"x": 3}),
    ]
    three_rounds = testing.cases(Varied, 36, views_every=3)
    assert {(c.seats, c.options) for c in three_rounds if c.views} == {
        (c.seats, c.options) for c in one_round
    }


# -- the suite fails on games that break a contract ---------------------------------------


@pytest.fixture
def tiny(registry) -> type:
    return registry.game("tiny")


def fails(game: Any, match: str, **kw: Any) -> None:
    with pytest.raises(testing.ConformanceError, match=match):
        testing.playthrough(game, testing.Case(2, 1), **kw)


def test_a_correct_game_passes(tiny):
    assert testing.check_game(tiny(), 12) > 12


def test_leaking_view(tiny):
    class Leaky(tiny):
        def view(self, state, seat):
            return self.clone(state)  # hands and draw pile in plain sight

    fails(Leaky(), r"the view of seat 0 shows card\(s\) it may not see: c\d[ab] \(zone 'deck'\)")


def test_legal_actions_naming_a_hidden_card(tiny):
    play = typing.get_args(tiny.action_type)[0]

    class Peeking(tiny):
        def legal_actions(self, state):
            legal = super().legal_actions(state)
            top = state.deck.top
            return [*legal, play(card=top)] if legal and top else legal  # the deck's top, by name

    fails(
        Peeking(),
        r"actions offered to seat 0 name card\(s\) it may not see: c\d[ab] \(zone 'deck'\)",
    )


def test_seed_in_the_view(tiny):
    class Seedy(tiny):
        def view(self, state, seat):
            view = super().view(state, seat)
            view.rng.seed = state.rng.seed
            return view

    fails(Seedy(), "holds the random seed")


def test_clone_sharing_the_state(tiny):
    class Shallow(tiny):
        def clone(self, state):
            return state

    fails(Shallow(), "changing a clone changed the original state")


def test_nondeterministic_setup(tiny):
    calls = itertools.count()

    class Moody(tiny):
        def setup(self, seats, seed):
            return super().setup(seats, seed + next(calls))

    fails(Moody(), "does not replay identically")


def test_broken_invariant(tiny):
    class Strict(tiny):
        def validate_state(self, state):
            return ["$.piles: two cards in a pile"] if any(len(p) > 1 for p in state.piles) else []

    fails(Strict(), r"fails its checks: \$\.piles: two cards in a pile")


def test_bad_determinize(tiny):
    class Lazy(tiny):
        def determinize(self, view, stream):
            return self.clone(view)  # placeholders left in place

    fails(
        Lazy(),
        r"determinizing the view of seat 0 gives an invalid state: .*card '\?card' is not a card",
    )


def test_determinize_changing_visible_cards(tiny):
    class Swapper(tiny):
        def determinize(self, view, stream):
            state = super().determinize(view, stream)
            for pile in state.piles:
                pile.cards.reverse()
            return state

    with pytest.raises(testing.ConformanceError, match="changed what it sees: zone 'pile'"):
        testing.check_game(Swapper(), 4)


def test_bad_scores(tiny):
    class Generous(tiny):
        def scores(self, state):
            scores = super().scores(state)
            scores[0].total += 1
            return scores

    fails(Generous(), "total .* is not the sum of its parts")


def test_endless_game(tiny):
    fails(tiny(), "did not end within 3 decisions", max_steps=3)


def test_no_legal_action(tiny):
    class Stuck(tiny):
        def legal_actions(self, state):
            return [] if len(state.piles[0]) else super().legal_actions(state)

    with pytest.raises(testing.ConformanceError, match="has no legal action"):
        testing.check_game(Stuck(), 4)


def test_repeated_legal_actions(tiny):
    class Echo(tiny):
        def legal_actions(self, state):
            legal = super().legal_actions(state)
            return [*legal, *[legal[-1]] * 1000] if legal else legal

    fails(
        Echo(),
        r"after step 0: 1000 of the 1003 legal actions repeat others, "
        r"'Draw\(\)' among them \(1001 times\); offer each once",
    )


def test_unhashable_legal_actions(tiny):
    class Pick(Action, tag="pick"):
        cards: list[str]

    class Listy(tiny):
        def legal_actions(self, state):
            legal = super().legal_actions(state)
            return [*legal, Pick(cards=[])] if legal else legal

    fails(
        Listy(), r"after step 0: the legal actions cannot be told apart by hash .*tuples, not lists"
    )


def test_leaks_reads_whole_strings_only(tiny):
    game = tiny()
    state = game.setup(2, 1)
    hidden = state.hands[1].cards[0]
    assert testing.leaks(game, state, 0, f'{{"x": "{hidden}"}}'.encode()) == {hidden}
    assert (
        testing.leaks(game, state, 0, f'{{"x": "{hidden}z", "y": "a{hidden}"}}'.encode()) == set()
    )
    assert testing.leaks(game, state, 1, f'["{hidden}"]'.encode()) == set()  # its own hand


def test_a_copy_in_sight_is_no_leak(tiny):
    game = tiny()
    state = game.setup(2, 1)
    card = state.deck.cards[0]
    state.piles[0] = Zone(kind="pile", owner=0, cards=[card])  # a second copy, face up
    assert testing.leaks(game, state, 1, f'["{card}"]'.encode()) == set()


@pytest.fixture
def idle(tiny) -> type:
    """Tiny whose ``Draw`` changes nothing while the seat still holds a card."""

    class Idle(tiny):
        def resolve(self, state, action):
            if (
                isinstance(action, typing.get_args(tiny.action_type)[1])
                and state.hands[state.to_move]
            ):
                return []
            return super().resolve(state, action)

    return Idle


def test_an_option_that_changes_nothing(idle):
    fails(idle(), r"'Draw\(\)' is offered but changes nothing .*an empty option")


def test_a_declared_pass_may_change_nothing(idle):
    class Patient(idle):
        passes = (typing.get_args(idle.action_type)[1],)

    assert testing.check_game(Patient(), 6) > 6


def test_only_closing_a_decision_is_no_change(tiny):
    game = tiny()
    state = game.setup(2, 1)
    closed = game.clone(state)
    closed.stack.clear()
    assert testing.only_closes(state, closed) and testing.only_closes(state, game.clone(state))
    closed.rng.counter += 1
    assert not testing.only_closes(state, closed)
    grown = game.clone(state)
    grown.stack.append(grown.stack[0])
    assert not testing.only_closes(state, grown)
