"""Clonk!'s own state checks, run by ``Game.check_state`` after the generic ones.

Each message says where (a ``$.path``) and what is wrong, so ``meeple
validate`` can report a hand-edited snapshot precisely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.plugins.clonk.content import AWAKENING
from meeple.plugins.clonk.state import (
    GALLERY,
    HAND,
    ChooseTask,
    ClonkState,
    Discard,
    Feed,
    FirstCart,
    Unearth,
)

if TYPE_CHECKING:
    from meeple.core.turns import Turns
    from meeple.plugins.clonk.rules import Clonk


def check(game: Clonk, state: ClonkState) -> list[str]:
    """Every Clonk!-specific problem of ``state``; empty when it is coherent."""
    c = game.content
    treasure = c.colour
    problems: list[str] = []

    def only(path: str, cards: list[str], allowed: set[str] | dict[str, int], what: str) -> None:
        bad = [x for x in cards if x not in allowed]
        if bad:
            problems.append(f"{path}: {', '.join(bad[:3])} cannot lie here (only {what})")

    n = state.seats
    for field in ("hands", "galleries", "carts", "tasks", "kablooeys"):
        zones = getattr(state, field)
        if len(zones) != n or any(z.owner != s for s, z in enumerate(zones)):
            problems.append(f"$.{field}: must hold one zone per seat, zone i owned by seat i")
    if len(state.shafts) != 5:
        problems.append(f"$.shafts: {len(state.shafts)} shafts, but Clonk! has 5")
    if problems:
        return problems
    snores, kablooeys = set(c.snores), set(c.kablooeys)
    only(
        "$.draw", state.draw.cards, {*treasure, AWAKENING}, "Treasure cards and the Awakening card"
    )
    only("$.aside", state.aside.cards, {AWAKENING}, "the Awakening card")
    only("$.discard", state.discard.cards, treasure, "Treasure cards")
    only("$.snore_supply", state.snore_supply.cards, snores, "Snore cards")
    only("$.kablooey_supply", state.kablooey_supply.cards, kablooeys, "Kablooey cards")
    for i, z in enumerate(state.shafts):
        only(f"$.shafts[{i}]", z.cards, treasure, "Treasure cards")
        if z.cards and not z.up[-1]:  # type: ignore[index]
            problems.append(f"$.shafts[{i}].up: the top card of a shaft lies face up")
    if state.aside.cards and not state.turns.last_round:
        problems.append(
            "$.turns.last_round: the Awakening card is set aside, so this is the last round"
        )
    top = state.stack[-1] if state.stack else None
    limit = game.options.hand_limit
    played = had_a_turn(state.turns)
    for s in range(n):
        only(f"$.hands[{s}]", state.hands[s].cards, treasure, "Treasure cards")
        only(f"$.galleries[{s}]", state.galleries[s].cards, treasure, "Treasure cards")
        only(
            f"$.carts[{s}]", state.carts[s].cards, {*treasure, *snores}, "Treasure and Snore cards"
        )
        only(f"$.kablooeys[{s}]", state.kablooeys[s].cards, kablooeys, "Kablooey cards")
        hand = len(state.hands[s].cards)
        busy = top is not None and top.seat == s and type(top) in (Feed, Discard)
        # rules.md#hand-limit: the limit is applied at the end of a turn, so until a seat's
        # first turn ends it may still hold the hand dealt at set-up.
        ended = s in played
        if hand > (limit if ended else max(limit, HAND)) + (3 if busy else 0):
            problems.append(f"$.hands[{s}]: {hand} cards, over the hand limit of {limit}")
        gallery = state.galleries[s].cards
        if len(gallery) > GALLERY:
            problems.append(f"$.galleries[{s}]: {len(gallery)} cards on {GALLERY} spaces")
        problems.extend(chain(game, state, s))
        tiles = state.tasks[s]
        kinds = sorted(c.back.get(x, "") for x in tiles.cards)
        if kinds != ["task-colour", "task-type"]:
            problems.append(f"$.tasks[{s}]: must hold one colour and one type task tile")
        shown = sum(tiles.up or ())
        choosing = any(type(f) is ChooseTask and f.seat == s for f in state.stack)
        if not state.stack:  # rules.md#end: both tiles are turned up for scoring
            want, wanted = 2, "both (the game is over)"
        else:
            want = 0 if choosing else 1
            wanted = "none yet (it is still choosing)" if choosing else "exactly one"
        if shown != want:
            problems.append(f"$.tasks[{s}].up: {shown} tiles face up, want {wanted}")
    problems.extend(carts(game, state))
    problems.extend(played_carts(state))
    problems.extend(frames(game, state))
    return problems


def played_carts(state: ClonkState) -> list[str]:
    """rules.md#fill-cart and rules.md#placed: a seat that has had a turn keeps a card in its
    mine cart for good (its next turn digs from it)."""
    return [
        f"$.carts[{s}]: seat {s} has had a turn, so its mine cart holds a card"
        for s in had_a_turn(state.turns)
        if not state.carts[s].cards
    ]


def had_a_turn(turns: Turns) -> list[int]:
    """The seats whose turn has ended at least once, in turn order: every seat after the first
    round, else those before the one to play (the order starts with the start player)."""
    order = turns.order
    if turns.round > 1 or turns.over:
        return list(order)
    return order[: order.index(turns.current)]


def carts(game: Clonk, state: ClonkState) -> list[str]:
    """rules.md#fill-cart: a cart is filled on its seat's first turn, never emptied, and
    shows a Treasure card on top (Snore cards go under it)."""
    turns, stack = state.turns, state.stack
    top = type(stack[-1]) if stack else None
    played = had_a_turn(turns)
    problems = []
    for s, cart in enumerate(state.carts):
        if turns.round > 1 or top is None:
            started = True
        elif top is ChooseTask:
            started = False
        else:
            started = s in played or (s == turns.current and top is not FirstCart)
        if bool(cart.cards) != started:
            want = "a card since its first turn" if started else "no card before its first turn"
            problems.append(f"$.carts[{s}]: holds {len(cart.cards)} cards; a cart holds {want}")
        elif cart.cards and cart.cards[-1] not in game.content.colour:
            problems.append(f"$.carts[{s}]: {cart.cards[-1]} on top; a Treasure card lies there")
    return problems


def chain(game: Clonk, state: ClonkState, seat: int) -> list[str]:
    """rules.md#chain: each gallery card matches the one before it, the first the cart top."""
    cart = state.carts[seat].cards
    gallery = state.galleries[seat].cards
    if not gallery:
        return []
    if not cart or cart[-1] not in game.content.colour:
        return [
            f"$.galleries[{seat}]: cards in the gallery but no Treasure card on top of the cart"
        ]
    prev = cart[-1]
    for i, card in enumerate(gallery):
        if card in game.content.colour and not game.content.matches(prev, card):
            return [f"$.galleries[{seat}][{i}]: {card} matches neither colour nor type of {prev}"]
        prev = card
    return []


def frames(game: Clonk, state: ClonkState) -> list[str]:
    """The decision stack agrees with the phase of the game."""
    stack = state.stack
    if not stack:
        return (
            [] if state.turns.over else ["$.stack: no pending decision, but the game is not over"]
        )
    if state.turns.over:
        return ["$.stack: the game is over, but a decision is pending"]
    if len(stack) > 1 and not all(type(f) is ChooseTask for f in stack):
        return ["$.stack: only the set-up task choices may wait under another decision"]
    top = stack[-1]
    kind = type(top)
    if kind is ChooseTask:  # rules.md#tasks: each seat chooses once, before the first turn
        seats = [f.seat for f in stack]
        if len(set(seats)) != len(seats):
            return ["$.stack: a seat chooses its task tiles once"]
        if state.turns.current != state.turns.first or state.turns.round != 1:
            return ["$.turns.current: task tiles are chosen before the start player's first turn"]
        return []
    seat = top.seat
    if seat != state.turns.current:
        return [
            f"$.stack[-1]: a decision for seat {seat}, but it is seat {state.turns.current}'s turn"
        ]
    hand = len(state.hands[seat].cards)
    if kind is FirstCart and (state.turns.round != 1 or state.carts[seat].cards):
        return ["$.stack[-1]: the first cart card is chosen only in round 1, into an empty cart"]
    if kind is Unearth and (
        not state.carts[seat].cards or len(state.galleries[seat].cards) >= GALLERY
    ):
        return ["$.stack[-1]: digging needs a mine cart to match and a free gallery space"]
    if kind is Feed and not hand:
        return ["$.stack[-1]: a shaft is fed from the hand, which is empty"]
    limit = game.options.hand_limit
    if kind is Discard and hand <= limit:
        return [f"$.stack[-1]: a discard is pending, but the hand is within the limit of {limit}"]
    return []
