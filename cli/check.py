"""``meeple check``: the conformance suite of :mod:`meeple.core.testing` on one game.

Each declared variant (or the options given) gets ``-n`` seeded random
playthroughs, every contract checked after every decision; the first
``--views`` of them also check every seat's view at every step (the slow check).
Each step of a game is bounded in time (``--step-timeout``): a rule that never returns
fails its game, naming the step and where it was stopped, instead of hanging the check.
The same games are then played again in two fresh interpreters with
different ``PYTHONHASHSEED`` values, which must agree on every event and
final digest: a game that iterates a set or hashes a string into its
rules would not. Where they part, both play that game again step by step to
name the first decision, and the part of the state or events, that differs.
Running this module plays those games (see :func:`worker` and :func:`steps`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import reprlib
import shlex
import signal
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Table

from meeple.cli import common
from meeple.core import Action, Event, testing
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import SEED_MAX, Stream

app = typer.Typer()

PLAY = "play"
VIEWS = "check_view"
DETERMINISM = "determinism"
CHECKS = {
    "check_state": "the state passes its checks after every decision",
    "check_round_trip": "a snapshot decodes to the same state",
    "check_clone": "a clone is independent of its state",
    VIEWS: "views and the actions offered leak no hidden card; views determinize "
    "(the first --views games)",
    "check_changes": "every offered action changes the state or is a declared pass",
    "check_legal": "the legal actions offered are distinct",
    "check_scores": "one score per seat, each the sum of its parts",
    "check_replay": "the record replays to the same digest",
    PLAY: "the game ends, offers an action to the seat to move, and never raises",
    DETERMINISM: "two interpreters with different PYTHONHASHSEED play the same games",
}
"""Each check, by the :mod:`~meeple.core.testing` function that makes it, and what it asks."""
HASH_SEEDS = ("1", "2")
STEP_TIMEOUT = 60.0
"""Seconds one step of a checked game may take by default: ample for any real rule."""


class Seeded(msgspec.Struct, array_like=True):
    """One seeded random game: its variant's options, seat count, seed, and whether the
    views are checked (a worker ignores that)."""

    variant: dict[str, Any]
    seats: int
    seed: int
    views: bool = False


class Failure(msgspec.Struct, kw_only=True):
    """A broken check, with what it takes to reproduce it."""

    check: str
    variant: dict[str, Any]
    seats: int
    seed: int
    step: int | None
    """The decision it broke at (``None``: after the game, or not known)."""
    message: str
    rerun: str


class Row(msgspec.Struct, kw_only=True):
    check: str
    description: str
    checked: int
    """Games the check is made in: every game, but only the first ``--views`` for the views."""
    passed: int
    """Games in which the check held throughout."""
    failed: int


class Report(msgspec.Struct, kw_only=True):
    """What ``--json`` prints."""

    game: str
    ok: bool
    games: int
    decisions: int
    """Decisions played by the games that passed, every check made after each."""
    decisions_per_second: float | None
    """Random play without the checks, in the interpreters that test determinism."""
    checks: list[Row]
    failures: list[Failure]


class Played(msgspec.Struct, array_like=True):
    """A worker's answer for one game: a digest of its actions, events and final state, its
    length, the error that stopped it if any, and whether that was the step timeout."""

    digest: str
    decisions: int
    error: str | None
    overran: bool = False


class Step(msgspec.Struct, array_like=True):
    """One line of :func:`steps`: a decision, its events and the state it leaves (no action
    for the setup), or the error that stopped the game."""

    action: Any = None
    events: list[Any] = []
    state: Any = None
    error: str | None = None


@app.command(context_settings=common.GAME_FLAGS)
def check(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    n: Annotated[
        int, typer.Option("-n", "--games", min=1, help="Random playthroughs per variant.")
    ] = 2,
    seed: Annotated[
        int,
        typer.Option(min=0, max=SEED_MAX, help="Seed of each variant's first game; then seed + i."),
    ] = 0,
    seats: Annotated[
        int | None, typer.Option(min=1, help="Play this seat count only (default: each in turn).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="Game option, key=value: check these instead of the variants."
        ),
    ] = None,
    views: Annotated[
        int,
        typer.Option(
            min=0, help="Games that also check every seat's view at every step (the slow check)."
        ),
    ] = 1,
    step_timeout: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a step of a game may take before that game fails (0: no bound).",
        ),
    ] = STEP_TIMEOUT,
    json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Run the conformance suite on a game: random playthroughs, determinism, speed.

    Each variant the game declares plays -n seeded games of random legal
    actions, every contract checked after every decision (and every seat's
    view, in the first --views games); the same games must then play
    identically in two interpreters with different PYTHONHASHSEED. A step that
    takes longer than --step-timeout fails its game. Exit code 1 when any check
    fails: each failure names its variant, seats, seed and step, and the
    command that reruns it.

    Example: meeple check clank -n 5 --seed 100
    """
    env = common.env(ctx)
    with common.errors():
        game_cls = env.registry.game(game_id)
        flags = common.option_flags(ctx, game_cls)
        counts = list(range(game_cls.min_seats, game_cls.max_seats + 1))
        if seats is not None and seats not in counts:
            common.fail(f"--seats {seats}: {game_cls.title} takes {counts[0]}-{counts[-1]}", 2)
        common.seed_range(seed, n)  # every seed one a file can hold
        variants = [dict(v) for v in game_cls.variants]
        if option or flags:
            chosen = common.parse_options(game_cls, [*(option or []), *flags])
            default = msgspec.to_builtins(game_cls.options_type())
            variants = [{k: v for k, v in msgspec.to_builtins(chosen).items() if v != default[k]}]
    counts = [seats] if seats is not None else counts
    # Seat counts turn over games and variants, so that -n 1 covers several; the view
    # checks go to each variant's first game in turn, then to each one's second.
    games = [
        Seeded(
            variant, counts[(i + v) % len(counts)], seed + i, views=i * len(variants) + v < views
        )
        for v, variant in enumerate(variants)
        for i in range(n)
    ]
    with common.Terminable():  # SIGTERM ends it as Ctrl-C does, with its own line and code
        report = run(game_cls, env.hooks, games, step_timeout)
    if json:
        common.echo_json(msgspec.json.encode(report))
    else:
        show(report)
    if not report.ok:
        raise typer.Exit(1)


def run(
    game_cls: common.GameClass, hooks: Hooks, games: list[Seeded], step_timeout: float
) -> Report:
    """Play ``games`` with every check, then again in two interpreters, and sum it all up;
    each step of a game may take ``step_timeout`` seconds (0: no bound)."""
    passed: Counter[str] = Counter()
    failures: list[Failure] = []
    decisions = 0
    finished = []  # the games that did not overrun: the others would hang the interpreters too
    for game in games:
        case = testing.Case(game.seats, game.seed, views=game.views)
        try:
            rules = game_cls(msgspec.convert(game.variant, game_cls.options_type))
            with watchdog(step_timeout) as restart:
                played = testing.playthrough(rules, case, hooks=hooks, each_step=restart)
            decisions += len(played.actions)
        except Overran as exc:
            name, step = where(exc)
            failures.append(
                failure(game_cls.id, game, name, step, overran(step, step_timeout, exc))
            )
        except Exception as exc:  # a game may fail in any way; each is reported
            name, step = where(exc)
            message = common.message_of(exc)
            if not isinstance(exc, testing.ConformanceError):
                message = f"{type(exc).__name__}: {message}"
            failures.append(failure(game_cls.id, game, name, step, message))
            finished.append(game)
        else:
            finished.append(game)
            passed.update(c for c in CHECKS if c != DETERMINISM and (c != VIEWS or game.views))
    rate = None
    try:
        (one, elapsed), (other, _) = apart(game_cls.id, finished, step_timeout)
    except RuntimeError as exc:
        failures.append(failure(game_cls.id, games[0], DETERMINISM, None, str(exc)))
    else:
        rate = sum(p.decisions for p in one) / elapsed if finished and elapsed > 0 else None
        for game, a, b in zip(finished, one, other, strict=True):
            if a == b and not a.overran:  # a step that overran in both is not a game played
                passed[DETERMINISM] += 1
            else:
                step, what = parted(game_cls.id, game, a, b)
                failures.append(failure(game_cls.id, game, DETERMINISM, step, what))
    failed = Counter(f.check for f in failures)
    return Report(
        game=game_cls.id,
        ok=not failures,
        games=len(games),
        decisions=decisions,
        decisions_per_second=rate,
        checks=[
            Row(
                check=c,
                description=d,
                checked=sum(g.views for g in games) if c == VIEWS else len(games),
                passed=passed[c],
                failed=failed[c],
            )
            for c, d in CHECKS.items()
        ],
        failures=failures,
    )


class Overran(BaseException):
    """A step of a game took longer than its bound (see :func:`watchdog`). Not an
    :class:`Exception`, so that a rule's ``except Exception`` does not swallow it."""


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[Callable[[int], object]]:
    """A function that (re)starts a bound of ``seconds`` (0: none) on the main thread's work:
    once it runs out, :class:`Overran` is raised wherever that work is. Off when the ``with``
    ends.

    SIGALRM interrupts Python code: a rule that loops forever, not a call stuck in C. Where
    there is no SIGALRM (Windows), there is no bound.
    """
    if not hasattr(signal, "setitimer"):
        yield lambda step: None
        return

    def ring(signum: int, frame: object) -> None:
        raise Overran

    def restart(step: int) -> None:
        signal.setitimer(signal.ITIMER_REAL, seconds)

    before = signal.signal(signal.SIGALRM, ring)
    try:
        restart(0)
        yield restart
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def overran(step: int | None, seconds: float, exc: Overran) -> str:
    """What a failure says of a step that took longer than ``seconds``, and where it was."""
    what = "setting the game up" if step is None else f"step {step}"
    # The last frame is the signal handler's; the one before it is where the game was.
    frames = traceback.extract_tb(exc.__traceback__)[:-1]
    at = f", stopped in {frames[-1].name} ({frames[-1].filename}:{frames[-1].lineno})"
    return (
        f"{what} took longer than {seconds:g} s{at if frames else ''}: a loop that never ends? "
        "If it is only slow, raise --step-timeout"
    )


def parted(game_id: str, game: Seeded, a: Played, b: Played) -> tuple[int | None, str]:
    """Why the interpreters played ``game`` differently (``a``, ``b``): a step that overran in
    one, or the first step where they part and what differs there."""
    for seed, p in zip(HASH_SEEDS, (a, b), strict=True):
        if p.overran:
            return p.decisions, f"in the interpreter with PYTHONHASHSEED={seed}, {p.error}"
    step, what = diverge(game_id, game) or (
        None,
        "play it differently: "
        f"digest {a.digest} after {a.decisions} decisions, {b.digest} after {b.decisions}",
    )
    return step, f"PYTHONHASHSEED={HASH_SEEDS[0]} and {HASH_SEEDS[1]} {what}"


def where(exc: BaseException) -> tuple[str, int | None]:
    """Which check ``exc`` came from (see :data:`CHECKS`) and the step it was raised at,
    read from the frames of :func:`~meeple.core.testing.playthrough` it passed through."""
    name, step = PLAY, None
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code is testing.playthrough.__code__:
            step = tb.tb_frame.f_locals.get("step")
        elif code.co_name in CHECKS and tb.tb_frame.f_globals is vars(testing):
            name = code.co_name
        tb = tb.tb_next
    if name in ("check_scores", "check_replay"):
        step = None  # made once the game is over
    return name, step


def failure(game_id: str, game: Seeded, check: str, step: int | None, message: str) -> Failure:
    """A :class:`Failure` of ``game``, with the command line that plays it alone."""
    args = ["meeple", "check", game_id, "-n", "1", "--seed", str(game.seed)]
    args += ["--seats", str(game.seats), "--views", str(int(game.views))]
    for key, value in game.variant.items():
        shown = value if isinstance(value, str) else msgspec.json.encode(value).decode()
        args += ["-o", f"{key}={shown}"]
    return Failure(
        check=check,
        variant=game.variant,
        seats=game.seats,
        seed=game.seed,
        step=step,
        message=message,
        rerun=shlex.join(args),
    )


def diverge(game_id: str, game: Seeded) -> tuple[int, str] | None:
    """Where ``game`` first differs between the interpreters of :data:`HASH_SEEDS`: the step
    (the decision; 0 also for the setup) and what differs there, a JSON path and both values.

    Both interpreters stream the state after every decision (see :func:`steps`); they are
    read side by side and stopped at the first line that differs.
    """
    with interpreters(["--steps"], stderr=subprocess.DEVNULL) as started:
        for process in started:
            assert process.stdin is not None
            process.stdin.write(msgspec.json.encode([game_id, game]))
            process.stdin.close()
        lines = zip(*(p.stdout for p in started if p.stdout is not None), strict=False)
        for line, (a, b) in enumerate(lines):
            if a == b:
                continue
            one, other = (msgspec.json.decode(x, type=Step) for x in (a, b))
            if line == 0:
                return 0, f"set the game up differently at {difference(one.state, other.state)}"
            step = line - 1
            head = f"play it differently from step {step} on"
            if one.error or other.error:
                errors = (one.error or "no error", other.error or "no error")
                return step, f"{head}: it raises in one ({errors[0]} against {errors[1]})"
            for part, x, y in (
                ("its action differs", one.action, other.action),
                ("its events differ", one.events, other.events),
                ("the state it leaves differs", one.state, other.state),
            ):
                found = difference(x, y)
                if found is not None:
                    return step, f"{head}: {part} at {found}"
    return None


@contextlib.contextmanager
def interpreters(args: list[str], stderr: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """This module run with ``args`` in a fresh interpreter per :data:`HASH_SEEDS`, reading
    standard input and writing standard output through pipes.

    They are killed when the ``with`` ends, whatever ends it: an answer found
    early, Ctrl-C or SIGTERM sent to this process alone. Nothing else would
    stop them, and they would play on to the end.
    """
    started: list[subprocess.Popen[bytes]] = []
    try:
        for seed in HASH_SEEDS:
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", __name__, *args],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    env={**os.environ, "PYTHONHASHSEED": seed},
                )
            )
        yield started
    finally:
        for process in started:
            process.kill()
            process.wait()


def difference(a: Any, b: Any, at: str = "$") -> str | None:
    """The first place where decoded JSON ``a`` and ``b`` differ, as ``$.path (a against b)``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            if key not in a or key not in b:
                return f"{at}.{key} (only in {'the first' if key in a else 'the second'})"
            found = difference(a[key], b[key], f"{at}.{key}")
            if found is not None:
                return found
        return None if list(a) == list(b) else f"{at} (the same keys in another order)"
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = difference(x, y, f"{at}[{i}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{at} ({len(a)} items against {len(b)})"
    if a == b and type(a) is type(b):
        return None
    return f"{at} ({reprlib.repr(a)} against {reprlib.repr(b)})"


def apart(
    game_id: str, games: list[Seeded], step_timeout: float
) -> list[tuple[list[Played], float]]:
    """``games`` played by :func:`worker` in a fresh interpreter per :data:`HASH_SEEDS`, side
    by side, each step bounded by ``step_timeout``: for each, one :class:`Played` per game and
    the seconds their play took."""
    asked = msgspec.json.encode([game_id, games, step_timeout])
    with interpreters([], stderr=subprocess.PIPE) as started:
        results = [p.communicate(asked) for p in started]
    for seed, process, (_, err) in zip(HASH_SEEDS, started, results, strict=True):
        if process.returncode != 0:
            lines = err.decode(errors="replace").strip().splitlines() or ["no message"]
            raise RuntimeError(
                f"the interpreter with PYTHONHASHSEED={seed} failed "
                f"(exit {process.returncode}): {lines[-1]}"
            )
    # The answer is the last line: a plugin may print as it loads.
    answers = [out.strip().rsplit(b"\n", 1)[-1] for out, _ in results]
    return [msgspec.json.decode(a, type=tuple[list[Played], float]) for a in answers]


def start(game_cls: common.GameClass, game: Seeded) -> Match:
    """``game`` set up, as :func:`worker` and :func:`steps` play it."""
    rules = game_cls(msgspec.convert(game.variant, game_cls.options_type))
    return Match.new(rules, game.seats, game.seed, Hooks(None))


def random_play(match: Match, seed: int) -> Iterator[tuple[Action, list[Event]]]:
    """Play ``match`` on with the random legal actions of ``seed``: each action and its events."""
    chooser = Stream(f"check/{seed}")
    while not match.over and len(match.actions) < testing.MAX_STEPS:
        action = chooser.choice(match.legal())
        yield action, match.step(action)


def worker() -> None:
    """Play the games named on standard input (a game id, its :class:`Seeded` games and the
    step timeout) with random legal actions; print one :class:`Played` per game and the time
    taken."""
    game_id, games, seconds = msgspec.json.decode(
        sys.stdin.buffer.read(), type=tuple[str, list[Seeded], float]
    )
    game_cls = Registry(plugin_manager()).game(game_id)
    played = []
    started = time.perf_counter()
    for game in games:
        match = start(game_cls, game)
        so_far = hashlib.sha256()
        error, over = None, False
        try:
            with watchdog(seconds) as restart:
                for action, events in random_play(match, game.seed):
                    so_far.update(msgspec.json.encode([action, events]))
                    restart(len(match.actions))
        except Overran as exc:
            error, over = overran(len(match.actions), seconds, exc), True
        except Exception as exc:  # the same error in both interpreters is still determinism
            error = f"{type(exc).__name__}: {exc}"
        so_far.update(match.game.digest(match.state).encode())
        played.append(Played(so_far.hexdigest()[:32], len(match.actions), error, over))
    elapsed = time.perf_counter() - started
    sys.stdout.buffer.write(b"\n" + msgspec.json.encode([played, elapsed]))


def steps() -> None:
    """Play the one game named on standard input (a game id and a :class:`Seeded` game) as
    :func:`worker` does, printing a :class:`Step` per line: the setup, then every decision."""
    game_id, game = msgspec.json.decode(sys.stdin.buffer.read(), type=tuple[str, Seeded])
    out = sys.stdout.buffer
    with contextlib.redirect_stdout(sys.stderr):  # what a plugin prints as it loads
        match = start(Registry(plugin_manager()).game(game_id), game)
    out.write(msgspec.json.encode(Step(state=match.state)) + b"\n")
    try:
        for action, events in random_play(match, game.seed):
            out.write(msgspec.json.encode(Step(action, events, match.state)) + b"\n")
    except Exception as exc:
        out.write(msgspec.json.encode(Step(error=f"{type(exc).__name__}: {exc}")) + b"\n")
    out.flush()


def show(report: Report) -> None:
    """The table of checks, the speed, then each failure and how to rerun it."""
    table = Table(title=common.plain(f"meeple check {report.game}: {report.games} games"))
    for column in ("check", "games", "passed", "failed", "what it asks"):
        table.add_column(column, justify="left" if column in ("check", "what it asks") else "right")
    for row in report.checks:
        failed = f"[bold red]{row.failed}[/]" if row.failed else "0"
        table.add_row(row.check, str(row.checked), str(row.passed), failed, row.description)
    common.console.print(table)
    rate = report.decisions_per_second
    speed = f"{rate:,.0f} decisions/s in random play" if rate is not None else "speed not measured"
    common.console.print(f"{report.decisions:,} decisions checked; {speed}")
    for f in report.failures:
        variant = ", ".join(f"{k}={v}" for k, v in f.variant.items()) or "default options"
        at = f", step {f.step}" if f.step is not None else ""
        head = f"FAILED {f.check}: {report.game} ({variant}), {f.seats} seats, seed {f.seed}{at}"
        common.console.print(common.plain(head, "bold red"), soft_wrap=True)
        common.console.print(common.plain(f"  {f.message}", lines=True), soft_wrap=True)
        common.console.print(common.plain(f"  rerun: {f.rerun}"), soft_wrap=True)
    verdict = ("all checks passed", "green") if report.ok else ("some checks failed", "bold red")
    common.console.print(common.plain(*verdict))


if __name__ == "__main__":
    if sys.argv[1:] == ["--steps"]:
        steps()
    else:
        worker()
