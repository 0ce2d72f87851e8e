"""Clank!'s own state invariants, beyond the core's "every piece exactly once".

Each problem names where it is (``$.players[1].supply``) and what is wrong,
so a hand-edited snapshot that breaks a rule fails ``meeple validate`` with a
message a person can act on.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

from meeple.plugins.clank.dragon import COLOURS, DRAGON
from meeple.plugins.clank.state import Turn

if TYPE_CHECKING:
    from meeple.plugins.clank.part import S
    from meeple.plugins.clank.rules import ClankEngine

CARD_ZONES = ("deck", "hand", "play", "discard")
TOKEN_ZONES = ("held",)


def check(game: ClankEngine[S], state: S) -> list[str]:
    cat = game.cat
    t = cat.tables
    graph = game.graph(state)
    problems: list[str] = []
    if len(state.players) != state.seats:
        return [f"$.players: {len(state.players)} seats' areas for {state.seats} seats"]
    bag = state.bag.cubes
    colours = game.bag_colours(state.seats)
    for colour, n in bag.items():
        if colour not in colours:
            problems.append(f"$.bag.cubes: colour {colour!r} is not in a {state.seats}-seat game")
        elif n < 0:
            problems.append(f"$.bag.cubes.{colour}: {n} cubes")
    for seat, p in enumerate(state.players):
        at = f"$.players[{seat}]"
        counts = {
            "supply": p.supply,
            "clank": p.clank,
            "damage": p.damage,
            "aside": p.aside,
            "gold": p.gold,
        }
        for name, n in counts.items():
            if n < 0:
                problems.append(f"{at}.{name}: {n}, never negative")
        total = p.supply + p.clank + p.damage + p.aside + bag.get(COLOURS[seat], 0)
        total += game.cubes_placed(state, seat)
        if total != t.cubes:
            problems.append(
                f"{at}: {total} cubes across supply, Clank! area, bag, meter, set-aside "
                "and the map; "
                f"each seat has {t.cubes}"
            )
        if p.damage > t.health:
            problems.append(f"{at}.damage: {p.damage} on a meter of {t.health}")
        if p.status == "in" and p.damage >= t.health:
            problems.append(f"{at}: a full meter, but still in the dungeon")
        if p.room not in graph.rooms:
            problems.append(f"{at}.room: no room {p.room} on the {graph.board.name} board")
        for zone in (p.deck, p.hand, p.play, p.discard, p.held):
            if zone.owner != seat:
                problems.append(f"{at}.{zone.kind}: owned by seat {zone.owner}")
        for zone in (p.deck, p.hand, p.play, p.discard):
            wrong = [c for c in zone.cards if c not in cat.card]
            if wrong:
                problems.append(f"{at}.{zone.kind}: tokens among the cards: {wrong[:3]}")
        if any(c not in cat.token for c in p.held.cards):
            problems.append(f"{at}.held: cards among the tokens")
        if p.status == "in" and seat in state.turns.left:
            problems.append(f"{at}: in the dungeon but out of the turn order")
    dragons = bag.get(DRAGON, 0) + state.dragon_aside
    if dragons != t.dragon_cubes or state.dragon_aside < 0:
        problems.append(
            f"$.bag: {dragons} dragon cubes in the bag and set aside; there are {t.dragon_cubes}"
        )
    if not 0 <= state.rage < len(t.rage_track):
        problems.append(f"$.rage: {state.rage} is off the rage track (0-{len(t.rage_track) - 1})")
    if len(state.rooms) != len(graph.order):
        problems.append(f"$.rooms: {len(state.rooms)} rooms, the board has {len(graph.order)}")
    if len(state.row) > t.row:
        problems.append(f"$.row: {len(state.row)} cards, the row holds {t.row}")
    pool = state.pool
    for name in ("skill", "swords", "boots", "teleports", "banked", "added"):
        if getattr(pool, name) < 0:
            problems.append(f"$.pool.{name}: {getattr(pool, name)}, never negative")
    if state.countdown_seat is not None and not 0 <= state.countdown_seat < state.seats:
        problems.append(f"$.countdown_seat: seat {state.countdown_seat} does not exist")
    if state.turns.last_round:
        problems.append(
            "$.turns.last_round: true, but the game ends when every seat is out, never by a "
            "last round (rules.md#game-end)"
        )
    if state.turns.over and any(p.status == "in" for p in state.players):
        problems.append("$.turns.over: true, but seats are still in (rules.md#game-end)")
    problems.extend(check_homes(game, state))
    problems.extend(check_stack(game, state))
    return problems


def only(path: str, cards: list[str], allowed: Container[str], what: str) -> list[str]:
    """A problem if a piece of ``cards`` is not among ``allowed`` (described as ``what``)."""
    wrong = [c for c in cards if c not in allowed]
    return [f"{path}: {', '.join(wrong[:3])} cannot lie here (only {what})"] if wrong else []


def check_homes(game: ClankEngine[S], state: S) -> list[str]:
    """rules.md#components: each shared zone holds only the pieces the rules put there, so
    a card moved into a zone of another kind is refused (the rules would look it up there).
    The box may hold any piece: nothing comes back out of it."""
    cat = game.cat
    tokens = cat.token
    problems = []
    # The Dungeon Deck, the row it refills and its discard pile are only asked for cards:
    # every card shares its back, so a view's determinization may deal a seat's unseen
    # starter card into the face-down deck, and from there it reaches the row.
    for name in ("dungeon", "row", "dungeon_discard"):
        problems += only(f"$.{name}", getattr(state, name).cards, cat.card, "cards")
    if len(state.reserve) != len(cat.reserve):
        problems.append(
            f"$.reserve: {len(state.reserve)} piles, the Reserve has {len(cat.reserve)}"
        )
    else:
        for i, (zone, pile) in enumerate(zip(state.reserve, cat.reserve, strict=True)):
            problems += only(f"$.reserve[{i}]", zone.cards, set(pile), f"{pile[0]} and its copies")
    for i, zone in enumerate(state.rooms):
        problems += only(f"$.rooms[{i}]", zone.cards, tokens, "tokens")
    for name, kind in (("market", "market"), ("mastery", "mastery")):
        kept = set(cat.by_kind.get(kind, ()))
        problems += only(f"$.{name}", getattr(state, name).cards, kept, f"{kind} tokens")
    problems += only("$.spent", state.spent.cards, tokens, "tokens")
    problems += only("$.trash", state.trash.cards, cat.card, "cards")
    return problems


def check_stack(game: ClankEngine[S], state: S) -> list[str]:
    """The pending decisions: a turn at the bottom, every frame the turn seat's (or one a
    seat takes for itself, :meth:`~.rules.ClankEngine.own_decision`), a seat in."""
    stack = state.stack
    if not stack:
        if any(p.status == "in" for p in state.players):
            return ["$.stack: no decision pending, but seats are still in the dungeon"]
        return []
    seat = state.turns.current
    problems = []
    if type(stack[0]) is not Turn or any(type(f) is Turn for f in stack[1:]):
        problems.append("$.stack: the turn is the bottom decision, and the only turn")
    if any(f.seat != seat and not game.own_decision(f) for f in stack):
        problems.append(f"$.stack: a decision for a seat other than seat {seat}, whose turn it is")
    if state.players[seat].status in ("rescued", "eliminated"):
        problems.append(f"$.turns.current: seat {seat} is knocked out but has the turn")
    return problems
