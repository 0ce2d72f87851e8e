"""``meeple tournament``: bots against each other in every seat, rated with openskill.

The schedule takes every set of ``s`` bots out of the ``b`` given (in the
order given) and rotates each set through the ``s`` seats: ``C(b, s) · s``
games, in which every bot sits in every seat equally often (``C(b-1, s-1)``
times) and meets every other bot. Game ``i`` of the tournament plays seed
``seed + i`` with seating ``i mod len(schedule)``, so the games are a function
of the bots, options and first seed, and the ratings, updated in seed order,
are the same on every run.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator, Sequence
from typing import Annotated

import msgspec
import typer

from meeple.cli import common, report
from meeple.cli.simulate import FirstSeed, Workers, players
from meeple.core.errors import MeepleError
from meeple.core.runner import GameResult, RunSpec, cpu_count
from meeple.core.stats import Rating, Ratings, Summary, Tally

app = typer.Typer()


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """What ``meeple tournament --json`` prints."""

    game: str
    schedule: list[list[str]]
    """The bot in each seat of the schedule's games; the tournament repeats it ``rounds`` times."""
    rounds: int
    ratings: list[Rating]
    """Best first."""
    summary: Summary


def schedule(bots: Sequence[str], seats: int) -> list[list[str]]:
    """Every set of ``seats`` bots, each rotated through the seats (see the module's docstring)."""
    return [
        [*group[k:], *group[:k]]
        for group in itertools.combinations(bots, seats)
        for k in range(seats)
    ]


def games_of(streams: Sequence[Iterator[GameResult]], total: int) -> Iterator[GameResult]:
    """``total`` results, one from each of the schedule's streams in turn: seed order."""
    for i in range(total):
        yield next(streams[i % len(streams)])


@app.command(context_settings=common.GAME_FLAGS)
def tournament(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    bots: Annotated[str, typer.Option(help="Comma-separated bots, two or more, each named once.")],
    n: Annotated[
        int,
        typer.Option("-n", "--games", min=1, help="How many games, rounded up to whole schedules."),
    ] = 100,
    per_game: Annotated[
        int | None,
        typer.Option(
            help="Seats in each game (default: as many as the bots, up to the game's most)."
        ),
    ] = None,
    seed: FirstSeed = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option, key=value.")
    ] = None,
    workers: Workers = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print ratings and summary as JSON instead of tables.")
    ] = False,
) -> None:
    """Play bots against each other, every bot in every seat equally often, and rate them.

    Each set of bots that fits a game is rotated through the seats; the whole
    schedule repeats until -n games are played (rounded up to whole schedules).
    The ratings are openskill's Plackett-Luce model, updated in seed order:
    mu is the skill, mu ± 2σ its range with about 95% belief.

    Example: meeple tournament clonk --bots greedy,random -n 200
    """
    env = common.env(ctx)
    with common.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        names = common.player_names(registry, game_cls.id, bots, "--bots")
        if len(names) < 2 or "" in names:
            raise MeepleError(f"--bots {bots!r}: name two or more bots, separated by commas")
        if common.HUMAN in names:
            raise MeepleError("--bots: a tournament plays bots only")
        # Each bot's options are checked (raising if one is wrong) and written canonically.
        names = [registry.player(name, game_cls.id, pin=True).text for name in names]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise MeepleError(
                f"--bots {bots!r}: {', '.join(twice)} twice (`bot` is "
                f"{common.best_bot(registry, game_cls.id)} here); name each bot once"
            )
        seats = per_game if per_game is not None else min(len(names), game_cls.max_seats)
        if not game_cls.min_seats <= seats <= min(len(names), game_cls.max_seats):
            raise MeepleError(
                f"--per-game {seats}: {game_cls.title} takes {game_cls.min_seats}-"
                f"{game_cls.max_seats} seats, and {len(names)} bots fill at most {len(names)}"
            )
        flags = common.option_flags(ctx, game_cls)
        game = game_cls(common.parse_options(game_cls, [*(option or []), *flags]))
        seatings = schedule(names, seats)
        rounds = math.ceil(n / len(seatings))
        total = rounds * len(seatings)
        common.seed_range(seed, total)  # every seed one a file can hold
        tally, ratings = Tally(), Ratings()
        started = time.perf_counter()
        stopped, term = False, common.Terminable()
        try:
            with term, players(env, workers or cpu_count()) as played:
                streams = [
                    played(RunSpec.of(game, seating), range(seed + k, seed + total, len(seatings)))
                    for k, seating in enumerate(seatings)
                ]
                for game_result in games_of(streams, total):
                    tally.add(game_result)
                    ratings.add(game_result)
        except KeyboardInterrupt:  # the games played so far are rated still
            stopped = True
            code = common.interrupted(tally.games, total, "games", terminated=term.terminated)
            if not tally.games:
                raise typer.Exit(code) from None
        elapsed = time.perf_counter() - started
    result = Tournament(
        game=game.id,
        schedule=seatings,
        rounds=rounds,
        ratings=ratings.ratings(),
        summary=tally.summary(),
    )
    if as_json:
        report.json(result)
    else:
        played_of = f"{tally.games} of {total}" if stopped else str(total)
        common.console.print(
            common.plain(
                f"{played_of} games: {rounds} times the {len(seatings)}-game schedule (every set "
                f"of {seats} of the {len(names)} bots, rotated through the seats)"
            ),
            soft_wrap=True,
        )
        common.console.print(report.ratings(result.ratings))
        report.summary(game.title, result.summary)
        report.speed(tally.games, elapsed)
    if stopped:
        raise typer.Exit(code)
