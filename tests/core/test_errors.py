"""The words of errors that the core shares: install hints."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from meeple.core.errors import install_hint, python


def interpreter(folder: Path) -> Path:
    """An executable named ``python`` in ``folder`` (what a shell finds on its PATH)."""
    folder.mkdir(parents=True)
    exe = folder / "python"
    exe.write_text("")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_an_active_environment_s_python_is_named_as_the_shell_finds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = interpreter(tmp_path / "venv" / "bin")
    monkeypatch.setattr(sys, "executable", str(exe))
    monkeypatch.setenv("PATH", str(exe.parent))
    assert install_hint("web") == 'python -m pip install "meeple[web]"'


def test_another_python_on_the_path_is_not_mistaken_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare ``python`` would be the PATH's, not meeple's: the hint names meeple's by path."""
    exe = interpreter(tmp_path / "my env" / "bin")
    other = interpreter(tmp_path / "usr" / "bin")
    monkeypatch.setattr(sys, "executable", str(exe))
    monkeypatch.setenv("PATH", str(other.parent))
    monkeypatch.chdir(other.parent)
    assert install_hint("rl") == f"'{exe}' -m pip install \"meeple[rl]\""


def test_a_python_under_the_working_folder_is_named_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = interpreter(tmp_path / ".venv" / "bin")
    monkeypatch.setattr(sys, "executable", str(exe))
    monkeypatch.setenv("PATH", os.defpath)
    monkeypatch.chdir(tmp_path)
    assert python() == os.path.join(".venv", "bin", "python")
    monkeypatch.chdir(exe.parent)
    assert python() == os.path.join(".", "python")  # a bare name would be looked up on PATH
