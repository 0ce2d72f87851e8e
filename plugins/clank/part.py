"""The seams between the parts of the Clank! engine.

A game on the engine is one class assembled from parts: the map
(:class:`~.map.Movement`), the effect interpreter (:class:`~.resolve.Effects`),
the dragon (:class:`~.dragon.Dragon`) and the turn
(:class:`~.rules.ClankEngine`). :class:`Part` is their one base: it holds what
every part reads (the catalog and the options) and declares what each part asks
of another, so every call across parts is typed against the game's own state.

A part, or a game on the engine, registers its rules with the decorators of this
module: :func:`action` (what carries out an action type), :func:`fact` (what an
action notes for the turn), :func:`effect` (the
handler of an effect type), :func:`watch` (what an effect that waits on the turn
does after each step), :func:`frame` (the answers to a pending decision),
:func:`condition` (what an ``if`` asks) and :func:`points` (a card's points
rule). The registrations are collected along the class hierarchy when a class
is created, so a subclass adds its own and replaces a rule by registering another
method for the same key.

The steps a game may change are marked :func:`hook`, as pluggy marks its hook
specifications: a game overrides those and nothing else of the engine (the test
``tests/clank/test_clank_hooks.py`` holds every game on the engine to it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, ClassVar, Literal, TypeVar

from meeple.core.game import Game
from meeple.core.state import Event
from meeple.core.zones import HIDDEN
from meeple.plugins.clank.catalog import Catalog, Graph
from meeple.plugins.clank.state import (
    Acquire,
    Buy,
    DiscardCard,
    EngineOptions,
    EngineState,
    Fight,
    Pending,
    Pick,
    Play,
    Player,
    Replace,
    Status,
    Take,
    TakeToken,
    TrashCard,
    UseDevice,
    UseToken,
)

S = TypeVar("S", bound=EngineState[Any, Any])
"""The state type of a game on the engine."""

C = TypeVar("C", bound=Callable[..., Any])

Kind = Literal["action", "fact", "effect", "watch", "frame", "condition", "points"]
KINDS: tuple[Kind, ...] = ("action", "fact", "effect", "watch", "frame", "condition", "points")


def _register(kind: Kind, keys: tuple[Any, ...]) -> Callable[[C], C]:
    def mark(method: C) -> C:
        vars(method).setdefault("_rules", []).append((kind, keys))
        return method

    return mark


def action(*types: type) -> Callable[[C], C]:
    """Register the method carrying out actions of ``types``: ``(state, action) -> events``."""
    return _register("action", types)


def fact(*types: type) -> Callable[[C], C]:
    """Register what actions of ``types`` note for the turn's conditions, after the action
    and before what waits resolves: ``(state, action, events) -> None``."""
    return _register("fact", types)


def effect(*types: type) -> Callable[[C], C]:
    """Register the handler of effects of ``types``: ``(state, seat, effect, card, events)``."""
    return _register("effect", types)


def watch(*types: type) -> Callable[[C], C]:
    """Register what a waiting effect of ``types`` (``state.pool.waiting``, rules.md#conditions)
    does after every step of the turn: ``(state, seat, item) -> item | None``. It queues what
    it gives now and returns the item as it waits on, or ``None`` once it is over."""
    return _register("watch", types)


def frame(*types: type) -> Callable[[C], C]:
    """Register the legal answers to frames of ``types``: ``(state, frame) -> actions``."""
    return _register("frame", types)


def condition(*names: str) -> Callable[[C], C]:
    """Register what the conditions ``names`` ask: ``(state, seat, cond, card) -> bool``."""
    return _register("condition", names)


def points(*names: str) -> Callable[[C], C]:
    """Register the points rules ``names`` (a ``per`` or a ``cond``):
    ``(player, owned cards, rule) -> how many times it pays``."""
    return _register("points", names)


def hook(method: C) -> C:
    """Mark ``method`` as a hook: a step of the engine a game may override, calling
    ``super()`` to keep the engine's part. The method itself is returned, so a hook costs
    nothing per call; :class:`Part` collects the names of its class's hooks (``hooks``)."""
    vars(method)["_hook"] = True
    return method


A = TypeVar("A")


@lru_cache(maxsize=64)
def shared(kind: Callable[..., A], field: str, keys: tuple[str, ...]) -> dict[str, A]:
    """One action value ``kind(field=key)`` per key, built once per table and shared by
    every game on it: a game per saved record or simulated game then costs nothing here."""
    return {k: kind(**{field: k}) for k in keys}


class Actions:
    """The action values of one catalog that name a card, a token, a market item or an
    option (:func:`actions_of`): a listing hands these out rather than building its own.

    One attribute of the game holds them all: CPython looks up the attributes and methods of
    an object with fewer than 30 attributes faster (its keys are shared by the class)."""

    __slots__ = (
        "acquire",
        "buy",
        "discard",
        "fight",
        "pick",
        "play",
        "replace",
        "take",
        "trash",
        "use",
        "use_token",
    )

    def __init__(self, cat: Catalog) -> None:
        cards, tokens = tuple(cat.card), tuple(cat.token)
        self.play = shared(Play, "card", cards)
        self.acquire = shared(Acquire, "card", cards)
        self.use = shared(UseDevice, "card", cards)
        self.fight = shared(Fight, "card", cards)
        self.trash = shared(TrashCard, "card", cards)
        self.discard = shared(DiscardCard, "card", cards)
        self.replace = shared(Replace, "card", cards)
        blind = dict.fromkeys(HIDDEN + cat.back[t] for t in tokens)  # face-down ones, by back
        self.take = shared(Take, "token", (*tokens, *blind))
        self.use_token = shared(UseToken, "token", tokens)
        self.buy = shared(Buy, "item", tuple(cat.market_items))
        self.pick = [Pick(option=i) for i in range(10)]


@lru_cache(maxsize=16)
def actions_of(cat: Catalog) -> Actions:
    """The action values of ``cat``, built once per catalog and shared by every game on it."""
    return Actions(cat)


class Part(Game[S, Any]):
    """What the parts of the engine share, and what they ask of one another."""

    cat: Catalog
    options: EngineOptions
    acts: Actions
    rules: ClassVar[dict[Kind, dict[Any, str]]] = {}
    """Per kind of rule, the method name registered for each key (collected by class)."""
    hooks: ClassVar[frozenset[str]] = frozenset()
    """The names of the methods marked :func:`hook` along the class hierarchy."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rules: dict[Kind, dict[Any, str]] = {kind: {} for kind in KINDS}
        hooks: set[str] = set()
        for klass in reversed(cls.__mro__):
            for name, member in vars(klass).items():
                for kind, keys in getattr(member, "_rules", ()):
                    rules[kind].update(dict.fromkeys(keys, name))
                if getattr(member, "_hook", False):
                    hooks.add(name)
        cls.rules = rules
        cls.hooks = frozenset(hooks)

    def _bind(self, kind: Kind) -> dict[Any, Callable[..., Any]]:
        """The registered rules of ``kind``, each key to its bound method (built once)."""
        return {key: getattr(self, name) for key, name in self.rules[kind].items()}

    @staticmethod
    def _pending(effects: Iterable[Any], card: str | None) -> list[Pending[Any]]:
        """``effects`` waiting in the turn's queue, with the card they came from."""
        out = []
        for e in effects:
            out.append(Pending(e, card))
        return out

    @hook
    def holds(self, p: Player, kind: str) -> int:
        """How many tokens of ``kind`` (``artifact``, ``idol``...) the seat holds."""
        token = self.cat.token
        n = 0
        for t in p.held.cards:
            if token[t].kind == kind:
                n += 1
        return n

    # -- the turn -----------------------------------------------------------

    def _proceed(self, state: S, events: list[Event]) -> None:
        """After an action: resolve what waits, end the turn if it is over."""
        raise NotImplementedError

    # -- the cards on offer --------------------------------------------------

    def _card_actions(
        self, state: S, p: Player, graph: Graph, skill: int, swords: int, out: list[Any]
    ) -> None:
        """The row's and the Reserve's cards the turn can take, into ``out``."""
        raise NotImplementedError

    def _market_actions(self, state: S, p: Player, out: list[Any]) -> None:
        """The market items the seat can buy, into ``out``."""
        raise NotImplementedError

    # -- the effects ---------------------------------------------------------

    def _settle(self, state: S, events: list[Event]) -> None:
        """Resolve what waits in the turn's queue and conditions."""
        raise NotImplementedError

    def _draw(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """The seat draws ``n`` cards."""
        raise NotImplementedError

    def _frame_actions(self, state: S, frame: Any) -> list[Any]:
        """The answers to a pending decision."""
        raise NotImplementedError

    # -- the map -------------------------------------------------------------

    def graph(self, state: S) -> Graph:
        """The map of ``state``."""
        raise NotImplementedError

    def move_actions(self, state: S, p: Player, graph: Any, out: list[Any]) -> None:
        """Every move open to the seat now, into ``out``."""
        raise NotImplementedError

    def room_actions(self, state: S, seat: int, p: Player, graph: Any, out: list[Any]) -> None:
        """The turn actions the seat's room offers, into ``out``."""
        raise NotImplementedError

    def _adjacent_secrets(self, state: S, room: int) -> dict[int, list[str]]:
        """The secrets in the rooms next to ``room``, by room."""
        raise NotImplementedError

    def token_actions(self, state: S, frame: TakeToken) -> list[Any]:
        """The answers to an offer of tokens."""
        raise NotImplementedError

    # -- the dragon and health -----------------------------------------------

    def _raise_rage(self, state: S, n: int, events: list[Event]) -> None:
        """The rage marker climbs ``n`` spaces."""
        raise NotImplementedError

    def _attack(self, state: S, events: list[Event], extra: int = 0) -> None:
        """A dragon attack, ``extra`` cubes beyond the rage and the danger."""
        raise NotImplementedError

    def return_dragon_cubes(self, state: S, n: int) -> None:
        """Set-aside black cubes back into the bag."""
        raise NotImplementedError

    def _can_bear(self, p: Player, n: int) -> bool:
        """Whether the seat may take ``n`` damage of its own will."""
        raise NotImplementedError

    def _wound(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """Voluntary damage from the seat's supply."""
        raise NotImplementedError

    def heal(self, state: S, seat: int, n: int, events: list[Event]) -> None:
        """Cubes from the seat's meter back to its supply."""
        raise NotImplementedError

    def _knock_out_all(self, state: S, events: list[Event]) -> None:
        """Every seat still in is knocked out."""
        raise NotImplementedError

    def _leave(self, state: S, seat: int, status: Status, events: list[Event]) -> None:
        """The seat goes out of the dungeon."""
        raise NotImplementedError
