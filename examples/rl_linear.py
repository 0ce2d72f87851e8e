"""A small learned linear policy against masked random play, on any meeple game.

    pip install "meeple[rl]"
    python examples/rl_linear.py --game clonk --games 300 --seed 0

The policy is a softmax over the legal actions of a linear function of the
observation (numpy only). It is trained by REINFORCE on the final reward: one
seat is the learner, every other seat plays uniformly among the legal actions
of its action mask, and the learner's seat moves round the table from game to
game. Before and after training the script prints the learner's share of the
wins against masked random play (a win shared by k seats counts 1/k) with its
95% Wilson interval, over the same evaluation deals both times; masked random
play itself gets 1/seats.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from meeple.core import rl
from meeple.core.stats import Estimate, wilson

Policy = Callable[[np.ndarray, np.ndarray], int]
"""Picks an action index from an observation and its action mask."""


class Linear:
    """A softmax over the legal actions of ``weights @ features``, learned by REINFORCE.

    The features are the observation scaled by the largest magnitude seen of each entry
    (counts of very different sizes then learn at the same pace), plus a constant 1, so
    each action also has a bias of its own. An action's row of weights is made when it is
    first legal: a game's catalogue may hold over ten thousand actions, of which a few
    hundred games meet a small part.
    """

    def __init__(self, observations: int, rng: np.random.Generator) -> None:
        self.weights: dict[int, np.ndarray] = {}
        self.zeros = np.zeros(observations + 1)
        self.scale = np.ones(observations)
        self.rng = rng
        self.trace: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        """What each decision of the game in progress needs for its gradient."""
        self.baseline = 0.0
        """Running mean of the final rewards: REINFORCE learns from reward - baseline."""

    def features(self, observation: np.ndarray) -> np.ndarray:
        return np.append(observation.ravel() / self.scale, 1.0)

    def rows(self, legal: np.ndarray) -> list[np.ndarray]:
        return [self.weights.setdefault(int(a), self.zeros.copy()) for a in legal]

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The policy over the legal actions."""
        logits = np.stack(self.rows(legal)) @ x
        exp = np.exp(logits - logits.max())
        return exp / exp.sum()

    def decide(
        self, observation: np.ndarray, mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """The features, the legal actions, their probabilities and the pick among them."""
        legal = np.flatnonzero(mask)
        x = self.features(observation)
        p = self.probabilities(x, legal)
        return x, legal, p, int(self.rng.choice(len(legal), p=p))

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        _, legal, _, pick = self.decide(observation, mask)
        return int(legal[pick])

    def explore(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """Act, and remember the decision for :meth:`learn` (and the observation's scale)."""
        self.scale = np.maximum(self.scale, np.abs(observation.ravel()))
        decision = self.decide(observation, mask)
        self.trace.append(decision)
        _, legal, _, pick = decision
        return int(legal[pick])

    def learn(self, reward: float, rate: float) -> None:
        """One REINFORCE step on the decisions of the game just ended: each action's log
        probability is pushed up by ``reward - baseline`` (down when it is negative)."""
        advantage = reward - self.baseline
        self.baseline += 0.05 * (reward - self.baseline)
        for x, legal, p, pick in self.trace:
            grad = -p
            grad[pick] += 1.0
            for row, g in zip(self.rows(legal), grad, strict=True):
                row += rate * advantage * g * x
        self.trace.clear()


def masked_random(rng: np.random.Generator) -> Policy:
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def play(env: Any, seed: int, policies: dict[str, Policy]) -> dict[str, float]:
    """One game from ``env.reset(seed=seed)``; each agent's final reward."""
    env.reset(seed=seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observed, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = float(reward)
            env.step(None)
        else:
            env.step(policies[agent](observed["observation"], observed["action_mask"]))
    return rewards


def learner_at(
    env: Any, game: int, learner: Policy, other: Policy
) -> tuple[str, dict[str, Policy]]:
    """The learner's agent in game number ``game`` (round the table), and every agent's policy."""
    agents = env.possible_agents
    seat = agents[game % len(agents)]
    return seat, {agent: learner if agent == seat else other for agent in agents}


def evaluate(env: Any, learner: Policy, other: Policy, seeds: range) -> Estimate:
    """The learner's share of the wins over the games of ``seeds``, with its Wilson interval."""
    won = 0.0
    for game, seed in enumerate(seeds):
        seat, policies = learner_at(env, game, learner, other)
        won += play(env, seed, policies)[seat]
    return wilson(won, len(seeds))


def train(env: Any, policy: Linear, other: Policy, seeds: range, rate: float) -> None:
    for game, seed in enumerate(seeds):
        seat, policies = learner_at(env, game, policy.explore, other)
        policy.learn(play(env, seed, policies)[seat], rate)


def share(estimate: Estimate) -> str:
    return f"{estimate.value:.1%} (95% CI {estimate.low:.1%}–{estimate.high:.1%})"


def run(env: Any, games: int, evaluations: int, seed: int, rate: float) -> list[str]:
    """Evaluate, train, evaluate again; the report's lines."""
    agent = env.possible_agents[0]
    rng = np.random.default_rng(seed)
    shape = env.observation_space(agent)["observation"].shape
    policy = Linear(int(np.prod(shape)), rng)
    other = masked_random(rng)
    # Evaluation deals come after the training ones, and are the same before and after.
    deals = range(seed + games, seed + games + evaluations)
    seats = len(env.possible_agents)
    lines = [f"masked random play wins {1 / seats:.1%} at {seats} seats"]
    before = evaluate(env, policy.act, other, deals)
    lines.append(f"before training: the linear policy wins {share(before)}")
    start = time.perf_counter()
    train(env, policy, other, range(seed, seed + games), rate)
    elapsed = time.perf_counter() - start
    after = evaluate(env, policy.act, other, deals)
    lines.append(f"after {games} training games ({elapsed:.1f} s): wins {share(after)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clonk", help="an installed game (default clonk)")
    parser.add_argument("--seats", type=int, default=2, help="table size (default 2)")
    parser.add_argument("--games", type=int, default=300, help="training games (default 300)")
    parser.add_argument(
        "--eval", type=int, default=200, help="evaluation games, before and after (default 200)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the policies")
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate (default 0.05)")
    args = parser.parse_args(argv)
    env = rl.env(args.game, seats=args.seats)
    print(f"{args.game}, {args.seats} seats: a linear policy against masked random play")
    for line in run(env, args.games, args.eval, args.seed, args.rate):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
