"""Simulation runs: many seeded bot games, each an independent unit of work.

A run is a :class:`RunSpec` -- the game, its options, the bots by seat and
whether seats rotate -- and a set of seeds. A game is a function of the spec
and its seed alone (its seating included), so a run cut into shards, or
spread over any number of workers, plays exactly the same games.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.plugins import Registry, plugin_manager
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

    @classmethod
    def of(cls, game: Game[Any, Any], bots: Iterable[str], rotate: bool = False) -> RunSpec:
        return cls(
            game=game.id,
            version=game.version,
            options=msgspec.to_builtins(game.options),
            bots=list(bots),
            rotate=rotate,
        )

    def seating(self, seed: int) -> list[str]:
        """The bot in each seat in the game of ``seed``."""
        bots = self.bots
        k = seed % len(bots) if self.rotate else 0
        return bots[-k:] + bots[:-k] if k else list(bots)

    def make(self, registry: Registry) -> Game[Any, Any]:
        """The spec's game, with its options, from the games ``registry`` knows."""
        cls = registry.game(self.game)
        return cls(msgspec.convert(self.options, cls.Options))


class GameResult(msgspec.Struct, kw_only=True):
    """One finished game: a line of ``--jsonl`` (no timings, so equal seeds give equal bytes)."""

    seed: int
    seats: list[str]
    scores: list[Score]
    places: list[int]
    decisions: int
    rounds: int
    digest: str


class Header(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The first line of a run's JSONL file: the spec every later line (a result) shares.

    Results follow in seed order, whatever the number of workers, so the
    file is the same bytes for the same run.
    """

    run: RunSpec


def header_line(spec: RunSpec) -> bytes:
    return msgspec.json.encode(Header(run=spec)) + b"\n"


def result_line(result: GameResult) -> bytes:
    return msgspec.json.encode(result) + b"\n"


def read_run(lines: Iterable[bytes], where: str) -> tuple[RunSpec, Iterator[GameResult]]:
    """The spec and the results of a JSONL run file's ``lines``; ``where`` names it in errors.

    Raises :class:`~meeple.core.errors.MeepleError` naming the line at fault.
    """
    it = iter(enumerate(lines, 1))
    try:
        _, first = next(it)
        spec = msgspec.json.decode(first, type=Header).run
    except StopIteration:
        raise MeepleError(f"{where}: empty, not a run file of `meeple simulate --jsonl`") from None
    except msgspec.ValidationError as exc:
        raise MeepleError(f"{where}:1: not a run header ({exc})") from None
    except msgspec.DecodeError as exc:
        raise MeepleError(f"{where}:1: not JSON ({exc})") from None

    def results() -> Iterator[GameResult]:
        for number, line in it:
            try:
                yield msgspec.json.decode(line, type=GameResult)
            except msgspec.DecodeError as exc:  # ValidationError included
                raise MeepleError(f"{where}:{number}: not a game result ({exc})") from None

    return spec, results()


def play_game(
    registry: Registry, hooks: Hooks, game: Game[Any, Any], spec: RunSpec, seed: int
) -> GameResult:
    """Play the game of ``seed`` to its end."""
    seated = spec.seating(seed)
    match = Match.new(game, len(seated), seed, hooks)
    bots = [
        registry.player(name, game.id).make(game, seat, seed) for seat, name in enumerate(seated)
    ]
    scores = match.run(bots)
    return GameResult(
        seed=seed,
        seats=seated,
        scores=scores,
        places=rank(scores),
        decisions=len(match.actions),
        rounds=match.state.turns.round,
        digest=game.digest(match.state),
    )


def play(
    registry: Registry, hooks: Hooks, spec: RunSpec, seeds: Iterable[int]
) -> Iterator[GameResult]:
    """The result of each seed's game, in the order of ``seeds``, played in this process."""
    game = spec.make(registry)
    for seed in seeds:
        yield play_game(registry, hooks, game, spec, seed)


@functools.cache
def _installed() -> tuple[Registry, Hooks]:
    pm = plugin_manager()
    return Registry(pm), Hooks(pm)


def play_seeds(spec: RunSpec, seeds: Sequence[int]) -> list[GameResult]:
    """The work unit a worker runs: the games of ``seeds``, with the plugins installed here.

    A worker process loads the installed plugins once (entry points and
    ``MEEPLE_DISABLE_PLUGINS``, as the command line does), then plays from the
    spec alone, so any process or machine with the same plugins plays the same games.
    """
    registry, hooks = _installed()
    return list(play(registry, hooks, spec, seeds))
