"""``meeple simulate``: many seeded bot games, summed up per seat and per bot with intervals.

Each finished game is written to ``--jsonl`` at once, so a run that is
interrupted (Ctrl-C: exit 130, with the summary of the games that finished) or
that fails keeps every game that finished.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.markup import escape
from rich.progress import Progress

from meeple.cli import common, report
from meeple.core import cluster
from meeple.core.errors import MeepleError
from meeple.core.rng import SEED_MAX
from meeple.core.runner import RunSpec, header_line, play, result_line
from meeple.core.stats import Tally

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
    dask: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or `local` for one "
            'on this machine\'s cores. Needs pip install "meeple[dask]".',
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of tables.")
    ] = False,
) -> None:
    """Play many seeded games between bots and sum up wins, scores and game length.

    Every rate and mean comes with its 95% interval, and a test says whether
    the seats differ beyond noise. A shared victory counts as 1/k of a win for
    each of the k winners. Any game option may also be given as a flag of its
    own: --board back.

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
        # Joined before the file is emptied: a scheduler that does not answer costs nothing.
        on = joined(dask) if dask is not None else contextlib.nullcontext()
        tally = Tally()
        interrupted = False
        started = time.perf_counter()
        out = common.err_console
        # Markup is escaped, not avoided: the bar's description column reads markup.
        title = escape(common.escaped(f"{game.title} games"))
        with (
            on as remote,
            lines_to(jsonl) as sink,
            Progress(console=out, transient=True, disable=quiet or not out.is_terminal) as bar,
        ):
            task = bar.add_task(title, total=n)
            spec = RunSpec.of(game, names, rotate)
            if sink is not None:
                sink.write(header_line(spec))
                sink.flush()
            seeds = range(seed, seed + n)
            games = (
                play(registry, env.hooks, spec, seeds)
                if remote is None
                else cluster.results(spec, seeds, remote)
            )
            try:
                for result in games:
                    # Written first: every game the summary counts is in the file.
                    if sink is not None:
                        sink.write(result_line(result))
                        sink.flush()
                    tally.add(result)
                    bar.advance(task)
            except KeyboardInterrupt:
                interrupted = True
                kept = f"; {jsonl} holds their lines" if jsonl is not None and tally.games else ""
                said = common.plain(f"interrupted after {tally.games} of {n} games{kept}")
                out.print(said, soft_wrap=True)
        elapsed = time.perf_counter() - started
    if tally.games:
        report.show(game.title, tally.summary(), as_json, elapsed)
    if interrupted:
        raise typer.Exit(130)


def joined(address: str) -> cluster.Dask:
    """The Dask cluster at ``address`` (``local``: a new one on this machine)."""
    try:
        return cluster.Dask(address)
    except MeepleError as exc:
        raise MeepleError(f"--dask {address}: {exc}") from None


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
