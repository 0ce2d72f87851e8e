"""What Catacombs says of moves: rooms by their tile, tunnels by their locks still closed."""

from __future__ import annotations

from meeple.core.rng import Rng, stream
from meeple.plugins.clank import present as base
from meeple.plugins.clank.state import Move, Teleport
from meeple.plugins.clank_catacombs.rules import CatacombsGame


def test_a_move_and_a_teleport_name_the_room_by_its_tile() -> None:
    g = CatacombsGame()
    state = g.setup(2, 1)
    graph = g.graph(state)
    e = graph.exits[state.players[0].room][0]
    name = f"room {e.to} ({graph.names[e.to]})"
    assert g.presentation.describe_action(state, Move(tunnel=e.tunnel, to=e.to)).startswith(
        f"move to {name} ("
    )
    assert (
        g.presentation.describe_action(state, Teleport(tunnel=e.tunnel, to=e.to))
        == f"teleport to {name}"
    )


def test_a_locked_tunnel_says_how_many_locks_are_closed() -> None:
    """rules.md#locks: a Lockpick left on a lock opens it for everyone, so it no longer
    reads as locked."""
    g = CatacombsGame()
    state = g.setup(2, 1)
    rng = stream(Rng(seed=1))
    while not any(t.locked for t in g.graph(state).tunnels):  # explore until a lock shows
        legal = g.legal_actions(state)
        g.resolve(state, legal[rng.below(len(legal))])
    t = next(i for i, t in enumerate(g.graph(state).tunnels) if t.locked)
    shut = g.locks_to_open(state, t)
    assert f"{shut} lock{'s' if shut > 1 else ''} closed" in base.tunnel_text(g, state, t)
    state.picked.extend(g.graph(state).locks[t])
    assert "lock open" in base.tunnel_text(g, state, t)
    assert "locked" not in base.tunnel_text(g, state, t)
