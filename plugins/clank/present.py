"""What people read: action and event phrases, the table as one seat sees it."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from meeple.core.state import Event
from meeple.core.zones import HIDDEN
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import state as st
from meeple.plugins.clank.content import Card, PointsIf, PointsPer

if TYPE_CHECKING:
    from meeple.plugins.clank.part import S
    from meeple.plugins.clank.rules import ClankEngine


def name(game: ClankEngine[Any], piece: str) -> str:
    """A piece's printed name (``Orc Grunt``), or ``a face-down minor`` for a hidden one."""
    if piece.startswith(HIDDEN):
        return f"a face-down {piece[len(HIDDEN) :] or 'card'}"
    cat = game.cat
    if piece in cat.card:
        return cat.card[piece].name
    token = cat.token.get(piece)
    if token is None:
        return piece
    return f"{token.name} ({cat.points[piece]})" if token.values else token.name


def tunnel_text(game: ClankEngine[S], state: S, tunnel: int, locks: str = "locked") -> str:
    """A tunnel's costs and icons; ``locks`` says a locked one's locks."""
    t = game.graph(state).tunnels[tunnel]
    marks = [f"{t.boots} boot" + ("s" if t.boots > 1 else "")]
    if t.monsters:
        marks.append(f"{t.monsters} monster" + ("s" if t.monsters > 1 else ""))
    if t.locked:
        marks.append(locks)
    if t.one_way:
        marks.append("one-way")
    return ", ".join(marks)


def describe_action(game: ClankEngine[S], state: S, action: Any) -> str:
    kind = type(action)
    if kind is st.Play:
        return f"play {name(game, action.card)}"
    if kind is st.Acquire:
        return f"acquire {name(game, action.card)} ({game.cat.card[action.card].cost} skill)"
    if kind is st.UseDevice:
        return f"use {name(game, action.card)} ({game.cat.card[action.card].cost} skill)"
    if kind is st.Fight:
        return f"fight {name(game, action.card)} ({game.cat.card[action.card].cost} swords)"
    if kind is st.Buy:
        return f"buy a {action.item} at the market"
    if kind is st.Move:
        spend = f", spending {action.swords} swords" if action.swords else ""
        to = game.room_name(state, action.to)
        return f"move to {to} ({tunnel_text(game, state, action.tunnel)}{spend})"
    if kind is st.Teleport:
        return f"teleport to {game.room_name(state, action.to)}"
    if kind is st.UseToken:
        return f"use {name(game, action.token)}"
    if kind is st.EndTurn:
        return "end the turn"
    if kind is st.Take:
        return f"take {name(game, action.token)}"
    if kind is st.Skip:
        return "decline"
    if kind is st.Pick:
        return f"choose option {action.option + 1}" + _option(state, action.option)
    if kind is st.TrashCard:
        return f"trash {name(game, action.card)}"
    if kind is st.DiscardCard:
        return f"discard {name(game, action.card)}"
    if kind is st.Replace:
        return f"replace {name(game, action.card)} in the row"
    return repr(action)


def _option(state: st.EngineState[Any, Any], i: int) -> str:
    frame = state.stack[-1] if state.stack else None
    if isinstance(frame, st.ChooseOne) and i < len(frame.options):
        return ": " + effects_text(frame.options[i])
    return ""


CONDITIONS = {
    "artifact": "with an artifact",
    "crown": "with a crown",
    "monkey-idol": "with a Monkey Idol",
    "companion-in-play": "with another companion in play",
    "mastery": "with a Mastery token",
}
"""How texts say a condition (``with a crown``): a game adds the words of its own conditions
next to them; one it does not name reads ``if made 2 clank``."""
MODIFIERS = {
    "gem-discount-2": "gems cost 2 less this turn",
    "gold-bonus-1": "+1 gold on each gold gain this turn",
    "no-crystal-exhaust": "crystal caves don't stop you this turn",
    "ignore-tunnel-monsters": "tunnel monsters don't hurt this turn",
    "skill-per-clank": "+1 skill per clank you add this turn",
}


def effects_text(effects: list[Any]) -> str:
    return ", ".join(effect_text(e) for e in effects)


def condition_text(cond: str) -> str:
    """A condition in words (:data:`CONDITIONS`)."""
    return CONDITIONS.get(cond, "if " + cond.replace("-", " "))


@functools.singledispatch
def effect_text(e: Any) -> str:
    """An effect or a points rule in a few words (``2 skill, +1 clank``, ``trash a card``).

    Each effect type registers its text (``@effect_text.register``), the engine's here and a
    game's or a pack's next to its types; a type reads as its nearest registered base.
    """
    return repr(e)


def plural(n: int, word: str) -> str:
    """``1 Lockpick``, ``2 Lockpicks``."""
    return f"{n} {word}" + ("s" if n > 1 else "")


@effect_text.register
def _gain(e: fx.Gain) -> str:
    words = [f"{getattr(e, r)} {r}" for r in ("skill", "swords", "boots", "gold") if getattr(e, r)]
    words += [f"{e.clank:+d} clank"] if e.clank else []
    words += [f"draw {e.draw}"] if e.draw else []
    words += [f"heal {e.heal}"] if e.heal else []
    words += ["teleport"] * e.teleport
    words += [f"+{e.rage} rage"] if e.rage else []
    return ", ".join(words)


@effect_text.register
def _others_clank(e: fx.OthersClank) -> str:
    return f"others +{e.n} clank"


@effect_text.register
def _all_clank(e: fx.AllClank) -> str:
    return f"everyone +{e.n} clank"


@effect_text.register
def _choose(e: fx.Choose) -> str:
    return "choose: " + " or ".join(effects_text(o) for o in e.options)


@effect_text.register
def _if(e: fx.If) -> str:
    return f"{condition_text(e.cond)}: {effects_text(e.then)}"


@effect_text.register
def _this_turn(e: fx.ThisTurn) -> str:
    return MODIFIERS[e.mod]


@effect_text.register
def _trash(e: fx.Trash) -> str:
    return ("may trash " if e.optional else "trash ") + (f"a {e.name}" if e.name else "a card")


@effect_text.register
def _discard_then(e: fx.DiscardThen) -> str:
    return f"discard a card, then {effects_text(e.then)}"


@effect_text.register
def _replace_row_card(e: fx.ReplaceRowCard) -> str:
    return "replace a Dungeon Row card"


@effect_text.register
def _dragon_attack(e: fx.DragonAttack) -> str:
    return "the dragon attacks"


@effect_text.register
def _return_dragon_cubes(e: fx.ReturnDragonCubes) -> str:
    return f"{e.n} set-aside dragon cubes back into the bag"


@effect_text.register
def _take_adjacent_secret(e: fx.TakeAdjacentSecret) -> str:
    return "take a secret from an adjacent room"


@effect_text.register
def _buy(e: fx.Buy) -> str:
    return f"pay {e.gold} gold for {e.n} {e.card}"


@effect_text.register
def _points_per(e: PointsPer) -> str:
    return f"+{e.points} points per {e.per.replace('-', ' ')}"


@effect_text.register
def _points_if(e: PointsIf) -> str:
    if e.cond == "mastery":
        return f"+{e.points} points with a Mastery token"
    return f"+{e.points} points with two of {', '.join(e.of)}"


def cube_text(cubes: list[str]) -> str:
    """Drawn cubes grouped by colour: ``3 dragon, 1 seat-2``."""
    counts: dict[str, int] = {}
    for cube in cubes:
        counts[cube] = counts.get(cube, 0) + 1
    return bag_text(counts)


def bag_text(counts: dict[str, int]) -> str:
    """Cubes by colour, as counts: ``24 dragon, 3 seat-0`` (``nothing`` when empty)."""
    return ", ".join(f"{n} {colour}" for colour, n in counts.items() if n) or "nothing"


def card_text(card: Card) -> str:
    """What a card does, by timing: ``play: 2 skill; acquire: 2 clank``."""
    timings = ("play", "acquire", "defeat", "use", "arrive")
    said = [
        f"{when}: " + effects_text(getattr(card, when)) for when in timings if getattr(card, when)
    ]
    if card.bonus is not None:
        said.append(effect_text(card.bonus))
    return " / ".join(said)


def describe_event(game: ClankEngine[Any], event: Event, viewer: int | None) -> str | None:
    who = f"seat {event.seat}" if event.seat is not None else "the dungeon"
    match event:
        case st.Drew(cards=cards):
            if viewer == event.seat:
                return f"{who} draws " + ", ".join(name(game, c) for c in cards)
            return f"{who} draws {len(cards)} card" + ("s" if len(cards) > 1 else "")
        case st.Played(card=card):
            return f"{who} plays {name(game, card)}"
        case st.Acquired(card=card, how=how):
            verb = {"acquire": "acquires", "use": "uses", "fight": "defeats", "gain": "gains"}
            return f"{who} {verb[how]} {name(game, card)}"
        case st.Bought(token=token):
            return f"{who} buys {name(game, token)}"
        case st.Moved(room=room, teleport=teleport, damage=damage):
            hurt = f", taking {damage} damage" if damage else ""
            return f"{who} {'teleports' if teleport else 'moves'} to room {room}{hurt}"
        case st.Took(token=token):
            return f"{who} takes {name(game, token)}"
        case st.Clanked(n=n):
            return f"{who} adds {n} clank" if n > 0 else f"{who} removes {-n} clank"
        case st.Attacked(cubes=cubes):
            return f"the dragon attacks and draws {cube_text(cubes)}"
        case st.Damaged(n=n):
            return f"{who} takes {n} damage"
        case st.Healed(n=n):
            return f"{who} heals {n}"
        case st.Out(status=status):
            return f"{who} is out: {status}"
        case st.Refilled(cards=cards):
            return "the row gets " + ", ".join(name(game, c) for c in cards)
        case st.Raged(rage=rage):
            return f"the dragon's rage rises to space {rage + 1}"
        case st.Countdown(space=space):
            return f"{who} moves to countdown space {space}"
        case st.Trashed(card=card):
            return f"{who} removes {name(game, card)}"
        case st.Discarded(card=card):
            return f"{who} discards {name(game, card)}"
        case st.Chose(option=option, effects=effects):
            chosen = effects_text(effects) or f"option {option + 1}"
            return f"{who} chooses {chosen}"
        case st.TurnEnded():
            return f"{who} ends the turn"
    return repr(event)


def seat_line(game: ClankEngine[S], state: S, seat: int) -> str:
    p = state.players[seat]
    held = ", ".join(name(game, t) for t in p.held.cards) or "no tokens"
    return (
        f"seat {seat}: {p.status}, room {p.room}, damage {p.damage}/{game.cat.health}, "
        f"clank {p.clank}, gold {p.gold}, {held}"
    )


def seat_summary(game: ClankEngine[S], state: S) -> list[str]:
    return [seat_line(game, state, s) for s in range(state.seats)]


def render(game: ClankEngine[S], view: S, seat: int | None) -> Any:
    """The seat's room and exits, the tokens there, the row, its hand and pool, the others."""
    cat = game.cat
    graph = game.graph(view)
    parts: list[Any] = []
    track = cat.tables.rage_track
    parts.append(
        Text(
            f"Rage space {view.rage + 1} ({track[view.rage]} cubes), "
            f"bag: {bag_text(view.bag.cubes)}, countdown {view.countdown or '-'}",
            style="bold red",
        )
    )
    row = Table(title="Dungeon Row and Reserve", show_header=True)
    for col in ("card", "kind", "cost", "points", "does", "flags"):
        row.add_column(col)
    tops = [z.cards[-1] for z in view.reserve if z.cards]
    for c in [*view.row.cards, *tops]:
        card = cat.card[c]
        flags = [f for f, on in (("dragon", card.dragon), ("danger", card.danger)) if on]
        if card.where:
            flags.append(f"only {card.where}")
        if card.reserve:
            flags.append("reserve")
        # Text, not markup: a card table may come from the user's file (--cards).
        cells = (card.name, card.kind, str(card.cost), str(card.points), card_text(card))
        row.add_row(*map(Text, cells), " ".join(flags))
    parts.append(row)
    if seat is not None:
        p = view.players[seat]
        room = graph.rooms[p.room]
        feats = [
            f
            for f, on in (
                ("outside the dungeon", room.start),
                ("depths", room.depths),
                ("crystal cave", room.crystal_cave),
                ("market", room.market),
                ("healing", room.heal),
            )
            if on
        ]
        parts.append(
            Text(f"You are in room {p.room} ({', '.join(feats) or 'plain'})", style="bold")
        )
        exits = Table(title="Exits")
        exits.add_column("to")
        exits.add_column("tunnel")
        for e in graph.exits[p.room]:
            exits.add_row(str(e.to), tunnel_text(game, view, e.tunnel))
        parts.append(exits)
        here = view.rooms[graph.index[p.room]].cards
        parts.append(Text("Tokens here: " + (", ".join(name(game, t) for t in here) or "none")))
        parts.append(Text("Hand: " + (", ".join(name(game, c) for c in p.hand.cards) or "empty")))
        pool = view.pool
        parts.append(
            Text(
                f"Pool: {pool.skill} skill, {pool.swords} swords, {pool.boots} boots, "
                f"{pool.teleports} teleports, {pool.banked} banked clank"
                + (", exhausted" if pool.exhausted else "")
                + (f", {', '.join(pool.mods)}" if pool.mods else "")
            )
        )
    parts.extend(Text(line) for line in seat_summary(game, view))
    return Group(*parts)
