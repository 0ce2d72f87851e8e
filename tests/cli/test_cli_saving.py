"""No game is lost: the --save file is checked first, and whatever stops a game saves it.

Ctrl-C, the end of the input and an error in a bot, the rules or a hook all
save the game so far when ``--save`` is given -- at a terminal or not -- and
the saved file is a valid record that ``play --resume`` continues.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from meeple.cli import tabletop
from meeple.core import hookimpl, records
from meeple.core.bots import RandomBot
from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError
from meeple.core.plugins import PluginManager, Registry
from meeple.core.validate import check_file, load

Invoke = Callable[..., Result]

BOTS = ("play", "tiny", "--seats", "bot,bot", "--seed", "3")


def saved_ok(path: Path, registry: Registry) -> Any:
    """The record in ``path``, after checking it validates."""
    report = check_file(path, registry, Hooks(registry.pm))
    assert report.ok, report.problems
    return load(path, registry).value


# -- the --save target, before the game starts ------------------------------------


def unwritable_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):  # root writes anywhere but in /sys
        folder = Path("/sys")
        if not folder.is_dir():
            pytest.skip("no folder this user cannot write to")
    return folder


def fifo(tmp_path: Path) -> Path:
    """A FIFO, which would block the first write until someone reads it."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (lambda tmp: tmp / "missing" / "g.json", "the folder {folder} does not exist"),
        (lambda tmp: tmp, "this is a folder"),
        (lambda tmp: unwritable_folder(tmp) / "g.json", "cannot write in {folder}"),
        (fifo, "this is not a regular file"),
    ],
    ids=["missing-folder", "a-folder", "not-writable", "fifo"],
)
def test_a_save_target_that_cannot_work_stops_before_the_game(
    cli: Invoke, tmp_path: Path, where: Callable[[Path], Path], message: str
) -> None:
    target = where(tmp_path)
    result = cli(*BOTS, "--save", str(target))
    assert result.exit_code == 1
    assert message.format(folder=target.parent) in result.stderr
    assert "round 1" not in result.stdout  # not one move was played


def test_overwriting_another_file_needs_force(
    cli: Invoke, tmp_path: Path, save: Callable[..., Path], registry: Registry
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    other_game = save("record", game_id="clonk")
    for target, what in ((notes, "not a meeple record"), (other_game, "a game of clonk")):
        before = target.read_bytes()
        result = cli(*BOTS, "--save", str(target))
        assert result.exit_code == 1
        assert what in result.stderr and "--force" in result.stderr
        assert target.read_bytes() == before
    resumed = cli("play", "--resume", str(save("record", steps=2)), "--save", str(notes))
    assert resumed.exit_code == 1 and "--force" in resumed.stderr
    assert notes.read_text() == "my notes\n"
    result = cli(*BOTS, "--save", str(notes), "--force")
    assert result.exit_code == 0, result.output
    assert saved_ok(notes, registry).over


def test_a_saved_game_of_the_same_game_is_overwritten(
    cli: Invoke, save: Callable[..., Path], registry: Registry
) -> None:
    earlier = save("snapshot", steps=2)
    assert cli(*BOTS, "--save", str(earlier)).exit_code == 0
    assert load(earlier, registry).kind == records.RECORD


def test_a_file_typed_at_the_prompt_is_checked_too(cli: Invoke, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    args = ("play", "tiny", "--seats", "human,bot", "--seed", "5")
    result = cli(*args, input=f"s\n{notes}\n\nq\n\n")  # refused, asked again: Enter cancels
    assert result.exit_code == 0
    assert f"{notes} exists already; name a new file" in result.stderr
    assert notes.read_text() == "my notes\n"


# -- stopping: Ctrl-C and the end of the input ------------------------------------


def test_the_end_of_piped_input_saves(cli: Invoke, tmp_path: Path, registry: Registry) -> None:
    save = tmp_path / "g.json"
    args = ("play", "tiny", "--seats", "human,bot", "--seed", "5", "--save", str(save))
    result = cli(*args, input="1\n")
    assert result.exit_code == 130
    assert "input ended" in result.stderr and f"saved to {save}" in result.stdout
    assert len(saved_ok(save, registry).actions) >= 2  # the move typed, and the bot's answer


def test_a_closed_input_is_an_input_that_ended(tmp_path: Path, tiny_path: Path) -> None:
    """Started with standard input closed (``<&-``), a human seat's game stops and saves."""
    save = tmp_path / "g.json"
    args = ["play", "tiny", "--seats", "human,bot", "--seed", "5", "--save", str(save)]
    done = subprocess.run(
        [sys.executable, "-m", "meeple.cli", *args],
        capture_output=True,
        timeout=30,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 130, done.stderr
    assert b"input ended" in done.stderr and b"Traceback" not in done.stderr
    assert f"saved to {save}".encode() in done.stdout


def test_the_end_of_input_without_save_says_nothing_was_saved(cli: Invoke) -> None:
    result = cli("play", "tiny", "--seats", "human,bot", "--seed", "5", input="1\n")
    assert result.exit_code == 130
    assert "not saved: give --save FILE" in result.stderr


def test_the_end_of_input_after_quit_still_saves(
    cli: Invoke, tmp_path: Path, registry: Registry
) -> None:
    save = tmp_path / "g.json"
    args = ("play", "tiny", "--seats", "human,bot", "--seed", "5", "--save", str(save))
    result = cli(*args, input="1\nq\n")  # the input ends at "Save before leaving? [Y/n]"
    assert result.exit_code == 130
    assert saved_ok(save, registry).actions


def interrupt_on(calls: int) -> Callable[..., Any]:
    """A ``RandomBot.choose`` that presses Ctrl-C on its ``calls``-th call."""
    choose, seen = RandomBot.choose, [0]

    def choosing(self: RandomBot, prompt: Any) -> Any:
        seen[0] += 1
        if seen[0] == calls:
            raise KeyboardInterrupt
        return choose(self, prompt)

    return choosing


def test_ctrl_c_saves_without_asking(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RandomBot, "choose", interrupt_on(5))
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 130
    assert "interrupted" in result.stderr
    assert len(saved_ok(save, registry).actions) == 4


@pytest.fixture
def sigterm() -> Iterator[Callable[..., None]]:
    """The SIGTERM handler outside a game: one that fails the test rather than end it."""

    def unheard(*_: object) -> None:
        raise AssertionError("SIGTERM was not handled by the game")

    before = signal.signal(signal.SIGTERM, unheard)
    yield unheard
    signal.signal(signal.SIGTERM, before)


def terminate_on(calls: int) -> Callable[..., Any]:
    """A ``RandomBot.choose`` that sends this process SIGTERM on its ``calls``-th call."""
    choose, seen = RandomBot.choose, [0]

    def choosing(self: RandomBot, prompt: Any) -> Any:
        seen[0] += 1
        if seen[0] == calls:
            os.kill(os.getpid(), signal.SIGTERM)
        return choose(self, prompt)

    return choosing


def test_sigterm_saves_as_ctrl_c_does_and_exits_143(
    cli: Invoke,
    tmp_path: Path,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    sigterm: Callable[..., None],
) -> None:
    monkeypatch.setattr(RandomBot, "choose", terminate_on(5))
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 143
    assert result.stderr.split() == ["terminated"]
    assert len(saved_ok(save, registry).actions) == 4
    assert signal.getsignal(signal.SIGTERM) is sigterm  # the game's handler only while it plays


def test_sigterm_without_save_says_nothing_was_saved(
    cli: Invoke, monkeypatch: pytest.MonkeyPatch, sigterm: Callable[..., None]
) -> None:
    monkeypatch.setattr(RandomBot, "choose", terminate_on(5))
    result = cli(*BOTS)
    assert result.exit_code == 143
    assert "terminated\nnot saved: give --save FILE" in result.stderr


def test_sigterm_as_a_finished_game_is_saved_exits_143(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sigterm: Callable[..., None]
) -> None:
    """The game is over and being saved when SIGTERM comes: no "interrupted", no exit 130."""
    save = tabletop.Table.save

    def saving(self: tabletop.Table, path: Path, *, scored: bool = True) -> bool:
        os.kill(os.getpid(), signal.SIGTERM)
        return save(self, path, scored=scored)

    monkeypatch.setattr(tabletop.Table, "save", saving)
    result = cli(*BOTS, "--save", str(tmp_path / "g.json"))
    assert result.exit_code == 143 and result.stderr == "terminated\n"


def test_ctrl_c_in_a_real_pipe_saves(tmp_path: Path, tiny_path: Path, registry: Registry) -> None:
    """A real SIGINT while ``meeple play`` waits for piped input."""
    save = tmp_path / "g.json"
    args = ["play", "tiny", "--seats", "human,bot", "--seed", "5", "--save", str(save)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 30
    while seen.count(b"your choice") < 2 and time.monotonic() < deadline:
        # Until the second prompt: the move typed was played, stdin stays open.
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    # A SIGINT that lands just before the read starts waits for the next one (as at a terminal).
    for _ in range(5):
        proc.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
            break
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (seen + out, err)
    assert b"interrupted" in err and b"Traceback" not in err
    assert len(saved_ok(save, registry).actions) >= 2


def test_an_output_closed_mid_game_saves(
    tmp_path: Path, tiny_path: Path, registry: Registry
) -> None:
    """``meeple play ... | head``: the reader goes away, and the game is saved all the same."""
    save = tmp_path / "g.json"
    args = ["play", "tiny", "--seats", "human,bot", "--seed", "5", "--save", str(save), "--plain"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen = b""
    while b"your choice" not in seen:
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    proc.stdout.close()  # the reader goes away; the next line printed finds no one
    _, err = proc.communicate(b"1\n", timeout=30)
    assert proc.returncode == 1 and b"Traceback" not in err, err
    assert len(saved_ok(save, registry).actions) >= 1


# -- errors during play ---------------------------------------------------------------


def test_a_bot_error_saves_first_and_says_where(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    choose, calls = RandomBot.choose, [0]

    def failing(self: RandomBot, prompt: Any) -> Any:
        calls[0] += 1
        if calls[0] == 6:
            raise ZeroDivisionError("the bot divided by zero")
        return choose(self, prompt)

    monkeypatch.setattr(RandomBot, "choose", failing)
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert isinstance(result.exception, ZeroDivisionError)
    assert result.exception.__notes__ == [
        f"the game so far is saved in {save}; `meeple play --resume {save}` continues it"
    ]
    assert f"saved to {save}" in result.stdout
    assert len(saved_ok(save, registry).actions) == 5


def test_the_internal_error_line_says_where_the_game_went(
    pm: PluginManager,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from meeple.cli import app

    def failing(self: RandomBot, prompt: Any) -> Any:
        raise ZeroDivisionError("the bot divided by zero")

    monkeypatch.setattr(RandomBot, "choose", failing)
    save = tmp_path / "g.json"
    make_app = app.make_app
    monkeypatch.setattr(app, "make_app", lambda: make_app(pm))
    monkeypatch.setattr(sys, "argv", ["meeple", *BOTS, "--save", str(save)])
    monkeypatch.delenv("MEEPLE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stop:
        app.main()
    err = " ".join(capsys.readouterr().err.split())  # unwrapped
    assert stop.value.code == 1
    assert "internal error: ZeroDivisionError: the bot divided by zero" in err
    assert f"report it the game so far is saved in {save};" in err


def test_a_user_error_from_a_bot_names_the_saved_file(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    def confused(self: RandomBot, prompt: Any) -> Any:
        raise MeepleError("the bot's table is missing")

    monkeypatch.setattr(RandomBot, "choose", confused)
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 1
    assert "error: the bot's table is missing\n  the game so far is saved in" in result.stderr
    assert saved_ok(save, registry).actions == []


def test_rules_failing_halfway_through_an_action_save_the_state_before_it(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failing action may have changed the state before it raised: the save leaves it out."""
    tiny = type(registry.game("tiny")())
    resolve, calls = tiny.resolve, [0]

    def half_done(self: Any, state: Any, action: Any) -> Any:
        calls[0] += 1
        events = resolve(self, state, action)  # the state is changed ...
        if calls[0] == 4:
            raise RuntimeError("... and then the rules fail")
        return events

    monkeypatch.setattr(tiny, "resolve", half_done)
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert isinstance(result.exception, RuntimeError)
    record = saved_ok(save, registry)  # the digest is that of the state after 3 actions
    assert len(record.actions) == 3


def test_a_failing_game_over_hook_keeps_the_finished_game(
    cli: Invoke, pm: PluginManager, tmp_path: Path, registry: Registry
) -> None:
    class Failing:
        @hookimpl
        def meeple_game_over(self, game: Any, state: Any, scores: Any) -> None:
            raise OSError("the statistics server is down")

    pm.register(Failing())
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 1  # a plugin's failure, named as such
    assert "the statistics server is down" in result.stderr
    assert f"the game so far is saved in {save}" in result.stderr
    record = saved_ok(save, registry)
    assert record.over and record.scores is not None


def test_a_failing_score_hook_keeps_the_game_without_its_scores(
    cli: Invoke, pm: PluginManager, tmp_path: Path, registry: Registry
) -> None:
    class Failing:
        @hookimpl
        def meeple_adjust_scores(self, game: Any, state: Any, scores: Any) -> None:
            raise KeyError("house rule")

    pm.register(Failing())
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 1
    assert f"the game so far is saved in {save}" in result.stderr
    record = load(save, registry).value
    assert record.over and record.scores is None


def test_an_error_says_when_the_game_could_not_be_saved(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(self: RandomBot, prompt: Any) -> Any:
        raise ZeroDivisionError("the bot divided by zero")

    def disk_full(path: Any, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    def unencodable(value: Any) -> bytes:
        raise OverflowError("can't serialize ints > 2**64 - 1")

    monkeypatch.setattr(RandomBot, "choose", failing)
    save = tmp_path / "g.json"
    monkeypatch.setattr(records, "write_atomic", disk_full)
    result = cli(*BOTS, "--save", str(save))
    assert f"could not save to {save}: No space left on device" in result.stderr
    assert result.exception is not None
    assert result.exception.__notes__ == [f"the game so far could not be saved to {save}"]
    monkeypatch.setattr(records, "encode", unencodable)
    result = cli(*BOTS, "--save", str(save))
    assert result.exception is not None
    assert result.exception.__notes__ == [
        "saving failed too: OverflowError: can't serialize ints > 2**64 - 1",
        f"the game so far could not be saved to {save}",
    ]


def test_ctrl_c_at_a_terminal_without_save_asks_for_a_file(
    tmp_path: Path, tiny_path: Path, registry: Registry, real_terminal: Callable[..., Any]
) -> None:
    """At a real terminal (a pty), Ctrl-C with no --save asks where to save (in line mode)."""
    args = ["play", "tiny", "--seats", "human,bot", "--seed", "5", "--quiet", "--plain"]
    term = real_terminal(args, cwd=tmp_path, COLUMNS="200")
    assert b"your choice" in term.read_until(b"your choice")
    # CPython's readline misses a SIGINT that lands just before it waits for a key (a
    # person presses Ctrl-C again); so may this test, for at most a few tries.
    for _ in range(5):
        term.proc.send_signal(signal.SIGINT)
        if b"Save to which file?" in term.read_until(b"Save to which file?", seconds=1):
            break
    assert b"Save to which file?" in term.seen, term.seen
    term.type(b"later.json\n")
    assert term.proc.wait(timeout=30) == 130
    assert saved_ok(tmp_path / "later.json", registry).actions == []


def test_a_finished_game_that_cannot_be_saved_exits_1(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(path: Any, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(records, "write_atomic", disk_full)
    save = tmp_path / "g.json"
    result = cli(*BOTS, "--save", str(save))
    assert result.exit_code == 1
    assert "final scores" in result.stdout
    assert f"could not save to {save}: No space left on device" in result.stderr


# -- what s and q ask -------------------------------------------------------------

HUMAN = ("play", "tiny", "--seats", "human,bot", "--seed", "5", "--plain")


@pytest.mark.parametrize("answer", ["n", "no", "N", ""])
def test_no_to_the_question_of_a_file_saves_nothing(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    """Answering n (as to a yes-or-no question) is a no, not a file named ``n``."""
    monkeypatch.chdir(tmp_path)
    result = cli(*HUMAN, input=f"s\n{answer}\n1\nq\n{answer}\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Save to which file? (Enter or n: ") == 2
    assert list(tmp_path.iterdir()) == []


def test_yes_to_the_question_of_a_file_asks_for_its_name(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli(*HUMAN, input="q\ny\nlater.json\n")
    assert result.exit_code == 0, result.output
    assert "Type the file's name (Enter: none)" in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["later.json"]
    saved_ok(tmp_path / "later.json", registry)


def test_a_file_typed_at_the_table_overwrites_no_saved_game(
    cli: Invoke, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another game saved there stays (even one of the same game, which --save would take):
    the question is asked again."""
    monkeypatch.chdir(tmp_path)
    assert cli(*BOTS, "--save", "other.json").exit_code == 0
    other = (tmp_path / "other.json").read_bytes()
    result = cli(*HUMAN, input="q\nother.json\nnew.json\n")
    assert result.exit_code == 0, result.output
    assert "error: other.json exists already; name a new file" in result.stderr
    assert (tmp_path / "other.json").read_bytes() == other
    assert saved_ok(tmp_path / "new.json", registry).setup.seed == 5


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("nowhere/g.json", "cannot save to nowhere/g.json: the folder nowhere does not exist"),
        ("g\0.json", "cannot save to 'g\\x00.json': a NUL character in its name"),
    ],
)
def test_a_file_that_cannot_be_is_asked_again(
    cli: Invoke,
    tmp_path: Path,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    typed: str,
    why: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli(*HUMAN, input=f"q\n{typed}\ng.json\n")
    assert result.exit_code == 0, result.output
    assert why in result.stderr
    saved_ok(tmp_path / "g.json", registry)


@pytest.mark.parametrize(("answers", "saved"), [("n", False), ("no", False), ("", True)])
def test_leaving_a_game_with_a_file_asks_yes_or_no(
    cli: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: str, saved: bool
) -> None:
    monkeypatch.chdir(tmp_path)
    save = Path("g.json")
    result = cli(*HUMAN, "--save", str(save), input=f"q\nmaybe\n{answers}\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count(f"Save to {save} before leaving? [Y/n]") == 2
    assert "error: answer y (or Enter) to say yes, n to say no" in result.stderr
    assert save.exists() is saved
