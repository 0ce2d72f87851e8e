"""The runner's parallel path: chunks through a backend, games back in seed order."""

from __future__ import annotations

import io
import pickle
import signal

import msgspec
import pytest

from meeple.core import runner
from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry
from meeple.core.runner import (
    MAX_LINE_BYTES,
    GameResult,
    Interrupted,
    Resume,
    RunFailed,
    RunSpec,
    chunk_size,
    each,
    header_line,
    play,
    play_seeds,
    result_line,
    results,
)


class Chunk:
    """A chunk that is played only when its result is asked for."""

    def __init__(self, backend: Deferred, spec: RunSpec, seeds: range) -> None:
        self.backend, self.spec, self.seeds = backend, spec, seeds

    def result(self) -> list[GameResult]:
        if self in self.backend.waiting:  # asked again, as a future may be
            self.backend.waiting.remove(self)
        if self.seeds == self.backend.lost:
            raise RuntimeError("lost")
        return play_seeds(self.spec, self.seeds)


class Deferred:
    """A backend that records the chunks it was given and how many waited at once."""

    def __init__(self, workers: int, lost: range | None = None) -> None:
        self.workers, self.lost = workers, lost
        self.waiting: list[Chunk] = []
        self.chunks: list[range] = []
        self.most = 0
        self.stopped: list[range] | None = None

    def stop(self, chunks: list[Chunk]) -> None:
        self.stopped = [chunk.seeds for chunk in chunks]

    def submit(self, spec: RunSpec, seeds: range) -> Chunk:
        chunk = Chunk(self, spec, seeds)
        self.waiting.append(chunk)
        self.chunks.append(seeds)
        self.most = max(self.most, len(self.waiting))
        return chunk


@pytest.fixture
def spec(registry: Registry) -> RunSpec:
    return RunSpec.of(registry.game("clonk")(), ["random"] * 3, rotate=True)


def test_results_come_in_seed_order_with_a_bounded_window(
    spec: RunSpec, registry: Registry, hooks: Hooks
) -> None:
    backend = Deferred(workers=2)
    played = list(results(spec, range(10, 40), backend, chunk=4))
    assert played == list(play(registry, hooks, spec, range(10, 40)))
    assert backend.chunks[0] == range(10, 14) and backend.chunks[-1] == range(38, 40)
    assert backend.most == 4  # two chunks per worker in flight, never more


def test_a_lost_chunk_stops_the_run_after_the_games_before_it(spec: RunSpec) -> None:
    backend = Deferred(workers=1, lost=range(4, 6))
    seen: list[int] = []
    with pytest.raises(RunFailed) as failed:
        seen.extend(r.seed for r in results(spec, range(10), backend, chunk=2))
    assert seen == [0, 1, 2, 3]
    message = "the games of seeds 4-5 failed: a worker stopped before finishing them (lost)"
    assert str(failed.value) == message


def test_a_failing_game_keeps_the_games_before_it_in_its_chunk(
    spec: RunSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_game = runner.play_game

    def failing(*args: object) -> GameResult:
        if args[-1] == 5:
            raise RuntimeError("boom")
        return play_game(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "play_game", failing)
    seen: list[int] = []
    with pytest.raises(RunFailed) as failed:
        seen.extend(r.seed for r in results(spec, range(10), Deferred(workers=1), chunk=4))
    assert seen == [0, 1, 2, 3, 4]  # seed 4 shares its chunk with the failure
    assert str(failed.value).startswith("the game of seed 5 failed: RuntimeError: boom")


class Stopping(Deferred):
    """A backend whose chunks, when Ctrl-C stops them, had played the first ``played[i]``
    games of chunk ``i``; Ctrl-C lands while the run waits for the first."""

    def __init__(self, workers: int, played: list[int]) -> None:
        super().__init__(workers)
        self.played = played

    def submit(self, spec: RunSpec, seeds: range) -> Chunk:
        self.chunks.append(seeds)
        return StoppingChunk(self, spec, seeds)


class StoppingChunk(Chunk):
    backend: Stopping

    def result(self) -> list[GameResult]:
        if self.backend.stopped is None:
            raise KeyboardInterrupt
        played = self.backend.played[self.backend.chunks.index(self.seeds)]
        done = play_seeds(self.spec, self.seeds[:played])
        if len(done) < len(self.seeds):
            raise Interrupted(done)
        return done


def test_ctrl_c_keeps_every_game_finished_before_the_first_that_was_not(
    spec: RunSpec,
) -> None:
    backend = Stopping(workers=2, played=[3, 3, 1, 3])
    seen: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        seen.extend(r.seed for r in results(spec, range(20), backend, chunk=3))
    assert backend.stopped == [range(0, 3), range(3, 6), range(6, 9), range(9, 12)]
    # Seeds 9-11 finished too, but after seeds 7-8, which did not: a file cannot hold them.
    assert seen == [0, 1, 2, 3, 4, 5, 6]


def test_ctrl_c_in_the_loop_over_a_run_stops_it_the_same_way(spec: RunSpec) -> None:
    backend = Deferred(workers=1)
    kept: list[int] = []

    def keep(game: GameResult) -> None:
        kept.append(game.seed)
        if game.seed == 1 and backend.stopped is None:
            signal.raise_signal(signal.SIGINT)  # while the chunks of seeds 2-5 are in flight

    with pytest.raises(KeyboardInterrupt):
        each(results(spec, range(10), backend, chunk=2), keep)
    assert backend.stopped == [range(0, 2), range(2, 4)]
    assert kept == [0, 1, 2, 3]  # every game the run had finished, once each


@pytest.mark.parametrize("kind", [signal.SIGINT, signal.SIGTERM])
def test_a_game_is_kept_whole_whenever_ctrl_c_or_sigterm_comes(
    spec: RunSpec, kind: signal.Signals
) -> None:
    """A signal heard halfway through keeping a game (a run file's line half written) is
    raised once the game is kept: no line cut short, missed or written twice."""
    kept: list[str] = []

    def keep(game: GameResult) -> None:
        kept.append(f"{game.seed}:")
        if game.seed == 4:
            signal.raise_signal(kind)
        kept[-1] += "whole"

    def terminated(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, terminated)  # as a command's Terminable does
    try:
        with pytest.raises(KeyboardInterrupt):
            each(results(spec, range(10), Deferred(workers=1), chunk=3), keep)
    finally:
        signal.signal(signal.SIGTERM, before)
    # Then the games of the chunks in flight: seeds 5 and 6-8, finished when stopped.
    assert kept == [f"{seed}:whole" for seed in range(9)]


def test_a_worker_stopped_mid_chunk_sends_back_the_games_before(
    spec: RunSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_game = runner.play_game

    def ctrl_c_in_the_third(*args: object) -> GameResult:
        if args[-1] == 2:
            runner._stop_playing(signal.SIGINT, None)  # as the worker's handler is called
        return play_game(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "play_game", ctrl_c_in_the_third)
    monkeypatch.setattr(runner, "_worker", runner._Worker())
    with pytest.raises(Interrupted) as stopped:
        play_seeds(spec, range(5))
    assert [game.seed for game in stopped.value.done] == [0, 1]
    sent = pickle.loads(pickle.dumps(stopped.value))  # as it travels back from the worker
    assert sent.done == stopped.value.done
    with pytest.raises(Interrupted) as later:  # a chunk it takes afterwards: nothing played
        play_seeds(spec, range(5, 10))
    assert later.value.done == []
    assert not runner._worker.playing
    runner._stop_playing(signal.SIGINT, None)  # heard between chunks: not raised there


def test_chunks_are_small_and_even() -> None:
    assert chunk_size(5, 2) == 1
    assert chunk_size(1000, 2) == 31
    assert chunk_size(10**6, 2) == 32


def test_resume_reads_back_whole_lines_and_drops_a_torn_one(
    spec: RunSpec, registry: Registry, hooks: Hooks
) -> None:
    done = list(play(registry, hooks, spec, range(3)))
    text = header_line(spec) + b"".join(map(result_line, done))
    file = io.BytesIO(text + b'{"seed":3,')
    resumed = Resume(file, spec, range(10), "run.jsonl")
    assert list(resumed) == done and resumed.torn
    assert file.getvalue() == text and file.tell() == len(text)
    other = msgspec.structs.replace(spec, options={**spec.options, "x": 1})
    with pytest.raises(MeepleError, match="its run has option x null, this one 1"):
        list(Resume(io.BytesIO(text), other, range(10), "run.jsonl"))


def test_resume_reads_a_line_no_longer_than_a_run_file_holds(spec: RunSpec) -> None:
    endless = io.BytesIO(header_line(spec) + b"x" * (2 * MAX_LINE_BYTES))
    with pytest.raises(MeepleError, match=r"run.jsonl:2: a line of over 1,048,576 bytes"):
        list(Resume(endless, spec, range(10), "run.jsonl"))
    assert endless.tell() == len(header_line(spec)) + MAX_LINE_BYTES + 1  # and no further
