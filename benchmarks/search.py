"""Speed and strength of the ``ismcts`` search bot: ``python benchmarks/search.py speed|ladder``.

``speed`` times one decision at ``--iterations`` (200) in every game, on the
states halfway through a few random games (4 seats, or the game's most if
fewer), and prints decisions/s and iterations/s (best of ``--repeat``).

``ladder`` plays ``--games`` rotated games per rung: ismcts at each budget of
``--budgets`` against ``random`` and against the game's own bot (``bot`` on the
command line) in the other seats, and prints the search's share of wins (a win shared by k
seats counts 1/k). A rung is one ``meeple simulate`` run, so a single rung can
also be run at scale with its options (workers, ``--jsonl``)::

    meeple simulate clonk -n 1000 --seats ismcts:iterations=100,greedy,greedy,greedy --rotate

Figures depend on the machine; nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from meeple.cli.common import best_bot
from meeple.core.bots import Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import bot_stream
from meeple.core.runner import RunSpec, play
from meeple.core.state import State


def seats_for(game: Any) -> int:
    return min(4, game.max_seats)


def midgame(game: Any, seats: int, seed: int) -> State:
    """Halfway through a random game, moved on to the next decision with a real choice."""
    match = Match.new(game, seats, seed, Hooks(None))
    match.run([RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)])
    again = Match.new(game, seats, seed, Hooks(None))
    for action in match.actions[: len(match.actions) // 2]:
        again.step(action)
    while len(again.legal()) == 1:
        again.step(again.legal()[0])
    return again.state


def speed(registry: Registry, games: list[str], iterations: int, samples: int, repeat: int) -> None:
    print(f"one ismcts decision at {iterations} iterations, mid-game, best of {repeat}")
    print(f"{'game':<16} {'seats':>5} {'decisions/s':>12} {'iterations/s':>13}")
    for game_id in games:
        game = registry.game(game_id)()
        seats = seats_for(game)
        states = [midgame(game, seats, seed) for seed in range(samples)]
        player = registry.player(f"ismcts:iterations={iterations}", game_id)
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            for i, state in enumerate(states):
                seat = state.stack[-1].seat
                bot = player.make(game, seat, i)
                bot.choose(Prompt(game, state, seat, game.legal_actions(state)))
            best = min(best, time.perf_counter() - started)
        rate = len(states) / best
        print(f"{game_id:<16} {seats:>5} {rate:>12.2f} {rate * iterations:>13.0f}")


def ladder(registry: Registry, games: list[str], budgets: list[int], n: int) -> None:
    hooks = Hooks(registry.pm)
    print(f"ismcts's share of wins in {n} games per rung, its seat rotating")
    for game_id in games:
        game = registry.game(game_id)()
        seats = seats_for(game)
        for opponent in dict.fromkeys(["random", best_bot(registry, game_id)]):
            for budget in budgets:
                search = f"ismcts:iterations={budget}"
                spec = RunSpec.of(game, [search] + [opponent] * (seats - 1), rotate=True)
                started = time.perf_counter()
                wins = 0.0
                for result in play(registry, hooks, spec, range(n)):
                    winners = [s for s, place in enumerate(result.places) if place == 1]
                    wins += sum(result.seats[s] == search for s in winners) / len(winners)
                took = time.perf_counter() - started
                print(
                    f"{game_id:<16} {search:<22} vs {seats - 1} {opponent:<10} "
                    f"{wins / n:6.1%}  (fair share {1 / seats:.0%}, {took:.0f} s)",
                    flush=True,
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "ladder"])
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("--iterations", type=int, default=200, help="speed: iterations")
    parser.add_argument("--samples", type=int, default=3, help="speed: mid-game states per game")
    parser.add_argument("--repeat", type=int, default=3, help="speed: runs, the best kept")
    parser.add_argument("--budgets", default="25,100", help="ladder: comma-separated iterations")
    parser.add_argument("-n", type=int, default=40, help="ladder: games per rung")
    args = parser.parse_args(argv)
    registry = Registry(plugin_manager())
    games = args.games.split(",") if args.games else sorted(registry.games)
    if args.what == "speed":
        speed(registry, games, args.iterations, args.samples, args.repeat)
    else:
        budgets = [int(b) for b in args.budgets.split(",")]
        ladder(registry, games, budgets, args.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
