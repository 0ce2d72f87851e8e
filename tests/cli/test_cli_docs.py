"""What the docs show a command printing is what it prints.

A ``console`` block that starts with ``$ meeple ...`` shows that command and lines of its
output (a table may be cut to a few rows). The games are seeded, so the lines are exact, and
a change to a game or a bot that moves them shows up here instead of in a reader's terminal.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOWN = re.compile(r"^```console\n\$ meeple (.*?)\n(.*?)^```$", re.M | re.S)
ELSEWHERE = {"writing-a-plugin.md": "its game is the one the guide writes (test_cli_new.py)"}
"""Docs whose shown commands are checked by another test, and where."""


def shown() -> list[tuple[str, str, str]]:
    """Each shown command: its doc, its arguments, and the output lines shown."""
    return [
        (path.name, command, output)
        for path in sorted(DOCS.glob("*.md"))
        if path.name not in ELSEWHERE
        for command, output in SHOWN.findall(path.read_text())
    ]


def test_the_docs_show_commands():
    assert {doc for doc, _, _ in shown()} == {"simulation.md"}


@pytest.mark.soak  # whole simulations, hundreds of games: with the long runs
@pytest.mark.parametrize(("doc", "command", "output"), shown(), ids=lambda v: v[:40])
def test_a_shown_command_prints_the_lines_shown(cli, doc, command, output):
    # The same games for any number of workers: one keeps the test to its own process.
    result = cli(*shlex.split(command), "--workers", "1")
    assert result.exit_code == 0, result.output
    printed = {line.strip() for line in result.stdout.splitlines()}
    missing = [line for line in output.splitlines() if line.strip() not in printed]
    assert not missing, f"{doc}: `meeple {command}` no longer prints:\n" + "\n".join(missing)


ROOT = DOCS.parent
CONSOLE = re.compile(r"^ *```console\n(.*?)^ *```$", re.M | re.S)


def console_lines(path: Path) -> list[str]:
    return [
        line.strip() for block in CONSOLE.findall(path.read_text()) for line in block.splitlines()
    ]


def test_installing_starts_in_a_virtual_environment_made_by_python3():
    """A system's Python refuses ``pip install`` outside a virtual environment (Debian's, PEP
    668), and outside one Debian and Ubuntu have ``python3`` but no ``python``."""
    texts = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "cli/template/README.md.tmpl"]
    made = [line for path in texts for line in console_lines(path) if " venv " in line]
    assert made and all(line.startswith("python3 -m venv ") for line in made), made
    quick_start = console_lines(ROOT / "README.md")
    # One line installs and plays, one line runs every test.
    assert quick_start[0].startswith(
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && meeple play "
    )
    assert quick_start[1] == "pip install tox && tox"
