"""The ``heuristic`` Clank! bot: registered, always legal, plays whole games, plays well.

Behaviour tests build exact situations (clank_build) and ask the bot for one
decision, the way the engine does: through a :class:`Prompt` of its seat.
"""

from __future__ import annotations

import pytest
from clank_build import clear_clank, game, place_artifacts, put, tiny_board, turn

from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream, bot_stream
from meeple.core.scoring import rank
from meeple.plugins.clank.bots import HeuristicBot
from meeple.plugins.clank.content import Board, Room, Tunnel
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import (
    Buy,
    ChooseOne,
    ClankOptions,
    ClankState,
    Move,
    Pick,
    Play,
    Take,
    TakeToken,
    TrashCard,
    TrashOne,
    UseToken,
)


def decide(g: Clank, state: ClankState, seat: int = 0) -> object:
    """The bot's answer to the decision pending in ``state``."""
    bot = HeuristicBot(g, seat, Stream("test"))
    return bot.choose(Prompt.of(g, state, seat, g.legal_actions(state)))


def boots_to(g: Clank, room: int, target: int) -> int:
    """Boots from ``room`` to ``target`` on open tunnels (no lock), by a plain search."""
    exits = g.cat.graph.exits
    best = {room: 0}
    todo = [room]
    while todo:
        r = todo.pop()
        for e in exits[r]:
            if not e.locked and best[r] + e.boots < best.get(e.to, 99):
                best[e.to] = best[r] + e.boots
                todo.append(e.to)
    return best[target]


def empty_rooms(state: ClankState) -> None:
    """Every token in the rooms back to the box (nothing to detour for)."""
    for zone in state.rooms:
        for t in list(zone.cards):
            put(state, state.box, t)


# -- registration and whole games ------------------------------------------------------


def test_registered_for_the_games_on_the_board() -> None:
    """Of the built-in games, Clank! alone is on the board: Catacombs has its own bot."""
    registry = Registry(plugin_manager())
    spec = registry.bot("heuristic", "clank")
    assert spec.factory is HeuristicBot
    assert spec.games == ("clank",)
    assert registry.bot("heuristic", "clank-catacombs").factory is not HeuristicBot
    assert "heuristic" in registry.bot_names("clank")


def play(options: ClankOptions, names: list[str], seed: int) -> Match:
    """One game between ``names`` (``heuristic``/``random``); every pick is checked legal."""
    g = Clank(options)
    match = Match.new(g, len(names), seed, Hooks(None))
    kinds = {"heuristic": HeuristicBot, "random": RandomBot}
    bots = [kinds[n](g, s, bot_stream(seed, s, n)) for s, n in enumerate(names)]
    match.run(bots)  # raises IllegalAction on any pick outside the legal actions
    return match


@pytest.mark.parametrize("board", ["front", "back"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_games_to_the_end(board: str, seats: int) -> None:
    """Heuristic bots alone and among random ones finish every game, every invariant kept."""
    for seed in range(3):
        for names in (["heuristic"] * seats, ["heuristic"] + ["random"] * (seats - 1)):
            match = play(ClankOptions(board=board), names, seed)
            assert match.over
            assert all(p.status != "in" for p in match.state.players)
            assert match.game.check_state(match.state) == []


def test_same_seed_same_game() -> None:
    """Determinism: the bot decides from its view only, so a seed replays byte for byte."""
    names = ["heuristic", "random", "heuristic"]
    digests = {play(ClankOptions(), names, 11).game.digest(play(ClankOptions(), names, 11).state)}
    first = play(ClankOptions(), names, 11)
    digests.add(first.game.digest(first.state))
    assert len(digests) == 1


def test_beats_random_players() -> None:
    """Over 50 seeded 4-seat games (the heuristic seat rotating) it wins most of them."""
    wins = 0.0
    escaped = 0
    for seed in range(50):
        seat = seed % 4
        names = ["random"] * 4
        names[seat] = "heuristic"
        match = play(ClankOptions(board=("front", "back")[seed % 2]), names, seed)
        places = rank(match.scores())
        first = [s for s, place in enumerate(places) if place == 1]
        wins += 1 / len(first) if seat in first else 0
        escaped += match.state.players[seat].status == "escaped"
    assert wins > 35  # measured: about 48 of 50
    assert escaped > 25


# -- behaviour in built situations ---------------------------------------------------------


@pytest.fixture
def tg() -> Clank:
    return game(board=tiny_board())


def tiny_table(tg: Clank) -> ClankState:
    """A 2-seat table of ``tg`` with no clank, and only the artifacts in its rooms."""
    s = tg.setup(2, 5)
    clear_clank(s)
    empty_rooms(s)
    place_artifacts(tg, s)
    return s


@pytest.fixture
def tiny(tg: Clank) -> ClankState:
    return tiny_table(tg)


def test_heads_toward_an_artifact_it_can_carry_out(tg: Clank, tiny: ClankState) -> None:
    """The artifacts lie past the one-way tunnel out of the cave (3); the only way back is
    the locked tunnel 5-4. Without a Master Key the bot does not go; with one it does."""
    turn(tg, tiny, 0, room=2, boots=1)
    assert not isinstance(decide(tg, tiny), Move)
    put(tiny, tiny.players[0].held, "master-key-1")
    assert decide(tg, tiny) == Move(tunnel=1, to=3)


@pytest.mark.parametrize("artifact_take", ["action", "entry"])
def test_takes_the_artifact(artifact_take: str) -> None:
    """As a turn action in its room, or when offered on entry (rules.md#take-artifact)."""
    tg = game(board=tiny_board(), artifact_take=artifact_take)
    tiny = tiny_table(tg)
    put(tiny, tiny.players[0].held, "master-key-1")
    turn(tg, tiny, 0, room=6, boots=1)
    if artifact_take == "entry":
        tiny.stack.append(TakeToken(seat=0, room=6))
    assert decide(tg, tiny) == Take(token="artifact-20")


@pytest.mark.parametrize("artifact_take", ["action", "entry"])
def test_prefers_the_better_artifact_one_room_on(artifact_take: str) -> None:
    """Artifact 20 lies one tunnel past artifact 10: worth the walk, so 10 stays."""
    tg = game(board=tiny_board(), artifact_take=artifact_take)
    tiny = tiny_table(tg)
    put(tiny, tiny.players[0].held, "master-key-1")
    turn(tg, tiny, 0, room=5, boots=1)
    if artifact_take == "entry":
        tiny.stack.append(TakeToken(seat=0, room=5))
    assert Take(token="artifact-10") in tg.legal_actions(tiny)
    assert decide(tg, tiny) != Take(token="artifact-10")


def test_turns_back_toward_the_start() -> None:
    """Holding an artifact deep in the dungeon, every step it takes gets closer to room 1."""
    g = game()
    state = g.setup(4, 2)
    clear_clank(state)
    empty_rooms(state)
    put(state, state.players[0].held, "artifact-7")
    turn(g, state, 0, room=21, boots=1)
    move = decide(g, state)
    assert isinstance(move, Move)
    start = g.cat.graph.start
    assert boots_to(g, move.to, start) < boots_to(g, 21, start)


def test_escapes_when_it_can() -> None:
    g = game()
    state = g.setup(4, 2)
    clear_clank(state)
    put(state, state.players[0].held, "artifact-5")
    turn(g, state, 0, room=2, boots=1)
    assert decide(g, state) == Move(tunnel=0, to=1)


def test_heals_when_hurt() -> None:
    """A Shrine's choice: gold when healthy, healing when hurt; a healing potion is drunk."""
    g = game()
    state = g.setup(4, 2)
    clear_clank(state)
    turn(g, state, 0, room=2)
    options = g.cat.kinds["shrine"].use[0].options
    state.stack.append(ChooseOne(seat=0, options=options, card=None))
    assert decide(g, state) == Pick(option=0)  # the gold
    p = state.players[0]
    p.damage, p.supply = 6, p.supply - 6
    assert decide(g, state) == Pick(option=1)  # the healing
    state.stack.pop()
    put(state, p.held, "potion-of-healing-1")
    assert decide(g, state) == UseToken(token="potion-of-healing-1")


def fork_board() -> Board:
    """Room 1 start; 2; artifact 10 in room 3 through a tunnel with 2 monsters, or round
    by rooms 4 and 5 (three plain tunnels)."""
    rooms = [Room(id=1, start=True), Room(id=2), Room(id=3, depths=True, artifact=10)]
    rooms += [Room(id=4), Room(id=5)]
    tunnels = [Tunnel(a=1, b=2), Tunnel(a=2, b=3, monsters=2)]
    tunnels += [Tunnel(a=2, b=4), Tunnel(a=4, b=5), Tunnel(a=5, b=3)]
    return Board(name="fork", source=["tests"], confidence="made up", rooms=rooms, tunnels=tunnels)


@pytest.mark.parametrize(
    ("damage", "swords", "to"),
    [(0, 0, 3), (7, 0, 4), (7, 2, 3)],
    ids=["healthy-braves-it", "hurt-goes-round", "hurt-with-swords-fights-through"],
)
def test_monster_tunnels_weighed_against_health(damage: int, swords: int, to: int) -> None:
    """A tunnel whose monsters would leave it near death is avoided unless swords pay them."""
    g = game(board=fork_board())
    state = g.setup(2, 1)
    clear_clank(state)
    place_artifacts(g, state)
    p = state.players[0]
    p.damage, p.supply = damage, p.supply - damage
    turn(g, state, 0, room=2, boots=1, swords=swords)
    move = decide(g, state)
    assert isinstance(move, Move) and move.to == to
    if to == 3:
        assert move.swords == swords  # swords spent rather than health


def test_buys_a_crown_when_rich(tg: Clank, tiny: ClankState) -> None:
    """Room 4 is a market: 7 gold buy a Crown worth 10 points."""
    turn(tg, tiny, 0, room=4)
    tiny.players[0].gold = 7
    assert decide(tg, tiny) == Buy(item="crown")


def test_plays_draw_cards_first() -> None:
    g = game()
    state = g.setup(4, 2)
    turn(g, state, 0, ("burgle-s0-1", "stumble-s0-1", "bracers-of-agility-1"))
    assert decide(g, state) == Play(card="bracers-of-agility-1")


def test_trash_card_played_after_the_burgles() -> None:
    """Master Burglar trashes a Burgle from the play area: it waits for one to be there."""
    g = game()
    state = g.setup(4, 2)
    turn(g, state, 0, ("master-burglar-1", "burgle-s0-1"))
    assert decide(g, state) == Play(card="burgle-s0-1")


def test_trashes_stumbles_first_then_burgles() -> None:
    g = game()
    state = g.setup(4, 2)
    turn(g, state, 0)
    p = state.players[0]
    put(state, p.discard, "burgle-s0-1", "stumble-s0-1", "scramble-s0")
    state.stack.append(TrashOne(seat=0))
    assert decide(g, state) == TrashCard(card="stumble-s0-1")
    put(state, state.trash, "stumble-s0-1")
    assert decide(g, state) == TrashCard(card="burgle-s0-1")
