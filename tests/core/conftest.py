"""Fixtures shared by the core's tests: the tiny third-party game, importable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

THIRDPARTY = Path(__file__).resolve().parents[1] / "thirdparty"


@pytest.fixture
def tiny_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ``meeple_tiny`` package, imported from tests/thirdparty (not installed)."""
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    import meeple_tiny

    return meeple_tiny


@pytest.fixture
def tiny(tiny_module: Any) -> Any:
    """A Tiny game object with default options."""
    return tiny_module.Tiny()
