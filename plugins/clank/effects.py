"""The effect vocabulary of Clank! cards and tokens, as data.

Every card text the games print is a list of these effects in the content
tables (``seeds/clank/cards.json``); the engine interprets them
(``meeple.plugins.clank.rules``), so no card has an if-branch of its own
where this vocabulary can say what it does. Each effect is a msgspec struct
tagged by ``do``; a table that uses an unknown effect or a misspelt field is
rejected when loaded, with the ``$.path`` of the mistake.

This module holds the engine's effects, which every game on it shares. A game
builds its own vocabulary from them, its packs' and its own
(:func:`vocabulary`): its tables, states and records decode that union, so a
game adds effects without touching the engine and refuses another game's.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union, get_args

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
Signed = Annotated[int, msgspec.Meta(ge=-99, le=99)]


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="do"):
    """Base of every effect.

    A field holding effects is annotated ``Effect`` (``list[Effect]``): :func:`vocabulary`
    narrows it to the game's union.
    """

    asks: ClassVar[tuple[str, ...]] = ()
    """The fields naming a condition, checked against the game's conditions when tables load."""


class Gain(Effect, frozen=True, tag="gain"):
    """Resources and simple gains, all at once.

    ``clank`` may be negative (removes the seat's cubes from the Clank! area,
    the rest banked for the turn); ``draw`` draws from the seat's own deck;
    ``teleport`` is a move to an adjacent room ignoring the tunnel;
    ``rage`` moves the dragon marker up.
    """

    skill: Count = 0
    swords: Count = 0
    boots: Count = 0
    gold: Count = 0
    clank: Signed = 0
    draw: Count = 0
    heal: Count = 0
    teleport: Count = 0
    rage: Count = 0


class OthersClank(Effect, frozen=True, tag="others-clank"):
    """Each other seat still in the dungeon adds ``n`` Clank!."""

    n: Count = 1


class AllClank(Effect, frozen=True, tag="all-clank"):
    """Every seat still in the dungeon adds ``n`` Clank! (arrive effects)."""

    n: Count = 1


class Choose(Effect, frozen=True, tag="choose"):
    """The seat picks one of ``options`` (each a list of effects)."""

    options: list[list[Effect]]


Condition = str
"""What ``If`` asks of the seat: a condition the game registers (:func:`~.part.condition`)."""


class If(Effect, frozen=True, tag="if"):
    """``then`` happens once the condition holds this turn, whatever the play order.

    Checked when the card is played and again after every later action of the
    turn, so a Rebel played before the other companion still draws.
    """

    asks = ("cond",)

    cond: Condition
    then: list[Effect]


Modifier = Literal[
    "gem-discount-2",  # gems cost 2 less Skill this turn
    "gold-bonus-1",  # each gain of gold gives 1 more this turn
    "no-crystal-exhaust",  # crystal caves do not exhaust this turn
    "ignore-tunnel-monsters",  # tunnel monster icons deal no damage this turn
    "skill-per-clank",  # 1 Skill per Clank! added this turn, before or after
]


class ThisTurn(Effect, frozen=True, tag="this-turn"):
    """A modifier for the rest of the turn."""

    mod: Modifier


class Trash(Effect, frozen=True, tag="trash"):
    """Remove one of the seat's cards from the game, from its play area or discard pile.

    ``name`` limits it to cards of that name (Master Burglar: a Burgle);
    ``optional`` lets the seat decline.
    """

    name: str | None = None
    optional: bool = False


class DiscardThen(Effect, frozen=True, tag="discard-then"):
    """Discard a card from hand; only then does ``then`` happen (optional)."""

    then: list[Effect]


class ReplaceRowCard(Effect, frozen=True, tag="replace-row-card"):
    """Put a Dungeon Row card in the dungeon discard and refill its slot at once;
    the new card's dragon symbol does not trigger an attack."""


class DragonAttack(Effect, frozen=True, tag="dragon-attack"):
    """The dragon attacks now."""


class ReturnDragonCubes(Effect, frozen=True, tag="return-dragon-cubes"):
    """Up to ``n`` set-aside dragon cubes go back into the bag."""

    n: Count = 1


class TakeAdjacentSecret(Effect, frozen=True, tag="take-adjacent-secret"):
    """Take a secret from a room adjacent to the seat's, without moving."""


class Buy(Effect, frozen=True, tag="buy"):
    """Pay ``gold`` to gain ``n`` copies of Reserve card ``card`` into the discard pile."""

    gold: Count
    card: str
    n: Count = 1


BASE_EFFECTS: tuple[type[Effect], ...] = (
    Gain,
    OthersClank,
    AllClank,
    Choose,
    If,
    ThisTurn,
    Trash,
    DiscardThen,
    ReplaceRowCard,
    DragonAttack,
    ReturnDragonCubes,
    TakeAdjacentSecret,
    Buy,
)
"""The engine's effects: every game's vocabulary starts with them."""

_EFFECT = re.compile(r"\b(?:fx\.)?Effect\b")


def vocabulary(module: str, name: str, kinds: Iterable[type[Effect]]) -> Any:
    """The union of ``kinds`` that the game module ``module`` decodes, published there as ``name``.

    An effect holding effects (a ``choose``'s options) must decode the game's union, and
    msgspec cannot decode a recursive generic alias; so each kind of another module with
    such fields gets a subclass in ``module``, of the same name, tag and field order, its
    ``Effect`` fields naming ``name`` (resolved when first decoded). Handlers and texts
    registered for the engine's kind serve the subclass (both look along its MRO). Kinds
    defined in ``module`` itself name ``name`` directly.
    """
    members = [k if k.__module__ == module else _narrowed(k, module, name) for k in kinds]
    union: Any = Union[tuple(members)]  # noqa: UP007 -- built at run time from a tuple
    setattr(sys.modules[module], name, union)
    return union


def _narrowed(kind: type[Effect], module: str, name: str) -> type[Effect]:
    """``kind``, its effect fields typed as the union ``name`` of ``module`` (itself if none)."""
    notes = {
        field: _EFFECT.sub(name, note)
        for field, note in vars(kind).get("__annotations__", {}).items()
        if isinstance(note, str) and _EFFECT.search(note) and not note.startswith("ClassVar")
    }
    if not notes:
        return kind
    body: dict[str, Any] = {
        "__module__": module,
        "__qualname__": kind.__qualname__,
        "__doc__": kind.__doc__,
        "__annotations__": notes,
    }
    for info in msgspec.structs.fields(kind):
        if info.name in notes and info.default is not msgspec.NODEFAULT:
            body[info.name] = info.default
        elif info.name in notes and info.default_factory is not msgspec.NODEFAULT:
            body[info.name] = msgspec.field(default_factory=info.default_factory)
    config = kind.__struct_config__
    sub = types.new_class(
        kind.__name__,
        (kind,),
        {"frozen": config.frozen, "tag": config.tag},
        lambda ns: ns.update(body),
    )
    setattr(sys.modules[module], kind.__name__, sub)
    return sub


def kinds(union: Any) -> tuple[type[Effect], ...]:
    """The effect types of a vocabulary (a union, or a single type)."""
    return get_args(union) or (union,)


K = TypeVar("K", bound=Effect)


def kind_of(union: Any, base: type[K]) -> type[K]:
    """The effect type of the vocabulary ``union`` that is ``base`` or narrows it (a game's
    own ``If``), to make an effect the game's state decodes as it was made."""
    return next(k for k in kinds(union) if issubclass(k, base))
