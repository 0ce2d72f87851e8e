"""The helpers the commands share: options, seats and the score table."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Annotated, Literal

import msgspec
import pytest
from rich.console import Console
from typer.testing import Result

from meeple.cli import common
from meeple.core import Game, MeepleError, Options
from meeple.core.plugins import Registry
from meeple.core.scoring import Score

Invoke = Callable[..., Result]


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class HouseOptions(Options, frozen=True):
    rounds: int = 3
    """How many rounds
    to play."""
    fast: bool = False
    """``true`` to hurry, as :class:`~meeple.core.game.Options` and :ref:`the guide
    <options>` say."""
    mode: Annotated[str, msgspec.Meta(description="Scoring mode.")] = "plain"
    tasks: list[int] = msgspec.field(default_factory=list)
    pace: Literal["slow", "fast"] | None = None
    colour: Colour = Colour.RED


class House(Game):  # type: ignore[type-arg]
    id, title, min_seats, max_seats = "house", "House", 2, 3
    options_type = HouseOptions


def test_options_are_converted_from_text() -> None:
    got = common.parse_options(House, ["rounds=5", "fast=true", "tasks=[1, 2]"])
    assert got == HouseOptions(rounds=5, fast=True, tasks=[1, 2])
    assert common.parse_options(House, []) == HouseOptions()


def test_an_unknown_option_lists_the_valid_ones_with_their_help() -> None:
    with pytest.raises(MeepleError) as err:
        common.parse_options(House, ["round=5"])
    message = str(err.value)
    assert "House has no option 'round'" in message
    assert "rounds (default 3): How many rounds to play." in message
    assert "mode (default 'plain'): Scoring mode." in message


def test_option_help_shows_code_as_the_help_texts_do() -> None:
    """A docstring's reST markup (inline literals, roles) is shown as meeple's own help text
    writes code: in single backquotes, never as raw double backquotes."""
    assert common.option_docs(HouseOptions)["fast"] == (
        "`true` to hurry, as `Options` and `the guide` say."
    )


def test_no_installed_game_shows_rest_markup_in_its_option_help(
    registry: Registry, game_id: str
) -> None:
    for name, doc in common.option_docs(registry.game(game_id).options_type).items():
        assert "``" not in doc and ":`" not in doc, (name, doc)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("rounds=many", "--option 'rounds=many': Expected `int`, got `str`"),
        ("rounds", "write it as key=value"),
        ("tasks=[1,", "is not valid JSON"),
        ("pace=quick", "Invalid enum value 'quick' - at `$.pace`; pace is one of: fast, slow"),
        ("colour=green", "`$.colour`; colour is one of: red, blue"),
    ],
)
def test_bad_option_values(item: str, message: str) -> None:
    with pytest.raises(MeepleError) as err:
        common.parse_options(House, [item])
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--rounds", "many", "--rounds 'many': Expected `int`, got `str`"),
        ("--pace", "quick", "--pace 'quick': Invalid enum value 'quick'"),
        ("--tasks", "[1,", "--tasks '[1,': '[1,' is not valid JSON"),
        ("--tasks", "[" * 100_000, "--tasks: its JSON is nested too deeply"),
        ("--mode", "plain\udcff", "--mode 'plain\\udcff': not UTF-8 text"),
    ],
)
def test_an_option_given_as_a_flag_is_named_as_written(flag: str, value: str, message: str) -> None:
    item = common.Flag(flag.removeprefix("--"), value, flag)
    with pytest.raises(MeepleError) as err:
        common.parse_options(House, [item])
    assert str(err.value).startswith(message)


def test_an_option_nested_too_deeply_is_refused() -> None:
    with pytest.raises(MeepleError, match="--option tasks: its JSON is nested too deeply"):
        common.parse_options(House, ["tasks=" + "[" * 100_000])


@pytest.mark.parametrize("item", ["mode=plain\udcff", "rounds=\udcff"])
def test_an_option_that_is_not_utf8_is_refused(item: str) -> None:
    """Undecodable bytes (a file name in another encoding) could not be saved in a record."""
    with pytest.raises(MeepleError, match="not UTF-8 text, which a saved game cannot hold"):
        common.parse_options(House, [item])


def test_seats_resolve_bot_and_check_the_count(registry: Registry) -> None:
    assert common.parse_seats(registry, House, " Bot ,human") == ["random", "human"]
    with pytest.raises(MeepleError, match="4 seats, but House takes 2-3"):
        common.parse_seats(registry, House, "bot,bot,bot,bot")
    with pytest.raises(MeepleError, match="no bot 'robot' plays house"):
        common.parse_seats(registry, House, "bot,robot")


def test_seats_take_bot_options(registry: Registry) -> None:
    seats = common.parse_seats(registry, House, " Ismcts: iterations = 9 ,Bot")
    assert seats == ["ismcts:iterations=9", "random"]
    with pytest.raises(MeepleError, match="bot 'random' takes no options"):
        common.parse_seats(registry, House, "human,bot:x=1")
    with pytest.raises(MeepleError, match="--seats 'ismcts:iterations=\\\\udcff,bot': not UTF-8"):
        common.parse_seats(registry, House, "ismcts:iterations=\udcff,bot")


def test_score_table_marks_shared_winners() -> None:
    scores = [
        Score(seat=0, total=5, parts={"coins": 5}),
        Score(seat=1, total=5, parts={"coins": 4, "task_bonus": 1}),
        Score(seat=2, total=2, parts={"coins": 2}),
    ]
    console = Console(width=100, record=True)
    console.print(common.score_table(scores, ["ann", "bob", "cy"]))
    text = console.export_text()
    assert "task bonus" in text
    rows = [line for line in text.splitlines() if "│" in line]
    places = [row.split("│")[-2].strip() for row in rows]
    assert places == ["★ 1", "★ 1", "3"]  # shared first place, then 3
    assert "note" not in text  # the column shows only when a game writes notes
    noted = [Score(seat=0, total=0, note="eliminated"), Score(seat=1, total=4, note="escaped")]
    console.print(common.score_table(noted, ["ann", "bob"]))
    text = console.export_text()
    assert "eliminated" in text and "escaped" in text


def test_score_table_of_four_seats_fits_80_columns_uncut() -> None:
    """A Clank! score table (four parts and notes) keeps every name and heading whole."""
    parts = {"artifacts": 20, "tokens": 28, "gold": 8, "cards": 6}
    notes = ("escaped", "eliminated", "escaped", "eliminated")
    scores = [Score(seat=s, total=62, parts=parts, note=n) for s, n in enumerate(notes)]
    console = Console(width=80, record=True)
    console.print(common.score_table(scores, ["heuristic", "random"] * 2))
    text = console.export_text()
    assert "…" not in text and max(map(len, text.splitlines())) <= 80
    for word in ("heuristic", "artifacts", "eliminated"):
        assert word in text


def test_a_bug_in_a_plugin_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.cli import app

    def broken(**_: object) -> None:
        raise ValueError("shaft [3] is on fire")

    monkeypatch.setattr(app, "make_app", lambda: broken)
    monkeypatch.delenv("MEEPLE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stop:
        app.main()
    err = capsys.readouterr().err
    assert stop.value.code == 1
    assert "internal error: ValueError: shaft [3] is on fire" in err and "MEEPLE_DEBUG" in err
    assert "Traceback" not in err
    monkeypatch.setenv("MEEPLE_DEBUG", "1")
    with pytest.raises(ValueError):
        app.main()


def test_ctrl_c_outside_a_command_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.cli import app

    def loading_plugins() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "make_app", loading_plugins)
    with pytest.raises(SystemExit) as stop:
        app.main()
    assert stop.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


@pytest.mark.parametrize("value", ["nope", "-1"])
def test_a_bad_option_value_is_one_line_for_every_game(
    cli: Invoke, registry: Registry, game_id: str, value: str
) -> None:
    """Each option of each installed game, given a value it may not take, is refused in one
    line (by the option parser, or by the rules at setup), never as an internal error."""
    for field in msgspec.structs.fields(registry.game(game_id).options_type):
        item = f"{field.name}={value}"
        result = cli("simulate", game_id, "-n", "1", "--seats", "bot,bot", "-o", item)
        assert isinstance(result.exception, SystemExit | None), (item, result.exception)
        if result.exit_code != 0:
            assert result.exit_code == 1 and result.stderr.startswith("error: "), item
            assert result.stderr.count("\n") == 1, result.stderr
