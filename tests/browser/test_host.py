"""`meeple host` in a real headless browser: two people and a spectator, each in a browser
context of their own, play every built-in game to its end through the page.

Every websocket frame each page receives, and each page's final DOM, is checked for card
ids its seat could not see at that moment (the frames against the state at the step they
were sent at, replayed from the saved record); the spectator never sees a card of a hand.

With ``MEEPLE_SHOTS=FOLDER``, screenshots of each game's page are saved there
(``host-GAME.png``, and ``host-phone.png`` at a phone's size).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from webpage import WAIT, Server, free_port, until

from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.records import Record
from meeple.core.rng import Stream
from meeple.core.state import State
from meeple.core.testing import leaks

pytestmark = pytest.mark.browser

BUILT_IN = ("clonk", "clank", "clank-catacombs")
registry = Registry(plugin_manager(entry_points=False))
_TOKEN = re.compile(r"[A-Za-z0-9?_-]+")


class Hosted(Server):
    """``meeple host ARGS`` on a free port, its links read from what it prints."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        port = free_port()
        argv = [sys.executable, "-m", "meeple.cli", "host", *args]
        self.proc = subprocess.Popen(
            [*argv, "--port", str(port)],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.url = f"http://127.0.0.1:{port}/"
        self.output = None
        self.links: dict[int | None, str] = {}
        assert self.proc.stdout is not None
        while not self.links or None not in self.links:
            line = self.proc.stdout.readline()
            assert line, self.proc.stdout.read()
            if "http://" in line and "#" in line:
                seat = None if "spectators" in line else int(line.split()[1])
                self.links[seat] = line.split()[-1]


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Any]:
    servers: list[Hosted] = []

    def start(*args: str) -> Hosted:
        servers.append(Hosted(list(args), tmp_path))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


class Page:
    """One person's (or the spectator's) browser context at a link, keeping every frame."""

    def __init__(self, browser: Any, link: str, seat: int | None, phone: bool = False) -> None:
        size = {"width": 390, "height": 844} if phone else {"width": 1400, "height": 1000}
        self.context = browser.new_context(viewport=size)
        self.context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/])"), lambda r: r.abort())
        self.seat, self.link = seat, link
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.open()

    def open(self) -> None:
        self.page = self.context.new_page()
        self.page.on("websocket", lambda ws: ws.on("framereceived", self.received))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", self.console)
        self.page.goto(self.link)
        self.page.wait_for_selector("#seat-list li, #status.alert", timeout=WAIT * 1000)

    def pause(self, seconds: float) -> None:
        """Wait in Playwright, which hands the page's frames over meanwhile."""
        self.page.wait_for_timeout(seconds * 1000)

    def received(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def choose(self, rng: Stream, by_key: bool) -> bool:
        """Choose one of the actions offered, if any: by its number's key (when fewer than
        10 are offered), or a click."""
        count = self.page.evaluate("document.querySelectorAll('#choices button:enabled').length")
        if not count:
            return False
        index = rng.below(count)
        if by_key and count < 10:
            self.page.keyboard.press(str(index + 1))
        else:
            self.page.evaluate(
                "(i) => document.querySelectorAll('#choices button:enabled')[i]?.click()", index
            )
        return True

    def over(self) -> bool:
        return bool(self.page.evaluate("!document.getElementById('scores').hidden"))

    def shot(self, name: str) -> None:
        shots = os.environ.get("MEEPLE_SHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=Path(shots) / f"{name}.png")


def play_to_the_end(people: list[Page], spectator: Page, seed: int, shot: str | None) -> None:
    """Each person chooses at random when offered actions, now and then by key, until every
    page shows the final scores."""
    rng = Stream(f"people/{seed}")
    decisions = 0
    while not all(page.over() for page in [*people, spectator]):
        chose = False
        for page in people:
            if page.choose(rng, by_key=decisions % 5 == 4):
                decisions += 1
                chose = True
                if decisions == 6 and shot is not None:
                    people[0].pause(0.3)
                    people[0].shot(shot)
        if not chose:
            people[0].pause(0.02)
    assert decisions > 0


def states(record: Any) -> list[State]:
    """The state after each step of a saved game, replayed."""
    game = registry.game(record.setup.game)(record.setup.options)
    match = Match.new(game, len(record.setup.seats), record.setup.seed, Hooks(None))
    found = [game.clone(match.state)]
    for action in record.actions:
        match.step(action)
        found.append(game.clone(match.state))
    return found


def hidden_ids(game: Any, state: State, seat: int | None, text: str) -> set[str]:
    """The card ids ``seat`` may not see in ``state`` that ``text`` holds as whole words."""
    return leaks(game, state, seat, msgspec.json.encode(sorted(set(_TOKEN.findall(text)))))


def check_leaks(page: Page, save: Path) -> None:
    raw = save.read_bytes()
    game_id = json.loads(raw)["setup"]["game"]
    cls = registry.game(game_id)
    record = msgspec.json.decode(raw, type=Record[cls.options_type, cls.action_type])  # type: ignore[name-defined]
    seen = states(record)
    game = cls(record.setup.options)
    updates = 0
    for frame in page.frames:
        message = json.loads(frame)
        if message["type"] == "update":
            updates += 1
            leaked = hidden_ids(game, seen[message["step"]], page.seat, frame)
            assert not leaked, (
                f"seat {page.seat} was sent {sorted(leaked)} at step {message['step']}"
            )
    assert updates
    dom = page.page.content()
    assert not hidden_ids(game, seen[-1], page.seat, dom)
    assert page.errors == []


@pytest.mark.parametrize("game", BUILT_IN)
def test_two_people_and_a_spectator_play_each_game_to_its_end(
    game: str, host: Any, browser: Any, tmp_path: Path
) -> None:
    server = host(game, "--seats", "human,human", "--seed", "3", "--save", "game.json")
    people = [Page(browser, server.links[s], s) for s in (0, 1)]
    spectator = Page(browser, server.links[None], None)
    play_to_the_end(people, spectator, 3, f"host-{game}")
    for page in [*people, spectator]:
        text = page.page.inner_text("#scores")
        assert "★" in text and "Final scores" in text
        check_leaks(page, tmp_path / "game.json")
    # the spectator's hands, and the other seat's, are backs only
    for page, others in ((spectator, (0, 1)), (people[0], (1,))):
        shown = page.page.evaluate(
            """(seats) => [...document.querySelectorAll('#areas .area')]
                 .filter((a) => seats.some((s) => a.querySelector('h2').textContent
                                                    .startsWith(`seat ${s} `)))
                 .flatMap((a) => [...a.querySelectorAll('.row')])
                 .filter((r) => r.querySelector('h3').textContent.startsWith('hand '))
                 .flatMap((r) => [...r.querySelectorAll('.card')])
                 .map((c) => c.classList.contains('back'))""",
            list(others),
        )
        assert all(shown), shown
    check = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "validate", "game.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_page_reopened_mid_game_shows_its_view_and_log_again(
    host: Any, browser: Any, tmp_path: Path
) -> None:
    server = host("clonk", "--seats", "human,human", "--seed", "5", "--save", "game.json")
    people = [Page(browser, server.links[s], s) for s in (0, 1)]
    rng = Stream("people/5")
    for _ in range(12):
        until(lambda: any(p.choose(rng, by_key=False) for p in people), "a choice", people[0].pause)
    people[0].pause(0.3)
    before = people[0].page.inner_text("#log-lines")
    hand = people[0].page.inner_text("#areas .area")
    people[0].page.close()
    people[0].open()
    until(lambda: people[0].page.inner_text("#log-lines") == before, "the log", people[0].pause)
    assert people[0].page.inner_text("#areas .area") == hand
    spectator = Page(browser, server.links[None], None)
    play_to_the_end(people, spectator, 5, None)
    check_leaks(people[0], tmp_path / "game.json")


def test_the_page_fits_a_phone_and_is_played_by_keyboard(host: Any, browser: Any) -> None:
    server = host("clank", "--seats", "human,random", "--seed", "2")
    phone = Page(browser, server.links[0], 0, phone=True)
    page = phone.page
    page.wait_for_selector("#choices button", timeout=WAIT * 1000)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the screen but the drawing, which scrolls itself
    assert page.evaluate("document.activeElement.classList.contains('choice')")
    steps = page.evaluate("document.querySelectorAll('#log-lines li').length")
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # the focused action, as a person with a keyboard chooses
    until(
        lambda: page.evaluate("document.querySelectorAll('#log-lines li').length") > steps,
        "the choice to be played",
        phone.pause,
    )
    phone.shot("host-phone")
    assert phone.errors == []


def test_a_page_with_a_wrong_token_says_so(host: Any, browser: Any) -> None:
    server = host("clonk", "--seats", "human,random")
    opened = Page(browser, server.url + "#not-a-token", 0)
    status = opened.page.inner_text("#status")
    assert status.startswith("this link's token is not one of this server's games")
