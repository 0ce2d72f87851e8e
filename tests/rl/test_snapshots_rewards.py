"""An environment's snapshots (``clone``, ``restore``) and reward functions (the rl extra)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pettingzoo.test as pettingzoo_test
import pytest

from meeple.core import rl
from meeple.core.errors import MeepleError
from meeple.core.rng import Stream
from meeple.core.scoring import rank

pytestmark = pytest.mark.rl

THIRDPARTY = Path(__file__).resolve().parents[1] / "thirdparty"
GAMES = ["clonk", "clank", "clank-catacombs", "tiny"]


@pytest.fixture
def make_env(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``make_env(game_id, seats, **kwargs)``: a registered game's environment, or the
    third-party tiny game's."""
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    import meeple_tiny

    def make(game_id: str, seats: int = 3, **kwargs: Any) -> Any:
        if game_id == "tiny":
            return rl.make(meeple_tiny.Tiny(), seats, **kwargs)
        return rl.env(game_id, seats, **kwargs)

    return make


def steps(env: Any, seed: int, count: int | None = None) -> list[tuple[Any, ...]]:
    """Up to ``count`` steps (all, by default) of masked random play from where ``env`` is,
    the choices drawn from ``seed``; what each step saw: the agent, every agent's
    observation and mask, ``last()``'s reward and flags."""
    rng, seen = np.random.default_rng(seed), []
    for agent in env.agent_iter(count if count is not None else 2**63):
        observed, reward, done, cut, _ = env.last()
        others = [env.observe(a) for a in env.agents]
        seen.append(
            (
                agent,
                reward,
                done,
                cut,
                [(o["observation"].tobytes(), o["action_mask"].tobytes()) for o in others],
            )
        )
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(observed["action_mask"]))))
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_a_restored_environment_plays_on_as_the_cloned_one(make_env: Any, name: str) -> None:
    """Clone mid-game, play to the end; restore (in this environment, then in a fresh one)
    and play the same choices: the same observations, masks, rewards and final state, the
    game's own random draws included; a reset() without a seed then sets up the same game."""
    env = make_env(name)
    env.reset(seed=8)
    steps(env, seed=1, count=12)
    snapshot = env.clone()
    draws = env.match.state.rng.counter
    future = steps(env, seed=2)
    end = env.game.digest(env.match.state)
    if name == "clank":  # its decks are shuffled again in play: the future drew on the seed
        assert env.match.state.rng.counter > draws
    env.reset()
    next_game = env.game.digest(env.match.state)
    for again in (env, make_env(name)):
        again.restore(snapshot)
        assert steps(again, seed=2) == future
        assert again.game.digest(again.match.state) == end
        again.reset()
        assert again.game.digest(again.match.state) == next_game


def test_a_snapshot_is_untouched_by_the_games_restored_from_it(make_env: Any) -> None:
    env = make_env("clank")
    env.reset(seed=4)
    steps(env, seed=0, count=20)
    snapshot = env.clone()
    digest = env.game.digest(snapshot.state)
    first = steps(env, seed=5, count=50)
    env.restore(snapshot)
    env.infos[env.agent_selection]["note"] = 1  # what a restored environment is changed in
    env.rewards[env.agent_selection] = 9.0
    steps(env, seed=6)
    assert env.game.digest(snapshot.state) == digest
    env.restore(snapshot)
    assert env.infos[env.agent_selection] == {} and env.rewards[env.agent_selection] == 0
    assert steps(env, seed=5, count=50) == first


def test_a_snapshot_while_the_agents_leave_an_ended_game(make_env: Any) -> None:
    """Clone after the game ended, while the agents step out one by one: restored, they
    leave in the same order with the same rewards."""
    env = make_env("tiny", 4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    env.step(None)
    snapshot = env.clone()
    leaving = steps(env, seed=0)
    assert len(leaving) == 3 and not env.agents
    last = env.agent_selection  # PettingZoo's: the one that left first, once all have
    env.restore(snapshot)
    assert steps(env, seed=0) == leaving and env.agent_selection == last


def test_restore_takes_a_snapshot_of_the_same_table(make_env: Any) -> None:
    env = make_env("clonk", 3)
    with pytest.raises(MeepleError, match=r"call reset\(\) before"):
        env.clone()
    env.reset(seed=0)
    snapshot = env.clone()
    with pytest.raises(rl.WrongValue, match=r"snapshot is of Clonk! at 3 seats .* at 2 with"):
        make_env("clonk", 2).restore(snapshot)
    with pytest.raises(rl.WrongValue, match="snapshot is of Clonk!"):
        make_env("clank", 3).restore(snapshot)
    with pytest.raises(rl.WrongType, match=r"restore\(\) takes what clone\(\) gives, not 5"):
        env.restore(5)


def default_reward(game: Any, state: Any, seat: int) -> float:
    """The environment's own rewards, as a reward function: 1, 1/k or 0 at the end."""
    if not game.is_over(state):
        return 0.0
    return rl.rewards_of(game.scores(state), state.seats)[seat]


@pytest.mark.parametrize("name", GAMES)
def test_a_reward_function_of_the_default_rewards_changes_nothing(make_env: Any, name: str) -> None:
    plain, hooked = make_env(name), make_env(name, reward=default_reward)
    assert plain.reward is None
    for env in (plain, hooked):
        env.reset(seed=6)
    assert steps(plain, seed=3) == steps(hooked, seed=3)


def test_a_reward_after_every_step_adds_up_until_the_agent_moves(make_env: Any) -> None:
    """Each seat gets 1 after every step: ``last()`` shows each agent what it got since it
    last moved (its own step included), so every reward is seen once."""
    env = make_env("clonk", 3, reward=lambda game, state, seat: 1)
    env.reset(seed=1)
    seen = steps(env, seed=1)
    assert sum(reward for _, reward, *_ in seen) == len(env.match.actions) * 3
    taken, moved = 0, {}  # steps so far; when each agent last moved
    for agent, reward, done, cut, _ in seen:
        assert reward == taken - moved.get(agent, 0)
        if not (done or cut):
            moved[agent], taken = taken, taken + 1


@pytest.mark.parametrize(
    ("given", "error", "said"),
    [
        ("x", rl.WrongType, "gave 'x' for seat_0 after step 1, not a finite number"),
        (None, rl.WrongType, "gave None for seat_0"),
        (math.nan, rl.WrongValue, "gave nan for seat_0"),
        (-math.inf, rl.WrongValue, "gave -inf for seat_0"),
    ],
)
def test_a_reward_that_is_no_number_is_named(
    make_env: Any, given: Any, error: type, said: str
) -> None:
    env = make_env("tiny", 2, reward=lambda game, state, seat: given)
    env.reset(seed=0)
    with pytest.raises(error, match=said):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert len(env.match.actions) == 1  # played, as the message says


def test_a_reward_is_a_function(make_env: Any) -> None:
    with pytest.raises(rl.WrongType, match=r"reward takes a function .*, not 1\.0"):
        make_env("tiny", 2, reward=1.0)


def test_the_api_with_a_reward_function(make_env: Any) -> None:
    env = make_env("clonk", 2, reward=lambda game, state, seat: state.turns.round / 10)
    pettingzoo_test.api_test(env, num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_of_a_deal_of_a_seats_view(make_env: Any, name: str) -> None:
    """docs/rl.md's search from what a seat knows: the snapshot's state replaced by a deal of
    the seat's view restores to the same observation for that seat, and plays to the end."""
    env = make_env(name)
    env.reset(seed=3)
    steps(env, seed=3, count=5)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    seen = env.observe(agent)
    view = env.game.view(env.match.state, seat)
    dealt = env.game.determinize(view, Stream("test/deal"))
    env.restore(msgspec.structs.replace(env.clone(), state=dealt))
    again = env.observe(agent)
    assert np.array_equal(seen["observation"], again["observation"])
    assert np.array_equal(seen["action_mask"], again["action_mask"])
    assert steps(env, seed=4)[-1][2]  # the game ended


def test_the_docs_reward_by_place() -> None:
    """The reward function docs/rl.md shows gives 1, 1/2 and 0 for three places."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    code = re.search(
        r"^```python\n(from meeple.core import rl\n.*?def by_place.*?)^```", doc, re.M | re.S
    )
    assert code, "docs/rl.md no longer shows the reward by place"
    scope: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/rl.md", "exec"), scope)
    env = scope["env"]
    env.reset(seed=0)
    got = {agent: reward for agent, reward, done, *_ in steps(env, seed=0) if done}
    places = rank(env.game.scores(env.match.state))
    assert [got[a] for a in env.possible_agents] == [(3 - p) / 2 for p in places]
