"""Deep copies of game states, driven by the declared field types.

:meth:`Game.clone` is the engine's and the bots' deep copy (every view starts
as one). A msgpack round trip builds every value anew and validates it; this
copies only what can change -- structs, lists, dicts, sets -- and shares what
cannot: strings, numbers, literals, enums, frozen structs of those. A struct's
copier is Python source written once per struct type from its annotations, so
a zone costs a ``__copy__`` and a list slice.

A value of a type it does not know raises :class:`Uncopyable`; ``Game.clone``
then falls back on the round trip.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable
from typing import Any

import msgspec

from meeple.core.declared import remembered


class Uncopyable(TypeError):
    """A state holds a value of a type this module cannot copy."""


_LEAVES = (str, int, float, bool, bytes, type(None), enum.Enum)
"""Immutable: shared, never copied."""

_COPIERS: dict[type, Callable[[Any], Any]] = {}
"""By runtime type, each written on first use; keyed by types a program declares
(and the few builtin containers), so bounded."""


def copy(value: Any) -> Any:
    """A deep copy of ``value``: a state or any value inside one."""
    kind = type(value)
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier(kind)
    return copier(value)


def restore(copied: Any, value: Any) -> Any:
    """``copied``, a deep copy of ``value`` changed since, made equal to ``value`` again:
    only the parts that differ are copied anew, the rest stays. Returns the result, which is
    ``copied`` itself where it could be mended in place (a struct of the same type, a list of
    the same length) and a fresh :func:`copy` otherwise. For whoever tries one change after
    another on a copy: mending it costs a comparison and what changed, not another copy."""
    if copied is value:
        return copied
    kind = type(value)
    if type(copied) is not kind:
        return copy(value)
    if kind is list:
        if len(copied) != len(value):
            return copy(value)
        for i, item in enumerate(value):
            if copied[i] != item:
                copied[i] = restore(copied[i], item)
        return copied
    if issubclass(kind, msgspec.Struct) and not kind.__struct_config__.frozen:
        for name in kind.__struct_fields__:
            mine, theirs = getattr(copied, name), getattr(value, name)
            if mine is not theirs and mine != theirs:
                setattr(copied, name, restore(mine, theirs))
        return copied
    return copy(value)


def _same(value: Any) -> Any:
    return value


def _copier(kind: type) -> Callable[[Any], Any]:
    if issubclass(kind, _LEAVES):
        return _same
    if kind is list:
        return lambda items: [copy(item) for item in items]
    if kind is tuple:
        return lambda items: tuple([copy(item) for item in items])
    if kind is dict:
        return lambda items: {key: copy(item) for key, item in items.items()}
    if kind in (set, frozenset):
        return kind  # hashable members are immutable
    if issubclass(kind, msgspec.Struct):
        return _struct_copier(kind)
    raise Uncopyable(f"cannot copy a {kind.__qualname__}")


_WRITING: set[type] = set()
"""The struct types whose copiers are being written (a recursive type calls ``copy``)."""


def _struct_copier(kind: type[msgspec.Struct]) -> Callable[[Any], Any]:
    try:
        if _immutable(kind):
            return _same
        fields = [f for f in msgspec.structs.fields(kind) if not _immutable(f.type)]
    except Exception as exc:  # annotations that do not resolve
        raise Uncopyable(f"cannot read the fields of {kind.__qualname__}: {exc}") from exc
    env: dict[str, Any] = {"copy": copy}
    _WRITING.add(kind)
    try:
        return _write(kind, fields, env)
    finally:
        _WRITING.discard(kind)


def _write(
    kind: type[msgspec.Struct], fields: list[msgspec.structs.FieldInfo], env: dict[str, Any]
) -> Callable[[Any], Any]:
    if kind.__struct_config__.frozen:  # a frozen struct holding lists: built anew
        env["replace"] = msgspec.structs.replace
        args = ", ".join(f"{f.name}={_expr(f.type, 'x.' + f.name, env)}" for f in fields)
        body = [f"    return replace(x, {args})"]
    else:
        body = ["    y = x.__copy__()"]
        body += [f"    y.{f.name} = {_expr(f.type, 'x.' + f.name, env)}" for f in fields]
        body.append("    return y")
    exec("\n".join(["def copier(x):", *body]), env)  # source written from declared types
    copier: Callable[[Any], Any] = env["copier"]
    return copier


def _expr(tp: Any, value: str, env: dict[str, Any]) -> str:
    """Python source copying ``value``, of declared type ``tp``."""
    if _immutable(tp):
        return value
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _expr(args[0], value, env)
    if origin is list and args:
        if _immutable(args[0]):
            return f"{value}[:]"
        return f"[{_expr(args[0], 'i', env)} for i in {value}]"
    if origin is dict and len(args) == 2 and _immutable(args[1]):
        return f"{value}.copy()"
    if origin in (typing.Union, types.UnionType) and type(None) in args and len(args) == 2:
        (inner,) = (a for a in args if a is not type(None))
        return f"(None if {value} is None else {_expr(inner, value, env)})"
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and tp not in _WRITING:
        # the declared struct's own copier, called directly unless the value is a subclass's
        copier = _COPIERS.get(tp)
        if copier is None:
            copier = _COPIERS[tp] = _struct_copier(tp)
        n = len(env)
        env[f"copy_{n}"], env[f"kind_{n}"] = copier, tp
        return f"(copy_{n}({value}) if type({value}) is kind_{n} else copy({value}))"
    return f"copy({value})"


@remembered(provisional=True)  # a recursive type: immutable if the rest is
def _immutable(tp: Any) -> bool:
    """Whether every value of declared type ``tp`` is immutable (shared by a copy)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        return True
    if origin is typing.Annotated:
        return _immutable(args[0])
    if origin in (typing.Union, types.UnionType):
        return all(_immutable(a) for a in args)
    if origin is tuple:
        return bool(args) and all(_immutable(a) for a in args if a is not Ellipsis)
    if origin is frozenset:
        return True
    if origin is None and isinstance(tp, type):
        if issubclass(tp, _LEAVES):
            return True
        if issubclass(tp, msgspec.Struct) and tp.__struct_config__.frozen:
            return all(_immutable(f.type) for f in msgspec.structs.fields(tp))
    return False
