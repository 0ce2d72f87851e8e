"""Scenario tests of a turn's rules: plays, resources, acquiring, fighting, effects."""

from __future__ import annotations

import pytest
from clank_build import (
    QUIET_ROW,
    act,
    game,
    legal,
    place_artifacts,
    put,
    started,
    tiny_board,
    to_row,
    turn,
)

from meeple.core.testing import scenario
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.state import (
    Acquire,
    Buy,
    DiscardCard,
    EndTurn,
    Fight,
    Move,
    Pick,
    Play,
    Replace,
    Skip,
    Take,
    TrashCard,
    UseDevice,
    UseToken,
)


@pytest.fixture
def g():
    return game()


@pytest.fixture
def state(g):
    return started(g, 4, 3)


def test_all_cards_must_be_played(g, state) -> None:
    """rules.md#turn: ending the turn is legal only with an empty hand."""
    turn(g, state, 0, ("burgle-s0-1",))
    assert legal(g, state, EndTurn) == []
    act(g, state, Play(card="burgle-s0-1"))
    assert legal(g, state, EndTurn) == [EndTurn()]


def test_resources_pool_and_split(g, state) -> None:
    """rules.md#turn: skill from several cards pools and pays several acquisitions."""
    turn(g, state, 0, ("burgle-s0-1", "burgle-s0-2", "scramble-s0"))
    for c in ("burgle-s0-1", "burgle-s0-2", "scramble-s0"):
        act(g, state, Play(card=c))
    assert (state.pool.skill, state.pool.boots) == (3, 1)
    to_row(state, "tunnel-guide-1", "lucky-coin-1")
    act(g, state, Acquire(card="tunnel-guide-1"))
    act(g, state, Acquire(card="lucky-coin-1"))
    assert state.pool.skill == 1
    assert {"tunnel-guide-1", "lucky-coin-1"} <= set(state.players[0].discard.cards)


def test_acquire_effects_and_reserve(g, state) -> None:
    """rules.md#acquire: a gem makes 2 clank on acquire; Reserve cards come off the pile top."""
    turn(g, state, 0, skill=10)
    to_row(state, "sapphire-1")
    act(g, state, Acquire(card="sapphire-1"))
    assert state.players[0].clank == 2
    top = state.reserve[1].cards[-1]
    act(g, state, Acquire(card=top))
    assert top in state.players[0].discard.cards and top not in state.reserve[1].cards


def test_location_limits(g, state) -> None:
    """rules.md#acquire, #fight: Dragon's Eye only in the Depths, Crystal Golem in a cave."""
    row, pool = [*QUIET_ROW[:4], "dragons-eye", "crystal-golem-1"], {"skill": 10, "swords": 10}
    scenario(g, {"players[0]": {"hand": [], "room": 2}, "pool": pool, "row": row}, state=state)
    acts = g.legal_actions(state)
    assert Acquire(card="dragons-eye") not in acts
    assert Fight(card="crystal-golem-1") not in acts
    state.players[0].room = 23  # a crystal cave in the Depths
    acts = g.legal_actions(state)
    assert Acquire(card="dragons-eye") in acts and Fight(card="crystal-golem-1") in acts


def test_device_goes_to_dungeon_discard(g, state) -> None:
    """rules.md#device: Ladder gives 2 boots and goes to the dungeon discard."""
    turn(g, state, 0, skill=3)
    to_row(state, "ladder-1")
    act(g, state, UseDevice(card="ladder-1"))
    assert state.pool.boots == 2 and state.pool.skill == 0
    assert "ladder-1" in state.dungeon_discard.cards


def test_goblin_again_and_again(g, state) -> None:
    """rules.md#fight: the Goblin stays in the Reserve and can be fought while swords last."""
    turn(g, state, 0, swords=5)
    act(g, state, Fight(card="goblin"))
    act(g, state, Fight(card="goblin"))
    assert state.players[0].gold == 2 and state.pool.swords == 1
    assert Fight(card="goblin") not in g.legal_actions(state)
    assert "goblin" in state.reserve[-1].cards


def test_negative_clank_is_banked_then_lost(g, state) -> None:
    """rules.md#clank: negative clank first takes cubes back, the rest cancels later clank."""
    turn(g, state, 0, ("sneak-1", "stumble-s0-1", "stumble-s0-2"))
    p = state.players[0]
    act(g, state, Play(card="sneak-1"))
    assert p.clank == 0 and state.pool.banked == 2
    act(g, state, Play(card="stumble-s0-1"))
    assert p.clank == 0 and state.pool.banked == 1
    act(g, state, Play(card="stumble-s0-2"))
    assert p.clank == 0 and state.pool.banked == 0


def test_clank_from_an_empty_supply(g, state) -> None:
    """rules.md#clank: with no cubes in the supply, nothing is added."""
    me = {"hand": ["stumble-s0-1"], "clank": 30, "supply": 0}
    scenario(g, {"players[0]": me}, state=state)
    p = state.players[0]
    act(g, state, Play(card="stumble-s0-1"))
    assert p.clank == 30 and p.supply == 0


def test_swagger_counts_clank_before_and_after(g, state) -> None:
    """rules.md#conditions: Swagger gives 1 skill per cube added, before or after it."""
    turn(g, state, 0, ("stumble-s0-1", "swagger-1", "stumble-s0-2"))
    act(g, state, Play(card="stumble-s0-1"))
    act(g, state, Play(card="swagger-1"))
    assert state.pool.skill == 1
    act(g, state, Play(card="stumble-s0-2"))
    assert state.pool.skill == 2


def test_rebel_draws_when_a_companion_follows(g, state) -> None:
    """rules.md#conditions: a Rebel played before another companion still draws, once."""
    turn(g, state, 0, ("rebel-scout", "tunnel-guide-1", "tunnel-guide-2"))
    p = state.players[0]
    act(g, state, Play(card="rebel-scout"))
    assert len(p.hand) == 2
    act(g, state, Play(card="tunnel-guide-1"))
    assert len(p.hand) == 2  # one played, one drawn
    act(g, state, Play(card="tunnel-guide-2"))
    assert len(p.hand) == 1  # fired once only


def test_kobold_merchant_once_an_artifact_is_held(state) -> None:
    """rules.md#conditions: the condition is checked again after later actions."""
    g = game(board=tiny_board())
    state = g.setup(2, 1)
    place_artifacts(g, state)
    turn(g, state, 0, ("kobold-merchant", "sidestep-s0"), room=6)
    act(g, state, Play(card="kobold-merchant"))
    assert state.pool.skill == 0 and state.players[0].gold == 2
    state.pool.boots = 1
    state.players[0].room = 5
    act(g, state, Move(tunnel=5, to=6))
    act(g, state, Skip())  # the idols offered on entry
    act(g, state, Take(token="artifact-20"))
    assert state.pool.skill == 2


def test_gem_discount(g, state) -> None:
    """rules.md#gem-discount: Gem Collector lowers gems by 2, played before or after."""
    turn(g, state, 0, ("gem-collector",), skill=2)
    to_row(state, "sapphire-1")
    assert Acquire(card="sapphire-1") not in g.legal_actions(state)
    act(g, state, Play(card="gem-collector"))
    assert state.pool.skill == 4
    act(g, state, Acquire(card="sapphire-1"))
    assert state.pool.skill == 2


@pytest.mark.parametrize(("gem_discount", "back"), [(None, 0), ("later", 0), ("turn", 2)])
def test_gem_discount_and_earlier_gems(gem_discount: str | None, back: int) -> None:
    """rules.md#gem-discount: a gem acquired before Gem Collector was played keeps the price it
    was paid (``later``, the default), or costs 2 less as well, the 2 coming back when Gem
    Collector is played (``turn``)."""
    g = game() if gem_discount is None else game(gem_discount=gem_discount)
    state = started(g, 4, 3)
    turn(g, state, 0, ("gem-collector",), skill=5)
    to_row(state, "sapphire-1")
    act(g, state, Acquire(card="sapphire-1"))  # 4 Skill paid, 1 left
    assert state.pool.skill == 1
    act(g, state, Play(card="gem-collector"))  # its own 2 Skill, and what comes back
    assert state.pool.skill == 1 + 2 + back


def test_a_second_gem_discount_never_pays_below_nothing() -> None:
    """rules.md#gem-discount (``turn``): each Gem Collector takes 2 off every gem of the turn,
    a gem's price never below 0, so nothing is paid back beyond what the gem cost."""
    g = game(gem_discount="turn")
    state = started(g, 4, 3)
    turn(g, state, 0, ("gem-collector",), skill=4)
    state.pool.mods.append("gem-discount-2")  # a Gem Collector played earlier this turn
    to_row(state, "sapphire-1")
    act(g, state, Acquire(card="sapphire-1"))  # 4 - 2: 2 Skill paid
    assert state.pool.skill == 2
    act(g, state, Play(card="gem-collector"))  # 2 of its own, 2 back: the Sapphire is free
    assert state.pool.skill == 6


def test_search_adds_gold(g, state) -> None:
    """rules.md#gold: gold-bonus-1 adds one to each later gain of gold."""
    turn(g, state, 0, ("search-1", "pickaxe-1"))
    act(g, state, Play(card="search-1"))
    act(g, state, Play(card="pickaxe-1"))
    assert state.players[0].gold == 3


@pytest.mark.parametrize(("gold_bonus", "gold"), [("turn", 3), ("later", 2)])
def test_search_pays_for_earlier_gold(gold_bonus: str, gold: int) -> None:
    """rules.md#search: played after a gain of gold, Search pays for it too (``turn``), or
    only for later gains (``later``); each gain counts once, whatever its size."""
    g = game(gold_bonus=gold_bonus)
    state = started(g, 4, 3)
    turn(g, state, 0, ("pickaxe-1", "search-1"))
    act(g, state, Play(card="pickaxe-1"))
    act(g, state, Play(card="search-1"))
    assert state.players[0].gold == gold


def test_choose_needs_what_it_costs(g, state) -> None:
    """rules.md#choices, #short-pile: Underworld Dealing's buy needs 7 gold."""
    turn(g, state, 0, ("underworld-dealing",))
    act(g, state, Play(card="underworld-dealing"))
    assert g.legal_actions(state) == [Pick(option=0)]
    turn(g, state, 0, ("underworld-dealing",))
    state.players[0].gold = 7
    act(g, state, Play(card="underworld-dealing"))
    act(g, state, Pick(option=1))
    p = state.players[0]
    assert p.gold == 0 and sum(c.startswith("secret-tome") for c in p.discard.cards) == 2


def test_an_option_that_would_do_nothing_is_not_offered(g, state) -> None:
    """rules.md#no-empty-option: Shrine's heal is offered only to a hurt seat, Wand of Wind's
    secret only with one next door."""
    to_row(state, "shrine-1")
    turn(g, state, 0, ("wand-of-wind",), skill=2)
    act(g, state, UseDevice(card="shrine-1"))
    assert g.legal_actions(state) == [Pick(option=0)]
    state.players[0].damage, state.players[0].supply = 1, state.players[0].supply - 1
    assert g.legal_actions(state) == [Pick(option=0), Pick(option=1)]
    act(g, state, Pick(option=1))
    graph = g.cat.graph
    lonely = next(
        r
        for r in graph.order
        if not any(state.rooms[graph.index[e.to]].cards for e in graph.near[r])
    )
    state.players[0].room = lonely
    act(g, state, Play(card="wand-of-wind"))
    assert g.legal_actions(state) == [Pick(option=0)]


def test_each_option_is_tried_on_the_table_as_it_is(g, state) -> None:
    """rules.md#no-empty-option: every option of a choice is tried on the table as it is,
    whatever the options tried before it did, and an option the seat cannot pay for is not
    tried at all."""
    unhurt = state.players[0]
    assert unhurt.damage == 0
    gold, heal = fx.Gain(gold=1), fx.Gain(heal=1)
    dear = fx.Buy(gold=unhurt.gold + 1, card="secret-tome")
    before = g.digest(state)
    assert g._feasible(state, 0, [[gold], [dear], [heal]], None) == [True, False, False]
    assert g._feasible(state, 0, [[heal], [gold], [heal], [gold]], None) == [
        False, True, False, True,
    ]  # fmt: skip
    assert g.digest(state) == before


def test_master_burglar_trashes_a_burgle(g, state) -> None:
    """rules.md#trash: from the play area or discard pile, limited by name."""
    hand = ["burgle-s0-1", "master-burglar-1"]
    cards = {"players[0].hand": hand, "players[0].discard": ["stumble-s0-1"]}
    scenario(g, cards, state=state)
    act(g, state, Play(card="burgle-s0-1"))
    act(g, state, Play(card="master-burglar-1"))
    assert g.legal_actions(state) == [TrashCard(card="burgle-s0-1")]
    act(g, state, TrashCard(card="burgle-s0-1"))
    assert "burgle-s0-1" in state.trash.cards and state.pool.skill == 3


def test_discard_then(g, state) -> None:
    """rules.md#choices: Sleight of Hand draws 2 only after a discard; declining is allowed."""
    turn(g, state, 0, ("sleight-of-hand-1", "stumble-s0-1"))
    p = state.players[0]
    act(g, state, Play(card="sleight-of-hand-1"))
    assert Skip() in g.legal_actions(state)
    act(g, state, DiscardCard(card="stumble-s0-1"))
    assert "stumble-s0-1" in p.discard.cards and len(p.hand) == 2


def test_replace_row_card_makes_no_attack(g, state) -> None:
    """rules.md#arrive: Treasure Hunter's new card shows a symbol, but no attack follows."""
    fields = {"players[0].hand": ["treasure-hunter-1"], "players[1]": {"clank": 5, "supply": 25}}
    scenario(g, {**fields, "row": QUIET_ROW}, state=state, top={"dungeon": ["ogre-1"]})
    act(g, state, Play(card="treasure-hunter-1"))
    act(g, state, Replace(card="ladder-1"))
    assert "ogre-1" in state.row.cards and "ladder-1" in state.dungeon_discard.cards
    assert state.players[1].clank == 5


def test_row_refilled_only_at_end(g, state) -> None:
    """rules.md#end-of-turn: taken row cards leave a gap until the turn ends."""
    turn(g, state, 0, swords=10, skill=10)
    quiet = [c for c in state.row.cards if g.cat.card[c].kind == "monster"]
    for card in quiet:
        act(g, state, Fight(card=card))
    assert len(state.row) == 6 - len(quiet)
    act(g, state, EndTurn())
    assert len(state.row) == 6


def test_end_of_turn_discards_and_draws(g, state) -> None:
    """rules.md#end-of-turn: the play area to the discard pile, five new cards."""
    turn(g, state, 0, ("burgle-s0-1",))
    act(g, state, Play(card="burgle-s0-1"))
    act(g, state, EndTurn())
    p = state.players[0]
    assert "burgle-s0-1" in p.discard.cards and len(p.hand) == 5 and not p.play.cards


def test_reshuffle_when_the_deck_runs_out(g, state) -> None:
    """rules.md#end-of-turn: an empty deck takes the shuffled discard pile, not the play area."""
    turn(g, state, 0, ("elven-boots",))
    p = state.players[0]
    for c in list(p.deck.cards):
        put(state, p.discard, c)
    act(g, state, Play(card="elven-boots"))
    assert len(p.hand) == 1 and "elven-boots" in p.play.cards
    assert len(p.deck) == 9 and not p.discard.cards


def test_market_and_crowns(g, state) -> None:
    """rules.md#market: 7 gold in a market room; a Crown buyer gets the most valuable."""
    scenario(g, {"players[0]": {"hand": [], "room": 2, "gold": 14}}, state=state)
    assert legal(g, state, Buy) == []
    state.players[0].room = 19  # a market
    act(g, state, Buy(item="crown"))
    act(g, state, Buy(item="crown"))
    assert state.players[0].held.cards == ["crown-10", "crown-9"]
    assert state.players[0].gold == 0 and legal(g, state, Buy) == []


def test_potion_is_spent_on_the_turn(g, state) -> None:
    """rules.md#tokens: a potion is kept, then used once."""
    cards = {"players[0].hand": [], "players[0].held": ["potion-of-strength-1"]}
    scenario(g, cards, state=state)
    act(g, state, UseToken(token="potion-of-strength-1"))
    assert state.pool.swords == 2 and "potion-of-strength-1" in state.spent.cards


def test_magic_spring_trashes_at_end_of_turn(g, state) -> None:
    """rules.md#end-of-turn step 1: Magic Spring's trash is mandatory, that turn."""
    cards = {"players[0].hand": ["burgle-s0-1"], "players[0].held": ["magic-spring-1"]}
    scenario(g, cards, state=state)
    act(g, state, Play(card="burgle-s0-1"))
    act(g, state, EndTurn())
    assert state.to_move == 0 and Skip() not in g.legal_actions(state)
    act(g, state, TrashCard(card="burgle-s0-1"))
    assert "burgle-s0-1" in state.trash.cards and state.turns.current == 1
