"""The runner's parallel path: chunks through a backend, games back in seed order."""

from __future__ import annotations

import io

import msgspec
import pytest

from meeple.core import runner
from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry
from meeple.core.runner import (
    MAX_LINE_BYTES,
    GameResult,
    Resume,
    RunFailed,
    RunSpec,
    chunk_size,
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
