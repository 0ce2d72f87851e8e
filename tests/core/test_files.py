"""The one reader of untrusted files."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from meeple.core.errors import UnreadableFile
from meeple.core.files import read_file


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
