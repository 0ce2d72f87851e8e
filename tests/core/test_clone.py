"""``Game.clone``: a deep copy by declared types, equal to a msgpack round trip and sharing
nothing that can change, for the states of every installed game."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from meeple.core import copier
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry
from meeple.core.rng import Stream
from meeple.core.zones import Zone


def states(registry: Registry, game_id: str) -> Iterator[tuple[Any, Any]]:
    """The game and its state at every decision of two seeded random games (both table sizes)."""
    game = registry.game(game_id)()
    for seats, seed in ((game.min_seats, 1), (game.max_seats, 2)):
        match = Match.new(game, seats, seed, Hooks(None))
        chooser = Stream(f"clone/{seed}")
        while True:
            yield game, match.state
            if match.over:
                break
            match.step(chooser.choice(match.legal()))


def round_trip(game: Any, state: Any) -> Any:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=game.state_type)


def mutable_parts(value: Any) -> Iterator[Any]:
    """Every list, dict, set and unfrozen struct inside ``value``, deepest first."""
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            yield from mutable_parts(getattr(value, name))
        if not value.__struct_config__.frozen:
            yield value
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from mutable_parts(item)
        if isinstance(value, list | set):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from mutable_parts(item)
        yield value


def test_a_clone_equals_the_round_trip_at_every_decision(registry: Registry, game_id: str) -> None:
    for game, state in states(registry, game_id):
        clone = game.clone(state)
        assert type(clone) is type(state) and clone == state == round_trip(game, state)
        assert game.digest(clone) == game.digest(state)


def change_every_part(value: Any) -> None:
    """Change each zone, list, dict, set and struct inside ``value``, deepest first."""
    for part in mutable_parts(value):
        if isinstance(part, list):
            part.append(part[0] if part else "changed")
        elif isinstance(part, set):
            part.add("changed")
        elif isinstance(part, dict):
            part.clear()
        elif isinstance(part, Zone):
            part.cards.reverse()
            part.kind += "-changed"
        else:
            for name in part.__struct_fields__:
                setattr(part, name, None)


def test_a_clone_shares_nothing_that_can_change(registry: Registry, game_id: str) -> None:
    """No mutable part of a clone is one of the original's; changing every one of them --
    each zone, list, dict and struct, deepest first -- leaves the original as it was."""
    for i, (game, state) in enumerate(states(registry, game_id)):
        if i % 7:
            continue
        before = game.digest(state)
        clone = game.clone(state)
        assert not {id(p) for p in mutable_parts(state)} & {id(p) for p in mutable_parts(clone)}
        change_every_part(clone)
        assert game.digest(state) == before


def test_a_changed_clone_is_mended_to_equal_the_original(registry: Registry, game_id: str) -> None:
    """``copier.restore`` makes a changed clone equal to its original again, whether one
    part changed or every part, and the mended clone still shares nothing that can change."""
    for i, (game, state) in enumerate(states(registry, game_id)):
        if i % 5:
            continue
        before = game.digest(state)
        parts = list(mutable_parts(game.clone(state)))
        for changed in (parts[i % len(parts)], None):
            clone = game.clone(state)
            if changed is None:
                change_every_part(clone)
            else:  # the same part of a fresh clone
                change_every_part(list(mutable_parts(clone))[i % len(parts)])
            mended = copier.restore(clone, state)
            assert mended == state and game.digest(mended) == game.digest(state) == before
            mine = {id(p) for p in mutable_parts(mended)}
            assert not {id(p) for p in mutable_parts(state)} & mine


class Inner(msgspec.Struct):
    names: list[str]


class Frozen(msgspec.Struct, frozen=True):
    inner: Inner
    tags: tuple[str, ...]


class Tree(msgspec.Struct):
    label: str
    children: list[Tree] = []
    frozen: Frozen | None = None
    scores: dict[str, list[int]] = {}


def test_copies_frozen_structs_holding_lists_and_recursive_types() -> None:
    leaf = Tree("leaf", frozen=Frozen(Inner(["a"]), ("t",)))
    tree = Tree("root", [leaf, Tree("other", scores={"x": [1]})])
    copy = copier.copy(tree)
    assert copy == tree
    copy.children[0].frozen.inner.names.append("b")  # type: ignore[union-attr]
    copy.children[1].scores["x"].append(2)
    assert tree == Tree("root", [leaf, Tree("other", scores={"x": [1]})])
    assert leaf.frozen is not None and leaf.frozen.inner.names == ["a"]


class Dated(msgspec.Struct):
    when: datetime.date
    names: list[str]


def test_a_type_it_does_not_know_is_uncopyable() -> None:
    with pytest.raises(copier.Uncopyable, match="cannot copy a date"):
        copier.copy(Dated(datetime.date(2024, 1, 1), ["a"]))


def test_clone_falls_back_on_the_round_trip(tiny: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A state holding a value the copier does not know is cloned through msgpack."""
    state = tiny.setup(2, 1)

    def unknown(value: Any) -> Any:
        raise copier.Uncopyable("cannot copy a date")

    monkeypatch.setattr(copier, "copy", unknown)
    clone = tiny.clone(state)
    assert clone == state and clone.hands[0].cards is not state.hands[0].cards
