"""Card facts (meeple.core.cards): what each seat acquired, played and owned, from zones alone."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import msgspec
import pytest

from meeple.cli.arguments import best_bot
from meeple.core import hookimpl
from meeple.core.cards import Recorder, SeatCards
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rl import Encoding
from meeple.core.rng import Stream
from meeple.core.runner import RunSpec, play


def expected_tiny(game: Any, seed: int, seats: int) -> list[SeatCards]:
    """Tiny's facts worked out from its rules, not its zones: a seat's two set-up cards are
    not acquired, each card drawn is (in the round of its turn), each Play plays."""
    match = Match.new(game, seats, seed, Hooks(None))
    chooser = Stream(f"cards/{seed}")
    acquired = [Counter[str]() for _ in range(seats)]
    played = [Counter[str]() for _ in range(seats)]
    first: list[dict[str, int]] = [{} for _ in range(seats)]
    kind = game.encoding.card_kind
    while not match.over:
        seat, round_ = match.state.to_move, match.state.turns.round
        deck = list(match.state.deck.cards)
        action = chooser.choice(match.legal())
        if hasattr(action, "card"):
            played[seat][kind(action.card)] += 1
        match.step(action)
        if len(match.state.deck.cards) < len(deck):
            drawn = deck[-1]
            acquired[seat][kind(drawn)] += 1
            first[seat].setdefault(kind(drawn), round_)
    state = match.state
    return [
        SeatCards(
            acquired=dict(acquired[s]),
            played=dict(played[s]),
            owned=dict(Counter(map(kind, state.hands[s].cards + state.piles[s].cards))),
            first=first[s],
        )
        for s in range(seats)
    ]


def recorded(game: Any, seed: int, seats: int, hooks: Hooks | None = None) -> list[SeatCards]:
    """The recorder's facts of the game :func:`expected_tiny` plays."""
    hooks = hooks or Hooks(None)
    match = Match.new(game, seats, seed, hooks)
    recorder = Recorder(game, match.state)
    chooser = Stream(f"cards/{seed}")
    while not match.over:
        seat = match.state.to_move
        events = match.step(chooser.choice(match.legal()))
        recorder.step(seat, match.actions[-1], events)
    return recorder.facts(hooks)


def play_or_draw(tiny_module: Any) -> Any:
    """Tiny where a turn plays a card or draws one, not both: a hand that only loses a card
    when it plays, as a deck-builder's does."""

    class PlayOrDraw(tiny_module.Tiny):
        def legal_actions(self, state: Any) -> list[Any]:
            if not state.stack:
                return []
            hand = state.hands[state.stack[-1].seat].cards
            return [tiny_module.Play(card=c) for c in hand] + [tiny_module.Draw()]

        def resolve(self, state: Any, action: Any) -> list[Any]:
            seat = state.stack.pop().seat
            if isinstance(action, tiny_module.Play):
                state.hands[seat].remove(action.card)
                state.piles[seat].add(action.card)
            elif state.deck.cards:
                state.hands[seat].add(state.deck.draw())
            if not state.deck.cards:
                state.turns.last_round = True
            if not state.turns.next():
                state.stack.append(tiny_module.Turn(seat=state.turns.current))
            return []

    return PlayOrDraw()


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("rules", ["tiny", "play or draw"])
def test_facts_are_what_the_rules_did(tiny_module: Any, seats: int, rules: str) -> None:
    game = tiny_module.Tiny() if rules == "tiny" else play_or_draw(tiny_module)
    for seed in range(20):
        assert recorded(game, seed, seats) == expected_tiny(game, seed, seats), seed


def test_copies_of_a_kind_add_up(tiny_module: Any) -> None:
    class Pairs(Encoding[Any, Any]):
        def card_kind(self, card: str) -> str:
            return card[:2]  # c3a and c3b are two copies of c3

    class Values(tiny_module.Tiny):
        encoding_type = Pairs

    game = Values()
    facts = recorded(game, 7, 2)
    assert facts == expected_tiny(game, 7, 2)
    owned = sum(sum(f.owned.values()) for f in facts)
    assert owned == len(tiny_module.CARDS) and all(len(k) == 2 for f in facts for k in f.owned)
    assert any(n > 1 for f in facts for n in f.owned.values())


def test_facts_of_every_game_hold_together(registry: Registry, game_id: str) -> None:
    """What any game's facts must satisfy: a kind first arrives in a round the game had, and
    what a seat owns at the end is what its zones hold."""
    game = registry.game(game_id)()
    spec = RunSpec.of(game, ["random"] * game.max_seats, card_facts=True)
    for result in play(registry, Hooks(None), spec, range(3)):
        assert isinstance(result.cards, list) and len(result.cards) == game.max_seats
        for facts in result.cards:
            assert facts.first.keys() == facts.acquired.keys()
            assert all(1 <= r <= result.rounds for r in facts.first.values())
            assert all(n > 0 for counts in (facts.acquired, facts.played) for n in counts.values())
        assert sum(n for f in result.cards for n in f.played.values()) > 0


class Measures:
    """A plugin measuring Tiny's seats: a number and a count per name."""

    @hookimpl
    def meeple_seat_measures(self, game: Any, state: Any, seat: int) -> Any:
        if game.id != "tiny":
            return None
        pile = state.piles[seat].cards
        return {"pile": sum(int(c[1]) for c in pile), "values": Counter(c[1] for c in pile)}


class Broken:
    @hookimpl
    def meeple_seat_measures(self, game: Any, state: Any, seat: int) -> Any:
        return {"mood": "cheerful"}


def test_hook_meeple_seat_measures(tiny_path: Any) -> None:
    pm = plugin_manager(entry_points=True, extra=[Measures()])
    registry, hooks = Registry(pm), Hooks(pm)
    game = registry.game("tiny")()
    spec = RunSpec.of(game, ["random", "random"], card_facts=True)
    [result] = play(registry, hooks, spec, [3])
    assert isinstance(result.cards, list)
    for seat, facts in enumerate(result.cards):
        pile = [k for k, n in facts.owned.items() if k in facts.played for _ in range(n)]
        assert facts.measures["pile"] == sum(int(c[1]) for c in pile)
        assert facts.measures["values"] == dict(Counter(c[1] for c in pile)), seat
    # A game the hook does not measure has none.
    clonk = RunSpec.of(registry.game("clonk")(), ["random", "random"], card_facts=True)
    [other] = play(registry, hooks, clonk, [3])
    assert isinstance(other.cards, list) and all(not f.measures for f in other.cards)


def test_a_measure_that_is_not_a_number_is_named(tiny_path: Any) -> None:
    pm = plugin_manager(entry_points=True, extra=[Broken()])
    registry, hooks = Registry(pm), Hooks(pm)
    spec = RunSpec.of(registry.game("tiny")(), ["random", "random"], card_facts=True)
    with pytest.raises(MeepleError, match=r"seed 3 failed: meeple_seat_measures gave 'mood' "):
        list(play(registry, hooks, spec, [3]))


def test_facts_round_trip_through_a_file(tiny_module: Any) -> None:
    facts = recorded(tiny_module.Tiny(), 5, 3)
    line = msgspec.json.encode(facts)
    assert msgspec.json.decode(line, type=list[SeatCards]) == facts
    assert b'"first":{' in line and b"measures" not in line  # empty mappings are left out


def one_played_two_drawn(tiny_module: Any) -> tuple[Recorder, Any, list[Any]]:
    """Seat 0's recorder after it played the first of its two cards onto its pile and drew
    two (the recorder reads the state only: no action is given), and the four cards in the
    order they came to hand."""
    game = tiny_module.Tiny()
    state = game.setup(2, 1)
    recorder = Recorder(game, state)
    hand, pile, deck = state.hands[0], state.piles[0], state.deck
    first, second = hand.cards
    hand.remove(first)
    pile.add(first)
    recorder.step(0, None, [])  # type: ignore[arg-type]
    hand.add(deck.draw())
    hand.add(deck.draw())
    recorder.step(0, None, [])  # type: ignore[arg-type]
    return recorder, state, [first, second, *hand.cards[1:]]


def test_every_card_a_decision_plays_counts(tiny_module: Any) -> None:
    """Cards leaving a hand are followed wherever they go in one decision: two onto the
    pile (one is on top), one back into the deck, where no seat sees it, is not played."""
    recorder, state, [first, second, third, fourth] = one_played_two_drawn(tiny_module)
    hand, pile, deck = state.hands[0], state.piles[0], state.deck
    for card in (second, third):
        hand.remove(card)
        pile.add(card)
    hand.remove(fourth)
    deck.add(fourth)
    recorder.step(0, None, [])  # type: ignore[arg-type]
    [facts, _] = recorder.facts(Hooks(None))
    assert facts.played == {first: 1, second: 1, third: 1}
    assert facts.acquired == {third: 1, fourth: 1}
    assert facts.owned == {first: 1, second: 1, third: 1}


def test_one_card_fewer_is_not_always_one_played(tiny_module: Any) -> None:
    """A hand one card shorter may have lost two and gained one: both cards played onto the
    pile count, not only the one on top, and the card drawn is acquired."""
    recorder, state, [first, second, third, fourth] = one_played_two_drawn(tiny_module)
    hand, pile, deck = state.hands[0], state.piles[0], state.deck
    for card in (third, second):
        hand.remove(card)
        pile.add(card)
    drawn = deck.draw()
    hand.add(drawn)
    recorder.step(0, None, [])  # type: ignore[arg-type]
    [facts, _] = recorder.facts(Hooks(None))
    assert facts.played == {first: 1, third: 1, second: 1}
    assert facts.acquired == {third: 1, fourth: 1, drawn: 1}


def test_a_zone_added_during_play_is_found(tiny_module: Any) -> None:
    """A card played to a zone the set-up did not have, or acquired into one, still counts."""
    game = tiny_module.Tiny()
    state = game.setup(2, 1)
    recorder = Recorder(game, state)
    card = state.hands[1].cards[0]
    state.hands[1].remove(card)
    state.piles.append(tiny_module.Zone(kind="pile", cards=[card]))  # nobody's, every seat sees
    recorder.step(1, None, [])  # type: ignore[arg-type]
    state.piles.append(tiny_module.Zone(kind="pile", owner=0, cards=[state.deck.draw()]))
    [mine, theirs] = recorder.facts(Hooks(None))
    assert theirs.played == {card: 1} and not theirs.acquired
    assert mine.acquired == {state.piles[-1].cards[0]: 1}


FACTS_SEEDS = range(6)
"""Seeds of each variant's pinned random games, spread over the seat counts."""
PINNED_FACTS = {
    "clank": "bea28f0d38ee800d61c712564f8be604da961aaf77025b9f32a3beab49f31afe",
    "clank-catacombs": "5e6a8c7203980968e7c7d99e74c235e60d1b53c6ca7ab7dae1d6283086d020fd",
    "clonk": "514c317f26843303abe838a3ebbef7cccc99498d57bfbe8449454416d9a75e96",
}
"""The SHA-256 of each built-in game's pinned facts (:func:`pinned_facts`). Print them anew
with ``python tests/core/test_cards.py`` after a deliberate change of the facts or the rules."""


def pinned_facts(registry: Registry, game_id: str) -> str:
    """The SHA-256 of the facts of the game's pinned games, one JSON line each: random bots in
    every variant and seat count, and the game's best bot once."""
    cls = registry.game(game_id)
    counts = range(cls.min_seats, cls.max_seats + 1)
    runs = [
        (cls(msgspec.convert(options, cls.options_type)), ["random"] * counts[seed % len(counts)])
        for options in cls.variants
        for seed in FACTS_SEEDS
    ]
    runs.append((cls(), [best_bot(registry, game_id)] * cls.max_seats))
    digest = hashlib.sha256()
    for seed, (game, bots) in enumerate(runs):
        spec = RunSpec.of(game, bots, card_facts=True)
        for result in play(registry, Hooks(None), spec, [seed]):
            digest.update(msgspec.json.encode(result.cards) + b"\n")
    return digest.hexdigest()


def test_facts_of_the_builtin_games_are_pinned() -> None:
    """The facts a seed records stay the same bytes, however the recorder finds them."""
    registry = Registry(plugin_manager(entry_points=False))
    assert {g: pinned_facts(registry, g) for g in PINNED_FACTS} == PINNED_FACTS
    assert sorted(PINNED_FACTS) == sorted(registry.games)


if __name__ == "__main__":
    registry = Registry(plugin_manager(entry_points=False))
    for game_id in sorted(registry.games):
        print(f'    "{game_id}": "{pinned_facts(registry, game_id)}",')
