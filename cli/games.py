"""``meeple games``: the installed games."""

from __future__ import annotations

import msgspec
import typer
from rich.table import Table

from meeple.cli import environment, output

app = typer.Typer()


class GameInfo(msgspec.Struct):
    id: str
    title: str
    min_seats: int
    max_seats: int
    version: str
    plugin: str


@app.command()
def games(
    ctx: typer.Context,
    json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List the installed games.

    Example: meeple games --json
    """
    registry = environment.env(ctx).registry
    infos = [
        GameInfo(g.id, g.title, g.min_seats, g.max_seats, g.version, registry.game_plugin(g.id))
        for g in sorted(registry.games.values(), key=lambda g: g.id)
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
