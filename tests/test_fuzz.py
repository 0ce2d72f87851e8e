"""Damaged records never crash meeple: a report from ``check_file``, exit 0 or 1 from the CLI.

Hypothesis mutates real records of every registered game -- bytes flipped,
cut, spliced with another record, and JSON-level edits (numbers changed,
actions swapped or dropped, keys deleted, values retyped).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_walk import walk

from meeple.core import records
from meeple.core.validate import Report, check_file

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def originals(save, game_id) -> list[bytes]:
    """Two finished records and an unfinished one of the game."""
    return [
        save("record", game_id, seed=1).read_bytes(),
        save("record", game_id, seed=2, seats=3).read_bytes(),
        save("record", game_id, seed=3, steps=5).read_bytes(),
    ]


def byte_damage(data: bytes, other: bytes, draw: Any) -> bytes:
    how = draw(st.sampled_from(["flip", "cut", "splice", "insert"]))
    i = draw(st.integers(0, len(data) - 1))
    if how == "flip":
        return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1 :]
    if how == "cut":
        return data[:i]
    if how == "splice":
        return data[:i] + other[draw(st.integers(0, len(other) - 1)) :]
    return data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]


def json_damage(data: bytes, draw: Any) -> bytes:
    doc = json.loads(data)
    how = draw(st.sampled_from(["number", "swap", "drop-action", "delete", "retype"]))
    actions = doc["actions"]
    if how == "swap" and len(actions) > 1:
        i, j = draw(st.integers(0, len(actions) - 1)), draw(st.integers(0, len(actions) - 1))
        actions[i], actions[j] = actions[j], actions[i]
    elif how == "drop-action" and actions:
        del actions[draw(st.integers(0, len(actions) - 1))]
    else:
        where = draw(st.sampled_from([path for path, _ in walk(doc)][1:]))
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        key = where[-1]
        if how == "delete":
            del parent[key]
        elif how == "number" or isinstance(parent[key], int):
            parent[key] = draw(st.integers(-(2**70), 2**70))
        else:
            parent[key] = draw(st.one_of(st.none(), st.text(max_size=5), st.lists(st.integers())))
    return json.dumps(doc).encode()


@SETTINGS
@given(data=st.data())
def test_mutated_records_give_reports(originals, registry, hooks, tmp_path, data):
    original = data.draw(st.sampled_from(originals))
    if data.draw(st.booleans()):
        damaged = byte_damage(original, data.draw(st.sampled_from(originals)), data.draw)
    else:
        damaged = json_damage(original, data.draw)
    path = tmp_path / "damaged.json"
    path.write_bytes(damaged)
    report = check_file(path, registry, hooks)
    assert isinstance(report, Report)
    assert report.ok == (not report.problems)
    if damaged != original and not report.ok:
        assert all(isinstance(p, str) and p for p in report.problems)


@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_mutated_records_through_the_cli(originals, cli, tmp_path, data):
    original = data.draw(st.sampled_from(originals))
    damaged = byte_damage(original, original, data.draw)
    path = tmp_path / "damaged.json"
    path.write_bytes(damaged)
    result = cli("validate", path)  # the fixture re-raises anything but a clean exit
    assert result.exit_code in (0, 1)
    assert ("OK" in result.stdout) == (result.exit_code == 0)


def test_the_originals_are_valid(originals, registry, hooks, tmp_path):
    for data in originals:
        path = tmp_path / "record.json"
        records.write_atomic(path, data)
        assert check_file(path, registry, hooks).ok
