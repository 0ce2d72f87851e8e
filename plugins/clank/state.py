"""Clank! data: the state, its pending decisions (frames), actions and events.

Plain msgspec data holding ids and counters; the rules live in
:mod:`meeple.plugins.clank.rules`. Cards and tokens are physical pieces kept
in zones, so the core's "every piece exactly once", views and leak test
cover them. Cubes are counters: a seat's 30 lie in its supply, the Clank!
area, the dragon bag, its health meter or set aside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Generic, Literal, TypeVar

import msgspec

from meeple.core.bag import Bag
from meeple.core.files import FilePath
from meeple.core.game import Options
from meeple.core.state import Action, Count, Event, Frame, State
from meeple.core.zones import Zone
from meeple.plugins.clank import effects as fx

E = TypeVar("E")
"""A game's union of effects, its vocabulary (:func:`~.effects.vocabulary`)."""

AMOUNT_MAX = 10**9
"""Far above any count at a real table, and far enough below a file's range (2**63) that the
rules can go on adding to it."""

Amount = Annotated[int, msgspec.Meta(ge=0, le=AMOUNT_MAX)]
"""Cubes, gold, skill and the like: never negative, never beyond :data:`AMOUNT_MAX`."""

Status = Literal["in", "escaped", "rescued", "eliminated"]
"""In the dungeon; escaped with an artifact; knocked out but scoring; knocked out for nothing."""


class EngineOptions(Options, frozen=True):
    """The options every game on the Clank! engine shares (its rules digest explains each)."""

    variant: Literal["majority", "klank", "eseidel"] = "majority"
    """Whose reading of the disputed card flags (rules.md#variant)."""
    empty_dungeon: Literal["reshuffle", "end"] = "reshuffle"
    """An empty Dungeon Deck at refill (rules.md#empty-dungeon)."""
    empty_bag: Literal["continue", "end"] = "continue"
    """An empty dragon bag after an attack (rules.md#empty-bag)."""
    teleport_locks: Literal["ignore", "key"] = "ignore"
    """Whether a teleport along a locked tunnel needs a Master Key (rules.md#teleport-locks)."""
    gold_bonus: Literal["turn", "later"] = "turn"
    """Whether Search's bonus pays for every gain of gold of the turn or only for those after
    it (rules.md#search)."""
    gem_discount: Literal["later", "turn"] = "later"
    """Whether Gem Collector's discount lowers only the gems acquired after it was played, or
    also pays back for those acquired before (rules.md#gem-discount)."""
    cards: FilePath | None = None
    """Path of a JSON card table to use instead of the built-in one."""
    tokens: FilePath | None = None
    """Path of a JSON token table to use instead of the built-in one."""


class ClankOptions(EngineOptions, frozen=True):
    """Clank! setup options; seeds/clank/rules.md#decisions explains each reading."""

    board: Literal["front", "back"] = "front"
    """Which side of the board."""
    board_file: FilePath | None = None
    """Path of a JSON board to use instead of the built-in side ``board``."""
    artifact_take: Literal["action", "entry"] = "action"
    """When an artifact is taken: as an action in its room on any turn, or on entry only
    (rules.md#take-artifact)."""


class Player(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One seat's pawn, cards, tokens, cubes and gold."""

    room: Count
    deck: Zone
    hand: Zone
    play: Zone
    discard: Zone
    held: Zone
    """Tokens in front of the seat (kept secrets, potions, artifacts, market items)."""
    supply: Amount
    clank: Amount = 0
    """Cubes in the Clank! area."""
    damage: Amount = 0
    """Cubes on the health meter."""
    aside: Amount = 0
    """Cubes drawn from the bag after the seat left (set aside like black ones)."""
    gold: Amount = 0
    status: Status = "in"


class Pending(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True):
    """An effect waiting to happen this turn, with the card it came from."""

    effect: E
    card: str | None = None


class Waiting(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True):
    """An effect waiting on the turn (rules.md#conditions), with the card it came from: an
    ``if`` until its condition holds, a count until the turn ends, ``given`` the times it has
    given so far."""

    effect: E
    card: str | None = None
    given: Amount = 0


class Pool(msgspec.Struct, Generic[E], kw_only=True, forbid_unknown_fields=True):
    """The current turn's resources and lasting effects (rules.md#turn).

    Every field lasts one turn: the engine replaces the pool with a fresh one of the same
    class as the turn ends. A game with per-turn fields of its own subclasses it and
    narrows its state's ``pool`` to that subclass, so they start over with the rest.
    """

    skill: Amount = 0
    swords: Amount = 0
    boots: Amount = 0
    teleports: Amount = 0
    banked: Amount = 0
    """Negative clank not yet used (rules.md#clank)."""
    added: Amount = 0
    """Cubes the seat put in the Clank! area this turn (Swagger counts them)."""
    exhausted: bool = False
    """Entered a crystal cave this turn."""
    skill_gained: Amount = 0
    gold_gained: Amount = 0
    done: list[str] = msgspec.field(default_factory=list)
    """What the seat did this turn that a later condition or modifier may ask about
    (``used-portal``; ``gained-gold``, once per gain; ``acquired-gem:<card>``, per gem)."""
    mods: list[str] = msgspec.field(default_factory=list)
    waiting: list[Waiting[E]] = msgspec.field(default_factory=list)
    """Conditional and counted effects that wait on the turn: each looks again after every
    step, whatever the order of play (rules.md#conditions)."""
    queue: list[Pending[E]] = msgspec.field(default_factory=list)
    """Effects to resolve, in order, once no decision is pending."""


# -- frames -------------------------------------------------------------------


class Turn(Frame, tag="turn"):
    """The seat plays cards and takes actions; ``ending`` once it chose to end the turn."""

    ending: bool = False


class TakeToken(Frame, tag="take-token"):
    """On entering ``room``: take one token there, or none (rules.md#tokens)."""

    room: Count
    adjacent: bool = False
    """Wand of Wind: a secret from any room next to ``room``."""


class ChooseOne(Frame, Generic[E], tag="choose"):
    options: list[list[E]]
    card: str | None = None


class TrashOne(Frame, tag="trash"):
    name: str | None = None
    optional: bool = False


class DiscardOne(Frame, Generic[E], tag="discard"):
    then: list[E]
    card: str | None = None


class ReplaceOne(Frame, tag="replace"):
    """Treasure Hunter: a Dungeon Row card to replace."""


ClankFrames = Turn | TakeToken | ChooseOne[E] | TrashOne | DiscardOne[E] | ReplaceOne
"""The engine's frames over a game's effects ``E`` (``ClankFrames[ItsEffect]``)."""


# -- actions ------------------------------------------------------------------


class Play(Action, tag="play"):
    card: str


class Acquire(Action, tag="acquire"):
    """Pay skill for a row or Reserve item (into the discard pile)."""

    card: str


class UseDevice(Action, tag="use"):
    card: str


class Fight(Action, tag="fight"):
    card: str


class Buy(Action, tag="buy"):
    """Pay gold for a market item (its kind id: ``crown``)."""

    item: str


class Move(Action, tag="move"):
    """Walk ``tunnel`` to room ``to``, spending ``swords`` against its monsters."""

    tunnel: int
    to: int
    swords: Amount = 0


class Teleport(Action, tag="teleport"):
    tunnel: int
    to: int


class UseToken(Action, tag="use-token"):
    """Spend a kept token (a potion)."""

    token: str


class EndTurn(Action, tag="end-turn"):
    pass


class Take(Action, tag="take"):
    """Take a token of a room: a face-up one by its id, a face-down one blind, by its back's
    placeholder (``?minor``: the top face-down minor secret there, unseen until taken)."""

    token: str
    room: Count | None = None
    """The room taken from, when it is not the seat's (Wand of Wind: a room next to it)."""


class Skip(Action, tag="skip"):
    """Decline an optional choice (take no token, trash or discard nothing)."""


class Pick(Action, tag="pick"):
    option: int


class TrashCard(Action, tag="trash"):
    card: str


class DiscardCard(Action, tag="discard"):
    card: str


class Replace(Action, tag="replace"):
    card: str


ClankAction = (
    Play
    | Acquire
    | UseDevice
    | Fight
    | Buy
    | Move
    | Teleport
    | UseToken
    | EndTurn
    | Take
    | Skip
    | Pick
    | TrashCard
    | DiscardCard
    | Replace
)

END_TURN = EndTurn()
SKIP = Skip()


# -- events -------------------------------------------------------------------


class Played(Event, tag="played"):
    card: str


class Acquired(Event, tag="acquired"):
    card: str
    how: Literal["acquire", "use", "fight", "gain"] = "acquire"


class Bought(Event, tag="bought"):
    token: str


class Moved(Event, tag="moved"):
    room: Count
    damage: Amount = 0
    teleport: bool = False


class Took(Event, tag="took"):
    token: str


class Drew(Event, tag="drew"):
    """Cards drawn into a hand: private to the drawing seat."""

    cards: list[str]


class Clanked(Event, tag="clanked"):
    """``n`` cubes into the Clank! area (negative: taken back)."""

    n: int


class Attacked(Event, tag="attacked"):
    cubes: list[str]


class Damaged(Event, tag="damaged"):
    n: int


class Healed(Event, tag="healed"):
    n: int


class Out(Event, tag="out"):
    """The seat left the dungeon: escaped, rescued or eliminated."""

    status: str


class Refilled(Event, tag="refilled"):
    cards: list[str]


class Raged(Event, tag="raged"):
    rage: Amount


class Countdown(Event, tag="countdown"):
    space: int


class Trashed(Event, tag="trashed"):
    card: str


class Discarded(Event, tag="discarded"):
    card: str


class Chose(Event, Generic[E], tag="chose"):
    option: int
    effects: list[E] = []
    """What the chosen option does."""


class TurnEnded(Event, tag="turn-ended"):
    pass


ClankEvent = (
    Played
    | Acquired
    | Bought
    | Moved
    | Took
    | Drew
    | Clanked
    | Attacked
    | Damaged
    | Healed
    | Out
    | Refilled
    | Raged
    | Countdown
    | Trashed
    | Discarded
    | Chose
    | TurnEnded
)


# -- the state ----------------------------------------------------------------


F = TypeVar("F", bound=Frame)
"""A game's union of frames (msgspec decodes the stack as that union)."""


class EngineState(State, Generic[F, E], kw_only=True):
    """A table of any game on the Clank! engine, over the game's own frames ``F`` and
    effects ``E``.

    ``players`` by seat; ``rooms`` follows the map's room order. A game's state
    subclasses ``EngineState[ItsFrames, ItsEffects]`` with its own tag and fields.
    """

    stack: list[F]
    players: list[Player]
    pool: Pool[E] = msgspec.field(default_factory=Pool)
    bag: Bag
    dragon_aside: Amount = 0
    rage: Amount = 0
    """Index into the rage track."""
    dungeon: Zone
    row: Zone
    dungeon_discard: Zone
    reserve: list[Zone]
    rooms: list[Zone]
    market: Zone
    mastery: Zone
    box: Zone
    trash: Zone
    spent: Zone
    """Secrets and potions whose effect is over."""
    countdown: Amount = 0
    """Space of the countdown pawn (0: not on the track)."""
    countdown_seat: Count | None = None


# The vocabulary of Clank!: the engine's effects. mypy sees the base type; msgspec decodes
# the union, whose kinds holding effects are re-typed in this module (``Choose``, ``If``).
if TYPE_CHECKING:
    ClankEffect = fx.Effect
else:
    ClankEffect = fx.vocabulary(__name__, "ClankEffect", fx.BASE_EFFECTS)

ClankFrame = ClankFrames[ClankEffect]


class ClankState(EngineState[ClankFrame, ClankEffect], tag="clank", kw_only=True):
    """A Clank! table."""
