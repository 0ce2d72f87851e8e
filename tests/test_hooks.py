"""Guards on the hook reference: every hook is documented, specified and tested.

As in datasette's own guard tests: adding a hookspec without its docs and
its test fails the suite, so the plugin author's reference never falls behind.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pluggy
import pytest

from meeple.core import hookspecs

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "writing-a-plugin.md"


def specs() -> list[str]:
    marker = pluggy.HookspecMarker(hookspecs.NAME)
    name = marker.project_name + "_spec"
    return sorted(n for n, f in vars(hookspecs).items() if callable(f) and hasattr(f, name))


def argnames(hook: str) -> list[str]:
    return list(inspect.signature(getattr(hookspecs, hook)).parameters)


def test_there_are_hookspecs() -> None:
    assert "meeple_games" in specs() and "meeple_after_action" in specs()


@pytest.mark.parametrize("hook", specs())
def test_hookspec_states_its_kind(hook: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, hook)) or ""
    assert re.search(r"^Kind: (collecting|first-result)", doc, re.M), (
        f"{hook}'s docstring must say 'Kind: collecting' or 'Kind: first-result'"
    )


@pytest.mark.parametrize("hook", specs())
def test_hookspec_is_tested(hook: str) -> None:
    pattern = re.compile(rf"^\s*def test_hook_{hook}\b", re.M)
    tests = [p for p in (ROOT / "tests").rglob("test_*.py") if pattern.search(p.read_text())]
    assert tests, f"no test named test_hook_{hook} anywhere in tests/"


@pytest.mark.parametrize("hook", specs())
def test_hookspec_is_documented(hook: str) -> None:
    heading = f"### {hook}({', '.join(argnames(hook))})"
    lines = GUIDE.read_text().splitlines()
    assert heading in lines, f"docs/writing-a-plugin.md needs the heading: {heading}"


def test_guide_documents_no_unknown_hook() -> None:
    documented = re.findall(r"^### (meeple_\w+)\(", GUIDE.read_text(), re.M)
    assert sorted(documented) == specs()
