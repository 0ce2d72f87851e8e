"""The ``ismcts`` search bot: options, determinism, tactics, and that it sees only its view.

Budgets are tiny (a few iterations) so that the whole file stays fast; the
strength of real budgets is measured by benchmarks/ladder.py, not asserted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import msgspec
import pytest

from meeple.core import testing
from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry
from meeple.core.rng import Stream, bot_stream
from meeple.core.scoring import Score
from meeple.core.search import Ismcts, IsmctsOptions, rewards
from meeple.core.zones import Zone
from meeple.plugins.clonk.state import Unearth


def bots(registry: Registry, game: Any, names: list[str], seed: int) -> list[Any]:
    return [registry.player(n, game.id).make(game, s, seed) for s, n in enumerate(names)]


def choices(registry: Registry, game_id: str, seats: list[str], seed: int) -> list[Any]:
    """The actions of a whole game between ``seats``."""
    game = registry.game(game_id)()
    match = Match.new(game, len(seats), seed, Hooks(None))
    match.run(bots(registry, game, seats, seed))
    return match.actions


# -- options -------------------------------------------------------------------------------


def test_registered_for_every_game_with_its_options(registry: Registry) -> None:
    for game_id in registry.games:
        spec = registry.bot("ismcts", game_id)
        assert spec.factory is Ismcts and spec.options is IsmctsOptions
    player = registry.player("ismcts", "tiny")
    assert player.options == IsmctsOptions() and player.text == "ismcts"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ismcts:iterations=50", "ismcts:iterations=50"),
        ("ismcts: time = 0.50 :iterations=7", "ismcts:iterations=7:time=0.5"),
        ("ismcts:reward=rank:rollout=random", "ismcts:rollout=random:reward=rank"),
        ("ismcts:bias=2:guide=random", "ismcts:guide=random:bias=2.0"),
    ],
)
def test_options_are_written_canonically(registry: Registry, text: str, canonical: str) -> None:
    player = registry.player(text, "tiny")
    assert player.text == canonical
    assert registry.player(canonical, "tiny").options == player.options


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ismcts", "ismcts:iterations=400:depth=8:reuse=true"),
        ("ismcts:iterations=50", "ismcts:iterations=50:depth=8:reuse=true"),
        ("ismcts:depth=0:time=1", "ismcts:iterations=400:time=1.0:depth=0:reuse=true"),
    ],
)
def test_a_games_own_defaults_fill_in_what_a_seat_does_not_give(
    registry: Registry, text: str, canonical: str
) -> None:
    """Clonk! declares its search's measured settings: a seat's name is written with them, and
    an option the seat gives wins over the game's."""
    player = registry.player(text, "clonk")
    assert player.text == canonical
    assert registry.player(canonical, "clonk").options == player.options
    assert registry.player(text, "tiny").options != player.options


def test_plain_ismcts_plays_each_games_hard_level_where_that_is_the_search(
    registry: Registry,
) -> None:
    for game_id in ("clonk", "clank-catacombs"):
        hard = {lv.name: lv.bot for lv in registry.levels(game_id)}["hard"]
        assert registry.player("ismcts", game_id).text == hard


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ismcts:depth=x", r"^bot 'ismcts', option depth=x: Expected `int`, got `str`$"),
        ("ismcts:iterations=0", r"^bot 'ismcts', option iterations=0: Expected `int` >= 1$"),
        ("ismcts:time=-1", r"^bot 'ismcts', option time=-1: Expected `float` >= 0"),
        (
            "ismcts:reward=most",
            r"^bot 'ismcts', option reward=most: Invalid enum value 'most'; "
            r"reward is one of: rank, win$",
        ),
        ("ismcts:speed=9", r"^bot 'ismcts' has no option 'speed'; its options: iterations, "),
        ("ismcts:fast", r"^bot 'ismcts' option 'fast' is not key=value; its options: "),
        ("ismcts:rollout=deep", r"^bot 'ismcts', option rollout=deep: no bot 'deep' plays tiny"),
        ("ismcts:guide=deep", r"^bot 'ismcts', option guide=deep: no bot 'deep' plays tiny"),
        ("ismcts:bias=-1", r"^bot 'ismcts', option bias=-1: Expected `float` >= 0"),
        ("random:iterations=5", r"^bot 'random' takes no options, but was given"),
    ],
)
def test_bad_options_name_the_bot_and_the_option(
    registry: Registry, text: str, message: str
) -> None:
    with pytest.raises(MeepleError, match=message) as err:
        registry.player(text, "tiny")
    assert "\n" not in str(err.value)


def test_a_cut_off_needs_the_games_evaluate(registry: Registry) -> None:
    tiny = registry.game("tiny")
    player = registry.player("ismcts:depth=2:iterations=5", "tiny")
    with pytest.raises(MeepleError, match="option depth=2: Tiny has no evaluate"):
        player.make(tiny(), 0, 1)
    with pytest.raises(MeepleError, match="option turn=true: Tiny has no evaluate"):
        registry.player("ismcts:turn=true", "tiny").make(tiny(), 0, 1)
    with pytest.raises(MeepleError, match="cannot play its own rollouts"):
        registry.player("ismcts:rollout=ismcts", "tiny").make(tiny(), 0, 1)
    with pytest.raises(MeepleError, match="option guide=ismcts: a search cannot guide itself"):
        registry.player("ismcts:guide=ismcts", "tiny").make(tiny(), 0, 1)

    class Judged(tiny):
        def evaluate(self, state: Any, seat: int) -> float:
            return 0.5

    game = Judged()
    assert choices_with(game, player, seed=2)


def test_a_turn_cut_off_scores_each_rollout_as_the_turn_ends(registry: Registry) -> None:
    """With ``turn``, neither the tree nor a rollout reaches past the turn of the decision."""
    clank = registry.game("clank")
    scored: set[int] = set()

    class Watched(clank):
        def evaluate(self, state: Any, seat: int) -> float:
            scored.add(state.turns.turn)
            return super().evaluate(state, seat)

    game = Watched()
    state = game.setup(4, 2)
    seat = state.to_move
    # start=0: the search itself chooses in the first turn, which Clank! leaves to its guide.
    bot = registry.player("ismcts:iterations=20:turn=true:start=0", "clank").make(game, seat, 2)
    legal = game.legal_actions(state)
    assert bot.choose(Prompt.of(game, state, seat, legal)) in legal
    assert scored == {state.turns.turn + 1}


def choices_with(game: Any, player: Any, seed: int) -> list[Any]:
    match = Match.new(game, 2, seed, Hooks(None))
    match.run([player.make(game, s, seed) for s in range(2)])
    return match.actions


def test_rewards() -> None:
    scores = [Score(seat=s, total=t) for s, t in enumerate([5, 9, 9, 1])]
    assert rewards(scores, "win") == [0, 0.5, 0.5, 0]
    assert rewards(scores, "rank") == [1 / 3, 1, 1, 0]
    assert rewards(scores[:1], "rank") == [1.0]


# -- determinism and play ------------------------------------------------------------------


def test_same_seed_same_choices(registry: Registry) -> None:
    seats = ["ismcts:iterations=8", "ismcts:iterations=8:rollout=random:reward=rank", "random"]
    first = choices(registry, "tiny", seats, 5)
    assert choices(registry, "tiny", seats, 5) == first
    assert choices(registry, "tiny", seats, 6) != first


def test_same_seed_same_choices_with_a_guide(registry: Registry) -> None:
    seats = ["ismcts:iterations=8:depth=2:guide=greedy", "greedy"]
    first = choices(registry, "clonk", seats, 5)
    assert choices(registry, "clonk", seats, 5) == first
    assert choices(registry, "clonk", seats, 6) != first


def test_a_time_budget_plays_too(registry: Registry) -> None:
    assert choices(registry, "tiny", ["ismcts:time=0.002", "random"], 1)


@pytest.mark.parametrize("which", ["clonk", "clank"])
def test_a_strong_guide_has_its_choice_played(registry: Registry, which: str) -> None:
    """With a large bias, once every action had its one visit, the rest go to the guide's
    choice: the search answers as its guide would in the seat's own view."""
    game = registry.game(which)()
    guide = {"clonk": "greedy", "clank": "heuristic"}[which]
    # The tree search, whatever the game's own settings (Clank!'s compares paired deals).
    search = (
        f"ismcts:iterations=60:depth=2:guide={guide}:bias=100:paired=false:margin=0:defer=:start=0"
    )
    for seed, state in enumerate(midgame_states(game, 4)):
        seat, legal = state.to_move, game.legal_actions(state)
        assert 1 < len(legal) < 30
        bot = registry.player(search, which).make(game, seat, seed)
        chosen = bot.choose(Prompt.of(game, state, seat, legal))
        alone = registry.player(guide, which).make(game, seat, seed)
        assert chosen == alone.choose(Prompt.of(game, state, seat, legal))
        root = bot.search(game.view(state, seat))
        assert root.hint == chosen and len(root.children) == len(legal)


def searched(registry: Registry, search: str, which: str) -> Iterator[tuple[Any, Any, Any]]:
    """On each mid-game state of ``which``: the choice of ``search`` in the seat's prompt, the
    root of the same search (a bot of the same seed), and the ``heuristic`` bot's choice."""
    game = registry.game(which)()
    for seed, state in enumerate(midgame_states(game, 4)):
        seat, legal = state.to_move, game.legal_actions(state)
        prompt = Prompt.of(game, state, seat, legal)
        bot, twin = (registry.player(search, which).make(game, seat, seed) for _ in range(2))
        guide = registry.player("heuristic", which).make(game, seat, seed)
        yield bot.choose(prompt), twin.search(game.view(state, seat)), guide.choose(prompt)


def test_paired_plays_every_action_on_each_deal(registry: Registry) -> None:
    """With ``paired``, each iteration tries every legal action on one deal and grows nothing
    below them; the answer is the action of best mean reward."""
    for chosen, root, _ in searched(registry, "ismcts:iterations=6:turn=true:paired=true", "clank"):
        assert len(root.children) > 1
        assert all(n.visits == 6 and not n.children for n in root.children.values())
        means = {a: n.total / n.visits for a, n in root.children.items()}
        assert means[chosen] == max(means.values())


@pytest.mark.parametrize("margin", [1.0, 0.02, 0.001])
def test_a_margin_keeps_the_guides_choice_unless_another_beats_it_by_more(
    registry: Registry, margin: float
) -> None:
    search = f"ismcts:iterations=6:turn=true:paired=true:guide=heuristic:margin={margin}:start=0"
    for chosen, root, hint in searched(registry, search, "clank"):
        means = {a: n.total / n.visits for a, n in root.children.items()}
        best = max(means, key=means.__getitem__)
        assert chosen == (best if means[best] - means[hint] > margin else hint)
        if margin == 1.0:
            assert chosen == hint


def test_deferred_kinds_of_action_are_left_to_the_guide(registry: Registry) -> None:
    """``defer`` names kinds of action the search never plays in place of the guide's choice;
    other kinds still follow the margin."""
    search = (
        "ismcts:iterations=6:turn=true:paired=true:guide=heuristic:margin=0.001:defer=play:start=0"
    )
    deferred = 0
    for chosen, root, hint in searched(registry, search, "clank"):
        means = {a: n.total / n.visits for a, n in root.children.items()}
        best = max(means, key=means.__getitem__)
        if type(best).__name__ == "Play" and best != hint:
            deferred += 1
            assert chosen == hint
        else:
            assert chosen == (best if means[best] - means[hint] > 0.001 else hint)
    assert deferred  # the search preferred another card to play than the guide somewhere


def test_deferred_kinds_are_the_searchs_own_from_the_turn_until(registry: Registry) -> None:
    """With ``until``, the kinds in ``defer`` are left to the guide before that turn of the
    game (every seat's turns counted) and follow the margin from it on."""
    game = registry.game("clank")()
    base = "ismcts:iterations=6:turn=true:paired=true:guide=heuristic:margin=0:start=0"
    freed = 0
    for seed, state in enumerate(midgame_states(game, 4)):
        seat, turn = state.to_move, state.turns.turn
        guide = registry.player("heuristic", "clank").make(game, seat, seed)
        # Through the seat's turn as the guide plays it, past the cards played first.
        while state.turns.turn == turn and not freed:
            legal = game.legal_actions(state)
            prompt = Prompt.of(game, state, seat, legal)
            hint = guide.choose(prompt)
            if len(legal) > 1:
                root = registry.player(base, "clank").make(game, seat, seed).search(prompt.view)
                means = {a: n.total / n.visits for a, n in root.children.items()}
                best = max(means, key=means.__getitem__)
                if means[best] > means[hint]:
                    kind = type(best).__struct_config__.tag
                    for until, expected in ((turn, best), (turn + 1, hint)):
                        search = f"{base}:defer={kind}:until={until}"
                        bot = registry.player(search, "clank").make(game, seat, seed)
                        assert bot.choose(prompt) == expected
                    freed += 1
            game.resolve(state, hint)
    assert freed  # somewhere the turn decided between the guide's choice and the search's


def test_the_guide_alone_chooses_before_the_turn_start(registry: Registry) -> None:
    """Before the game's turn ``start`` the guide's choice is played without a search; from
    it on, the search chooses as without ``start``."""
    game = registry.game("clank")()
    base = "ismcts:iterations=6:turn=true:paired=true:guide=heuristic:margin=0"
    for seed, state in enumerate(midgame_states(game, 4)):
        seat, turn, legal = state.to_move, state.turns.turn, game.legal_actions(state)
        prompt = Prompt.of(game, state, seat, legal)
        early = registry.player(f"{base}:start={turn + 1}", "clank").make(game, seat, seed)
        early.search = None  # searching would fail
        guide = registry.player("heuristic", "clank").make(game, seat, seed)
        assert early.choose(prompt) == guide.choose(prompt)
        searching, plain = (
            registry.player(f"{base}{start}", "clank").make(game, seat, seed)
            for start in (f":start={turn}", ":start=0")
        )
        with mock.patch.object(searching, "search", wraps=searching.search) as search:
            assert searching.choose(prompt) == plain.choose(prompt)
        search.assert_called_once()


@pytest.mark.parametrize(
    ("which", "options", "message"),
    [
        ("clank", "defer=play+fly", "defer=play+fly: Clank! has no action 'fly'; its actions are"),
        ("tiny", "defer=take", "option defer=take: it defers to the guide's choice; name a guide"),
        ("tiny", "start=3", "option start=3: the guide chooses before that turn; name a guide"),
    ],
)
def test_a_defer_naming_no_action_or_options_without_a_guide_are_refused(
    registry: Registry, which: str, options: str, message: str
) -> None:
    game = registry.game(which)()
    with pytest.raises(MeepleError, match=re.escape(message)):
        registry.player(f"ismcts:{options}", which).make(game, 0, 1)


def test_one_legal_action_is_played_at_once(registry: Registry) -> None:
    game = registry.game("tiny")()
    state = game.setup(2, 1)
    bot = registry.player("ismcts", "tiny").make(game, 0, 1)
    bot.search = None  # searching would fail
    only = game.legal_actions(state)[:1]
    assert bot.choose(Prompt.of(game, state, 0, only)) == only[0]


def test_the_game_bot_as_rollout_policy(registry: Registry) -> None:
    game = registry.game("clonk")()
    state = game.setup(3, 3)
    legal = game.legal_actions(state)
    bot = registry.player("ismcts:iterations=2:rollout=greedy", "clonk").make(game, 0, 3)
    assert bot.choose(Prompt.of(game, state, state.to_move, legal)) in legal


@pytest.mark.parametrize("which", ["clonk", "clank", "clank-catacombs"])
def test_every_built_in_game_evaluates_a_cut_off_rollout(registry: Registry, which: str) -> None:
    game = registry.game(which)()
    state = game.setup(4, 2)
    seat = state.to_move
    legal = game.legal_actions(state)
    bot = registry.player("ismcts:iterations=6:depth=4", which).make(game, seat, 2)
    assert bot.choose(Prompt.of(game, state, seat, legal)) in legal


def test_reuse_grows_the_next_choice_of_the_turn_from_the_kept_subtree(registry: Registry) -> None:
    """Clonk!'s Phase II is several choices of one seat in one turn: with ``reuse``, the
    second grows on the subtree of the first answer."""
    game = registry.game("clonk")()
    match = Match.new(game, 2, 4, Hooks(None))
    while not isinstance(match.state.stack[-1], Unearth) or match.state.turns.round < 2:
        match.step(match.legal()[0])
    seat = match.state.stack[-1].seat
    bot = registry.player("ismcts:iterations=30:reuse=true", "clonk").make(game, seat, 4)
    action = bot.choose(Prompt.of(game, match.state, seat, match.legal()))
    turn, kept = bot._kept
    assert turn == match.state.turns.turn and kept.visits > 0
    match.step(action)
    assert match.state.to_move == seat and kept.seat == seat  # a dig: Phase II goes on
    before = sum(child.visits for child in kept.children.values())
    bot.choose(Prompt.of(game, match.state, seat, match.legal()))
    assert sum(child.visits for child in kept.children.values()) == before + 30
    assert bot._kept[1] in kept.children.values()
    seats = ["ismcts:iterations=8:reuse=true", "random"]
    assert choices(registry, "clonk", seats, 3) == choices(registry, "clonk", seats, 3)


def test_finds_the_winning_move_that_random_usually_misses(registry: Registry) -> None:
    """Tiny's last turn: seat 1 wins by playing its 6 (16 against 14), and loses otherwise."""
    game = registry.game("tiny")()
    state = game.setup(2, 1)
    deal = {
        "deck": [],
        "hand0": ["c2b", "c3a", "c3b"],
        "hand1": ["c1a", "c6a", "c1b", "c2a"],
        "pile0": ["c6b", "c4a", "c4b"],
        "pile1": ["c5a", "c5b"],
    }
    state.deck.cards[:] = deal["deck"]
    for s in range(2):
        state.hands[s] = Zone(kind="hand", owner=s, cards=deal[f"hand{s}"])
        state.piles[s] = Zone(kind="pile", owner=s, cards=deal[f"pile{s}"])
    state.turns.current, state.turns.last_round = 1, True
    state.stack[-1] = msgspec.structs.replace(state.stack[-1], seat=1)
    assert game.check_state(state) == []
    legal = game.legal_actions(state)
    assert len(legal) == 4  # random finds the win once in four
    for seed in range(5):
        bot = registry.player("ismcts:iterations=12", "tiny").make(game, 1, seed)
        assert bot.choose(Prompt.of(game, state, 1, legal)).card == "c6a"


# -- it sees only its view -----------------------------------------------------------------


@pytest.mark.parametrize("quick", ["tiny", "clonk"])
def test_conformance_with_a_search_seat(registry: Registry, hooks: Hooks, quick: str) -> None:
    """A seat played by the search in the conformance suite (the games short enough for it)."""
    game_cls = registry.game(quick)
    for case in testing.cases(game_cls, 1):
        game = case.game(game_cls)
        seat = registry.player("ismcts:iterations=4", quick).make(game, 0, case.seed)
        testing.playthrough(game, case, hooks=hooks, bots={0: seat})


@pytest.mark.parametrize(
    "search", ["ismcts:iterations=1:start=0", "ismcts:iterations=1:guide=random:start=0"]
)
def test_it_determinizes_only_its_own_view(registry: Registry, game_id: str, search: str) -> None:
    """Every state the bot deals from is its seat's view of the real game, leaking nothing
    (a guide is asked only in those deals; ``start=0``: the search chooses from the first
    turn, whatever the game's own settings)."""
    game_cls = registry.game(game_id)
    seen: list[Any] = []

    class Watched(game_cls):
        def determinize(self, view: Any, stream: Any) -> Any:
            seen.append(view)
            return super().determinize(view, stream)

    game = Watched()
    seats = game.min_seats
    match = Match.new(game, seats, 4, Hooks(None))
    bot = registry.player(search, game_id).make(game, 0, 4)
    steps = 0
    while not match.over and steps < 20:
        seat, legal = match.state.to_move, match.legal()
        seen.clear()
        action = bot.choose(Prompt.of(game, match.state, seat, legal))
        if len(legal) > 1:
            view = game.view(match.state, seat)
            assert seen and all(v == view for v in seen)
            assert not testing.leaks(game, match.state, seat, msgspec.json.encode(view))
        match.step(action)
        steps += 1


def test_a_bot_with_options_as_another_bots_policy_gets_its_defaults(registry: Registry) -> None:
    game = registry.game("tiny")()
    factory = registry.player("random", "tiny").bots("ismcts")
    bot = factory(game, 1, Stream("policy"))
    assert isinstance(bot, Ismcts) and bot.options == IsmctsOptions()


# -- deals: the same as before they were made cheaper --------------------------------------

PINNED = {
    "clank": ("55e32b7c68e2cfbc", "1c53cffee3c711d7"),
    "clank-catacombs": ("974a466c1879f357", "06e90f4af8b6aa92"),
    "clonk": ("c47066f00642e773", "e64427530ac11c5c"),
}
"""Per game, on three mid-game states: a hash of two deals of every seat's view, and one of
the statistics at the root of a 10-iteration ismcts search (its choice is the most visited).
Recorded when each deal re-encoded its view and dealt card by card: a cheaper deal must draw
from the stream and place every card exactly as that did. The Catacombs search statistics
were recorded again when a forced move stopped taking a node of the tree, the Clank! ones when
face-down secrets came to be taken blind (the deals were not). The deals of both Clank! games
were recorded again when their states' layout changed (effects waiting on the turn; Catacombs'
Lockpicks a count per seat), and the Catacombs search statistics when its counts came to pay
as they grow through the turn."""


def midgame_states(game: Any, seats: int) -> list[Any]:
    """Three states a few dozen random decisions in, each at a decision with a real choice."""
    states = []
    for seed in range(3):
        match = Match.new(game, seats, seed, Hooks(None))
        players = [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]
        for _ in range(25 + 20 * seed):
            if match.over:
                break
            s = match.state.to_move
            match.step(players[s].choose(Prompt.of(game, match.state, s, match.legal())))
        while len(match.legal()) == 1:
            match.step(match.legal()[0])
        states.append(match.state)
    return states


@pytest.mark.parametrize("pinned", sorted(PINNED))
def test_deals_and_searches_as_pinned(registry: Registry, pinned: str) -> None:
    game = registry.game(pinned)()
    seats = min(4, game.max_seats)
    deals, trees = [], []
    for seed, state in enumerate(midgame_states(game, seats)):
        for viewer in (None, *range(seats)):
            dealer = game.dealer(game.view(state, viewer))
            key = f"deal/{seed}/{viewer}"
            deals.append([game.digest(dealer(Stream(f"{key}/{k}"))) for k in range(2)])
        seat = state.to_move
        # The generic settings, whatever a game's own (Game.bot_options) would fill in.
        player = registry.player("ismcts", pinned)
        options = IsmctsOptions(iterations=10)
        bot = msgspec.structs.replace(player, options=options).make(game, seat, seed)
        root = bot.search(game.view(state, seat))
        trees.append(
            [(repr(a), n.visits, n.available, round(n.total, 9)) for a, n in root.children.items()]
        )
    assert (digest(deals), digest(trees)) == PINNED[pinned]


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def test_a_dealer_deals_as_determinize_does(registry: Registry, game_id: str) -> None:
    """Deal after deal from one view, each the state ``determinize`` gives for its stream;
    and a game that extends ``determinize`` has its own called by the dealer."""
    game_cls = registry.game(game_id)
    game = game_cls()
    seats = min(4, game.max_seats)
    calls: list[Any] = []

    class Extended(game_cls):
        def determinize(self, view: Any, stream: Any) -> Any:
            calls.append(view)
            return super().determinize(view, stream)

    for state in midgame_states(game, seats)[:2]:
        view = game.view(state, state.to_move)
        dealer = game.dealer(view)
        for k in range(3):
            dealt = dealer(Stream(f"d/{k}"))
            assert game.digest(dealt) == game.digest(game.determinize(view, Stream(f"d/{k}")))
            assert not game.check_state(dealt)
        assert game.digest(view) == game.digest(game.view(state, state.to_move))  # unchanged
        Extended().dealer(view)(Stream("x"))
        assert calls[-1] is view


def test_a_view_with_more_placeholders_than_unseen_cards_cannot_be_dealt(tiny: Any) -> None:
    view = tiny.view(tiny.setup(2, 1), 0)
    view.hands[1].cards.append(view.deck.cards[0])
    with pytest.raises(ValueError, match=r"placeholders '\?card' but \d+ unseen cards"):
        tiny.determinize(view, Stream("x"))
