"""`meeple serve` in a real headless browser: each page plays its own game, saved when closed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from webpage import Open, Serve, Terminal, until

pytestmark = pytest.mark.browser

DECISIONS = 3
"""Decisions each game plays before its page is closed."""
TITLES = {"clonk": "Clonk!", "clank": "Clank!", "clank-catacombs": "Clank! Catacombs"}


def test_a_closed_page_lets_its_app_finish(serve: Serve, open_page: Open, tmp_path: Path) -> None:
    """Closing the page asks the app to quit: its ``run`` returns, and what follows it runs."""
    echo = str(Path(__file__).with_name("echo.py"))
    terminal = open_page(serve(command=[sys.executable, echo]).url)
    terminal.wait_for("echo: press a key")
    terminal.press("x", "Enter")
    terminal.wait_for("echo: enter")
    terminal.page.close()
    keys = tmp_path / "keys.txt"
    until(lambda: keys.exists() and keys.read_text().endswith("exit\n"), "the app to exit")
    assert keys.read_text() == "x\nenter\nexit\n"


def test_stopping_the_server_lets_the_open_apps_finish(
    serve: Serve, open_page: Open, tmp_path: Path
) -> None:
    """Ctrl-C at the server asks every open page's app to quit, and waits for them."""
    server = serve(command=[sys.executable, str(Path(__file__).with_name("echo.py"))])
    terminal = open_page(server.url)
    terminal.press("y")
    terminal.wait_for("echo: y")
    server.stop()
    assert (tmp_path / "keys.txt").read_text() == "y\nexit\n"


def saved_actions(path: Path) -> int | None:
    """How many actions the record at ``path`` holds (``None``: no record there yet)."""
    return len(json.loads(path.read_bytes())["actions"]) if path.exists() else None


def saved_after(terminal: Terminal, save: Path, actions: int) -> int | None:
    """Press s, and say how many actions the game saved holds if more than ``actions``.

    s may overtake the choice made just before it (a key is heard at once, a choice
    once the actions list passes it on): so s is pressed until the save shows the choice.
    """
    terminal.press("s")
    terminal.pause(0.5)
    saved = saved_actions(save)
    return saved if saved is not None and saved > actions else None


def chosen_and_saved(terminal: Terminal, save: Path, actions: int) -> int | None:
    """Press Enter (the highlighted action: the first), then s: :func:`saved_after`. An Enter
    pressed while the other seats play, before the next decision is shown, chooses nothing,
    and is pressed again."""
    terminal.press("Enter")
    return saved_after(terminal, save, actions)


@pytest.mark.parametrize("game", TITLES)
def test_each_game_is_played_in_the_browser_and_saved_when_its_page_closes(
    game: str, serve: Serve, open_page: Open, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    server = serve(game, "--seats", "human,random", "--seed", "2", "--save", save.name)
    terminal = open_page(server.url)
    terminal.wait_for(re.escape(TITLES[game]))
    terminal.wait_for(r"1\. ")  # the first decision's actions
    played = 0
    for _ in range(DECISIONS):
        played = terminal.until(partial(chosen_and_saved, terminal, save, played), "a save")
    # Textual's notes ("▌ saved to game.json") fade after a few seconds: the shot waits.
    terminal.until(lambda: "▌ saved to" not in terminal.text(), "the save notes to fade")
    terminal.shot(game)
    save.unlink()
    terminal.page.close()
    until(lambda: save.exists(), "the game to be saved when its page closed")
    assert (saved_actions(save) or 0) >= played  # and bots may have played on
    check = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "validate", str(save)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_s_on_a_page_without_a_save_file_downloads_its_game(
    serve: Serve, open_page: Open, tmp_path: Path
) -> None:
    """A visitor names no file on the server: s hands the game to the browser instead."""
    server = serve("clonk", "--seats", "human,random", "--seed", "2")
    terminal = open_page(server.url)
    downloads: list[Any] = []
    # The page opens the file in a new tab, which Chromium closes, downloading it for the page.
    terminal.page.on("download", lambda download: downloads.append(download))
    terminal.wait_for(r"1\. ")
    terminal.press("Enter", "s")
    terminal.wait_for("downloaded as clonk-2.json")
    [download] = terminal.until(lambda: downloads, "the download in the browser")
    assert download.suggested_filename == "clonk-2.json"
    check = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "validate", download.path()],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written on the server


def test_a_page_beyond_the_most_says_why_on_the_page(serve: Serve, open_page: Open) -> None:
    server = serve("clonk", "--seats", "human,random", "--max-pages", "1")
    open_page(server.url).wait_for(r"1\. ")
    refused = open_page(server.url)
    refused.wait_for("this server is full: its one table is in use; reload this page")


def test_a_reloaded_page_continues_its_game(serve: Serve, open_page: Open, tmp_path: Path) -> None:
    """With --save one page plays at a time; the page reloaded is that page (its old
    websocket closes as its new one opens), and continues the game saved as it closed."""
    save = tmp_path / "game.json"
    server = serve("clonk", "--seats", "human,random", "--seed", "2", "--save", save.name)
    terminal = open_page(server.url)
    first = terminal.wait_for(r"1\. \S+(?: \S+)*").group(0)  # the action, not what is beside it
    terminal.press("Enter")  # once: the first decision is shown, and takes it
    terminal.until(lambda: first not in terminal.text(), "the first action chosen")
    terminal.until(partial(saved_after, terminal, save, 0), "a save")
    terminal.page.reload()
    terminal.wait_for(r"1\. ")
    assert "refused" not in server.stop()
    assert (saved_actions(save) or 0) >= 1
