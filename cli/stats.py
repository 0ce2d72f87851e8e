"""``meeple stats``: the summary of a run again, from its JSONL file or the shards of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from meeple.cli import environment, output, report
from meeple.core.errors import MeepleError, UnreadableFile, cut
from meeple.core.files import open_file
from meeple.core.game import Game
from meeple.core.runner import GameResult, RunSpec, read_run, run_lines
from meeple.core.scoring import rank
from meeple.core.stats import Tally

app = typer.Typer()


@app.command()
def stats(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE.jsonl...", help="Run files of `meeple simulate --jsonl`, or its shards."
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of tables.")
    ] = False,
) -> None:
    """Recompute the summary tables of a run from its JSONL file, or of several shards.

    The shards must be runs of one setup (the same game, version, options, bots
    and rotation) and hold each seed once; their games may come in any order.

    Example: meeple stats part1.jsonl part2.jsonl --json
    """
    with output.errors():
        tally = Tally()
        installed = environment.env(ctx).registry.games
        spec = read_shards(files, tally, installed)
        if not tally.games:
            raise MeepleError(f"{', '.join(map(str, files))}: no games in the run")
        # A run of a game not installed here: its id will do.
        title = installed[spec.game].title if spec.game in installed else spec.game
        report.show(title, tally.summary(), as_json)


def read_shards(
    files: Sequence[Path], tally: Tally, installed: Mapping[str, type[Game[Any, Any]]]
) -> RunSpec:
    """Add every game of ``files`` to ``tally``, checking they are one run; its spec.

    The files must share their header and hold each seed once; a file that
    breaks either rule is named with the line at fault. The header's options
    must be ones the game takes, if it is one of those ``installed``.
    """
    spec: RunSpec | None = None
    seen: dict[int, Path] = {}
    for path in files:
        try:
            lines = open_file(path)
        except UnreadableFile as exc:
            raise MeepleError(f"{path}: {exc.reason}; name a run file") from None
        with lines:
            this, games = read_run(run_lines(lines, str(path)), str(path))
            if not this.bots:
                raise MeepleError(f"{path}:1: a run of no bots; the header was edited")
            if spec is None:
                if this.game in installed:
                    this.check_options(installed[this.game], str(path))
                spec, first = this, path
            elif this != spec:
                raise MeepleError(
                    f"{path}:1: not a shard of the run in {first} ({differences(spec, this)}); "
                    "give the files of one run only"
                )
            for number, game in enumerate(games, 2):
                if game.seed in seen:
                    raise MeepleError(
                        f"{path}:{number}: seed {game.seed} again (also in {seen[game.seed]}); "
                        "give each shard once"
                    )
                seen[game.seed] = path
                check_game(spec, game, f"{path}:{number}")
                tally.add(game)
    assert spec is not None  # typer asks for one file at least
    return spec


def check_game(spec: RunSpec, game: GameResult, where: str) -> None:
    """Raise :class:`MeepleError` unless ``game`` is a game the run of ``spec`` plays.

    A line of a run file is checked for what a summary counts by: the seating
    of its seed, one score per seat, and the places those scores give.
    """
    # Each list is cut as it is shown: a line (up to a megabyte) may hold long ones.
    seated, seats, ranked = (
        spec.seating(game.seed),
        [s.seat for s in game.scores],
        rank(game.scores),
    )
    if game.seats != seated:
        problem = f"seats {cut(str(game.seats))}, but the run seats {cut(str(seated))} at its seed"
    elif sorted(seats) != list(range(len(game.seats))):
        problem = f"scores for seats {cut(str(seats))}, not one a seat"
    elif game.places != ranked:
        problem = f"places {cut(str(game.places))}, but its scores rank {cut(str(ranked))}"
    else:
        return
    raise MeepleError(f"{where}: {problem}; the line was edited, or is of another run")


def differences(a: RunSpec, b: RunSpec) -> str:
    """What differs between two specs, field by field."""
    return "; ".join(
        f"{name} {cut(repr(getattr(b, name)))}, not {cut(repr(getattr(a, name)))}"
        for name in a.__struct_fields__
        if getattr(a, name) != getattr(b, name)
    )
