"""``meeple schema``: the JSON Schema of a game's record and snapshot files."""

from __future__ import annotations

import re
import types
import typing
from enum import StrEnum
from typing import Annotated, Any

import msgspec
import msgspec.inspect as mi
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
    files = {Kind.record: records.record_type(game), Kind.snapshot: records.snapshot_type(game)}
    chosen = [files[kind]] if kind is not None else list(files.values())
    parts, defs = components(chosen)
    document = {**(parts[0] if kind is not None else {"anyOf": list(parts)}), "$defs": defs}
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.title} {kind.value if kind else 'record or snapshot'} "
        f"(rules version {game.version}, file format {records.FORMAT})",
        **document,
    }
    common.echo_json(msgspec.json.encode(document))


REF = "#/$defs/"


def components(kinds: list[Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """msgspec's schema of each of ``kinds`` and their shared definitions, each generic
    struct named as its type reads (``Pool[Effect]``).

    msgspec names a generic struct after the repr of its arguments, and a union reprs as the
    import path of every member (``Pool_typing.Union_meeple.plugins...``): hundreds of
    characters. A union is named here by the nearest base its members share.
    """
    generic = [cls for cls in _structs(kinds) if typing.get_origin(cls) is not None]
    # Asked for too, each generic gives its reference: the name msgspec gave it.
    parts, defs = msgspec.json.schema_components([*kinds, *generic])
    renamed: dict[str, str] = {}
    for cls, part in zip(generic, parts[len(kinds) :], strict=True):
        title = f"{_name(typing.get_origin(cls))}[{', '.join(map(_name, typing.get_args(cls)))}]"
        name = base = re.sub(r"\W+", "_", title).strip("_")
        n = 1
        while name in defs or name in renamed.values():
            n += 1
            name = f"{base}_{n}"
        old = part["$ref"].removeprefix(REF)
        renamed[old] = name
        defs[old] = {**defs[old], "title": title}
    defs = {renamed.get(key, key): value for key, value in defs.items()}
    return _refer(list(parts[: len(kinds)]), renamed), _refer(defs, renamed)


def _structs(kinds: list[Any]) -> list[Any]:
    """The struct classes ``kinds`` hold, at any depth, each once."""
    found: dict[Any, None] = {}

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls in found:
                return
            found[t.cls] = None
            for field in t.fields:
                walk(field.type)
        for attr in ("type", "item_type", "key_type", "value_type"):
            inner = getattr(t, attr, None)
            if isinstance(inner, mi.Type):
                walk(inner)
        inners: tuple[mi.Type, ...] = getattr(t, "types", ()) or getattr(t, "item_types", ())
        for inner in inners:
            walk(inner)

    for t in mi.multi_type_info(kinds):
        walk(t)
    return list(found)


def _name(t: Any) -> str:
    """A type argument as a name reads it: a class by its name, a union by the nearest base
    class its members share (``Effect``), else by its members' names."""
    members = typing.get_args(t) if typing.get_origin(t) in (typing.Union, types.UnionType) else ()
    if not members:
        return getattr(t, "__name__", repr(t))
    classes = [m for m in members if isinstance(m, type)]
    if len(classes) == len(members):
        shared = (c for c in classes[0].__mro__ if all(issubclass(m, c) for m in classes))
        base = next((c for c in shared if c not in (msgspec.Struct, typing.Generic, object)), None)
        if base is not None:
            return base.__name__
    return " | ".join(map(_name, members))


def _refer(value: Any, renamed: dict[str, str]) -> Any:
    """``value`` (decoded JSON) with each reference to a definition renamed."""
    if isinstance(value, dict):
        return {k: _refer(v, renamed) for k, v in value.items()}
    if isinstance(value, list):
        return [_refer(v, renamed) for v in value]
    if isinstance(value, str) and value.startswith(REF):
        return REF + renamed.get(value.removeprefix(REF), value.removeprefix(REF))
    return value
