"""Fit the Clank! games' evaluation to their bots' games: ``python benchmarks/evaluation.py``.

Plays ``-n`` games of four ``heuristic`` seats per game, seeds from ``--seed``, on
``--workers`` processes. At the start of every turn it reads each seat's features
(:data:`meeple.plugins.clank.evaluate.FEATURES`, as the search's ``evaluate`` reads them
where a turn cut-off ends) and fits a conditional logit (statsmodels'
``ConditionalLogit``, one group per turn of a game with one winner): a seat's chance to win
is the softmax over the seats of its features times the weights, which is how ``evaluate``
scores a state. It prints each weight with its standard error and the log-likelihood per
turn, of the fit and of the hand-set expected points alone, and with ``--write`` stores the
weights in the game's data (``seeds/clank/evaluation.json``,
``seeds/clank-catacombs/evaluation.json``). The same options give the same file.

With ``--hurt``, it fits the damage the evaluation expects instead (``Outlook.hurt`` and
``Outlook.attacks``) and prints it beside the evaluation's figures: at the start of every
turn, for each seat carrying an artifact out of the dungeon, the damage it took from then
until the game's end, by least squares on the turns of its trip out and on those turns times
the cubes an attack draws times the seat's share of the cubes.

With ``--explore P``, each seat at a decision with a choice other than a move takes a random
one of those instead, with chance ``P``: the fit then also sees states the bots reach after
choices they would not make (docs/search.md, "Leaving moves to the heuristic").

Needs the ``report`` extra (statsmodels, numpy).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import msgspec

from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream
from meeple.core.scoring import rank
from meeple.core.state import Action
from meeple.plugins.clank.evaluate import FEATURES, Outlook
from meeple.plugins.clank.state import Move, Teleport
from meeple.plugins.clank_catacombs.evaluate import CatacombsOutlook
from meeple.plugins.clank_catacombs.state import Explore

OUTLOOKS: dict[str, type[Outlook[Any]]] = {"clank": Outlook, "clank-catacombs": CatacombsOutlook}
MOVES: dict[str, tuple[type[Action], ...]] = {
    "clank": (Move, Teleport),
    "clank-catacombs": (Move, Teleport, Explore),
}
"""The actions that move a seat, which ``--explore`` leaves to the bots."""
SEATS = 4
T = TypeVar("T")


class Turn(NamedTuple):
    """Every seat's features at the start of one turn, and the seat that went on to win."""

    features: list[list[float]]
    winner: int


def turn_starts(game: Any, player: Any, seed: int, explore: float = 0.0) -> Iterator[Any]:
    """A game of four ``player`` seats from ``seed``: its state at the start of each turn after
    the first. It is one state played on in place: once the last turn is over, the game's end
    (``explore``: the chance of a random choice other than a move, see the module)."""
    match = Match.new(game, SEATS, seed, Hooks(None))
    bots = [player.make(game, s, seed) for s in range(SEATS)]
    chance = Stream(f"explore/{seed}")
    state = match.state
    turn = state.turns.turn
    while state.stack:
        if state.turns.turn != turn:
            turn = state.turns.turn
            yield state
        seat = state.stack[-1].seat
        legal = match.legal()
        others = [a for a in legal if type(a) not in MOVES[game.id]]
        if explore and len(legal) > 1 and others and chance.random() < explore:
            match.apply_legal(chance.choice(others))
        else:
            match.apply_legal(bots[seat].choose(Prompt.of(game, state, seat, legal)))


def sample(game_id: str, seeds: range, explore: float = 0.0) -> list[Turn]:
    """The turns of the games of ``seeds`` that one seat won alone: a worker's unit
    (``explore``: the chance of a random choice other than a move, see the module)."""
    registry = Registry(plugin_manager())
    game: Any = registry.game(game_id)()  # a game on the Clank! engine
    outlook = OUTLOOKS[game_id](game)
    player = registry.player("heuristic", game_id)
    turns: list[Turn] = []
    for seed in seeds:
        seen = []
        for state in turn_starts(game, player, seed, explore):
            seen.append([[f[k] for k in FEATURES] for f in outlook.features(state)])
        places = rank(game.scores(state))
        if places.count(1) == 1:
            turns.extend(Turn(features, places.index(1)) for features in seen)
    return turns


class Hurt(NamedTuple):
    """A seat carrying its artifact out at the start of a turn: the turns of its trip, those
    turns times its share of an attack's draws, and the damage it took from then on."""

    turns: float
    attacked: float
    damage: int


def hurts(game_id: str, seeds: range) -> list[Hurt]:
    """The seats carrying an artifact out at every turn's start of the games of ``seeds``: a
    worker's unit."""
    registry = Registry(plugin_manager())
    game: Any = registry.game(game_id)()
    outlook = OUTLOOKS[game_id](game)
    player = registry.player("heuristic", game_id)
    out: list[Hurt] = []
    for seed in seeds:
        seen: list[tuple[int, float, float, int]] = []
        for state in turn_starts(game, player, seed):
            graph = game.graph(state)
            lying = outlook.lying(state, graph)
            for seat, p in enumerate(state.players):
                # Only a seat carrying its artifact out: the trip of one still to fetch is
                # chosen by the odds, so by the very figures fitted here.
                trip = outlook.trip(state, seat, graph, lying)
                if trip is not None and trip.held:
                    share = outlook.drawn(state) * outlook.share(state, seat)
                    seen.append((seat, trip.turns, trip.turns * share, p.damage))
        final = [min(p.damage, outlook.health) for p in state.players]
        out.extend(Hurt(turns, attacked, final[s] - damage) for s, turns, attacked, damage in seen)
    return out


def fit_hurt(seen: list[Hurt]) -> tuple[float, float]:
    """``Outlook.hurt`` and ``Outlook.attacks``: the least-squares fit of the damage to come."""
    import numpy as np

    x = np.array([(h.turns, h.attacked) for h in seen])
    y = np.array([h.damage for h in seen])
    hurt, attacks = np.linalg.lstsq(x, y, rcond=None)[0]
    return float(hurt), float(attacks)


def fit(turns: list[Turn], names: tuple[str, ...] = tuple(FEATURES)) -> dict[str, Any]:
    """The weights of the features ``names`` that make the winners likeliest, their standard
    errors, and the log-likelihood per turn."""
    import numpy as np
    from statsmodels.discrete.conditional_models import ConditionalLogit

    columns = [list(FEATURES).index(k) for k in names]
    x = np.array([row for t in turns for row in t.features])[:, columns]
    y = np.array([int(s == t.winner) for t in turns for s in range(len(t.features))])
    groups = np.repeat(np.arange(len(turns)), [len(t.features) for t in turns])
    result = ConditionalLogit(y, x, groups=groups).fit(method="bfgs", maxiter=500, disp=False)
    return {
        "weights": dict(zip(names, map(float, result.params), strict=True)),
        "errors": dict(zip(names, map(float, result.bse), strict=True)),
        "loglik": float(result.llf) / len(turns),
    }


def gathered(work: Callable[..., list[T]], workers: int, *columns: list[Any]) -> list[T]:
    """``work`` mapped over the argument ``columns`` on ``workers`` processes, its lists
    joined in order."""
    with contextlib.ExitStack() as stack:
        parts: Iterator[list[T]] = map(work, *columns)
        if workers > 1:
            pool = stack.enter_context(ProcessPoolExecutor(workers))
            parts = pool.map(work, *columns)
        return [x for part in parts for x in part]


def data_file(game_id: str) -> Path:
    """Where a game's weights are kept, in the source tree's seeds."""
    return Path(str(resources.files("meeple.seeds").joinpath(OUTLOOKS[game_id].fitted)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(OUTLOOKS), help="comma-separated game ids")
    parser.add_argument("-n", type=int, default=1000, help="games per game")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument(
        "--explore", type=float, default=0.0, help="chance of a random choice other than a move"
    )
    parser.add_argument(
        "--hurt", action="store_true", help="fit the damage to come instead (prints it)"
    )
    parser.add_argument("--write", action="store_true", help="store the weights in the seeds")
    args = parser.parse_args(argv)
    if not 0 <= args.explore <= 1:
        parser.error(f"--explore {args.explore}: a chance, from 0 to 1")
    if args.hurt and (args.write or args.explore):
        parser.error("--hurt only prints the damage to come: leave out --write and --explore")
    for game_id in args.games.split(","):
        if game_id not in OUTLOOKS:
            parser.error(f"no evaluation to fit for {game_id!r} (games: {', '.join(OUTLOOKS)})")
        seeds = range(args.seed, args.seed + args.n)
        chunks = [seeds[i :: args.workers] for i in range(args.workers)]
        games = [game_id] * len(chunks)
        if args.hurt:
            seen = gathered(hurts, args.workers, games, chunks)
            hurt, attacks = fit_hurt(seen)
            outlook = OUTLOOKS[game_id]
            print(
                f"{game_id}: {len(seen)} turns of seats carrying an artifact out, {args.n} "
                f"games from seed {args.seed}: hurt {hurt:.3f}, attacks {attacks:.3f} "
                f"(the evaluation's: {outlook.hurt}, {outlook.attacks})"
            )
            continue
        turns = gathered(sample, args.workers, games, chunks, [args.explore] * len(chunks))
        found = fit(turns)
        alone = fit(turns, ("expected",))
        off = f", random choices other than moves at {args.explore}" if args.explore else ""
        print(f"{game_id}: {len(turns)} turns of {args.n} games from seed {args.seed}{off}")
        for k, w in found["weights"].items():
            print(f"  {k:<10} {w:8.4f} ± {found['errors'][k]:.4f}  {FEATURES[k]}")
        print(
            f"  log-likelihood per turn {found['loglik']:.4f}; hand-set alone "
            f"{alone['loglik']:.4f}; even chances {-math.log(SEATS):.4f}"
        )
        if args.write:
            found |= {"games": args.n, "seed": args.seed, "turns": len(turns)}
            if args.explore:
                found["explore"] = args.explore
            data_file(game_id).write_bytes(msgspec.json.format(msgspec.json.encode(found)) + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
