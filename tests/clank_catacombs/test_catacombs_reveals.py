"""What a Catacombs step shows the seat taking it (Game.reveals), as taking it back needs."""

from __future__ import annotations

from catacombs_build import act, game, put, room, started, turn

from meeple.plugins.clank_catacombs.state import Explore, Rotate


def test_exploring_reveals_the_tile_drawn_and_placing_it_nothing_more() -> None:
    """rules.md#discovery: the mover reveals the top tile of the stack, then places it."""
    g = game(start_side="a")
    state = started(g, 2, 4)
    put(state, state.tile_stack, "hall")
    turn(g, state, 0, room=room(g, state, "start-a:w"), boots=1)
    before = g.clone(state)
    act(g, state, Explore(place=0, half=0))
    assert g.reveals(before, state, 0) and state.drawn.cards == ["hall"]
    before = g.clone(state)
    act(g, state, next(a for a in g.legal_actions(state) if isinstance(a, Rotate)))
    assert not g.reveals(before, state, 0)
