"""``meeple games``: the installed games, and with ``--bots`` their bots and levels."""

from __future__ import annotations

import msgspec
import typer
from rich.table import Table

from meeple.cli import arguments, environment, output, report
from meeple.core.levels import Level
from meeple.core.plugins import Registry

app = typer.Typer()


class BotInfo(msgspec.Struct):
    name: str
    games: list[str] | None
    """The games it plays (``None``: every game)."""
    help: str
    plugin: str
    options: list[str]
    """The options it takes (``--seats ismcts:iterations=400``)."""


class GameInfo(msgspec.Struct, omit_defaults=True):
    id: str
    title: str
    min_seats: int
    max_seats: int
    version: str
    plugin: str
    bot: str | None = None
    """With ``--bots``: what a seat named ``bot`` plays."""
    bots: list[BotInfo] | None = None
    """With ``--bots``: every bot that plays the game."""
    levels: list[Level] | None = None
    """With ``--bots``: what ``bot:easy``, ``bot:medium`` and ``bot:hard`` play, and how they
    fared when measured."""


def bots_of(registry: Registry, game_id: str) -> list[BotInfo]:
    specs = (registry.bot(name, game_id) for name in registry.bot_names(game_id))
    return [
        BotInfo(
            s.name,
            None if s.games is None else list(s.games),
            s.help,
            s.plugin,
            [] if s.options is None else [f.name for f in msgspec.structs.fields(s.options)],
        )
        for s in specs
    ]


@app.command()
def games(
    ctx: typer.Context,
    json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    bots: bool = typer.Option(
        False,
        "--bots",
        help="Also list each game's bots and its levels (bot:easy, bot:medium, bot:hard): the "
        "bot each plays and its measured strength.",
    ),
) -> None:
    """List the installed games.

    Example: meeple games --bots
    """
    registry = environment.env(ctx).registry
    infos = [
        GameInfo(g.id, g.title, g.min_seats, g.max_seats, g.version, registry.game_plugin(g.id))
        for g in sorted(registry.games.values(), key=lambda g: g.id)
    ]
    if bots:
        infos = [
            msgspec.structs.replace(
                i,
                bot=arguments.best_bot(registry, i.id),
                bots=bots_of(registry, i.id),
                levels=registry.levels(i.id),
            )
            for i in infos
        ]
    if json:
        output.echo_json(msgspec.json.encode(infos))
        return
    if not infos:
        output.console.print("No games are installed; `meeple plugins --all` shows what loaded.")
        return
    table = Table(title="Installed games")
    for column in ("id", "title", "seats", "version", "plugin"):
        table.add_column(column, overflow="fold")  # a long id or plugin name whole, not cut
    for i in infos:
        cells = (i.id, i.title, f"{i.min_seats}-{i.max_seats}", i.version, i.plugin)
        table.add_row(*map(output.plain, cells))
    output.console.print(table)
    for i in infos:
        if i.bots is not None and i.levels is not None and i.bot is not None:
            output.console.print(bot_table(i.title, i.bots, i.bot))
            output.console.print(level_table(i.title, i.levels))


def bot_table(title: str, bots: list[BotInfo], alias: str) -> Table:
    table = Table(
        title=output.plain(f"{title}: bots"), caption=output.plain(f"`bot` plays {alias}")
    )
    for column in ("bot", "plays", "options", "what it does"):
        table.add_column(column, overflow="fold")
    for b in bots:
        plays = "every game" if b.games is None else ", ".join(b.games)
        cells = (b.name, plays, ", ".join(b.options) or "-", b.help)
        table.add_row(*map(output.plain, cells))
    return table


def level_table(title: str, levels: list[Level]) -> Table:
    """Each level's bot and strength, and the commands that measured it."""
    measured = sorted({lv.measured for lv in levels if lv.strength is not None})
    notes = [lv.note for lv in levels if lv.note]
    seats = {lv.seats for lv in levels if lv.strength is not None}
    fair = f"; fair share {1 / seats.pop():.0%}" if len(seats) == 1 else ""
    caption = [
        *(f"measured: {command}" for command in measured),
        *(
            ["share of the wins (95% Wilson; a shared win counts 1/k); openskill mu ± 2σ" + fair]
            if measured
            else []
        ),
        *notes,
    ]
    table = Table(
        title=output.plain(f"{title}: levels (--seats bot:easy)"),
        caption=output.plain("\n".join(caption), lines=True) if caption else None,
    )
    table.add_column("level")
    table.add_column("plays", overflow="fold")
    for column in ("games", "wins", "95% CI", "mu ± 2σ"):
        table.add_column(column, justify="right")
    for lv in levels:
        s = lv.strength
        figures = (
            ("-", "-", "-", "not measured")
            if s is None
            else (
                str(s.games),
                f"{s.wins:.1%}",
                report.interval(f"{s.low * 100:.1f}", f"{s.high:.1%}"),
                report.interval(f"{s.mu - 2 * s.sigma:.1f}", f"{s.mu + 2 * s.sigma:.1f}"),
            )
        )
        table.add_row(output.plain(f"bot:{lv.name}"), output.plain(lv.bot), *figures)
    return table
