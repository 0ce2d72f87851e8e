"""`meeple report`'s page of each built-in game, in Debian's headless Chromium.

The page must show with no console error, ask the network for nothing, and hold every plot it
has room for, drawn. With ``MEEPLE_SHOTS=FOLDER`` a screenshot of each game's page is saved
there as ``report-<game>.png`` (docs/simulation.md shows those of docs/img).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("statsmodels")
pytest.importorskip("matplotlib")

pytestmark = pytest.mark.browser

GAMES = {"clonk": 400, "clank": 200, "clank-catacombs": 200}
"""Each built-in game, and how many games its report reads."""


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_report_shows_every_plot(
    game: str, cli: Any, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the page names its run file as given: as a designer would
    run, page = Path(f"{game}.jsonl"), tmp_path / f"report-{game}.html"
    simulate = ["simulate", game, "-n", str(GAMES[game]), "--rotate", "--card-facts", "-q"]
    assert cli(*simulate, "--seed", "1", "-w", "2", "--jsonl", run).exit_code == 0
    result = cli("report", run, "-o", page)
    assert result.exit_code == 0, result.output

    context = browser.new_context(viewport={"width": 1100, "height": 1900})
    asked: list[str] = []
    context.route("**/*", lambda route: (asked.append(route.request.url), route.continue_()))
    view = context.new_page()
    problems: list[str] = []
    view.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    view.on("pageerror", lambda error: problems.append(str(error)))
    view.goto(page.as_uri())
    view.wait_for_load_state("load")
    assert problems == []
    assert asked == [page.as_uri()]  # the page itself, and nothing else
    figures = view.locator("figure")
    assert figures.count() >= 5  # seats, card effects, cards taken, length, scores
    for i in range(figures.count()):
        svg = figures.nth(i).locator("svg")
        assert svg.count() == 1
        box = svg.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
        assert svg.locator("path, line, rect, use").count() > 10  # something drawn in it
    assert view.locator("#cards tbody tr").count() > 10
    shots = os.environ.get("MEEPLE_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        view.screenshot(path=str(Path(shots) / f"report-{game}.png"))
    context.close()
