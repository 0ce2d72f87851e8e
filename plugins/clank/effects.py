"""The effect vocabulary of Clank! cards and tokens, as data.

Every card text the games print is a list of these effects in the content
tables (``seeds/clank/cards.json``); the engine interprets them
(``meeple.plugins.clank.rules``), so no card has an if-branch of its own
where this vocabulary can say what it does. Each effect is a msgspec struct
tagged by ``do``; a table that uses an unknown effect or a misspelt field is
rejected when loaded, with the ``$.path`` of the mistake.

The vocabulary is shared by every game on the Clank! engine. A game declares
which effects it supports (``ClankRules.effects``): Clank! Catacombs adds
its own (Lockpicks, Prisoners, tiles) and the base game refuses them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
Signed = Annotated[int, msgspec.Meta(ge=-99, le=99)]


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="do"):
    """Base of every effect."""


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

    options: list[list[AnyEffect]]


Condition = Literal["artifact", "crown", "monkey-idol", "companion-in-play", "mastery"]
"""What ``If`` asks of the seat: holds an artifact / a crown / a Monkey Idol /
has another companion in its play area / holds a Mastery token."""


class If(Effect, frozen=True, tag="if"):
    """``then`` happens once the condition holds this turn, whatever the play order.

    Checked when the card is played and again after every later action of the
    turn, so a Rebel played before the other companion still draws.
    """

    cond: Condition
    then: list[AnyEffect]


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

    then: list[AnyEffect]


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


AnyEffect = (
    Gain
    | OthersClank
    | AllClank
    | Choose
    | If
    | ThisTurn
    | Trash
    | DiscardThen
    | ReplaceRowCard
    | DragonAttack
    | ReturnDragonCubes
    | TakeAdjacentSecret
    | Buy
)
"""Every effect a content table may name (games on the engine add theirs here)."""

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
"""The effects of Clank! (base game)."""
