"""The Clonk! card table: counts, balance, user tables and clear errors (rules.md#components)."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from clonk_build import BUILT_IN, clonk, table

from meeple.core.errors import ContentError
from meeple.plugins.clonk import rules as rules_module
from meeple.plugins.clonk.content import load


def test_built_in_counts() -> None:
    """rules.md#components: 108 treasures, 12 tiles, 8 Snore, 9 Kablooey, the Awakening card."""
    c = load()
    assert len(c.treasures) == len(set(c.treasures)) == 108
    assert len(c.colour_tasks) == len(c.type_tasks) == 6
    assert len(c.snores) == 8 and {c.eyes[s] for s in c.snores} == {3}
    assert len(c.kablooeys) == 9 and {c.coins[k] for k in c.kablooeys} == {1}
    assert len(c.all_cards) == 108 + 1 + 12 + 8 + 9
    assert "red-hammer-1" in c.treasures and "task-colour-red" in c.colour_tasks
    assert load() is load()  # loaded once


def test_built_in_is_a_balanced_marked_reconstruction() -> None:
    """rules.md#components: every colour and type carries the same coins and eyes."""
    c = load()
    assert "RECONSTRUCTION" in c.table.note
    for attr in (c.colour, c.type):
        coins, eyes = Counter(), Counter()
        for card in c.treasures:
            coins[attr[card]] += c.coins[card]
            eyes[attr[card]] += c.eyes[card]
        assert len(set(coins.values())) == 1 and len(set(eyes.values())) == 1
    kinds = {(c.coins[x] > 0, c.eyes[x] > 0) for x in c.treasures}
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}
    assert all(0 <= c.coins[x] <= 3 for x in c.treasures)


def test_user_table_is_used(tmp_path) -> None:
    """rules.md#options: the cards option loads a table of the same schema."""
    game = clonk(cards=table(tmp_path / "t.json", {"red-hammer-1": (3, 4)}))
    assert game.content.coins["red-hammer-1"] == 3 and game.content.eyes["red-hammer-1"] == 4
    assert game.content.coins["red-hammer-2"] == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["treasures"].pop(), "$.treasures: 107 cards"),
        (lambda d: d["treasures"][3].update(coins=5), "$.treasures[3].coins"),
        (lambda d: d["treasures"][0].update(colour="purple"), "$.treasures[0].colour"),
        (lambda d: d["treasures"][1].update(copy=1), "appears twice"),
        (lambda d: d.update(colours=d["colours"][:5]), "$.colours"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["snore"].pop("eyes"), "$.snore"),
    ],
)
def test_bad_table_gives_a_clear_error(tmp_path, change, message) -> None:
    """rules.md#components: a malformed table is refused, naming the file and the $.path."""
    data = json.loads(BUILT_IN.read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        load(str(path))
    assert message in str(err.value) and "bad.json" in str(err.value)


def test_an_edited_table_is_read_again(tmp_path) -> None:
    """Tables are cached by content, not by path: a file changed since is seen as it is now."""
    path = table(tmp_path / "t.json", {"red-hammer-1": (1, 0)})
    assert load(path).coins["red-hammer-1"] == 1
    table(tmp_path / "t.json", {"red-hammer-1": (2, 0)})
    assert load(path).coins["red-hammer-1"] == 2
    assert load(path) is load(path)  # the same content is decoded once


def test_unreadable_or_not_json_table(tmp_path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        load(str(tmp_path / "missing.json"))
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(ContentError, match="not valid JSON"):
        load(str(tmp_path / "x.json"))


def test_seed_files_ship_as_package_data() -> None:
    seeds = resources.files("meeple.seeds").joinpath("clonk")
    assert seeds.joinpath("cards.json").is_file() and seeds.joinpath("rules.md").is_file()


def test_rules_digest_has_every_cited_anchor() -> None:
    """The rules.md sections the code and the tests cite all exist, and every section and
    decision of the digest is cited by some code or test."""
    rules = resources.files("meeple.seeds").joinpath("clonk/rules.md").read_text()
    defined = set(re.findall(r"\{#([a-z0-9-]+)\}", rules))
    here = Path(__file__).parent
    files = [*here.glob("*.py"), *Path(rules_module.__file__).parent.glob("*.py")]
    cited: set[str] = set()
    for path in files:
        # "rules.md#chain, #gift and #reveal" cites three sections
        for run in re.findall(r"rules\.md((?:#[a-z0-9-]+(?:,? (?:and )?)?)+)", path.read_text()):
            cited.update(re.findall(r"#([a-z0-9-]+)", run))
    assert cited - defined == set()
    assert {d for d in defined if d.startswith("d-")} <= cited
