"""Card facts and the balance report: what --card-facts costs simulate, and what a report costs.

``python benchmarks/report.py speed`` runs ``meeple simulate`` (a fresh interpreter each,
``--workers`` of them, ``--jsonl``) with and without ``--card-facts``, side by side and
interleaved so that both see the same load, best of ``--repeat``: once with random bots in
every seat (the cheapest decisions, so the most the recording can cost) and once with the
game's own best bot (``bot``, what ``simulate`` plays by default). It prints games/s, the CPU
per game of the command and its workers, and what the facts add to each.

``python benchmarks/report.py instructions`` counts, under valgrind's callgrind, the
instructions of the same seeded games played in one interpreter with and without the card
facts' recorder (random bots, or the game's own best bot; ``--bot`` picks), less those of an
interpreter that plays only the ``--warm`` games before them (other seeds): on a shared
machine, where CPU time is noise, what the recording adds to a game once a process is under
way, as in a run of thousands. What the first games cost beyond (imports, what a game
object works out once) is the column "first games", with and without the facts.

``python benchmarks/report.py report`` writes a run of ``--games`` Clank! games (100,000 by
default; random bots, every core, ``--card-facts``) and says how long that took, unless
``--file`` names one already written; then times ``meeple report`` on its first tenth and on
all of it, each in a fresh interpreter, with its peak resident memory: a report that streams
its games keeps the memory flat as the games grow tenfold. It needs the report extra.

Figures depend on the machine and its load; nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from meeple.cli.app import make_app
from meeple.cli.arguments import best_bot
from meeple.core.engine import Hooks
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.runner import RunSpec, play_game

console = Console()
MEEPLE = [sys.executable, "-m", "meeple.cli"]


def children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def simulate(game: str, games: int, seats: str, workers: int, facts: bool) -> tuple[float, float]:
    """Games/s of one ``meeple simulate`` and its CPU ms per game (workers included)."""
    with tempfile.TemporaryDirectory() as folder:
        args = [*MEEPLE, "simulate", game, "-n", str(games), "--seats", seats, "--quiet"]
        args += ["--workers", str(workers), "--jsonl", str(Path(folder) / "run.jsonl")]
        args += ["--card-facts"] if facts else []
        cpu, start = children_cpu(), time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
    return games / elapsed, (children_cpu() - cpu) / games * 1000


def speed(game: str, games: int, repeat: int, workers: int) -> None:
    registry = Registry(plugin_manager())
    seats = registry.game(game).max_seats
    table = Table(title=f"meeple simulate {game} -n {games:,} -w {workers}, best of {repeat}")
    for column in ("bots", "card facts", "games/s", "CPU ms per game", "facts add (CPU)"):
        table.add_column(column, justify="left" if column == "bots" else "right")
    for bot in ("random", "bot"):
        runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _, facts in itertools.product(range(repeat), (False, True)):  # interleaved
            runs[facts].append(simulate(game, games, ",".join([bot] * seats), workers, facts))
        rate = {facts: max(r for r, _ in measured) for facts, measured in runs.items()}
        cpu = {facts: min(c for _, c in measured) for facts, measured in runs.items()}
        for facts in (False, True):
            added = f"{cpu[True] / cpu[False] - 1:+.1%}" if facts else ""
            name = f"{seats} {bot}" + (f" ({best_bot(registry, game)})" if bot == "bot" else "")
            table.add_row(name, "yes" if facts else "no", f"{rate[facts]:,.1f}",
                          f"{cpu[facts]:.2f}", added)  # fmt: skip
    console.print(table)
    console.print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


WARM_SEEDS = 1_000_000
"""Where the seeds of the games played before the measured ones start: not among theirs."""


def play(game: str, warm: int, games: int, bot: str, facts: bool) -> None:
    """Play ``warm`` games of other seeds, then ``games`` seeded games of ``game``, in this
    interpreter, recording card facts or not."""
    pm = plugin_manager()
    registry, hooks = Registry(pm), Hooks(pm)
    rules = registry.game(game)()
    spec = RunSpec.of(rules, [bot] * rules.max_seats, card_facts=facts)
    for seed in [*range(WARM_SEEDS, WARM_SEEDS + warm), *range(games)]:
        play_game(registry, hooks, rules, spec, seed)


def instructions(game: str, warm: int, games: int, bot: str, facts: bool) -> int:
    """Instructions callgrind counts in a fresh interpreter playing ``warm`` + ``games`` games."""
    args = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
    args += [__file__, "_play", game, str(warm), str(games), bot, "yes" if facts else "no"]
    same = {**os.environ, "PYTHONHASHSEED": "0"}  # the same string hashes, run after run
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=same).stderr
    found = re.search(r"Collected : (\d+)", out)
    assert found, out
    return int(found.group(1))


def counted(warm: int, games: int, only: list[str], bots: list[str]) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not installed (apt-get install valgrind)")
    registry = Registry(plugin_manager())
    title = f"instructions per game, {games} seeded games after {warm} others, callgrind"
    table = Table(title=title)
    for column in ("game", "bots", "without", "with card facts", "facts add", "first games"):
        table.add_column(column, justify="left" if column in ("game", "bots") else "right")
    for game in only or builtin(registry):
        idle = instructions(game, 0, 0, "random", False)
        for bot in [b if b != "bot" else best_bot(registry, game) for b in bots]:
            before = {f: instructions(game, warm, 0, bot, f) for f in (False, True)}
            runs = {f: instructions(game, warm, games, bot, f) for f in (False, True)}
            per = {f: (runs[f] - before[f]) / games for f in (False, True)}
            first = {f: (before[f] - idle) / 1e6 for f in (False, True)}
            table.add_row(game, f"{registry.game(game).max_seats} {bot}",
                          f"{per[False] / 1e6:.2f} M", f"{per[True] / 1e6:.2f} M",
                          f"{per[True] / per[False] - 1:+.1%}",
                          f"{first[False]:.1f} M, {first[True]:.1f} M")  # fmt: skip
    console.print(table)


def builtin(registry: Registry) -> list[str]:
    """The games meeple comes with, by id."""
    return sorted(g for g, cls in registry.games.items() if cls.__module__.startswith("meeple."))


def write_run(path: Path, games: int) -> float:
    """Seconds to write a run of ``games`` Clank! games with card facts to ``path``."""
    seats = ",".join(["random"] * 4)
    args = [*MEEPLE, "simulate", "clank", "-n", str(games), "--seats", seats]
    start = time.perf_counter()
    subprocess.run([*args, "--card-facts", "--quiet", "--jsonl", str(path)], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def first_games(path: Path, games: int, into: Path) -> Path:
    """A run file of the first ``games`` games of ``path``."""
    with path.open("rb") as source, into.open("wb") as target:
        target.writelines(itertools.islice(source, games + 1))
    return into


def measured(path: Path, page: Path) -> dict[str, float]:
    """Seconds and peak memory (MB) of ``meeple report`` on ``path``, in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, __file__, "_child", str(path), str(page)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def child(path: Path, page: Path) -> None:
    start = time.perf_counter()
    try:
        make_app()(["report", str(path), "-o", str(page), "--force"], prog_name="meeple")
    except SystemExit as exit_:
        if exit_.code:
            raise
    used = resource.getrusage(resource.RUSAGE_SELF)
    figures = {
        "seconds": time.perf_counter() - start,
        "cpu": used.ru_utime + used.ru_stime,  # the imports too: what a user waits for
        "peak_mb": used.ru_maxrss / 1024,  # KiB on Linux
    }
    print(json.dumps(figures))


def report(games: int, file: Path | None, keep: Path | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run = file or (keep or Path(folder)) / "clank-facts.jsonl"
        if file is None:
            seconds = write_run(run, games)
            console.print(
                f"wrote {games:,} Clank! games with card facts (4 random bots, every core) in "
                f"{seconds:,.0f} s, {run.stat().st_size / 1e6:,.0f} MB: {run}"
            )
        games = sum(1 for _ in run.open("rb")) - 1
        table = Table(title="meeple report on Clank! runs with card facts")
        for column in ("games", "file MB", "seconds", "CPU seconds", "peak memory MB"):
            table.add_column(column, justify="right")
        tenth = first_games(run, games // 10, Path(folder) / "tenth.jsonl")
        for path, n in ((tenth, games // 10), (run, games)):
            figures = measured(path, Path(folder) / "report.html")
            table.add_row(f"{n:,}", f"{path.stat().st_size / 1e6:,.0f}",
                          f"{figures['seconds']:.1f}", f"{figures['cpu']:.1f}",
                          f"{figures['peak_mb']:.0f}")  # fmt: skip
        console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="simulate with and without --card-facts")
    s.add_argument("--game", default="clank")
    s.add_argument("--games", type=int, default=400)
    s.add_argument("--repeat", type=int, default=3)
    s.add_argument("--workers", "-w", type=int, default=2)
    r = sub.add_parser("report", help="meeple report's time and memory, a tenth and all")
    r.add_argument("--games", type=int, default=100_000)
    r.add_argument("--file", type=Path, help="a Clank! run file with card facts to read")
    r.add_argument("--keep", type=Path, help="a folder to keep the run file written in")
    i = sub.add_parser("instructions", help="callgrind's count with and without card facts")
    i.add_argument("--games", type=int, default=30)
    i.add_argument("--warm", type=int, default=3, help="games played first, not counted")
    i.add_argument("--game", action="append", default=[], help="a game (default: each built-in)")
    i.add_argument(
        "--bot", action="append", default=[], help="random or bot (default: both, in turn)"
    )
    p = sub.add_parser("_play")  # seeded games in this interpreter, for callgrind
    p.add_argument("game")
    p.add_argument("warm", type=int)
    p.add_argument("n", type=int)
    p.add_argument("bot")
    p.add_argument("facts", choices=("yes", "no"))
    c = sub.add_parser("_child")  # one measured report, in its own interpreter
    c.add_argument("path", type=Path)
    c.add_argument("page", type=Path)
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.game, args.games, args.repeat, args.workers)
    elif args.what == "report":
        report(args.games, args.file, args.keep)
    elif args.what == "instructions":
        counted(args.warm, args.games, args.game, args.bot or ["random", "bot"])
    elif args.what == "_play":
        play(args.game, args.warm, args.n, args.bot, args.facts == "yes")
    else:
        child(args.path, args.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
