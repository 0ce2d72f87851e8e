"""Record and snapshot files: encoding, atomic saves, and the replay and schema commands."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import msgspec
import pytest

from meeple.core import records
from meeple.core.errors import InvalidFile


def test_encoding_is_stable_and_round_trips(save, registry):
    path = save("record")
    data = path.read_bytes()
    value = records.decode(data, registry.game("tiny"), records.RECORD, str(path))
    assert records.encode(value) == data
    snap = save("snapshot", steps=4)
    value = records.decode(snap.read_bytes(), registry.game("tiny"), records.SNAPSHOT, "s")
    assert value.step == 4
    assert records.encode(value) == snap.read_bytes()


def test_header(save):
    data = save("record").read_bytes()
    assert records.header(data, "f") == (records.RECORD, "tiny", "1")
    with pytest.raises(InvalidFile, match=r"f: \$\.kind: 'x' is neither"):
        records.header(data.replace(b'"meeple.record"', b'"x"'), "f")


def test_read_bytes_refuses_what_cannot_be_a_file(tmp_path, monkeypatch):
    big = tmp_path / "big.json"
    big.write_bytes(b"{}" * 100)
    assert records.read_bytes(big) == b"{}" * 100
    monkeypatch.setattr(records, "MAX_BYTES", 199)
    with pytest.raises(InvalidFile, match="is larger than the 199-byte limit"):
        records.read_bytes(big)
    with pytest.raises(InvalidFile, match="is a folder"):
        records.read_bytes(tmp_path)


def test_write_atomic_replaces_the_file(tmp_path):
    target = tmp_path / "save.json"
    records.write_atomic(target, b"old")
    records.write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["save.json"]


def test_a_save_has_the_permissions_of_a_plain_write(tmp_path):
    """Not the temporary file's owner-only mode: a new file follows the umask,
    a replaced one keeps its mode."""
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        records.write_atomic(fresh, b"{}")
        assert fresh.stat().st_mode & 0o777 == 0o644
        fresh.chmod(0o640)
        records.write_atomic(fresh, b"[]")
        assert fresh.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)


def test_a_save_without_fchmod_still_gets_its_mode(tmp_path, monkeypatch):
    """Windows has ``os.fchmod`` only from Python 3.13: the temporary file is chmod-ed by path."""
    monkeypatch.delattr(os, "fchmod")
    target = tmp_path / "save.json"
    target.write_bytes(b"old")
    target.chmod(0o640)
    records.write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640


def test_the_folder_is_synced_after_the_rename(tmp_path, monkeypatch):
    """The rename is durable too: the folder is fsync-ed once the file is in place."""
    synced: list[tuple[bool, list[str]]] = []
    fsync = os.fsync

    def record(fd: int) -> None:
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), sorted(os.listdir(tmp_path))))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", record)
    records.write_atomic(tmp_path / "save.json", b"{}")
    assert [is_dir for is_dir, _ in synced] == [False, True]  # the file, then its folder
    assert synced[-1][1] == ["save.json"]  # after the rename


def test_a_folder_the_file_system_will_not_sync_does_not_fail_the_save(tmp_path, monkeypatch):
    fsync = os.fsync

    def refuse_folders(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", refuse_folders)
    records.write_atomic(tmp_path / "save.json", b"{}")
    assert (tmp_path / "save.json").read_bytes() == b"{}"


def test_no_folder_sync_where_folders_cannot_be_opened(tmp_path, monkeypatch):
    """Windows has no ``O_DIRECTORY`` and cannot sync a folder: the save is still made."""
    monkeypatch.delattr(os, "O_DIRECTORY")
    synced: list[int] = []
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or fsync(fd))
    records.write_atomic(tmp_path / "save.json", b"{}")
    assert len(synced) == 1 and (tmp_path / "save.json").read_bytes() == b"{}"


@pytest.mark.parametrize("broken", ["fsync", "replace"])
def test_a_failed_save_leaves_the_old_file_intact(tmp_path, monkeypatch, broken):
    target = tmp_path / "save.json"
    records.write_atomic(target, b"old game")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, broken, fail)
    with pytest.raises(OSError, match="No space left"):
        records.write_atomic(target, b"new game, half written")
    assert target.read_bytes() == b"old game"
    assert os.listdir(tmp_path) == ["save.json"]  # no temporary file left behind


# -- meeple replay ---------------------------------------------------------------------------


def test_replay_prints_the_log_and_scores(save, cli):
    path = save("record")
    actions = json.loads(path.read_text())["actions"]
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert f"{len(actions)} actions" in result.stdout
    assert "round 1" in result.stdout
    assert f"{len(actions):>4}. seat" in result.stdout
    assert "Scores" in result.stdout and "winner" in result.stdout


def test_replay_as_a_seat_and_partway(save, cli):
    path = save("record")
    result = cli("replay", path, "--seat", "1", "--to", "2")
    assert result.exit_code == 0, result.output
    assert "   2. you:" in result.stdout
    assert "   3." not in result.stdout
    assert "after 2 of" in result.stdout
    assert "Scores" not in result.stdout


def test_replay_refuses_bad_input(save, cli):
    path = save("record")
    assert cli("replay", path, "--seat", "5").exit_code == 2
    assert cli("replay", path, "--to", "999").exit_code == 2
    snapshot = cli("replay", save("snapshot"))
    assert snapshot.exit_code == 1 and "snapshot" in snapshot.stderr
    data = json.loads(path.read_text())
    data["digest"] = "0" * 32
    path.write_text(json.dumps(data))
    edited = cli("replay", path)
    assert edited.exit_code == 1 and "$.digest" in edited.stderr
    Path(path).write_bytes(b"\x00\x01")
    assert cli("replay", path).exit_code == 1


# -- meeple schema ---------------------------------------------------------------------------


def test_schema_of_both_kinds(cli):
    result = cli("schema", "tiny")
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert schema["$schema"].startswith("https://json-schema.org/")
    refs = [part["$ref"].rsplit("/", 1)[1] for part in schema["anyOf"]]
    assert [r.split("_")[0] for r in refs] == ["Record", "Snapshot"]
    assert {"TinyState", "Play", "Draw", "Zone"} <= set(schema["$defs"])


def canonical(document: dict) -> list:
    """``document``'s schemas with their definitions numbered in the order a walk from its
    top meets them, titles left out: two documents that differ only in the names (and
    titles) of their definitions give the same."""
    defs, order, out = document["$defs"], {}, []

    def walk(value):
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items() if k != "title"}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, str) and value.startswith("#/$defs/"):
            name = value.removeprefix("#/$defs/")
            if name not in order:
                order[name] = len(order)
                out.append(None)
                out[order[name]] = walk(defs[name])
            return order[name]
        return value

    top = walk({k: v for k, v in document.items() if k not in ("$defs", "title", "$schema")})
    assert len(order) == len(defs)  # every definition is used
    return [top, *out]


@pytest.mark.parametrize("kind", [None, "record", "snapshot"])
def test_schema_names_are_readable_and_the_schema_is_msgspecs(cli, registry, game_id, kind):
    """msgspec names a generic struct after the full import path of each member of a union
    it takes (hundreds of characters); the definitions are named as the types read."""
    game = registry.game(game_id)
    result = cli("schema", game_id, *(["--kind", kind] if kind else []))
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert all(len(name) <= 64 for name in schema["$defs"]), list(schema["$defs"])
    kinds = {"record": records.record_type(game), "snapshot": records.snapshot_type(game)}
    chosen = [kinds[kind]] if kind else list(kinds.values())
    parts, defs = msgspec.json.schema_components(chosen)
    theirs = {**(parts[0] if kind else {"anyOf": list(parts)}), "$defs": defs}
    assert canonical(schema) == canonical(theirs)
    options = game.options_type.__name__
    if kind in (None, "record"):
        assert schema["$defs"][f"Record_{options}_Action"]["title"] == f"Record[{options}, Action]"


@pytest.mark.parametrize("kind", ["record", "snapshot"])
def test_schema_of_one_kind(cli, kind):
    schema = json.loads(cli("schema", "tiny", "--kind", kind).stdout)
    assert schema["title"].startswith(f"Tiny {kind}")
    assert schema["$ref"].split("/")[-1].startswith(kind.title())
    properties = schema["$defs"][schema["$ref"].split("/")[-1]]["properties"]
    assert properties["kind"]["enum"] == [f"meeple.{kind}"]


def test_schema_errors(cli):
    unknown = cli("schema", "chess")
    assert unknown.exit_code == 1 and "no game 'chess'" in unknown.stderr
    assert cli("schema", "tiny", "--kind", "poem").exit_code == 2


@pytest.mark.parametrize("command", ["replay", "validate", "schema"])
def test_help_shows_an_example(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert f"Example: meeple {command}" in result.stdout


def test_a_save_whose_name_is_at_the_length_limit_is_written(tmp_path):
    target = tmp_path / ("g" * 250 + ".json")
    records.write_atomic(target, b"{}\n")
    assert target.read_bytes() == b"{}\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
