"""Walking decoded JSON, for the tests that damage saved files on purpose."""

from __future__ import annotations

from typing import Any

Path_ = tuple[str | int, ...]


def walk(value: Any, at: Path_ = ()) -> list[tuple[Path_, Any]]:
    """Every (path, value) inside decoded JSON, the root included."""
    found = [(at, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += walk(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += walk(item, (*at, i))
    return found
