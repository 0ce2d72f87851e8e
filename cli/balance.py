"""``meeple report``: a designer's balance report of runs with card facts, as one HTML file.

The runs are read a seed at a time into :class:`meeple.core.balance.Balance`, which keeps
counts only, so the report of a million games takes the memory of a report of a thousand.
The page holds its plots as inline SVG (matplotlib) and its styles, and no script: it works
offline, prints as it shows, and a card named in a file is text on it, never markup. The
figures are also in the page as JSON (``<script type="application/json" id="figures">``).
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from meeple.cli import environment, saving
from meeple.cli.output import console, errors, plain
from meeple.cli.stats import check_game
from meeple.core import balance
from meeple.core.balance import FDR, Balance, Card, Histogram, Report, require
from meeple.core.errors import MeepleError, UnreadableFile, cut
from meeple.core.files import open_file
from meeple.core.game import Game
from meeple.core.plugins import Registry
from meeple.core.records import write_atomic
from meeple.core.runner import GameResult, RunSpec, Schedule, read_run, run_lines
from meeple.core.stats import Difference, Estimate

app = typer.Typer()

MOST_PLOTTED = 40
"""The most cards a plot of card effects shows: those furthest from no effect."""


@app.command()
def report(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN.jsonl...",
            help="Run files written with --card-facts: one run, its shards, or the variants "
            "of a `meeple compare --jsonl` folder.",
        ),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path(
        "report.html"
    ),
    fdr: Annotated[
        float,
        typer.Option(
            min=0.001,
            max=0.5,
            help="The false-discovery rate at which a card stands out: among the cards "
            "flagged, about this share may be flagged by chance.",
        ),
    ] = FDR,
    force: Annotated[
        bool, typer.Option(help="Overwrite --output even if it is not a balance report.")
    ] = False,
) -> None:
    """Write a balance report of simulated games as one HTML file with plots.

    Seats and bots with their win rates; for every card, how often seats took
    and played it, how taking it goes with winning, adjusted for seat and bot,
    and which cards stand out or are rarely taken; game length and score
    margins; and for runs of several option sets (`meeple compare --jsonl`),
    each against the first, seed by seed. The runs must be played with
    --card-facts. Needs pip install "meeple\\[report]".

    Example: meeple report run.jsonl -o balance.html
    """
    env = environment.env(ctx)
    with errors(), contextlib.ExitStack() as stack:
        runs = Runs(files, env.registry, stack)
        saving.check_overwrite(
            output, "--output", runs.specs[0].game, force, _game_of,
            ("balance report", "balance report"),
        )  # fmt: skip
        for module in ("statsmodels.api", "matplotlib", "jinja2"):
            require(module)
        counts = Balance(runs.specs)
        for games in runs.by_seed():
            counts.add(games)
        for run, tally in enumerate(counts.tallies):
            if not tally.games:
                raise MeepleError(f"{', '.join(runs.files[run])}: no games in the run")
        figures = counts.report(fdr, runs.kinds())
        write_atomic(output, page(figures, runs.title, runs.files).encode())
    console.print(
        plain(
            f"{output}: {runs.title}, {figures.games:,} games, {len(figures.cards)} cards, "
            f"{sum(bool(c.effect and c.effect.stands_out) for c in figures.cards)} standing out"
        ),
        soft_wrap=True,
    )


class Runs:
    """The run files of a report, their headers checked, open for reading by seed.

    Files of one setup are shards of one run; files of different setups (options, bots)
    are runs of their own, compared with the first. Each file's first game is read at once,
    so an empty run is named before any statistics are loaded.
    """

    def __init__(self, paths: Sequence[Path], registry: Registry, stack: contextlib.ExitStack):
        self.specs: list[RunSpec] = []
        self.files: list[list[str]] = []
        self.streams: list[tuple[int, Iterator[tuple[str, GameResult]]]] = []
        self.game: type[Game[Any, Any]] | None = None
        """The game's class, if it is installed here."""
        self.registry = registry
        first: tuple[RunSpec, Path] | None = None
        for path in paths:
            try:
                lines = stack.enter_context(open_file(path))
            except UnreadableFile as exc:
                raise MeepleError(f"{path}: {exc.reason}; name a run file") from None
            spec, games = read_run(run_lines(lines, str(path)), str(path))
            if first is None:
                first = spec, path
                self.game = registry.games.get(spec.game)
            elif (spec.game, spec.version) != (first[0].game, first[0].version):
                raise MeepleError(
                    f"{path}:1: a run of {cut(spec.game)} {cut(spec.version)}, but {first[1]} "
                    f"is one of {cut(first[0].game)} {cut(first[0].version)}; a report reads "
                    "the runs of one game"
                )
            if spec.card_facts is not True:
                raise MeepleError(
                    f"{path}:1: a run without card facts; play it again with --card-facts "
                    f"(meeple simulate {cut(spec.game)} ... --card-facts --jsonl {path.name})"
                )
            if not spec.bots:
                raise MeepleError(f"{path}:1: a run of no bots; the header was edited")
            if spec not in self.specs:
                if self.game is not None:
                    spec.check_options(self.game, str(path))
                self.specs.append(spec)
                self.files.append([])
            run = self.specs.index(spec)
            self.files[run].append(str(path))
            self.streams.append((run, _checked(spec, games, path)))

    @property
    def title(self) -> str:
        """The game's title (its id, if it is not installed here)."""
        return self.game.title if self.game is not None else self.specs[0].game

    def by_seed(self) -> Iterator[list[GameResult | None]]:
        return balance.by_seed(self.streams, len(self.specs))

    def kinds(self) -> set[str]:
        """Every card kind of the game as the first run sets it up, so that a kind no seat
        ever took is listed too; none if the game is not installed, or will not set up."""
        if self.game is None:
            return set()
        spec = self.specs[0]
        seats = spec.seats if isinstance(spec, Schedule) else len(spec.bots)
        try:
            game = spec.make(self.registry)
            state = game.setup(min(max(seats, game.min_seats), game.max_seats), 0)
        except MeepleError:  # a card table an option names is not here: kinds as played
            return set()
        return {game.encoding.card_kind(card) for card in game.cards(state)}


def _checked(
    spec: RunSpec, games: Iterator[GameResult], path: Path
) -> Iterator[tuple[str, GameResult]]:
    """The games of a file with where each lies, each checked as a game of ``spec`` with
    card facts for every seat; the first is read now."""

    def read() -> Iterator[tuple[str, GameResult]]:
        for number, game in enumerate(games, 2):
            where = f"{path}:{number}"
            check_game(spec, game, where)
            if not isinstance(game.cards, list) or len(game.cards) != len(game.seats):
                raise MeepleError(
                    f"{where}: no card facts for each of its {len(game.seats)} seats, but its "
                    "header says it has them; the line was edited, or is of another run"
                )
            yield where, game

    stream = read()
    first = next(stream, None)
    if first is None:
        raise MeepleError(
            f"{path}: no games, only its header; a run file holds a line per game played"
        )
    return _chained(first, stream)


def _chained(
    first: tuple[str, GameResult], rest: Iterator[tuple[str, GameResult]]
) -> Iterator[tuple[str, GameResult]]:
    yield first
    yield from rest


_MARK = re.compile(rb'<meta name="meeple-game" content="([^"]*)">')


def _game_of(path: Path) -> str | None:
    """The game of the balance report at ``path``, or ``None`` if it is none."""
    try:
        with open_file(path) as f:
            found = _MARK.search(f.read(4096))
    except (UnreadableFile, OSError):
        return None
    return found.group(1).decode(errors="replace") if found else None


# -- the page ---------------------------------------------------------------------------


def page(report: Report, title: str, files: Sequence[Sequence[str]]) -> str:
    """The report as one HTML page, its plots inline."""
    jinja2 = require("jinja2")
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("meeple.cli", "pages"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        rate=lambda x: f"{x:.1%}", interval=_interval, number=_number, odds=_odds, diff=_diff
    )
    figures = msgspec.json.encode(report).replace(b"<", b"\\u003c").decode()
    return env.get_template("report.html.j2").render(
        report=report,
        title=title,
        files=files,
        plots=plots(report),
        figures=figures,
        caveat=CAVEAT,
        markup=require("markupsafe").Markup,
        tested=[c for c in report.cards if c.effect is not None],
        rare=[c for c in report.cards if {"rarely taken", "never taken"} & set(c.flags)],
        int=int,
    )


CAVEAT = (
    "A card that goes with winning need not make a seat win: a seat that is ahead can afford "
    "more cards, and a bot that takes a card for a reason brings its reason along. To know "
    "what a card does, change it and compare the variants seed by seed (meeple compare)."
)


def _interval(e: Estimate, rate: bool = True) -> str:
    if rate:
        return f"{e.low * 100:.1f}–{e.high:.1%}"
    low, high = f"{e.low:.2f}", f"{e.high:.2f}"
    return f"{low} to {high}" if low.startswith("-") else f"{low}–{high}"


def _number(x: float, digits: int = 2) -> str:
    return f"{x:,.{digits}f}"


def _odds(x: float) -> str:
    return f"{x:.2f}" if 0.01 <= x < 100 else f"{x:.2g}"


def _diff(d: Difference) -> str:
    """A paired difference as its table shows it: a share in points, a length as is."""
    if d.measure in ("decisions", "rounds"):
        return f"{d.difference.value:+.2f} ({_interval(d.difference, rate=False)})"
    e = d.difference
    return f"{e.value * 100:+.1f} points ({e.low * 100:+.1f} to {e.high * 100:+.1f})"


# -- the plots --------------------------------------------------------------------------

SVG_METADATA = ("Creator", "Date", "Format", "Type")
"""What matplotlib writes into an SVG unless told not to: nothing a reader needs, and a date
would make two reports of the same runs differ."""

COLOURS = {"stronger": "#009E73", "weaker": "#D55E00", "": "#56B4E9", "ink": "#333333"}
"""The Okabe-Ito colours, which read alike to every kind of colour vision."""


def plots(report: Report) -> dict[str, str]:
    """Each plot of the report as an SVG element, by name."""
    out = {"seats": _svg("seats", _seats, report)}
    if any(len(run.summary.bots) > 1 for run in report.runs):
        out["bots"] = _svg("bots", _bots, report)
    tested = [c for c in report.cards if c.effect is not None]
    if tested:
        out["effects"] = _svg("effects", _effects, tested)
    if report.cards:
        out["taken"] = _svg("taken", _taken, report.cards)
    out["length"] = _svg("length", _length, report)
    out["scores"] = _svg("scores", _scores, report)
    if report.variants:
        out["variants"] = _svg("variants", _variants, report)
    return out


def _svg(name: str, draw: Callable[[Any, Any], None], data: Any) -> str:
    """The figure ``draw(figure, data)`` makes, as an ``<svg>`` element for the page: its text
    as text (the page's fonts), no metadata, and ids salted by its name (several share the page,
    and matplotlib names clip paths and markers by their content)."""
    matplotlib = require("matplotlib")
    figure_module = require("matplotlib.figure")
    style = {
        "svg.fonttype": "none",
        "svg.hashsalt": f"meeple-{name}",
        "font.family": "sans-serif",
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
    with matplotlib.rc_context(style):
        figure = figure_module.Figure(layout="constrained")
        draw(figure, data)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata=dict.fromkeys(SVG_METADATA))
    text = out.getvalue()
    return text[text.index("<svg") :].replace("<svg ", '<svg role="img" ', 1)


def _label(text: str) -> str:
    """Text matplotlib draws as written (a ``$`` in a card's name starts no formula)."""
    return text.replace("\\", "\\\\").replace("$", r"\$")


def _seats(figure: Any, report: Report) -> None:
    figure.set_size_inches(6.5, 2.6)
    ax = figure.subplots()
    width = 0.8 / len(report.runs)
    for i, run in enumerate(report.runs):
        rows = run.summary.seats
        xs = [int(r.name) + (i - (len(report.runs) - 1) / 2) * width for r in rows]
        _rates(ax, xs, [r.win_rate for r in rows], f"run {i + 1}" if len(report.runs) > 1 else None)
        even = 1 / len(rows)
        ax.axhline(even, color=COLOURS["ink"], linewidth=0.6, linestyle=":")
    ax.set_xticks(range(max(len(r.summary.seats) for r in report.runs)))
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate")
    if len(report.runs) > 1:
        ax.legend(frameon=False)
    ax.yaxis.set_major_formatter(_percent())


def _bots(figure: Any, report: Report) -> None:
    bots = sorted({b.name for run in report.runs for b in run.summary.bots})
    figure.set_size_inches(6.5, 0.5 + 0.3 * len(bots) * len(report.runs))
    ax = figure.subplots()
    for i, run in enumerate(report.runs):
        rows = {b.name: b for b in run.summary.bots}
        ys = [bots.index(name) + i * 0.8 / len(report.runs) for name in rows]
        for y, row in zip(ys, rows.values(), strict=True):
            e = row.win_rate
            ax.errorbar(e.value, y, xerr=[[e.value - e.low], [e.high - e.value]], fmt="o",
                        color=COLOURS[""], capsize=2)  # fmt: skip
    ax.set_yticks(range(len(bots)), [_label(b) for b in bots])
    ax.invert_yaxis()
    ax.set_xlabel("win rate")
    ax.xaxis.set_major_formatter(_percent())


def _rates(ax: Any, xs: Sequence[float], rates: Sequence[Estimate], label: str | None) -> None:
    values = [e.value for e in rates]
    errors = [[e.value - e.low for e in rates], [e.high - e.value for e in rates]]
    ax.errorbar(xs, values, yerr=errors, fmt="o", capsize=3, label=label)


def _percent() -> Any:
    return require("matplotlib.ticker").PercentFormatter(1.0, decimals=None)


def _shown(cards: Sequence[Card]) -> list[Card]:
    """The cards a plot of effects shows: all that stand out, then the furthest from 1."""
    assert all(c.effect is not None for c in cards)
    ranked = sorted(
        cards,
        key=lambda c: (not c.effect.stands_out, -abs(math.log(c.effect.odds)), c.kind),  # type: ignore[union-attr]
    )
    return ranked[:MOST_PLOTTED]


def _effects(figure: Any, cards: Sequence[Card]) -> None:
    shown = _shown(cards)
    figure.set_size_inches(6.5, 0.7 + 0.22 * len(shown))
    ax = figure.subplots()
    for y, card in enumerate(shown):
        e = card.effect
        assert e is not None
        colour = COLOURS[_verdict(card)]
        ax.plot([e.low, e.high], [y, y], color=colour, linewidth=1.5)
        ax.plot([e.odds], [y], "o", color=colour, markersize=4)
    ax.axvline(1, color=COLOURS["ink"], linewidth=0.6, linestyle=":")
    ax.set_xscale("log")
    ticker = require("matplotlib.ticker")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_yticks(range(len(shown)), [_label(c.kind) for c in shown])
    ax.invert_yaxis()
    ax.set_xlabel("odds ratio of winning, seats that took it against those that did not")


def _verdict(card: Card) -> str:
    return next((f for f in card.flags if f in ("stronger", "weaker")), "")


def _taken(figure: Any, cards: Sequence[Card]) -> None:
    figure.set_size_inches(6.5, 3.2)
    ax = figure.subplots()
    for verdict in ("", "weaker", "stronger"):
        group = [c for c in cards if _verdict(c) == verdict]
        xs = [c.taken.value for c in group]
        ys = [c.won_taken.value - c.won_not.value if c.taken.value else 0.0 for c in group]
        ax.scatter(xs, ys, s=14, color=COLOURS[verdict], label=verdict or "within noise")
        if verdict:
            for card, x, y in zip(group, xs, ys, strict=True):
                ax.annotate(_label(card.kind), (x, y), xytext=(3, 3), textcoords="offset points")
    ax.axhline(0, color=COLOURS["ink"], linewidth=0.6, linestyle=":")
    ax.axvline(balance.RARE, color=COLOURS["ink"], linewidth=0.6, linestyle="--")
    ax.set_xlabel("share of seat-games that took it")
    ax.set_ylabel("win rate with it less without")
    ax.xaxis.set_major_formatter(_percent())
    ax.yaxis.set_major_formatter(_percent())
    ax.legend(frameon=False, fontsize=8)


def _bars(ax: Any, histogram: Histogram, label: str) -> None:
    keys = sorted(histogram.counts)
    ax.bar([histogram.value(k) for k in keys], [histogram.counts[k] for k in keys],
           width=histogram.width, color=COLOURS[""], edgecolor="white", linewidth=0.3)  # fmt: skip
    ax.set_xlabel(label)
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(require("matplotlib.ticker").MaxNLocator(integer=True))


def _length(figure: Any, report: Report) -> None:
    figure.set_size_inches(6.5, 2.4)
    decisions, rounds, margin = figure.subplots(1, 3)
    _bars(decisions, report.decisions, "decisions")
    _bars(rounds, report.rounds, "rounds")
    _bars(margin, report.margin, "margin, first over second")


def _scores(figure: Any, report: Report) -> None:
    figure.set_size_inches(6.5, 2.4)
    ax = figure.subplots()
    stats = []
    for seat, histogram in enumerate(report.scores):
        q = functools.partial(histogram.quantile)
        low, high = histogram.value(min(histogram.counts)), histogram.value(max(histogram.counts))
        stats.append(
            {"label": str(seat), "whislo": low, "q1": q(0.25), "med": q(0.5), "q3": q(0.75),
             "whishi": high, "fliers": []}
        )  # fmt: skip
    ax.bxp(stats, showfliers=False)
    ax.set_xlabel("seat")
    ax.set_ylabel("final score")


def _variants(figure: Any, report: Report) -> None:
    rows = [
        (v.run, d) for v in report.variants for d in v.differences
        if d.measure not in ("decisions", "rounds")
    ]  # fmt: skip
    figure.set_size_inches(6.5, 0.7 + 0.25 * len(rows))
    ax = figure.subplots()
    for y, (_, d) in enumerate(rows):
        e = d.difference
        colour = COLOURS["stronger"] if e.excludes(0) else COLOURS[""]
        ax.plot([e.low, e.high], [y, y], color=colour, linewidth=1.5)
        ax.plot([e.value], [y], "o", color=colour, markersize=4)
    ax.axvline(0, color=COLOURS["ink"], linewidth=0.6, linestyle=":")
    ax.set_yticks(range(len(rows)), [_label(f"run {run + 1}: {d.measure}") for run, d in rows])
    ax.invert_yaxis()
    ax.set_xlabel("difference from run 1, seed by seed")
    ax.xaxis.set_major_formatter(_percent())
