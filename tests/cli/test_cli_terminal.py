"""Outside text reaches the terminal as text: never Rich markup, control characters escaped.

An "evil" game plugin puts markup, ANSI escapes, C1 codes and a line break
that would start a fake ``OK`` line into every string it hands the CLI (its
title, action and event phrases, drawing, score parts and notes); records
and file names carry the same. Every command must print them literally.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import pytest
from rich.console import Console, Group
from rich.control import Control
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from typer.testing import Result

from meeple.cli import common
from meeple.core import hookimpl
from meeple.core.plugins import BrokenPlugin, PluginManager
from meeple.core.present import Presentation
from meeple.core.scoring import Score

Invoke = Callable[..., Result]

EVIL = "[bold]E\x1b[2J\x9b31m\x7f\r\nOK[/]"
"""Markup, ESC (clear screen), C1 CSI, DEL, and a line break to draw a fake line."""
SHOWN = r"[bold]E\x1b[2J\x9b31m\x7f\x0d\x0aOK[/]"
"""How :data:`EVIL` is printed on one line."""
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Any control character a terminal may act on (tab and newline are layout)."""


def assert_safe(out: str) -> None:
    assert not RAW.search(out), repr(out)
    assert not re.search(r"^OK\[/\]", out, re.MULTILINE), out  # the injected line


def test_escaped_writes_every_control_as_its_code() -> None:
    assert common.escaped("a\x1bb\x9bc\x7fd\x00e\tf\ng\rh") == r"a\x1bb\x9bc\x7fd\x00e" + "\t" + (
        r"f\x0ag\x0dh"
    )
    assert common.escaped("x\ny", lines=True) == "x\ny"
    assert common.escaped("Zürich ★ ٣") == "Zürich ★ ٣"  # printable text is left alone
    assert common.escaped("caf\udce9.json") == r"caf\udce9.json"  # a byte no encoding writes


def test_plain_is_never_markup() -> None:
    console = Console(record=True, width=200, force_terminal=True)
    console.print(common.plain(EVIL))
    assert console.export_text() == SHOWN + "\n"


def test_a_drawing_keeps_its_styles_and_escapes_its_text() -> None:
    table = Table(title="[bold]Board[/]")
    table.add_column("cell")
    table.add_row(f"{EVIL}")
    console = Console(record=True, width=200, color_system=None)
    console.print(common.shown(table))
    out = console.export_text()
    assert_safe(out)
    assert "Board" in out and r"\x1b[2J" in out and "[bold]" not in out  # the game's markup
    console.print(common.shown(Group("[b]x[/b]", Control.clear(), Control.move_to(0, 0))))
    assert console.export_text() == "x\n"  # the game's markup kept, no cursor codes
    console.print(common.shown("a [b]\x1b\nline"))  # a string drawing is plain lines
    assert console.export_text().endswith("a [b]\\x1b\nline\n")


def test_a_drawing_is_as_wide_as_it_draws() -> None:
    """In a table's column (a legend's symbols), not the whole width given."""
    console = Console(width=100)
    drawn = Measurement.get(console, console.options, common.shown(Text("red text", "red")))
    assert (drawn.minimum, drawn.maximum) == (4, 8)


class EvilPlugin:
    """A game whose every string is hostile; registered under a hostile plugin name."""

    @hookimpl
    def meeple_games(self, register: Callable[..., None]) -> None:
        from meeple_tiny import Tiny

        class Hostile(Presentation[Any, Any]):
            def describe_action(self, state: Any, action: Any) -> str:
                return f"{action!r} {EVIL}"

            def render(self, view: Any, seat: int | None) -> Any:
                table = Table(title=self.game.title)
                table.add_column("seen")
                table.add_row(EVIL)
                return table

        class Evil(Tiny):
            id = "evil"
            title = f"Evil {EVIL}"

            presentation_type = Hostile

            def scores(self, state: Any) -> list[Score]:
                return [
                    Score(seat=s.seat, total=s.total, parts={EVIL: s.total}, note=EVIL)
                    for s in super().scores(state)
                ]

        register(Evil)


@pytest.fixture
def evil(pm: PluginManager) -> None:
    pm.register(EvilPlugin(), name=f"evil-plugin {EVIL}")


@pytest.mark.usefixtures("evil")
@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["plugins", "--all"],
        ["play", "evil", "--seats", "bot,bot", "--seed", "1"],
        ["simulate", "evil", "-n", "2", "--workers", "1"],  # evil is not installed: no workers
    ],
    ids=["games", "plugins", "play", "simulate"],
)
def test_every_listing_and_game_output_is_literal(cli: Invoke, args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert_safe(result.output)
    assert r"\x1b[2J" in result.stdout and "[bold]" in result.stdout


@pytest.mark.usefixtures("evil")
def test_a_human_sees_the_drawing_and_choices_escaped(cli: Invoke) -> None:
    result = cli("play", "evil", "--seats", "human,bot", "--seed", "1", input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert_safe(result.output)
    assert "1. Play(" in result.stdout and r"\x9b31m" in result.stdout


@pytest.mark.usefixtures("evil")
@pytest.mark.parametrize("args", [["games", "--json"], ["plugins", "--all", "--json"]])
def test_json_listings_stay_json_with_controls_escaped(cli: Invoke, args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 0
    assert_safe(result.stdout)
    assert any(EVIL in text for text in strings(json.loads(result.stdout)))


def strings(value: object) -> list[str]:
    """Every string inside decoded JSON."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return [value] if isinstance(value, str) else []


@pytest.mark.usefixtures("evil")
def test_schema_is_json_with_controls_escaped(cli: Invoke) -> None:
    result = cli("schema", "evil", "--kind", "record")
    assert result.exit_code == 0
    assert_safe(result.stdout)
    assert json.loads(result.stdout)["title"].startswith(f"Evil {EVIL} record")


@pytest.fixture
def hostile_record(tmp_path: Path, save: Callable[..., Path]) -> Path:
    """A tiny record whose seat names and file name hold markup and controls."""
    plain = save("record")
    data = msgspec.json.decode(plain.read_bytes())
    data["setup"]["seats"] = [f"random{EVIL}", "random"]
    path = tmp_path / f"save[final]{EVIL.replace('/', '|')}.json"
    path.write_bytes(msgspec.json.encode(data))
    return path


def test_replay_prints_a_hostile_record_literally(cli: Invoke, hostile_record: Path) -> None:
    result = cli("replay", str(hostile_record))
    assert_safe(result.output)
    # No bot has that name, so the record is refused, the name shown as text.
    assert result.exit_code == 1
    assert "$.setup.seats[0]: no bot 'random[bold]E\\x1b[2J" in result.stderr


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_validate_prints_a_hostile_record_literally(
    cli: Invoke, hostile_record: Path, json_output: bool
) -> None:
    broken = hostile_record.with_name(f"{EVIL.replace('/', '|')}.json")
    broken.write_text('{"kind": "meeple.record", "format": 1, "setup": {"game": "' + "x" * 3)
    args = ["validate", str(hostile_record), str(broken), *(["--json"] if json_output else [])]
    result = cli(*args)
    assert result.exit_code == 1
    assert_safe(result.output)
    if json_output:
        reports = json.loads(result.stdout)
        assert [r["path"] for r in reports] == [str(hostile_record), str(broken)]
    else:
        assert "save[final][bold]" in result.stdout and r"\x1b[2J" in result.stdout


def test_a_missing_file_named_like_markup_is_named_as_typed(cli: Invoke) -> None:
    result = cli("replay", "save[final].json")
    assert result.exit_code == 1
    assert "save[final].json" in result.stderr


def test_an_unknown_game_named_like_markup_is_an_error_not_a_crash(cli: Invoke) -> None:
    result = cli("play", "[/x]")
    assert result.exit_code == 1
    assert "no game '[/x]' is installed" in result.stderr


def test_error_messages_from_files_are_escaped(cli: Invoke) -> None:
    result = cli("play", f"x{EVIL}")
    assert result.exit_code == 1
    assert_safe(result.stderr)
    assert "error: no game 'x[bold]E" in result.stderr


def test_a_broken_plugin_warning_is_escaped(cli: Invoke, pm: PluginManager) -> None:
    pm.broken.append(BrokenPlugin(f"shaky{EVIL}", f"ImportError: {EVIL}"))
    result = cli("plugins")
    assert result.exit_code == 0
    assert_safe(result.stderr)
    assert "warning: plugin 'shaky" in result.stderr
    assert r"ImportError: [bold]E\x1b" in result.stderr


def test_the_internal_error_line_is_escaped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.cli import app

    def broken(**_: object) -> None:
        raise ValueError(EVIL)

    monkeypatch.setattr(app, "make_app", lambda: broken)
    monkeypatch.delenv("MEEPLE_DEBUG", raising=False)
    with pytest.raises(SystemExit):
        app.main()
    err = capsys.readouterr().err
    assert_safe(err)
    # A message may span lines; the lines after the first are indented.
    assert "internal error: ValueError: [bold]E\\x1b[2J\\x9b31m\\x7f\\x0d\n  OK[/] (in " in err


def test_a_card_table_from_a_file_is_drawn_as_text(cli: Invoke, tmp_path: Path) -> None:
    """Clank! draws card names from ``--cards FILE`` in its table: as text, not markup."""
    cards = json.loads((resources.files("meeple.seeds") / "clank" / "cards.json").read_text())
    for card in cards["dungeon"]:
        card["name"] += f" {EVIL}"
    table = tmp_path / "cards.json"
    table.write_text(json.dumps(cards))
    args = ("play", "clank", "--seats", "human,bot", "--seed", "1", "--cards", str(table))
    result = cli(*args, input="q\n\n")
    assert result.exit_code == 0, result.output
    assert_safe(result.stdout)
    assert r"[bold]E\x1b[2J" in result.stdout
