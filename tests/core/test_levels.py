"""Difficulty levels: declared through ``meeple_levels``, resolved per game, measured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from meeple.core import hookimpl
from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.levels import LEVELS, Measured, Strength
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream


def test_each_level_resolves_and_plays(registry: Registry, game_id: str) -> None:
    """Every level of every game names a bot of the game that makes real choices in it."""
    game = registry.game(game_id)()
    for level in registry.levels(game_id):
        assert registry.player(level.bot, game_id).text == level.bot  # canonical
        bot = registry.player(level.bot, game_id).make(game, 0, 5)
        match = Match.new(game, game.min_seats, 5, Hooks(None))
        others, chosen = Stream("levels"), 0
        while not match.over and chosen < 2:
            legal, seat = match.legal(), match.state.stack[-1].seat
            if seat == 0 and len(legal) > 1:
                match.step(bot.choose(Prompt.of(game, match.state, 0, legal)))
                chosen += 1
            else:
                match.step(others.choice(legal))
        assert chosen == 2, f"{game_id} {level.name}: the game ended before its bot chose"


def test_the_built_in_games_declare_every_level_and_its_strength(registry: Registry) -> None:
    for game_id in ("clonk", "clank", "clank-catacombs"):
        levels = registry.levels(game_id)
        assert [lv.name for lv in levels] == list(LEVELS)
        assert all(lv.plugin and not lv.note for lv in levels)
        assert len({lv.bot for lv in levels}) == len(LEVELS), "a tournament rates them apart"
        for lv in levels:
            assert lv.strength is not None, f"{game_id} {lv.name}: run benchmarks/levels.py"
            assert lv.measured.startswith(f"meeple tournament {game_id} --bots bot:easy,")
        wins = [lv.strength.wins for lv in levels if lv.strength is not None]
        assert wins == sorted(wins), f"{game_id}: a harder level won less than an easier one"


def test_a_game_without_levels_gets_the_defaults(registry: Registry) -> None:
    """Tiny declares no levels and has no bot of its own: easy is random, the others the
    search bot; a game with a bot of its own plays it at medium and hard."""
    levels = registry.levels("tiny")
    assert [(lv.name, lv.bot, lv.plugin) for lv in levels] == [
        ("easy", "random", ""),
        ("medium", "ismcts", ""),
        ("hard", "ismcts", ""),
    ]
    assert all("tiny declares no" in lv.note and lv.strength is None for lv in levels)

    class Own:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("mine", lambda game, seat, stream: None, games=("tiny",))

    pm = plugin_manager(entry_points=True, extra=[Own()])
    assert [lv.bot for lv in Registry(pm).levels("tiny")] == ["random", "mine", "mine"]


def table(path: Path, **levels: str) -> Path:
    strength = {
        name: Strength(bot=bot, games=30, wins=0.5, low=0.3, high=0.7, mu=25.0, sigma=2.0)
        for name, bot in levels.items()
    }
    measured = Measured(
        game="tiny", seats=2, games=30, command="meeple tournament tiny", levels=strength
    )
    path.write_bytes(msgspec.json.encode(measured))
    return path


def test_hook_meeple_levels(registry: Registry, tmp_path: Path) -> None:
    """A third party declares some levels of a game with their strength; the others keep the
    defaults, and a level measured on another bot than it plays now shows no figures."""
    path = table(tmp_path / "levels.json", easy="random", hard="ismcts:iterations=50")

    class Levels:
        @hookimpl
        def meeple_levels(self, register: Any) -> None:
            register("tiny", {"easy": "random", "hard": "ismcts: iterations = 9"}, measured=path)

    plugin = Levels()
    pm = plugin_manager(entry_points=True, extra=[plugin])
    registry = Registry(pm)
    assert not pm.broken
    easy, medium, hard = registry.levels("tiny")
    assert (easy.bot, easy.plugin) == ("random", pm.get_name(plugin))
    assert easy.measured == "meeple tournament tiny"
    assert easy.strength is not None and easy.strength.games == 30 and easy.seats == 2
    assert (medium.bot, medium.plugin) == ("ismcts", "")
    assert (hard.bot, hard.strength) == ("ismcts:iterations=9", None)
    assert registry.level("tiny", "hard").bot == "ismcts:iterations=9"
    with pytest.raises(MeepleError, match=r"^no level 'expert' in tiny; its levels: easy \("):
        registry.level("tiny", "expert")


@pytest.mark.parametrize(
    ("game", "levels", "problem"),
    [
        ("nope", {"easy": "random"}, "it declares levels for 'nope', which is not installed"),
        ("tiny", {"expert": "random"}, "it declares a level 'expert' for tiny; the levels are"),
        ("tiny", {"hard": "greedy"}, "its level hard of tiny: no bot 'greedy' plays tiny"),
        ("tiny", {"hard": "ismcts:x=1"}, "its level hard of tiny: bot 'ismcts' has no option"),
        ("clonk", {"easy": "random"}, "the levels of clonk are declared by both"),
    ],
)
def test_bad_levels_skip_the_plugins_levels_only(
    install_plugin: Any, game: str, levels: dict[str, str], problem: str
) -> None:
    """A third party's levels that do not resolve, or that a built-in game declares already,
    cost it its levels only: its game stays, and every game keeps its own levels."""
    install_plugin(
        "levels",
        "from meeple.core import hookimpl\n"
        "from meeple_tiny import Tiny\n\n"
        "class Other(Tiny):\n"
        "    id = 'other'\n\n"
        "@hookimpl\n"
        "def meeple_games(register):\n"
        "    register(Other)\n\n"
        "@hookimpl\n"
        "def meeple_levels(register):\n"
        f"    register({game!r}, {levels!r})\n",
    )
    pm = plugin_manager(entry_points=True)
    registry = Registry(pm)
    [broken] = pm.broken
    assert (broken.name, broken.stage) == ("levels", "meeple_levels")
    assert problem in broken.error
    assert "its levels are skipped (meeple_levels)" in broken.describe()
    assert "other" in registry.games
    assert registry.levels("tiny")[0].plugin == ""
    assert registry.levels("clonk")[0].plugin == "meeple.plugins.clonk"


def test_an_unreadable_table_skips_the_levels(tiny_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    for text, problem in [
        (b"{", "its strength table"),
        (b'{"game": "other", "seats": 2, "games": 1, "command": "", "levels": {}}', "'other'"),
        (table(path, expert="random").read_bytes(), "has no such level 'expert'"),
    ]:
        path.write_bytes(text)

        class Levels:
            @hookimpl
            def meeple_levels(self, register: Any) -> None:
                register("tiny", {"easy": "random"}, measured=path)

        pm = plugin_manager(entry_points=True, extra=[Levels()])
        Registry(pm)
        [broken] = pm.broken
        assert problem in broken.error
