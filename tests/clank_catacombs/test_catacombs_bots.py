"""The ``heuristic`` bot on Clank! Catacombs: registered, always legal, plays whole games,
beats random players, and explores, turns tiles, takes artifacts and spends Lockpicks well.

Behaviour tests build exact situations on hand-made tiles (catacombs_build) and ask the bot
for one decision through a :class:`Prompt` of its seat, as the engine does.
"""

from __future__ import annotations

import pytest
from catacombs_build import act, clear_clank, game, lay, put, room, turn

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream, bot_stream
from meeple.core.scoring import rank
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.state import Move, Take
from meeple.plugins.clank_catacombs.bots import CatacombsBot
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import CatacombsState, Explore, Rotate


def decide(g: CatacombsGame, state: CatacombsState, seat: int = 0) -> object:
    """The bot's answer to the decision pending in ``state`` (checked legal)."""
    legal = g.legal_actions(state)
    action = CatacombsBot(g, seat, Stream("test")).choose(Prompt.of(g, state, seat, legal))
    assert action in legal
    return action


# -- registration and whole games ------------------------------------------------------


def test_registered_for_both_games() -> None:
    """One bot name, ``heuristic``: the Clank! bot, and its exploring kind for Catacombs."""
    registry = Registry(plugin_manager())
    assert registry.bot("heuristic", "clank").factory is HeuristicBot
    assert registry.bot("heuristic", "clank-catacombs").factory is CatacombsBot
    assert "heuristic" in registry.bot_names("clank-catacombs")
    assert issubclass(CatacombsBot, HeuristicBot)


def play(names: list[str], seed: int) -> Match:
    """One game between ``names`` (``heuristic``/``random``); every pick is checked legal."""
    g = CatacombsGame()
    match = Match.new(g, len(names), seed, Hooks(None))
    kinds = {"heuristic": CatacombsBot, "random": RandomBot}
    bots = [kinds[n](g, s, bot_stream(seed, s, n)) for s, n in enumerate(names)]
    match.run(bots)  # raises IllegalAction on any pick outside the legal actions
    return match


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_games_to_the_end(seats: int) -> None:
    """Heuristic bots alone and among random ones finish every game, every invariant kept."""
    for seed in range(3):
        for names in (["heuristic"] * seats, ["heuristic"] + ["random"] * (seats - 1)):
            match = play(names, seed)
            assert match.over
            assert all(p.status != "in" for p in match.state.players)
            assert match.game.check_state(match.state) == []


def test_same_seed_same_game() -> None:
    names = ["heuristic", "random", "heuristic"]
    first, second = play(names, 11), play(names, 11)
    assert first.game.digest(first.state) == second.game.digest(second.state)


def test_beats_random_players() -> None:
    """Over 50 seeded 4-seat games (the heuristic seat rotating) it wins most of them."""
    wins = 0.0
    escaped = 0
    for seed in range(50):
        seat = seed % 4
        names = ["random"] * 4
        names[seat] = "heuristic"
        match = play(names, seed)
        places = rank(match.scores())
        first = [s for s, place in enumerate(places) if place == 1]
        wins += 1 / len(first) if seat in first else 0
        escaped += match.state.players[seat].status == "escaped"
    assert wins > 25  # measured: about 38 of 50 (a random seat wins about 1 in 4)
    assert escaped > 30


# -- behaviour in built situations ---------------------------------------------------------


@pytest.fixture
def g() -> CatacombsGame:
    return game(start_side="a")


@pytest.fixture
def s(g: CatacombsGame) -> CatacombsState:
    state = g.setup(2, 4)
    clear_clank(state)
    return state


def test_chooses_a_payable_rotation_paid_with_swords(g: CatacombsGame, s: CatacombsState) -> None:
    """The vault's west half (footprints, a monster) or its north half (two monsters) may face
    the tunnel: with 2 boots and a sword, the west half paid with the sword costs no health."""
    put(s, s.tile_stack, "vault")
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=2, swords=1)
    act(g, s, Explore(place=0, half=0))
    assert decide(g, s) == Rotate(turn=0, swords=1)


def test_explores_when_no_artifact_is_known(g: CatacombsGame, s: CatacombsState) -> None:
    """Only the starting tile lies: from the Crypt it walks off the map at an open edge."""
    put(s, s.tile_stack, "cave")
    turn(g, s, 0, room=room(g, s, "start-a:crypt"), boots=1)
    action = decide(g, s)
    assert isinstance(action, Explore) and not action.teleport


def test_walks_toward_an_open_edge(g: CatacombsGame, s: CatacombsState) -> None:
    """The hall covers the start's open edge; the Crypt's may not be walked to without an
    artifact: the bot walks toward the hall's locked edge, a Lockpick in hand. Its Wayshrines
    are marked: no detour."""
    lay(g, s, "hall", 1, 0)
    s.marks[0] = [room(g, s, "start-a:w"), room(g, s, "hall:w")]
    s.players[0].supply -= 2
    turn(g, s, 0, room=room(g, s, "start-a:w"), boots=1)
    move = decide(g, s)
    assert isinstance(move, Move) and move.to == room(g, s, "hall:a")


def test_takes_a_reachable_artifact_then_heads_for_the_crypt(
    g: CatacombsGame, s: CatacombsState
) -> None:
    lay(g, s, "vault", 1, 0)
    art = room(g, s, "vault:art")
    (token,) = s.rooms[art].cards
    turn(g, s, 0, room=art)
    assert decide(g, s) == Take(token=token)
    act(g, s, Take(token=token))
    turn(g, s, 0, room=art, boots=2, swords=1)
    move = decide(g, s)
    assert isinstance(move, Move) and move.to == room(g, s, "start-a:w") and move.swords == 1


def test_uses_a_lockpick_on_a_lock_on_its_route(g: CatacombsGame, s: CatacombsState) -> None:
    """Artifact 20 lies past the hall's locked east half: the bot leaves a Lockpick on it."""
    lay(g, s, "hall", 1, 0)
    lay(g, s, "vault", 2, 0)
    art = room(g, s, "vault:art")
    for tid in list(s.rooms[art].cards):
        put(s, s.artifacts, tid)
    put(s, s.rooms[art], "artifact-20")
    me = s.players[0]
    s.marks[0] = [room(g, s, "hall:w")]  # its Wayshrine marked: nothing to do there first
    me.supply -= 1
    picks = s.lockpicks[0]
    turn(g, s, 0, room=room(g, s, "hall:w"), boots=2, swords=1)
    move = decide(g, s)
    assert isinstance(move, Move) and move.to == art
    act(g, s, move)
    assert s.lockpicks[0] == picks - 1 and len(s.picked) == 1
