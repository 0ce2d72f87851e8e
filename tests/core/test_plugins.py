"""Building the plugin manager: built-ins, entry points, blocking, broken plugins."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pluggy
import pytest

from meeple.core import bots as core_bots
from meeple.core import files, hookimpl, validate
from meeple.core.bots import RandomBot
from meeple.core.errors import InvalidFile, MeepleError, PluginError, UnknownGame
from meeple.core.game import Game, class_problems
from meeple.core.plugins import (
    BUILTIN_PLUGINS,
    BotOptions,
    PluginManager,
    Registry,
    list_plugins,
    plugin_error,
    plugin_manager,
)
from meeple.core.zones import SECRET

GAME_PLUGIN = """
from meeple.core import hookimpl


@hookimpl
def meeple_games(register):
    from meeple_tiny import Tiny

    class {cls}(Tiny):
        id = "{game_id}"
        title = "{cls}"

    register({cls})
"""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_module: Any) -> Any:
    """A folder on sys.path where tests install fake distributions with entry points."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def install(dist: str, entry: str, module: str, source: str) -> None:
        # The folder name must carry the normalized name: importlib.metadata
        # reads it from there and keeps one distribution per name.
        info = tmp_path / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[meeple]\n{entry} = {module}\n")
        (tmp_path / f"{module}.py").write_text(source)
        made.append(module)

    yield install
    for module in made:
        sys.modules.pop(module, None)


BUILTIN_GAMES = [path for path in BUILTIN_PLUGINS if path != "meeple.core.bots"]


@pytest.fixture(autouse=True)
def core_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Block the built-in games: these tests are about the manager, not any game."""
    monkeypatch.setenv("MEEPLE_DISABLE_PLUGINS", ",".join(BUILTIN_GAMES))
    monkeypatch.delenv("MEEPLE_NO_ENTRYPOINTS", raising=False)


def names(pm: PluginManager) -> set[str]:
    return {name for name, plugin in pm.list_name_plugin() if plugin is not None}


def test_builtins_are_registered_by_module_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLE_DISABLE_PLUGINS")
    pm = plugin_manager(entry_points=False)
    for path in BUILTIN_PLUGINS:
        assert pm.get_plugin(path) is sys.modules[path]
    infos = {p.name: p for p in list_plugins(pm)}
    assert infos["meeple.core.bots"].builtin
    assert infos["meeple.core.bots"].hooks == ["meeple_bots"]
    assert Registry(pm).bot("random", "anything").factory is RandomBot


def test_disable_plugins_blocks_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_DISABLE_PLUGINS", ",".join(["meeple.core.bots ", *BUILTIN_GAMES]))
    pm = plugin_manager(entry_points=False)
    assert pm.is_blocked("meeple.core.bots")
    assert "meeple.core.bots" not in names(pm)
    assert "random" not in Registry(pm).bots


def test_entry_points_are_loaded_with_their_distribution(site: Any) -> None:
    site("meeple-dice", "dice", "meeple_dice_ep", GAME_PLUGIN.format(cls="Dice", game_id="dice"))
    pm = plugin_manager(entry_points=True)
    assert "dice" in names(pm)
    assert pm.dists["dice"] == ("meeple-dice", "1.0")
    info = next(p for p in list_plugins(pm) if p.name == "dice")
    assert (info.builtin, info.distribution, info.hooks) == (False, "meeple-dice", ["meeple_games"])
    assert Registry(pm).game("dice").title == "Dice"


def test_no_entrypoints_env_loads_builtins_only(site: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    site("meeple-dice", "dice", "meeple_dice_ne", GAME_PLUGIN.format(cls="Dice", game_id="dice"))
    monkeypatch.setenv("MEEPLE_NO_ENTRYPOINTS", "1")
    pm = plugin_manager()
    assert "dice" not in names(pm)
    assert "meeple.core.bots" in names(pm)
    monkeypatch.delenv("MEEPLE_NO_ENTRYPOINTS")
    assert "dice" in names(plugin_manager())


def test_disable_plugins_blocks_an_entry_point(site: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    site("meeple-dice", "dice", "meeple_dice_bl", GAME_PLUGIN.format(cls="Dice", game_id="dice"))
    monkeypatch.setenv("MEEPLE_DISABLE_PLUGINS", ",".join(["dice", *BUILTIN_GAMES]))
    pm = plugin_manager(entry_points=True)
    assert "dice" not in names(pm)
    assert "meeple_dice_bl" not in sys.modules  # a blocked plugin is not even imported


def test_a_broken_entry_point_is_reported_and_others_still_load(site: Any) -> None:
    site("meeple-bad", "bad", "meeple_bad_ep", "raise ImportError('needs libfoo')\n")
    site("meeple-dice", "dice", "meeple_dice_ok", GAME_PLUGIN.format(cls="Dice", game_id="dice"))
    pm = plugin_manager(entry_points=True)
    (bad,) = pm.broken
    assert (bad.name, bad.stage) == ("bad", "import")
    assert bad.error.startswith("ImportError: needs libfoo (in ")
    assert bad.error.endswith("meeple_bad_ep.py, line 1)")  # the plugin's line, not meeple's
    assert "dice" in names(pm) and "bad" not in names(pm)
    assert "dice" in Registry(pm).games


@pytest.mark.parametrize(
    ("source", "error"),
    [
        (None, "ModuleNotFoundError: No module named 'meeple_gone_ep'"),
        ("def meeple_games(:\n", "SyntaxError: invalid syntax (meeple_gone_ep.py, line 1)"),
    ],
)
def test_an_import_error_names_no_line_of_the_import_system(
    site: Any, tmp_path: Path, source: str | None, error: str
) -> None:
    site("meeple-gone", "gone", "meeple_gone_ep", source or "")
    if source is None:  # an entry point naming a module that is not installed
        (tmp_path / "meeple_gone_ep.py").unlink()
    (broken,) = plugin_manager(entry_points=True).broken
    assert broken.error == error


def test_a_misspelled_hook_in_an_entry_point_is_reported(site: Any) -> None:
    source = (
        "from meeple.core import hookimpl\n\n@hookimpl\ndef meeple_gmaes(register):\n    pass\n"
    )
    site("meeple-typo", "typo", "meeple_typo_ep", source)
    pm = plugin_manager(entry_points=True)
    (broken,) = [b for b in pm.broken if b.name == "typo"]
    assert "meeple_gmaes" in broken.error
    assert "typo" not in names(pm)


def test_a_hook_with_a_wrong_argument_leaves_nothing_registered(site: Any) -> None:
    source = (
        "from meeple.core import hookimpl\n\n"
        "@hookimpl\ndef meeple_bots(register):\n    register('ghost', object)\n\n"
        "@hookimpl\ndef meeple_games(registrar):\n    pass\n"
    )
    site("meeple-half", "half", "meeple_half_ep", source)
    pm = plugin_manager(entry_points=True)
    (broken,) = [b for b in pm.broken if b.name == "half"]
    assert "registrar" in broken.error
    assert "half" not in names(pm)
    assert "ghost" not in Registry(pm).bots  # its valid hook was taken back too


def test_check_pending_catches_a_misspelled_hook() -> None:
    typo = SimpleNamespace(meeple_after_actoin=hookimpl(lambda game, state: None))
    with pytest.raises(pluggy.PluginValidationError, match="meeple_after_actoin"):
        plugin_manager(entry_points=False, extra=[typo])


def test_duplicate_game_id_skips_the_plugin_called_later(tiny_module: Any) -> None:
    class Again(tiny_module.Tiny):
        title = "Tiny again"

    class Other:
        @hookimpl
        def meeple_games(self, register: Any) -> None:
            register(Again)

    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(Other(), name="other-tiny")  # registered last, so pluggy calls it first
    registry = Registry(pm)
    assert registry.games["tiny"] is Again
    (broken,) = pm.broken
    tiny = "meeple_tiny"
    assert (broken.name, broken.stage) == (tiny, "meeple_games")
    assert broken.error == (
        f"game id 'tiny' is registered by both 'other-tiny' and '{tiny}'; "
        "uninstall one or block it with MEEPLE_DISABLE_PLUGINS"
    )
    assert not pm.has_plugin(tiny)


def test_registering_a_non_game_skips_the_plugin() -> None:
    class Bad:
        @hookimpl
        def meeple_games(self, register: Any) -> None:
            register("tiny")

    pm = plugin_manager(entry_points=False)
    pm.register(Bad(), name="bad")
    assert "random" in Registry(pm).bots
    (broken,) = pm.broken
    assert broken.error == "it registered 'tiny', which is not a Game subclass"


def test_unknown_game_lists_the_installed_ones(tiny_module: Any) -> None:
    registry = Registry(plugin_manager(entry_points=False, extra=[tiny_module]))
    assert registry.game("tiny") is tiny_module.Tiny
    with pytest.raises(UnknownGame, match=r"no game 'tiy' is installed \(installed: .*tiny"):
        registry.game("tiy")


def test_a_game_specific_bot_wins_over_a_generic_one(tiny_module: Any) -> None:
    class TinyRandom(RandomBot):
        pass

    class Bots:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("random", TinyRandom, games=["tiny"], help="tiny's own")
            register("tinybot", TinyRandom, games=("tiny",))

    registry = Registry(plugin_manager(entry_points=False, extra=[Bots()]))
    assert registry.bot("random", "tiny").factory is TinyRandom
    assert registry.bot("random", "tiny").games == ("tiny",)
    assert registry.bot("random", "other").factory is RandomBot
    assert "tinybot" in registry.bot_names("tiny")
    assert "tinybot" not in registry.bot_names("other")
    with pytest.raises(
        MeepleError, match=r"no bot 'tinybot' plays other \(bots for other: .*random"
    ):
        registry.bot("tinybot", "other")


def test_a_bot_for_every_game_built_on_an_engine_plays_those_of_any_plugin(
    tiny_module: Any,
) -> None:
    """A test over the game classes picks among every plugin's games, those of plugins
    called after the bot's own too (pluggy calls the last registered first)."""

    class Bots:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("tinyish", RandomBot, games=lambda game: issubclass(game, tiny_module.Tiny))

    class Sibling(tiny_module.Tiny):
        id = "sibling"
        title = "Sibling"

    class Games:
        @hookimpl
        def meeple_games(self, register: Any) -> None:
            register(Sibling)

    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(Bots(), name="bots")
    pm.register(Games(), name="games")
    registry = Registry(pm)
    assert sorted(registry.bot("tinyish", "sibling").games or ()) == ["sibling", "tiny"]
    assert "tinyish" in registry.bot_names("tiny")
    assert "tinyish" not in registry.bot_names("clank")


class Randoms:
    """Registers a bot named ``random`` for every game, as the core does."""

    @hookimpl
    def meeple_bots(self, register: Any) -> None:
        register("random", RandomBot)


def test_a_bot_name_taken_for_the_same_games_skips_the_plugin_called_later() -> None:
    pm = PluginManager()  # a third-party plugin, then the built-in one, as plugin_manager does
    pm.register(Randoms(), name="randoms")
    pm.register(core_bots, name="meeple.core.bots")
    registry = Registry(pm)
    assert [spec.plugin for spec in registry.bots["random"]] == ["meeple.core.bots"]
    (broken,) = pm.broken
    assert (broken.name, broken.stage) == ("randoms", "meeple_bots")
    assert broken.error == (
        "bot 'random' for every game is registered by both 'meeple.core.bots' and 'randoms'; "
        "rename one, uninstall one or block it with MEEPLE_DISABLE_PLUGINS"
    )


def test_a_bot_registered_twice_for_a_game_by_one_plugin_skips_it(tiny_module: Any) -> None:
    class Twice:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("tinybot", RandomBot, games=["tiny", "other"])
            register("tinybot", RandomBot, games=["tiny"])

    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(Twice(), name="twice")
    assert "tinybot" not in Registry(pm).bots
    (broken,) = pm.broken
    assert broken.error.startswith("bot 'tinybot' for tiny is registered twice by 'twice';")


def test_a_bot_factory_that_raises_is_its_plugin_s_error(tiny_module: Any) -> None:
    def factory(game: Any, seat: int, stream: Any) -> Any:
        raise FileNotFoundError("weights.bin")

    class Loaded:
        @hookimpl
        def meeple_bots(self, register: Any) -> None:
            register("loaded", factory)

    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(Loaded(), name="loaded-bots")
    registry = Registry(pm)
    game = registry.game("tiny")(None)
    with pytest.raises(PluginError) as err:
        registry.player("loaded", "tiny").make(game, 0, 1)
    assert str(err.value).startswith(
        "plugin 'loaded-bots' failed in the factory of bot 'loaded': FileNotFoundError: "
        f"weights.bin (in {__file__}, line "
    )
    assert str(err.value).endswith(
        "block it with MEEPLE_DISABLE_PLUGINS=loaded-bots or report it to the plugin's authors"
    )


def test_an_error_of_meeple_s_own_is_no_plugin_s() -> None:
    try:
        Registry(plugin_manager(entry_points=False)).game("nothing")
    except MeepleError as exc:
        assert plugin_error(exc) is None


class HalfGames:
    """Registers a game, then fails: nothing of it may stay registered."""

    def __init__(self, tiny_module: Any) -> None:
        class Half(tiny_module.Tiny):
            id = "half"

        self.game = Half

    @hookimpl
    def meeple_games(self, register: Any) -> None:
        register(self.game)
        raise ValueError("the box is empty")

    @hookimpl
    def meeple_bots(self, register: Any) -> None:
        register("halfbot", RandomBot)

    @hookimpl
    def meeple_after_action(self) -> None:
        pass


class HalfBots:
    """Registers a game and a bot, then fails in ``meeple_bots``: its game goes too."""

    def __init__(self, tiny_module: Any) -> None:
        class Botless(tiny_module.Tiny):
            id = "botless"

        self.game = Botless

    @hookimpl
    def meeple_games(self, register: Any) -> None:
        register(self.game)

    @hookimpl
    def meeple_bots(self, register: Any) -> None:
        register("halfbot", RandomBot)
        raise KeyError("no such strategy")


@pytest.mark.parametrize(
    ("plugin", "hook"), [(HalfGames, "meeple_games"), (HalfBots, "meeple_bots")]
)
def test_a_plugin_raising_in_a_registration_hook_is_skipped_whole(
    tiny_module: Any, plugin: Any, hook: str
) -> None:
    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(plugin(tiny_module), name="half")
    registry = Registry(pm)
    assert set(registry.games) == {"tiny"}  # the other plugins' games all work
    assert "halfbot" not in registry.bots and "random" in registry.bots
    (broken,) = pm.broken
    assert (broken.name, broken.stage) == ("half", hook)
    assert broken.error.startswith(("ValueError: the box is empty (in ", "KeyError: 'no such"))
    assert f"{Path(__file__).name}, line " in broken.error
    assert not pm.has_plugin("half")  # so none of its other hooks runs
    assert not pm.hook.meeple_after_action.get_hookimpls()
    assert broken.describe().startswith(f"plugin 'half' is skipped ({hook}): ")


def test_registration_hooks_are_called_last_registered_first(tiny_module: Any) -> None:
    pm = PluginManager()
    pm.register(tiny_module, name="first")
    pm.register(HalfBots(tiny_module), name="second")
    assert [name for name, _ in pm.each_implementation("meeple_games")] == ["second", "first"]


def test_trace_hooks_covers_the_registration_hooks(
    tiny_module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEEPLE_TRACE_HOOKS", "1")
    Registry(plugin_manager(entry_points=False, extra=[tiny_module]))
    err = capsys.readouterr().err
    assert "meeple_games [hook]" in err and "finish meeple_games --> [] [hook]" in err
    assert "meeple_bots [hook]" in err


class OneGame:
    """Registers one game class."""

    def __init__(self, game: type) -> None:
        self.game = game

    @hookimpl
    def meeple_games(self, register: Any) -> None:
        register(self.game)


def crash(self: Any, seats: int, seed: int) -> Any:
    raise RuntimeError("no cards in the box")


@pytest.mark.parametrize(
    ("changes", "wrong"),
    [
        ({"id": "Tiny Game"}, "has id 'Tiny Game', not lowercase words joined by dashes"),
        ({"id": "tiny_2"}, "has id 'tiny_2', not lowercase"),
        ({"min_seats": 3, "max_seats": 2}, "takes 3-2 seats: min_seats must be an int from 1 to"),
        ({"min_seats": 0}, "takes 0-4 seats"),
        ({"is_over": lambda self, state: False}, "overrides is_over(), which is final"),
        (
            {"render": lambda self, view, seat: ""},
            "defines render(), which belongs in its presentation_type "
            "(a meeple.core.present.Presentation): move it there",
        ),
        (
            {"action_key": lambda self, seats: {}},
            "defines action_key(), which belongs in its encoding_type "
            "(a meeple.core.rl.Encoding): move it there",
        ),
        ({"max_seats": "4"}, "takes 2-'4' seats"),
        (
            {"state_type": dict},
            "has state_type <class 'dict'>, not a subclass of meeple.core.State",
        ),
        (
            {"action_type": int | str},
            "has action_type int | str, not a meeple.core.Action subclass",
        ),
        ({"zones": {"deck": SECRET}}, "sets up zones of kind 'hand', 'pile', which its zones"),
        ({"setup": crash}, "cannot set up 2 seats with seed 0: RuntimeError: no cards in the box"),
    ],
)
def test_a_game_class_declaring_something_wrong_skips_its_plugin(
    tiny_module: Any, changes: dict[str, Any], wrong: str
) -> None:
    game = type("Odd", (tiny_module.Tiny,), {"id": "odd", **changes})
    pm = plugin_manager(entry_points=False, extra=[tiny_module])
    pm.register(OneGame(game), name="odd-plugin")
    registry = Registry(pm)
    assert set(registry.games) == {"tiny"}
    (broken,) = pm.broken
    assert broken.describe().startswith(
        f"plugin 'odd-plugin' is skipped (meeple_games): its game class {__name__}.Odd {wrong}"
    )
    assert not pm.has_plugin("odd-plugin")


def test_a_game_class_lacking_the_rules_is_named_with_all_it_lacks() -> None:
    class Bare(Game[Any, Any]):
        title = "Bare"

    pm = plugin_manager(entry_points=False, extra=[OneGame(Bare)])
    Registry(pm)
    (broken,) = pm.broken
    assert broken.error == (
        f"its game class {__name__}.{Bare.__qualname__} lacks id, min_seats, max_seats, "
        "state_type, action_type, setup(), legal_actions(), resolve(), scores(), cards()"
    )


def test_every_problem_of_a_game_class_is_named_at_once(tiny_module: Any) -> None:
    game = type("Odd", (tiny_module.Tiny,), {"id": "Odd", "min_seats": 5})
    assert class_problems(game) == [
        "has id 'Odd', not lowercase words joined by dashes ('my-game')",
        "takes 5-4 seats: min_seats must be an int from 1 to max_seats",
    ]


def test_a_sound_game_class_has_no_problems(
    tiny_module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEEPLE_DISABLE_PLUGINS")
    games = Registry(plugin_manager(entry_points=False)).games.values()
    assert [class_problems(game) for game in (tiny_module.Tiny, *games)] == [[]] * 4


class Pinned(BotOptions, frozen=True):
    """Options naming a file, pinned by its digest as the policy bot's model is."""

    path: str = ""
    digest: str = ""

    def pinned(self) -> Pinned:
        return msgspec.structs.replace(self, digest=files.digest(files.read_file(self.path, 99)))

    def unavailable(self) -> list[str]:
        now = files.digest(files.read_file(self.path, 99))
        return [] if now == self.digest else [f"{self.path} is not the file pinned"]


class PinningBots:
    @hookimpl
    def meeple_bots(self, register: Any) -> None:
        register("pinning", lambda *args: RandomBot(*args[:3]), options=Pinned)


def test_a_seat_the_local_user_names_is_pinned(tiny_module: Any, tmp_path: Path, save: Any) -> None:
    """Named with ``pin`` (the command line), a seat's options pin what they name, and its
    canonical name holds it; a name read from a file is taken as written, and a saved game
    whose pinned file changed is refused naming the seat."""
    registry = Registry(plugin_manager(entry_points=False, extra=[tiny_module, PinningBots()]))
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"one")
    named = f"pinning:path={weights}"
    assert registry.player(named, "tiny").text == named
    pinned = registry.player(named, "tiny", pin=True).text
    assert pinned == f"{named}:digest={files.digest(b'one')}"
    assert registry.player(pinned, "tiny", pin=True).text == pinned
    assert registry.player(pinned, "tiny").unavailable() == []
    assert registry.player("random", "tiny", pin=True).unavailable() == []
    path = save("record")
    record = json.loads(path.read_text())
    record["setup"]["seats"][1] = pinned
    path.write_text(json.dumps(record))
    validate.load(path, registry)
    weights.write_bytes(b"two")
    with pytest.raises(InvalidFile) as refused:
        validate.load(path, registry)
    assert refused.value.problems == [f"$.setup.seats[1]: {weights} is not the file pinned"]
