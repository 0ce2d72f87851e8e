"""Zones: ordered piles of cards, and who may see which of their cards.

A zone is data in the game state (``Zone``): a kind, an optional owning seat,
card ids from bottom to top, and -- for piles that mix face-up and face-down
cards -- one facing flag per card. Who sees what is declared once per zone
kind by the game (``Game.zones``, a mapping of kind to :class:`Visibility`),
never stored in the state, so a save file cannot grant itself more sight.

:func:`redact` turns a zone into what one seat may know: each card it may not
see becomes ``HIDDEN + back`` (``"?treasure"``), keeping the count and the
card's back, which are public at any real table.

:func:`draw` is the deck-builder's draw: when the deck runs out, the discard
pile is shuffled into a new one.
"""

from __future__ import annotations

import enum
import functools
import operator
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from meeple.core.declared import remembered
from meeple.core.rng import Rng, Seed, shuffle

HIDDEN = "?"
"""Prefix of the placeholder that stands for a card a seat may not see."""

Sight = Literal["all", "top", "faceup", "none"]


class Visibility(msgspec.Struct, frozen=True):
    """Who sees which cards of a zone kind.

    ``others`` is what every seat but the owner sees (for an unowned zone:
    every seat): ``all`` cards, only the ``top`` card, only the cards lying
    ``faceup``, or ``none`` (just the count). ``owner_sees_all`` lets the owner
    look through the whole zone (a hand, one's own mine cart).
    """

    others: Sight
    owner_sees_all: bool = False

    def sight(self, owner_looks: bool) -> Sight:
        """What a seat sees of a zone of this kind: ``all`` when ``owner_looks`` (the zone
        is the seat's own) and the owner sees all, else what every other seat sees."""
        return "all" if owner_looks and self.owner_sees_all else self.others


PUBLIC = Visibility("all", True)
"""Everyone sees every card (a gallery, a discard pile, a market row)."""
PRIVATE = Visibility("none", True)
"""The owner sees the cards, others the count (a hand)."""
SECRET = Visibility("none")
"""Nobody sees the cards, everyone the count (a draw pile)."""
TOP_ONLY = Visibility("top", True)
"""Others see the top card, the owner sees all (a pile one may look through)."""
FACING = Visibility("faceup")
"""Face-up cards are public, face-down cards are seen by nobody."""
FACING_OWNER = Visibility("faceup", True)
"""Face-up cards are public, face-down ones are seen by their owner only."""


class Zone(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """An ordered pile of card ids, bottom first, top last.

    ``up`` holds one facing flag per card for zones whose visibility is
    ``faceup``; it is ``None`` for every other zone.
    """

    kind: str
    owner: Seed | None = None
    cards: list[str] = msgspec.field(default_factory=list)
    up: list[bool] | None = None

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> str | None:
        return self.cards[-1] if self.cards else None

    def add(self, card: str, up: bool = True) -> None:
        """Put a card on top."""
        self.cards.append(card)
        if self.up is not None:
            self.up.append(up)

    def put_under(self, card: str, up: bool = True) -> None:
        """Slide a card under the pile."""
        self.cards.insert(0, card)
        if self.up is not None:
            self.up.insert(0, up)

    def draw(self) -> str:
        """Take the top card (the caller checks that the zone is not empty)."""
        if self.up is not None:
            self.up.pop()
        return self.cards.pop()

    def take(self) -> list[str]:
        """Take every card, bottom first, leaving the zone empty."""
        cards, self.cards = self.cards, []
        if self.up is not None:
            self.up = []
        return cards

    def remove(self, card: str) -> None:
        """Take one named card out of the zone, wherever it lies."""
        i = self.cards.index(card)
        del self.cards[i]
        if self.up is not None:
            del self.up[i]

    def reveal_top(self) -> str | None:
        """Turn the top card face up; returns it if it was face down."""
        if self.up and not self.up[-1]:
            self.up[-1] = True
            return self.cards[-1]
        return None

    def is_up(self, index: int) -> bool:
        return True if self.up is None else self.up[index]

    def shuffle(self, rng: Rng) -> None:
        """Shuffle the pile in place (facing flags, if any, stay where they lie)."""
        shuffle(rng, self.cards)


def draw(deck: Zone, n: int, rng: Rng, reshuffle: Zone | None = None) -> list[str]:
    """Take up to ``n`` cards from the top of ``deck``, top card first.

    When the deck runs out, the cards of ``reshuffle`` (a discard pile) are
    shuffled into a new deck and drawing goes on -- the deck-builder's rule;
    fewer than ``n`` come back only when both are spent.
    """
    cards = deck.cards
    drawn: list[str] = []
    for _ in range(n):
        if not cards:
            if reshuffle is None or not reshuffle.cards:
                break
            cards.extend(reshuffle.take())
            shuffle(rng, cards)
        drawn.append(cards.pop())
    return drawn


def sees(vis: Visibility, zone: Zone, viewer: int | None, index: int) -> bool:
    """Whether ``viewer`` (``None``: an onlooker with no seat) sees card ``index``."""
    sight = vis.sight(viewer is not None and zone.owner == viewer)
    if sight == "all":
        return True
    if sight == "top":
        return index == len(zone.cards) - 1
    if sight == "faceup":
        return zone.is_up(index)
    return False


def redact(zone: Zone, vis: Visibility, viewer: int | None, back: Callable[[str], str]) -> None:
    """Replace, in place, every card ``viewer`` may not see by its placeholder."""
    hide(zone, vis, viewer, lambda card: HIDDEN + back(card))


def hide(
    zone: Zone, vis: Visibility, viewer: int | None, placeholder: Callable[[str], str]
) -> None:
    """:func:`redact` with each card's placeholder given (:class:`Placeholders` remembers them).

    Decided once per zone, not card by card: only a face-up/face-down pile
    looks at each card's facing.
    """
    # Visibility.sight's decision, spelt out: a view hides zone after zone in the bots' hot
    # loop, where a method call per zone costs 4% of the view.
    if vis.owner_sees_all and viewer is not None and zone.owner == viewer:
        return
    others, cards = vis.others, zone.cards
    if others == "none":
        cards[:] = map(placeholder, cards)
    elif others == "top":
        cards[:-1] = map(placeholder, cards[:-1])
    elif others == "faceup" and zone.up is not None:
        for i, up in enumerate(zone.up):
            if not up:
                cards[i] = placeholder(cards[i])


class Placeholders(dict[str, str]):
    """Each card's placeholder, ``HIDDEN + back(card)``, worked out once per card id.

    ``back`` must depend on the card id alone. Bounded: a state naming cards
    no table has (a file's) cannot grow it past :data:`PLACEHOLDERS_KEPT`.
    """

    def __init__(self, back: Callable[[str], str]) -> None:
        super().__init__()
        self.back = back

    def __missing__(self, card: str) -> str:
        if len(self) >= PLACEHOLDERS_KEPT:
            self.clear()
        placeholder = self[card] = HIDDEN + self.back(card)
        return placeholder


PLACEHOLDERS_KEPT = 4096
"""More than the cards of any table."""


def iter_zones(obj: object) -> Iterator[Zone]:
    """Every zone inside a state, in field order (depth first).

    Games keep zones as struct fields, lists, tuples or dicts of them, or
    fields of nested structs (a seat's area); this finds them all, so view,
    determinize and validation work on any game without the game listing its
    zones. A struct's fields are read only where their declared type can hold
    a zone (see :func:`zone_fields`), so numbers, names and queued effects
    cost nothing.
    """
    if isinstance(obj, Zone):
        return iter((obj,))
    found: list[Zone] = []
    _gather(obj, found)
    return iter(found)


def _gather(obj: object, found: list[Zone]) -> None:
    """Append the zones inside ``obj`` (a struct, list, tuple or dict) to ``found``."""
    items: Iterable[object]
    if isinstance(obj, _SEQUENCES):
        items = obj
    elif isinstance(obj, msgspec.Struct):
        read = _READERS.get(type(obj))
        if read is None:
            read = _READERS[type(obj)] = _reader(zone_fields(type(obj)))
        items = read(obj)
    elif isinstance(obj, dict):
        items = obj.values()
    else:
        return
    for item in items:
        if isinstance(item, Zone):
            found.append(item)
        elif isinstance(item, _CONTAINERS):
            _gather(item, found)


def _reader(fields: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """A function reading ``fields`` of a struct at once (``attrgetter`` loops in C)."""
    if len(fields) > 1:
        return operator.attrgetter(*fields)
    if fields:
        get = operator.attrgetter(fields[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


_SEQUENCES = (list, tuple)
_CONTAINERS = (list, tuple, msgspec.Struct, dict)
_ZONE_FIELDS: dict[type, tuple[str, ...]] = {}
_READERS: dict[type, Callable[[object], tuple[object, ...]]] = {}
"""All keyed by types a program declares (never by anything a file holds): bounded."""

_LEAVES = (str, int, float, bool, bytes, bytearray, type(None), enum.Enum)
"""Types that never hold a zone (with ``Literal``, and structs without zone fields)."""


def zone_fields(cls: type[msgspec.Struct]) -> tuple[str, ...]:
    """The fields of ``cls``, in order, whose declared type can hold a zone.

    Worked out once per struct type from its annotations. Whatever the walk
    cannot rule out -- ``Any``, an unbounded type variable, a type it does not
    know, annotations it cannot resolve -- counts as holding one, so a plugin's
    state type of any shape is walked completely.
    """
    fields = _ZONE_FIELDS.get(cls)
    if fields is None:
        try:
            declared = [(f.name, f.type) for f in msgspec.structs.fields(cls)]
        except Exception:  # annotations it cannot resolve: walk every field
            fields = cls.__struct_fields__
        else:
            fields = tuple(name for name, tp in declared if _holds_zone(tp))
        _ZONE_FIELDS[cls] = fields
    return fields


@remembered(provisional=True)  # a recursive type: assume a zone while looking
def _holds_zone(tp: Any) -> bool:
    """Whether a value of declared type ``tp`` can be or contain a zone."""
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return False
    if origin is typing.Annotated:
        return _holds_zone(typing.get_args(tp)[0])
    if isinstance(origin, type) and issubclass(origin, msgspec.Struct):
        try:  # a generic struct with its parameters filled in
            return any(_holds_zone(f.type) for f in msgspec.structs.fields(tp))
        except Exception:  # annotations it cannot resolve: assume a zone
            return True
    if origin is not None:
        args = typing.get_args(tp)
        return not args or any(_holds_zone(a) for a in args if a is not Ellipsis)
    if isinstance(tp, type):
        if issubclass(tp, Zone):
            return True
        if issubclass(tp, msgspec.Struct):
            return bool(zone_fields(tp))
        return not issubclass(tp, _LEAVES)
    if isinstance(tp, typing.TypeVar):
        kinds = tp.__constraints__ or ((tp.__bound__,) if tp.__bound__ is not None else ())
        return not kinds or any(_holds_zone(k) for k in kinds)
    return True


Path = tuple[str | int, ...]
"""Where a value lies in a state: field names and list indices (``("players", 1, "hand")``)."""


class Survey:
    """Every zone of a state and every string outside its zones, each with where it lies.

    One walk serves the state checks: the zones' kinds and owners by place, and the
    strings a view shows every seat (views hide only zones). :func:`iter_zones` keeps
    its own path-free walk: views call it in the bots' hot loop.
    """

    __slots__ = ("names", "zones")

    def __init__(self, state: object) -> None:
        self.zones: list[tuple[Path, Zone]] = []
        self.names: list[tuple[Path, str]] = []
        self._visit(state, ())

    def _visit(self, obj: object, path: Path) -> None:
        if isinstance(obj, Zone):
            self.zones.append((path, obj))
        elif isinstance(obj, str):
            self.names.append((path, obj))
        elif isinstance(obj, msgspec.Struct):
            for name in obj.__struct_fields__:
                value = getattr(obj, name)
                if isinstance(value, _NESTED):
                    self._visit(value, (*path, name))
        elif isinstance(obj, list | tuple):
            for i, item in enumerate(obj):
                if isinstance(item, _NESTED):
                    self._visit(item, (*path, i))
        elif isinstance(obj, dict):
            for key, item in obj.items():
                self._visit(key, path)
                self._visit(item, (*path, key))


_NESTED = (msgspec.Struct, list, tuple, dict, str)
"""What may hold a zone or a string (a walk skips numbers, flags and ``None``)."""


def json_path(path: Path | tuple[str | int | None, ...]) -> str:
    """``("players", 1, "hand")`` -> ``$.players[1].hand`` (a generalized index: ``[*]``)."""
    return "$" + "".join(
        f".{p}" if isinstance(p, str) else f"[{'*' if p is None else p}]" for p in path
    )


PlaceKey = tuple[str | None, ...]
"""A :data:`Path` with its list indices generalized (``("players", None, "hand")``)."""


@functools.lru_cache(maxsize=4096)  # a state has a few dozen places; a file cannot grow this
def place_of(path: Path) -> PlaceKey:
    """The place a path names, whatever its list indices (the zones of a list share it)."""
    return tuple(None if isinstance(p, int) else p for p in path)


_UNOWNED = -1


@dataclass(frozen=True)
class Place:
    """The kind and owner of the zones a game keeps at one place of its state."""

    kind: str | None
    """The kind of every zone here; ``None`` when a set-up puts zones of several kinds here."""
    owner_at: int | None
    """Which list index of the path is the owning seat (``-1``: no seat owns these zones;
    ``None``: no rule, the set-up gave both)."""

    def owner(self, path: Path, found: int | None) -> int | None:
        """The owner a zone at ``path`` must have (``found``, the zone's own, if no rule)."""
        at = self.owner_at
        if at is None:
            return found
        return None if at == _UNOWNED else int(path[at])

    @classmethod
    def of(cls, zones: Iterable[tuple[Path, Zone]]) -> dict[PlaceKey, Place]:
        """The places of the zones of one state, by :func:`place_of` key.

        A zone's owner is read as the list index in its path equal to it (the
        seat's zone of a per-seat list); the same index for every zone of the place.
        """
        kinds: dict[PlaceKey, set[str]] = {}
        owners: dict[PlaceKey, set[int]] = {}
        for path, zone in zones:
            key = place_of(path)
            kinds.setdefault(key, set()).add(zone.kind)
            seat = zone.owner
            at = (
                {_UNOWNED}
                if seat is None
                else {i for i, p in enumerate(path) if type(p) is int and p == seat}
            )
            owners[key] = owners[key] & at if key in owners else at
        return {
            key: cls(
                next(iter(found)) if len(found) == 1 else None,
                min(owners[key]) if owners[key] else None,
            )
            for key, found in kinds.items()
        }
