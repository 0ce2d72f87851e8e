"""``meeple schema``: the JSON Schema of a game's record and snapshot files."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import msgspec
import typer

from meeple.cli import common
from meeple.core import records

app = typer.Typer()


class Kind(StrEnum):
    record = "record"
    snapshot = "snapshot"


@app.command()
def schema(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    kind: Annotated[Kind | None, typer.Option(help="Only this file kind (default: both).")] = None,
) -> None:
    """Print the JSON Schema of a game's files, generated from its types.

    Without --kind the schema accepts either a record or a snapshot; both
    share one set of definitions.

    Example: meeple schema clonk --kind record > clonk-record.schema.json
    """
    with common.errors():
        game = common.env(ctx).registry.game(game_id)
    types = {Kind.record: records.record_type(game), Kind.snapshot: records.snapshot_type(game)}
    document: dict[str, Any]
    if kind is not None:
        document = msgspec.json.schema(types[kind])
    else:
        parts, defs = msgspec.json.schema_components(types.values())
        document = {"anyOf": list(parts), "$defs": defs}
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.title} {kind.value if kind else 'record or snapshot'} "
        f"(rules version {game.version}, file format {records.FORMAT})",
        **document,
    }
    common.echo_json(msgspec.json.encode(document))
