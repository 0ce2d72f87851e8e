"""Parallel simulation: games/s by number of workers, and peak memory by number of games.

``python benchmarks/simulate.py speed`` plays Clank! with 4 random seats
(``--game``, ``--games``) in this process (``--workers 1``) and with 2 worker
processes (``--dask``: and on a Dask LocalCluster of 2 workers, which needs the
dask extra), best of ``--repeat`` runs each, and prints games/s and the speed-up.
The time includes starting the workers, as a user of ``meeple simulate`` waits
for it; the runs alternate, so that both see the same load, and the CPU time
per game (workers included) shows what the parallel path costs beyond the games.

``python benchmarks/simulate.py memory`` runs ``meeple simulate`` with
``--jsonl`` once per game and size (1,000 and 20,000 games by default), each
in a fresh interpreter, and prints the peak resident memory (``ru_maxrss``)
of the command and of its largest worker. A run that streams its games keeps
both flat as the number of games grows.

Figures depend on the machine and its load; nothing here is asserted by the
test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.cli.app import make_app
from meeple.core import cluster
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.runner import Processes, RunSpec, play, results

console = Console()


def cpu_seconds() -> float:
    """CPU time of this process and of its children that ended (the workers of a run)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


ONE, TWO, DASK = "1 process", "2 workers", "Dask, 2 workers"


def one_run(spec: RunSpec, games: int, how: str) -> tuple[float, float]:
    """Games/s of one run of ``games`` seeds as ``meeple simulate`` plays them ``how``,
    and the CPU milliseconds it spent per game (local workers included)."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    seeds = range(games)
    cpu, start = cpu_seconds(), time.perf_counter()
    if how == ONE:
        count = sum(1 for _ in play(registry, hooks, spec, seeds))
    else:
        with Processes(2) if how == TWO else cluster.Dask(cluster.LOCAL, 2) as backend:
            count = sum(1 for _ in results(spec, seeds, backend))
    elapsed = time.perf_counter() - start
    return count / elapsed, (cpu_seconds() - cpu) / count * 1000


def speed(game_id: str, games: int, repeat: int, dask: bool) -> None:
    registry = Registry(plugin_manager())
    game = registry.game(game_id)()
    spec = RunSpec.of(game, ["random"] * game.max_seats)
    runs: dict[str, list[tuple[float, float]]] = {ONE: [], TWO: [], **({DASK: []} if dask else {})}
    for _ in range(repeat):  # interleaved, so that all see the same load on the machine
        for how, measured in runs.items():
            measured.append(one_run(spec, games, how))
    best = {how: max(measured) for how, measured in runs.items()}
    table = Table(title=f"{game.title}, {game.max_seats} random seats, {games} games")
    for column in ("played by", f"games/s (best of {repeat})", "CPU ms per game", "speed-up"):
        table.add_column(column, justify="right")
    for how, (rate, cpu) in best.items():
        table.add_row(how, f"{rate:,.1f}", f"{cpu:.1f}", f"{rate / best[ONE][0]:.2f}x")
    console.print(table)
    console.print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def peak(game_id: str, games: int, workers: int) -> dict[str, float]:
    """Peak memory (MB) of ``meeple simulate`` and its largest worker, in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, __file__, "_child", game_id, str(games), str(workers)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def child(game_id: str, games: int, workers: int) -> None:
    registry = Registry(plugin_manager())
    seats = ",".join(["random"] * registry.game(game_id).max_seats)
    with tempfile.TemporaryDirectory() as folder:
        args = ["simulate", game_id, "-n", str(games), "--seats", seats, "--quiet"]
        args += ["--workers", str(workers), "--jsonl", str(Path(folder) / "run.jsonl")]
        try:
            make_app()(args, prog_name="meeple")
        except SystemExit as exit_:
            if exit_.code:
                raise
    mb = 1024  # ru_maxrss is in KiB on Linux
    figures = {
        "command_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / mb,
        "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / mb,
    }
    print(json.dumps(figures))


def memory(game_ids: list[str], sizes: list[int], workers: int) -> None:
    table = Table(title=f"peak memory of `meeple simulate --workers {workers}`, MB")
    for column in ("game", "games", "command", "largest worker"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game_id in game_ids:
        for games in sizes:
            figures = peak(game_id, games, workers)
            table.add_row(
                game_id, f"{games:,}", f"{figures['command_mb']:.1f}", f"{figures['worker_mb']:.1f}"
            )
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="games/s with 1 and 2 workers")
    s.add_argument("--game", default="clank")
    s.add_argument("--games", type=int, default=2000)
    s.add_argument("--repeat", type=int, default=3)
    s.add_argument("--dask", action="store_true", help="also a Dask LocalCluster (dask extra)")
    m = sub.add_parser("memory", help="peak memory by number of games")
    m.add_argument("--games", help="comma-separated game ids (default: every installed game)")
    m.add_argument("--sizes", default="1000,20000", help="comma-separated numbers of games")
    m.add_argument("--workers", type=int, default=2)
    c = sub.add_parser("_child")  # one measured run, in its own interpreter
    c.add_argument("game")
    c.add_argument("n", type=int)
    c.add_argument("workers", type=int)
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.game, args.games, args.repeat, args.dask)
    elif args.what == "memory":
        game_ids = args.games.split(",") if args.games else sorted(Registry(plugin_manager()).games)
        memory(game_ids, [int(size) for size in args.sizes.split(",")], args.workers)
    else:
        child(args.game, args.n, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
