"""What each seat did with the cards of a game, derived from its zones alone.

A run played with ``--card-facts`` records, per game and seat, a :class:`SeatCards`: the cards
that came into the seat's own zones after the set-up (*acquired*), the cards it *played*,
the cards in its zones at the end (*owned*) and the round in which the first copy of
each kind arrived. Cards are counted by :meth:`Encoding.card_kind
<meeple.core.rl.Encoding.card_kind>`, so the copies of a card add up. Nothing here knows a
game: the facts follow from where the game keeps its cards and who owns each zone, so
any plugin gets them without a line of its own.

- A card is *acquired* the first time it lies in one of the seat's zones (a zone whose
  ``owner`` is the seat) that did not hold it at the set-up: a card bought, drawn from a
  shared pile, taken from the board, given by another seat. A copy is counted once, however
  often it comes and goes.
- A card is *played* when a decision of the seat takes it out of a zone only the seat
  sees (its hand: a kind whose others see nothing but whose owner sees all, as
  :data:`~meeple.core.zones.PRIVATE`) to a place every seat sees it: played to a table,
  or discarded face up.
- A game may add measures of its own, per seat, through the ``meeple_seat_measures`` hook:
  a number (gold at the end) or a count per name (monsters defeated by kind).

The :class:`Recorder` watches a game decision by decision (``Match.run``'s ``on_events``).
"""

from __future__ import annotations

import itertools
import operator
import weakref
from collections import Counter
from typing import Annotated, Any

import msgspec

from meeple.core.engine import Hooks
from meeple.core.errors import MeepleError
from meeple.core.game import PLAY_ON_MAX, Game
from meeple.core.state import Action, Event, State
from meeple.core.zones import PRIVATE, Zone, iter_zones, sees

Copies = Annotated[int, msgspec.Meta(ge=0, le=PLAY_ON_MAX)]
"""How many copies or plays of a kind: a count, as files store it."""
Round = Annotated[int, msgspec.Meta(ge=1, le=PLAY_ON_MAX)]
Measure = float | dict[str, Copies]
"""A game's own measure of a seat: a number, or a count per name."""


class SeatCards(msgspec.Struct, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """One seat's card facts in one game, each by card kind. Empty mappings are left out
    of a file."""

    acquired: dict[str, Copies] = {}
    """Copies that came into the seat's zones after the set-up."""
    played: dict[str, Copies] = {}
    """Times a card of the kind was played from the seat's hand."""
    owned: dict[str, Copies] = {}
    """Copies in the seat's zones at the end."""
    first: dict[str, Round] = {}
    """The round the first acquired copy arrived, for each kind acquired."""
    measures: dict[str, Measure] = {}
    """The game's own measures of the seat (``meeple_seat_measures``)."""


_cards = operator.attrgetter("cards")


class _Seat:
    """What the recorder knows of one seat: its zones, its hands as last seen, its facts."""

    __slots__ = ("acquired", "first", "hands", "held", "played", "zones")

    def __init__(self) -> None:
        self.zones: list[Zone] = []
        self.hands: list[tuple[Zone, list[str]]] = []
        """Its zones only it sees, each with a copy of its cards as last seen."""
        self.held: set[str] = set()
        """Every card that has lain in the seat's zones, the set-up's included."""
        # Plain dicts, counted with get: a Counter's missing key costs a Python call.
        self.acquired: dict[str, int] = {}
        self.played: dict[str, int] = {}
        self.first: dict[str, int] = {}


class Recorder:
    """The card facts of one game in play: make it on the set-up state, pass :meth:`step`
    as ``Match.run``'s ``on_events``, then ask :meth:`facts` once the game is over.

    A decision must cost little, as random self-play makes tens of thousands a second:
    after each, the recorder compares the hands of the seat that decided with their
    copies; once a round, the cards in every seat's zones with those it has held; at the
    end, it looks for the seats' zones anew (a game may add one as it goes). So a card is
    acquired in the round it arrived if it arrives in a hand or stays to the end of the
    round; one that comes into another zone and leaves again within a round is not counted.
    Every mapping is filled in the order of the state's lists, never in a set's (hash)
    order: the facts of a game are the same bytes in any process.
    """

    def __init__(self, game: Game[Any, Any], state: State) -> None:
        self.game, self.state = game, state
        self.seats = [_Seat() for _ in range(state.seats)]
        layout = _layout(game)
        self.kind, self.visibility, self.open = layout.kinds.__getitem__, game.zones, layout.open
        self.round = state.turns.round
        zones = list(iter_zones(state))
        hidden = layout.hidden
        self.places = [z for z in zones if z.kind not in hidden]
        self.places += [z for z in zones if z.kind in hidden]
        """Every zone of the set-up, where a card played is looked for: those where every
        seat may see a card first (a card played lies where every seat sees it)."""
        self.layout = layout
        self.stages = [self.places[i] for i in layout.stages.get(len(self.places), ())]
        """The zones a card left a hand for, the latest first: at first, those of the game
        before (by their place in the state), which saves finding them again."""
        private = layout.private
        for zone in zones:
            if zone.owner is not None:
                seat = self.seats[zone.owner]
                seat.zones.append(zone)
                seat.held.update(zone.cards)
                if zone.kind in private:
                    seat.hands.append((zone, list(zone.cards)))

    def step(self, seat: int, action: Action, events: list[Event]) -> None:
        """After each decision (of ``seat``): what came into its hands, what left them."""
        facts = self.seats[seat]
        for hand, seen in facts.hands:
            cards = hand.cards
            if cards != seen:
                if len(cards) == len(seen) - 1 and self._on_top(facts, cards, seen):
                    continue
                # Cards drawn onto a hand, the commonest change, cost two comparisons.
                if not (len(cards) > len(seen) and cards[: len(seen)] == seen):
                    self._left(facts, cards, seen)
                seen[:] = cards
                if not facts.held.issuperset(cards):
                    self._arrived(facts, cards)
        if self.state.turns.round != self.round:
            self._round_ended()

    def _left(self, seat: _Seat, cards: list[str], seen: list[str]) -> None:
        """Cards left a hand of the seat, which held ``seen`` and holds ``cards``: those now
        where every seat sees them were played."""
        gone = set(seen).difference(cards)
        if len(gone) == 1:
            # One card played onto a zone a card was played to before (a play area, a pile
            # on the table), the commonest change, is found on top of it: no zone else holds
            # that card.
            (card,) = gone
            stages = self.stages
            for i, zone in enumerate(stages):
                on = zone.cards
                if on and on[-1] == card:
                    if i:
                        stages.insert(0, stages.pop(i))
                    self._played(seat, zone, card)
                    return
        # Any other looks for the cards gone in every zone of the set-up, then (a zone new
        # since) walks the state.
        if gone and self._shown(seat, gone, self.places):
            self._shown(seat, gone, list(iter_zones(self.state)))

    def _on_top(self, seat: _Seat, cards: list[str], seen: list[str]) -> bool:
        """Whether the hand the seat held as ``seen`` holds ``cards`` as one card played onto
        a zone a card was played to before (a play area, a pile on the table), the
        commonest change: the card is on top there, and the hand is what it was without it.
        If so, the card is taken in and ``seen`` is ``cards``."""
        stages = self.stages
        for i, zone in enumerate(stages):
            on = zone.cards
            if on and on[-1] in seen:
                card = on[-1]
                seen.remove(card)
                if seen == cards and card not in seen:
                    if i:
                        stages.insert(0, stages.pop(i))
                    self._played(seat, zone, card)
                    return True
                seen.append(card)  # in any order: what else changed is worked out anew
                return False
        return False

    def _played(self, seat: _Seat, zone: Zone, card: str) -> None:
        """``card``, on top of ``zone``, left a hand of the seat: played if every seat sees it."""
        kind = zone.kind
        if kind in self.open or sees(self.visibility[kind], zone, None, len(zone.cards) - 1):
            played, kind = seat.played, self.kind(card)
            played[kind] = played.get(kind, 0) + 1

    def _round_ended(self) -> None:
        """Take in what came into every seat's zones during the round."""
        for seat in self.seats:
            self._took(seat)
            for hand, seen in seat.hands:
                seen[:] = hand.cards
        self.round = self.state.turns.round

    def _took(self, seat: _Seat) -> None:
        cards = list(itertools.chain.from_iterable(map(_cards, seat.zones)))
        if not seat.held.issuperset(cards):
            self._arrived(seat, cards)

    def _arrived(self, seat: _Seat, cards: list[str]) -> None:
        """Take in ``cards``, now in the seat's zones, some of which it never held."""
        held, kind, now = seat.held, self.kind, self.round
        acquired, first = seat.acquired, seat.first
        # Those held already are passed over in C.
        for card in itertools.filterfalse(held.__contains__, cards):
            held.add(card)
            k = kind(card)
            acquired[k] = acquired.get(k, 0) + 1
            if k not in first:
                first[k] = now

    def _public(self, zone: Zone, i: int) -> bool:
        """Whether every seat sees the card at ``i`` in ``zone``."""
        kind = zone.kind
        return kind in self.open or sees(self.visibility[kind], zone, None, i)

    def _shown(self, seat: _Seat, gone: set[str], zones: list[Zone]) -> bool:
        """Count the cards of ``gone`` that lie where every seat sees them in ``zones`` as
        played by ``seat``, and take every card found out of ``gone``; whether any is left."""
        # The zones holding one are picked out in C: a state has dozens, and plays are many.
        holding = map(operator.not_, map(gone.isdisjoint, map(_cards, zones)))
        for zone in itertools.compress(zones, holding):
            cards = zone.cards
            here = [card for card in cards if card in gone] if len(gone) > 1 else [*gone]
            gone.difference_update(here)
            for card in here:
                if self._public(zone, cards.index(card)):
                    kind = self.kind(card)
                    seat.played[kind] = seat.played.get(kind, 0) + 1
            if not any(stage is zone for stage in self.stages):
                self.stages.insert(0, zone)
            if not gone:
                return False
        return True

    def facts(self, hooks: Hooks) -> list[SeatCards]:
        """Each seat's facts once the game is over."""
        state, kind = self.state, self.kind
        owned: list[list[str]] = [[] for _ in self.seats]
        for zone in iter_zones(state):  # a zone added since the set-up counts too
            if zone.owner is not None:
                owned[zone.owner] += zone.cards
        where = {id(zone): i for i, zone in enumerate(self.places)}
        known = [where.get(id(zone)) for zone in self.stages]
        self.layout.stages[len(self.places)] = [i for i in known if i is not None]
        found = []
        for number, (seat, cards) in enumerate(zip(self.seats, owned, strict=True)):
            if not seat.held.issuperset(cards):
                self._arrived(seat, cards)
            found.append(
                SeatCards(
                    acquired=dict(seat.acquired),
                    played=dict(seat.played),
                    owned=dict(Counter(map(kind, cards))),
                    first=seat.first,
                    measures=measures(hooks, self.game, state, number),
                )
            )
        return found


class _Kinds(dict[str, str]):
    """The kind of each card a game object has met (``Encoding.card_kind``), worked out once:
    as bounded as the game's cards."""

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__()
        self.card_kind = game.encoding.card_kind

    def __missing__(self, card: str) -> str:
        kind = self[card] = self.card_kind(card)
        return kind


class _Layout:
    """What a recorder reads of its game, the same for each of its games."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.kinds = _Kinds(game)
        zones = game.zones
        self.private = {kind for kind, vis in zones.items() if vis == PRIVATE}
        """The zone kinds only their owner sees: its hands."""
        self.hidden = {kind for kind, vis in zones.items() if vis.others == "none"}
        """The zone kinds of which a seat that does not own one sees no card."""
        self.open = {kind for kind, vis in zones.items() if vis.others == "all"}
        """The zone kinds every card of which every seat sees."""
        self.stages: dict[int, list[int]] = {}
        """The last game's :attr:`Recorder.stages`, by their place among its set-up's zones,
        for each number of zones a set-up had."""


_LAYOUTS: weakref.WeakKeyDictionary[Game[Any, Any], _Layout] = weakref.WeakKeyDictionary()
"""Kept as long as their game object: a run plays every game on one."""


def _layout(game: Game[Any, Any]) -> _Layout:
    layout = _LAYOUTS.get(game)
    if layout is None:
        layout = _LAYOUTS[game] = _Layout(game)
    return layout


def measures(hooks: Hooks, game: Game[Any, Any], state: State, seat: int) -> dict[str, Measure]:
    """The measures every ``meeple_seat_measures`` implementation gives ``seat``, by name."""
    if hooks.seat_measures is None:
        return {}
    found: dict[str, Measure] = {}
    for answer in hooks.seat_measures(game=game, state=state, seat=seat):
        if answer is None:
            continue
        for name, value in answer.items():
            found[name] = _measure(name, value)
    return dict(sorted(found.items()))


def _measure(name: str, value: object) -> Measure:
    """A hook's measure as a file holds it, or an error naming what is wrong."""
    try:
        return msgspec.convert(value, Measure)
    except msgspec.ValidationError as exc:
        raise MeepleError(
            f"meeple_seat_measures gave {name!r} {value!r}: a measure is a number or a "
            f"mapping of names to counts ({exc})"
        ) from None
