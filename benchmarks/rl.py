"""Steps/s of every game's PettingZoo environment: ``python benchmarks/rl.py``.

For each game and seat count that ``benchmarks/run.py`` measures, each for about
``--seconds``:

- the environment (:func:`meeple.core.rl.env`): reset, then at each step ``last()``
  (the mover's observation and mask) and a uniformly random legal action of the mask
  (``np.flatnonzero``, as a user's loop reads it) until the game ends, game after game:
  environment steps/s (decisions only, not the final steps of finished agents), next to
  the size of the action space (the catalogue, which each mask is as long as);
- random self-play through :meth:`Match.run`, exactly as ``benchmarks/run.py``
  measures it: decisions/s (and, in the JSON, the share of that speed the environment
  keeps);
- the same loop over an environment with no game (:class:`NoGame`: a constant observation
  and a fresh mask as wide as the game's, with as many legal entries as the game's steps
  had on average): what PettingZoo's calls and the mask cost on their own.

For scale, in the same run: PettingZoo's own ``leduc_holdem_v4`` stepped by the same loop,
and every game of RLCard (the library behind PettingZoo's card games) stepped through
RLCard's own interface: ``reset()``, then ``step(a)`` of a uniformly random action of the
state's ``legal_actions`` until ``is_over()``. Every figure is per second of this process's
CPU time, so that other work on the machine changes them little. Needs the rl extra (``pip
install "meeple[rl]"``) and RLCard with pygame (``pip install "pettingzoo[classic]"``).
Figures depend on the machine; nothing here is asserted by the test suite.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from rich import box
from rich.console import Console
from rich.table import Table

# The folder of this script is on sys.path when it runs: its figures of raw play are
# run.py's own.
from run import command_line, measure_each, self_play, timed

from meeple.core import rl
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry
from meeple.core.rng import Stream

CLOCK = time.process_time
"""This process's CPU time: a shared machine's other work slows its steps little."""


def env_steps(env: Any, budget: float) -> dict[str, float]:
    """Random legal steps of ``env``, game after game (reset seeds 0, 1, ...): steps/s."""
    below = Stream("bench/rl").below
    marked = 0

    def one_game(seed: int) -> int:
        nonlocal marked
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            observed, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observed["action_mask"])
            env.step(legal[below(len(legal))])
            marked += len(legal)
            steps += 1
        return steps

    games, steps, elapsed = timed(budget, one_game, CLOCK)
    return {
        "actions": int(env.action_space(env.possible_agents[0]).n),
        "legal_per_step": marked / steps,
        "env_steps_per_s": steps / elapsed,
        "env_games_per_s": games / elapsed,
    }


class NoGame(AECEnv):
    """An environment with no game behind it: each observation is a constant array and a
    fresh int8 mask ``width`` wide with ``legal`` entries marked, as meeple's environments
    build them; each step passes the turn; a game lasts ``length`` steps."""

    metadata = {"name": "no-game"}

    def __init__(self, seats: int, width: int, legal: int, length: int = 500) -> None:
        super().__init__()
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        self._space = gymnasium.spaces.Discrete(width)
        self._observed = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0, 1, (1,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (width,), np.int8),
            }
        )
        self._marked = np.linspace(0, width - 1, max(legal, 1)).astype(np.intp)
        self._observation = np.zeros(1, np.float32)
        self.width, self.length = width, length

    def action_space(self, agent: str) -> Any:
        return self._space

    def observation_space(self, agent: str) -> Any:
        return self._observed

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection, self.steps = self.agents[0], 0

    def observe(self, agent: str) -> dict[str, Any]:
        mask = np.zeros(self.width, np.int8)
        mask[self._marked] = 1
        return {"observation": self._observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.steps += 1
        if self.steps == self.length:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[self.steps % len(self.agents)]


def measure(
    registry: Registry, hooks: Hooks, game_id: str, seats: int, budget: float
) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game_id, "library": "meeple", "seats": seats}
    row |= env_steps(rl.env(game_id, seats=seats), budget)
    row |= self_play(registry.game(game_id)(), seats, hooks, budget, CLOCK)
    row["ratio"] = row["env_steps_per_s"] / row["decisions_per_s"]
    no_game = NoGame(seats, row["actions"], round(row["legal_per_step"]))
    row["no_game_steps_per_s"] = env_steps(no_game, budget)["env_steps_per_s"]
    return row


def pettingzoo_game(classic: Any, budget: float) -> dict[str, Any]:
    """A PettingZoo classic env, stepped by the loop that measures meeple's environments."""
    name = classic.__name__.rpartition(".")[2]
    return {"game": name, "library": "pettingzoo", "seats": 2} | env_steps(classic.env(), budget)


def rlcard_game(rlcard: Any, name: str, budget: float) -> dict[str, Any]:
    """An RLCard game through RLCard's own interface, random legal actions, game after game."""
    env = rlcard.make(name, config={"seed": 0})
    below = Stream(f"bench/rlcard/{name}").below
    marked = 0

    def one_game(seed: int) -> int:
        nonlocal marked
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[below(len(legal))])
            marked += len(legal)
            steps += 1
        return steps

    games, steps, elapsed = timed(budget, one_game, CLOCK)
    return {
        "game": name,
        "library": "rlcard",
        "seats": env.num_players,
        "actions": env.num_actions,
        "legal_per_step": marked / steps,
        "env_steps_per_s": steps / elapsed,
        "env_games_per_s": games / elapsed,
    }


def table(rows: list[dict[str, Any]]) -> Table:
    out = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title="environment steps/s (per second of CPU time)",
        caption=(
            "random legal actions, game after game. PettingZoo: stepped by the loop of "
            "meeple's; RLCard: its own reset and step. no game: that loop over an "
            "environment with no game and as wide a mask"
        ),
    )
    titles = (
        "seats",
        "actions",
        "legal\nper step",
        "env\nsteps/s",
        "raw play\nsteps/s",
        "no game\nsteps/s",
    )
    out.add_column("game", min_width=15)  # wraps: "(PettingZoo)" on a line of its own
    for title in titles:
        out.add_column(title, justify="right", no_wrap=True)
    for row in rows:
        raw = row.get("decisions_per_s")
        library = {"meeple": "", "pettingzoo": " (PettingZoo)", "rlcard": " (RLCard)"}
        out.add_row(
            row["game"] + library[row["library"]],
            str(row["seats"]),
            f"{row['actions']:,}",
            f"{row['legal_per_step']:,.1f}",
            f"{row['env_steps_per_s']:,.0f}",
            *(("", "") if raw is None else (f"{raw:,.0f}", f"{row['no_game_steps_per_s']:,.0f}")),
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser, args, registry, hooks, wanted = command_line(__doc__, 2.0, argv)
    try:  # Checked before measuring anything: the references need RLCard and pygame.
        import rlcard
        from pettingzoo.classic import leduc_holdem_v4
        from rlcard.envs.registration import registry as rlcard_games
    except ImportError as error:
        parser.error(f'the references need pip install "pettingzoo[classic]" ({error})')
    console = Console(stderr=True)
    rows = measure_each(measure, registry, hooks, wanted, args, console)
    if not args.json:
        console.print("measuring PettingZoo's Leduc Hold'em and RLCard's games ...")
    rows.append(pettingzoo_game(leduc_holdem_v4, args.seconds))
    rows += [rlcard_game(rlcard, name, args.seconds) for name in sorted(rlcard_games.env_specs)]
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "runs": rows}))
    else:
        Console().print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
