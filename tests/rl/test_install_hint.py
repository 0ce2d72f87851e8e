"""Without the rl extra, meeple.core.rl imports and says in one line how to get it."""

from __future__ import annotations

import sys

import pytest

from meeple.core import rl


def test_a_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    with pytest.raises(ImportError, match=r'pip install "meeple\[rl\]"'):
        rl.env("clonk", 2)
