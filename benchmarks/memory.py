"""Peak memory of long simulations: ``python benchmarks/memory.py``.

For each game and number of games, a fresh process plays that many seeded
games between random bots as ``meeple simulate`` does (one game object for
the whole run, :func:`meeple.core.runner.play`), and reports its peak
resident set size. A process per figure keeps each peak its own. Every cache
a game or a bot fills while it plays is bounded, so the peak stays flat as
the run grows: 20,000 games should need no more than 1,000 (within 10%).
``--json`` prints the same figures for machines.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from meeple.core.engine import Hooks
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.runner import RunSpec, play

SIZES = [1000, 20000]


def peak_memory_mb() -> float:
    """Peak resident set size of this process so far (``ru_maxrss`` is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def run(game_id: str, games: int) -> dict[str, Any]:
    """Play ``games`` random games of ``game_id`` in this process, at its most seats."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    cls = registry.game(game_id)
    spec = RunSpec.of(cls(), ["random"] * cls.max_seats)
    started = time.perf_counter()
    for _ in play(registry, hooks, spec, range(games)):
        pass
    return {"seconds": time.perf_counter() - started, "peak_mb": peak_memory_mb()}


def measure(game_id: str, games: int) -> dict[str, Any]:
    """:func:`run` in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, "--play", game_id, str(games)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {"game": game_id, "games": games, **json.loads(out)}


def table(rows: list[dict[str, Any]]) -> Table:
    out = Table(
        title="peak memory of a simulation (random bots, most seats)",
        caption="each figure from a fresh process; growth: against the smallest run of the game",
    )
    for column in ("game", "games", "seconds", "peak RSS (MB)", "growth"):
        out.add_column(column, justify="left" if column == "game" else "right")
    first: dict[str, float] = {}
    for row in rows:
        base = first.setdefault(row["game"], row["peak_mb"])
        out.add_row(
            row["game"],
            f"{row['games']:,}",
            f"{row['seconds']:,.1f}",
            f"{row['peak_mb']:,.1f}",
            f"{row['peak_mb'] / base - 1:+.1%}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated game ids (default: every registered game)")
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, SIZES)),
        help="comma-separated numbers of games, each run in a fresh process (default 1000,20000)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--play", nargs=2, metavar=("GAME", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        print(json.dumps(run(args.play[0], int(args.play[1]))))
        return 0
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",")})
    except ValueError:
        parser.error(f"--sizes: not a list of numbers: {args.sizes!r}")
    if not sizes or sizes[0] < 1:
        parser.error("--sizes: each number of games must be at least 1")
    registry = Registry(plugin_manager())
    wanted = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    for game_id in wanted or ():
        if game_id not in registry.games:
            parser.error(
                f"no game {game_id!r} is installed (installed: {', '.join(registry.games)})"
            )
    console = Console(stderr=True)
    rows = []
    for game_id in wanted or sorted(registry.games):
        for games in sizes:
            if not args.json:
                console.print(f"playing {games:,} games of {game_id} ...")
            rows.append(measure(game_id, games))
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "runs": rows}))
    else:
        Console().print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
