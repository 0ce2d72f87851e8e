"""The ``evaluate`` of the Clank! engine: win chances from the points each seat may expect."""

from __future__ import annotations

from typing import Any

import pytest
from clank_build import game, tiny_board

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry
from meeple.core.rng import bot_stream
from meeple.core.testing import scenario
from meeple.plugins.clank.evaluate import FEATURES, Outlook, fitted_weights
from meeple.plugins.clank_catacombs.evaluate import CatacombsOutlook


@pytest.mark.parametrize("which", ["clank", "clank-catacombs"])
def test_chances_lie_in_0_1_and_add_up_to_1(registry: Registry, which: str) -> None:
    g = registry.game(which)()
    match = Match.new(g, 4, 1, Hooks(None))
    bots = [RandomBot(g, s, bot_stream(1, s, "random")) for s in range(4)]
    while match.state.stack:
        chances = [g.evaluate(match.state, s) for s in range(4)]
        assert all(0 <= c <= 1 for c in chances)
        assert sum(chances) == pytest.approx(1)
        seat = match.state.stack[-1].seat
        match.step(bots[seat].choose(Prompt.of(g, match.state, seat, match.legal())))


def chances(fields: dict[str, Any]) -> list[float]:
    g = game(tiny_board())
    state = scenario(g, fields, seats=2)
    return [g.evaluate(state, s) for s in range(2)]


def test_an_artifact_near_the_way_out_is_worth_more_than_one_still_to_fetch() -> None:
    near = chances({"players[0]": {"room": 2, "held": ["artifact-20"]}})
    assert near[0] > 0.5 > near[1]
    far = chances({"players[0]": {"room": 6, "held": ["artifact-20"]}})
    assert near[0] > far[0]


def test_damage_on_the_way_out_lowers_the_chances() -> None:
    fit = chances({"players[0]": {"room": 6, "held": ["artifact-20"]}})
    hurt = chances({"players[0]": {"room": 6, "held": ["artifact-20"], "damage": 8, "supply": 19}})
    assert hurt[0] < fit[0]


def test_an_escaped_seat_beats_an_eliminated_one() -> None:
    out = chances(
        {
            "players[0]": {"status": "escaped", "held": ["artifact-10"]},
            "players[1]": {"status": "eliminated", "room": 6},
            "turns.left": [0, 1],
        }
    )
    assert out == pytest.approx([1, 0])


def test_a_seat_beside_a_cheap_artifact_counts_on_a_dearer_one_a_step_further() -> None:
    g = game(tiny_board())
    outlook = Outlook(g)
    lying = [(5, 10), (6, 20)]
    # The key opens the locked tunnel 4-5, the only way back from the artifacts' rooms.
    seat = {"room": 5, "held": ["master-key-1"]}
    fit = scenario(g, {"players[0]": seat}, seats=2)
    assert outlook.trip(fit, 0, g.graph(fit), lying).gain == 20
    hurt = scenario(g, {"players[0]": {**seat, "damage": 9, "supply": 18}}, seats=2)
    assert outlook.trip(hurt, 0, g.graph(hurt), lying).gain == 10


def test_a_stronger_deck_raises_the_chances() -> None:
    plain = chances({})
    strong = chances({"players[0]": {"discard": ["mercenary-1", "mercenary-2"]}})
    assert strong[0] > plain[0] and strong[1] < plain[1]


@pytest.mark.parametrize("outlook", [Outlook, CatacombsOutlook])
def test_the_fitted_weights_are_read_once_and_weigh_every_feature(outlook: Any) -> None:
    weights = fitted_weights(outlook.fitted)
    assert set(weights) == set(FEATURES) and fitted_weights(outlook.fitted) is weights
    assert weights["expected"] > 0 and weights["points"] > 0  # more points, better chances


@pytest.mark.parametrize("which", ["clank", "clank-catacombs"])
def test_the_same_state_gets_the_same_chances(registry: Registry, which: str) -> None:
    g = registry.game(which)()
    first, again = (Match.new(g, 4, 3, Hooks(None)).state for _ in range(2))
    chances = [g.evaluate(first, s) for s in range(4)]
    assert chances == [g.evaluate(again, s) for s in range(4)] and len(set(chances)) > 1
