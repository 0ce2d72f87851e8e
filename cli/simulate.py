"""``meeple simulate``: many seeded bot games, summed up per seat and per bot.

Each finished game is written to ``--jsonl`` at once, so a run that is
interrupted (Ctrl-C: exit 130, with the summary of the games that finished) or
that fails keeps every game that finished.
"""

from __future__ import annotations

import contextlib
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from meeple.cli import common
from meeple.core.errors import MeepleError
from meeple.core.rng import SEED_MAX
from meeple.core.runner import GameResult, RunSpec, header_line, play, result_line

app = typer.Typer()


@app.command(context_settings=common.GAME_FLAGS)
def simulate(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games to play.")] = 100,
    seed: Annotated[
        int,
        typer.Option(min=0, max=SEED_MAX, help="Seed of the first game; game i uses seed + i."),
    ] = 0,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bots, one per seat (default: the most seats, all `bot`)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option, key=value.")
    ] = None,
    jsonl: Annotated[
        Path | None, typer.Option(help="Write one JSON line per game to this file.")
    ] = None,
    rotate: Annotated[
        bool,
        typer.Option(
            help="Rotate the seats: the game of seed s moves every bot s % seats seats on."
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play many seeded games between bots and sum up wins, scores and game length.

    A shared victory counts as 1/k of a win for each of the k winners. Any
    game option may also be given as a flag of its own: --board back.

    Example: meeple simulate clonk -n 1000 --seats greedy,random,random,random --jsonl out.jsonl
    """
    env = common.env(ctx)
    with common.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        names = common.parse_seats(
            registry, game_cls, seats or ",".join([common.BOT] * game_cls.max_seats)
        )
        if common.HUMAN in names:
            raise MeepleError("--seats: simulate plays bots only; use `meeple play` to join a game")
        flags = common.option_flags(ctx, game_cls)
        game = game_cls(common.parse_options(game_cls, [*(option or []), *flags]))
        if jsonl is not None:
            common.check_output(jsonl, "--jsonl")
        results: list[GameResult] = []
        interrupted = False
        started = time.perf_counter()
        out = common.err_console
        # Markup is escaped, not avoided: the bar's description column reads markup.
        title = escape(common.escaped(f"{game.title} games"))
        with (
            lines_to(jsonl) as sink,
            Progress(console=out, transient=True, disable=quiet or not out.is_terminal) as bar,
        ):
            task = bar.add_task(title, total=n)
            spec = RunSpec.of(game, names, rotate)
            if sink is not None:
                sink.write(header_line(spec))
                sink.flush()
            try:
                for result in play(registry, env.hooks, spec, range(seed, seed + n)):
                    # Written first: every game the summary counts is in the file.
                    if sink is not None:
                        sink.write(result_line(result))
                        sink.flush()
                    results.append(result)
                    bar.advance(task)
            except KeyboardInterrupt:
                interrupted = True
                kept = f"; {jsonl} holds their lines" if jsonl is not None and results else ""
                said = common.plain(f"interrupted after {len(results)} of {n} games{kept}")
                out.print(said, soft_wrap=True)
        elapsed = time.perf_counter() - started
    if results:
        summarize(game.title, names if not rotate else None, results, elapsed)
    if interrupted:
        raise typer.Exit(130)


@contextlib.contextmanager
def lines_to(path: Path | None) -> Iterator[IO[bytes] | None]:
    """The ``--jsonl`` file, emptied and open for one line per finished game (``None``: none)."""
    if path is None:
        yield None
        return
    try:
        sink = path.open("wb")
    except OSError as exc:
        raise MeepleError(f"--jsonl {path}: {exc.strerror or exc}") from None
    with sink:
        yield sink


def outcomes(results: list[GameResult], bots: list[str]) -> None:
    """How each bot's seats ended, from the notes a game writes on its scores (if any)."""
    counts: dict[str, dict[str, int]] = {bot: defaultdict(int) for bot in bots}
    for r in results:
        for score in r.scores:
            counts[r.seats[score.seat]][score.note or "-"] += 1
    notes = sorted({note for c in counts.values() for note in c} - {"-"})
    if not notes:
        return
    t = Table(title="outcomes by bot", caption="share of the bot's seats that ended so")
    t.add_column("bot")
    for note in notes:
        t.add_column(common.plain(note), justify="right")
    for bot in bots:
        seen = sum(counts[bot].values())
        t.add_row(common.plain(bot), *(f"{counts[bot][note] / seen:.1%}" for note in notes))
    common.console.print(t)


def _stats(values: Iterable[float]) -> tuple[str, str, str]:
    v = list(values)
    return f"{sum(v) / len(v):.2f}", f"{min(v):g}", f"{max(v):g}"


def summarize(
    title: str, names: list[str] | None, results: list[GameResult], elapsed: float
) -> None:
    """Print the per-seat, per-bot, outcome and game-length tables.

    ``names`` is the seating of every game, or ``None`` when seats rotated.
    """
    n = len(results)
    # Per player key: games played, win shares, and every score it had.
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    totals: dict[str, list[int]] = defaultdict(list)
    for r in results:
        firsts = r.places.count(1)
        for score, place in zip(r.scores, r.places, strict=True):
            for key in (f"seat {score.seat}", r.seats[score.seat]):
                played[key] += 1
                wins[key] += 1 / firsts if place == 1 else 0
                totals[key].append(score.total)

    def table(heading: str, rows: dict[str, str], label: str) -> Table:
        """``rows`` maps each player key to the label its row shows."""
        t = Table(
            title=common.plain(heading),
            caption="a shared victory counts 1/k for each of its k winners",
        )
        for column in (label, "games", "wins", "win rate", "mean score", "min", "max"):
            t.add_column(column, justify="left" if column == label else "right")
        for key, shown in rows.items():
            t.add_row(
                common.plain(shown),
                str(played[key]),
                f"{wins[key]:g}" if wins[key].is_integer() else f"{wins[key]:.2f}",
                f"{wins[key] / played[key]:.1%}",
                *_stats(totals[key]),
            )
        return t

    seats = len(results[0].seats)
    seat_rows = {f"seat {s}": f"{s} ({names[s]})" if names else str(s) for s in range(seats)}
    bots = sorted({name for r in results for name in r.seats})
    common.console.print(table(f"{title}: {n} games, by seat", seat_rows, "seat"))
    common.console.print(table("by bot", {name: name for name in bots}, "bot"))
    outcomes(results, bots)
    length = Table(title="game length")
    for column in ("", "mean", "min", "max"):
        length.add_column(column, justify="right")
    length.add_row("decisions", *_stats(r.decisions for r in results))
    length.add_row("rounds", *_stats(r.rounds for r in results))
    common.console.print(length)
    rate = n / elapsed if elapsed > 0 else float("inf")
    common.console.print(f"{n} games in {elapsed:.2f} s ({rate:,.0f} games/s)")
