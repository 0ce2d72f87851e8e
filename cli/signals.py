"""Stopping a command as Ctrl-C does: SIGTERM heard as :class:`Terminated` inside
:class:`Terminable`, and what a run stopped so says (:func:`interrupted`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from functools import partial
from typing import NoReturn

from meeple.cli import output


class Terminated(KeyboardInterrupt):
    """SIGTERM heard inside :class:`Terminable`: the command stops as on Ctrl-C, but asks
    nothing and exits 143 (128 + SIGTERM), as a process ended by the signal does."""


def terminate() -> NoReturn:
    """Stop the command where it is (see :class:`Terminated`)."""
    raise Terminated


class Terminable:
    """Inside ``with Terminable() as term``, SIGTERM (a batch system's stop, ``kill``) calls
    ``stop``, which raises :class:`Terminated` unless told otherwise: the command stops as on
    Ctrl-C, keeping its work, rather than end at once, losing it and leaving its workers
    behind. ``term.terminated`` says it came, even when a worker's Ctrl-C surfaced first.

    In the main thread only, the one Python hands signals to."""

    def __init__(self, stop: Callable[[], object] = terminate) -> None:
        self.terminated = False
        self._stop = stop
        self._restore: Callable[[], object] = lambda: None

    def _heard(self, signum: int, frame: object) -> None:
        self.terminated = True
        self._stop()

    def __enter__(self) -> Terminable:
        if threading.current_thread() is threading.main_thread():
            before = signal.signal(signal.SIGTERM, self._heard)
            # A handler set outside Python reads as None: the default stands for it.
            default = signal.SIG_DFL if before is None else before
            self._restore = partial(signal.signal, signal.SIGTERM, default)
        return self

    def __exit__(self, *exc: object) -> None:
        self._restore()


def interrupted(done: int, of: int, unit: str, kept: str = "", *, terminated: bool = False) -> int:
    """Say on standard error how far a run got before Ctrl-C (or SIGTERM, if ``terminated``)
    and where its work is kept; the code to exit with: 130, or 143 (128 + SIGTERM)."""
    said = "terminated" if terminated else "interrupted"
    output.err_console.print(
        output.plain(f"{said} after {done} of {of} {unit}{kept}"), soft_wrap=True
    )
    return 143 if terminated else 130
