"""How well a seat stands in a game on the Clank! engine: its chance to win, from the full state.

Each seat gets the points it may expect at the end (rules.md#scoring), over a spread
that shrinks as the game nears its end:

- a seat that escaped or was rescued has its final points (rules.md#escape,
  rules.md#knocked-out); an eliminated one has nothing and ranks below all;
- a seat in the dungeon holding an artifact expects its points now, plus the
  Mastery token (20) if it gets out, else what a knocked-out seat keeps
  (nothing in the depths); whether it gets out weighs the damage it may yet
  take on its way (rules.md#dragon-attack: the rage track, its cubes among
  those in the bag and the Clank! area) against the health it has left
  (rules.md#health), and the turns the countdown still leaves it
  (rules.md#countdown);
- a seat without an artifact must first fetch one it can see and then get
  out: it counts on the one whose points and Mastery token, weighed by those
  odds, are worth most (the nearest is often the cheapest), else nothing (a
  seat knocked out without an artifact is eliminated);
- a seat in the dungeon also counts on the points its deck buys on the way,
  by how much a play of its cards is worth above the starting deck's.

Those expected points are one of the features (:data:`FEATURES`) that the chances weigh:
:func:`~meeple.core.search.win_chances` of each seat's features times weights fitted to who
won games of ``heuristic`` bots (``python benchmarks/evaluation.py``, stored in the game's
seeds).

Walks are measured in boots over the seat's map (:meth:`Movement.graph`, so a
map that grows is read as it stands), monsters and locks priced as the
``heuristic`` bot's router prices them.
"""

from __future__ import annotations

import functools
import math
from importlib import resources
from typing import TYPE_CHECKING, Generic, NamedTuple

import msgspec

from meeple.core.search import win_chances
from meeple.plugins.clank.catalog import Catalog, Graph
from meeple.plugins.clank.dragon import COLOURS
from meeple.plugins.clank.part import S
from meeple.plugins.clank.state import Player
from meeple.plugins.clank.weighing import INF, PLAIN, Price, router, worth

if TYPE_CHECKING:
    from meeple.plugins.clank.rules import ClankEngine

MASTERY = 20
"""The Mastery token of a seat that escapes (rules.md#escape)."""
BOOTS_PER_TURN = 2.5
"""Boots a seat's turn brings on average."""
FAR = 12.0
"""The walk, in boots, to an artifact or a way out that the map does not show yet."""
FETCH = 0.8
"""The odds of a seat that has still to fetch its artifact, beyond its health: another seat may
take it first, or the walk may cost more than the map shows."""
TURNS_AFTER_KNOCKOUT = 4
"""Turns the countdown leaves once on the track (rules.md#countdown: space 5 ends it)."""
RACE = 1.0
"""How sharply the odds fall, in turns, as a seat's walk outlasts the turns it has left."""
SPREAD_AT_END = 1.0
SPREAD_PER_TURN = 4.0
"""How far a seat's points may move, by the square root of the turns the game has left."""
DECK = 0.35 * 5
"""Points a turn brings per skill-equivalent a card's play is worth above the starting deck's:
the ``heuristic`` bot's early worth of a point, five cards a turn."""
ELIMINATED = -1000.0
"""The expected points of an eliminated seat: below every seat that scores."""
FEATURES = {
    "expected": "the expected points (as priced above) over the spread of the game",
    "points": "the points now over the spread",
    "gain": "the points of the artifact still to fetch, times the odds, over the spread",
    "health": "the health left, in the dungeon",
    "deck": "a play of the seat's cards above the starting deck's, in the dungeon",
    "out": "1 for a seat out of the dungeon",
}
"""What the evaluation reads of each seat (:meth:`Outlook.features`), weighed by the weights
fitted to who won games of ``heuristic`` bots (``python benchmarks/evaluation.py``)."""


@functools.lru_cache(maxsize=8)
def plays(cat: Catalog) -> tuple[dict[str, float], float]:
    """What one play of each card is worth in skill-equivalents (the ``heuristic`` bot's
    :func:`~meeple.plugins.clank.bots.worth` in a fresh game), by physical id, and the mean
    of the starting deck."""
    values = {cid: worth(card.play, PLAIN, cat) for cid, card in cat.card.items()}
    start = cat.starters[0]
    return values, sum(values[c] for c in start) / len(start)


class Trip(NamedTuple):
    """What a seat in the dungeon has still to do: the turns its walk takes, the points of
    the artifact it is to fetch (0 if it holds one), and whether it holds one."""

    turns: float
    gain: int
    held: bool


@functools.cache
def fitted_weights(path: str) -> dict[str, float]:
    """The weights of each feature, read once from the game data at ``path``."""
    data = msgspec.json.decode(resources.files("meeple.seeds").joinpath(path).read_bytes())
    return {k: float(data["weights"][k]) for k in FEATURES}


class Outlook(Generic[S]):
    """The expected points of every seat of one game on the engine, and their win chances."""

    fitted = "clank/evaluation.json"
    """The weights of the features, fitted to the game's own bots."""
    hurt = 0.64
    """Damage a turn of a seat's trip brings besides its share of the dragon's cubes."""
    attacks = 0.69
    """Cubes of the rage track's draw that a turn of the trip brings, times the seat's share.

    With ``hurt``, fitted to the damage ``heuristic`` bots carrying an artifact out took from
    each turn until the end (``python benchmarks/evaluation.py --hurt``): a trip's turns are
    its boots at :data:`BOOTS_PER_TURN`, and a seat stays in longer than that, buying on its
    way (docs/search.md, "The damage to come")."""

    def __init__(self, game: ClankEngine[S]) -> None:
        self.game = game
        cat = game.cat
        self.health = cat.health
        self.rage_track = cat.tables.rage_track
        self.artifacts = {t: cat.points[t] for t in cat.token if cat.token[t].kind == "artifact"}
        """The points of each artifact, by id."""
        self.plays, self.start = plays(cat)
        self.keys = frozenset(t for t in cat.token if cat.token[t].power == "key")
        artifacts = self.artifacts.values()
        self.typical = round(sum(artifacts) / len(artifacts)) if artifacts else 0
        """The points of an artifact the map does not show yet."""

    def chances(self, state: S) -> list[float]:
        """Each seat's chance to win: a softmax of the fitted weights times its features."""
        weights = fitted_weights(self.fitted)
        return win_chances(
            [sum(w * f[k] for k, w in weights.items()) for f in self.features(state)], 1.0
        )

    def features(self, state: S) -> list[dict[str, float]]:
        """What the evaluation reads of each seat (:data:`FEATURES`)."""
        graph = self.game.graph(state)
        lying = self.lying(state, graph)
        scores = self.game.scores(state)
        trips = [self.trip(state, seat, graph, lying) for seat in range(state.seats)]
        turns = [t.turns for t in trips if t is not None]
        left = self.turns_left(state)
        spread = SPREAD_AT_END + SPREAD_PER_TURN * math.sqrt(max(turns, default=0.0))
        out: list[dict[str, float]] = []
        for seat, (score, trip) in enumerate(zip(scores, trips, strict=True)):
            p = state.players[seat]
            f = dict.fromkeys(FEATURES, 0.0)
            points = score.total + 0.01 * score.tiebreak[-1]
            f["points"] = points / spread
            if p.status == "eliminated":
                f["expected"] = ELIMINATED / spread
            elif trip is None:
                f["expected"] = points / spread
                f["out"] = 1.0
            else:
                deadline = min(left, self.race(trip.turns, turns))
                expected = self.expected(state, seat, score.total, trip, deadline)
                f["expected"] = (expected + 0.01 * score.tiebreak[-1]) / spread
                f["gain"] = trip.gain * self.odds(state, seat, trip, deadline) / spread
                f["health"] = self.health - p.damage
                f["deck"] = self.deck(p) - self.start
            out.append(f)
        return out

    def lying(self, state: S, graph: Graph) -> list[tuple[int, int]]:
        """The room and points of each artifact on the map."""
        artifacts = self.artifacts
        return [
            (rid, artifacts[t])
            for rid, zone in zip(graph.order, state.rooms, strict=True)
            for t in zone.cards
            if t in artifacts
        ]

    def trip(self, state: S, seat: int, graph: Graph, lying: list[tuple[int, int]]) -> Trip | None:
        """What a seat in the dungeon has still to do (``None``: it is out); ``lying`` holds
        the room and points of each artifact on the map."""
        p = state.players[seat]
        if p.status != "in":
            return None
        held = any(t in self.artifacts for t in p.held.cards)
        key = any(t in self.keys for t in p.held.cards)
        price = Price(key=key, hurt=1.0, bearable=self.health, swords=0, start_ok=True)
        routes = router(graph)
        home = routes.toward(graph.start, price)
        here = p.room
        if held:
            return Trip(self.turns(home.get(here, INF)), 0, True)
        # The artifact worth most once the odds of its walk are weighed, not the nearest: the
        # deeper an artifact lies, the more points it is worth.
        walks = [
            (routes.toward(rid, price).get(here, INF) + home.get(rid, INF), gain)
            for rid, gain in lying
        ]
        trips = [Trip(self.turns(walk), gain, False) for walk, gain in walks if walk < INF]
        left = self.turns_left(state)
        return max(
            trips or [Trip(self.turns(INF), self.typical, False)],
            key=lambda t: (t.gain + MASTERY) * self.odds(state, seat, t, left),
        )

    @staticmethod
    def turns(walk: float) -> float:
        """The turns a walk of ``walk`` boots takes (``INF``: a walk the map does not show)."""
        return (walk if walk < INF else FAR) / BOOTS_PER_TURN

    def odds(self, state: S, seat: int, trip: Trip, deadline: float) -> float:
        """The chance that the seat makes its trip and gets out within ``deadline`` turns."""
        hurt = trip.turns * self.hurt_per_turn(state, seat)
        left = self.health - state.players[seat].damage
        # Even odds when the damage to come equals the health left, or the trip the deadline.
        safe = left * left / (left * left + hurt * hurt) * (1.0 if trip.held else FETCH)
        return safe / (1 + math.exp((trip.turns - deadline) / RACE))

    def expected(self, state: S, seat: int, total: int, trip: Trip, deadline: float) -> float:
        """The expected final points of a seat in the dungeon, out within ``deadline`` turns."""
        p = state.players[seat]
        safe = self.odds(state, seat, trip, deadline)
        fall = total if trip.held and p.room not in self.game.graph(state).depths else 0
        # A stronger deck buys more points on the way (rules.md#acquire).
        more = DECK * (self.deck(p) - self.start) * trip.turns
        return safe * (total + trip.gain + MASTERY + more) + (1 - safe) * fall

    def deck(self, p: Player) -> float:
        """The mean worth of a play of the seat's cards."""
        cards = [c for zone in (p.deck, p.hand, p.play, p.discard) for c in zone.cards]
        return sum(self.plays.get(c, self.start) for c in cards) / max(len(cards), 1)

    def race(self, mine: float, turns: list[float]) -> float:
        """The turns a seat whose walk takes ``mine`` has before the countdown ends it: the
        first other seat out leaves the rest its turns (``turns``: every walk in the dungeon)."""
        rest = sorted(turns)
        rest.remove(mine)
        return rest[0] + TURNS_AFTER_KNOCKOUT if rest else INF

    def turns_left(self, state: S) -> float:
        """The turns a seat still in the dungeon has at most: once a seat is out, the
        countdown's (rules.md#countdown)."""
        return TURNS_AFTER_KNOCKOUT - state.countdown + 1 if state.countdown else INF

    def hurt_per_turn(self, state: S, seat: int) -> float:
        """The damage the seat may expect in one turn of its trip: ``hurt``, and its share of
        the dragon's cubes times ``attacks`` draws."""
        return self.hurt + self.attacks * self.drawn(state) * self.share(state, seat)

    def drawn(self, state: S) -> float:
        """The cubes an attack draws (rules.md#dragon-attack)."""
        return self.rage_track[min(state.rage, len(self.rage_track) - 1)]

    def share(self, state: S, seat: int) -> float:
        """The share of the cubes in the bag and the Clank! area that hurt the seat."""
        mine = state.bag.cubes.get(COLOURS[seat], 0) + state.players[seat].clank
        cubes = len(state.bag) + sum(p.clank for p in state.players)
        return mine / max(cubes, 1)


def evaluate(game: ClankEngine[S], state: S, seat: int) -> float:
    """``seat``'s chance to win (see the module's docstring)."""
    return Outlook(game).chances(state)[seat]
