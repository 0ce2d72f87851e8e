"""Speed and memory of every registered game: ``python benchmarks/run.py``.

For each game and seat count (Clonk! with 2 and 4 seats; any other game with
its smallest and largest table) it measures, each for about ``--seconds``:

- random self-play through :meth:`Match.run` (legal actions, a random bot's
  choice, the checked apply): decisions/s and games/s;
- :meth:`Game.clone` of mid-game states: clones/s;
- :meth:`Game.view` of mid-game states, for every seat and the onlooker: views/s;
- deals of the mover's view of mid-game states, many from each view as a search makes
  them (:meth:`Game.dealer`): deals/s;
- snapshot files of mid-game states (:mod:`meeple.core.records`, JSON):
  encode and strict decode, MB/s;
- :func:`meeple.core.validate.check_file` on saved records (decode, replay,
  digest, state checks): records/s;

then the process's peak memory (resident set size). ``--json`` prints the
same figures for machines. Figures depend on the machine; nothing here is
asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from meeple.core import records, validate
from meeple.core.bots import RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.game import Game
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream, bot_stream
from meeple.core.state import State

SAMPLES = 16
"""Finished games whose midpoints (and records) every figure but self-play is measured on."""


def seat_counts(game: type[Game[Any, Any]]) -> list[int]:
    """The table sizes to measure: the smallest and the largest (2 and 4 for Clonk!)."""
    return sorted({game.min_seats, game.max_seats})


def players(game: Game[Any, Any], seats: int, seed: int) -> list[RandomBot]:
    return [RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)]


def timed(
    budget: float, work: Callable[[int], int], clock: Callable[[], float] = time.perf_counter
) -> tuple[int, int, float]:
    """Call ``work(i)`` for i = 0, 1, ... until ``budget`` seconds of ``clock`` pass.

    Returns the calls made, the sum of what they returned, and the seconds taken.
    """
    calls = total = 0
    start = clock()
    elapsed = 0.0
    while elapsed < budget or calls == 0:
        total += work(calls)
        calls += 1
        elapsed = clock() - start
    return calls, total, elapsed


def self_play(
    game: Game[Any, Any],
    seats: int,
    hooks: Hooks,
    budget: float,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    def one_game(seed: int) -> int:
        match = Match.new(game, seats, seed, hooks)
        match.run(players(game, seats, seed))
        return len(match.actions)

    games, decisions, elapsed = timed(budget, one_game, clock)
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed}


def finished_matches(game: Game[Any, Any], seats: int, hooks: Hooks) -> list[Match]:
    matches = []
    for seed in range(SAMPLES):
        match = Match.new(game, seats, seed, hooks)
        match.run(players(game, seats, seed))
        matches.append(match)
    return matches


def midpoint(game: Game[Any, Any], match: Match, hooks: Hooks) -> State:
    """The state halfway through a finished match, by replaying its first half."""
    again = Match.new(game, match.state.seats, match.seed, hooks)
    for action in match.actions[: len(match.actions) // 2]:
        again.step(action)
    return again.state


def setup_of(game: Game[Any, Any], seats: int, seed: int) -> records.Setup[Any]:
    return records.Setup(
        game=game.id,
        version=game.version,
        seats=["random"] * seats,
        seed=seed,
        options=game.options,
    )


def cycle(items: list[Any]) -> Callable[[int], Any]:
    return lambda i: items[i % len(items)]


def clones(game: Game[Any, Any], states: list[State], budget: float) -> dict[str, float]:
    pick = cycle(states)
    calls, _, elapsed = timed(budget, lambda i: game.clone(pick(i)) and 0)
    return {"clones_per_s": calls / elapsed}


def views(game: Game[Any, Any], states: list[State], budget: float) -> dict[str, float]:
    pick = cycle([(s, seat) for s in states for seat in (None, *range(s.seats))])
    calls, _, elapsed = timed(budget, lambda i: game.view(*pick(i)) and 0)
    return {"views_per_s": calls / elapsed}


def deals(game: Game[Any, Any], states: list[State], budget: float) -> dict[str, float]:
    dealers = [game.dealer(game.view(s, s.to_move)) for s in states if s.stack]
    pick, stream = cycle(dealers), Stream("bench/deals")
    calls, _, elapsed = timed(budget, lambda i: pick(i)(stream) and 0)
    return {"deals_per_s": calls / elapsed}


def snapshots(
    game: Game[Any, Any], seats: int, states: list[State], budget: float
) -> dict[str, float]:
    snaps = [
        records.Snapshot(setup=setup_of(game, seats, i), step=0, state=s)
        for i, s in enumerate(states)
    ]
    blobs = [records.encode(s) for s in snaps]
    sizes = [len(b) for b in blobs]
    snap, blob, size = cycle(snaps), cycle(blobs), cycle(sizes)
    _, encoded, enc_s = timed(budget, lambda i: len(records.encode(snap(i))))

    def decode(i: int) -> int:
        records.decode(blob(i), type(game), records.SNAPSHOT, "<bench>")
        return int(size(i))

    _, decoded, dec_s = timed(budget, decode)
    return {
        "snapshot_kb": sum(sizes) / len(sizes) / 1000,
        "encode_mb_per_s": encoded / enc_s / 1e6,
        "decode_mb_per_s": decoded / dec_s / 1e6,
    }


def validation(
    game: Game[Any, Any], seats: int, matches: list[Match], registry: Registry, hooks: Hooks,
    budget: float,
) -> dict[str, float]:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="meeple-bench-") as tmp:
        paths = []
        for match in matches:
            record = records.Record(
                setup=setup_of(game, seats, match.seed),
                actions=match.actions,
                over=match.over,
                digest=game.digest(match.state),
                scores=match.scores(),
            )
            path = Path(tmp) / f"{game.id}-{seats}-{match.seed}.json"
            records.write_atomic(path, records.encode(record))
            paths.append(path)
        saved = cycle(paths)

        def check(i: int) -> int:
            report = validate.check_file(saved(i), registry, hooks)
            if not report.ok:
                raise SystemExit(f"benchmark record failed validation: {report.problems}")
            return 0

        calls, _, elapsed = timed(budget, check)
    return {"records_validated_per_s": calls / elapsed}


def measure(
    registry: Registry, hooks: Hooks, game_id: str, seats: int, budget: float
) -> dict[str, Any]:
    game = registry.game(game_id)()
    matches = finished_matches(game, seats, hooks)
    states = [midpoint(game, m, hooks) for m in matches]
    row: dict[str, Any] = {"game": game_id, "seats": seats}
    row["decisions_per_game"] = sum(len(m.actions) for m in matches) / len(matches)
    row |= self_play(game, seats, hooks, budget)
    row |= clones(game, states, budget)
    row |= views(game, states, budget)
    row |= deals(game, states, budget)
    row |= snapshots(game, seats, states, budget)
    row |= validation(game, seats, matches, registry, hooks, budget)
    return row


def peak_memory_mb() -> float:
    """Peak resident set size of this process so far (``ru_maxrss`` is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def command_line(
    doc: str, seconds: float, argv: list[str] | None
) -> tuple[argparse.ArgumentParser, argparse.Namespace, Registry, Hooks, list[str] | None]:
    """The options every benchmark script takes (``--games``, ``--seconds``, ``--json``),
    parsed and checked: the parser, its answers, the plugins, and the games asked for
    (None: every game), each checked to be installed."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", help="comma-separated game ids (default: every registered game)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=seconds,
        help=f"time budget of each measurement (default {seconds:g})",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    pm = plugin_manager()
    registry = Registry(pm)
    wanted = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    for game_id in wanted or ():
        if game_id not in registry.games:
            parser.error(
                f"no game {game_id!r} is installed (installed: {', '.join(registry.games)})"
            )
    return parser, args, registry, Hooks(pm), wanted


def measure_each(
    measure: Callable[[Registry, Hooks, str, int, float], dict[str, Any]],
    registry: Registry,
    hooks: Hooks,
    wanted: list[str] | None,
    args: argparse.Namespace,
    console: Console,
) -> list[dict[str, Any]]:
    """``measure`` of each game asked for (all by default) at each of its seat counts, for
    ``--seconds``; on the console, which is being measured (unless ``--json``)."""
    rows = []
    for game_id in wanted or sorted(registry.games):
        for seats in seat_counts(registry.game(game_id)):
            if not args.json:
                console.print(f"measuring {game_id} with {seats} seats ...")
            rows.append(measure(registry, hooks, game_id, seats, args.seconds))
    return rows


METRICS = [
    ("decisions per game", "decisions_per_game", "{:,.0f}"),
    ("self-play decisions/s", "decisions_per_s", "{:,.0f}"),
    ("self-play games/s", "games_per_s", "{:,.1f}"),
    ("clones/s (mid-game)", "clones_per_s", "{:,.0f}"),
    ("views/s (mid-game, every seat)", "views_per_s", "{:,.0f}"),
    ("deals/s (mid-game, mover's view)", "deals_per_s", "{:,.0f}"),
    ("snapshot size (KB)", "snapshot_kb", "{:,.1f}"),
    ("snapshot encode MB/s", "encode_mb_per_s", "{:,.1f}"),
    ("snapshot decode MB/s", "decode_mb_per_s", "{:,.1f}"),
    ("records validated/s", "records_validated_per_s", "{:,.1f}"),
]


def table(rows: list[dict[str, Any]], peak: float) -> Table:
    """One column per game and seat count, one row per figure (fits a terminal)."""
    out = Table(title="meeple benchmark", caption=f"peak memory (RSS): {peak:,.0f} MB")
    out.add_column("")
    for row in rows:
        out.add_column(f"{row['game']}, {row['seats']} seats", justify="right")
    for title, key, fmt in METRICS:
        out.add_row(title, *(fmt.format(row[key]) for row in rows))
    return out


def main(argv: list[str] | None = None) -> int:
    _, args, registry, hooks, wanted = command_line(__doc__, 1.0, argv)
    rows = measure_each(measure, registry, hooks, wanted, args, Console(stderr=True))
    peak = peak_memory_mb()
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "peak_memory_mb": peak, "runs": rows}))
    else:
        Console().print(table(rows, peak))
    return 0


if __name__ == "__main__":
    sys.exit(main())
