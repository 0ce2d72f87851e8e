"""Scenario tests of the dragon, health, knock-outs, the countdown, the end and scoring."""

from __future__ import annotations

import pytest
from clank_build import QUIET_ROW, act, clear_clank, game, started, to_row, turn

from meeple.core.bag import Bag
from meeple.core.scoring import rank
from meeple.core.testing import scenario
from meeple.plugins.clank.effects import AllClank
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import Attacked, ClankOptions, EndTurn, Move, Pick, Play, Turn


@pytest.fixture
def g():
    return game()


@pytest.fixture
def state(g):
    return started(g, 4, 7)


def only_cubes(state, **cubes: int) -> None:
    """The bag holds exactly ``cubes`` (``dragon=2, seat_1=3``); the rest set aside or supply."""
    state.bag = Bag()
    for p in state.players:
        p.supply = 30 - p.clank - p.damage - p.aside
    for colour, n in cubes.items():
        colour = colour.replace("_", "-")
        state.bag.add(colour, n)
        if colour.startswith("seat-"):
            state.players[int(colour[-1])].supply -= n
    state.dragon_aside = 24 - cubes.get("dragon", 0)


EMPTY_BAG = {"bag.cubes": {}, "dragon_aside": 24}
"""Every dragon cube set aside, none in the bag."""


def test_setup(g) -> None:
    """rules.md#setup: artifacts, secrets, market, idols, mastery, rage, bag, row, decks, clank."""
    for seats, removed, rage in ((2, 2, 2), (3, 1, 1), (4, 0, 0)):
        state = g.setup(seats, 11)
        assert g.check_state(state) == []
        artifacts = [t for z in state.rooms for t in z.cards if t.startswith("artifact")]
        assert len(artifacts) == 7 - removed
        assert state.rage == rage and state.bag.cubes == {"dragon": 24}
        assert not any(g.cat.card[c].dragon for c in state.row.cards) and len(state.row) == 6
        assert [len(p.hand) for p in state.players] == [5] * seats
        # Starting clank 3/2/1/0, plus the opening row's arrive effects (Overlord, Watcher).
        arrive = sum(
            e.n for c in state.row.cards for e in g.cat.card[c].arrive if isinstance(e, AllClank)
        )
        assert [p.clank - arrive for p in state.players] == [3, 2, 1, 0][:seats]
        assert len(state.mastery) == seats
        assert [len(z) for z in state.reserve] == [15, 15, 12, 1]
        shrine = next(r.id for r in g.cat.graph.board.rooms if r.monkey_shrine)
        assert len(state.rooms[g.cat.graph.index[shrine]]) == 3
        for rid, room in g.cat.graph.rooms.items():
            zone = state.rooms[g.cat.graph.index[rid]]
            secrets = [t for t in zone.cards if g.cat.token[t].kind in ("major", "minor")]
            assert len(secrets) == room.major + room.minor
            assert not any(zone.up[zone.cards.index(t)] for t in secrets)


def test_setup_is_deterministic(g) -> None:
    """Same seed, same set-up, byte for byte."""
    assert g.digest(g.setup(3, 5)) == g.digest(g.setup(3, 5))
    assert g.digest(g.setup(3, 5)) != g.digest(g.setup(3, 6))


def test_back_board_sets_up() -> None:
    """rules.md#components: the back side of the board is playable too."""
    g = Clank(ClankOptions(board="back"))
    state = g.setup(4, 1)
    assert g.check_state(state) == [] and len(state.rooms) == len(g.cat.graph.order)


def test_attack_draw_count_with_danger(g, state) -> None:
    """rules.md#dragon-attack, #danger: rage number plus one per danger card in the row."""
    scenario(g, {"row": [*QUIET_ROW[:4], "kobold-1", "kobold-2"], "rage": 0}, state=state)
    n_danger = sum(g.cat.card[c].danger for c in state.row.cards)
    events: list = []
    g._attack(state, events)
    assert len(events[0].cubes) == 2 + n_danger
    assert state.dragon_aside == 2 + n_danger


def test_attack_puts_clank_area_into_the_bag(g, state) -> None:
    """rules.md#dragon-attack: every cube of the Clank! area goes in; undrawn ones stay."""
    fields = {"players[2]": {"clank": 5, "supply": 25}, "row": QUIET_ROW, "rage": 0}
    scenario(g, {**fields, **EMPTY_BAG}, state=state)
    p = state.players[2]
    g._attack(state, [])
    assert p.clank == 0 and p.damage == 2 and state.bag.cubes == {"seat-2": 3}


def test_left_seats_cubes_are_set_aside(g, state) -> None:
    """rules.md#left-cubes: a cube of a seat that left does no damage."""
    out = {"players[1]": {"status": "escaped", "supply": 28}, "turns.left": [1]}
    scenario(g, {**EMPTY_BAG, "bag.cubes": {"seat-1": 2}, **out}, state=state)
    g._attack(state, [])
    assert state.players[1].damage == 0 and state.players[1].aside == 2


def test_seats_out_make_no_clank(g, state) -> None:
    """rules.md#clank: effects on other seats skip the seats that are out."""
    out = {"players[2].status": "escaped", "turns.left": [2]}
    scenario(g, {"players[0].hand": ["tattle-1"], **out}, state=state)
    act(g, state, Play(card="tattle-1"))
    assert [p.clank for p in state.players] == [0, 1, 0, 1]


def test_mister_whiskers_attacks_now(g, state) -> None:
    """rules.md#whiskers: a full attack during the turn."""
    scenario(g, {"players[0].hand": ["mister-whiskers"]}, state=state)
    act(g, state, Play(card="mister-whiskers"))
    events = act(g, state, Pick(option=0))
    assert any(isinstance(e, Attacked) for e in events)


def test_knocked_out_rescued_or_eliminated(g, state) -> None:
    """rules.md#knocked-out: an artifact outside the Depths is rescued, otherwise eliminated."""
    rooms = {1: 3, 2: 30, 3: 3}
    scenario(
        g,
        {
            "players": {s: {"room": room, "damage": 9, "supply": 20} for s, room in rooms.items()},
            "players[1].held": ["artifact-5"],
            "players[2].held": ["artifact-7"],
            "row": QUIET_ROW,
            **EMPTY_BAG,
            "bag.cubes": {"seat-1": 1, "seat-2": 1, "seat-3": 1},
            "rage": 6,  # draws 5: all three cubes
        },
        state=state,
    )
    g._attack(state, [])
    assert [p.status for p in state.players] == ["in", "rescued", "eliminated", "eliminated"]
    assert state.countdown_seat == 1 and state.turns.left == [2, 3]


def test_countdown_track(g, state) -> None:
    """rules.md#countdown: attacks with 1, 2, 3 extra cubes, then everyone still in is out."""
    g2 = game()
    rescued = {"players[1]": {"room": 2, "status": "rescued", "held": ["artifact-5"]}}
    fields = {**rescued, "row": QUIET_ROW, "countdown_seat": 1, "countdown": 1, "rage": 0}
    state = scenario(g2, fields, seats=2, seed=3, edit=clear_clank)
    drawn = []
    for space in (2, 3, 4, 5):
        turn(g2, state, 0)
        only_cubes(state, dragon=24)
        state.dungeon.cards.extend(state.dungeon_discard.take())  # no refill symbols
        to_row(state)
        events = act(g2, state, EndTurn())
        assert state.countdown == space
        drawn.append(sum(len(e.cubes) for e in events if isinstance(e, Attacked)))
        if space < 5:
            assert state.players[0].status == "in"
    assert drawn == [3, 4, 5, 0]
    assert state.players[0].status == "eliminated"
    assert g2.is_over(state) and g2.legal_actions(state) == []


def test_escaped_seat_finishes_its_turn(g) -> None:
    """rules.md#escape, #first-leaver: the escaper's next turn is its first countdown step."""
    fields = {"players[0]": {"hand": [], "held": ["artifact-5"], "room": 2}, "pool.boots": 1}
    state = scenario(g, fields, seats=2, seed=4, edit=clear_clank)
    p = state.players[0]
    act(g, state, Move(tunnel=0, to=1))
    assert p.status == "escaped" and isinstance(state.stack[-1], Turn)
    act(g, state, EndTurn())
    assert state.turns.current == 1 and state.countdown == 1
    turn(g, state, 1)
    act(g, state, EndTurn())
    assert state.countdown == 2 and state.turns.current == 1


def test_scoring_and_tiebreak(g) -> None:
    """rules.md#scoring: artifact, tokens, gold, cards with bonuses; eliminated ranks last."""
    state = scenario(
        g,
        {
            "players[0]": {"gold": 11, "status": "escaped"},
            "players[1]": {"gold": 20, "status": "rescued"},
            "players[2]": {"status": "eliminated"},
        },
        seats=3,
        seed=2,
        top={
            "players[0].held": ["artifact-20", "mastery-1", "chalice-1", "dragon-egg-1"],
            "players[0].discard": ["dwarven-peddler", "the-duke", "dragons-eye"],
            "players[1].held": ["artifact-25"],
        },
    )
    b = state.players[1]
    scores = g.scores(state)
    cards_a = 4 + 2 + 10  # Peddler's two-of, The Duke's 2 fives, Dragon's Eye with Mastery
    assert scores[0].parts == {"artifact": 20, "tokens": 20 + 7 + 3, "gold": 11, "cards": cards_a}
    assert scores[1].parts["artifact"] == 25 and scores[1].parts["cards"] == 0
    assert scores[2].total == 0 and scores[2].tiebreak == [0, 0]
    assert rank(scores)[2] == 3
    # A tie on points goes to the more valuable artifact.
    b.gold += scores[0].total - scores[1].total
    s = g.scores(state)
    assert s[0].total == s[1].total and rank(s)[:2] == [2, 1]
