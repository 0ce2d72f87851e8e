"""Runs on a Dask cluster: the work units of a run, played by workers on any machine.

:class:`Dask` is a :class:`~meeple.core.runner.Backend`: :func:`meeple.core.runner.results`
cuts a run's seeds into chunks, and each chunk is one call of
:func:`meeple.core.runner.play_seeds` on a Dask worker, which loads the
plugins installed where it runs. The games come back in seed order, so the
run file holds the same bytes as a run played in this process. Dask
(``distributed``) is an optional extra, imported only when a cluster is
asked for: ``pip install "meeple[dask]"``.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import queue
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any, cast

from meeple.core.errors import MeepleError, install_hint
from meeple.core.runner import GameResult, RunSpec, held, play_seeds

LOCAL = "local"
"""The address that starts a cluster on this machine instead of joining one."""
CONNECT_TIMEOUT = 10
"""Seconds a scheduler has to answer before the run gives up."""
HINT = f"running on Dask needs the dask extra: {install_hint('dask')}"
WAIT = 0.25
"""Seconds of one wait for a chunk: at most this long between Ctrl-C and the run stopping."""
STOP_WAIT = 5.0
"""Seconds the chunks in flight at Ctrl-C have to give back the games they finished."""


class Dask:
    """The workers of a Dask cluster, where a run's chunks are played.

    ``address`` is a scheduler's (``tcp://host:8786``), whose workers are its
    own, or :data:`LOCAL` for a new ``LocalCluster`` of ``workers`` processes
    on this machine (default: one per core). A worker runs one chunk at a time
    per thread; games are Python code holding the GIL, so local workers get
    one thread each.

    Used as a context manager: leaving it closes the client, which drops the
    chunks not yet played, and stops a local cluster.
    """

    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            import distributed
        except ImportError:
            raise MeepleError(HINT) from None
        self._cluster: Any = None
        if address == LOCAL:
            with _ctrl_c_ignored():
                self._cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    dashboard_address=":0",  # a free port: 8787 may be taken (a warning)
                    silence_logs=logging.ERROR,  # not a warning per chunk dropped at Ctrl-C
                )
        if self._cluster is None:
            _check_protocol(distributed, address)
        try:
            self.client = _client(distributed, self._cluster or address)
        except Exception as exc:  # whatever the peer sent: it may not be a Dask scheduler at all
            if self._cluster is not None:
                self._cluster.close()
            said = f"{exc}" if isinstance(exc, MeepleError | OSError | ValueError) else _named(exc)
            raise MeepleError(
                f"no Dask scheduler answered ({said}); start one there with "
                "`dask scheduler`, or play on this machine with `local`"
            ) from None

    @property
    def workers(self) -> int:
        """Chunks played at the same time: the threads of the workers now connected (at least 1)."""
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, spec: RunSpec, seeds: Sequence[int]) -> Chunk:
        """Start :func:`play_seeds` on a worker: a :class:`Chunk`, whose ``result()`` is its
        list."""
        return Chunk(self.client.submit(play_seeds, spec, seeds, pure=False))

    def stop(self, chunks: Sequence[Any]) -> None:  # the Chunks it submitted
        """On Ctrl-C, drop the chunks not done. A Dask task cannot be cut short, so a chunk
        gives back all its games or none: those a worker had finished in it are lost."""
        deadline = time.monotonic() + STOP_WAIT
        for chunk in chunks:
            chunk.deadline = deadline
        running = [chunk.future for chunk in chunks if not chunk.done()]
        if running:
            self.client.cancel(running)

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()

    def __enter__(self) -> Dask:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Chunk:
    """A chunk played on the cluster: its Dask future, waited for so that no Ctrl-C is lost.

    Dask's futures release themselves in ``__del__``, which the garbage collector may run in
    this thread while it waits; a ``KeyboardInterrupt`` raised there is printed and dropped,
    and the run would play on. So Ctrl-C and SIGTERM are held while it waits, in short waits
    (:data:`WAIT`) that end once one is heard, and raised in this code. Fetching a finished
    chunk's games may wait for ever too, for a worker the same Ctrl-C stopped: once stopped
    (:meth:`Dask.stop`), a chunk gives up after :data:`STOP_WAIT` seconds.
    """

    __slots__ = ("deadline", "future", "games")

    def __init__(self, future: Any) -> None:
        self.future = future
        self.deadline: float | None = None
        """Set when the run stops: the time its games are given up at."""
        self.games: list[GameResult] | None = None
        """Its games once fetched: the future is then dropped (see :meth:`result`)."""

    def done(self) -> bool:
        return self.games is not None or bool(self.future.done())

    def result(self) -> list[GameResult]:
        """Its games, or the error it ended with; none if stopped before it gave them."""
        if self.games is not None:
            return self.games
        future = self.future
        with held() as heard:
            while not heard and future.status != "cancelled":
                if future.status == "error":  # raised as the worker raised it
                    return cast(list[GameResult], future.result())
                with contextlib.suppress(TimeoutError):
                    if future.done():  # its games, fetched from the worker that has them
                        self.games = cast(list[GameResult], future.result(timeout=WAIT))
                        # Dropped while held: the future's __del__ runs Dask's code too.
                        self.future = future = None
                        return self.games
                    future.exception(timeout=WAIT)  # waits for it to end, fetching nothing
                if self.deadline is not None and time.monotonic() > self.deadline:
                    break
        return []


def _check_protocol(distributed: Any, address: str) -> None:
    """Raise :class:`MeepleError` unless this Dask can connect by ``address``'s protocol: a
    protocol it knows may still need what is not installed (``ucx://``, UCX-Py)."""
    scheme = distributed.comm.parse_address(address)[0]
    try:
        distributed.comm.registry.get_backend(scheme).get_connector()
    except ValueError:  # not a protocol of Dask's: the client says which it knows
        return
    except Exception as exc:
        raise MeepleError(
            f"its protocol {scheme}:// cannot be used here ({_named(exc)}); give the "
            "scheduler's tcp:// address"
        ) from None


def _client(distributed: Any, target: Any) -> Any:
    """``distributed.Client(target)``, given :data:`CONNECT_TIMEOUT` seconds in all.

    Dask bounds connecting, and each step after the handshake, but not the handshake itself
    (by design: a loaded scheduler may be slow to answer), so a peer that accepts and never
    answers would hold the run for ever. The client starts in a thread of its own, and is
    given up on at the deadline; that thread and its connection end with the process.
    """
    made: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def start() -> None:
        try:
            made.put(distributed.Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False))
        except BaseException as exc:  # handed to the caller, raised there
            # The client that failed is closed now, while its loop runs: left to the process's
            # exit, closing it would wait 20 s for a loop that stopped, then print a traceback.
            exc = exc.with_traceback(None)
            gc.collect()
            made.put(exc)

    threading.Thread(target=start, name="dask-connect", daemon=True).start()
    try:
        client = made.get(timeout=CONNECT_TIMEOUT)
    except queue.Empty:
        raise MeepleError(f"{target}: no answer within {CONNECT_TIMEOUT} s") from None
    if isinstance(client, BaseException):
        raise client
    return client


def _named(exc: BaseException) -> str:
    """An error from the network or a library, with its kind: ``MemoryError: ...``."""
    return f"{type(exc).__name__}: {exc}"


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while local workers start: they inherit it ignored, so Ctrl-C at a terminal
    (sent to every process of the job) reaches this process alone, which stops them, instead of
    each worker dying with a traceback of its own."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a signal handler; workers then hear Ctrl-C too
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
