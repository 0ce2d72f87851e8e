"""Clank! rules: the generic :class:`ClankEngine` and the :class:`Clank` game on it.

Each rule's docstring names its section of ``seeds/clank/rules.md``. The
engine is assembled from parts over one catalog and one state type, each a
:class:`~.part.Part` typed against the others: the map (:mod:`.map`), the effect
interpreter (:mod:`.resolve`), the dragon (:mod:`.dragon`), the cards and items on offer
(:mod:`.cards`), the turn (:mod:`.turn`) and scoring (:mod:`.scoring`). A game on it
(Clank!, Clank! Catacombs) subclasses ``ClankEngine[ItsState]`` and changes it at its
hooks (:func:`~.part.hook`) and by registering rules. This module binds the parts'
registrations and declares what the core asks of every game on the engine.
The hot path hands out pre-built (or lazily cached) action values and reads
definitions from dictionaries built once per set of tables; every map
question goes through :meth:`~.map.Movement.graph`, which receives the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import ClassVar, cast

from meeple.core.rl import Encoding
from meeple.core.rng import Rng, shuffle
from meeple.core.state import Action
from meeple.core.zones import FACING, HIDDEN, PRIVATE, PUBLIC, SECRET, Zone
from meeple.plugins.clank import checks, content, present, tables
from meeple.plugins.clank.cards import OFFERS_KEPT, Cards, on_offer
from meeple.plugins.clank.catalog import SECRET_KINDS, Catalog
from meeple.plugins.clank.dragon import COLOURS, DRAGON, Dragon
from meeple.plugins.clank.map import Movement
from meeple.plugins.clank.part import S, actions_of, hook
from meeple.plugins.clank.resolve import Effects
from meeple.plugins.clank.scoring import Scoring
from meeple.plugins.clank.state import (
    ClankAction,
    ClankEffect,
    ClankEvent,
    ClankOptions,
    ClankState,
    EndTurn,
    EngineOptions,
    Move,
    Skip,
    Teleport,
)
from meeple.plugins.clank.turn import TurnRules


@lru_cache(maxsize=16)
def catalog(schema: content.Schema, o: ClankOptions) -> Catalog:
    """The catalog of the tables ``o`` names, as a game of ``schema`` reads them, built once
    per game and set of options (of the last 16: a tournament over variants cannot grow it)."""
    t = tables.read_tables(
        schema,
        cards=o.cards,
        board=o.board,
        board_file=o.board_file,
        variant=o.variant,
        tokens=o.tokens,
    )
    return Catalog(t.cards, t.tokens, t.board)


class ClankEncoding(Encoding[S, Action]):
    """The actions of a game on the engine, for a reinforcement-learning environment: their
    values read off its board and catalog."""

    game: ClankEngine[S]

    def action_values(self, seats: int) -> Mapping[str | tuple[str, ...], Sequence[object]]:
        """The values the actions name: off the board, tunnels, rooms, the swords spent
        against a tunnel's monsters; a choice's options; and off the catalog, the cards, the
        tokens (a face-down one by its back), the market items, and the tokens a Take
        names with its room."""
        graph, cat = self.game.cat.graph, self.game.cat
        rooms = sorted(graph.rooms)
        return {
            "tunnel": range(len(graph.tunnels)),
            "to": rooms,
            "room": rooms,
            "swords": range(max(t.monsters for t in graph.tunnels) + 1),
            "option": range(len(self.game.acts.pick)),
            "card": tuple(cat.card),
            "token": tuple(self.game.acts.take),  # the Takes': every token and face-down back
            "item": tuple(cat.market_items),
            ("token", "room"): self._takes_named(rooms),
        }

    def _takes_named(self, rooms: Sequence[int]) -> list[tuple[str, int | None]]:
        """The token and room of each Take: any token or face-down back of the seat's own
        room (which it does not name), or a secret, seen or not, of a room it names (Wand of
        Wind, rules.md#tokens)."""
        token, back = self.game.cat.token, self.game.cat.back
        secrets = [t for t in token if token[t].kind in SECRET_KINDS]
        faces = dict.fromkeys([*secrets, *(HIDDEN + back[t] for t in secrets)])
        return [*((t, None) for t in self.game.acts.take), *((f, r) for r in rooms for f in faces)]

    def action_key(self, seats: int) -> Mapping[type[Action], Sequence[str]]:
        """A move leads through its tunnel out of the seat's room, so the tunnel tells where
        it ends."""
        return {Move: ("tunnel", "swords"), Teleport: ("tunnel",)}


class ClankEngine(Movement[S], TurnRules[S], Cards[S], Effects[S], Dragon[S], Scoring[S]):
    """The Clank! engine over its state type ``S``: everything the games on it share.

    A game subclasses ``ClankEngine[ItsState]`` and declares its id, options,
    state, catalog and set-up; its rules extend the engine's. The parts whose hooks a game
    extends on every decision (the map's listings, then the turn's) come first: a game's
    ``super()`` looks the method up in every class before the one defining it.
    """

    min_seats = 2
    max_seats = 4
    action_type = ClankAction
    event_type = ClankEvent
    passes = (Skip, EndTurn)
    presentation_type = present.ClankPresentation
    encoding_type = ClankEncoding
    zones = {
        "deck": SECRET,
        "hand": PRIVATE,
        "play": PUBLIC,
        "discard": PUBLIC,
        "held": PUBLIC,
        "dungeon": SECRET,
        "row": PUBLIC,
        "dungeon-discard": PUBLIC,
        "reserve": PUBLIC,
        "room": FACING,
        "market": PUBLIC,
        "mastery": PUBLIC,
        "box": SECRET,
        "trash": PUBLIC,
        "spent": PUBLIC,
    }
    options: EngineOptions
    tables_from: ClassVar[Traversable] = resources.files("meeple.seeds") / "clank"
    """The folder of the game's own package that holds its tables (``cards.json``...): a game
    in a package of its own names it (``resources.files(__name__)``), and a table it does not
    ship is read from its bases' folders, the engine's last (Clank!'s tables)."""

    def __init__(self, options: EngineOptions | None = None, cat: Catalog | None = None) -> None:
        super().__init__(options)
        self.cat = cat if cat is not None else self.make_catalog()
        cat = self.cat
        self._handlers = {k: getattr(self, name) for k, name in self._effect_rules().items()}
        self._watchers = {k: getattr(self, n) for k, n in self._effect_rules("watch").items()}
        self._build_moves()
        self.acts = actions_of(cat)
        self._on_offer = on_offer(cat)
        self._offer = lru_cache(maxsize=OFFERS_KEPT)(self._offer_of)
        self._plays = lru_cache(maxsize=len(cat.card))(self._play_effects)
        self._apply = self._bind("action")
        self._facts = self._bind("fact")
        self._frames = self._bind("frame")
        self._conditions = self._bind("condition")
        self._points = self._bind("points")

    @hook
    def make_catalog(self) -> Catalog:
        """The catalog of the tables the options name (a game supplies it)."""
        raise NotImplementedError

    @classmethod
    def _schema(cls) -> content.Schema:
        """What the game's tables may say: its vocabulary, and the effects, conditions and
        points rules it registers; where its tables are found (its folder, then its bases')."""
        rules = cls.rules
        return content.Schema(
            cls.Effect,
            tuple(rules["effect"]),
            frozenset(rules["condition"]),
            frozenset(rules["points"]),
            tuple(vars(k)["tables_from"] for k in cls.__mro__ if "tables_from" in vars(k)),
            cls.title,
        )

    def evaluate(self, state: S, seat: int) -> float:
        from meeple.plugins.clank.evaluate import evaluate  # it routes as the bots do: after them

        return evaluate(self, state, seat)

    # -- what the core needs to know ---------------------------------------------------

    def cards(self, state: S) -> Iterable[str]:
        return self.cat.pieces(state.seats)

    def back(self, card: str) -> str:
        return self.cat.back.get(card, "")

    def displaced(self, state: S, zone: Zone, card: str) -> Zone:
        """A seat's card goes back into its deck, any other piece into the box."""
        if zone.owner is not None and card in self.cat.card:
            return state.players[zone.owner].deck
        return state.box

    def validate_state(self, state: S) -> list[str]:
        return checks.check(self, state)

    @hook
    def bag_colours(self, seats: int) -> set[str]:
        """The cube colours the dragon bag may hold."""
        return {DRAGON, *COLOURS[:seats]}

    @hook
    def cubes_placed(self, state: S, seat: int) -> int:
        """The seat's cubes on the map rather than in its areas (none in Clank!)."""
        return 0

    @hook
    def room_name(self, state: S, room: int) -> str:
        """How descriptions name a room."""
        return f"room {room}"


class ClankBoard(ClankEngine[S]):
    """A game on Clank!'s board (the ``board`` option: a side, or a user's board file), set
    up as Clank! is: Clank! and any game that changes its rules but not its map. A game on
    another map (Catacombs' tiles) subclasses :class:`ClankEngine` and sets itself up."""

    options_type = ClankOptions
    options: ClankOptions

    def make_catalog(self) -> Catalog:
        return catalog(self._schema(), self.options)

    def taken_as_action(self, tid: str) -> bool:
        """rules.md#take-artifact: an artifact, unless the option keeps the first edition's
        reading (taken on entry, as the other tokens are)."""
        return self.options.artifact_take == "action" and self.cat.token[tid].kind == "artifact"

    # -- set-up ----------------------------------------------------------------

    def setup(self, seats: int, seed: int) -> S:
        """rules.md#setup, steps 1-14."""
        cat = self.cat
        graph = cat.graph
        rng = Rng(seed=seed)
        box = Zone(kind="box")
        rooms = [Zone(kind="room", up=[]) for _ in graph.order]
        self._place_tokens(rng, seats, rooms, box)
        # A game's state class is its ``S``, which a class attribute cannot say to mypy.
        new = cast("type[S]", self.state_type)
        state = new(**self._common_setup(seats, rng, graph.start, box), rooms=rooms, box=box)
        self._begin(state)
        return state

    def _place_tokens(self, rng: Rng, seats: int, rooms: list[Zone], box: Zone) -> None:
        """rules.md#setup steps 2, 3 and 5: artifacts, secrets and idols onto their rooms."""
        cat = self.cat
        graph = cat.graph
        artifacts = list(cat.by_kind.get("artifact", []))
        shuffle(rng, artifacts)
        for _ in range(cat.tables.artifacts_removed.get(str(seats), 0)):
            box.add(artifacts.pop())
        value = {cat.points[a]: a for a in artifacts}
        secrets = {k: list(cat.by_kind.get(k, [])) for k in ("major", "minor")}
        for pile in secrets.values():
            shuffle(rng, pile)
        idols = list(cat.by_kind.get("idol", []))
        for i, rid in enumerate(graph.order):
            room = graph.rooms[rid]
            zone = rooms[i]
            for kind, n in (("major", room.major), ("minor", room.minor)):
                for _ in range(n):
                    if secrets[kind]:
                        zone.add(secrets[kind].pop(), False)
            if room.artifact is not None and room.artifact in value:
                zone.add(value.pop(room.artifact), True)
            for _ in range(room.idols):
                if idols:
                    zone.add(idols.pop(0), True)
        for tid in (*secrets["major"], *secrets["minor"], *value.values(), *idols):
            box.add(tid)


class Clank(ClankBoard[ClankState]):
    """Clank!: build a deck, sneak into the dragon's lair, steal an artifact, get out alive."""

    id = "clank"
    title = "Clank!"
    version = "5"
    state_type: ClassVar[type[ClankState]] = ClankState
    Effect = ClankEffect
    # docs/search.md#the-ladder: 37.8% [33.7%, 42.1%] of 500 games against three heuristic
    # bots. Far from the end evaluate misjudges a turn's choices: every choice is left to the
    # heuristic bot before turn 12, moves before turn 24 (#leaving-moves-to-the-heuristic).
    bot_options = {
        "ismcts": {
            "iterations": "10",
            "rollout": "heuristic",
            "turn": "true",
            "guide": "heuristic",
            "paired": "true",
            "margin": "0.01",
            "defer": "move+teleport",
            "until": "24",
            "start": "12",
        }
    }
    variants: ClassVar[Sequence[Mapping[str, str]]] = (
        {},
        {"board": "back"},
        {"variant": "klank", "teleport_locks": "key"},
        {"board": "back", "variant": "eseidel", "empty_dungeon": "end", "empty_bag": "end"},
        {"gold_bonus": "later", "gem_discount": "turn"},
    )


__all__ = ["COLOURS", "Clank", "ClankBoard", "ClankEngine"]
