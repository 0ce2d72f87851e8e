"""What people read: action and event phrases, the table as one seat sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from meeple.core.state import Event
from meeple.core.zones import HIDDEN
from meeple.plugins.clank import state as st

if TYPE_CHECKING:
    from meeple.plugins.clank.rules import Clank


def name(game: Clank, piece: str) -> str:
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


def tunnel_text(game: Clank, tunnel: int) -> str:
    t = game.cat.graph.tunnels[tunnel]
    marks = [f"{t.boots} boot" + ("s" if t.boots > 1 else "")]
    if t.monsters:
        marks.append(f"{t.monsters} monster" + ("s" if t.monsters > 1 else ""))
    if t.locked:
        marks.append("locked")
    if t.one_way:
        marks.append("one-way")
    return ", ".join(marks)


def describe_action(game: Clank, state: st.ClankState, action: Any) -> str:
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
        return f"move to room {action.to} ({tunnel_text(game, action.tunnel)}{spend})"
    if kind is st.Teleport:
        return f"teleport to room {action.to}"
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


def _option(state: st.ClankState, i: int) -> str:
    frame = state.stack[-1] if state.stack else None
    if isinstance(frame, st.ChooseOne) and i < len(frame.options):
        return ": " + "; ".join(effect_text(e) for e in frame.options[i])
    return ""


def effect_text(e: Any) -> str:
    """An effect in a few words (``2 gold``, ``trash a card``)."""
    fields = {k: v for k, v in ((f, getattr(e, f)) for f in e.__struct_fields__) if v}
    words = ", ".join(f"{v} {k}" if isinstance(v, int) else f"{k} {v}" for k, v in fields.items())
    return f"{e.__struct_config__.tag} {words}".strip()


def cube_text(cubes: list[str]) -> str:
    """Drawn cubes grouped by colour: ``3 dragon, 1 seat-2``."""
    counts: dict[str, int] = {}
    for cube in cubes:
        counts[cube] = counts.get(cube, 0) + 1
    return ", ".join(f"{n} {colour}" for colour, n in counts.items()) or "nothing"


def describe_event(game: Clank, event: Event, viewer: int | None) -> str | None:
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
            chosen = "; ".join(effect_text(e) for e in effects) or f"option {option + 1}"
            return f"{who} chooses {chosen}"
        case st.TurnEnded():
            return f"{who} ends the turn"
    return repr(event)


def seat_line(game: Clank, state: st.ClankState, seat: int) -> str:
    p = state.players[seat]
    held = ", ".join(name(game, t) for t in p.held.cards) or "no tokens"
    return (
        f"seat {seat}: {p.status}, room {p.room}, damage {p.damage}/{game.cat.health}, "
        f"clank {p.clank}, gold {p.gold}, {held}"
    )


def seat_summary(game: Clank, state: st.ClankState) -> list[str]:
    return [seat_line(game, state, s) for s in range(state.seats)]


def render(game: Clank, view: st.ClankState, seat: int | None) -> Any:
    """The seat's room and exits, the tokens there, the row, its hand and pool, the others."""
    cat = game.cat
    graph = cat.graph
    parts: list[Any] = []
    track = cat.tables.rage_track
    parts.append(
        Text(
            f"Rage space {view.rage + 1} ({track[view.rage]} cubes), bag {dict(view.bag.cubes)}, "
            f"countdown {view.countdown or '-'}",
            style="bold red",
        )
    )
    row = Table(title="Dungeon Row", show_header=True)
    for col in ("card", "kind", "cost", "points", "flags"):
        row.add_column(col)
    tops = [z.cards[-1] for z in view.reserve if z.cards]
    for c in [*view.row.cards, *tops]:
        card = cat.card[c]
        flags = [f for f, on in (("dragon", card.dragon), ("danger", card.danger)) if on]
        if card.where:
            flags.append(f"only {card.where}")
        if card.reserve:
            flags.append("reserve")
        row.add_row(card.name, card.kind, str(card.cost), str(card.points), " ".join(flags))
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
            exits.add_row(str(e.to), tunnel_text(game, e.tunnel))
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
