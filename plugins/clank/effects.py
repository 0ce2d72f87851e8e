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


Condition = Literal[
    "artifact",  # holds an artifact
    "crown",  # holds a Crown
    "monkey-idol",  # holds a Monkey Idol
    "companion-in-play",  # has another companion in its play area
    "mastery",  # holds a Mastery token
    # Clank! Catacombs. Counts of the turn include what happened before the card was played:
    "made-2-clank",  # added 2+ Clank! this turn
    "gained-3-gold",  # gained 3+ gold this turn
    "skill-6",  # gained 6+ Skill this turn
    "defeated-row-monster",  # defeated a Dungeon Row monster this turn
    "used-portal",  # travelled through a Portal this turn
    # ...where the seat stands (now or after a later action of the turn):
    "in-crystal-cave",
    "in-market",
    "in-wayshrine",
    "on-haunted-tile",
    # ...and what the seat has:
    "freed-3-prisoners",  # holds 3+ Prisoners
    "secret-tome-in-play-or-discard",  # a Secret Tome lies in its play area or discard pile
]
"""What ``If`` (and ``ChooseSome.all_if``) asks of the seat."""


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


# --- Clank! Catacombs (seeds/clank-catacombs/rules.md) --------------------------------------


class TakeLockpicks(Effect, frozen=True, tag="take-lockpicks"):
    """Take ``n`` Lockpicks from the bank (as many as it still holds; rules.md#locks)."""

    n: Count = 1


class PayLockpicks(Effect, frozen=True, tag="pay-lockpicks"):
    """Return ``n`` Lockpicks to the bank; only then does ``then`` happen.

    Optional: offered only to a seat holding ``n`` Lockpicks (Imp Familiar, Grand Theft).
    """

    then: list[AnyEffect]
    n: Count = 1


class FreePrisoners(Effect, frozen=True, tag="free-prisoners"):
    """Take ``n`` random Prisoners from the face-down pile (fewer if fewer are left);
    each one's ``take`` effects happen (rules.md#prison)."""

    n: Count = 1


class TakeSecret(Effect, frozen=True, tag="take-secret"):
    """Take the top ``n`` tokens of the face-down ``kind`` secret pile, as if found in a room."""

    kind: Literal["minor", "major"]
    n: Count = 1


class MayTopDeck(Effect, frozen=True, tag="may-top-deck"):
    """(``acquire`` only) The seat may put the card it just acquired on top of its deck
    instead of into its discard pile."""


class TrashSelf(Effect, frozen=True, tag="trash-self"):
    """This card leaves the game from the play area; then ``then`` happens.

    ``optional`` lets the seat keep the card (and forgo ``then``): Payoff must go,
    Waystone may.
    """

    optional: bool = False
    then: list[AnyEffect] = []


class ChooseSome(Effect, frozen=True, tag="choose-some"):
    """The seat picks ``n`` different ``options``, or gets every option if ``all_if`` holds.

    Black Market: two of three. Empurror: one of three, all three with an artifact
    (``all_if`` is checked when the effect resolves: rules.md#counts-now).
    """

    options: list[list[AnyEffect]]
    n: Count = 1
    all_if: Condition | None = None


PerWhat = Literal["artifact", "clank-made"]


class Per(Effect, frozen=True, tag="per"):
    """``gain`` once per ``per`` the seat has: each artifact it holds (Curator),
    each Clank! it added this turn (Lute). Counted when the effect resolves
    (clank-catacombs rules.md#counts-now)."""

    per: PerWhat
    gain: Gain


TeleportWhere = Literal["wayshrine", "haunted-tile", "depths-seat", "new-tile"]


class TeleportTo(Effect, frozen=True, tag="teleport-to"):
    """Teleport (no boots, no tunnel icons, rules.md#teleport) to a room chosen by the seat:

    ``wayshrine``: another Wayshrine room (the seat must stand in one);
    ``haunted-tile``: a room on a haunted tile other than the seat's own;
    ``depths-seat``: a room in the depths where another seat's pawn stands;
    ``new-tile``: a room of the tile the same card just placed (``PlaceTile``).
    With no such room, nothing happens. ``optional`` lets the seat stay.
    """

    to: TeleportWhere
    optional: bool = False


class MarkWayshrine(Effect, frozen=True, tag="mark-wayshrine"):
    """Mark any unmarked Wayshrine of the dungeon from afar, with the usual gold
    (rules.md#wayshrine)."""


class PlaceTile(Effect, frozen=True, tag="place-tile"):
    """Draw the top tile and place it beside the seat's tile, in an empty space, sharing a
    full edge, in a rotation of the seat's choice; it need not complete a tunnel
    (rules.md#discovery for the tile's arrival: artifact, Ghost)."""


class RotateTiles(Effect, frozen=True, tag="rotate-tiles"):
    """Turn square tiles with pawns on them (rules.md#rotation).

    ``tiles``: ``one-pawn``: each tile where exactly one pawn stands (Sudden Movement);
    ``any-pawn``: each tile with a pawn (Animated Wall). ``turn``: ``any``: to another
    rotation, chosen by the seat whose turn it is; ``half``: half a turn.
    """

    tiles: Literal["one-pawn", "any-pawn"]
    turn: Literal["any", "half"]


class GhostWard(Effect, frozen=True, tag="ghost-ward"):
    """(a card's ``reaction``) When a Ghost cube would damage the seat, it may discard
    this card from its hand to take no damage from that cube, then draw ``draw``
    (rules.md#ghosts)."""

    draw: Count = 1


class MarketOffer(Effect, frozen=True, tag="market-offer"):
    """For the rest of the turn the seat may buy one Market item for ``price`` gold
    (the item's own conditions still apply): in a Market room, or from any room when
    ``anywhere`` (Golden Flute: 5, anywhere; Ogre Merchant: free, in a Market room)."""

    price: Count
    anywhere: bool = False


class FreeRowCard(Effect, frozen=True, tag="free-row-card"):
    """Acquire a Dungeon Row card or use a Row device without paying its Skill (its own
    limits and other costs still apply; rules.md#acquire)."""


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
    | TakeLockpicks
    | PayLockpicks
    | FreePrisoners
    | TakeSecret
    | MayTopDeck
    | TrashSelf
    | ChooseSome
    | Per
    | TeleportTo
    | MarkWayshrine
    | PlaceTile
    | RotateTiles
    | GhostWard
    | MarketOffer
    | FreeRowCard
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

CATACOMBS_EFFECTS: tuple[type[Effect], ...] = (
    *BASE_EFFECTS,
    TakeLockpicks,
    PayLockpicks,
    FreePrisoners,
    TakeSecret,
    MayTopDeck,
    TrashSelf,
    ChooseSome,
    Per,
    TeleportTo,
    MarkWayshrine,
    PlaceTile,
    RotateTiles,
    GhostWard,
    MarketOffer,
    FreeRowCard,
)
"""The effects of Clank! Catacombs: the base game's and its own."""
