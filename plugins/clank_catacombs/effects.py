"""The effects of Clank! Catacombs (seeds/clank-catacombs/rules.md) and its vocabulary.

Catacombs plays the engine's effects and adds its own: Lockpicks, Prisoners, tiles,
Wayshrines and Ghosts. :data:`CatacombsEffect` is the union its tables and states
decode; the texts of its effects and the words of its conditions sit beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import present
from meeple.plugins.clank.effects import Condition, Count, Effect, Gain
from meeple.plugins.clank.present import effect_text, effects_text, plural


class TakeLockpicks(Effect, frozen=True, tag="take-lockpicks"):
    """Take ``n`` Lockpicks from the bank (as many as it still holds; rules.md#locks)."""

    n: Count = 1


class PayLockpicks(Effect, frozen=True, tag="pay-lockpicks"):
    """Return ``n`` Lockpicks to the bank; only then does ``then`` happen.

    Optional: offered only to a seat holding ``n`` Lockpicks (Imp Familiar, Grand Theft).
    """

    then: list[CatacombsEffect]
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
    then: list[CatacombsEffect] = []


class ChooseSome(Effect, frozen=True, tag="choose-some"):
    """The seat picks ``n`` different ``options``, or gets every option if ``all_if`` holds.

    Black Market: two of three. Empurror: one of three, all three with an artifact
    (``all_if`` is checked when the effect resolves: rules.md#counts-now).
    """

    asks = ("all_if",)

    options: list[list[CatacombsEffect]]
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


# The vocabulary of Catacombs. mypy sees the base type; msgspec decodes the union, whose
# engine kinds holding effects are re-typed in this module (``Choose``, ``If``).
if TYPE_CHECKING:
    CatacombsEffect = Effect
else:
    CatacombsEffect = fx.vocabulary(
        __name__,
        "CatacombsEffect",
        (
            *fx.BASE_EFFECTS,
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
        ),
    )


# -- in words ---------------------------------------------------------------------------------

present.CONDITIONS.update(
    {
        "made-2-clank": "if you added 2+ clank this turn",
        "gained-3-gold": "if you gained 3+ gold this turn",
        "skill-6": "if you gained 6+ skill this turn",
        "defeated-row-monster": "if you defeated a row monster this turn",
        "used-portal": "if you used a portal this turn",
        "in-crystal-cave": "in a crystal cave",
        "in-market": "in a market",
        "in-wayshrine": "at a Wayshrine",
        "on-haunted-tile": "on a haunted tile",
        "freed-3-prisoners": "with 3+ Prisoners freed",
        "secret-tome-in-play-or-discard": "with a Secret Tome in play or discard",
    }
)
TELEPORTS = {
    "wayshrine": "another Wayshrine",
    "haunted-tile": "a room on another haunted tile",
    "depths-seat": "a depths room with another pawn",
    "new-tile": "a room of the new tile",
}


@effect_text.register
def _take_lockpicks(e: TakeLockpicks) -> str:
    return "take " + plural(e.n, "Lockpick")


@effect_text.register
def _pay_lockpicks(e: PayLockpicks) -> str:
    return f"pay {plural(e.n, 'Lockpick')}, then {effects_text(e.then)}"


@effect_text.register
def _free_prisoners(e: FreePrisoners) -> str:
    return "free " + plural(e.n, "Prisoner")


@effect_text.register
def _take_secret(e: TakeSecret) -> str:
    return "take " + plural(e.n, f"{e.kind} secret")


@effect_text.register
def _may_top_deck(e: MayTopDeck) -> str:
    return "may go on top of your deck"


@effect_text.register
def _trash_self(e: TrashSelf) -> str:
    said = "may trash this card" if e.optional else "trash this card"
    return f"{said}, then {effects_text(e.then)}" if e.then else said


@effect_text.register
def _choose_some(e: ChooseSome) -> str:
    pick = "choose: " if e.n == 1 else f"choose {e.n}: "
    said = pick + " or ".join(effects_text(o) for o in e.options)
    return f"{said} (all {present.CONDITIONS.get(e.all_if, e.all_if)})" if e.all_if else said


@effect_text.register
def _per(e: Per) -> str:
    return f"{effect_text(e.gain)} per {'artifact held' if e.per == 'artifact' else 'clank added'}"


@effect_text.register
def _teleport_to(e: TeleportTo) -> str:
    return ("may teleport" if e.optional else "teleport") + f" to {TELEPORTS[e.to]}"


@effect_text.register
def _mark_wayshrine(e: MarkWayshrine) -> str:
    return "mark any Wayshrine"


@effect_text.register
def _place_tile(e: PlaceTile) -> str:
    return "place a new tile beside yours"


@effect_text.register
def _rotate_tiles(e: RotateTiles) -> str:
    which = "alone" if e.tiles == "one-pawn" else "any"
    how = "half a turn" if e.turn == "half" else "to a new side"
    return f"turn each tile with {which} pawn {how}"


@effect_text.register
def _ghost_ward(e: GhostWard) -> str:
    return f"reaction: discard to stop a Ghost's damage, draw {e.draw}"


@effect_text.register
def _market_offer(e: MarketOffer) -> str:
    where = " from anywhere" if e.anywhere else " in a market"
    return f"buy a market item for {e.price} gold{where}" if e.price else "a free market item"


@effect_text.register
def _free_row_card(e: FreeRowCard) -> str:
    return "acquire or use a row card for free"
