"""Zones: pile operations keep facing flags aligned; visibility and redaction."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

import msgspec
import pytest

from meeple.core import zones
from meeple.core.rng import Rng
from meeple.core.zones import (
    FACING,
    FACING_OWNER,
    HIDDEN,
    PRIVATE,
    PUBLIC,
    SECRET,
    TOP_ONLY,
    Placeholders,
    Visibility,
    Zone,
    draw,
    iter_zones,
    redact,
    sees,
    zone_fields,
)


def facing() -> Zone:
    """A face-up/face-down pile of seat 1: a (down), b (up), c (down)."""
    return Zone(kind="shaft", owner=1, cards=["a", "b", "c"], up=[False, True, False])


def test_add_draw_put_under_plain_zone() -> None:
    z = Zone(kind="deck")
    z.add("a")
    z.add("b")
    z.put_under("z")
    assert z.cards == ["z", "a", "b"]
    assert z.up is None
    assert z.top == "b"
    assert len(z) == 3
    assert z.draw() == "b"
    assert z.cards == ["z", "a"]
    assert z.is_up(0)


def test_operations_keep_facing_flags_aligned() -> None:
    z = facing()
    z.add("d", up=True)
    z.put_under("y", up=False)
    assert z.cards == ["y", "a", "b", "c", "d"]
    assert z.up == [False, False, True, False, True]
    assert z.draw() == "d"
    assert z.up == [False, False, True, False]
    z.remove("b")
    assert z.cards == ["y", "a", "c"]
    assert z.up == [False, False, False]
    assert z.take() == ["y", "a", "c"]
    assert z.cards == [] and z.up == []
    assert z.top is None


def test_reveal_top() -> None:
    z = facing()
    assert z.reveal_top() == "c"
    assert z.up == [False, True, True]
    assert z.reveal_top() is None  # already face up
    assert Zone(kind="x", up=[]).reveal_top() is None  # empty
    assert Zone(kind="x", cards=["a"]).reveal_top() is None  # no facing flags


def test_remove_missing_card_raises() -> None:
    with pytest.raises(ValueError):
        Zone(kind="hand", cards=["a"]).remove("b")


# -- sight: each preset, for the owner, another seat and an onlooker (None) ----

OWNER, OTHER, ONLOOKER = 1, 0, None

# (preset, what the owner sees, what another seat sees, what an onlooker sees)
# of the facing() zone a/b/c with flags down/up/down.
CASES = [
    (PUBLIC, "abc", "abc", "abc"),
    (PRIVATE, "abc", "", ""),
    (SECRET, "", "", ""),
    (TOP_ONLY, "abc", "c", "c"),
    (FACING, "b", "b", "b"),
    (FACING_OWNER, "abc", "b", "b"),
]


@pytest.mark.parametrize(("vis", "owner", "other", "onlooker"), CASES)
def test_sees_every_preset(vis: Visibility, owner: str, other: str, onlooker: str) -> None:
    z = facing()
    for viewer, expected in ((OWNER, owner), (OTHER, other), (ONLOOKER, onlooker)):
        seen = "".join(c for i, c in enumerate(z.cards) if sees(vis, z, viewer, i))
        assert seen == expected, (vis, viewer)


@pytest.mark.parametrize(("vis", "owner", "other", "onlooker"), CASES)
def test_redact_every_preset(vis: Visibility, owner: str, other: str, onlooker: str) -> None:
    for viewer, expected in ((OWNER, owner), (OTHER, other), (ONLOOKER, onlooker)):
        z = facing()
        redact(z, vis, viewer, lambda card: "back")
        assert len(z.cards) == 3  # the count is always public
        assert z.up == [False, True, False]
        assert [c for c in z.cards if not c.startswith(HIDDEN)] == list(expected)
        assert all(c == f"{HIDDEN}back" for c in z.cards if c.startswith(HIDDEN))


def test_unowned_zone_owner_sight_applies_to_nobody() -> None:
    z = Zone(kind="deck", cards=["a", "b"])
    for viewer in (0, 1, None):
        assert not sees(PRIVATE, z, viewer, 0)
        assert sees(TOP_ONLY, z, viewer, 1) and not sees(TOP_ONLY, z, viewer, 0)


def test_redact_keeps_each_cards_back() -> None:
    z = Zone(kind="hand", owner=0, cards=["red1", "blue2"])
    redact(z, PRIVATE, 1, lambda card: card[:-1])
    assert z.cards == ["?red", "?blue"]


class Area(msgspec.Struct):
    hand: Zone
    label: str = ""


class Table(msgspec.Struct):
    deck: Zone
    areas: list[Area]
    rows: tuple[Zone, ...]
    counts: list[int]
    loose: Zone | None = None


def test_iter_zones_finds_nested_zones_in_field_order() -> None:
    table = Table(
        deck=Zone(kind="deck"),
        areas=[Area(hand=Zone(kind="hand", owner=s)) for s in range(2)],
        rows=(Zone(kind="row"), Zone(kind="row", owner=1)),
        counts=[1, 2],
        loose=Zone(kind="loose"),
    )
    found = [(z.kind, z.owner) for z in iter_zones(table)]
    assert found == [
        ("deck", None),
        ("hand", 0),
        ("hand", 1),
        ("row", None),
        ("row", 1),
        ("loose", None),
    ]
    # Zones are yielded by reference: redacting through iter_zones changes the table.
    next(iter_zones(table)).add("x")
    assert table.deck.cards == ["x"]


def test_iter_zones_skips_none() -> None:
    table = Table(deck=Zone(kind="deck"), areas=[], rows=(), counts=[])
    assert [z.kind for z in iter_zones(table)] == ["deck"]


def test_placeholders_ask_each_back_once_within_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    placeholders = Placeholders(lambda card: asked.append(card) or card[:-1])
    assert [placeholders[c] for c in ("red1", "red1", "blue2")] == ["?red", "?red", "?blue"]
    assert asked == ["red1", "blue2"]
    monkeypatch.setattr(zones, "PLACEHOLDERS_KEPT", 2)
    assert placeholders["green3"] == "?green" and len(placeholders) == 1  # full: started anew


T = TypeVar("T")


class Effect(msgspec.Struct, tag="effect"):
    amount: int


class Stash(msgspec.Struct, tag="stash"):
    pile: Zone


class Box(msgspec.Struct, Generic[T]):
    item: T
    notes: list[str]


class Node(msgspec.Struct):
    zone: Zone
    children: list[Node]


class Shapes(msgspec.Struct):
    """Every shape a plugin's state may give its zones, and fields that hold none."""

    name: str
    counts: list[int]
    effects: list[Effect]
    by_name: dict[str, Zone]
    nested: list[list[Zone]]
    pair: tuple[Zone, int]
    maybe: Zone | None
    either: Effect | Stash
    boxed: Box[Zone]
    boxed_effect: Box[Effect]
    anything: Any
    tree: Node


def shapes() -> Shapes:
    z = iter(Zone(kind=f"z{i}") for i in range(20))
    return Shapes(
        name="x",
        counts=[1],
        effects=[Effect(amount=1)],
        by_name={"a": next(z), "b": next(z)},
        nested=[[next(z)], [], [next(z), next(z)]],
        pair=(next(z), 3),
        maybe=next(z),
        either=Stash(pile=next(z)),
        boxed=Box(item=next(z), notes=[]),
        boxed_effect=Box(item=Effect(amount=2), notes=["n"]),
        anything={"deep": [Stash(pile=next(z))]},
        tree=Node(zone=next(z), children=[Node(zone=next(z), children=[])]),
    )


def test_iter_zones_finds_zones_in_every_shape_of_state() -> None:
    found = [z.kind for z in iter_zones(shapes())]
    assert found == [f"z{i}" for i in range(12)]


def test_only_fields_whose_type_can_hold_a_zone_are_walked() -> None:
    assert zone_fields(Shapes) == (
        "by_name", "nested", "pair", "maybe", "either", "boxed", "anything", "tree",
    )  # fmt: skip
    assert zone_fields(Effect) == ()
    assert zone_fields(Box) == ("item",)  # an unfilled type parameter may be a zone


class Unhashable:
    """Metadata a plugin may annotate a field with."""

    __hash__ = None


class Noted(msgspec.Struct):
    zones: Annotated[list[Zone], Unhashable()]
    count: Annotated[int, Unhashable()]


def test_annotations_with_unhashable_metadata_are_read() -> None:
    assert zone_fields(Noted) == ("zones",)


def test_iter_zones_walks_every_field_it_cannot_type() -> None:
    unresolved = msgspec.defstruct("Unresolved", [("zone", "NoSuchType")])
    assert zone_fields(unresolved) == ("zone",)
    assert [z.kind for z in iter_zones(unresolved(zone=Zone(kind="k")))] == ["k"]


def test_draw_reshuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    """The deck-builder's draw: top first, then the shuffled discard pile, then nothing."""
    deck = Zone(kind="deck", cards=["a", "b"])
    discard = Zone(kind="discard", cards=["c", "d", "e"])
    rng = Rng(seed=3)
    first = draw(deck, 3, rng, reshuffle=discard)
    assert first[:2] == ["b", "a"] and first[2] in {"c", "d", "e"}
    assert discard.cards == [] and rng.counter == 1
    rest = draw(deck, 5, rng, reshuffle=discard)
    assert sorted(first[2:] + rest) == ["c", "d", "e"] and deck.cards == []
    assert draw(deck, 1, rng) == []


def test_zone_shuffle_is_seeded() -> None:
    one, two = (Zone(kind="deck", cards=list("abcdefgh")) for _ in range(2))
    one.shuffle(Rng(seed=9))
    two.shuffle(Rng(seed=9))
    assert one.cards == two.cards and sorted(one.cards) == list("abcdefgh")
