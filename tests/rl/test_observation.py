"""The generic encoder counts a seat's cards straight from the state: bit for bit what
encoding the seat's view gives, for every game, table size and seat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec
import numpy as np
import pytest

from meeple.core import rl
from meeple.core.game import Game
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.turns import Turns
from meeple.core.zones import HIDDEN, Zone, iter_zones

pytestmark = pytest.mark.rl

THIRDPARTY = Path(__file__).resolve().parents[1] / "thirdparty"
TABLES = [
    (game, options, seats)
    for game, options in [
        ("clonk", {}),
        ("clank", {}),
        ("clank", {"board": "back"}),
        ("clank-catacombs", {}),
        ("tiny", {}),
    ]
    for seats in (2, 4)
]


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The third-party tiny game's module (imported from tests/thirdparty)."""
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    import meeple_tiny

    return meeple_tiny


def table(tiny: Any, name: str, seats: int, **options: Any) -> Any:
    if name == "tiny":
        return rl.make(tiny.Tiny(), seats)
    return rl.env(name, seats, **options)


def encoded(encoder: rl.Encoder, view: Any, seat: int) -> np.ndarray:
    """What encoding ``view`` gives, worked out card by card: the observation's definition."""
    game, width = encoder.game, len(encoder.kinds)
    column = {kind: i for i, kind in enumerate(encoder.kinds)}
    dealt = set(game.cards(game.setup(encoder.seats, 0)))
    out = np.zeros(encoder.size, dtype=np.float32)
    for zone in iter_zones(view):
        start = 2 * width * encoder.zone_kinds.index(zone.kind)
        start += 0 if zone.owner == seat else width
        for card in zone.cards:
            kind = game.encoding.card_kind(card) if card in dealt else card
            out[start + column.get(kind, column[rl.OTHER])] += 1
    out[encoder.counts :] = [rl._read(view, path, seat, encoder.seats) for path in encoder.paths]
    return out


def states(env: Any, seed: int) -> Iterator[Any]:
    """Every state of one game of masked random play (the same object, changed in place)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        yield env.match.state
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("name", "options", "seats"), TABLES)
def test_observations_equal_the_encoded_views(
    tiny: Any, name: str, options: dict[str, Any], seats: int
) -> None:
    """At states all along random games, every seat's observation (and the encoding of its
    view, which the encoder is also given) equals the card-by-card encoding of its view."""
    env = table(tiny, name, seats, **options)
    encoder, game, checked = env.encoder, env.game, 0
    assert isinstance(encoder, rl.Encoder)
    assert encoder._hides_zones_only  # these games use the fast path
    for seed in range(3):
        for step, state in enumerate(states(env, seed)):
            if step % 3:
                continue
            for seat in range(seats):
                view = game.view(state, seat)
                expected = encoded(encoder, view, seat)
                assert np.array_equal(encoder.observe(state, seat), expected)
                assert np.array_equal(encoder(view, seat), expected)
                observed = env.observe(env.possible_agents[seat])["observation"]
                assert np.array_equal(observed, expected)
                checked += 1
    assert checked > 4 * seats


@pytest.mark.parametrize(("name", "options", "seats"), TABLES[::2])
def test_the_compiled_zone_reader_finds_what_the_walk_finds(
    tiny: Any, name: str, options: dict[str, Any], seats: int
) -> None:
    env = table(tiny, name, seats, **options)
    read = rl._zone_reader(env.game.state_type)
    for state in states(env, 1):
        assert [id(z) for z in read(state)] == [id(z) for z in iter_zones(state)]


T = TypeVar("T")


class Marked(Zone, kw_only=True):
    mark: int = 0


class Area(msgspec.Struct):
    pile: Zone
    piles: tuple[Zone, ...]


class Base(msgspec.Struct):
    pile: Zone


class Extended(Base):
    more: Zone


class Holder(msgspec.Struct, Generic[T]):
    pile: Zone
    extra: T


class Shapes(State, tag="shapes", kw_only=True):
    area: Area
    areas: list[Area]
    holders: list[Holder[Zone]]
    marked: Marked
    maybe: Zone | None = None
    named: dict[str, Zone] = msgspec.field(default_factory=dict)
    bases: list[Base] = msgspec.field(default_factory=list)


def test_the_zone_reader_walks_what_types_do_not_pin() -> None:
    """Structs (generic ones too) and lists of them are read straight; an optional zone, a
    dict and a struct type with subclasses are walked, so what they hold now is found too."""

    def zone(kind: str) -> Zone:
        return Zone(kind=kind)

    def area() -> Area:
        return Area(pile=zone("a"), piles=(zone("b"), zone("c")))

    state = Shapes(
        seats=2,
        rng=Rng(seed=1),
        turns=Turns.start(2),
        stack=[],
        area=area(),
        areas=[area(), area()],
        holders=[Holder(pile=zone("h"), extra=zone("i"))],
        marked=Marked(kind="m"),
        maybe=zone("o"),
        named={"x": zone("d")},
        bases=[Base(pile=zone("e")), Extended(pile=zone("f"), more=zone("g"))],
    )
    read = rl._zone_reader(Shapes)
    assert [id(z) for z in read(state)] == [id(z) for z in iter_zones(state)]
    assert len(read(state)) == 17
    assert "iter_zones(state.holders" not in "".join(rl._zone_parts(Shapes, "state", 0))


def test_hidden_cards_count_by_their_placeholder(tiny: Any) -> None:
    """A seat's own hand counts card by kind, the other hands and the deck by their back."""
    env = table(tiny, "tiny", 2)
    env.reset(seed=1)
    encoder, state = env.encoder, env.match.state
    observed = encoder.observe(state, 0)
    width, kinds = len(encoder.kinds), encoder.kinds
    hand = 2 * width * encoder.zone_kinds.index("hand")
    hidden = kinds.index(HIDDEN + env.game.back(state.deck.cards[0]))
    for card in state.hands[0].cards:
        assert observed[hand + kinds.index(env.game.encoding.card_kind(card))] >= 1
    assert observed[hand + width + hidden] == len(state.hands[1].cards)
    assert observed[: encoder.counts].sum() == sum(len(z.cards) for z in iter_zones(state))


def test_a_game_with_its_own_view_is_encoded_from_it(tiny: Any) -> None:
    """A game that hides more than zones' cards (here: every count of the other seat's
    pile) is observed through its own view, not from the state."""

    class Secretive(tiny.Tiny):  # type: ignore[misc]  # a class of a test-only module
        def view(self, state: Any, seat: int | None) -> Any:
            view = Game.view(self, state, seat)
            for pile in view.piles:
                if pile.owner != seat:
                    pile.cards.clear()
            return view

    env = rl.make(Secretive(), 2)
    env.reset(seed=2)
    encoder, game = env.encoder, env.game
    assert not encoder._hides_zones_only
    for state in states(env, 2):
        for seat in range(2):
            expected = encoded(encoder, game.view(state, seat), seat)
            assert np.array_equal(encoder.observe(state, seat), expected)


def test_a_games_own_encoder_is_given_the_view(tiny: Any) -> None:
    seen: list[Any] = []

    class Counting:
        size = 1

        def __call__(self, view: Any, seat: int) -> np.ndarray:
            seen.append(view)
            return np.zeros(1, dtype=np.float32)

    class Encoded(rl.Encoding[Any, Any]):
        def observation_encoder(self, seats: int) -> Any:
            return Counting()

    class Own(tiny.Tiny):  # type: ignore[misc]  # a class of a test-only module
        encoding_type = Encoded

    env = rl.make(Own(), 2)
    env.reset(seed=3)
    env.observe("seat_0")
    (view,) = seen
    assert view is not env.match.state
    assert all(c.startswith(HIDDEN) for c in view.deck.cards)
