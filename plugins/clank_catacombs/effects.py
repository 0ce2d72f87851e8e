"""The effects of Clank! Catacombs (seeds/clank-catacombs/rules.md) and its vocabulary.

Catacombs plays the engine's effects and every effect pack
(:mod:`meeple.plugins.clank.packs`), and adds its own: Lockpicks, Prisoners, tiles,
Wayshrines and Ghosts. :data:`CatacombsEffect` is the union its tables and states
decode; the texts of its effects and the words of its conditions sit beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import present
from meeple.plugins.clank.effects import Count, Effect
from meeple.plugins.clank.packs import (
    choose_some,
    free_row_card,
    market_offer,
    may_top_deck,
    per,
    take_secret,
    trash_self,
)
from meeple.plugins.clank.present import effect_text, effects_text, plural


class TakeLockpicks(Effect, frozen=True, tag="take-lockpicks"):
    """Take ``n`` Lockpicks from the bank, which never runs out (rules.md#lockpick-supply)."""

    n: Count = 1


class PayLockpicks(Effect, frozen=True, tag="pay-lockpicks"):
    """Spend ``n`` Lockpicks; only then does ``then`` happen.

    Optional: offered only to a seat holding ``n`` Lockpicks (Imp Familiar, Grand Theft).
    """

    then: list[CatacombsEffect]
    n: Count = 1


class FreePrisoners(Effect, frozen=True, tag="free-prisoners"):
    """Take ``n`` random Prisoners from the face-down pile (fewer if fewer are left);
    each one's ``take`` effects happen (rules.md#prison)."""

    n: Count = 1


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


class AddGhost(Effect, frozen=True, tag="add-ghost"):
    """A Ghost cube from beside the Clank! area into it, while any is left (the Haunted
    Prisoner; rules.md#ghost-supply)."""


class MarketOfferHere(Effect, frozen=True, tag="market-offer-here"):
    """``market-offer`` at ``price``, made only if the seat stands in a Market room as this
    resolves (Ogre Merchant: a free item if defeated there; rules.md#offers)."""

    price: Count = 0


class GhostWard(Effect, frozen=True, tag="ghost-ward"):
    """(a card's ``reaction``) When a Ghost cube would damage the seat, it may discard
    this card from its hand to take no damage from that cube, then draw ``draw``
    (rules.md#ghosts)."""

    draw: Count = 1


# The vocabulary of Catacombs. mypy sees the base type; msgspec decodes the union, whose
# engine and pack kinds holding effects are re-typed in this module (``Choose``, ``TrashSelf``).
if TYPE_CHECKING:
    CatacombsEffect = Effect
else:
    CatacombsEffect = fx.vocabulary(
        __name__,
        "CatacombsEffect",
        (
            *fx.BASE_EFFECTS,
            choose_some.ChooseSome,
            per.Per,
            trash_self.TrashSelf,
            may_top_deck.MayTopDeck,
            take_secret.TakeSecret,
            market_offer.MarketOffer,
            free_row_card.FreeRowCard,
            TakeLockpicks,
            PayLockpicks,
            FreePrisoners,
            TeleportTo,
            MarkWayshrine,
            PlaceTile,
            RotateTiles,
            AddGhost,
            MarketOfferHere,
            GhostWard,
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
def _add_ghost(e: AddGhost) -> str:
    return "a Ghost into the Clank! area"


@effect_text.register
def _market_offer_here(e: MarketOfferHere) -> str:
    item = f"a market item for {e.price} gold" if e.price else "a free market item"
    return f"{item}, if in a market now"


@effect_text.register
def _ghost_ward(e: GhostWard) -> str:
    return f"reaction: discard to stop a Ghost's damage, draw {e.draw}"
