"""``meeple compare``: the same seeds under two or more option sets, with paired differences.

Each seed is played under every variant, and each variant is compared with
the first game by game (see :class:`meeple.core.stats.Paired`), which says
whether a rules change moves win rates, game length or outcomes beyond noise.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from meeple.cli import arguments, environment, output, report, signals
from meeple.cli.simulate import (
    Bots,
    CardFacts,
    FirstSeed,
    Force,
    Quiet,
    Rotate,
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
from meeple.core.runner import (
    GameResult,
    Games,
    RunSpec,
    each,
    header_line,
    rest,
    result_line,
)
from meeple.core.stats import Difference, Paired, Summary, Tally

app = typer.Typer()

# A comma starts a new option only before ``key=``: a JSON value keeps its commas (tasks=[1,2]).
_ITEM = re.compile(r",(?=\s*[A-Za-z_][\w-]*\s*=)")


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """One option set of a comparison and the summary of its games."""

    variant: str
    """As given to ``--variant``."""
    options: dict[str, Any]
    """Every option of the game under this variant (defaults included)."""
    summary: Summary


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """What ``meeple compare --json`` prints."""

    game: str
    games: int
    """Seeds played under every variant."""
    variants: list[Variant]
    """In ``--variant`` order; the first is the base."""
    differences: list[list[Difference]]
    """For each variant after the first: each measure against the base, seed by seed."""


def variant_items(text: str) -> list[str]:
    """``"board=back,hand_limit=6"`` -> ``["board=back", "hand_limit=6"]``; ``""``: none."""
    return [item.strip() for item in _ITEM.split(text)] if text.strip() else []


@app.command(context_settings=arguments.GAME_FLAGS)
def compare(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    variant: Annotated[
        list[str],
        typer.Option(
            help='An option set: comma-separated key=value, as for --option ("" for the '
            "defaults). Give two or more; the first is the base the others are compared with."
        ),
    ],
    n: Annotated[
        int, typer.Option("-n", "--games", min=1, help="How many seeds to play each variant on.")
    ] = 100,
    seed: FirstSeed = 0,
    seats: Bots = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Game option of every variant, key=value."),
    ] = None,
    rotate: Rotate = False,
    jsonl: Annotated[
        Path | None,
        typer.Option(
            help="Write each variant's games to FOLDER/variant-1.jsonl, variant-2.jsonl, ... "
            "(run files, as `meeple simulate --jsonl` writes)."
        ),
    ] = None,
    card_facts: CardFacts = False,
    force: Force = False,
    workers: Workers = None,
    quiet: Quiet = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the comparison as JSON instead of tables.")
    ] = False,
) -> None:
    """Play the same seeds under two or more option sets and compare them seed by seed.

    For each variant after the first: each seat's win rate, game length and
    outcome shares, against the first variant, with the 95% interval of the
    paired difference; an interval that excludes 0 is a difference beyond noise.

    Example: meeple compare clank --variant board=front --variant board=back -n 500 --rotate
    """
    if card_facts and jsonl is None:
        raise typer.BadParameter("--card-facts records them in the run files; name their --jsonl")
    env = environment.env(ctx)
    with output.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        if len(variant) < 2:
            raise MeepleError("--variant: give two or more; the first is the base")
        names = arguments.parse_seats(
            registry, game_cls, seats or ",".join([arguments.BOT] * game_cls.max_seats)
        )
        if arguments.HUMAN in names:
            raise MeepleError("--seats: compare plays bots only")
        shared = [*(option or []), *arguments.option_flags(ctx, game_cls)]
        specs = []
        for text in variant:
            try:
                options = arguments.parse_options(game_cls, [*shared, *variant_items(text)])
            except MeepleError as exc:
                raise MeepleError(f"--variant {echo(text)}: {exc}") from None
            specs.append(RunSpec.of(game_cls(options), names, rotate, card_facts))
        seeds = arguments.seed_range(seed, n)
        paths: list[Path | None] = [None] * len(specs)
        if jsonl is not None:
            paths = [jsonl / f"variant-{i}.jsonl" for i in range(1, len(specs) + 1)]
            for path in filter(None, paths):
                check_jsonl(path, game_cls.id, force)
        tallies = [Tally() for _ in specs]
        pairs = [Paired() for _ in specs[1:]]
        started = time.perf_counter()
        stopped, unwritten, term = False, None, signals.Terminable()
        try:  # outside the workers' ``with``: leaving it on Ctrl-C stops them at once
            with term, contextlib.ExitStack() as stack:
                sinks = stack.enter_context(lines_to(paths))
                for spec, sink, where in zip(specs, sinks, paths, strict=True):
                    if sink is not None:
                        append(sink, header_line(spec), str(where))

                games = n * len(specs)
                advance = stack.enter_context(progress(f"{game_cls.title} games", games, 0, quiet))

                def keep(results: list[GameResult]) -> None:
                    for result, sink, where, tally in zip(
                        results, sinks, paths, tallies, strict=True
                    ):
                        if sink is not None:
                            append(sink, result_line(result), str(where))
                        tally.add(result)
                        advance()
                    for pair, result in zip(pairs, results[1:], strict=True):
                        pair.add(results[0], result)

                played = stack.enter_context(players(env, local_workers(workers)))
                each(rows([played(spec, seeds) for spec in specs], seeds), keep)
        except KeyboardInterrupt:
            stopped = True
            code = signals.interrupted(pairs[0].games, n, "seeds", terminated=term.terminated)
        except Unwritten as exc:
            unwritten = exc
        elapsed = time.perf_counter() - started
    if pairs[0].games:
        comparison = Comparison(
            game=game_cls.id,
            games=pairs[0].games,
            variants=[
                Variant(variant=text, options=spec.options, summary=tally.summary())
                for text, spec, tally in zip(variant, specs, tallies, strict=True)
            ],
            differences=[pair.differences() for pair in pairs],
        )
        show(game_cls.title, comparison, elapsed, as_json)
    if unwritten is not None:
        output.fail(f"{unwritten}; the {pairs[0].games} seeds before it are in {jsonl}")
    if stopped:
        raise typer.Exit(code)


def rows(runs: Sequence[Games], seeds: range) -> Generator[list[GameResult], None, None]:
    """The game of each seed in every run, seed by seed.

    On Ctrl-C each run gives the games it finished (see
    :func:`~meeple.core.runner.results`): those of the seeds that every run
    finished, after the last seed given, come next; then Ctrl-C is raised.
    """
    taken: list[dict[int, GameResult]] = [{} for _ in runs]  # by seed, not given yet
    given = 0
    try:
        for seed in seeds:
            for run, games in zip(runs, taken, strict=True):
                game = next(run)
                games[game.seed] = game
            row = [games.pop(seed) for games in taken]
            given += 1
            yield row
    except KeyboardInterrupt:
        for run, games in zip(runs, taken, strict=True):
            games.update((game.seed, game) for game in rest(run))
        for seed in seeds[given:]:
            if not all(seed in games for games in taken):
                break
            yield [games.pop(seed) for games in taken]
        raise


def show(title: str, comparison: Comparison, elapsed: float, as_json: bool) -> None:
    if as_json:
        report.json(comparison)
        return
    base, *others = comparison.variants
    for i, v in enumerate(comparison.variants, 1):
        said = f"variant {i} ({v.variant or 'defaults'}): {v.summary.seat_test.verdict}"
        output.console.print(output.plain(said), soft_wrap=True)
    for i, (other, rows) in enumerate(zip(others, comparison.differences, strict=True), 2):
        heading = (
            f"{title}: variant {i} ({other.variant or 'defaults'}) against variant 1 "
            f"({base.variant or 'defaults'}), {comparison.games} seeds"
        )
        output.console.print(report.differences(heading, rows))
    report.speed(comparison.games * len(comparison.variants), elapsed)
