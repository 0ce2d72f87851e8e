"""Loading and checking records and snapshots: every bad file is a clear message, never a crash.

Each case runs through ``check_file`` (the report) and through ``meeple
validate`` (exit code 1 and the same message, no traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.core import hookimpl, records
from meeple.core.engine import Hooks
from meeple.core.errors import InvalidFile
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.validate import check_file, load, replay


def edit(path: Path, change: Any) -> Path:
    """Apply ``change`` to the file's JSON (in place) and write it back."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def problems(path: Path, registry: Registry, hooks: Hooks, **kw: Any) -> str:
    report = check_file(path, registry, hooks, **kw)
    assert not report.ok
    assert report.problems
    return "\n".join(report.problems)


def assert_invalid(cli, path: Path, *expected: str) -> None:
    result = cli("validate", path)
    assert result.exit_code == 1, result.output
    assert "INVALID" in result.stdout
    for text in expected:
        assert text in result.stdout
    assert "Traceback" not in result.output


def test_a_real_record_and_snapshot_are_valid(save, registry, hooks, cli):
    for path in (save("record"), save("snapshot", steps=3)):
        report = check_file(path, registry, hooks, check_every=1)
        assert report.ok, report.problems
        assert report.game == "tiny"
    result = cli("validate", save("record"), save("snapshot", steps=0))
    assert result.exit_code == 0
    assert result.stdout.count("OK") == 2


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["setup"].update(extra=1), "unknown field `extra` - at `$.setup`"),
        (lambda d: d["setup"].update(seed="x"), "Expected `int`, got `str` - at `$.setup.seed`"),
        (lambda d: d["actions"][1].update(type="fly"), "`$.actions[1].type`"),
        (lambda d: d["actions"][0].update(card=7), "`$.actions[0].card`"),
        (lambda d: d.pop("digest"), "missing required field `digest`"),
    ],
    ids=["unknown-field", "wrong-type", "bad-tag", "wrong-type-in-action", "missing-field"],
)
def test_strict_decoding_names_the_path(save, registry, hooks, cli, change, expected):
    path = edit(save("record"), change)
    assert expected in problems(path, registry, hooks)
    assert_invalid(cli, path, expected)


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda b: b[: len(b) // 2], "truncated"),
        (lambda b: b.replace(b'"actions"', b'"actions" ]]', 1), "not valid JSON"),
        (lambda b: bytes(range(256)) * 4, "binary"),
        (lambda b: b"", "empty"),
        (lambda b: b"  \n", "empty"),
        (lambda b: b"[1, 2]", "Expected `object`, got `array`"),
        (lambda b: b'{"kind": "meeple.record"}', "missing required field"),
        (lambda b: b.replace(b'"meeple.record"', b'"meeple.recipe"'), "'meeple.recipe'"),
        (lambda b: b"\xff\xfe" + b, "not valid JSON"),
    ],
    ids=["truncated", "corrupted", "binary", "empty", "blank", "array", "no-setup", "kind", "bom"],
)
def test_damaged_files(save, registry, hooks, cli, damage, expected):
    path = save("record")
    path.write_bytes(damage(path.read_bytes()))
    assert expected in problems(path, registry, hooks)
    assert_invalid(cli, path, expected)


def test_a_run_file_is_named_as_one_for_meeple_stats(tmp_path, registry, hooks, cli):
    """The JSONL of ``meeple simulate`` is no saved game: its header line says what it is
    (``validate`` said ``Object missing required field `kind```)."""
    run = tmp_path / "my run.jsonl"
    assert cli("simulate", "tiny", "-n", "2", "--jsonl", str(run)).exit_code == 0
    header = tmp_path / "header.jsonl"  # a run cut to its first line
    header.write_bytes(run.read_bytes().split(b"\n")[0])
    for path, named in ((run, f"'{run}'"), (header, str(header))):
        said = (
            "this is a run file of `meeple simulate --jsonl`, not a saved game: "
            f"`meeple stats {named}` reads it"
        )
        assert problems(path, registry, hooks) == said
        assert_invalid(cli, path, said)
    assert cli("stats", str(run)).exit_code == 0


def test_deeply_nested(save, registry, hooks, cli):
    path = save("record")
    nested = b"[" * 100_000 + b"]" * 100_000
    path.write_bytes(path.read_bytes().replace(b'"actions": [', b'"actions": [' + nested + b",", 1))
    assert "nested too deeply" in problems(path, registry, hooks)
    assert_invalid(cli, path, "nested too deeply")


def test_oversized(save, registry, hooks, cli, monkeypatch):
    path = save("record")
    monkeypatch.setattr(records, "MAX_BYTES", 100)
    assert "larger than the 100-byte limit" in problems(path, registry, hooks)
    assert_invalid(cli, path, "limit")


def test_folder_and_missing_file(tmp_path, registry, hooks, cli):
    assert "is a folder" in problems(tmp_path, registry, hooks)
    assert_invalid(cli, tmp_path, "is a folder")
    assert "No such file" in problems(tmp_path / "nope.json", registry, hooks)
    assert_invalid(cli, tmp_path / "nope.json", "No such file")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(format=99), "format 99 was written by a newer meeple"),
        (lambda d: d.update(format=0), "an older meeple"),
        (lambda d: d["setup"].update(version="99"), "$.setup.version: written for version '99'"),
        (lambda d: d["setup"].update(game="chess"), "no game 'chess' is installed (installed: "),
    ],
    ids=["newer-format", "older-format", "rules-version", "unknown-game"],
)
def test_versions_and_games(save, registry, hooks, cli, change, expected):
    path = edit(save("record"), change)
    assert expected in problems(path, registry, hooks)
    assert_invalid(cli, path, expected)


def test_unknown_game_lists_the_installed_ones(save, registry, hooks):
    path = edit(save("record"), lambda d: d["setup"].update(game="chess"))
    assert "tiny" in problems(path, registry, hooks)


def test_wrong_game_in_a_snapshot(save, registry, hooks, cli):
    path = edit(save("snapshot", steps=2), lambda d: d["state"].update(game="chess"))
    assert "$.state.game" in problems(path, registry, hooks)
    assert_invalid(cli, path, "$.state.game")


def test_replay_names_the_first_illegal_step(save, registry, hooks, cli):
    path = save("record")
    # A card dealt to seat 0 is never in seat 1's hand, so seat 1 cannot play it at step 2.
    card = registry.game("tiny")().setup(2, 1).hands[0].cards[0]
    edit(path, lambda d: d["actions"].__setitem__(1, {"type": "play", "card": card}))
    found = problems(path, registry, hooks)
    assert f"step 2 (seat 1): Play(card='{card}') is not legal" in found
    assert "the legal actions were" in found
    assert_invalid(cli, path, "step 2 (seat 1)")
    with pytest.raises(InvalidFile, match=r"step 2 \(seat 1\)"):
        replay(load(path, registry), hooks)


def test_extra_actions_after_the_end(save, registry, hooks):
    path = edit(save("record"), lambda d: d["actions"].append({"type": "draw"}))
    assert "after the end of the game" in problems(path, registry, hooks)


def test_digest_over_and_scores_must_match(save, registry, hooks, cli):
    path = edit(save("record"), lambda d: d.update(digest="0" * 32))
    assert "$.digest: the replayed game ends in state" in problems(path, registry, hooks)
    assert_invalid(cli, path, "$.digest")
    path = edit(save("record"), lambda d: d.update(over=False))
    assert "$.over: the record says the game is not over" in problems(path, registry, hooks)
    path = edit(save("record"), lambda d: d["scores"][0].update(total=99))
    assert "$.scores" in problems(path, registry, hooks)


def test_an_unfinished_record_is_valid(save, registry, hooks):
    assert check_file(save("record", steps=3), registry, hooks).ok


def test_wrong_seat_count(save, registry, hooks):
    path = edit(save("record"), lambda d: d["setup"].update(seats=["random"] * 9))
    assert "$.setup.seats: 9 seats, but Tiny takes 2-4" in problems(path, registry, hooks)
    path = edit(save("snapshot"), lambda d: d["setup"].update(seats=["random"] * 3))
    assert "$.state.seats: 2 seats, but $.setup.seats names 3" in problems(path, registry, hooks)


def _duplicate_a_card(data: dict) -> None:
    data["state"]["deck"]["cards"].append(data["state"]["hands"][0]["cards"][0])


def _lose_a_card(data: dict) -> None:
    data["state"]["hands"][1]["cards"].pop()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_duplicate_a_card, "appears more than once"),
        (_lose_a_card, "is missing"),
        (
            lambda d: d["state"]["hands"][0]["cards"].append("c7a"),
            "'c7a' is not a card of this game",
        ),
        (
            lambda d: d["state"]["stack"][0].update(seat=5),
            "decision for seat 5, which does not exist",
        ),
        (lambda d: d["state"]["turns"].update(order=[0, 0]), "$.turns.order"),
        (lambda d: d["state"]["piles"][0].update(owner=7), "$.piles[0].owner: 7, but seat 0"),
        (lambda d: d["state"]["deck"].update(kind="attic"), "'attic' is not a zone kind of Tiny"),
        (
            lambda d: d["state"]["deck"].update(kind="pile"),
            "$.deck.kind: 'pile', but Tiny keeps its 'deck' zone here",
        ),
        (
            lambda d: d["state"]["hands"][1].update(kind="pile"),
            "$.hands[1].kind: 'pile', but Tiny keeps its 'hand' zone here",
        ),
        (
            lambda d: d["state"]["hands"][1].update(owner=None),
            "$.hands[1].owner: None, but seat 1 owns the zone kept here",
        ),
        (
            lambda d: d["state"]["piles"].reverse(),
            "$.piles[0].owner: 1, but seat 0 owns the zone kept here",
        ),
        (lambda d: d["state"]["turns"].update(left=[1, 1]), "$.turns.left"),
        (lambda d: d.update(step=-1), "Expected `int` >= 0 - at `$.step`"),
        (lambda d: d["state"]["rng"].update(counter=-1), "at `$.state.rng.counter`"),
        (lambda d: d["state"]["turns"].update(round=2**64 + 1), "at `$.state.turns.round`"),
        (lambda d: d["setup"].update(seed=2**63), "<= 9223372036854775807 - at `$.setup.seed`"),
        (
            lambda d: d["setup"].update(seed=d["setup"]["seed"] + 1),
            "$.state.rng.seed: 1, but the game was set up with $.setup.seed 2",
        ),
        (lambda d: d["setup"]["seats"].pop(), "$.state.seats: 2 seats, but $.setup.seats names 1"),
        (
            lambda d: d["setup"]["seats"].__setitem__(1, "deep-blue"),
            "$.setup.seats[1]: no bot 'deep-blue' plays tiny "
            "(bots for tiny: ismcts, policy, random)",
        ),
    ],
    ids=[
        "duplicate",
        "missing",
        "stranger",
        "seat-to-move",
        "order",
        "owner",
        "zone",
        "relabelled-deck",
        "relabelled-hand",
        "unowned-hand",
        "swapped-piles",
        "left",
        "step",
        "rng-counter",
        "huge-counter",
        "huge-seed",
        "seed-disagrees",
        "seats-disagree",
        "unknown-bot",
    ],
)
def test_snapshot_semantics(save, registry, hooks, cli, change, expected):
    path = edit(save("snapshot", steps=3), change)
    assert expected in problems(path, registry, hooks)
    assert_invalid(cli, path, expected)


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("snapshot", lambda d: d["state"]["deck"].update(kind="pile")),
        ("snapshot", lambda d: d["setup"].update(seed=9)),
        ("snapshot", lambda d: d["state"]["turns"].update(left=[1, 1])),
        ("record", lambda d: d["setup"]["seats"].__setitem__(0, "deep-blue")),
        ("record", lambda d: d.update(digest="0" * 32)),
    ],
    ids=["relabelled", "seed", "left", "unknown-bot", "digest"],
)
def test_resume_and_replay_refuse_what_validate_refuses(save, registry, hooks, cli, kind, change):
    path = edit(save(kind, steps=3), change)
    found = check_file(path, registry, hooks).problems
    assert found
    for command in (("play", "--resume", path), ("replay", path)):
        result = cli(*command)
        assert result.exit_code == 1, result.output
        assert all(problem in result.stderr for problem in found), (command, result.stderr)


class Referee:
    """A house-rule plugin: no pile may hold two cards."""

    @hookimpl
    def meeple_validate_state(self, game, state):
        return [f"pile of seat {p.owner} is too high" for p in state.piles if len(p) > 1]


class Broken:
    """A plugin whose check crashes on every state."""

    @hookimpl
    def meeple_validate_state(self, game, state):
        raise ZeroDivisionError("boom")


def _with(plugin: object) -> tuple[Registry, Hooks]:
    pm = plugin_manager(entry_points=True, extra=[plugin])
    return Registry(pm), Hooks(pm)


def test_validate_state_hooks_add_problems(save, tiny_path):
    registry, hooks = _with(Referee())
    snapshot = save("snapshot", seed=3)
    assert "pile of seat 0 is too high" in problems(snapshot, registry, hooks)
    record = save("record", seed=3)
    assert "in the final state: pile of seat" in problems(record, registry, hooks)
    assert "after step" in problems(record, registry, hooks, check_every=1)


def test_a_crashing_plugin_is_a_problem_naming_it_not_a_traceback(save, tiny_path):
    broken = Broken()
    registry, hooks = _with(broken)
    failed = f"plugin {registry.pm.get_name(broken)!r} failed in meeple_validate_state: "
    found = problems(save("snapshot"), registry, hooks)
    assert f"checking $.state: {failed}ZeroDivisionError: boom" in found
    assert "'tiny'" not in found  # the game's plugin is not blamed
    found = problems(save("record"), registry, hooks, check_every=2)
    assert f"step 2: {failed}ZeroDivisionError: boom" in found


def test_json_reports(save, cli):
    good, bad = save("record"), edit(save("record"), lambda d: d.update(digest="x"))
    result = cli("validate", "--json", good, bad)
    assert result.exit_code == 1
    reports = json.loads(result.stdout)
    assert [r["ok"] for r in reports] == [True, False]
    assert reports[0] == {
        "path": str(good),
        "ok": True,
        "kind": "meeple.record",
        "game": "tiny",
        "steps": len(json.loads(good.read_text())["actions"]),
        "problems": [],
    }
    assert reports[1]["problems"][0].startswith("$.digest")
    assert cli("validate", "--json", good).exit_code == 0


def test_usage_errors_exit_2(cli):
    assert cli("validate").exit_code == 2
    assert cli("validate", "--check-every", "-1", "x.json").exit_code == 2
