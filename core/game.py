"""The contract between the core and a game plugin.

A game is a subclass of :class:`Game` registered through the
``meeple_games`` hook. It declares what it is (id, title, seat range, option,
state and action types, zone visibility) as class attributes, and implements
the rules in five methods: :meth:`Game.setup`, :meth:`Game.legal_actions`,
:meth:`Game.resolve`, :meth:`Game.scores` and :meth:`Game.cards`. Everything else --
checking that an action is legal, views, determinization, cloning, digests, the generic
state checks, records and validation -- is provided here or by the engine
(:mod:`meeple.core.engine`), so a game re-implements none of it.

What the rules never call lies in optional parts, each an object of its own that the game
names by class: how the game reads to people (``presentation_type``, a
:class:`meeple.core.present.Presentation`) and what a reinforcement-learning environment
derives from it (``encoding_type``, a :class:`meeple.core.rl.Encoding`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import typing
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, dataclass_transform

import msgspec

from meeple.core import copier as _copier
from meeple.core import zones as _zones
from meeple.core.errors import explain
from meeple.core.present import Presentation
from meeple.core.rng import Stream
from meeple.core.scoring import Score
from meeple.core.state import Action, Event, State

if TYPE_CHECKING:
    from meeple.core.rl import Encoding

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)


# Subclasses are frozen too, as those of meeple.core.state.Action (see there).
@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, frozen=True):
    """A game's setup options. Subclass with defaulted fields; docstrings are the help."""


@dataclass(frozen=True)
class Layout:
    """What a fresh set-up of a game tells about every state of it (see :meth:`Game.layout`)."""

    places: dict[_zones.PlaceKey, _zones.Place]
    """The kind and owner of the zones kept at each place (list indices generalized)."""
    keeps_seed: bool
    """Whether the state's random seed is the setup's seed (so a file's two must agree)."""


PLAY_ON_MAX = 2**62
"""The largest round, turn or draw count a state may hold: the range files hold (``SEED_MAX``)
less room for the game to go on counting."""

_LAYOUT_SEED = 1
_LAYOUTS_KEPT = 64
"""Layouts cached (one per game, options and seat count); a file cannot grow the cache."""
_LAYOUTS: dict[tuple[type, bytes, int], Layout] = {}


class Game(Generic[S, A]):
    """Base class of every game plugin.

    Class attributes to declare:

    ``id``
        Short lowercase id used on the command line and in files (``tiny``).
    ``title``, ``version``
        Display name; the rules/content version written into records. Bump
        ``version`` whenever the same actions could give a different game.
    ``min_seats``, ``max_seats``
        The seat range.
    ``options_type``, ``state_type``, ``action_type``, ``event_type``
        The option struct, the state struct, and the tagged unions of the
        game's actions and events (``action_type = Dig | Gift | Stop``).
    ``zones``
        Visibility of each zone kind in the state (see :mod:`meeple.core.zones`).
    ``variants``
        Option sets worth covering: the conformance suite spreads its games
        over them (``({}, {"board": "back"})``); the defaults alone if unset.
    ``passes``
        The action types that pass or end (decline a choice, end a turn):
        the only actions the conformance suite lets change nothing but close
        the decision they answer, since any other that does so is an option
        that offers the player nothing (``(Skip, EndTurn)``).
    ``presentation_type``
        The game's :class:`~meeple.core.present.Presentation`: its phrases and drawings
        (``repr`` by default).
    ``encoding_type``
        The game's :class:`~meeple.core.rl.Encoding`, where it refines what a
        reinforcement-learning environment derives from its types (``None``: the default).
    ``bot_options``
        The options a bot plays this game with where a seat does not give them, by bot
        name, each as a seat would write it (``{"ismcts": {"depth": "8"}}``): the settings
        measured best for the game. A seat's name is written with them
        (``ismcts:depth=8``), so a record says what was played.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str] = "1"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_type: ClassVar[type[Options]] = Options
    state_type: ClassVar[type[State]]
    action_type: ClassVar[Any]
    event_type: ClassVar[Any] = Event
    zones: ClassVar[Mapping[str, _zones.Visibility]] = {}
    variants: ClassVar[Sequence[Mapping[str, Any]]] = ({},)
    passes: ClassVar[tuple[type, ...]] = ()
    presentation_type: ClassVar[type[Presentation[Any, Any]]] = Presentation
    encoding_type: ClassVar[type[Encoding[Any, Any]] | None] = None
    bot_options: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    __test__: ClassVar[bool] = False
    """Not a test class to pytest, even named ``Test...`` and imported into a test module."""

    def __init__(self, options: Options | None = None) -> None:
        self.options = options if options is not None else self.options_type()
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(self.state_type)
        self._json = msgspec.json.Encoder(order="deterministic")
        self._placeholders = _zones.Placeholders(self.back)
        self._presentation: Presentation[S, A] | None = None
        self._encoding: Encoding[S, A] | None = None

    # -- the optional parts: built once per game, on first use ---------------------
    # Kept in attributes set up by __init__, not by functools.cached_property: that writes
    # through the instance's __dict__, and on CPython 3.11 a game whose __dict__ was asked
    # for reads every attribute of its own the slow way ever after (docs/architecture.md).

    @property
    def presentation(self) -> Presentation[S, A]:
        """How this game reads to people (``presentation_type``, given this game)."""
        if self._presentation is None:
            self._presentation = self.presentation_type(self)
        return self._presentation

    @property
    def encoding(self) -> Encoding[S, A]:
        """What a reinforcement-learning environment derives from this game
        (``encoding_type``, given this game)."""
        if self._encoding is None:
            from meeple.core.rl import Encoding  # rl builds on the engine, which builds on this

            self._encoding = (self.encoding_type or Encoding)(self)
        return self._encoding

    # -- the rules: what a plugin implements ---------------------------------

    def setup(self, seats: int, seed: int) -> S:
        """The state before the first decision, for ``seats`` seats."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[A]:
        """Every answer the seat to move may give to the top decision.

        Empty once the game is over. Every sub-choice is its own action, so a
        bot or a human answers everything through this one list.
        """
        raise NotImplementedError

    def resolve(self, state: S, action: A) -> list[Event]:
        """Carry out an action known to be legal, changing ``state`` in place.

        Returns the events it caused. This is the rules' hot path, and it trusts its
        caller: legality is checked once, by the engine (:class:`meeple.core.engine.Match`),
        so a direct call with an action not among :meth:`legal_actions` is undefined.
        """
        raise NotImplementedError

    def scores(self, state: S) -> list[Score]:
        """Each seat's score breakdown and tie-break keys, in seat order."""
        raise NotImplementedError

    def cards(self, state: S) -> Iterable[str]:
        """Every physical card id of this game as set up, once per copy.

        The core checks that each lies in exactly one zone of the state, and
        deals the unseen ones when it determinizes a view.
        """
        raise NotImplementedError

    def evaluate(self, state: S, seat: int) -> float:
        """How well ``seat`` stands in ``state``, from 0 (lost) to 1 (won). Optional.

        A search bot that cuts its rollouts off before the end (``ismcts``'s
        ``depth``) scores them with this; a game without it has its rollouts
        played to the end. It reads the full state it is given: the searcher
        calls it on its own deals, never on the real game.
        """
        raise NotImplementedError

    # -- what the core derives from the rules --------------------------------

    @typing.final
    def is_over(self, state: S) -> bool:
        """Whether the game has ended: when no decision is left on the stack. Final, since the
        engine, views and ``to_move`` all read the stack: a game ends by emptying it."""
        return not state.stack

    def clone(self, state: S) -> S:
        """An independent deep copy (changing it never changes ``state``)."""
        try:
            copied: S = _copier.copy(state)
        except _copier.Uncopyable:  # a value of a type only msgspec knows
            return self._decoder.decode(self._encoder.encode(state))
        return copied

    def digest(self, state: S) -> str:
        """A short fingerprint of the exact state, identical on every machine."""
        return hashlib.sha256(self._json.encode(state)).hexdigest()[:32]

    def back(self, card: str) -> str:
        """The back a card shows when face down (hidden cards keep their back).

        A function of the card id alone: views remember each card's back.
        """
        return ""

    def view(self, state: S, seat: int | None) -> S:
        """What ``seat`` may know of ``state`` (``None``: an onlooker).

        Cards the seat may not see become placeholders and the random seed is
        blanked, so nothing in a view tells a bot what it could not know at a
        real table. A game with hidden facts outside zones extends this.
        """
        view = self.clone(state)
        view.rng.seed = 0
        zones, placeholder = self.zones, self._placeholders.__getitem__
        for zone in _zones.iter_zones(view):
            vis = zones[zone.kind]
            if zone.cards and vis.others != "all":
                _zones.hide(zone, vis, seat, placeholder)
        return view

    def determinize(self, view: S, stream: Stream) -> S:
        """A full state consistent with ``view``: its unseen cards dealt at random.

        Each placeholder gets an unseen card with the same back; the random
        seed is drawn too, so chance after this point is unknown as well.
        """
        return Dealer(self, view)(stream)

    def dealer(self, view: S) -> Callable[[Stream], S]:
        """``dealer(view)(stream)`` is ``determinize(view, stream)``, for many deals of one view.

        A search deals thousands of times from one view: the :class:`Dealer` reads the
        view once. A game that extends :meth:`determinize` has it called for every deal.
        """
        if type(self).determinize is not Game.determinize:
            return functools.partial(self.determinize, view)
        return Dealer(self, view)

    def check_state(self, state: S) -> list[str]:
        """The generic checks of a state, then the game's own (:meth:`validate_state`).

        Every physical card lies in exactly one zone, each zone's kind and
        facing flags agree with the game, the seat to move exists.
        """
        problems: list[str] = []
        n = state.seats
        if not self.min_seats <= n <= self.max_seats:
            problems.append(
                f"$.seats: {n} seats, but {self.title} takes {self.min_seats}-{self.max_seats}"
            )
        expected = Counter(self.cards(state))
        found: list[str] = []
        places = self.layout(n).places if not problems else {}
        seats_seen: dict[_zones.PlaceKey, set[int]] = {}
        survey = _zones.Survey(state)
        for path, zone in survey.zones:
            key = _zones.place_of(path)
            place = places.get(key)
            problems.extend(self._zone_problems(path, zone, place, n))
            if place is not None and place.owner_at is not None and place.owner_at >= 0:
                seats_seen.setdefault(key, set()).add(int(path[place.owner_at]))
            found.extend(zone.cards)
        for key, place in places.items():
            at = place.owner_at
            if at is not None and at >= 0 and seats_seen.get(key, set()) != set(range(n)):
                where = _zones.json_path(key[:at])
                problems.append(f"{where}: must hold one {place.kind!r} zone per seat, in order")
        problems.extend(self._hidden_names(survey, expected))
        counted = Counter(found)
        # As dicts, one C-level comparison: Counter's own == is a Python loop over every card
        # (the same answer here, as neither counts a card zero times).
        if dict.__ne__(counted, expected):
            for card, count in sorted((expected - counted).items()):
                problems.append(
                    f"card {card!r} is missing ({count} of {expected[card]} not in any zone)"
                )
            for card, count in sorted((counted - expected).items()):
                kind = (
                    "appears more than once" if card in expected else "is not a card of this game"
                )
                problems.append(f"card {card!r} {kind} ({count} extra)")
        turns = state.turns
        if sorted(turns.order) != list(range(n)):
            problems.append(f"$.turns.order: must list each of the {n} seats once")
        elif turns.current not in turns.order:
            problems.append(f"$.turns.current: seat {turns.current} does not exist")
        if len(set(turns.left)) != len(turns.left) or not all(0 <= s < n for s in turns.left):
            problems.append(f"$.turns.left: each seat that left, once (seats 0-{n - 1})")
        for where, count in (
            ("$.rng.counter", state.rng.counter),
            ("$.turns.round", turns.round),
            ("$.turns.turn", turns.turn),
        ):
            if count > PLAY_ON_MAX:
                problems.append(
                    f"{where}: {count}; a saved game's counters stay below 2**62, "
                    "leaving room to play on"
                )
        for frame in state.stack:
            if not 0 <= frame.seat < n:
                problems.append(f"$.stack: a decision for seat {frame.seat}, which does not exist")
        if not problems:
            problems.extend(self.validate_state(state))
        return problems

    def _zone_problems(
        self, path: _zones.Path, zone: _zones.Zone, place: _zones.Place | None, seats: int
    ) -> list[str]:
        """The zone's kind, facing flags and owner, as the game and its set-up have them."""
        vis = self.zones.get(zone.kind)
        owner = place.owner(path, zone.owner) if place is not None else zone.owner
        if (
            vis is not None
            and (place is None or place.kind is None or zone.kind == place.kind)
            and (zone.up is not None) == (vis.others == "faceup")
            and (zone.up is None or len(zone.up) == len(zone.cards))
            and zone.owner == owner
            and (owner is None or 0 <= owner < seats)
        ):
            return []  # the common case, without building a message
        where = _zones.json_path(path)
        problems = []
        if vis is None:
            problems.append(f"{where}.kind: {zone.kind!r} is not a zone kind of {self.title}")
        elif place is not None and place.kind is not None and zone.kind != place.kind:
            problems.append(
                f"{where}.kind: {zone.kind!r}, but {self.title} keeps its "
                f"{place.kind!r} zone here; a zone's kind is fixed by where it lies"
            )
        elif (zone.up is not None) != (vis.others == "faceup"):
            problems.append(
                f"{where}.up: facing flags must be given exactly for face-up/face-down piles"
            )
        if zone.up is not None and len(zone.up) != len(zone.cards):
            problems.append(f"{where}: {len(zone.cards)} cards but {len(zone.up)} facing flags")
        if zone.owner != owner:
            whose = "no seat" if owner is None else f"seat {owner}"
            problems.append(f"{where}.owner: {zone.owner}, but {whose} owns the zone kept here")
        elif zone.owner is not None and not 0 <= zone.owner < seats:
            problems.append(f"{where}.owner: seat {zone.owner} does not exist")
        return problems

    def _hidden_names(self, survey: _zones.Survey, cards: Container[str]) -> list[str]:
        """A card named outside the zones (a frame's card) must be one every seat sees,
        since views hide only zones: a file naming a hidden card there would show it."""
        names = [(path, name) for path, name in survey.names if name in cards]
        if not names:
            return []
        named = {name for _, name in names}
        vis = self.zones
        public = {
            card
            for _, zone in survey.zones
            if zone.kind in vis
            for i, card in enumerate(zone.cards)
            if card in named and _zones.sees(vis[zone.kind], zone, None, i)
        }
        return [
            f"{_zones.json_path(path)}: names {name!r}, a card not every seat sees"
            for path, name in names
            if name not in public
        ]

    def layout(self, seats: int) -> Layout:
        """Where this game, with these options and ``seats`` seats, keeps its zones.

        Derived from a fresh :meth:`setup` and cached, so no game lists its
        zones: a state whose zone lies where the set-up keeps another kind (a
        draw pile relabelled as a discard pile, a hand as a public zone) would
        show its cards to the wrong seats.
        """
        key = (type(self), msgspec.json.encode(self.options), seats)
        layout = _LAYOUTS.get(key)
        if layout is None:
            if len(_LAYOUTS) >= _LAYOUTS_KEPT:
                _LAYOUTS.clear()
            fresh = self.setup(seats, _LAYOUT_SEED)
            layout = _LAYOUTS[key] = Layout(
                _zones.Place.of(_zones.Survey(fresh).zones), fresh.rng.seed == _LAYOUT_SEED
            )
        return layout

    def displaced(self, state: S, zone: _zones.Zone, card: str) -> _zones.Zone | None:
        """Where ``card`` goes when a test scenario makes ``zone`` hold only named cards.

        :func:`meeple.core.testing.scenario` slides it under the zone returned: a
        pile where it changes nothing the scenario is about (a deck, a supply).
        ``None``, the default, makes such a scenario an error naming the card.
        """
        return None

    def validate_state(self, state: S) -> list[str]:
        """The game's own semantic checks (counters in range, coherent decisions).

        Called by :meth:`check_state` once the generic checks pass; returns
        one message per problem, each saying where and what.
        """
        return []

    def reveals(self, before: S, after: S, seat: int) -> bool:
        """Whether going from ``before`` to ``after`` showed ``seat`` anything it could not
        know: a random draw was made, or a card hidden from the seat is now in its view or
        named by the legal actions it is offered.

        A person may take back a decision of theirs only while this is false for it and for
        everything since (no card drawn, no die rolled), so an undo never buys a second
        look. Card ids are counted, so copies of a card are told apart by number. A game
        with hidden facts outside zones (see :meth:`view`) extends this.
        """
        if before.rng.counter != after.rng.counter:
            return True
        seen = self._seen(before, seat)
        return any(n > seen[card] for card, n in self._seen(after, seat).items())

    def _seen(self, state: S, seat: int) -> Counter[str]:
        """How many of each card ``seat`` sees in ``state``: face up in its view, or named
        by one of the legal actions it is offered."""
        seen = _visible(self.view(state, seat))
        if state.to_move == seat:
            cards = set(self.cards(state))
            actions = self.legal_actions(state)
            seen |= Counter(
                {name for a in actions for _, name in _zones.Survey(a).names if name in cards}
            )
        return seen


def _visible(view: State) -> Counter[str]:
    """How many of each card a view shows face up."""
    return Counter(
        c for zone in _zones.iter_zones(view) for c in zone.cards if not c.startswith(_zones.HIDDEN)
    )


class Dealer(Generic[S]):
    """The deals of one view (:meth:`Game.determinize`), with all that is the same in every
    deal worked out once: the view encoded, its unseen cards pooled by back, and the runs of
    placeholders each pool fills.

    A deal decodes the view, shuffles a copy of every pool and fills the runs from the pools'
    tops, drawing from the stream exactly as dealing card by card in walk order would.
    """

    __slots__ = ("_blob", "_decode", "_first", "_pools", "_runs")

    def __init__(self, game: Game[S, Any], view: S) -> None:
        self._blob = game._encoder.encode(view)
        self._decode: Callable[[bytes], S] = game._decoder.decode
        first = self._decode(self._blob)
        zones = list(_zones.iter_zones(first))  # as each deal walks its own
        self._first: tuple[S, list[_zones.Zone]] | None = (first, zones)  # the first deal's
        seen = Counter(itertools.chain.from_iterable(zone.cards for zone in zones))
        count, placeholder = seen.get, game._placeholders.__getitem__
        pools: dict[str, list[str]] = {}  # by placeholder, in the order of game.cards()
        for card in game.cards(view):
            n = count(card)
            if n:
                seen[card] = n - 1
            else:
                pools.setdefault(placeholder(card), []).append(card)
        for hidden, n in seen.items():
            if hidden.startswith(_zones.HIDDEN) and n > len(pools.get(hidden, ())):
                have = len(pools.get(hidden, ()))
                raise ValueError(f"{n} placeholders {hidden!r} but {have} unseen cards")
        slot = {hidden: i for i, hidden in enumerate(pools)}
        runs: list[tuple[int, int, int, int]] = []  # (zone, start, end, pool) in walk order
        for z, zone in enumerate(zones):
            if slot.keys().isdisjoint(zone.cards):
                continue
            i = 0
            for card, group in itertools.groupby(zone.cards):
                n = sum(1 for _ in group)
                if card in slot:
                    runs.append((z, i, i + n, slot[card]))
                i += n
        self._pools = list(pools.values())
        self._runs = runs

    def __call__(self, stream: Stream) -> S:
        if self._first is not None:
            (state, zones), self._first = self._first, None
        else:
            state = self._decode(self._blob)
            zones = list(_zones.iter_zones(state)) if self._runs else []
        pools = [pool[:] for pool in self._pools]
        for pool in pools:
            stream.shuffle(pool)
        for z, start, end, p in self._runs:
            pool = pools[p]
            cut = len(pool) - (end - start)
            # each placeholder in turn takes the pool's top card: the run gets them reversed
            zones[z].cards[start:end] = reversed(pool[cut:])
            del pool[cut:]
        state.rng.seed = int(stream.random() * 2**31)
        return state


def action_types(game: type[Game[Any, Any]] | Game[Any, Any]) -> tuple[type[Action], ...]:
    """The types of a game's ``action_type`` union, in declaration order (or the one type)."""
    return typing.get_args(game.action_type) or (game.action_type,)


REQUIRED = ("id", "title", "min_seats", "max_seats", "state_type", "action_type")
"""The class attributes every game declares (the others have defaults)."""

RULES = ("setup", "legal_actions", "resolve", "scores", "cards")
"""The methods every game implements."""

MOVED = {
    **dict.fromkeys(
        (
            "describe_action",
            "describe_event",
            "describe_card",
            "render",
            "render_table",
            "render_private",
            "seat_summary",
            "legend",
        ),
        "presentation_type (a meeple.core.present.Presentation)",
    ),
    **dict.fromkeys(
        (
            "card_kind",
            "action_values",
            "action_key",
            "action_catalogue",
            "observation_encoder",
        ),
        "encoding_type (a meeple.core.rl.Encoding)",
    ),
}
"""Methods a game's optional parts hold, by the class attribute that names the part: a game
class defining one would have it silently unused."""

_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def class_problems(game: type[Game[Any, Any]]) -> list[str]:
    """What a game class lacks or declares inconsistently, one phrase each (``[]``: none).

    Checked once, when the class is registered, so that a mistake is named
    there instead of failing some command later. The zone kinds need a
    state: the class sets up its smallest table, with seed 0 and its default
    options.
    """
    lacks = [name for name in REQUIRED if not hasattr(game, name)]
    lacks += [f"{name}()" for name in RULES if getattr(game, name) is getattr(Game, name)]
    if lacks:
        return [f"lacks {', '.join(lacks)}"]
    problems = [
        f"defines {name}(), which belongs in its {part}: move it there"
        for name, part in MOVED.items()
        if hasattr(game, name)
    ]
    if game.is_over is not Game.is_over:
        problems.append("overrides is_over(), which is final: a game ends by emptying its stack")
    if not (isinstance(game.id, str) and _ID.fullmatch(game.id)):
        problems.append(f"has id {game.id!r}, not lowercase words joined by dashes ('my-game')")
    low, high = game.min_seats, game.max_seats
    if not all(type(n) is int for n in (low, high)) or not 1 <= low <= high:
        problems.append(
            f"takes {low!r}-{high!r} seats: min_seats must be an int from 1 to max_seats"
        )
    if not (isinstance(game.state_type, type) and issubclass(game.state_type, State)):
        problems.append(f"has state_type {game.state_type!r}, not a subclass of meeple.core.State")
    actions = action_types(game)
    if not all(isinstance(a, type) and issubclass(a, Action) for a in actions):
        problems.append(
            f"has action_type {game.action_type!r}, "
            "not a meeple.core.Action subclass or a union of them"
        )
    if problems:
        return problems
    try:
        fresh = game().setup(low, 0)
    except Exception as exc:  # the rules may fail in any way
        return [f"cannot set up {low} seats with seed 0: {explain(exc)}"]
    if not isinstance(fresh, game.state_type):
        return [f"sets up {type(fresh).__name__}, not its state_type {game.state_type.__name__}"]
    undeclared = sorted({zone.kind for _, zone in _zones.Survey(fresh).zones} - set(game.zones))
    if undeclared:
        kinds = ", ".join(map(repr, undeclared))
        problems.append(f"sets up zones of kind {kinds}, which its zones do not declare")
    return problems
