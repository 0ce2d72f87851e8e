"""Without the rl extra, meeple.core.rl imports and says in one line how to get it; so does
the policy bot without the policy extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from meeple.core import policy, rl
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry


def test_a_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    with pytest.raises(ImportError, match=r'pip install "meeple\[rl\]"'):
        rl.env("clonk", 2)


def test_the_policy_bot_without_its_extra_names_it(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The policy bot is listed for every game; seated without onnxruntime, it stops the
    command with one line naming the extra."""
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if not installed
    monkeypatch.setattr(policy, "_MODELS", {})
    model = tmp_path / "m.onnx"
    model.write_bytes(b"a model")
    assert "policy" in registry.bot_names("tiny")
    with pytest.raises(MeepleError, match=r'policy extra: .*pip install "meeple\[policy\]"$'):
        registry.player(f"policy:model={model}", "tiny", pin=True)
