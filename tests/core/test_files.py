"""The one reader of untrusted files, and the digests that pin a saved game's option files."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import stat
import tracemalloc
from pathlib import Path

import msgspec
import pytest

from meeple.core import FilePath, files
from meeple.core.errors import UnreadableFile
from meeple.core.files import digests, file_options, read_file, unavailable


def test_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(b"{}")
    assert read_file(path, 2) == b"{}"
    assert read_file(str(path), 100) == b"{}"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: p.mkdir(), "is a folder, not a regular file"),
        (lambda p: os.mkfifo(p), "is a named pipe (FIFO), not a regular file"),
        (lambda p: p.symlink_to("/dev/zero"), "is a device, not a regular file"),
        (lambda p: None, "No such file or directory"),
    ],
    ids=["folder", "fifo", "dev-zero", "missing"],
)
def test_refuses_what_is_not_a_regular_file(tmp_path: Path, make, reason: str) -> None:
    """A FIFO with no writer is refused at once: the open does not wait for one."""
    path = tmp_path / "x.json"
    make(path)
    with pytest.raises(UnreadableFile) as err:
        read_file(path, 100)
    assert err.value.path == str(path) and err.value.reason == reason
    assert str(err.value) == f"{path}: {reason}"


def test_a_device_is_never_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a device can act on it (a tape rewinds): the path is looked at first."""
    opened: list[str] = []
    monkeypatch.setattr(os, "open", lambda path, *args: opened.append(path))
    with pytest.raises(UnreadableFile, match="is a device"):
        read_file("/dev/zero", 100)
    assert opened == []


def test_what_was_opened_is_checked_and_a_fifo_never_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path swapped for a FIFO between the look and the open is refused, and at once."""
    path = tmp_path / "swapped.json"
    os.mkfifo(path)
    regular = os.stat_result((stat.S_IFREG | 0o644, *[0] * 9))

    def hung(*_: object) -> None:
        raise TimeoutError("the open waited for a writer")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    try:
        with monkeypatch.context() as m:
            m.setattr(os, "stat", lambda *_: regular)
            with pytest.raises(UnreadableFile, match="is a named pipe"):
                read_file(path, 100)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_refuses_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(UnreadableFile, match="is a socket, not a regular file"):
            read_file(path, 100)


def test_reads_at_most_the_limit_whatever_stat_says(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    with pytest.raises(UnreadableFile, match="is larger than the 100-byte limit"):
        read_file(path, 100)
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("no /proc")
    assert status.stat().st_size == 0  # what /proc says, although it has content
    assert read_file(status, 100_000).startswith(b"Name:")
    with pytest.raises(UnreadableFile, match="larger than the 10-byte limit"):
        read_file(status, 10)


def test_a_small_file_costs_no_buffer_of_the_limit(tmp_path: Path) -> None:
    """``meeple validate`` reads records under a 32 MiB limit: a read of ``limit + 1`` bytes
    allocated all of them for every file, however small."""
    path = tmp_path / "small.json"
    path.write_bytes(b"{}")
    tracemalloc.start()
    try:
        assert read_file(path, 32 * 1024 * 1024) == b"{}"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


class Opts(msgspec.Struct, frozen=True):
    cards: FilePath | None = None
    tiles: FilePath | None = None
    name: str | None = None
    size: int = 0


def test_file_options_are_found_by_their_declared_type() -> None:
    assert file_options(Opts) == ("cards", "tiles")

    class NoFiles(msgspec.Struct):
        name: str = ""

    assert file_options(NoFiles) == ()


def test_digests_of_the_files_options_name(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"cards")
    assert digests(Opts(cards=str(path), name="x")) == {
        "cards": hashlib.sha256(b"cards").hexdigest()
    }
    assert digests(Opts()) == {}
    with pytest.raises(UnreadableFile, match="No such file"):
        digests(Opts(tiles=str(tmp_path / "gone.json")))


def test_a_saved_game_plays_only_with_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"cards")
    options = Opts(cards=str(path))
    stored = digests(options)
    assert unavailable(options, stored) == []
    assert unavailable(Opts(), {}) == []
    message = [
        f"$.setup.options.cards: the file {str(path)!r} is not available as it was when this "
        "game was played; put that same file (byte for byte) at that path"
    ]
    path.write_bytes(b"cards, edited")
    assert unavailable(options, stored) == message
    path.unlink()
    assert unavailable(options, stored) == message  # missing: the same words
    path.mkdir()
    assert unavailable(options, stored) == message  # a folder: the same words
    path.rmdir()
    os.mkfifo(path)
    assert unavailable(options, stored) == message  # a FIFO: the same words, at once
    path.unlink()
    path.write_bytes(b"cards")
    assert unavailable(options, {}) == message  # no digest stored
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 4)
    assert unavailable(options, stored) == message  # too big: the same words
    assert unavailable(Opts(), stored) == [
        "$.setup.files.cards: no file option 'cards' names a file in this setup"
    ]
