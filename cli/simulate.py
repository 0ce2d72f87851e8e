"""``meeple simulate``: many seeded bot games, summed up per seat and per bot with intervals.

Games are played by ``--workers`` processes (by default and at most, one per core
this process may use; 1 plays them in this process), in chunks of seeds. ``--jsonl`` gets
a header line, then one line per game in seed order, each written as soon as
every earlier seed's is: the file is the same bytes for any number of workers,
and a run cut into seed ranges (``--seed``/``-n``) gives the same games.
The summary counts the games in the file, gathered as they are written, so
memory does not grow with the number of games.

- Ctrl-C stops the workers and exits 130 with the summary of the games written:
  every game finished before it, up to the first seed that was not (SIGTERM
  does the same and exits 143).
- A game that raises (or a worker process that dies) stops the run at the
  first failure in seed order: every game before it is written, and the error
  names the seed with a command that plays it alone. Exit code 1.
- ``--resume`` continues an interrupted run from its file: the same setup and
  seeds are checked, the games written are kept (a last line cut short is
  written again), and the rest are appended; the file ends up the same bytes
  as an uninterrupted run's.
- A run locks its ``--jsonl`` file: a second run on it is refused before it is touched.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Annotated, Any

import msgspec
import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from meeple.cli import arguments, environment, output, report, saving, signals
from meeple.cli.stats import check_game
from meeple.core import cluster
from meeple.core.errors import MeepleError, cut, cut_in
from meeple.core.files import open_file
from meeple.core.game import Game
from meeple.core.rng import SEED_MAX
from meeple.core.runner import (
    GameResult,
    Games,
    Processes,
    Resume,
    RunFailed,
    RunSpec,
    cpu_count,
    each,
    header_line,
    play,
    read_run,
    result_line,
    results,
)
from meeple.core.stats import Tally

if sys.platform != "win32":
    import fcntl

app = typer.Typer()

Workers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        help="Processes playing games: at most, and by default, one per core this process may "
        "use; 1 plays in this process.",
        show_default=False,
    ),
]
"""The ``--workers`` option of every command that plays many games."""

FirstSeed = Annotated[
    int, typer.Option(min=0, max=SEED_MAX, help="Seed of the first game; game i uses seed + i.")
]
Bots = Annotated[
    str | None,
    typer.Option(
        help="Comma-separated bots, one per seat, or levels (bot:hard); default: the most "
        "seats, all `bot`."
    ),
]
Rotate = Annotated[
    bool,
    typer.Option(help="Rotate the seats: the game of seed s moves every bot s % seats seats on."),
]
Force = Annotated[
    bool, typer.Option(help="Let --jsonl overwrite a file that is not a run of this game.")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
CardFacts = Annotated[
    bool,
    typer.Option(
        "--card-facts",
        help="Record each seat's card facts in the run file: the cards it acquired, played "
        "and owned at the end, and the round each first arrived (for `meeple report`).",
    ),
]
"""The ``--card-facts`` option of every command that writes run files (``--cards FILE`` is
every built-in game's own option: its card table)."""


@app.command(context_settings=arguments.GAME_FLAGS)
def simulate(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games to play.")] = 100,
    seed: FirstSeed = 0,
    seats: Bots = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option, key=value.")
    ] = None,
    jsonl: Annotated[
        Path | None,
        typer.Option(help="Write a header line, then one JSON line per game in seed order."),
    ] = None,
    rotate: Rotate = False,
    force: Force = False,
    workers: Workers = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the interrupted run in --jsonl (same setup and --seed): "
            "keep its games and append the rest of the -n.",
        ),
    ] = False,
    dask: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or `local` for one "
            'on this machine\'s cores (--workers of them). Needs pip install "meeple\\[dask]".',
        ),
    ] = None,
    card_facts: CardFacts = False,
    quiet: Quiet = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of tables.")
    ] = False,
) -> None:
    """Play many seeded games between bots and sum up wins, scores and game length.

    Every rate and mean comes with its 95% interval, and a test says whether
    the seats differ beyond noise. A shared victory counts as 1/k of a win for
    each of the k winners. Any game option may also be given as a flag of its
    own: --board back.

    Games are played on every core and written to --jsonl in seed order, the
    same bytes for any --workers. Ctrl-C keeps them; the same command with
    --resume finishes the run. With --card-facts each game's line also holds
    what each seat did with its cards, which `meeple report` turns into a
    balance report.

    Example: meeple simulate clonk -n 1000 --seats greedy,random,random,random --jsonl out.jsonl
    """
    if resume and jsonl is None:
        raise typer.BadParameter("--resume continues the run in a --jsonl file; name it")
    if card_facts and jsonl is None:
        raise typer.BadParameter("--card-facts records them in the run file; name it: --jsonl")
    env = environment.env(ctx)
    with output.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        names = arguments.parse_seats(
            registry, game_cls, seats or ",".join([arguments.BOT] * game_cls.max_seats)
        )
        if arguments.HUMAN in names:
            raise MeepleError("--seats: simulate plays bots only; use `meeple play` to join a game")
        flags = arguments.option_flags(ctx, game_cls)
        game = game_cls(arguments.parse_options(game_cls, [*(option or []), *flags]))
        # Options a game checks only at set-up (a start seat for this many seats) fail
        # here, in one line, rather than in a worker as the failure of a game.
        game.setup(len(names), seed)
        if jsonl is not None:
            check_jsonl(jsonl, game.id, force or resume)
        spec = RunSpec.of(game, names, rotate, card_facts)
        seeds = arguments.seed_range(seed, n)
        if dask is None or dask == cluster.LOCAL:  # a scheduler's workers are its own
            workers = local_workers(workers)
        # Joined before the file is emptied: a scheduler that does not answer costs nothing.
        on = joined(dask, workers) if dask is not None else contextlib.nullcontext()
        tally = Tally()
        stopped, failed, unwritten, term = False, None, None, signals.Terminable()
        with on as remote, lines_to([jsonl], resume) as [sink]:
            if sink is not None and resume:
                earlier = Resume(sink, spec, seeds, str(jsonl))
                for number, result in enumerate(earlier, 2):
                    check_game(spec, result, f"{jsonl}:{number}")
                    tally.add(result)
                if earlier.torn:
                    output.warn(f"--jsonl {jsonl}: its last line was cut short; playing it again")
            if sink is not None and sink.tell() == 0:
                append(sink, header_line(spec), str(jsonl))
            done = tally.games
            started = time.perf_counter()
            with progress(f"{game.title} games", n, done, quiet) as advance:

                def keep(result: GameResult) -> None:
                    # Written first: every game the summary counts is in the file.
                    if sink is not None:
                        append(sink, result_line(result), str(jsonl))
                    tally.add(result)
                    advance()

                try:
                    with term, players(env, workers or 1, remote) as played:
                        each(played(spec, seeds[done:]), keep)
                except KeyboardInterrupt:
                    stopped = True
                except RunFailed as exc:
                    failed = exc
                except Unwritten as exc:
                    unwritten = exc
            elapsed = time.perf_counter() - started
    if stopped:
        kept = f"; {jsonl} holds their lines" if jsonl is not None and tally.games else ""
        code = signals.interrupted(tally.games, n, "games", kept, terminated=term.terminated)
    if tally.games:
        report.show(game.title, tally.summary(), as_json)
        if tally.games > done and not as_json:  # the speed of the games played now
            report.speed(tally.games - done, elapsed)
    if unwritten is not None:
        output.fail(
            f"{unwritten}; the {tally.games} games before it are in {jsonl}: make room, "
            "then the same command with --resume continues the run"
        )
    if failed is not None:
        if (
            dask is None
            and workers == 1
            and os.environ.get("MEEPLE_DEBUG")
            and failed.__cause__ is not None
        ):
            raise failed.__cause__  # played in this process: the traceback is the game's
        kept = f"; the {tally.games} games before it are in {jsonl}" if jsonl else ""
        output.fail(f"{failed}{kept}\nplay it alone: {rerun(game_cls, spec, failed.seeds)}")
    if stopped:
        raise typer.Exit(code)


def local_workers(asked: int | None) -> int:
    """The worker processes of a run on this machine: ``asked``, or by default one per core this
    process may use, and never more. Games keep a core busy, so more workers would only share
    the cores, each costing an interpreter's start and memory; a warning says so."""
    cores = cpu_count()
    if asked is not None and asked > cores:
        output.warn(f"--workers {asked}: this process may use {cores} cores; playing on {cores}")
    return min(asked or cores, cores)


def joined(address: str, workers: int | None) -> cluster.Dask:
    """The Dask cluster at ``address`` (``local``: a new one of ``workers`` on this machine)."""
    try:
        return cluster.Dask(address, workers)
    except MeepleError as exc:
        raise MeepleError(f"--dask {cut(address)}: {cut_in(str(exc), address)}") from None


Player = Callable[[RunSpec, range], Games]
"""Plays a run's seeds and gives their games in seed order."""


@contextlib.contextmanager
def players(
    env: environment.Env, workers: int, remote: cluster.Dask | None = None
) -> Iterator[Player]:
    """What plays runs: the Dask cluster ``remote``, this process (one worker) or worker
    processes, shared by every run played inside the ``with``.

    Leaving early (Ctrl-C, a failure) stops the workers at once.
    """
    if remote is not None:
        yield lambda spec, seeds: results(spec, seeds, remote)
    elif workers == 1:
        yield lambda spec, seeds: play(env.registry, env.hooks, spec, seeds)
    else:
        with Processes(workers) as backend:
            yield lambda spec, seeds: results(spec, seeds, backend)


def rerun(game: type[Game[Any, Any]], spec: RunSpec, seeds: range) -> str:
    """The command that plays ``seeds`` of the run alone, in this process."""
    args = ["meeple", "simulate", spec.game, "--seed", str(seeds[0]), "-n", str(len(seeds))]
    args += ["--workers", "1", "--seats", ",".join(spec.bots)]
    args += ["--rotate"] if spec.rotate else []
    args += ["--card-facts", "--jsonl", "alone.jsonl"] if spec.card_facts is True else []
    defaults = msgspec.to_builtins(game.options_type())
    for key, value in spec.options.items():
        if value != defaults.get(key):
            text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
            args += ["-o", f"{key}={text}"]
    return "MEEPLE_DEBUG=1 " + shlex.join(args)


class _Pace(ProgressColumn):
    """The speed Rich measures over the last seconds, in games (see :func:`report.pace`)."""

    def render(self, task: Task) -> Text:
        return Text(report.pace(task.speed) if task.speed else "", style="progress.data.speed")


COLUMNS = (
    TextColumn("[progress.description]{task.description}"),
    BarColumn(),
    MofNCompleteColumn(),
    _Pace(),
    TimeRemainingColumn(),
)
"""The progress bar: games done of the run, their pace and the time left."""


@contextlib.contextmanager
def progress(title: str, total: int, done: int = 0, quiet: bool = False) -> Iterator[Advance]:
    """A progress bar of ``total`` games on standard error, ``done`` of them already; gives the
    call that counts one more. Off with ``quiet``, and where standard error is no terminal."""
    out = output.err_console
    with Progress(
        *COLUMNS, console=out, transient=True, disable=quiet or not out.is_terminal
    ) as bar:
        # Markup is escaped, not avoided: the bar's description column reads markup.
        task = bar.add_task(escape(output.escaped(title)), total=total, completed=done)
        yield functools.partial(bar.advance, task)


Advance = Callable[[], None]
"""Counts one more game on a :func:`progress` bar."""


def check_jsonl(path: Path, game_id: str, force: bool) -> None:
    """Raise :class:`MeepleError` unless a run may be written to ``path`` (before any game).

    The folder must take the file, and an existing file is overwritten only if
    it is a run file of the same game (running again replaces it; ``--resume``
    continues it) or with ``force``: any other file would be lost.
    """

    def game_of(path: Path) -> str | None:
        try:
            with open_file(path) as f:
                first = f.readline(MAX_HEADER_BYTES)
            return read_run([first], str(path))[0].game if first else game_id  # empty: a run's
        except MeepleError:
            return None

    saving.check_overwrite(path, "--jsonl", game_id, force, game_of, ("run", "run file"))


MAX_HEADER_BYTES = 1024 * 1024
"""Most bytes read of an existing ``--jsonl`` file's first line to tell whether it is a run's."""


@contextlib.contextmanager
def lines_to(
    paths: Sequence[Path | None], resume: bool = False
) -> Iterator[list[IO[bytes] | None]]:
    """The run files ``paths``, each open for one line per finished game (``None``: no file).

    Each is locked for this run (see :func:`run_file`) before any is emptied, so a run that
    finds one of them in use by another stops with every file as it was. They are emptied,
    unless ``resume`` keeps what they hold (read first, then written on); a file that does
    not exist is started.
    """
    with contextlib.ExitStack() as stack:
        sinks = [None if path is None else stack.enter_context(run_file(path)) for path in paths]
        if not resume:
            for sink in filter(None, sinks):
                sink.truncate()
        yield sinks


@contextlib.contextmanager
def run_file(path: Path) -> Iterator[IO[bytes]]:
    """The run file ``path``, created if missing, open to read and write from its start and
    locked: two runs writing one file would interleave their lines and lose games.

    The lock (``flock``, which the system drops when the process ends, however it ends) is
    taken without waiting: a file another run holds is refused at once, untouched. On
    Windows there is no ``flock``, and the file is not locked.
    """
    try:
        sink = open(os.open(path, os.O_RDWR | os.O_CREAT, 0o666), "r+b")  # noqa: SIM115
    except OSError as exc:
        raise MeepleError(f"--jsonl {path}: {exc.strerror or exc}") from None
    try:
        if sys.platform != "win32":
            try:
                fcntl.flock(sink.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise MeepleError(
                    f"--jsonl {path}: another run is writing this file; let it finish "
                    "(or stop it), or write to another file"
                ) from None
            except OSError as exc:  # a file system without locks (some network ones)
                raise MeepleError(
                    f"--jsonl {path}: cannot lock it ({exc.strerror or exc}), so another run "
                    "could write it at the same time; write to a file on a local disk"
                ) from None
        yield sink
    finally:
        # Every line is flushed as it is written: a close could only write a line that failed.
        with contextlib.suppress(OSError):
            sink.close()


class Unwritten(MeepleError):
    """A line the ``--jsonl`` file did not take (a full disk, a size limit)."""


def append(sink: IO[bytes], line: bytes, where: str) -> None:
    """Write one line to the ``--jsonl`` file named ``where``, through to the system."""
    try:
        sink.write(line)
        sink.flush()
    except OSError as exc:
        raise Unwritten(f"--jsonl {where}: cannot write ({exc.strerror or exc})") from None
