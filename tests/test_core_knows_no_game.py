"""The core is generic: no module of core/ names a built-in game (its id, title or package)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple import plugins
from meeple.core.plugins import Registry

CORE = Path(__file__).resolve().parent.parent / "core"


def words(registry: Registry) -> set[str]:
    out = set()
    for path in plugins.GAMES:
        out.add(path.rsplit(".", 1)[1])
    for game in registry.games.values():
        if game.__module__.startswith("meeple.plugins."):
            out |= {game.id, game.title, game.__name__}
    return out


@pytest.mark.parametrize("module", sorted(p.name for p in CORE.glob("*.py")))
def test_core_module_names_no_game(registry: Registry, module: str) -> None:
    text = (CORE / module).read_text().lower()
    named = sorted(w for w in words(registry) if w.lower() in text)
    assert not named, f"core/{module} names {named}: game knowledge belongs in plugins/"
