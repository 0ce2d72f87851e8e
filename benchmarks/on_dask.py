"""Games/s on a Dask LocalCluster against one process: ``python benchmarks/on_dask.py``.

Plays the same seeds of a game between random bots (Clank!, 4 seats, by
default) in this process, as ``meeple simulate`` plays without workers, and on
a LocalCluster of ``--workers`` worker processes, as ``--dask local`` does
(:mod:`meeple.core.cluster`), and reports games/s and the speed-up, each the
best of ``--repeat`` runs taken in turns. The cluster is started (and its
workers load the plugins) before the clock starts: its start-up time is
reported on its own. Needs the dask extra (``pip install "meeple[dask]"``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

from meeple.core import cluster
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.runner import GameResult, RunSpec, play


def rate(games: int, run: Callable[[], Iterable[GameResult]]) -> float:
    """The games/s of one run (which must give ``games`` games)."""
    started = time.perf_counter()
    played = sum(1 for _ in run())
    if played != games:
        raise SystemExit(f"a run gave {played} games, not {games}")
    return played / (time.perf_counter() - started)


def measure(game_id: str, games: int, workers: int, repeat: int) -> dict[str, Any]:
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    cls = registry.game(game_id)
    spec = RunSpec.of(cls(), ["random"] * cls.max_seats)
    seeds = range(games)
    started = time.perf_counter()
    with cluster.Dask(cluster.LOCAL, workers) as local:
        for _ in cluster.results(spec, range(workers), local, chunk=1):
            pass  # every worker loads the plugins
        startup = time.perf_counter() - started
        # Taken in turns, so that a change in the machine's load weighs on both alike.
        alone, spread = [], []
        for _ in range(repeat):
            alone.append(rate(games, lambda: play(registry, hooks, spec, seeds)))
            spread.append(rate(games, lambda: cluster.results(spec, seeds, local)))
    return {
        "game": game_id,
        "seats": cls.max_seats,
        "games": games,
        "workers": workers,
        "one_process_games_per_s": max(alone),
        "dask_games_per_s": max(spread),
        "speedup": max(spread) / max(alone),
        "cluster_startup_s": startup,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clank", help="game id (default: clank)")
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept (3)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if min(args.games, args.workers, args.repeat) < 1:
        parser.error("--games, --workers and --repeat must be at least 1")
    row = measure(args.game, args.games, args.workers, args.repeat)
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], **row}))
        return 0
    out = Table(
        title=f"{row['game']}, {row['seats']} random seats, {row['games']:,} games",
        caption=f"best of {args.repeat}; cluster start-up {row['cluster_startup_s']:.1f} s",
    )
    for column in ("", "games/s", "speed-up"):
        out.add_column(column, justify="right")
    out.add_row("one process", f"{row['one_process_games_per_s']:,.1f}", "1.00x")
    out.add_row(
        f"Dask LocalCluster, {row['workers']} workers",
        f"{row['dask_games_per_s']:,.1f}",
        f"{row['speedup']:.2f}x",
    )
    Console().print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
