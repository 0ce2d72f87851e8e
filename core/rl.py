"""Reinforcement-learning environments: every installed game as a PettingZoo AEC environment.

``env("tiny", seats=2)`` sets up any game the plugin registry knows. Each seat is an agent
(``seat_0`` .. ``seat_{n-1}``) observing ``{"observation": float32 array, "action_mask": int8
array}``; its actions are indices into a fixed catalogue of the game's actions. Everything is
derived from what the game declares, so a new game gets an environment for free:

- the observation (:class:`Encoder`) holds only what ``game.view(state, seat)`` shows: per
  zone kind, how many cards of each kind lie in the seat's own zones and in everyone else's
  (hidden cards counted by their back), then the view's integer counters, the seat's own
  first. It counts each zone as the view would show it, without building the view;
- the catalogue (:func:`catalogue`) enumerates every value of the fields that tell the
  game's actions apart: card ids, kinds and backs for strings, bounded ints, bools, literals.

A game refines either through its :class:`Encoding` (``Game.encoding_type``): ``card_kind``,
``action_values`` (the values of a field its type does not bound), ``action_key`` (the
fields that tell its actions apart), ``action_catalogue`` and ``observation_encoder`` (see
docs/rl.md).

An environment's ``clone()`` and ``restore()`` take it back to a moment (:class:`Snapshot`),
for a search; a ``reward`` function replaces the rewards of the end. The ``policy`` bot
(:mod:`meeple.core.policy`) reads a decision through the same :class:`Actions` and encoder.

numpy, gymnasium and pettingzoo are the ``rl`` extra, imported when an environment is made.
"""

from __future__ import annotations

import copy
import enum
import io
import itertools
import math
import numbers
import operator
import re
import reprlib
import types
import typing
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec

from meeple.core import zones as _zones
from meeple.core.engine import Hooks, Match
from meeple.core.errors import IllegalAction, MeepleError, install_hint, one_of
from meeple.core.game import Game, action_types
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import SEED_MAX
from meeple.core.scoring import winners
from meeple.core.state import Action, State

if TYPE_CHECKING:
    import numpy as np

INSTALL_HINT = f"meeple.core.rl needs the rl extra: {install_hint('rl')}"

RENDER_MODES = ("ansi",)
"""``render()`` returns the table as text; no other mode is drawn."""

WIDEST_RANGE = 256
"""The most values an int field's declared bounds may span for the catalogue to list them
all; a wider field needs its values from ``Encoding.action_values``."""

OTHER = "?other"
"""The kind of a card outside the encoder's vocabulary."""

_SKIPPED = frozenset({"rng", "stack"})
"""State fields no counter is read from: the blanked seed and the pending decisions."""


S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)

_COPY = re.compile(r"-\d+$")
"""The copy-number suffix :meth:`Encoding.card_kind` cuts off."""


class Encoding(Generic[S, A]):
    """What an environment derives from a game's types, where the game refines it: the
    optional part a game names in ``Game.encoding_type`` (a subclass of this, given the
    game), built once per game as ``game.encoding``. Each method may be overridden; the
    defaults derive everything.
    """

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game

    def card_kind(self, card: str) -> str:
        """The kind of a card: what its copies share (``mercenary-3`` -> ``mercenary``).

        The observations count cards by kind. By default a trailing ``-<number>`` copy
        suffix is cut off; a game naming its copies otherwise overrides this.
        """
        return _COPY.sub("", card)

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[Any]]:
        """The values an action field may take, by field name, where its type does not
        bound them narrowly enough: an int field no ``msgspec.Meta`` bounds to a short range
        (``{"shaft": range(5), "target": range(seats)}``), or a str field that names fewer
        strings than every card id, kind and ``?back`` of the set-up (``{"item": markets}``).
        The values replace those of the field's member types they hold (a ``str | int``
        field declared with ints keeps every string).

        A tuple of names lists the combinations their values may take together, where
        they are fewer than every value of each (``{("x", "y"): cells}``), for each action
        type with all of those fields. :func:`catalogue` enumerates every other field from
        its type.
        """
        return {}

    def action_key(self, seats: int) -> Mapping[type[A], Sequence[str]]:
        """The fields that tell an action type's legal actions apart at any one decision,
        for each type where fewer than all of its fields do (default: none, every field).

        A move whose destination follows from the tunnel taken out of the mover's room is
        told apart by ``{Move: ("tunnel", "swords")}``: :func:`catalogue` then lists one
        entry per tunnel and number of swords instead of one per destination too. Two legal
        actions of one decision with the same values of these fields are an error, which the
        environment raises naming both.
        """
        return {}

    def action_catalogue(self, seats: int) -> Sequence[A] | None:
        """Every action this game may offer at a table of ``seats``, in a fixed order, for a
        game whose actions cannot be enumerated from their types; ``None`` (the default)
        lets :func:`catalogue` derive it.
        """
        return None

    def observation_encoder(self, seats: int) -> Any:
        """A richer observation than :class:`Encoder`'s: an object with a ``size`` and
        ``__call__(view, seat)`` returning a float32 array of that size, read from the
        seat's view only. ``None`` (the default) keeps the generic encoder.
        """
        return None


class WrongType(MeepleError, TypeError):
    """An argument of a type the environment does not take (a float or an array for an
    action, a string for seats): a ``TypeError``, as Python's own."""


class WrongValue(MeepleError, ValueError):
    """An argument the environment cannot use (an agent not at the table, a render mode it
    does not offer, a seed out of range): a ``ValueError``, as Python's own."""


def _integer(value: object) -> int | None:
    """``value`` as an int if it is an integer as gymnasium's ``Discrete`` space takes one: a
    Python or NumPy integer, or a 0-d integer array; else ``None``. A bool is no integer here:
    ``True`` passed for an index or a seed is a mistake, not 1."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):  # int, and NumPy's integers (registered there)
        return int(value)
    dtype = getattr(value, "dtype", None)
    if getattr(value, "shape", None) == () and getattr(dtype, "kind", None) in ("i", "u"):
        return int(typing.cast(Any, value))
    return None


def _shown(value: object) -> str:
    """``value`` as an error message names it: an array by its shape, anything else by a
    short repr (which tells ``'3'`` from ``3`` and ``3.0``)."""
    if getattr(value, "ndim", 0):
        return f"an array of shape {getattr(value, 'shape', '?')}"
    return reprlib.repr(value)


def _import() -> tuple[Any, Any, Any]:
    try:
        import gymnasium
        import numpy
        import pettingzoo
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return numpy, gymnasium, pettingzoo


def _numpy() -> Any:
    """numpy alone: all an observation needs (a policy bot encodes without pettingzoo)."""
    try:
        import numpy
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return numpy


# -- the action catalogue ------------------------------------------------------------------


def catalogue(game: Game[Any, Any], seats: int) -> list[Hashable]:
    """Every action ``game`` may offer at a table of ``seats``, each by its key
    (:func:`action_key`), in a fixed order: those of the game's own ``action_catalogue`` if
    it has one; otherwise each action type of its ``Action`` union, in declaration order,
    with every combination of the values of the fields its key holds.
    """
    declared = game.encoding.action_catalogue(seats)
    if declared is not None:
        return list(dict.fromkeys(map(action_key(game, seats), declared)))
    strings = _strings(game, game.setup(seats, 0))
    values, keys = game.encoding.action_values(seats), _key_fields(game, seats)
    out: list[Hashable] = []
    for cls in action_types(game):
        fields = msgspec.structs.fields(cls)
        if cls in keys:
            by_name = {f.name: f for f in fields}
            fields = tuple(by_name[name] for name in keys[cls])
        combos = _combinations(cls, fields, values, strings)
        if cls in keys:
            out.extend((cls, *combo) for combo in combos)
        else:
            names = [f.name for f in fields]
            out.extend(cls(**dict(zip(names, combo, strict=True))) for combo in combos)
    return list(dict.fromkeys(out))


def _combinations(
    cls: type,
    fields: Sequence[msgspec.structs.FieldInfo],
    values: Mapping[str | tuple[str, ...], Sequence[Any]],
    strings: list[str],
) -> Iterator[tuple[Any, ...]]:
    """Every combination of the values of ``fields`` (of action type ``cls``), in their
    order: those a tuple of their names lists in ``values`` taken together, every other
    field's from its type (:func:`_domain`)."""
    names = [f.name for f in fields]
    groups = [g for g in values if isinstance(g, tuple) and set(g) <= set(names)]
    joint = [name for g in groups for name in g]
    if len(set(joint)) < len(joint):
        raise MeepleError(f"Encoding.action_values lists a field of {cls.__name__} in two tuples")
    alone = [f for f in fields if f.name not in joint]
    domains = [
        [(v,) for v in _domain(f.type, f"{cls.__name__}.{f.name}", values.get(f.name), strings)]
        for f in alone
    ]
    domains += [[tuple(combo) for combo in values[g]] for g in groups]
    order = [*(f.name for f in alone), *joint]
    at = [order.index(name) for name in names]
    for combo in itertools.product(*domains):
        flat = tuple(itertools.chain.from_iterable(combo))
        yield tuple(flat[i] for i in at)


def action_key(game: Game[Any, Any], seats: int) -> Callable[[Action], Hashable]:
    """The function from an action to its catalogue key: the action itself, or the tuple of
    its type and the values of the fields ``Encoding.action_key`` names for its type."""
    getters = {cls: _getter(cls, names) for cls, names in _key_fields(game, seats).items()}
    if not getters:
        return lambda action: action
    get = getters.get
    return lambda action: action if (key := get(type(action))) is None else key(action)


def _getter(cls: type, names: Sequence[str]) -> Callable[[Action], Hashable]:
    """``(cls, *values of names)`` of an action of type ``cls``."""
    if not names:
        return lambda action: (cls,)
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda action: (cls, one(action))
    many = operator.attrgetter(*names)
    return lambda action: (cls, *many(action))


def _key_fields(game: Game[Any, Any], seats: int) -> Mapping[type, Sequence[str]]:
    """``Encoding.action_key``, checked: each type is an action type and each name its field."""
    keys = game.encoding.action_key(seats)
    kinds = action_types(game)
    for cls, names in keys.items():
        if cls not in kinds:
            raise MeepleError(
                f"{game.title}: Encoding.action_key names {cls.__name__}, not one of its actions"
            )
        unknown = sorted(set(names) - {f.name for f in msgspec.structs.fields(cls)})
        if unknown:
            raise MeepleError(
                f"{game.title}: Encoding.action_key names {cls.__name__}.{unknown[0]}, "
                "not a field of it"
            )
    return keys


def _strings(game: Game[Any, Any], state: State) -> list[str]:
    """The strings an action may name: card ids, card kinds, and placeholders of hidden cards."""
    cards = list(game.cards(state))
    kinds = [game.encoding.card_kind(c) for c in cards]
    hidden = [_zones.HIDDEN + game.back(c) for c in cards]
    return list(dict.fromkeys([*cards, *kinds, *hidden]))


def _domain(
    tp: Any, where: str, declared: Sequence[int | str] | None, strings: list[str]
) -> list[Any]:
    """Every value of declared type ``tp`` (those ``declared`` of its member types, where
    there are any); raises naming ``where`` for a type it cannot list."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    meta = None
    if origin is typing.Annotated:
        tp, metas = args[0], args[1:]
        meta = next((m for m in metas if isinstance(m, msgspec.Meta)), None)
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        return list(args)
    if origin in (typing.Union, types.UnionType):
        return [v for a in args for v in _domain(a, where, declared, strings)]
    if tp is type(None) or tp is None:
        return [None]
    if tp is bool:
        return [False, True]
    if tp is str:
        named = [v for v in declared or () if isinstance(v, str)]
        return named or strings
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return list(tp)
    if tp is int:
        ints = [v for v in declared or () if isinstance(v, int)]
        if ints:
            return ints
        low, high = _bounds(meta)
        if low is not None and high is not None and high - low < WIDEST_RANGE:
            return list(range(low, high + 1))
    raise MeepleError(
        f"cannot list the values of {where} ({tp!r}) for the action catalogue: bound it "
        "(msgspec.Meta ge/le), give its ints in Encoding.action_values, "
        "or declare Encoding.action_catalogue"
    )


def _bounds(meta: msgspec.Meta | None) -> tuple[int | None, int | None]:
    """The least and greatest int a field's ``msgspec.Meta`` allows (``None``: unbounded)."""
    if meta is None:
        return None, None
    low = meta.ge if meta.ge is not None else None if meta.gt is None else meta.gt + 1
    high = meta.le if meta.le is not None else None if meta.lt is None else meta.lt - 1
    return (None if low is None else int(low)), (None if high is None else int(high))


class Actions:
    """The action catalogue of ``game`` at a table of ``seats``, and the legal actions of a
    decision by their indices in it: what an environment's action mask marks, and what a
    policy bot (:mod:`meeple.core.policy`) reads a model's scores by."""

    def __init__(self, game: Game[Any, Any], seats: int) -> None:
        self.game = game
        self.catalogue = catalogue(game, seats)
        self.index = {a: i for i, a in enumerate(self.catalogue)}
        self.key = action_key(game, seats)

    def legal(self, state: State, actions: Sequence[Action]) -> dict[int, Action]:
        """The legal ``actions`` of ``state`` (or of a view of it) by catalogue index: one
        pass over them, each through its key. Raises naming a legal action the catalogue
        misses, or two with one key."""
        found = list(map(self.index.get, map(self.key, actions)))  # C loops: per decision
        if None in found:
            action = actions[found.index(None)]
            raise MeepleError(
                f"{self.game.title}: the legal action "
                f"{self.game.presentation.describe_action(state, action)} ({action!r}) is not "
                "in the action catalogue; the game's catalogue misses it"
            )
        legal = dict(zip(typing.cast(list[int], found), actions, strict=True))  # no None
        if len(legal) < len(actions):
            self._clash(state, actions)
        return legal

    def _clash(self, state: State, actions: Sequence[Action]) -> None:
        """Raise naming two different legal actions with one key (a game listing one
        action twice is no clash)."""
        seen: dict[Hashable, Action] = {}
        describe = self.game.presentation.describe_action
        for action in actions:
            other = seen.setdefault(self.key(action), action)
            if other != action:
                raise MeepleError(
                    f"{self.game.title}: the legal actions {describe(state, other)} "
                    f"({other!r}) and {describe(state, action)} ({action!r}) have one "
                    f"catalogue key, {self.key(action)!r}: Encoding.action_key must name "
                    "fields that tell them apart"
                )


# -- the observation -------------------------------------------------------------------------


class Encoder:
    """A seat's observation from its view, in a fixed layout worked out from a fresh set-up.

    Zone counts: for each zone kind the game declares (sorted), the cards of each kind in the
    seat's own zones, then in all other zones; a hidden card counts as its placeholder
    (``?back``), which is a kind of its own; a card the set-up does not list (a tile of
    another set-up) counts as :data:`OTHER`. Counters: every int and bool field of the view
    outside zones, the random state and the decision stack, walked in field order, lists with
    one entry per seat turned so that the observing seat's entry comes first; variable-length
    lists are skipped.

    A game whose view only hides zones' cards (``Game.view`` not overridden) is observed
    without building the view: each zone is counted as the view would show it to the seat,
    each card it may not see by its placeholder. Such a game's encoder is given the full state
    or a view alike (a view's placeholders count as themselves, its other cards are the ones
    the seat sees); a game with a view of its own is encoded from that view.
    """

    def __init__(self, game: Game[Any, Any], seats: int) -> None:
        self.game, self.seats = game, seats
        self._numpy = _numpy()
        fresh = game.setup(seats, 0)
        kinds = list(dict.fromkeys(game.encoding.card_kind(c) for c in game.cards(fresh)))
        kinds += sorted({_zones.HIDDEN + game.back(c) for c in game.cards(fresh)})
        kinds.append(OTHER)
        self.kinds = kinds
        self.zone_kinds = sorted(game.zones)
        width = len(kinds)
        kind = _Vocabulary((k, i) for i, k in enumerate(kinds))
        for card in game.cards(fresh):  # card ids straight to their kind's index
            kind[card] = kind[game.encoding.card_kind(card)]
        self.counts = 2 * width * len(self.zone_kinds)
        self.paths = list(_counter_paths(fresh, seats, ()))
        self.size = self.counts + len(self.paths)
        self._readers = [_reader(self.paths, seat, seats) for seat in range(seats)]
        self._hides_zones_only = type(game).view is Game.view
        self._state_type = type(fresh)
        self._zones_of = _zone_reader(self._state_type)

        def hidden(card: str) -> int:
            return kind[card if card.startswith(_zones.HIDDEN) else _zones.HIDDEN + game.back(card)]

        self._blocks: dict[str, tuple[_Block, _Block]] = {}  # others' zones, then one's own
        for slot, zone_kind in enumerate(self.zone_kinds):
            vis = game.zones[zone_kind] if self._hides_zones_only else _zones.PUBLIC
            own = 2 * width * slot
            other = own + width
            self._blocks[zone_kind] = (
                _Block.of(vis.sight(False), other, kind.__getitem__, hidden),
                _Block.of(vis.sight(True), own, kind.__getitem__, hidden),
            )

    def observe(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s observation of the full ``state``: the encoding of its view."""
        return self(state if self._hides_zones_only else self.game.view(state, seat), seat)

    def __call__(self, view: State, seat: int) -> np.ndarray:
        numpy = self._numpy
        at: list[int] = []  # each card's column, zone after zone
        extend, blocks = at.extend, self._blocks
        zones = self._zones_of if type(view) is self._state_type else _zones.iter_zones
        for zone in zones(view):
            cards = zone.cards
            if not cards:
                continue
            sight, seen, hidden = blocks[zone.kind][zone.owner == seat]
            if sight == "all":
                extend(map(seen, cards))
            elif sight == "none":
                extend(map(hidden, cards))
            elif sight == "top":
                extend(map(hidden, cards[:-1]))
                at.append(seen(cards[-1]))
            elif zone.up is None or all(zone.up):  # no facing flags: all face up
                extend(map(seen, cards))
            else:  # some cards face down
                extend([seen(c) if up else hidden(c) for c, up in zip(cards, zone.up, strict=True)])
        out = numpy.bincount(numpy.fromiter(at, numpy.intp, len(at)), minlength=self.size)
        out = out.astype(numpy.float32)
        try:
            counters = self._readers[seat](view)
        except (AttributeError, TypeError, IndexError):  # a struct the set-up had is None now
            counters = None
        if counters is None or None in counters:
            counters = tuple(_read(view, path, seat, self.seats) for path in self.paths)
        out[self.counts :] = counters
        return out


class _Block(typing.NamedTuple):
    """How a seat counts the zones of one kind, its own or not: what it sees of them, and
    each card's column when seen and when hidden (counted by its placeholder)."""

    sight: _zones.Sight
    seen: Callable[[str], int]
    hidden: Callable[[str], int]

    @classmethod
    def of(
        cls,
        sight: _zones.Sight,
        start: int,
        seen: Callable[[str], int],
        hidden: Callable[[str], int],
    ) -> _Block:
        """The block starting at column ``start``, from a card's kind column seen and hidden."""
        return cls(sight, _Columns(start, seen).__getitem__, _Columns(start, hidden).__getitem__)


class _Columns(dict[str, int]):
    """Each card's column in one block of the observation, worked out once per card id.

    Bounded like :class:`~meeple.core.zones.Placeholders`: a state naming cards no table
    has cannot grow it past :data:`~meeple.core.zones.PLACEHOLDERS_KEPT`.
    """

    def __init__(self, start: int, kind: Callable[[str], int]) -> None:
        super().__init__()
        self.start, self.kind = start, kind

    def __missing__(self, card: str) -> int:
        if len(self) >= _zones.PLACEHOLDERS_KEPT:
            self.clear()
        column = self[card] = self.start + self.kind(card)
        return column


class _Vocabulary(dict[str, int]):
    """Card ids and kinds to their column; any other card to :data:`OTHER`'s, the last."""

    def __missing__(self, card: str) -> int:
        return self[OTHER]


def observer(game: Game[Any, Any], seats: int) -> Any:
    """The encoder of ``game``'s observations at a table of ``seats``: the game's own
    (``Encoding.observation_encoder``) or the generic :class:`Encoder`. Either is called as
    ``encoder(view, seat)`` and has a ``size``."""
    return game.encoding.observation_encoder(seats) or Encoder(game, seats)


def _observation(encoder: Any, game: Game[Any, Any], state: State, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by ``encoder``: the generic :class:`Encoder` reads
    the state itself, a game's own encoder is given the seat's view (its contract)."""
    if isinstance(encoder, Encoder):
        return encoder.observe(state, seat)
    return encoder(game.view(state, seat), seat)


def _zone_reader(cls: type) -> Callable[[Any], tuple[_zones.Zone, ...]]:
    """One function gathering every zone of a state of type ``cls``, as
    :func:`~meeple.core.zones.iter_zones` finds them but without walking: fields declared as
    a zone, a list of zones, or a struct or list of structs holding such fields are read
    straight (attribute lookups and comprehensions compiled from the declared types, which
    hold only field names); any other field that may hold a zone is walked as before."""
    code = f"lambda state: ({''.join(f'{part}, ' for part in _zone_parts(cls, 'state', 0))})"
    reader: Callable[[Any], tuple[_zones.Zone, ...]] = eval(  # only names: see above
        code, {"iter_zones": _zones.iter_zones}
    )
    return reader


def _zone_parts(cls: Any, at: str, depth: int) -> Iterator[str]:
    """The expressions of :func:`_zone_reader` for the zones in struct ``at`` of type ``cls``:
    a zone, or ``*`` and an iterable of zones."""
    try:
        declared = {f.name: f.type for f in msgspec.structs.fields(cls)}
    except Exception:  # annotations it cannot resolve: walk it
        yield f"*iter_zones({at})"
        return
    for name in _zones.zone_fields(typing.get_origin(cls) or cls):  # as the walk reads it
        tp, where = declared[name], f"{at}.{name}"
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        listed = origin is list or (origin is tuple and args[1:] == (...,))
        item = args[0] if listed and args else None  # of list[X] or tuple[X, ...]
        if _is_zone(tp):
            yield where
        elif _is_zone(item):
            yield f"*{where}"
        elif _exact_struct(tp):
            yield from _zone_parts(tp, where, depth)
        elif _exact_struct(item):
            each = f"x{depth}"
            parts = "".join(f"{part}, " for part in _zone_parts(item, each, depth + 1))
            yield f"*[zone for {each} in {where} for zone in ({parts})]"
        else:
            yield f"*iter_zones({where})"


def _is_zone(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, _zones.Zone)


def _exact_struct(tp: Any) -> bool:
    """Whether every value of declared type ``tp`` is a struct of exactly that type (no
    subclass could add fields)."""
    cls = typing.get_origin(tp) or tp  # Pending[Gain | Trash]: a Pending
    return isinstance(cls, type) and issubclass(cls, msgspec.Struct) and not cls.__subclasses__()


def _counter_paths(obj: object, seats: int, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """Where the counters of a fresh set-up lie: field names, and ``(seat offset,)`` steps."""
    if isinstance(obj, bool | int) and not isinstance(obj, enum.Enum):
        yield path
    elif isinstance(obj, msgspec.Struct) and not isinstance(obj, _zones.Zone):
        for name in obj.__struct_fields__:
            if name not in _SKIPPED:
                yield from _counter_paths(getattr(obj, name), seats, (*path, name))
    elif isinstance(obj, list | tuple) and len(obj) == seats:
        for offset, item in enumerate(obj):
            yield from _counter_paths(item, seats, (*path, (offset,)))


def _reader(
    paths: list[tuple[Any, ...]], seat: int, seats: int
) -> Callable[[Any], tuple[Any, ...]]:
    """One function reading every counter of ``paths`` for ``seat`` at once: a tuple of
    attribute and index lookups compiled from the paths (which are field names and seat
    offsets, never text from a file), a few times faster than walking them."""
    reads = []
    for path in paths:
        read = "view"
        for step in path:
            read += f"[{(seat + step[0]) % seats}]" if isinstance(step, tuple) else f".{step}"
        reads.append(read)
    code = f"lambda view: ({''.join(f'{read}, ' for read in reads)})"
    reader: Callable[[Any], tuple[Any, ...]] = eval(code)  # only names and indices: see above
    return reader


def _read(obj: Any, path: tuple[Any, ...], seat: int, seats: int) -> float:
    """The counter at ``path`` for ``seat`` (0 where the view holds none there now)."""
    for step in path:
        obj = obj[(seat + step[0]) % seats] if isinstance(step, tuple) else getattr(obj, step, None)
        if obj is None:
            return 0.0
    return float(obj)


# -- the environment ---------------------------------------------------------------------------


Reward = Callable[[Game[Any, Any], State, int], float]
"""A reward function: ``reward(game, state, seat)`` is what ``seat`` gets for the step that
led to ``state``, called after every step for every seat (see :class:`MeepleEnv`)."""


def env(
    game_id: str,
    seats: int = 4,
    *,
    render_mode: str | None = None,
    reward: Reward | None = None,
    **options: Any,
) -> Any:
    """A PettingZoo AEC environment of installed game ``game_id`` for ``seats`` seats.

    ``options`` are the game's setup options, converted as ``meeple play -o key=value``
    converts them (``env("my-game", seats=2, variant="short")``). ``reward`` replaces the
    rewards of a game's end (see :class:`MeepleEnv`).
    """
    _import()
    registry = Registry(plugin_manager())
    cls = registry.game(game_id)
    names = [f.name for f in msgspec.structs.fields(cls.options_type)]
    for key, value in options.items():  # one at a time first, to name the value's choices
        try:
            msgspec.convert({key: value}, cls.options_type, strict=False)
        except msgspec.ValidationError as exc:
            known = one_of(cls.options_type, key) if key in names else ""
            listed = f"(its options: {', '.join(names) or 'none'})"
            raise MeepleError(f"{cls.title} options: {exc}{known} {listed}") from None
    try:
        chosen = msgspec.convert(options, cls.options_type, strict=False)
    except msgspec.ValidationError as exc:  # options that do not go together
        raise MeepleError(f"{cls.title} options: {exc}") from None
    hooks = Hooks(registry.pm)
    return make(cls(chosen), seats, render_mode=render_mode, hooks=hooks, reward=reward)


def make(
    game: Game[Any, Any],
    seats: int,
    *,
    render_mode: str | None = None,
    hooks: Hooks | None = None,
    reward: Reward | None = None,
) -> Any:
    """The environment of a game object (one no plugin registers, say), with ``hooks``
    around its matches (none by default)."""
    return _env_class()(game, seats, hooks or Hooks(None), render_mode, reward)


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """An environment at one moment (``env.clone()``), which ``env.restore`` sets any
    environment of the same game, options and seats back to, as often as wanted: the
    game's full state (its random state and hidden cards included), its actions so far,
    the agents and their rewards, and the generator that seeds a ``reset()`` without a
    seed. Nothing restored shares anything with it."""

    table: tuple[type[Game[Any, Any]], bytes, int]
    """The game's class, its options (JSON) and the seats: what the snapshot fits."""
    state: State
    seed: int
    actions: tuple[Action, ...]
    legal: Mapping[int, Action]
    agents: tuple[str, ...]
    selection: str
    skipped: str | None
    """PettingZoo's ``_skip_agent_selection``: the agent to move once the ended ones left."""
    rewards: Mapping[str, float]
    cumulative: Mapping[str, float]
    terminations: Mapping[str, bool]
    truncations: Mapping[str, bool]
    infos: Mapping[str, Mapping[str, Any]]
    generator: Any
    """The environment's ``np_random`` (a copy), or ``None`` before its first ``reset()``."""


_ENV: type | None = None


def _env_class() -> type:
    """The environment class, defined once pettingzoo is importable."""
    global _ENV
    if _ENV is None:
        _ENV = _define()
    return _ENV


def _define() -> type:
    numpy, gymnasium, pettingzoo = _import()
    from gymnasium.utils import seeding

    base: Any = pettingzoo.AECEnv  # imported lazily, so mypy cannot see the class

    class MeepleEnv(base):
        """One game of a meeple game; ``reset(seed=n)`` sets up the game with seed ``n``.

        ``step(i)`` plays the legal action whose key is catalogue entry ``i``, which must be
        marked in the mover's ``action_mask`` (anything else raises
        :class:`~meeple.core.errors.IllegalAction`).
        At the end each seat's reward is 1 for a win, ``1/k`` for a win shared by ``k`` seats,
        else 0. A ``reward`` function replaces that: after every step, each seat gets
        ``reward(game, state, seat)`` for it, ``state`` being the game's full state after
        the step (the rewards of PettingZoo's ``last()`` add up what a seat got since it
        last moved).

        ``clone()`` is a :class:`Snapshot` of the environment, ``restore(snapshot)`` sets it
        back: the same observations, masks, rewards and agents, and from there the same
        game for the same actions and seeds.
        """

        metadata = {
            "name": "meeple",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }

        def __init__(
            self,
            game: Game[Any, Any],
            seats: int,
            hooks: Hooks,
            render_mode: str | None,
            reward: Reward | None,
        ) -> None:
            super().__init__()
            count = _integer(seats)
            if count is None:
                raise WrongType(f"seats takes an int, such as seats=2, not {_shown(seats)}")
            seats = count
            if not game.min_seats <= seats <= game.max_seats:
                raise WrongValue(
                    f"{game.title} takes {game.min_seats}-{game.max_seats} seats, not {seats}"
                )
            if render_mode is not None and render_mode not in RENDER_MODES:
                raise WrongValue(
                    f"render_mode takes {' or '.join(map(repr, RENDER_MODES))} (render() returns "
                    f"the table as text) or None, not {_shown(render_mode)}"
                )
            if reward is not None and not callable(reward):
                raise WrongType(
                    "reward takes a function reward(game, state, seat) -> float, or None, "
                    f"not {_shown(reward)}"
                )
            self.game, self.seats, self.hooks, self.render_mode = game, seats, hooks, render_mode
            self.reward = reward
            self._table = (type(game), msgspec.json.encode(game.options), seats)
            self.metadata = {**self.metadata, "name": f"meeple-{game.id}"}
            self._actions = actions = Actions(game, seats)
            self.catalogue, self.index, self.key = actions.catalogue, actions.index, actions.key
            self.encoder = observer(game, seats)
            self.possible_agents = [f"seat_{s}" for s in range(seats)]
            self._seat = {a: s for s, a in enumerate(self.possible_agents)}
            n = len(self.catalogue)
            box = gymnasium.spaces.Box
            space = gymnasium.spaces.Dict(
                {
                    "observation": box(-numpy.inf, numpy.inf, (self.encoder.size,), numpy.float32),
                    "action_mask": box(0, 1, (n,), numpy.int8),
                }
            )
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
            self._np_random: Any = None
            self.match: Match | None = None
            self.agents: list[str] = []

        def observation_space(self, agent: str) -> Any:
            self._seat_of(agent, "observation_space")
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            self._seat_of(agent, "action_space")
            return self.action_spaces[agent]

        def _seat_of(self, agent: str, call: str) -> int:
            """The seat of ``agent``, refused in ``call`` unless it is one of the table's."""
            seat = self._seat.get(agent) if isinstance(agent, str) else None
            if seat is not None:
                return seat
            agents = self.possible_agents
            raise WrongValue(
                f"{call}() takes an agent at this table, {agents[0]} to {agents[-1]}, "
                f"not {_shown(agent)}"
            )

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            if seed is not None:
                given, seed = seed, _integer(seed)
                if seed is None or not 0 <= seed <= SEED_MAX:
                    error = WrongType if seed is None else WrongValue
                    raise error(
                        f"reset(): a seed is an int from 0 to {SEED_MAX}, not {_shown(given)}"
                    )
            if seed is not None or self._np_random is None:
                self._np_random, _ = seeding.np_random(seed)
            setup = seed if seed is not None else int(self._np_random.integers(0, SEED_MAX))
            self.match = Match.new(self.game, self.seats, setup, self.hooks)
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self._legal: dict[int, Action] = {}
            self._select()

        def _select(self) -> None:
            """The agent to move now, and its legal actions by catalogue index."""
            match = self._match
            seat = match.state.to_move
            if seat is None:
                return
            self.agent_selection = self.possible_agents[seat]
            self._legal = self._actions.legal(match.state, match.legal())

        @property
        def _match(self) -> Match:
            if self.match is None:
                raise MeepleError("call reset() before using the environment")
            return self.match

        def observe(self, agent: str) -> dict[str, Any]:
            match, seat = self._match, self._seat_of(agent, "observe")
            mask = numpy.zeros(len(self.catalogue), dtype=numpy.int8)
            if self._legal and match.state.to_move == seat:
                mask[numpy.fromiter(self._legal, numpy.intp, len(self._legal))] = 1
            seen = _observation(self.encoder, match.game, match.state, seat)
            return {"observation": seen, "action_mask": mask}

        def step(self, action: int | None) -> None:
            if not self.agents:  # before reset(), or every agent has stepped out
                raise MeepleError(
                    "call reset() before using the environment"
                    if self.match is None
                    else "the game is over and every agent has left: call reset()"
                )
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            if type(action) is not int and action is not None:  # int: the usual, at once
                index = _integer(action)
                if index is None:
                    raise WrongType(
                        f"{agent}: step() takes an index into env.catalogue, an int or a NumPy "
                        f"integer, not {_shown(action)}"
                    )
                action = index
            chosen = self._legal.get(action) if action is not None else None
            if chosen is None:
                raise IllegalAction(
                    f"{agent}: action {action} is not marked in its action_mask "
                    f"({len(self._legal)} legal of {len(self.catalogue)})"
                )
            match = self._match
            match.apply_legal(chosen)  # from match.legal(): no second check
            over = match.over
            if over:
                for a in self.agents:
                    self.terminations[a] = True
                self._legal = {}
            else:
                self._select()
            if self.reward is not None:
                self._give(agent, self._rewards(match.state))
            elif over:  # every reward is 0 until the end: nothing to accumulate before
                self._give(agent, rewards_of(match.scores(), self.seats))

        def _give(self, mover: str, rewards: Sequence[float] | Mapping[int, float]) -> None:
            """Each agent's reward for the step ``mover`` just played, by seat, added to
            what it got since it last moved (the mover's restarts: it has seen its own)."""
            for a in self.agents:
                self.rewards[a] = rewards[self._seat[a]]
            self._cumulative_rewards[mover] = 0
            self._accumulate_rewards()

        def _rewards(self, state: State) -> list[float]:
            """Each seat's reward from the ``reward`` function, checked to be a number."""
            reward, game, out = typing.cast(Reward, self.reward), self.game, list[float]()
            for seat in range(self.seats):
                value = reward(game, state, seat)
                if not isinstance(value, numbers.Real) or not math.isfinite(value):
                    wrong = WrongValue if isinstance(value, numbers.Real) else WrongType
                    raise wrong(
                        f"the reward function gave {_shown(value)} for seat_{seat} after step "
                        f"{len(self._match.actions)}, not a finite number (the step is played, "
                        "its rewards are not given)"
                    )
                out.append(float(value))
            return out

        def clone(self) -> Snapshot:
            """This environment as it is now, to :meth:`restore` later (see
            :class:`Snapshot`)."""
            match = self._match
            return Snapshot(
                table=self._table,
                state=self.game.clone(match.state),
                seed=match.seed,
                actions=tuple(match.actions),
                legal=dict(self._legal),
                agents=tuple(self.agents),
                selection=self.agent_selection,
                skipped=getattr(self, "_skip_agent_selection", None),
                rewards=dict(self.rewards),
                cumulative=dict(self._cumulative_rewards),
                terminations=dict(self.terminations),
                truncations=dict(self.truncations),
                infos={a: dict(info) for a, info in self.infos.items()},
                generator=copy.deepcopy(self._np_random),
            )

        def restore(self, snapshot: Snapshot) -> None:
            """Set this environment back to ``snapshot``, taken by :meth:`clone` of this
            environment or another of the same game, options and seats."""
            if not isinstance(snapshot, Snapshot):
                raise WrongType(f"restore() takes what clone() gives, not {_shown(snapshot)}")
            if snapshot.table != self._table:
                cls, options, seats = snapshot.table
                raise WrongValue(
                    f"restore(): the snapshot is of {cls.title} at {seats} seats with options "
                    f"{options.decode()}, this environment {self.game.title} at {self.seats} "
                    f"with {self._table[1].decode()}"
                )
            match = Match(self.game, self.game.clone(snapshot.state), self.hooks, snapshot.seed)
            match.actions.extend(snapshot.actions)
            self.match = match
            self._legal = dict(snapshot.legal)
            self.agents = list(snapshot.agents)
            self.agent_selection = snapshot.selection
            self._skip_agent_selection = snapshot.skipped
            self.rewards = dict(snapshot.rewards)
            self._cumulative_rewards = dict(snapshot.cumulative)
            self.terminations = dict(snapshot.terminations)
            self.truncations = dict(snapshot.truncations)
            self.infos = {a: dict(info) for a, info in snapshot.infos.items()}
            self._np_random = copy.deepcopy(snapshot.generator)

        def render(self) -> str | None:
            if self.render_mode != "ansi":
                return None
            match = self._match
            shown = match.game.presentation.render(match.game.view(match.state, None), None)
            if isinstance(shown, str):
                return shown
            from rich.console import Console

            text = io.StringIO()
            Console(width=100, file=text).print(shown)
            return text.getvalue()

        def close(self) -> None:
            pass

    return MeepleEnv


def rewards_of(scores: Sequence[Any], seats: int) -> Mapping[int, float]:
    """Each seat's reward from final scores: 1 for a win, ``1/k`` for a win shared by ``k``."""
    won = winners(scores)
    return {s: (1 / len(won) if s in won else 0.0) for s in range(seats)}
