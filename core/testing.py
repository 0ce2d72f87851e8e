"""The conformance suite: what every game must satisfy, as a library for its tests.

A game gets these checks for free; a plugin's test module needs a few lines::

    import pytest
    from meeple.core import testing
    from my_game import MyGame

    @pytest.mark.parametrize("case", testing.cases(MyGame, games=200), ids=str)
    def test_conformance(case):
        testing.playthrough(case.game(MyGame), case)

Each playthrough is a seeded game of uniformly random legal actions. After
every action the state passes :meth:`~meeple.core.game.Game.check_state`
(and the ``meeple_validate_state`` hooks), round-trips through a snapshot
file, and has clones that are independent of it; at the end the game's
record replays to the same digest. The legal actions offered are distinct
(and hashable). Every action taken, and one more legal action sampled at
each step, must change the state beyond closing the decision it answers,
unless its type is among the game's declared passes and ends
(:attr:`~meeple.core.game.Game.passes`): an option that does nothing is one a
player should never be offered. On the games a case marks with
``views``, every seat's view is checked at every step: its JSON holds no
card id that seat may not see (the leak test), and determinizing it gives
a valid state that the seat cannot tell from the view.

A failure raises :class:`ConformanceError` (an ``AssertionError``) naming
the game, seats, seed and step, so ``Case(seats, seed)`` reproduces it.
pytest is not needed to use this module.

:func:`scenario` builds the exact situation a rule's test starts from.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from meeple.core import records, validate
from meeple.core.bots import Bot, Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.errors import InvalidFile
from meeple.core.game import Game
from meeple.core.rng import Stream
from meeple.core.state import Frame, State
from meeple.core.zones import Survey, Zone, iter_zones, json_path, place_of, sees

S = TypeVar("S", bound=State)

MAX_STEPS = 100_000
"""Decisions after which a random playthrough counts as a game that does not end."""

_JSON_STRING = re.compile(rb'"((?:[^"\\]|\\.)*)"')


class ConformanceError(AssertionError):
    """A game broke one of the core's contracts."""


@dataclass(frozen=True)
class Case:
    """One seeded random playthrough; ``views`` adds the view checks at every step.

    ``options`` (pairs of option name and value) picks one of the game's
    :attr:`~meeple.core.game.Game.variants`; :meth:`game` builds the game with it.
    """

    seats: int
    seed: int
    views: bool = True
    options: tuple[tuple[str, Any], ...] = ()

    def game(self, game: type[Game[Any, Any]]) -> Game[Any, Any]:
        return game(msgspec.convert(dict(self.options), game.options_type))

    def __str__(self) -> str:
        chosen = "".join(f"-{k}={v}" for k, v in self.options)
        return f"{self.seats}seats-seed{self.seed}{chosen}" + ("-views" if self.views else "")


def cases(game: type[Game[Any, Any]], games: int = 200, *, views_every: int = 1) -> list[Case]:
    """``games`` cases spread evenly over the game's seat counts and option variants.

    Cases go round every combination of seat count and variant in turn, so
    ``len(seat counts) * len(variants)`` cases cover each once. About every
    ``views_every``-th case also checks the views; raise it to trade some of
    the (slower) view checks for speed on a large game. The view checks turn
    over seat counts, variants and rounds together (case ``i`` has them when
    its seat count index + variant index + round is a multiple of
    ``views_every``), so with ``views_every`` at most the number of seat
    counts one round checks views in every variant, and ``views_every``
    rounds check them at every combination.
    """
    counts = range(game.min_seats, game.max_seats + 1)
    variants = [tuple(sorted(v.items())) for v in game.variants]
    every = max(views_every, 1)
    chosen = []
    for i in range(games):
        seat, variant = i % len(counts), i // len(counts) % len(variants)
        round_ = i // (len(counts) * len(variants))
        views = (seat + variant + round_) % every == 0
        chosen.append(Case(counts[seat], i, views=views, options=variants[variant]))
    return chosen


def playthrough(
    game: Game[Any, Any],
    case: Case,
    *,
    hooks: Hooks | None = None,
    max_steps: int = MAX_STEPS,
    bots: Mapping[int, Bot] | None = None,
    each_step: Callable[[int], object] | None = None,
) -> Match:
    """Play ``case`` with random legal actions, checking every contract; returns the match.

    A seat in ``bots`` is played by that bot instead, through a :class:`Prompt` of its
    seat as in a real game: its choices must be legal, and the checks cover the states
    it leads to. ``each_step`` is called with the step number before each step's checks
    (``meeple check`` restarts a watchdog there).
    """
    bots = bots or {}
    hooks = hooks if hooks is not None else Hooks(None)
    where = f"{game.id} with {case.seats} seats, seed {case.seed}"
    match = Match.new(game, case.seats, case.seed, hooks)
    setup = records.Setup(
        game=game.id,
        version=game.version,
        seats=["random"] * case.seats,
        seed=case.seed,
        options=game.options,
    )
    chooser = Stream(f"conformance/{case.seed}")
    state = match.state
    while True:
        step = len(match.actions)
        if each_step is not None:
            each_step(step)
        at = f"{where}, after step {step}"
        check_state(game, state, hooks, at)
        digest = game.digest(state)
        before = check_round_trip(game, setup, step, state, at)
        check_clone(game, state, chooser, at)
        if case.views:
            for seat in (*range(case.seats), None):
                check_view(game, state, seat, Stream(f"determinize/{case.seed}/{step}"), at)
        if game.digest(state) != digest:
            raise ConformanceError(f"{at}: checking the state changed it (view, clone or encode)")
        legal = match.legal()
        if match.over:
            if legal:
                raise ConformanceError(
                    f"{at}: the game is over but lists {len(legal)} legal actions"
                )
            break
        if not legal:
            raise ConformanceError(f"{at}: seat {state.to_move} is to move but has no legal action")
        if step >= max_steps:
            raise ConformanceError(f"{at}: the game did not end within {max_steps} decisions")
        check_legal(game, state, legal, at)
        seat = state.stack[-1].seat
        bot = bots.get(seat)
        if bot is None:
            action = chooser.choice(legal)
        else:
            action = bot.choose(Prompt.of(game, state, seat, legal))
        if action not in legal:
            raise ConformanceError(f"{at}: seat {seat}'s bot chose an action that is not legal")
        match.step(action)
        check_changes(game, before, state, action, at)
    check_scores(game, match, where)
    check_replay(game, setup, match, hooks, where)
    return match


def check_state(game: Game[Any, Any], state: State, hooks: Hooks, at: str) -> None:
    """The state passes the game's checks and the ``meeple_validate_state`` hooks."""
    problems = validate.state_problems(game, state, hooks)
    if problems:
        raise ConformanceError(f"{at}: the state fails its checks: " + "; ".join(problems))


def check_round_trip(
    game: Game[Any, Any], setup: records.Setup[Any], step: int, state: State, at: str
) -> State:
    """A snapshot file of ``state`` decodes strictly to an equal state with the same digest
    (returned: a copy of ``state`` as it stands)."""
    data = records.encode(records.Snapshot(setup=setup, step=step, state=state))
    try:
        back = records.decode(data, type(game), records.SNAPSHOT, "<snapshot>").state
    except InvalidFile as exc:
        raise ConformanceError(f"{at}: a snapshot does not decode: {exc}") from None
    if back != state or game.digest(back) != game.digest(state):
        raise ConformanceError(f"{at}: a snapshot decodes to a different state")
    return back


def check_clone(game: Game[Any, Any], state: State, stream: Stream, at: str) -> None:
    """A clone equals the state; changing it (a legal action, every zone) leaves the state be."""
    before = game.digest(state)
    clone = game.clone(state)
    if clone != state or game.digest(clone) != before:
        raise ConformanceError(f"{at}: a clone differs from the state it copies")
    legal = game.legal_actions(clone)
    if legal:
        action = stream.choice(legal)
        game.resolve(clone, action)
        if game.digest(state) == before:  # a shared state is told below
            check_changes(game, state, clone, action, at)
    for zone in iter_zones(clone):
        zone.add("<changed>")
    clone.rng.counter += 1
    clone.stack.clear()
    if game.digest(state) != before:
        raise ConformanceError(f"{at}: changing a clone changed the original state")


def check_changes(game: Game[Any, Any], before: State, after: State, action: Any, at: str) -> None:
    """``action`` took ``before`` to ``after`` and did more than close the decision it
    answered, unless the game declares its type a pass or an end."""
    if isinstance(action, game.passes) or not only_closes(before, after):
        return
    said = game.presentation.describe_action(before, action)
    raise ConformanceError(
        f"{at}: {said!r} is offered but changes nothing "
        "beyond closing the decision (an empty option); list its type in the game's "
        "passes if it is a pass or an end"
    )


def check_legal(game: Game[Any, Any], state: State, legal: Sequence[Any], at: str) -> None:
    """The legal actions are hashable (search bots key their trees by action) and distinct:
    an action offered twice is one choice that random play and bots take twice as often."""
    try:
        distinct = len(set(legal))
    except TypeError as exc:
        raise ConformanceError(
            f"{at}: the legal actions cannot be told apart by hash ({exc}); give actions "
            "fields that hash: tuples, not lists"
        ) from None
    if distinct == len(legal):
        return
    action, n = Counter(legal).most_common(1)[0]
    said = game.presentation.describe_action(state, action)
    raise ConformanceError(
        f"{at}: {len(legal) - distinct} of the {len(legal)} legal actions repeat others, "
        f"{said!r} among them ({n} times); offer each once"
    )


def only_closes(before: State, after: State) -> bool:
    """Whether ``after`` is ``before`` with at most some of its frames removed."""
    kept = iter(before.stack)
    if not all(frame in kept for frame in after.stack):  # a subsequence, in order
        return False
    return msgspec.structs.replace(before, stack=[]) == msgspec.structs.replace(after, stack=[])


def check_view(
    game: Game[Any, Any], state: State, seat: int | None, stream: Stream, at: str
) -> None:
    """``seat``'s view leaks no card it may not see, nor do the legal actions offered to it,
    and the view determinizes into a valid state.

    A seat reads its legal actions as it reads its view (a bot's :class:`Prompt` holds both):
    an action naming a face-down card tells which card it is.
    """
    who = "an onlooker" if seat is None else f"seat {seat}"
    view = game.view(state, seat)
    leaked = sorted(leaks(game, state, seat, msgspec.json.encode(view)))
    if leaked:
        raise ConformanceError(
            f"{at}: the view of {who} shows card(s) it may not see: {_cards_at(state, leaked)}"
        )
    if seat is not None and seat == state.to_move:
        named = sorted(leaks(game, state, seat, msgspec.json.encode(game.legal_actions(state))))
        if named:
            raise ConformanceError(
                f"{at}: the legal actions offered to {who} name card(s) it may not see: "
                + _cards_at(state, named)
            )
    if state.rng.seed and view.rng.seed == state.rng.seed:
        raise ConformanceError(f"{at}: the view of {who} holds the random seed")
    full = game.determinize(view, stream)
    problems = game.check_state(full)
    if problems:
        raise ConformanceError(
            f"{at}: determinizing the view of {who} gives an invalid state: " + "; ".join(problems)
        )
    again = game.view(full, seat)
    if again != view:
        differ = [
            _describe_zone(a)
            for a, b in zip(iter_zones(view), iter_zones(again), strict=False)
            if a != b
        ]
        raise ConformanceError(
            f"{at}: determinizing the view of {who} changed what it sees: "
            + (", ".join(differ) if differ else "fields outside the zones")
        )


def leaks(game: Game[Any, Any], state: State, seat: int | None, encoded: bytes) -> set[str]:
    """The card ids in ``encoded`` (a view's JSON) that ``seat`` may not see in ``state``.

    A card counts as seen when any copy of it lies where the seat sees it.
    The JSON is split into whole strings, so an id that is part of another
    id or text never counts as present.
    """
    visibility = game.zones
    allowed: set[str] = set()
    for zone in iter_zones(state):
        vis = visibility[zone.kind]
        allowed.update(c for i, c in enumerate(zone.cards) if sees(vis, zone, seat, i))
    hidden = set(game.cards(state)) - allowed
    if not hidden:
        return set()
    found = {m.decode("utf-8", "replace") for m in _JSON_STRING.findall(encoded)}
    return hidden & found


def check_scores(game: Game[Any, Any], match: Match, where: str) -> None:
    """One score per seat, in seat order, each total the sum of its parts."""
    scores = match.scores()
    if [s.seat for s in scores] != list(range(match.state.seats)):
        raise ConformanceError(
            f"{where}: scores must list seats 0-{match.state.seats - 1} in order"
        )
    for s in scores:
        if s.parts and sum(s.parts.values()) != s.total:
            raise ConformanceError(
                f"{where}: seat {s.seat}'s total {s.total} is not the sum of its parts {s.parts}"
            )


def check_replay(
    game: Game[Any, Any], setup: records.Setup[Any], match: Match, hooks: Hooks, where: str
) -> None:
    """The match's record, written and read back, replays on a fresh game to the same end."""
    record = records.Record(
        setup=setup,
        actions=match.actions,
        over=match.over,
        digest=game.digest(match.state),
        scores=match.scores() if match.over else None,
    )
    fresh = type(game)(game.options)
    try:
        value = records.decode(records.encode(record), type(game), records.RECORD, "<record>")
        loaded = validate.Loaded("<record>", records.RECORD, fresh, game.id, value)
        validate.replay(loaded, hooks)
    except InvalidFile as exc:
        raise ConformanceError(f"{where}: the record does not replay identically: {exc}") from None


def check_game(
    game: Game[Any, Any], games: int = 200, *, hooks: Hooks | None = None, views_every: int = 1
) -> int:
    """Run :func:`playthrough` on every case of :func:`cases` with ``game`` as given
    (its own options, not the variants); returns the decisions played."""
    return sum(
        len(playthrough(game, case, hooks=hooks).actions)
        for case in cases(type(game), games, views_every=views_every)
    )


def _cards_at(state: State, cards: Sequence[str]) -> str:
    """The first few of ``cards``, each with the zone it lies in."""
    return ", ".join(f"{card} ({_zone_of(state, card)})" for card in cards[:5])


def _zone_of(state: State, card: str) -> str:
    for zone in iter_zones(state):
        if card in zone.cards:
            return _describe_zone(zone)
    return "in no zone"


def _describe_zone(zone: Any) -> str:
    owner = f" of seat {zone.owner}" if zone.owner is not None else ""
    return f"zone {zone.kind!r}{owner}"


def scenario(
    game: Game[S, Any],
    fields: Mapping[str, object] = {},
    /,
    *,
    seats: int = 2,
    seed: int = 1,
    state: S | None = None,
    top: Mapping[str, Sequence[str]] = {},
    bottom: Mapping[str, Sequence[str]] = {},
    down: Collection[str] = (),
    edit: Callable[[S], object] | None = None,
    to_move: int | None = None,
    stack: Sequence[Frame] | None = None,
    hooks: Hooks | None = None,
) -> S:
    """An exact situation of ``game``: a real set-up (or ``state``, changed in place) with
    the named cards where a test wants them, some values set and the decision pending.

    Example, for the game ``meeple new race`` writes::

        state = testing.scenario(
            game,
            {"hands": {0: ["c6a"], 1: ["c2a", "c5b"]}, "turns.round": 3},  # a 6 against 2, 5
            top={"deck": ["c1a"]},  # and seat 0 draws a 1 next
            to_move=0,
        )

    - ``fields`` sets values by their path in the state, as ``meeple validate`` names
      them (``"players[1].gold"``; ``$.`` may lead). A zone's value is exactly the cards
      it holds, bottom first; each card it held that is not named goes under the pile
      the game's :meth:`~meeple.core.game.Game.displaced` names. A mapping sets the
      fields of a struct (``{"players[1]": {"hand": [], "gold": 3}}``) or, keyed by
      index, the items of a list (``{"hands": {0: [], 1: ["c2a"]}}``), and ``[*]``
      stands for every index of a list (``"hands[*]"``), which a path naming one index
      overrides.
    - ``top`` and ``bottom`` lay cards, bottom first, on or under a zone's own.
    - Every named card is taken from wherever it lay, so each card still lies in exactly
      one zone; the cards in ``down`` lie face down (in a zone that has facing).
    - ``edit`` may then change the state in any way.
    - ``to_move`` makes it that seat's turn: ``turns.current``, and the pending decision
      passed to it unless ``stack`` gives the pending decisions, bottom first.

    The state must then pass :meth:`~meeple.core.game.Game.check_state` and the
    ``meeple_validate_state`` hooks of ``hooks``: if not, :class:`ConformanceError` lists
    the problems, each with its path. A path that leads nowhere, a card that is not the
    game's or is named more often than it has copies, or a card with nowhere to go raises
    :class:`ValueError` naming each.
    """
    if state is None:
        state = game.setup(seats, seed)
    zones = {json_path(path)[2:]: zone for path, zone in Survey(state).zones}
    problems: list[str] = []
    values: dict[str, tuple[Any, str | int, object]] = {}
    for key, value in sorted(fields.items(), key=lambda item: "[*]" not in item[0]):
        _resolve(state, key, value, values, problems)
    exact: dict[str, Sequence[str]] = {}
    for name, (_, _, value) in values.items():
        if name not in zones:
            continue
        if isinstance(value, Sequence) and not isinstance(value, str):
            exact[name] = value
        else:
            problems.append(f"{name!r} is a zone: give it a list of cards, not {value!r}")
    placed = [
        *((name, named, "exact") for name, named in exact.items()),
        *(
            (name, named, "top")
            for key, named in top.items()
            for name in _zone(key, zones, problems)
        ),
        *(
            (name, named, "bottom")
            for key, named in bottom.items()
            for name in _zone(key, zones, problems)
        ),
    ]
    copies = Counter(game.cards(state))
    wanted = Counter(card for _, named, _ in placed for card in named)
    for card, n in sorted(wanted.items()):
        if card not in copies:
            problems.append(f"card {card!r} is not a card of {game.title}")
        elif n > copies[card]:
            problems.append(
                f"card {card!r} is named {n} times, but {game.title} has {copies[card]}"
            )
    _raise_value(problems)
    _raise_value(_lay(game, state, zones, placed, down))
    for name, (parent, step, value) in values.items():
        if name not in zones:
            if isinstance(step, int):
                parent[step] = value
            else:
                setattr(parent, step, value)
    if edit is not None:
        edit(state)
    if to_move is not None:
        state.turns.current = to_move
        if stack is None and state.stack:
            state.stack[-1] = msgspec.structs.replace(state.stack[-1], seat=to_move)
    if stack is not None:
        state.stack = list(stack)
    try:
        msgspec.json.decode(msgspec.json.encode(state), type=type(state))
    except msgspec.ValidationError as exc:
        raise ConformanceError(f"the scenario's state does not decode: {exc}") from None
    check_state(game, state, hooks if hooks is not None else Hooks(None), "the scenario")
    return state


def _lay(
    game: Game[S, Any],
    state: S,
    zones: Mapping[str, Zone],
    placed: Sequence[tuple[str, Sequence[str], str]],
    down: Collection[str],
) -> list[str]:
    """Move each named card from wherever it lies to where ``placed`` puts it (``exact``:
    the zone's only cards, the others displaced; ``top``; ``bottom``); the problems found."""
    for card, n in Counter(card for _, named, _ in placed for card in named).items():
        for zone in iter_zones(state):
            while n and card in zone.cards:
                zone.remove(card)
                n -= 1
    exact = [zones[name] for name, _, at in placed if at == "exact"]
    problems = []
    for name, _, at in placed:
        for card in zones[name].take() if at == "exact" else ():
            spare = game.displaced(state, zones[name], card)
            if spare is None or any(spare is zone for zone in exact):
                problems.append(
                    f"card {card!r} lay in {name}, which must hold only the named cards, and "
                    f"{game.title}'s displaced() gives it "
                    + ("no zone to go to" if spare is None else "a zone that must hold only them")
                    + "; name where it lies instead"
                )
            else:
                spare.put_under(card, up=False)
    if not problems:
        for name, named, at in placed:
            zone = zones[name]
            for card in named if at != "bottom" else reversed(named):
                (zone.put_under if at == "bottom" else zone.add)(card, card not in down)
    return problems


_STEP = re.compile(r"\.?([A-Za-z_]\w*)|\[(\d+|\*)\]")
_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[(?:\d+|\*)\])*")


_Places = list[tuple[str, Any, str | int, Any]]
"""Places a path reaches: each one's path, the struct or list holding it, its field or
index there, and its value."""


def _resolve(
    state: State,
    key: str,
    value: object,
    into: dict[str, tuple[Any, str | int, object]],
    problems: list[str],
) -> None:
    """Add to ``into`` what ``key`` names -- by its concrete path: the struct or list
    holding it, its field or index, and ``value`` -- or a problem naming the step missing.

    A ``[*]`` step stands for every index; a mapping set on a struct sets its fields,
    one set on a list (keyed by index) its items.
    """
    key = key.removeprefix("$").removeprefix(".")
    if not _PATH.fullmatch(key):
        problems.append(f"{key!r} is not a path like 'players[0].gold'")
        return
    found: _Places = [("", None, "", state)]
    for field, index in _STEP.findall(key):
        step: str | int = field or ("*" if index == "*" else int(index))
        reached: _Places = []
        for path, _, _, here in found:
            if step == "*" and isinstance(here, list):
                reached += [(f"{path}[{i}]", here, i, item) for i, item in enumerate(here)]
            elif isinstance(step, int) and isinstance(here, list) and 0 <= step < len(here):
                reached.append((f"{path}[{step}]", here, step, here[step]))
            elif isinstance(step, str) and step in getattr(type(here), "__struct_fields__", ()):
                reached.append((f"{path}.{step}".lstrip("."), here, step, getattr(here, step)))
            else:
                names = getattr(type(here), "__struct_fields__", None)
                known = f" (its fields: {', '.join(names)})" if names else ""
                problems.append(f"{key!r}: {path or 'the state'} has no {step!r}{known}")
                return
        found = reached
    for path, parent, step, here in found:
        if isinstance(value, Mapping) and isinstance(here, list):
            for index, item in value.items():
                if isinstance(index, int) and not isinstance(index, bool):
                    _resolve(state, f"{path}[{index}]", item, into, problems)
                else:
                    problems.append(f"{key!r} is a list: key its mapping by index, not {index!r}")
        elif (
            isinstance(value, Mapping)
            and isinstance(here, msgspec.Struct)
            and not isinstance(here, Zone)
        ):
            for name, item in value.items():
                _resolve(state, f"{path}.{name}", item, into, problems)
        else:
            into[path] = (parent, step, value)


def _zone(key: str, zones: Mapping[str, Zone], problems: list[str]) -> list[str]:
    """The names of the zones ``key`` names (``[*]``: any index), or a problem saying so."""
    key = key.removeprefix("$").removeprefix(".")
    pattern = re.compile(re.escape(key).replace(r"\[\*\]", r"\[\d+\]"))
    found = [name for name in zones if pattern.fullmatch(name)]
    if not found:
        kinds = dict.fromkeys(json_path(place_of(_steps(name)))[2:] for name in zones)
        problems.append(f"no zone {key!r} in the state (its zones: {', '.join(kinds)})")
    return found


def _steps(name: str) -> tuple[str | int, ...]:
    """``"players[1].hand"`` -> ``("players", 1, "hand")``."""
    return tuple(field or int(index) for field, index in _STEP.findall(name))


def _raise_value(problems: list[str]) -> None:
    if problems:
        raise ValueError("the scenario names what is not there: " + "; ".join(problems))
