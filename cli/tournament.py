"""``meeple tournament``: bots against each other in every seat, rated with openskill.

The schedule takes every set of ``s`` bots out of the ``b`` given (in the
order given) and rotates each set through the ``s`` seats: ``C(b, s) · s``
games, in which every bot sits in every seat equally often (``C(b-1, s-1)``
times) and meets every other bot. Game ``i`` of the tournament plays seed
``seed + i`` with seating ``i mod len(schedule)``, so the games are a function
of the bots, options and first seed, and the ratings, updated in seed order,
are the same on every run. The schedule is one run (:class:`~meeple.core.runner.Schedule`)
whose seatings are worked out as they are played, so its size costs no memory; a
schedule that makes far more games than asked for is refused unless ``--allow-large``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from meeple.cli import arguments, environment, output, report, signals
from meeple.cli.simulate import (
    CardFacts,
    FirstSeed,
    Force,
    Quiet,
    Unwritten,
    Workers,
    append,
    check_jsonl,
    lines_to,
    local_workers,
    players,
    progress,
)
from meeple.core.errors import MeepleError, echo
from meeple.core.plugins import Registry
from meeple.core.runner import GameResult, RunSpec, Schedule, each, header_line, result_line
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


MAX_GAMES = 100_000
"""The most games a tournament plays without ``--allow-large``: the schedule grows as
``C(b, s) · s``, and 50 bots in 4 seats already make 921,200 games."""


@app.command(context_settings=arguments.GAME_FLAGS)
def tournament(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots or levels (bot:easy), two or more, each named once."
        ),
    ],
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
    jsonl: Annotated[
        Path | None,
        typer.Option(
            help="Write a header line, then one JSON line per game in seed order (a run file, "
            "as `meeple simulate --jsonl` writes, which `meeple stats` reads)."
        ),
    ] = None,
    card_facts: CardFacts = False,
    force: Force = False,
    workers: Workers = None,
    allow_large: Annotated[
        bool,
        typer.Option(
            "--allow-large",
            help=f"Play a tournament of more than {MAX_GAMES:,} games (many bots make a "
            "schedule of millions).",
        ),
    ] = False,
    quiet: Quiet = False,
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
    if card_facts and jsonl is None:
        raise typer.BadParameter("--card-facts records them in the run file; name it: --jsonl")
    env = environment.env(ctx)
    with output.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        names = arguments.player_names(registry, game_cls.id, bots, "--bots")
        if len(names) < 2 or "" in names:
            raise MeepleError(f"--bots {echo(bots)}: name two or more bots, separated by commas")
        if arguments.HUMAN in names:
            raise MeepleError("--bots: a tournament plays bots only")
        names = distinct(registry, game_cls.id, names, bots)
        seats = per_game if per_game is not None else min(len(names), game_cls.max_seats)
        if not game_cls.min_seats <= seats <= min(len(names), game_cls.max_seats):
            raise MeepleError(
                f"--per-game {seats}: {game_cls.title} takes {game_cls.min_seats}-"
                f"{game_cls.max_seats} seats, and {len(names)} bots fill at most {len(names)}"
            )
        flags = arguments.option_flags(ctx, game_cls)
        game = game_cls(arguments.parse_options(game_cls, [*(option or []), *flags]))
        run = RunSpec.of(game, names, card_facts=card_facts)
        spec = Schedule(**msgspec.structs.asdict(run), seats=seats, first=seed)
        rounds = math.ceil(n / spec.size)
        total = rounds * spec.size
        every = f"every set of {seats} of the {len(names)} bots, rotated through the seats"
        plan = f"{rounds:,} times the {spec.size:,}-game schedule ({every})"
        # Asked for in -n, a long tournament is what the user wants; made by the schedule, not.
        if total > max(n, MAX_GAMES) and not allow_large:
            raise MeepleError(
                f"--bots: {every}, is a schedule of {spec.size:,} games, and -n {n:,} rounded up "
                f"to whole schedules makes {total:,}, more than {MAX_GAMES:,}; name fewer bots, "
                "give --per-game fewer seats, or add --allow-large to play them all"
            )
        seeds = arguments.seed_range(seed, total)  # every seed one a file can hold
        if jsonl is not None:
            check_jsonl(jsonl, game.id, force)
        output.err_console.print(output.plain(f"{total:,} games: {plan}"), soft_wrap=True)
        tally, ratings = Tally(), Ratings()
        started = time.perf_counter()
        stopped, unwritten, term = False, None, signals.Terminable()
        with (
            lines_to([jsonl]) as [sink],
            progress(f"{game.title} tournament games", total, quiet=quiet) as advance,
        ):
            if sink is not None:
                append(sink, header_line(spec), str(jsonl))

            def keep(result: GameResult) -> None:
                if sink is not None:  # written first: every game rated is in the file
                    append(sink, result_line(result), str(jsonl))
                tally.add(result)
                ratings.add(result)
                advance()

            try:
                with term, players(env, local_workers(workers)) as played:
                    each(played(spec, seeds), keep)
            except KeyboardInterrupt:  # the games played so far are rated still
                stopped = True
            except Unwritten as exc:
                unwritten = exc
        if stopped:
            code = signals.interrupted(tally.games, total, "games", terminated=term.terminated)
            if not tally.games:
                raise typer.Exit(code)
        if unwritten is not None and not tally.games:
            raise unwritten
        elapsed = time.perf_counter() - started
    if as_json:
        report.json(
            Tournament(
                game=game.id,
                schedule=[spec.at(k) for k in range(spec.size)],
                rounds=rounds,
                ratings=ratings.ratings(),
                summary=tally.summary(),
            )
        )
    else:
        played_of = f"{tally.games:,} of {total:,}" if stopped else f"{total:,}"
        output.console.print(output.plain(f"{played_of} games: {plan}"), soft_wrap=True)
        output.console.print(report.ratings(ratings.ratings()))
        report.summary(game.title, tally.summary())
        report.speed(tally.games, elapsed)
    if unwritten is not None:
        output.fail(f"{unwritten}; the {tally.games} games before it are in {jsonl}")
    if stopped:
        raise typer.Exit(code)


def distinct(registry: Registry, game_id: str, names: Sequence[str], given: str) -> list[str]:
    """The bots ``names``, each written canonically (its options checked); raises
    :class:`MeepleError` for a bot named twice, however written (``bot`` for the game's own,
    an option at its default): it would be rated as two bots that are one."""
    players = [registry.player(name, game_id, pin=True) for name in names]
    seen: dict[tuple[str, Any], str] = {}
    for player in players:
        key = (player.spec.name, player.options)
        if key in seen:
            first, text = seen[key], player.text
            same = f"{text} twice" if first == text else f"{first} and {text} are one bot"
            raise MeepleError(
                f"--bots {echo(given)}: {same} (`bot` is {arguments.best_bot(registry, game_id)} "
                "here); name each bot once, or give them different options"
            )
        seen[key] = player.text
    return [player.text for player in players]
