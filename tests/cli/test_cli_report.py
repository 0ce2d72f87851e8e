"""`meeple report`: what it refuses, in one line each, before any statistics are loaded.

These need no report extra: bad input is named before statsmodels is imported, and a missing
extra is one line saying how to install it. The report itself is tested in tests/balance.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

Invoke = Callable[..., Result]
SEATS = ["--seats", "random,random,random", "-q"]


def simulate(cli: Invoke, out: Path, *args: str) -> None:
    result = cli("simulate", "tiny", "-n", "4", *SEATS, "--jsonl", str(out), *args)
    assert result.exit_code == 0, result.output


def refused(cli: Invoke, *args: object) -> str:
    """The one error line of ``meeple report *args`` (which must fail with exit code 1)."""
    result = cli("report", *map(str, args))
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_bad_input_is_one_line_each(cli: Invoke, tmp_path: Path) -> None:
    facts, plain, clonk = tmp_path / "facts.jsonl", tmp_path / "plain.jsonl", tmp_path / "c.jsonl"
    simulate(cli, facts, "--card-facts")
    simulate(cli, plain)
    args = ["simulate", "clonk", "-n", "2", *SEATS, "--card-facts", "--jsonl", str(clonk)]
    assert cli(*args).exit_code == 0
    header, first, *_ = facts.read_bytes().splitlines(keepends=True)
    empty, alone, edited = tmp_path / "empty.jsonl", tmp_path / "alone.jsonl", tmp_path / "e.jsonl"
    empty.write_bytes(b"")
    alone.write_bytes(header)
    edited.write_bytes(header + first.split(b',"cards":')[0] + b"}\n")
    out = tmp_path / "out.html"
    cases = [
        ([empty], f"error: {empty}: empty, not a run file of `meeple simulate --jsonl`"),
        ([alone], f"error: {alone}: no games, only its header; a run file holds a line per game"),
        ([facts, clonk], f"error: {clonk}:1: a run of clonk 2, but {facts} is one of tiny 1"),
        ([plain], f"error: {plain}:1: a run without card facts; play it again with --card-facts"),
        ([edited], f"error: {edited}:2: no card facts for each of its 3 seats, but its header"),
        ([tmp_path / "gone.jsonl"], f"error: {tmp_path / 'gone.jsonl'}: No such file or directory"),
    ]
    for files, message in cases:
        assert refused(cli, *files, "-o", out).startswith(message)
        assert not out.exists()  # nothing written
    (tmp_path / "notes.html").write_text("<p>mine</p>")
    said = refused(cli, facts, "-o", tmp_path / "notes.html")
    assert (
        "the file exists and is not a balance report; choose another file, or add --force" in said
    )


def test_a_missing_extra_is_one_line_saying_how_to_install_it(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    facts = tmp_path / "facts.jsonl"
    simulate(cli, facts, "--card-facts")
    monkeypatch.setitem(sys.modules, "statsmodels", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "statsmodels.api", None)
    said = refused(cli, facts, "-o", tmp_path / "out.html")
    assert said == (
        "error: the balance report needs statsmodels and matplotlib (statsmodels.api is "
        'missing): pip install "meeple[report]"'
    )
