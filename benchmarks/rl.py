"""Steps/s of every game's PettingZoo environment: ``python benchmarks/rl.py``.

For each game and seat count that ``benchmarks/run.py`` measures, each for about
``--seconds``:

- the environment (:func:`meeple.core.rl.env`): reset, then at each step ``last()``
  (the mover's observation and mask) and a uniformly random legal action of the mask
  (``np.flatnonzero``, as a user's loop reads it) until the game ends, game after game:
  environment steps/s (decisions only, not the final steps of finished agents), next to
  the size of the action space (the catalogue, which each mask is as long as);
- random self-play through :meth:`Match.run`, exactly as ``benchmarks/run.py``
  measures it: decisions/s;

and their ratio, the share of the raw speed that the environment keeps. PettingZoo's
own ``leduc_holdem_v4`` (RLCard's Leduc Hold'em) is measured by the same loop in the
same run, for scale. Needs the rl extra (``pip install "meeple[rl]"``) and, for Leduc
Hold'em, RLCard and pygame (``pip install "pettingzoo[classic]"``). Figures depend on the
machine; nothing here is asserted by the test suite.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

# The folder of this script is on sys.path when it runs: its figures of raw play are
# run.py's own.
from run import command_line, measure_each, self_play, timed

from meeple.core import rl
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry
from meeple.core.rng import Stream


def env_steps(env: Any, budget: float) -> dict[str, float]:
    """Random legal steps of ``env``, game after game (reset seeds 0, 1, ...): steps/s."""
    below = Stream("bench/rl").below

    def one_game(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            observed, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observed["action_mask"])
            env.step(legal[below(len(legal))])
            steps += 1
        return steps

    games, steps, elapsed = timed(budget, one_game)
    return {
        "actions": int(env.action_space(env.possible_agents[0]).n),
        "env_steps_per_s": steps / elapsed,
        "env_games_per_s": games / elapsed,
    }


def measure(
    registry: Registry, hooks: Hooks, game_id: str, seats: int, budget: float
) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game_id, "seats": seats}
    row |= env_steps(rl.env(game_id, seats=seats), budget)
    row |= self_play(registry.game(game_id)(), seats, hooks, budget)
    row["ratio"] = row["env_steps_per_s"] / row["decisions_per_s"]
    return row


def reference(classic: Any, budget: float) -> dict[str, Any]:
    """A PettingZoo classic env, stepped by the loop that measures meeple's environments."""
    return {"game": classic.__name__.rpartition(".")[2], "seats": 2} | env_steps(
        classic.env(), budget
    )


def table(rows: list[dict[str, Any]]) -> Table:
    out = Table(
        title="PettingZoo environments: steps/s",
        caption=f"{rows[-1]['game']}: PettingZoo's own, stepped by the same loop",
    )
    for title in ("game", "seats", "actions", "env steps/s", "raw decisions/s", "env / raw"):
        out.add_column(title, justify="left" if title == "game" else "right")
    for row in rows:
        raw = row.get("decisions_per_s")
        out.add_row(
            row["game"],
            str(row["seats"]),
            f"{row['actions']:,}",
            f"{row['env_steps_per_s']:,.0f}",
            "" if raw is None else f"{raw:,.0f}",
            "" if raw is None else f"{row['ratio']:.0%}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser, args, registry, hooks, wanted = command_line(__doc__, 2.0, argv)
    try:  # Checked before measuring anything: it needs RLCard and pygame.
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError as error:
        parser.error(f'Leduc Hold\'em needs pip install "pettingzoo[classic]" ({error})')
    console = Console(stderr=True)
    rows = measure_each(measure, registry, hooks, wanted, args, console)
    if not args.json:
        console.print("measuring PettingZoo's Leduc Hold'em ...")
    rows.append(reference(leduc_holdem_v4, args.seconds))
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "runs": rows}))
    else:
        Console().print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
