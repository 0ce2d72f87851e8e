"""The PettingZoo environments of every game (the rl extra): PettingZoo's own API and seed
tests, observations that leak nothing, and an action catalogue that holds every legal action."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import numpy as np
import pettingzoo.test as pettingzoo_test
import pytest

from meeple.core import rl
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.rng import Stream

pytestmark = pytest.mark.rl

THIRDPARTY = Path(__file__).resolve().parents[1] / "thirdparty"
GAMES = ["clonk", "clank", "clank-catacombs", "tiny"]


@pytest.fixture
def make_env(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``make_env(game_id, seats)``: a registered game's environment, or the third-party
    tiny game's (imported from tests/thirdparty, as a plugin author's would be)."""
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    import meeple_tiny

    def make(game_id: str, seats: int = 4, **kwargs: Any) -> Any:
        if game_id == "tiny":
            return rl.make(meeple_tiny.Tiny(), seats, **kwargs)
        return rl.env(game_id, seats, **kwargs)

    return make


@pytest.mark.parametrize("name", GAMES)
def test_api(make_env: Any, name: str) -> None:
    pettingzoo_test.api_test(make_env(name), num_cycles=200)


@pytest.mark.parametrize("name", GAMES)
def test_seed(make_env: Any, name: str) -> None:
    pettingzoo_test.seed_test(functools.partial(make_env, name), num_cycles=200)


def play(env: Any, seed: int) -> int:
    """One game of masked random actions; the number of decisions."""
    env.reset(seed=seed)
    rng, steps = np.random.default_rng(seed), 0
    for agent in env.agent_iter():
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert agent in env.possible_agents
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_is_catalogued(make_env: Any, name: str) -> None:
    """Whole random games: each state's legal actions map into the catalogue (the
    environment raises naming an action that does not)."""
    env = make_env(name)
    assert len(env.index) == len(env.catalogue)
    for seed in range(6):
        assert play(env, seed) > 0


@pytest.mark.parametrize("name", GAMES)
def test_rewards_from_the_final_scores(make_env: Any, name: str) -> None:
    env = make_env(name)
    env.reset(seed=3)
    total = 0.0
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        total += reward
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert total == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_observations_hide_what_the_view_hides(make_env: Any, name: str) -> None:
    """Two states that differ only in cards hidden from a seat give it the same
    observation: the full states dealt from its view with two different streams."""
    env = make_env(name, 3)
    game, encoder = env.game, env.encoder
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(5):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    state, differ = env.match.state, 0
    for seat in range(3):
        view = game.view(state, seat)
        one, two = (game.determinize(view, Stream(f"leak/{seat}/{k}")) for k in (1, 2))
        differ += game.digest(one) != game.digest(two)
        seen = [encoder(game.view(s, seat), seat) for s in (one, two)]
        assert np.array_equal(*seen)
        assert np.array_equal(seen[0], encoder(view, seat))
    assert differ  # the deals did hide something


def test_a_step_outside_the_mask_is_refused(make_env: Any) -> None:
    env = make_env("clonk")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction, match="not marked in its action_mask"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_a_step_before_or_after_the_game_says_to_reset(make_env: Any) -> None:
    env = make_env("clonk", 2)
    with pytest.raises(MeepleError, match=r"call reset\(\) before"):
        env.step(0)
    for seed in (-1, 2**63, "3", 1.5):
        with pytest.raises(MeepleError, match="a seed is an int from 0 to"):
            env.reset(seed=seed)
    env.reset(seed=3)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(np.flatnonzero(observation["action_mask"])[0]))
    with pytest.raises(MeepleError, match=r"game is over .* call reset\(\)"):
        env.step(0)
    env.reset(seed=3)
    assert env.agents == ["seat_0", "seat_1"]


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (lambda env, i: env.step(float(i)), TypeError, r"step\(\) takes an index .*, not \d+\.0$"),
        (lambda env, i: env.step(np.array([i])), TypeError, r"not an array of shape \(1,\)$"),
        (lambda env, i: env.step(True), TypeError, "not True$"),
        (lambda env, i: env.step(str(i)), TypeError, r"not '\d+'$"),
        (lambda env, i: env.observe("seat_9"), ValueError, "seat_0 to seat_1, not 'seat_9'$"),
        (lambda env, i: env.observe(["seat_0"]), ValueError, r"not \['seat_0'\]$"),
        (lambda env, i: env.action_space("seat_2"), ValueError, "seat_0 to seat_1, not 'seat_2'"),
        (lambda env, i: env.reset(seed=True), TypeError, "a seed is an int .*, not True$"),
        (lambda env, i: env.reset(seed=np.int64(-1)), ValueError, "a seed is an int .*, not"),
    ],
    ids=["float", "array", "bool", "str", "agent", "list", "space", "bool-seed", "np-seed"],
)
def test_a_call_the_environment_cannot_take_says_what_it_takes(
    make_env: Any, call: Any, error: type, said: str
) -> None:
    """Each is a MeepleError and Python's own TypeError or ValueError, and changes nothing:
    a float index was played as the int it equals, an array was an unhashable key."""
    env = make_env("clonk", 2)
    env.reset(seed=5)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    before = env.game.digest(env.match.state)
    with pytest.raises(error, match=said) as raised:
        call(env, legal)
    assert isinstance(raised.value, MeepleError)
    assert env.game.digest(env.match.state) == before and env.match.seed == 5


def test_seats_and_render_modes_the_environment_cannot_take(make_env: Any) -> None:
    with pytest.raises(rl.WrongType, match="seats takes an int, such as seats=2, not '2'"):
        make_env("clonk", "2")
    with pytest.raises(
        rl.WrongValue, match=r"render_mode takes 'ansi' \(.*\) or None, not 'human'"
    ):
        make_env("clonk", 2, render_mode="human")


def test_numpy_integers_are_taken_where_python_ints_are(make_env: Any) -> None:
    """RL code hands on what numpy gives: seats, seeds and actions as NumPy integers, and an
    action as a 0-d array, as gymnasium's Discrete space takes them."""
    env, same = make_env("clonk", np.int64(2)), make_env("clonk", 2)
    env.reset(seed=np.int64(3))
    same.reset(seed=3)
    assert env.seats == 2 and env.match.seed == 3
    for action in (np.int64, np.uint8, np.array, int):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(action(legal[-1]))
        same.step(int(legal[-1]))
    assert env.game.digest(env.match.state) == same.game.digest(same.match.state)


def test_the_docs_example_prints_what_the_docs_show(capsys: pytest.CaptureFixture[str]) -> None:
    """The first example of docs/rl.md, run as it stands, prints the line shown after it."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    shown = re.search(r"^```python\n(.*?)^```\n\n[^\n]*:\n\n```text\n(.*?)^```$", doc, re.M | re.S)
    assert shown, "docs/rl.md no longer shows its example's output after it"
    code, output = shown.groups()
    exec(compile(code, "docs/rl.md", "exec"), {})
    assert capsys.readouterr().out == output


def test_reset_with_a_seed_sets_up_that_game(make_env: Any) -> None:
    env = make_env("clank")
    env.reset(seed=11)
    assert env.match.seed == 11
    assert env.game.digest(env.match.state) == env.game.digest(env.game.setup(4, 11))


def test_options_and_seats(make_env: Any) -> None:
    env = make_env("clank-catacombs", 2, start_side="b")
    assert env.game.options.start_side == "b"
    assert env.possible_agents == ["seat_0", "seat_1"]
    with pytest.raises(MeepleError, match="options"):
        make_env("clonk", 2, no_such_option=1)
    with pytest.raises(MeepleError, match="board is one of: back, front"):
        make_env("clank", 2, board="sideways")
    with pytest.raises(MeepleError, match="seats"):
        make_env("clonk", 9)


def test_render_ansi(make_env: Any) -> None:
    env = make_env("clonk", render_mode="ansi")
    env.reset(seed=2)
    assert isinstance(env.render(), str)
    assert env.render()


def test_an_unbounded_int_field_is_named(make_env: Any) -> None:
    """A game whose action has an int field no type or declaration bounds cannot have a
    catalogue: the error names the field and the ways to bound it."""
    from meeple.core import Action

    class Jump(Action, tag="jump"):
        height: int

    game = make_env("tiny").game
    game.action_type = Jump
    with pytest.raises(MeepleError, match=r"Jump\.height .*Encoding\.action_values"):
        rl.catalogue(game, 2)


def test_a_keyed_type_is_listed_by_its_key(make_env: Any) -> None:
    """Clank! keys a Move by its tunnel and swords (the room it leads to follows from the
    tunnel): the catalogue lists those pairs, and a legal Move maps through its key."""
    from meeple.plugins.clank.state import Move

    env = make_env("clank")
    moves = [k for k in env.catalogue if isinstance(k, tuple) and k[0] is Move]
    assert moves and all(len(k) == 3 for k in moves)
    assert env.key(Move(tunnel=4, to=7, swords=1)) == (Move, 4, 1)
    assert len(env.catalogue) < 5_000  # not every card for a token, nor a room per tunnel
    env.reset(seed=0)
    for _ in range(40):  # until a seat may move
        if any(type(a) is Move for a in env._legal.values()):
            break
        env.step(next(iter(env._legal)))
    i, move = next((i, a) for i, a in env._legal.items() if type(a) is Move)
    assert env.catalogue[i] == (Move, move.tunnel, move.swords)


def test_two_legal_actions_with_one_key_are_named(make_env: Any) -> None:
    """Keys that do not tell a decision's legal actions apart are the game's error."""
    import meeple_tiny

    env = make_env("tiny", 2)
    env.game.encoding.action_key = lambda seats: {meeple_tiny.Play: ()}
    env = rl.make(env.game, 2)
    assert len(env.catalogue) == 2  # (Play,) and Draw()
    with pytest.raises(MeepleError, match=r"actions Play.* and Play.* have one catalogue key"):
        env.reset(seed=0)


def test_a_legal_action_missing_from_a_declared_catalogue_is_named(make_env: Any) -> None:
    import meeple_tiny

    game = make_env("tiny", 2).game
    game.encoding.action_catalogue = lambda seats: [meeple_tiny.Draw()]
    with pytest.raises(MeepleError, match=r"legal action Play.* is not in the action catalogue"):
        rl.make(game, 2).reset(seed=0)


def test_a_key_names_fields_of_action_types(make_env: Any) -> None:
    import meeple_tiny

    game = make_env("tiny").game
    game.encoding.action_key = lambda seats: {meeple_tiny.Play: ("colour",)}
    with pytest.raises(MeepleError, match=r"Play\.colour, not a field"):
        rl.catalogue(game, 2)
    game.encoding.action_key = lambda seats: {int: ()}
    with pytest.raises(MeepleError, match="int, not one of its actions"):
        rl.catalogue(game, 2)


def test_values_declared_together(make_env: Any) -> None:
    """A tuple of field names in ``Encoding.action_values`` lists the combinations of their
    values (a str field otherwise takes every card, kind and back); a field may lie in one
    such tuple only."""
    import meeple_tiny

    game = make_env("tiny").game
    game.encoding.action_values = lambda seats: {("card",): [("c1a",), ("c6b",)]}
    assert rl.catalogue(game, 2) == [
        meeple_tiny.Play(card="c1a"),
        meeple_tiny.Play(card="c6b"),
        meeple_tiny.Draw(),
    ]
    game.encoding.action_values = lambda seats: {("card",): [("c1a",)], ("card", "card"): []}
    with pytest.raises(MeepleError, match="a field of Play in two tuples"):
        rl.catalogue(game, 2)


def test_each_observation_has_a_mask_of_its_own(make_env: Any) -> None:
    """A mask is the observer's to change (a learner may cut actions out of it, or hand it
    to a library that writes): the environment's own record of the legal actions stays."""
    env = make_env("clonk")
    env.reset(seed=1)
    mover = env.agent_selection
    other = next(a for a in env.agents if a != mover)
    mask = env.observe(mover)["action_mask"]
    assert mask.sum() == len(env._legal) > 0 and not env.observe(other)["action_mask"].any()
    legal = np.flatnonzero(mask)
    mask[:] = 0
    assert list(np.flatnonzero(env.observe(mover)["action_mask"])) == list(legal)
    env.step(int(legal[0]))


@pytest.mark.parametrize("name", GAMES)
def test_counters_read_at_once_as_walked(make_env: Any, name: str) -> None:
    """The compiled counter readers give what walking each path gives, for every seat."""
    env = make_env(name)
    env.reset(seed=4)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    encoder = env.encoder
    for seat in range(env.seats):
        view = env.game.view(env.match.state, seat)
        walked = [rl._read(view, path, seat, env.seats) for path in encoder.paths]
        assert list(encoder._readers[seat](view)) == walked
