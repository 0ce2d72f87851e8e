"""Simulation runs: many seeded bot games, each an independent unit of work.

A run is a :class:`RunSpec` -- the game, its options, the bots by seat and
whether seats rotate -- and a set of seeds. A game is a function of the spec
and its seed alone (its seating included), so a run cut into shards, or
spread over any number of workers, plays exactly the same games.

Parallel runs go through :func:`results`, which cuts the seeds into chunks,
hands each chunk to a :class:`Backend` and gives the games back in seed order.
A backend only needs ``workers``, ``submit(spec, seeds)`` returning a handle
whose ``result()`` is :func:`play_seeds`'s list, and ``stop(handles)`` for
Ctrl-C; :class:`Processes` (this machine's cores) is one, and a cluster client
that runs :func:`play_seeds` remotely is another.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import multiprocessing
import os
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import IO, Annotated, Any, Literal, Protocol, TypeVar

import msgspec

from meeple.core.cards import Recorder, SeatCards
from meeple.core.engine import MAX_DECISIONS, Hooks, Match
from meeple.core.errors import MeepleError, cut
from meeple.core.game import PLAY_ON_MAX, Game
from meeple.core.plugins import Registry, plugin_error, plugin_manager
from meeple.core.rng import Seed
from meeple.core.scoring import Score, rank


class RunSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every game of a run shares: enough to play any of its seeds anywhere."""

    game: str
    version: str
    options: dict[str, Any]
    """The game's options as :func:`msgspec.to_builtins` gives them."""
    bots: list[str]
    """The bot of each seat, before any rotation, with its options (``ismcts:iterations=100``)."""
    rotate: bool = False
    """Move every bot ``seed % seats`` seats on in the game of ``seed``."""
    card_facts: Literal[True] | msgspec.UnsetType = msgspec.UNSET
    """Record each seat's card facts (:mod:`meeple.core.cards`) with every game. Unset, it is
    left out of the header, which then reads as it did before card facts existed."""

    @classmethod
    def of(
        cls,
        game: Game[Any, Any],
        bots: Iterable[str],
        rotate: bool = False,
        card_facts: bool = False,
    ) -> RunSpec:
        return cls(
            game=game.id,
            version=game.version,
            options=msgspec.to_builtins(game.options),
            bots=list(bots),
            rotate=rotate,
            card_facts=True if card_facts else msgspec.UNSET,
        )

    def seating(self, seed: int) -> list[str]:
        """The bot in each seat in the game of ``seed``."""
        bots = self.bots
        k = seed % len(bots) if self.rotate else 0
        return bots[-k:] + bots[:-k] if k else list(bots)

    def make(self, registry: Registry) -> Game[Any, Any]:
        """The spec's game, with its options, from the games ``registry`` knows."""
        cls = registry.game(self.game)
        return cls(msgspec.convert(self.options, cls.options_type))

    def check_options(self, game: type[Game[Any, Any]], where: str) -> None:
        """Raise :class:`MeepleError` unless ``game`` takes the spec's options, naming the
        first that it does not (by its path in the header line of the run file ``where``)."""
        try:
            msgspec.convert(self.options, game.options_type)
        except msgspec.ValidationError as exc:
            path = str(exc).rpartition(" - at `$")
            problem = f"{path[0]} - at `$.run.options{path[2]}" if path[1] else f"{exc} in options"
            raise MeepleError(
                f"{where}:1: {problem}, not options {game.title} {game.version} takes; "
                "the header was edited, or written for another version of the game"
            ) from None


Decisions = Annotated[int, msgspec.Meta(ge=0, le=MAX_DECISIONS)]
"""The decisions of a finished game: no more than :meth:`Match.run` lets a game take."""
Round = Annotated[int, msgspec.Meta(ge=1, le=PLAY_ON_MAX)]
"""The round a finished game ended in: from 1, and no further than a state may count."""


class Schedule(RunSpec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A tournament's run: ``bots`` are all its bots, and the game of seed ``first + i`` seats
    the schedule's seating ``i`` mod its :attr:`size`.

    The schedule takes every set of ``seats`` bots in ``itertools.combinations`` order and
    rotates each through the seats. A seating is worked out from its number alone, so a
    schedule of any size takes no memory, and a chunk of seeds plays on any worker.
    """

    seats: int
    first: int

    @property
    def size(self) -> int:
        """The games of one schedule: ``C(bots, seats) · seats``."""
        return math.comb(len(self.bots), self.seats) * self.seats

    def seating(self, seed: int) -> list[str]:
        return self.at((seed - self.first) % self.size)

    def at(self, k: int) -> list[str]:
        """Seating ``k`` of the schedule: set ``k // seats``, rotated ``k % seats`` seats."""
        group, turn = divmod(k, self.seats)
        bots = _combination(self.bots, self.seats, group)
        return bots[turn:] + bots[:turn]


def _combination(pool: Sequence[str], r: int, index: int) -> list[str]:
    """``list(itertools.combinations(pool, r))[index]``, without making the others (the
    ``nth_combination`` recipe of the itertools documentation)."""
    n = len(pool)
    c = math.comb(n, r)
    chosen = []
    while r:
        c, n, r = c * r // n, n - 1, r - 1
        while index >= c:
            index -= c
            c, n = c * (n - r) // n, n - 1
        chosen.append(pool[-1 - n])
    return chosen


class GameResult(msgspec.Struct, kw_only=True):
    """One finished game: a line of ``--jsonl`` (no timings, so equal seeds give equal bytes).

    Read back from a file, each number must be one a game can have: a line that says otherwise
    was edited, and would distort every mean it went into.
    """

    seed: Seed
    seats: list[str]
    scores: list[Score]
    places: list[int]
    decisions: Decisions
    rounds: Round
    digest: str
    cards: list[SeatCards] | msgspec.UnsetType = msgspec.UNSET
    """Each seat's card facts, in a run with ``card_facts``; left out of the line otherwise."""


class Seating(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a tournament's run file adds to its spec: the :class:`Schedule`'s seats a game
    and first seed (the run's ``bots`` are all of its bots)."""

    seats: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]
    first: Seed


MAX_SEATS = 64
"""The most seats a schedule in a file may name: more than any table has."""


class Header(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The first line of a run's JSONL file: the spec every later line (a result) shares.

    Results follow in seed order, whatever the number of workers, so the
    file is the same bytes for the same run.
    """

    run: RunSpec
    schedule: Seating | msgspec.UnsetType = msgspec.UNSET
    """A tournament's seating (see :class:`Schedule`); left out of any other run's header."""

    def spec(self) -> RunSpec:
        """The run's spec: a :class:`Schedule` for a tournament's."""
        if self.schedule is msgspec.UNSET:
            return self.run
        fields = msgspec.structs.asdict(self.run)
        return Schedule(**fields, seats=self.schedule.seats, first=self.schedule.first)


def header_line(spec: RunSpec) -> bytes:
    if isinstance(spec, Schedule):
        fields = {f: getattr(spec, f) for f in RunSpec.__struct_fields__}
        header = Header(run=RunSpec(**fields), schedule=Seating(seats=spec.seats, first=spec.first))
    else:
        header = Header(run=spec)
    return msgspec.json.encode(header) + b"\n"


def result_line(result: GameResult) -> bytes:
    return msgspec.json.encode(result) + b"\n"


def _header(line: bytes, where: str) -> RunSpec:
    try:
        header = msgspec.json.decode(line, type=Header)
    except msgspec.ValidationError as exc:
        raise MeepleError(
            f"{where}:1: not a run header ({exc}); a run file of `meeple simulate --jsonl` "
            "starts with one"
        ) from None
    except msgspec.DecodeError as exc:  # a saved game, say: JSON, but over many lines
        raise MeepleError(
            f"{where}:1: not JSON ({exc}); a run file of `meeple simulate --jsonl` holds one "
            "JSON object per line"
        ) from None
    if header.schedule is not msgspec.UNSET and header.schedule.seats > len(header.run.bots):
        raise MeepleError(
            f"{where}:1: a schedule of {header.schedule.seats} seats a game, but "
            f"{len(header.run.bots)} bots; the header was edited"
        )
    return header.spec()


def _result(line: bytes, where: str) -> GameResult:
    try:
        return msgspec.json.decode(line, type=GameResult)
    except msgspec.DecodeError as exc:  # ValidationError included
        raise MeepleError(f"{where}: not a game result ({exc})") from None


MAX_LINE_BYTES = 1024 * 1024
"""The longest line read from a run file: a game's result takes a few hundred bytes, and a
file that is one line of gigabytes (not a run file) must not fill the memory."""


def run_lines(file: IO[bytes], where: str) -> Iterator[bytes]:
    """The lines of the run file ``file`` (named ``where``), each read to :data:`MAX_LINE_BYTES`.

    Raises :class:`~meeple.core.errors.MeepleError` naming a longer line.
    """
    read = functools.partial(file.readline, MAX_LINE_BYTES + 1)
    for number, line in enumerate(iter(read, b""), 1):
        if len(line) > MAX_LINE_BYTES:
            raise MeepleError(
                f"{where}:{number}: a line of over {MAX_LINE_BYTES:,} bytes, but a run file of "
                "`meeple simulate --jsonl` holds its setup, then one game's result a line (a few "
                "hundred bytes); this is not one: name a run file"
            )
        yield line


def read_run(lines: Iterable[bytes], where: str) -> tuple[RunSpec, Iterator[GameResult]]:
    """The spec and the results of a JSONL run file's ``lines`` (see :func:`run_lines`);
    ``where`` names it in errors.

    Raises :class:`~meeple.core.errors.MeepleError` naming the line at fault.
    """
    it = iter(enumerate(lines, 1))
    try:
        _, first = next(it)
    except StopIteration:
        raise MeepleError(f"{where}: empty, not a run file of `meeple simulate --jsonl`") from None
    spec = _header(first, where)

    def results() -> Iterator[GameResult]:
        for number, line in it:
            yield _result(line, f"{where}:{number}")

    return spec, results()


class Resume:
    """An interrupted run's file, read back to be continued by the run of ``spec`` and ``seeds``.

    Iterating checks the file and gives its games: the header must hold the
    same setup (else :class:`MeepleError` naming the field and both values),
    and the games must be the first of ``seeds`` in order (a file of another
    seed range is refused). A last line without its newline is a write that
    was cut short: it is not a game, ``torn`` says so, and the file is cut
    back to the whole lines so the game is written again. Afterwards ``file``
    is positioned where the next game goes.
    """

    def __init__(self, file: IO[bytes], spec: RunSpec, seeds: range, where: str) -> None:
        self.file, self.spec, self.seeds, self.where = file, spec, seeds, where
        self.torn = False

    def __iter__(self) -> Iterator[GameResult]:
        end, expected = 0, iter(self.seeds)
        for number, line in enumerate(run_lines(self.file, self.where), 1):
            if not line.endswith(b"\n"):
                if number == 1 and not header_line(self.spec).startswith(line):
                    raise MeepleError(f"{self.where}:1: a cut-short line, not this run's header")
                self.torn = True
                break
            if number == 1:
                self._check_setup(_header(line, self.where))
            else:
                game = _result(line, f"{self.where}:{number}")
                seed = next(expected, None)
                if game.seed != seed:
                    raise MeepleError(f"{self.where}:{number}: {self._unexpected(game.seed, seed)}")
                yield game
            end += len(line)
        self.file.seek(end)
        self.file.truncate()

    def _unexpected(self, found: int, wanted: int | None) -> str:
        seeds = self.seeds
        run = f"seeds {seeds[0]}-{seeds[-1]}"
        if wanted is None:
            return f"seed {found}, but the run to resume has only {len(seeds)} games ({run})"
        if wanted == seeds[0]:
            return (
                f"seed {found}, but the run to resume starts at seed {wanted} ({run}): "
                "a file of another seed range; resume with the seeds it was written with"
            )
        return f"seed {found} where the run has seed {wanted}: a game is missing or out of order"

    def _check_setup(self, theirs: RunSpec) -> None:
        ours = self.spec
        pairs = [(f, getattr(theirs, f), getattr(ours, f)) for f in ("game", "version", "bots")]
        options = sorted(theirs.options.keys() | ours.options.keys())
        pairs += [(f"option {k}", theirs.options.get(k), ours.options.get(k)) for k in options]
        pairs.append(("rotate", theirs.rotate, ours.rotate))
        pairs.append(("card_facts", theirs.card_facts is True, ours.card_facts is True))
        for field, there, here in pairs:
            if there != here:
                shown = [cut(msgspec.json.encode(v).decode()) for v in (there, here)]
                raise MeepleError(
                    f"{self.where}: its run has {field} {shown[0]}, this one {shown[1]}; "
                    "resume with the setup the file was written with"
                )


def play_game(
    registry: Registry, hooks: Hooks, game: Game[Any, Any], spec: RunSpec, seed: int
) -> GameResult:
    """Play the game of ``seed`` to its end."""
    seated = spec.seating(seed)
    match = Match.new(game, len(seated), seed, hooks)
    bots = [
        registry.player(name, game.id).make(game, seat, seed) for seat, name in enumerate(seated)
    ]
    if spec.card_facts is True:
        recorder = Recorder(game, match.state)
        scores = match.run(bots, on_events=recorder.step)
        cards: list[SeatCards] | msgspec.UnsetType = recorder.facts(hooks)
    else:
        scores, cards = match.run(bots), msgspec.UNSET
    return GameResult(
        seed=seed,
        seats=seated,
        scores=scores,
        places=rank(scores),
        decisions=len(match.actions),
        rounds=match.state.turns.round,
        digest=game.digest(match.state),
        cards=cards,
    )


class RunFailed(MeepleError):
    """Games of a run that could not be played, and the games before them that were.

    ``seeds`` is the one seed whose game raised, or the seeds of a chunk whose
    worker was lost (killed, out of memory) before it finished them. ``done``
    holds the games of the chunk before those seeds, so that nothing that
    finished is lost.
    """

    def __init__(self, seeds: range, error: str, done: Sequence[GameResult] = ()) -> None:
        super().__init__(seeds, error, list(done))  # the arguments again: it must pickle
        self.seeds, self.error, self.done = seeds, error, list(done)

    def __str__(self) -> str:
        first, last = self.seeds[0], self.seeds[-1]
        which = f"game of seed {first}" if first == last else f"games of seeds {first}-{last}"
        return f"the {which} failed: {self.error}"


class Interrupted(Exception):
    """A chunk stopped by Ctrl-C (or SIGTERM) on its worker, with the games it finished first.

    Not a :class:`KeyboardInterrupt`: it travels back from the worker as the
    chunk's result, and :func:`results` raises Ctrl-C once these games are given.
    """

    def __init__(self, done: Sequence[GameResult]) -> None:
        super().__init__(list(done))  # the argument again: it must pickle
        self.done = list(done)


def _described(exc: Exception) -> str:
    """A game's error in one line; a bug (not a :class:`MeepleError`) with where it was raised."""
    if isinstance(exc, MeepleError):
        return str(exc)
    error = plugin_error(exc)
    if error is not None:  # a third-party bot or game's rules: its authors can fix it
        return str(error)
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__}: {exc} (in {where.filename}, line {where.lineno})"


Games = Generator[GameResult, None, None]
"""A run's games in seed order, as :func:`play` and :func:`results` give them (see :func:`each`)."""
T = TypeVar("T")


def play(registry: Registry, hooks: Hooks, spec: RunSpec, seeds: Iterable[int]) -> Games:
    """The result of each seed's game, in the order of ``seeds``, played in this process.

    A game that raises stops the run with :class:`RunFailed` naming its seed.
    """
    game = spec.make(registry)
    for seed in seeds:
        try:
            result = play_game(registry, hooks, game, spec, seed)
        except Exception as exc:
            raise RunFailed(range(seed, seed + 1), _described(exc)) from exc
        yield result


@functools.cache
def _installed() -> tuple[Registry, Hooks]:
    pm = plugin_manager()
    return Registry(pm), Hooks(pm)


class _Worker:
    """Where a worker process is: playing a chunk, and whether it was told to stop."""

    playing = False
    stopped = False


_worker = _Worker()


def play_seeds(spec: RunSpec, seeds: Sequence[int]) -> list[GameResult]:
    """The work unit a worker runs: the games of ``seeds``, with the plugins installed here.

    A worker process loads the installed plugins once (entry points and
    ``MEEPLE_DISABLE_PLUGINS``, as the command line does), then plays from the
    spec alone, so any process or machine with the same plugins plays the same games.
    A game that raises makes :class:`RunFailed` holding the games before it;
    a worker told to stop (see :func:`_stop_playing`) makes :class:`Interrupted`.
    """
    registry, hooks = _installed()
    done: list[GameResult] = []
    try:
        try:
            _worker.playing = True
            if _worker.stopped:  # a chunk taken after Ctrl-C: the run is over
                raise KeyboardInterrupt
            done.extend(play(registry, hooks, spec, seeds))
        finally:
            _worker.playing = False
    except RunFailed as exc:
        raise RunFailed(exc.seeds, exc.error, done) from None
    except KeyboardInterrupt:
        raise Interrupted(done) from None
    return done


# -- parallel runs -------------------------------------------------------------


class Pending(Protocol):
    """A chunk handed to a backend: ``result()`` waits for its games (or raises)."""

    def result(self) -> list[GameResult]: ...


class Backend(Protocol):
    """Where chunks of a run are played: the seam between :func:`results` and workers.

    ``submit(spec, seeds)`` starts :func:`play_seeds` on a worker and returns
    at once; ``workers`` (how many chunks run at the same time) sizes the
    chunks and how many are in flight. A ``concurrent.futures`` executor's
    futures and a cluster client's futures are both :class:`Pending`.
    Starting and stopping the workers is the backend's own business: a
    context manager that stops them at once when the run ends early.
    """

    @property
    def workers(self) -> int: ...

    def submit(self, spec: RunSpec, seeds: range) -> Pending: ...

    def stop(self, chunks: Sequence[Pending]) -> None:
        """On Ctrl-C, stop ``chunks`` (those in flight) soon, each ``result()`` then giving the
        games it finished: all of them, those before the stop (:class:`Interrupted`), or none
        (any other error, a chunk never started)."""


MAX_CHUNK = 32
"""The most games in one chunk: results stream back in small steps."""


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about 16 chunks per worker, so that workers finish close together
    (a run's tail waits for one chunk at most), and at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, games // (workers * 16)))


def results(spec: RunSpec, seeds: range, backend: Backend, chunk: int | None = None) -> Games:
    """The result of each seed's game, in seed order, played in chunks by ``backend``.

    At most two chunks per worker are in flight (running, queued, or done and
    waiting for an earlier one), so memory does not grow with the number of
    games. The first chunk that fails stops the run: the games before the
    failure are yielded, then :class:`RunFailed` is raised naming its seeds.

    Ctrl-C stops the chunks in flight, yields every game they finished that
    follows the games given without a gap, then raises ``KeyboardInterrupt``;
    a finished game after a seed that did not finish is dropped (a run file
    holds its games in seed order). Ctrl-C that lands in the caller's loop
    instead is passed in by :func:`each`.
    """
    size = chunk or chunk_size(len(seeds), backend.workers)
    window = 2 * backend.workers
    starts = iter(range(0, len(seeds), size))
    in_flight: deque[tuple[range, Pending]] = deque()  # the first until all its games are given
    last = -1  # the seed of the last game given
    try:
        while True:
            for start in itertools.islice(starts, window - len(in_flight)):
                part = seeds[start : start + size]
                in_flight.append((part, _submitted(backend, spec, part)))
            if not in_flight:
                return
            for game in _collected(*in_flight[0]):
                last = game.seed
                yield game
            in_flight.popleft()
    except KeyboardInterrupt:
        backend.stop([pending for _, pending in in_flight])
        for part, pending in in_flight:
            games = _finished(pending)
            yield from (game for game in games if game.seed > last)
            if len(games) < len(part):
                break
        raise


def each(games: Generator[T, None, None], keep: Callable[[T], object]) -> None:
    """Call ``keep`` on each of a run's ``games`` (see :func:`results`), even on Ctrl-C.

    Each game is kept whole: Ctrl-C or SIGTERM heard while ``keep`` runs is raised once it
    returns (see :func:`held`), so a run file never has a line cut short, missed or written
    twice. Ctrl-C that lands here rather than in the run is passed into the run, which
    stops as if it had heard it: ``keep`` gets every game finished before it, then it is
    raised.
    """
    # The game given and not yet kept whole. CPython runs signal handlers at calls and jumps
    # back, not between taking a game from the loop and appending it here.
    unkept: list[T] = []
    try:
        for game in games:
            unkept.append(game)
            with held():
                keep(game)
                unkept.clear()
    except KeyboardInterrupt:
        for game in [*unkept, *rest(games)]:
            with held():
                keep(game)
        raise


@contextlib.contextmanager
def held() -> Iterator[list[int]]:
    """Hold Ctrl-C and SIGTERM while the block runs, and raise them as it ends, through
    the handlers they had (as uvicorn's server does). The block gets the signals heard so
    far, so that a wait in it can end early. In the main thread only: Python runs signal
    handlers there."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    heard: list[int] = []
    kinds = (signal.SIGINT, signal.SIGTERM)
    before = {kind: signal.signal(kind, lambda n, _: heard.append(n)) for kind in kinds}
    try:
        yield heard
    finally:
        for kind, handler in before.items():  # a handler set outside Python reads as None
            signal.signal(kind, signal.SIG_DFL if handler is None else handler)
        for n in heard:
            handler = before[signal.Signals(n)]
            if callable(handler):  # raised here, never in a __del__ the collector runs meanwhile
                handler(n, None)
            elif handler != signal.SIG_IGN:
                signal.raise_signal(n)


def rest(games: Generator[T, None, None]) -> Iterator[T]:
    """What a run (see :func:`results`) finished before a Ctrl-C that landed outside it,
    and had not given yet: nothing if Ctrl-C reached the run itself, which has given it."""
    try:
        yield games.throw(KeyboardInterrupt())
        yield from games
    except KeyboardInterrupt:  # the run's own, once it has given them
        return


def _submitted(backend: Backend, spec: RunSpec, seeds: range) -> Pending:
    try:
        return backend.submit(spec, seeds)
    except Exception as exc:  # a backend that lost a worker may refuse new chunks
        failed: Future[list[GameResult]] = Future()
        failed.set_exception(exc)  # raised in seed order, after the chunks before it
        return failed


def _collected(seeds: range, pending: Pending) -> Iterator[GameResult]:
    try:
        games = pending.result()
    except RunFailed as exc:
        yield from exc.done  # the chunk's games before the one that failed
        raise
    except Interrupted as exc:  # its worker heard Ctrl-C before this process did
        yield from exc.done
        raise KeyboardInterrupt from None
    except MeepleError as exc:  # the worker could not start the chunk (a plugin it lacks)
        raise RunFailed(seeds, str(exc)) from exc
    except Exception as exc:  # the worker, not a game: its process died or was lost
        raise RunFailed(seeds, f"a worker stopped before finishing them ({exc})") from exc
    yield from games


def _finished(pending: Pending) -> list[GameResult]:
    """The games a chunk finished before it was stopped (see :meth:`Backend.stop`)."""
    try:
        return pending.result()
    except (Interrupted, RunFailed) as exc:
        return exc.done
    except Exception:  # never started, or its worker was lost: nothing to give
        return []


def cpu_count() -> int:
    """The cores this process may use (its CPU affinity, not the machine's count)."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _stop_playing(signum: int, frame: object) -> None:
    """A worker's answer to SIGINT and SIGTERM: stop the chunk it plays, and any it is given.

    The game in play is cut short (``KeyboardInterrupt``) and :func:`play_seeds`
    sends back the games before it; the signal is never raised elsewhere, where
    it would kill the worker with a traceback and lose them. SIGTERM to an idle
    worker (the pool shutting it down) ends it, as by default.
    """
    _worker.stopped = True
    if _worker.playing:
        raise KeyboardInterrupt
    if signum == signal.SIGTERM:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while workers may start: they start with them held (the
    signal mask is inherited), so that one sent while a worker loads waits for its handler
    (see :func:`_start_worker`) instead of killing it with a traceback. Here they are
    delivered when the ``with`` ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker() -> None:
    # Ctrl-C at a terminal reaches the workers too, and the parent signals them when it alone
    # is stopped: either way each gives back what it finished. The plugins load now, once.
    for stop in _STOPS:
        signal.signal(stop, _stop_playing)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)  # held while it started
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    _installed()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """End this worker once ``parent``, the process that started it, has ended, however it
    ended: killed (SIGKILL, out of memory), it could not stop its workers, which would play on
    for no one, and keep its resource tracker alive.

    ``join`` waits on a pipe from the parent (on Windows, its process handle), which the
    system closes when the parent ends: nothing to poll, no race with a parent that ended
    before this thread started, and the same on every platform -- unlike Linux's
    ``PR_SET_PDEATHSIG``, which also fires when merely the parent's thread that started the
    worker ends.
    """
    parent.join()
    os._exit(1)


class Processes:
    """A backend of ``workers`` processes on this machine (``concurrent.futures``).

    Workers are *spawned*, never forked: each is a fresh interpreter that
    loads the installed plugins itself, exactly as a worker on another
    machine does, and plays the same on Linux, macOS and Windows (and on
    Python 3.14, whose default changed to forkserver). Forking would copy a
    parent that runs threads (the progress bar's), which can deadlock a child.
    Starting costs one interpreter and plugin import per worker, once a run.

    Used as a context manager: leaving it normally waits for the workers;
    leaving it on an error or Ctrl-C kills them, dropping the chunks not yet
    done (:meth:`stop` first has them give back what they finished).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
        )

    def submit(self, spec: RunSpec, seeds: range) -> Pending:
        with _stops_held():  # a worker may start now
            return self._pool.submit(play_seeds, spec, seeds)

    def stop(self, chunks: Sequence[Pending]) -> None:
        """Signal every worker to stop where it is (see :func:`_stop_playing`): a chunk in
        play sends back the games it finished, and one taken after it none, at once."""
        for process in self._processes():
            if process.pid is not None:
                with contextlib.suppress(ProcessLookupError):  # it has ended already
                    os.kill(process.pid, signal.SIGINT)

    def __enter__(self) -> Processes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None:
            self._pool.shutdown()
            return
        processes = self._processes()
        # Not cancelling the chunks queued: the pool, finding its workers killed, would fail
        # those futures too, and raise on the cancelled ones in a thread of its own.
        self._pool.shutdown(wait=False)
        for process in processes:
            process.kill()  # not SIGTERM: a worker playing a chunk takes it for Ctrl-C
        for process in processes:
            process.join()

    def _processes(self) -> list[multiprocessing.process.BaseProcess]:
        # ``kill_workers`` (Python 3.14) would do; before it, only the pool knows them.
        return list((self._pool._processes or {}).values())
