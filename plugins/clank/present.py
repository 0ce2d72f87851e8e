"""What people read of a game on the Clank! engine (:class:`ClankPresentation`): action and
event phrases, the table as one seat sees it.

The phrases are chosen by the type of what they word (``functools.singledispatch``):
:func:`action_words`, :func:`event_words`, :func:`effect_text`, and, by the state's type,
:func:`lock_text`, :func:`room_header` and :func:`exit_rows`. A game on the engine registers
its own types on them, or on dispatchers of its own whose default calls these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial, singledispatch
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.present import Presentation
from meeple.core.state import Action, Event
from meeple.core.zones import HIDDEN, Zone
from meeple.plugins.clank import drawing
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import state as st
from meeple.plugins.clank.content import Card, PointsIf, PointsPer, Tunnel
from meeple.plugins.clank.part import S

if TYPE_CHECKING:
    from meeple.plugins.clank.rules import ClankEngine

    AnyEngine: TypeAlias = ClankEngine[Any]
    """A game on the engine, over any state: what the phrases registered by type are given."""
    AnyState: TypeAlias = st.EngineState[Any, Any]
    """The state of any game on the engine."""

T = TypeVar("T")


def name(game: AnyEngine, piece: str) -> str:
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


def kind_name(game: AnyEngine, kind: str) -> str:
    """A token kind's printed name (``Burglar's Kit`` for ``burglars-kit``)."""
    return next(t.name for t in game.cat.tables.tokens if t.id == kind)


def where_text(where: str) -> str:
    """Where a card may be fought or used: ``in a crystal cave or at a Wayshrine``."""
    return " or ".join(
        CONDITIONS.get(f"in-{w}", f"in the {w.replace('-', ' ')}") for w in where.split("-or-")
    )


def tunnel_text(game: ClankEngine[S], state: S, tunnel: int) -> str:
    """A tunnel's costs and icons, its locks as :func:`lock_text` says them."""
    t = game.graph(state).tunnels[tunnel]
    return costs_text(t, lock_text(state, game, tunnel) if t.locked else "")


def costs_text(t: Tunnel, locks: str) -> str:
    """What a tunnel asks: ``2 boots, 1 monster, locked, one-way`` (``locks`` if locked)."""
    marks = [plural(t.boots, "boot")]
    if t.monsters:
        marks.append(plural(t.monsters, "monster"))
    if t.locked:
        marks.append(locks)
    if t.one_way:
        marks.append("one-way")
    return ", ".join(marks)


def alike(items: Sequence[T], item: T, said: Callable[[T], str]) -> str:
    """`` (2 of 3 alike)`` when ``item`` is the 2nd of 3 ``items`` that ``said`` words the
    same, else nothing. Copies of a token or card, or two tunnels to one room at one cost,
    are each a choice of their own, and a decision lists each, told apart so."""
    words = said(item)
    same = [i for i in items if said(i) == words]
    if len(same) < 2 or item not in same:
        return ""
    return f" ({same.index(item) + 1} of {len(same)} alike)"


def holding(zones: Iterable[Zone], piece: str) -> list[str]:
    """The pieces of the zone among ``zones`` that holds ``piece`` (none if none does)."""
    return next((z.cards for z in zones if piece in z.cards), [])


def plural(n: int, word: str) -> str:
    """``1 boot``, ``2 boots``."""
    return f"{n} {word}" + ("s" if n != 1 else "")


@singledispatch
def lock_text(state: AnyState, game: AnyEngine, tunnel: int) -> str:
    """How a locked tunnel's locks read, from the function registered for the state's type:
    Clank!'s stay locked (a Master Key passes them); a game whose locks open registers its own.
    """
    return "locked"


@singledispatch
def action_words(action: Action, game: AnyEngine, state: AnyState) -> str:
    """A short phrase for ``action``, from the function registered for its type.

    A game on the engine registers its own action types on a dispatcher of its own whose
    default is this one, so its words never need the engine's files or strings changed.
    """
    return repr(action)


@action_words.register(st.Play)
def _(action: st.Play, game: AnyEngine, state: AnyState) -> str:
    return f"play {name(game, action.card)}"


@action_words.register(st.Acquire)
def _(action: st.Acquire, game: AnyEngine, state: AnyState) -> str:
    return f"acquire {name(game, action.card)} ({game.cat.card[action.card].cost} skill)"


@action_words.register(st.UseDevice)
def _(action: st.UseDevice, game: AnyEngine, state: AnyState) -> str:
    return f"use {name(game, action.card)} ({game.cat.card[action.card].cost} skill)"


@action_words.register(st.Fight)
def _(action: st.Fight, game: AnyEngine, state: AnyState) -> str:
    return f"fight {name(game, action.card)} ({game.cat.card[action.card].cost} swords)"


@action_words.register(st.Buy)
def _(action: st.Buy, game: AnyEngine, state: AnyState) -> str:
    return f"buy a {kind_name(game, action.item)} at the market"


@action_words.register(st.Move)
def _(action: st.Move, game: AnyEngine, state: AnyState) -> str:
    spend = f", spending {action.swords} swords" if action.swords else ""
    to = game.room_name(state, action.to)
    graph = game.graph(state)
    t = graph.tunnels[action.tunnel]
    tunnels = [e.tunnel for e in graph.exits[t.a if t.b == action.to else t.b] if e.to == action.to]
    way = tunnel_text(game, state, action.tunnel)
    twin = alike(tunnels, action.tunnel, lambda t: tunnel_text(game, state, t))
    return f"move to {to} ({way}{spend}){twin}"


@action_words.register(st.Teleport)
def _(action: st.Teleport, game: AnyEngine, state: AnyState) -> str:
    return f"teleport to {game.room_name(state, action.to)}"


@action_words.register(st.UseToken)
def _(action: st.UseToken, game: AnyEngine, state: AnyState) -> str:
    held = holding((p.held for p in state.players), action.token)
    return f"use {name(game, action.token)}" + alike(held, action.token, partial(name, game))


@action_words.register(st.EndTurn)
def _(action: st.EndTurn, game: AnyEngine, state: AnyState) -> str:
    return "end the turn"


@action_words.register(st.Take)
def _(action: st.Take, game: AnyEngine, state: AnyState) -> str:
    """A face-down token is taken blind: ``take a face-down minor secret``."""
    blind = " secret" if action.token.startswith(HIDDEN) else ""
    where = "" if action.room is None else f" from {game.room_name(state, action.room)}"
    twin = (
        ""
        if blind
        else alike(holding(state.rooms, action.token), action.token, partial(name, game))
    )
    return f"take {name(game, action.token)}{blind}{where}{twin}"


@action_words.register(st.Skip)
def _(action: st.Skip, game: AnyEngine, state: AnyState) -> str:
    return "decline"


@action_words.register(st.Pick)
def _(action: st.Pick, game: AnyEngine, state: AnyState) -> str:
    return f"choose option {action.option + 1}" + _option(state, action.option)


@action_words.register(st.TrashCard)
def _(action: st.TrashCard, game: AnyEngine, state: AnyState) -> str:
    return f"trash {name(game, action.card)}"


@action_words.register(st.DiscardCard)
def _(action: st.DiscardCard, game: AnyEngine, state: AnyState) -> str:
    return f"discard {name(game, action.card)}"


@action_words.register(st.Replace)
def _(action: st.Replace, game: AnyEngine, state: AnyState) -> str:
    twin = alike(state.row.cards, action.card, partial(name, game))
    return f"replace {name(game, action.card)} in the row{twin}"


def _option(state: AnyState, i: int) -> str:
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


def effects_text(effects: Iterable[object]) -> str:
    return ", ".join(effect_text(e) for e in effects)


def condition_text(cond: str) -> str:
    """A condition in words (:data:`CONDITIONS`)."""
    return CONDITIONS.get(cond, "if " + cond.replace("-", " "))


@singledispatch
def effect_text(e: object) -> str:
    """An effect or a points rule in a few words (``2 skill, +1 clank``, ``trash a card``).

    Each effect type registers its text (``@effect_text.register``), the engine's here and a
    game's or a pack's next to its types; a type reads as its nearest registered base.
    """
    return repr(e)


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
    """Drawn cubes grouped by colour: ``3 dragon, 1 seat 2``."""
    counts: dict[str, int] = {}
    for cube in cubes:
        counts[cube] = counts.get(cube, 0) + 1
    return bag_text(counts)


def bag_text(counts: dict[str, int]) -> str:
    """Cubes by colour, as counts: ``24 dragon, 3 seat 0`` (``nothing`` when empty)."""
    said = [f"{n} {colour.replace('-', ' ')}" for colour, n in counts.items() if n]
    return ", ".join(said) or "nothing"


def card_text(card: Card) -> str:
    """What a card does, by timing: ``play: 2 skill; acquire: 2 clank``."""
    timings = ("play", "acquire", "defeat", "use", "arrive")
    said = [
        f"{when}: " + effects_text(getattr(card, when)) for when in timings if getattr(card, when)
    ]
    if card.bonus is not None:
        said.append(effect_text(card.bonus))
    return " / ".join(said)


@singledispatch
def event_words(event: Event, game: AnyEngine, viewer: int | None) -> str | None:
    """A log line for ``event`` as ``viewer`` may know it, from the function registered for
    its type; a game registers its own event types as for :func:`action_words`.
    """
    return repr(event)


def who(event: Event) -> str:
    """Whom a line is about: ``seat 2``, or ``the dungeon`` for an event of no seat."""
    return f"seat {event.seat}" if event.seat is not None else "the dungeon"


@event_words.register(st.Drew)
def _(event: st.Drew, game: AnyEngine, viewer: int | None) -> str:
    if viewer == event.seat:
        return f"{who(event)} draws " + ", ".join(name(game, c) for c in event.cards)
    n = len(event.cards)
    return f"{who(event)} draws {n} card" + ("s" if n > 1 else "")


@event_words.register(st.Played)
def _(event: st.Played, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} plays {name(game, event.card)}"


ACQUIRED = {"acquire": "acquires", "use": "uses", "fight": "defeats", "gain": "gains"}
"""The verb for each way a card is acquired."""


@event_words.register(st.Acquired)
def _(event: st.Acquired, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} {ACQUIRED[event.how]} {name(game, event.card)}"


@event_words.register(st.Bought)
def _(event: st.Bought, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} buys {name(game, event.token)}"


@event_words.register(st.Moved)
def _(event: st.Moved, game: AnyEngine, viewer: int | None) -> str:
    hurt = f", taking {event.damage} damage" if event.damage else ""
    verb = "teleports" if event.teleport else "moves"
    return f"{who(event)} {verb} to room {event.room}{hurt}"


@event_words.register(st.Took)
def _(event: st.Took, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} takes {name(game, event.token)}"


@event_words.register(st.Clanked)
def _(event: st.Clanked, game: AnyEngine, viewer: int | None) -> str:
    n = event.n
    return f"{who(event)} adds {n} clank" if n > 0 else f"{who(event)} removes {-n} clank"


@event_words.register(st.Attacked)
def _(event: st.Attacked, game: AnyEngine, viewer: int | None) -> str:
    return f"the dragon attacks and draws {cube_text(event.cubes)}"


@event_words.register(st.Damaged)
def _(event: st.Damaged, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} takes {event.n} damage"


@event_words.register(st.Healed)
def _(event: st.Healed, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} heals {event.n}"


@event_words.register(st.Out)
def _(event: st.Out, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} is out: {event.status}"


@event_words.register(st.Refilled)
def _(event: st.Refilled, game: AnyEngine, viewer: int | None) -> str:
    return "the row gets " + ", ".join(name(game, c) for c in event.cards)


@event_words.register(st.Raged)
def _(event: st.Raged, game: AnyEngine, viewer: int | None) -> str:
    return f"the dragon's rage rises to space {event.rage + 1}"


@event_words.register(st.Countdown)
def _(event: st.Countdown, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} moves to countdown space {event.space}"


@event_words.register(st.Trashed)
def _(event: st.Trashed, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} removes {name(game, event.card)}"


@event_words.register(st.Discarded)
def _(event: st.Discarded, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} discards {name(game, event.card)}"


@event_words.register(st.Chose)
def _(event: st.Chose, game: AnyEngine, viewer: int | None) -> str:
    chosen = effects_text(event.effects) or f"option {event.option + 1}"
    return f"{who(event)} chooses {chosen}"


@event_words.register(st.TurnEnded)
def _(event: st.TurnEnded, game: AnyEngine, viewer: int | None) -> str:
    return f"{who(event)} ends the turn"


@singledispatch
def room_header(state: AnyState, game: AnyEngine, room: int) -> str:
    """The room a seat stands in and what it is, for the table's header, from the function
    registered for the state's type: ``room 12 (depths, crystal cave)``.
    """
    r = game.graph(state).rooms[room]
    feats = [
        f
        for f, on in (
            ("outside the dungeon", r.start),
            ("depths", r.depths),
            ("crystal cave", r.crystal_cave),
            ("market", r.market),
            ("healing", r.heal),
        )
        if on
    ]
    return f"room {room} ({', '.join(feats) or 'plain'})"


@singledispatch
def exit_rows(state: AnyState, game: AnyEngine, room: int) -> list[tuple[str, str]]:
    """The ways out of a room as the Exits table lists them (where to, what it costs), from
    the function registered for the state's type.
    """
    graph = game.graph(state)
    return [(str(e.to), tunnel_text(game, state, e.tunnel)) for e in graph.exits[room]]


class ClankPresentation(Presentation[S, Action]):
    """How a game on the engine reads: its phrases from :func:`action_words` and
    :func:`event_words`, its table from :meth:`table_parts` and the board drawn as a map.

    A game on the engine subclasses it for its own words and panes (Catacombs:
    :class:`meeple.plugins.clank_catacombs.present.CatacombsPresentation`)."""

    game: ClankEngine[S]

    def describe_action(self, state: S, action: Action) -> str:
        return action_words(action, self.game, state)

    def describe_event(self, event: Event, viewer: int | None) -> str | None:
        return event_words(event, self.game, viewer)

    def legend(self) -> Sequence[tuple[RenderableType, str]]:
        return drawing.LEGEND

    def seat_line(self, state: S, seat: int) -> str:
        game, p = self.game, state.players[seat]
        held = ", ".join(name(game, t) for t in p.held.cards) or "no tokens"
        return (
            f"seat {seat}: {p.status}, {game.room_name(state, p.room)}, "
            f"damage {p.damage}/{game.cat.health}, "
            f"clank {p.clank}, gold {p.gold}, {held}"
        )

    def seat_summary(self, state: S) -> list[str]:
        return [self.seat_line(state, s) for s in range(state.seats)]

    def table_parts(self, view: S, seat: int | None) -> list[RenderableType]:
        """What every seat sees of the engine's table: the dragon, the row, the seat's room
        and its ways on (public, but asked from where the seat stands), every seat's line."""
        game = self.game
        cat = game.cat
        parts: list[RenderableType] = []
        track = cat.tables.rage_track
        # A game without the countdown track (Catacombs) has no countdown to show.
        countdown = f", countdown {view.countdown or '-'}" if cat.tables.countdown_extra else ""
        parts.append(
            Text(
                f"Rage space {view.rage + 1} ({track[view.rage]} cubes), "
                f"bag: {bag_text(view.bag.cubes)}{countdown}",
                style=f"bold {drawing.COLOURS['red']}",
            )
        )
        row = Table(title="Dungeon Row and Reserve", show_header=True)
        for col in ("card", "kind", "cost", "points", "does", "flags"):
            row.add_column(col, overflow="fold")
        tops = [z.cards[-1] for z in view.reserve if z.cards]
        for c in [*view.row.cards, *tops]:
            card = cat.card[c]
            flags = [f for f, on in (("dragon", card.dragon), ("danger", card.danger)) if on]
            if card.where:
                flags.append(f"only {where_text(card.where)}")
            if card.reserve:
                flags.append("reserve")
            # Text, not markup: a card table may come from the user's file (--cards).
            cells = (card.name, card.kind, str(card.cost), str(card.points), card_text(card))
            row.add_row(*map(Text, cells), ", ".join(flags))
        parts.append(row)
        if seat is not None:
            p = view.players[seat]
            parts.append(Text(f"You are in {room_header(view, game, p.room)}", style="bold"))
            exits = Table(title="Exits")
            exits.add_column("to", overflow="fold")
            exits.add_column("tunnel", overflow="fold")
            for to, way in exit_rows(view, game, p.room):
                exits.add_row(Text(to), Text(way))
            parts.append(exits)
            graph = game.graph(view)
            here = view.rooms[graph.index[p.room]].cards
            tokens = ", ".join(name(game, t) for t in here) or "none"
            parts.append(Text("Tokens here: " + tokens))
        parts.extend(Text(line) for line in self.seat_summary(view))
        return parts

    def render_table(self, view: S, seat: int | None) -> RenderableType:
        """The engine's table, then the board drawn as a map."""
        return Group(*self.table_parts(view, seat), drawing.BoardMap(self.game, view, seat))

    def render_private(self, view: S, seat: int) -> RenderableType:
        """What only the seat sees: its hand, and the pool of its turn."""
        p = view.players[seat]
        pool = view.pool
        return Group(
            Text("Hand: " + (", ".join(name(self.game, c) for c in p.hand.cards) or "empty")),
            Text(
                f"Pool: {pool.skill} skill, {pool.swords} swords, {pool.boots} boots, "
                f"{pool.teleports} teleports, {pool.banked} banked clank"
                + (", exhausted" if pool.exhausted else "")
                + "".join(f", {MODIFIERS[mod]}" for mod in pool.mods)
            ),
        )

    def render(self, view: S, seat: int | None) -> RenderableType:
        """The whole table as ``seat`` sees it, for line mode: the game's table pane, then
        its private one (a game on the engine overrides the panes, not this)."""
        table = self.render_table(view, seat)
        return table if seat is None else Group(table, self.render_private(view, seat))
