"""--card-facts: each seat's card facts in the run files of simulate, compare and tournament."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import Result

from meeple.core.runner import GameResult, Header

Invoke = Callable[..., Result]
TINY = ["simulate", "tiny", "--seats", "random,random,random", "-q"]


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def games(path: Path) -> list[GameResult]:
    return [msgspec.json.decode(line, type=GameResult) for line in lines(path)[1:]]


def test_a_run_without_card_facts_is_written_as_before(cli: Invoke, tmp_path: Path) -> None:
    """The fields and bytes of a run file written before card facts existed (the digest is
    what the commit before them wrote)."""
    out = tmp_path / "run.jsonl"
    assert cli(*TINY, "-n", "5", "--seed", "3", "--jsonl", out).exit_code == 0
    header, *rows = (msgspec.json.decode(line) for line in lines(out))
    assert list(header) == ["run"]
    assert list(header["run"]) == ["game", "version", "options", "bots", "rotate"]
    keys = ["seed", "seats", "scores", "places", "decisions", "rounds", "digest"]
    assert all(list(row) == keys for row in rows)
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    assert digest == "5a2c8eec4e3146dac06c03245bcb89a1b450be3a10e7027307212b38c14f8f9b"


def test_card_facts_are_in_every_line(cli: Invoke, tmp_path: Path) -> None:
    plain, facts = tmp_path / "plain.jsonl", tmp_path / "facts.jsonl"
    assert cli(*TINY, "-n", "6", "--jsonl", plain).exit_code == 0
    result = cli(*TINY, "-n", "6", "--jsonl", facts, "--card-facts")
    assert result.exit_code == 0, result.output
    assert msgspec.json.decode(lines(facts)[0], type=Header).run.card_facts is True
    for without, with_ in zip(games(plain), games(facts), strict=True):
        assert isinstance(with_.cards, list) and len(with_.cards) == 3
        with_.cards = msgspec.UNSET  # the game itself is the same
        assert with_ == without
    # The summary does not change either (but for the speed, on its last line).
    again = cli(*TINY, "-n", "6", "--jsonl", plain).stdout
    assert result.stdout.splitlines()[:-1] == again.splitlines()[:-1]


def test_card_facts_need_a_run_file(cli: Invoke) -> None:
    for command in (TINY, ["compare", "tiny", "--variant", "", "--variant", ""]):
        result = cli(*command, "--card-facts")
        assert result.exit_code == 2
        assert "--card-facts records them in the run file" in result.output


@pytest.mark.slow
def test_card_facts_are_the_same_bytes_in_any_process(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """Workers are spawned interpreters, each with its own string hashes: facts never come
    in a set's order, so any number of workers, and any hash seed, write the same bytes."""
    args = ["simulate", "clank", "-n", "4", "--seats", "random,random,random", "--card-facts", "-q"]
    for name, workers, seed in (("a", "1", "1"), ("b", "2", "2"), ("c", "1", "3")):
        done = run(*args, "-w", workers, "--jsonl", f"{name}.jsonl", env={"PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
    a, b, c = ((tmp_path / f"{name}.jsonl").read_bytes() for name in "abc")
    assert a == b == c and b'"cards":[{"acquired":' in a


def test_resume_keeps_card_facts(cli: Invoke, tmp_path: Path) -> None:
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert cli(*TINY, "-n", "8", "--card-facts", "--jsonl", full).exit_code == 0
    assert cli(*TINY, "-n", "3", "--card-facts", "--jsonl", part).exit_code == 0
    refused = cli(*TINY, "-n", "8", "--jsonl", part, "--resume")
    assert refused.exit_code == 1
    assert "its run has card_facts true, this one false" in refused.stderr
    assert cli(*TINY, "-n", "8", "--card-facts", "--jsonl", part, "--resume").exit_code == 0
    assert part.read_bytes() == full.read_bytes()


def test_compare_writes_card_facts_for_each_variant(cli: Invoke, tmp_path: Path) -> None:
    args = ["compare", "tiny", "--variant", "", "--variant", "", "-n", "4", "-q"]
    assert cli(*args, "--card-facts", "--jsonl", tmp_path).exit_code == 0
    for name in ("variant-1.jsonl", "variant-2.jsonl"):
        assert all(isinstance(g.cards, list) for g in games(tmp_path / name))


def test_tournament_writes_a_run_file(cli: Invoke, tmp_path: Path) -> None:
    """A tournament's run file holds its schedule, so `meeple stats` reads its seatings."""
    out = tmp_path / "t.jsonl"
    args = ["tournament", "tiny", "--bots", "random,ismcts:iterations=4", "-n", "4", "-q"]
    result = cli(*args, "--jsonl", out, "--card-facts")
    assert result.exit_code == 0, result.output
    header = msgspec.json.decode(lines(out)[0], type=Header)
    assert header.schedule is not msgspec.UNSET and header.schedule.seats == 2
    bots = ["random", "ismcts:iterations=4"]
    assert [g.seats for g in games(out)] == [bots, bots[::-1]] * 2
    assert all(isinstance(g.cards, list) for g in games(out))
    stats = cli("stats", str(out))
    assert stats.exit_code == 0, stats.output
    assert "Tiny: 4 games, by seat" in stats.stdout
    assert cli(*args, "--jsonl", out).exit_code == 0  # a run file of the game: overwritten


def test_a_schedule_of_more_seats_than_bots_is_refused(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    args = ["tournament", "tiny", "--bots", "random,ismcts", "-n", "2", "-q", "--jsonl", out]
    assert cli(*args).exit_code == 0
    out.write_bytes(out.read_bytes().replace(b'"seats":2', b'"seats":3', 1))
    result = cli("stats", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {out}:1: a schedule of 3 seats a game, but 2 bots; the header was edited"
    )
