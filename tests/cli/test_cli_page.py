"""A served page's table (``meeple play --page``, as `meeple serve` runs it): its visitor
names no file on the server; without --save, s and q offer the game as a download.

The table runs under Textual's headless driver, whose delivery saves to the downloads
folder (here a test folder) where the web driver hands the file to the browser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import textual.app
import typer
from test_cli_table import decision, drive, enter, open_table, saved_ok, screen_text, until
from textual.pilot import Pilot

from meeple.cli.table import Ask, TableApp
from meeple.core.plugins import PluginManager, Registry


@pytest.fixture
def downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the browser's downloads go; the server's folder is the working one."""
    (tmp_path / "server").mkdir()
    monkeypatch.chdir(tmp_path / "server")
    monkeypatch.setattr(textual.app, "user_downloads_path", lambda: tmp_path / "browser")
    (tmp_path / "browser").mkdir()
    return tmp_path / "browser"


def notices(app: TableApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the table tells its visitor, as it tells it (each notice shows once, at the
    table: nothing keeps them)."""
    said: list[str] = []
    monkeypatch.setattr(app.front, "say", said.append)
    return said


def test_s_on_a_page_downloads_the_game_and_asks_for_no_file(
    pm: PluginManager,
    registry: Registry,
    downloads: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = open_table(pm, "tiny", "human,random", seed=5)
    app.table.page = True
    said = notices(app, monkeypatch)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("s")
        await until(lambda: said == ["downloaded as tiny-5.json"])
        assert not isinstance(app.screen, Ask)
        assert len(saved_ok(downloads / "tiny-5.json", registry).actions) >= 1
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, Ask))
        assert "Download the game before leaving? [Y/n]" in await screen_text(pilot)
        await pilot.press("n", "enter")

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 0
    assert list((tmp_path / "server").iterdir()) == []  # nothing written on the server


def test_q_on_a_page_downloads_the_game_before_it_ends(
    pm: PluginManager, registry: Registry, downloads: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = open_table(pm, "tiny", "human,random", seed=5)
    app.table.page = True
    said = notices(app, monkeypatch)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, Ask))
        await pilot.press("enter")

    drive(app, script)
    assert isinstance(app.failure, typer.Exit) and app.failure.exit_code == 0
    assert said == ["downloaded as tiny-5.json"]
    assert saved_ok(downloads / "tiny-5.json", registry).actions == app.table.match.actions


def test_a_page_with_a_save_file_saves_there(
    pm: PluginManager,
    registry: Registry,
    downloads: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save = Path("game.json")
    app = open_table(pm, "tiny", "human,random", seed=5, save=save)
    app.table.page = True
    said = notices(app, monkeypatch)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await enter(app)
        await pilot.press("s")
        await until(lambda: said == ["saved to game.json"])
        await pilot.press("ctrl+c")

    drive(app, script)
    assert saved_ok(tmp_path / "server" / "game.json", registry).actions
    assert list(downloads.iterdir()) == []


def test_a_download_the_browser_never_takes_is_said_so(
    pm: PluginManager, downloads: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser that blocks the download (a pop-up) never asks for the file: the table
    says so once it has waited, and the game goes on."""
    monkeypatch.setattr("meeple.cli.table.DELIVERY_WAIT", 0.01)
    monkeypatch.setattr(textual.app.App, "deliver_text", lambda self, *a, **kw: None)
    app = open_table(pm, "tiny", "human,random", seed=5)
    app.table.page = True
    complaints: list[str] = []
    monkeypatch.setattr(app.front, "complain", complaints.append)

    async def script(pilot: Pilot[None]) -> None:
        await decision(app)
        await pilot.press("s")
        await until(lambda: complaints != [])
        await enter(app)
        await pilot.press("ctrl+c")

    drive(app, script)
    assert complaints == ["the download did not start: let this page open pop-ups"]
