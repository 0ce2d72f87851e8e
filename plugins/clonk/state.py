"""Clonk! data: the state, its pending decisions (frames), actions and events.

Everything here is plain msgspec data holding card ids only; the rules live
in :mod:`meeple.plugins.clonk.rules`. Actions are frozen values; the rules
hand out cached instances (:func:`action`), so listing the legal actions in
the hot loop allocates little.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from meeple.core.files import FilePath
from meeple.core.game import Options
from meeple.core.state import Action, Event, Frame, State
from meeple.core.zones import Zone

GALLERY = 4
"""Spaces in a gallery."""
HAND = 4
"""Treasure cards dealt to each hand at set-up."""


class ClonkOptions(Options, frozen=True):
    """Clonk! setup options; rules.md#decisions explains each reading."""

    cards: FilePath | None = None
    """Path of a JSON card table to use instead of the built-in reconstruction."""
    start_seat: int = 0
    """The start player."""
    eye_tie: Literal["all", "none"] = "all"
    """Seats tied for the most eyes: ``all`` pay the penalty, or ``none`` does."""
    snore_eyes_in_penalty: bool = True
    """Snore eyes count in the penalty itself (they always count for "most eyes")."""
    snore_eyes_in_tiebreak: bool = True
    """Snore eyes count in the "fewer eyes" tie-break (off: Treasure eyes only)."""
    one_kablooey_per_turn: bool = False
    """Allow one Kablooey blast per turn instead of any number."""
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=20)] = 5
    """Most hand cards kept at the end of a turn."""


# -- frames: the pending decision on top of the stack -------------------------


class ChooseTask(Frame, tag="choose-task"):
    """Set-up: pick which of one's two task tiles lies face up."""


class FirstCart(Frame, tag="first-cart"):
    """Phase I of the first round: a hand card into the mine cart."""


class Unearth(Frame, tag="unearth"):
    """Phase II: dig, gift, blast or stop. Remembers this turn's gift and blasts."""

    gifted: bool = False
    blasted: bool = False


class Feed(Frame, tag="feed"):
    """Phase III: a hand card face up onto a shaft."""


class Discard(Frame, tag="discard"):
    """Phase III: discard down to the hand limit, one card per decision."""


ClonkFrame = ChooseTask | FirstCart | Unearth | Feed | Discard


# -- actions ------------------------------------------------------------------


class ShowTask(Action, tag="show-task"):
    """Lay ``task`` face up (the other tile stays face down)."""

    task: str


class Cart(Action, tag="cart"):
    """Put hand card ``card`` into the empty mine cart."""

    card: str


class Dig(Action, tag="dig"):
    """Place a card in one's gallery: a hand card (its id) or a shaft's top (its index)."""

    source: str | int


class Gift(Action, tag="gift"):
    """Place a hand card or a shaft's top in seat ``target``'s gallery."""

    source: str | int
    target: int


class Blast(Action, tag="blast"):
    """Spend a Kablooey card to blast the top of shaft ``shaft`` to the discard pile."""

    shaft: int


class Stop(Action, tag="stop"):
    """End Phase II."""


class FeedShaft(Action, tag="feed"):
    """Lay hand card ``card`` face up on shaft ``shaft``."""

    card: str
    shaft: int


class DiscardCard(Action, tag="discard"):
    """Discard hand card ``card``."""

    card: str


ClonkAction = ShowTask | Cart | Dig | Gift | Blast | Stop | FeedShaft | DiscardCard

STOP = Stop()
"""The one Stop action (actions are values; sharing them saves allocations)."""


# -- events -------------------------------------------------------------------


class TaskShown(Event, tag="task-shown"):
    task: str


class Carted(Event, tag="carted"):
    """Cards went into the mine cart (Phase I); ``card`` is the new top."""

    card: str
    count: int = 1


class Dug(Event, tag="dug"):
    card: str
    shaft: int | None = None


class Gifted(Event, tag="gifted"):
    card: str
    target: int
    shaft: int | None = None


class Blasted(Event, tag="blasted"):
    card: str
    shaft: int


class Revealed(Event, tag="revealed"):
    """A face-down shaft card was exposed and turned face up."""

    card: str
    shaft: int


class Relaid(Event, tag="relaid"):
    """An emptied shaft was laid anew; ``cards`` are its face-up cards."""

    shaft: int
    cards: list[str]


class Stopped(Event, tag="stopped"):
    pass


class Took(Event, tag="took"):
    """A Snore (under the cart) or Kablooey card taken for an empty gallery space."""

    card: str


class Drew(Event, tag="drew"):
    """A draw into a hand: private to the drawing seat."""

    card: str


class Awakened(Event, tag="awakened"):
    """The Awakening card came up: this round is the last."""


class Fed(Event, tag="fed"):
    card: str
    shaft: int


class Discarded(Event, tag="discarded"):
    card: str


ClonkEvent = (
    TaskShown
    | Carted
    | Dug
    | Gifted
    | Blasted
    | Revealed
    | Relaid
    | Stopped
    | Took
    | Drew
    | Awakened
    | Fed
    | Discarded
)


# -- the state ----------------------------------------------------------------


class ClonkState(State, tag="clonk"):
    """A Clonk! table. Per-seat lists are indexed by seat; shafts by shaft number."""

    stack: list[ClonkFrame]
    draw: Zone
    shafts: list[Zone]
    hands: list[Zone]
    galleries: list[Zone]
    carts: list[Zone]
    tasks: list[Zone]
    kablooeys: list[Zone]
    task_piles: list[Zone]
    snore_supply: Zone
    kablooey_supply: Zone
    discard: Zone
    aside: Zone
