"""`meeple play`: bot games, human seats driven by typed input, saving and resuming."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from meeple.core import hookimpl, records
from meeple.core.bots import RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import PluginManager, Registry
from meeple.core.records import Setup, Snapshot
from meeple.core.rng import Stream
from meeple.core.validate import check_file, load

Invoke = Callable[..., Result]


def test_bot_game_prints_a_log_and_scores(cli: Invoke) -> None:
    result = cli("play", "tiny", "--seats", "bot,bot,random", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "round 1" in out and "seat 0 (random): " in out
    assert "Tiny: final scores" in out and "place" in out and "★" in out
    # The same seed plays the same game.
    assert cli("play", "tiny", "--seats", "bot,bot,random", "--seed", "3").stdout == out


def test_quiet_prints_only_the_scores(cli: Invoke) -> None:
    result = cli("play", "tiny", "--seats", "bot,bot", "--seed", "1", "--quiet")
    assert result.exit_code == 0
    assert "seat 0 (" not in result.stdout and "final scores" in result.stdout


def test_no_decision_lists_two_actions_in_the_same_words(registry: Registry, game_id: str) -> None:
    """What tells two legal actions apart shows in their words, as the seat deciding sees
    them (Clonk!'s three pink hammers by their coins and eyes, copies of a Clank! card or
    token by their order), at every decision of seeded random games of every table size."""
    game_class = registry.game(game_id)
    sizes = range(game_class.min_seats, game_class.max_seats + 1)
    for seed in range(30):
        game = game_class()
        match = Match.new(game, sizes[seed % len(sizes)], seed, Hooks(None))
        pick = Stream(f"same words/{seed}")
        while not match.over:
            legal = match.legal()
            view = game.view(match.state, match.state.to_move)
            words = Counter(game.presentation.describe_action(view, action) for action in legal)
            assert max(words.values()) == 1, (seed, len(match.actions), words.most_common(1))
            match.apply_legal(pick.choice(legal))


def test_every_game_plays_to_the_end(
    cli: Invoke, game_id: str, tmp_path: Path, registry: Registry
) -> None:
    seats = ",".join(["bot"] * registry.game(game_id).max_seats)
    save = tmp_path / "game.json"
    result = cli("play", game_id, "--seats", seats, "--seed", "1", "--save", str(save))
    assert result.exit_code == 0, result.output
    assert "final scores" in result.stdout and "total" in result.stdout
    report = check_file(save, registry, Hooks(registry.pm))
    assert report.ok, report.problems


def test_bot_means_the_games_own_bot(pm: PluginManager, cli: Invoke) -> None:
    class OwnBot:
        @hookimpl
        def meeple_bots(self, register: Callable[..., None]) -> None:
            register("careful", RandomBot, games=("tiny",))

    pm.register(OwnBot())
    result = cli("play", "tiny", "--seats", "bot,random", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "seat 0 (careful)" in result.stdout and "seat 1 (random)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nope"], "no game 'nope' is installed (installed: "),
        (["play", "tiny", "--seats", "bot"], "1 seats, but Tiny takes 2-4"),
        (["play", "tiny", "--seats", "bot,,bot"], "an empty seat"),
        (["play", "tiny", "--seats", "bot,wizard"], "no bot 'wizard' plays tiny"),
        (["play", "tiny", "--option", "speed=3"], "Tiny has no option 'speed'"),
        (["play", "tiny", "--option", "speed"], "write it as key=value"),
        (["play"], "name the GAME to play"),
        (["play", "--resume", "missing.json"], "missing.json"),
        (["play", "--resume", "x.json", "--seed", "2"], "cannot change a resumed game"),
    ],
)
def test_bad_input_exits_1_with_a_message(cli: Invoke, args: list[str], message: str) -> None:
    result = cli(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_usage_errors_exit_2(cli: Invoke) -> None:
    assert cli("play", "tiny", "--seed", "abc").exit_code == 2
    # A seed a file could not hold (files keep seeds in 0..2**63-1).
    for seed in ("-1", str(2**63), "100000000000000000000"):
        assert cli("play", "tiny", "--seed", seed).exit_code == 2


def human_game(cli: Invoke, save: Path, typed: str | bytes, *more: str) -> Result:
    return cli(
        "play",
        "tiny",
        "--seats",
        "human,bot",
        "--seed",
        "5",
        "--save",
        str(save),
        *more,
        input=typed,
    )


def test_human_sees_their_view_and_a_bad_choice_asks_again(cli: Invoke, tmp_path: Path) -> None:
    result = human_game(cli, tmp_path / "g.json", "99\nhello\n" + "1\n" * 20)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'99' is not a choice" in out and "'hello' is not a choice" in out
    assert "seat 0, your choice [1-" in out and "  1. " in out
    assert "?card" in out  # the bot's hand is hidden from the human's view
    assert "you: " in out and "final scores" in out


def test_save_quit_and_resume_to_the_end(cli: Invoke, tmp_path: Path, registry: Registry) -> None:
    save = tmp_path / "g.json"
    # One move, save, quit without saving again.
    result = human_game(cli, save, "1\ns\nq\nn\n")
    assert result.exit_code == 0, result.output
    assert f"saved to {save}" in result.stdout
    record = load(save, registry).value
    assert not record.over and record.setup.seats == ["human", "random"]
    saved_actions = len(record.actions)
    assert saved_actions >= 2

    result = cli("play", "--resume", str(save), input="1\n" * 20)
    assert result.exit_code == 0, result.output
    assert f"resumed {save} after {saved_actions} actions" in result.stdout
    assert "final scores" in result.stdout
    finished = load(save, registry).value
    assert finished.over and finished.scores is not None
    assert finished.actions[:saved_actions] == record.actions
    assert check_file(save, registry, Hooks(registry.pm)).ok


def test_quit_asks_for_a_file_when_none_was_given(cli: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "later.json"
    result = cli("play", "tiny", "--seats", "human,bot", "--seed", "5", input=f"q\n{target}\n")
    assert result.exit_code == 0
    assert target.exists()


def test_resume_rejects_a_damaged_file(cli: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "meeple.record", "format": 1')
    result = cli("play", "--resume", str(bad))
    assert result.exit_code == 1
    assert str(bad) in result.stderr and "not valid JSON" in result.stderr


def test_resume_checks_the_game(cli: Invoke, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    human_game(cli, save, "q\ny\n")
    result = cli("play", "other", "--resume", str(save))
    assert result.exit_code == 1 and "is a game of tiny, not other" in result.stderr


def test_input_ending_stops_cleanly(cli: Invoke, tmp_path: Path) -> None:
    result = human_game(cli, tmp_path / "g.json", "")
    assert result.exit_code == 130
    assert "input ended" in result.stderr and "Traceback" not in result.output


def test_ctrl_c_exits_130_without_a_traceback(cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: RandomBot, prompt: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(RandomBot, "choose", interrupted)
    result = cli("play", "tiny", "--seats", "bot,bot", "--seed", "1")
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and "Traceback" not in result.output


@pytest.fixture
def clonk(registry: Registry) -> None:
    if "clonk" not in registry.games:
        pytest.skip("the Clonk! plugin is not registered")


@pytest.mark.usefixtures("clonk")
def test_four_bots_play_clonk(cli: Invoke) -> None:
    result = cli("play", "clonk", "--seats", "bot,bot,bot,bot", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Clonk!, seats: 0 greedy, 1 greedy, 2 greedy, 3 greedy")
    assert "round 1" in out and "seat 0 " in out
    assert "final scores" in out and "coins" in out and "★" in out


@pytest.mark.usefixtures("clonk")
def test_clonk_options_and_a_human_seat(cli: Invoke, tmp_path: Path, registry: Registry) -> None:
    result = cli("play", "clonk", "--seats", "bot,bot", "--option", "hand_limit=0")
    assert result.exit_code == 1 and "hand_limit" in result.stderr
    save = tmp_path / "c.json"
    args = ["play", "clonk", "--seats", "human,random", "--seed", "4", "--save", str(save)]
    result = cli(*args, "--option", "hand_limit=4", input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "seat 0, your choice [1-" in result.stdout
    record = load(save, registry).value
    assert record.over and record.setup.options.hand_limit == 4


def test_resume_from_a_snapshot_saves_a_later_snapshot(
    cli: Invoke, tmp_path: Path, registry: Registry
) -> None:
    game = registry.game("tiny")()
    match = Match.new(game, 2, 9, Hooks(registry.pm))
    match.step(match.legal()[0])
    setup = Setup(
        game="tiny", version=game.version, seats=["human", "random"], seed=9, options=game.options
    )
    snap = tmp_path / "s.json"
    records.write_atomic(snap, records.encode(Snapshot(setup=setup, step=1, state=match.state)))
    result = cli("play", "--resume", str(snap), input="1\n" * 20)
    assert result.exit_code == 0, result.output
    later = load(snap, registry)
    assert later.kind == records.SNAPSHOT and later.value.step > 1
    assert game.is_over(later.value.state)


def test_python_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("meeple ")


@pytest.mark.parametrize(
    ("answer", "n", "index"),
    [
        ("1", 3, 0),
        ("3", 3, 2),
        ("03", 3, 2),
        ("٣", 3, 2),  # Arabic-Indic three: a decimal digit
        ("²", 3, None),  # a digit, but not a decimal one: int() refuses it
        ("4", 3, None),
        ("0", 3, None),
        ("", 3, None),
        ("-1", 3, None),
        ("9" * 5000, 3, None),  # past int()'s digit limit
        ("0" * 5000 + "1", 3, 0),
    ],
)
def test_choice_reads_decimal_numbers_in_range(answer: str, n: int, index: int | None) -> None:
    from meeple.cli.play import choice

    assert choice(answer, n) == index


def test_any_typed_line_asks_again(cli: Invoke, tmp_path: Path) -> None:
    """Unicode digits, blank lines and very long lines are answered, never a crash."""
    typed = "²\n\n" + "9" * 100_000 + "\n" + "x" * 100_000 + "\n" + "\x1b[2J\n" + "1\n" * 20
    result = human_game(cli, tmp_path / "g.json", typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'²' is not a choice" in out and "'' is not a choice" in out
    assert "'99999999999999999999…' is not a choice" in out
    assert "'\\x1b[2j' is not a choice" in out and "\x1b" not in out
    assert "final scores" in out


def test_a_line_not_in_the_inputs_encoding_asks_again(cli: Invoke, tmp_path: Path) -> None:
    """Piped from a Latin-1 file, say: read as text with a replacement, never a crash."""
    result = human_game(cli, tmp_path / "g.json", b"caf\xe9\n" + b"1\n" * 20)
    assert result.exit_code == 0, result.output
    assert "'caf\ufffd' is not a choice" in result.stdout and "final scores" in result.stdout


@pytest.mark.parametrize("written", [["--hand-limit=abc"], ["--hand_limit", "abc"]])
def test_a_game_option_given_as_a_flag_is_named_as_written(cli: Invoke, written: list[str]) -> None:
    result = cli("play", "clonk", "--seats", "bot,bot", *written)
    assert result.exit_code == 1
    flag = written[0].partition("=")[0]
    assert result.stderr.startswith(f"error: {flag} 'abc': Expected `int`, got `str`")
