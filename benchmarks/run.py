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
  digest, state checks): records/s (``python benchmarks/run.py validate
  --against PYTHON`` compares this figure with another meeple's: see its ``--help``);

then the process's peak memory (resident set size). ``--json`` prints the
same figures for machines. Figures depend on the machine; nothing here is
asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
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
from meeple.core.errors import MeepleError
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


def finished_matches(
    game: Game[Any, Any], seats: int, hooks: Hooks, samples: int = SAMPLES
) -> list[Match]:
    matches = []
    for seed in range(samples):
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
        records.Snapshot(setup=records.setup_of(game, ["random"] * seats, i), step=0, state=s)
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


def saved_records(
    game: Game[Any, Any], seats: int, matches: list[Match], folder: Path
) -> list[Path]:
    """Each finished match written as a record file in ``folder``."""
    paths = []
    for match in matches:
        setup = records.setup_of(game, ["random"] * seats, match.seed)
        record = records.record_of(match, setup)
        path = folder / f"{game.id}-{seats}-{match.seed}.json"
        records.write_atomic(path, records.encode(record))
        paths.append(path)
    return paths


def validated(
    paths: list[Path],
    registry: Registry,
    hooks: Hooks,
    budget: float,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Records/s of :func:`meeple.core.validate.check_file` on ``paths``, in turn."""
    saved = cycle(paths)

    def check(i: int) -> int:
        report = validate.check_file(saved(i), registry, hooks)
        if not report.ok:
            raise SystemExit(f"benchmark record failed validation: {report.problems}")
        return 0

    calls, _, elapsed = timed(budget, check, clock)
    return calls / elapsed


def validation(
    game: Game[Any, Any], seats: int, matches: list[Match], registry: Registry, hooks: Hooks,
    budget: float,
) -> dict[str, float]:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="meeple-bench-") as tmp:
        paths = saved_records(game, seats, matches, Path(tmp))
        return {"records_validated_per_s": validated(paths, registry, hooks, budget)}


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


VALIDATE_DOC = """Validation records/s of this meeple and of another, side by side.

``python benchmarks/run.py validate --against PYTHON`` measures
:func:`meeple.core.validate.check_file` on saved records of each game asked for
(``--games``, Clank! by default) at its smallest and largest table
(``--seats``), as the validation figure of ``benchmarks/run.py`` does, in two
processes: one runs this meeple, the other the meeple that the interpreter
PYTHON imports (``--against`` takes the interpreter or its virtualenv's folder).
To measure an older revision, check it out into a worktree of its own and
install it in a virtualenv of its own (``git worktree add /tmp/old REV``;
``python -m venv /tmp/old-venv``; ``/tmp/old-venv/bin/pip install -e
/tmp/old``).

Each side writes its records with its own code, from the same seeds (rules
versions differ between revisions, and a meeple reads only its own), and
validates each once before any is timed. The measurements alternate between the
sides for ``--rounds`` rounds, the side that goes first alternating too, so both
see the same load on the machine; each is ``--seconds`` of the process's CPU
time, which another user of the machine disturbs less than the time on the
clock. It prints each side's median records/s, their ratio, and each side's
decisions per record: a record's length weighs on its rate, and changes with the
rules.

``--instructions`` also counts, with callgrind (valgrind must be installed), the
instructions each side spends per validated record: a run that validates every
record once more than another (hash seed fixed), the difference divided by the
records. The count does not depend on the load, so it settles what a noisy
machine's times cannot.
"""

SIDES = ("baseline", "this")


def interpreter(against: str) -> str:
    """The Python executable ``--against`` names: itself, or a virtualenv folder's."""
    path = Path(against)
    if path.is_dir():
        path = path / "bin" / "python"
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise ValueError(f"--against: {against} is neither a Python interpreter nor a virtualenv")
    return str(path)


def cases_of(registry: Registry, wanted: list[str], seats: list[int] | None) -> list[list[Any]]:
    """The (game, seats) pairs to measure; ValueError names a seat count a game does not take."""
    cases = []
    for game_id in wanted:
        game = registry.game(game_id)
        for count in seats or seat_counts(game):
            if not game.min_seats <= count <= game.max_seats:
                raise ValueError(
                    f"--seats: {game.title} takes {game.min_seats}-{game.max_seats} seats"
                )
            cases.append([game_id, count])
    return cases


def case(game_id: str, seats: int) -> str:
    """How a case is named, in the figures and as its records' folder."""
    return f"{game_id}-{seats}"


def folder_of(root: Path, game_id: str, seats: int) -> Path:
    return root / case(game_id, seats)


def side_command(python: str, *args: object) -> list[str]:
    return [python, __file__, "_side", *map(str, args)]


def side_write(root: Path, cases: list[list[Any]], samples: int) -> None:
    """One side's records of each case, by its own code; prints its decisions per record."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    steps = {}
    for game_id, seats in cases:
        game = registry.game(game_id)()
        matches = finished_matches(game, seats, hooks, samples)
        folder = folder_of(root, game_id, seats)
        folder.mkdir(parents=True)
        paths = saved_records(game, seats, matches, folder)
        validated(paths, registry, hooks, 0.0)  # each is valid, by this side's own check
        steps[case(game_id, seats)] = sum(len(m.actions) for m in matches) / len(matches)
    print(json.dumps(steps), flush=True)


def side_serve(root: Path) -> None:
    """One side's measurements, one per request ``[game, seats, seconds]`` read from stdin:
    records/s in CPU time, on the records :func:`side_write` left in ``root``."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    warm: set[Path] = set()
    for line in sys.stdin:
        game_id, seats, seconds = json.loads(line)
        paths = sorted(folder_of(root, game_id, seats).glob("*.json"))
        if paths[0] not in warm:  # each game's caches filled before the first timing
            validated(paths, registry, hooks, 0.0)
            warm.add(paths[0])
        rate = validated(paths, registry, hooks, seconds, time.process_time)
        print(json.dumps(rate), flush=True)


def side_count(root: Path, game_id: str, seats: int, passes: int) -> None:
    """Every record of a case validated once, then ``passes`` more times: for callgrind."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    paths = sorted(folder_of(root, game_id, seats).glob("*.json"))
    for _ in range(1 + passes):
        for path in paths:
            if not validate.check_file(path, registry, hooks).ok:
                raise SystemExit(f"benchmark record failed validation: {path}")


def instructions(python: str, root: Path, game_id: str, seats: int) -> float:
    """Callgrind's instructions per validated record of one side (see ``--instructions``)."""

    def counted(passes: int) -> int:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                *side_command(python, "count", root, game_id, seats, passes),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # the same sets, in the same order
        )
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            raise SystemExit(f"no instruction count from callgrind:\n{run.stderr}")
        return int(found.group(1))

    saved = len(list(folder_of(root, game_id, seats).glob("*.json")))
    return (counted(1) - counted(0)) / saved


def side_by_side(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="run.py validate",
        description=VALIDATE_DOC.splitlines()[0],
        epilog=VALIDATE_DOC.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--against", required=True, metavar="PYTHON", help="the baseline's Python")
    parser.add_argument("--games", default="clank", help="comma-separated game ids (clank)")
    parser.add_argument("--seats", help="comma-separated seat counts (the smallest and largest)")
    parser.add_argument("--rounds", type=int, default=5, help="measurements of each side (5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of each (2)")
    parser.add_argument("--records", type=int, default=SAMPLES, help=f"per case ({SAMPLES})")
    parser.add_argument("--instructions", action="store_true", help="count with callgrind too")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.records < 1:
        parser.error("--seconds, --rounds and --records must be positive")
    registry = Registry(plugin_manager())
    wanted = [g.strip() for g in args.games.split(",") if g.strip()]
    try:
        for game_id in wanted:
            registry.game(game_id)
        seats = [int(n) for n in args.seats.split(",")] if args.seats else None
        cases = cases_of(registry, wanted, seats)
        pythons = {"baseline": interpreter(args.against), "this": sys.executable}
    except (ValueError, MeepleError) as exc:
        parser.error(str(exc))
    console = Console(stderr=True)
    with tempfile.TemporaryDirectory(prefix="meeple-bench-") as tmp:
        roots = {side: Path(tmp) / side for side in SIDES}
        steps = {}
        for side in SIDES:
            if not args.json:
                console.print(f"writing the records of {side} ({pythons[side]}) ...")
            out = subprocess.run(
                side_command(pythons[side], "write", roots[side], args.records, json.dumps(cases)),
                capture_output=True,
                text=True,
            )
            if out.returncode:
                raise SystemExit(
                    f"{side} ({pythons[side]}) could not write its records:\n{out.stderr.strip()}"
                )
            steps[side] = json.loads(out.stdout.splitlines()[-1])
        rates: dict[str, dict[str, list[float]]] = {side: {} for side in SIDES}
        servers = {
            side: subprocess.Popen(
                side_command(pythons[side], "serve", roots[side]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for side in SIDES
        }
        try:
            for round_ in range(args.rounds):
                if not args.json:
                    console.print(f"round {round_ + 1} of {args.rounds} ...")
                for game_id, count in cases:
                    order = SIDES if round_ % 2 == 0 else SIDES[::-1]
                    for side in order:
                        server = servers[side]
                        assert server.stdin is not None and server.stdout is not None
                        server.stdin.write(json.dumps([game_id, count, args.seconds]) + "\n")
                        server.stdin.flush()
                        answer = server.stdout.readline()
                        if not answer:
                            raise SystemExit(f"{side} ({pythons[side]}) stopped measuring")
                        rates[side].setdefault(case(game_id, count), []).append(json.loads(answer))
        finally:
            for server in servers.values():
                assert server.stdin is not None
                server.stdin.close()
                server.wait()
        rows = []
        for game_id, count in cases:
            key = case(game_id, count)
            row: dict[str, Any] = {"game": game_id, "seats": count}
            for side in SIDES:
                row[side] = {
                    "records_per_s": statistics.median(rates[side][key]),
                    "rounds": rates[side][key],
                    "decisions_per_record": steps[side][key],
                }
                if args.instructions:
                    if not args.json:
                        console.print(f"counting the instructions of {side}, {key} ...")
                    row[side]["instructions_per_record"] = instructions(
                        pythons[side], roots[side], game_id, count
                    )
            row["ratio"] = row["this"]["records_per_s"] / row["baseline"]["records_per_s"]
            rows.append(row)
    if args.json:
        print(
            json.dumps(
                {"python": pythons, "rounds": args.rounds, "seconds": args.seconds, "runs": rows}
            )
        )
    else:
        Console().print(side_by_side_table(rows, args))
    return 0


def side_by_side_table(rows: list[dict[str, Any]], args: argparse.Namespace) -> Table:
    out = Table(
        title="records validated/s in CPU time, this meeple and the baseline",
        caption=f"median of {args.rounds} interleaved rounds of {args.seconds:g} CPU s; "
        f"baseline: {args.against}",
    )
    for column in ("", "baseline", "this", "this / baseline"):
        out.add_column(column, justify="right")
    for row in rows:
        base, this = row["baseline"], row["this"]
        out.add_row(
            f"{row['game']}, {row['seats']} seats",
            f"{base['records_per_s']:,.1f}",
            f"{this['records_per_s']:,.1f}",
            f"{row['ratio']:.3f}",
        )
        out.add_row(
            "  decisions per record",
            f"{base['decisions_per_record']:,.1f}",
            f"{this['decisions_per_record']:,.1f}",
            "",
        )
        if "instructions_per_record" in this:
            base_ir, this_ir = base["instructions_per_record"], this["instructions_per_record"]
            out.add_row(
                "  instructions per record",
                f"{base_ir / 1e6:,.1f} M",
                f"{this_ir / 1e6:,.1f} M",
                f"{base_ir / this_ir:.3f} (fewer: higher)",
            )
    return out


def side(argv: list[str]) -> int:
    """What each side's own interpreter runs (see :func:`side_by_side`)."""
    what, root, *rest = argv
    if what == "write":
        side_write(Path(root), json.loads(rest[1]), int(rest[0]))
    elif what == "serve":
        side_serve(Path(root))
    else:
        side_count(Path(root), rest[0], int(rest[1]), int(rest[2]))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["validate"]:
        return side_by_side(argv[1:])
    if argv[:1] == ["_side"]:
        return side(argv[1:])
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
