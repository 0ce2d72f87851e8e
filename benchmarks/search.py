"""Speed and strength of the ``ismcts`` search bot: ``python benchmarks/search.py
speed|ladder|deviations``.

``speed`` times one decision at ``--iterations`` (200) in every game, on the
states halfway through a few random games (4 seats, or the game's most if
fewer), and prints decisions/s and iterations/s (best of ``--repeat``).

``ladder`` plays ``-n`` games per pairing, seats rotated: each search bot of
``--search`` (``ismcts`` with its options; a row names them with those the game
adds, its ``bot_options``) against ``--against`` in every other
seat (``random`` and ``bot``, the game's own, by default), and prints the
search's share of the wins (a win shared by k seats counts 1/k) with its 95%
Wilson interval, and the CPU seconds of its decisions that had a choice. Games
are played on ``--workers`` processes; the same options give the same games.
A pairing is also one ``meeple simulate`` run (without the timing)::

    meeple simulate clonk -n 1000 --seats ismcts:depth=8,greedy,greedy,greedy --rotate

``deviations`` plays ``-n`` such games of the first ``--search`` against the first of
``--against`` and judges each decision where the search chose otherwise than that bot would
have: both choices are played on ``--deals`` common deals of the seat's view and on to the end
by that bot in every seat, and the search's choice gains the difference of the seat's mean
win. It prints the deviations by kind of action (the search's, and the bot's instead).

Figures depend on the machine; nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from meeple.cli.arguments import best_bot
from meeple.core.bots import Bot, Prompt, RandomBot
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream, bot_stream
from meeple.core.runner import RunSpec
from meeple.core.scoring import rank
from meeple.core.search import rewards
from meeple.core.state import State
from meeple.core.stats import wilson


def seats_for(game: Any) -> int:
    return min(4, game.max_seats)


def midgame(game: Any, seats: int, seed: int) -> State:
    """Halfway through a random game, moved on to the next decision with a real choice."""
    match = Match.new(game, seats, seed, Hooks(None))
    match.run([RandomBot(game, s, bot_stream(seed, s, "random")) for s in range(seats)])
    again = Match.new(game, seats, seed, Hooks(None))
    for action in match.actions[: len(match.actions) // 2]:
        again.step(action)
    while len(again.legal()) == 1:
        again.step(again.legal()[0])
    return again.state


def speed(registry: Registry, games: list[str], iterations: int, samples: int, repeat: int) -> None:
    print(f"one ismcts decision at {iterations} iterations, mid-game, best of {repeat}")
    print(f"{'game':<16} {'seats':>5} {'decisions/s':>12} {'iterations/s':>13}")
    for game_id in games:
        game = registry.game(game_id)()
        seats = seats_for(game)
        states = [midgame(game, seats, seed) for seed in range(samples)]
        player = registry.player(f"ismcts:iterations={iterations}", game_id)
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            for i, state in enumerate(states):
                seat = state.stack[-1].seat
                bot = player.make(game, seat, i)
                bot.choose(Prompt.of(game, state, seat, game.legal_actions(state)))
            best = min(best, time.perf_counter() - started)
        rate = len(states) / best
        print(f"{game_id:<16} {seats:>5} {rate:>12.2f} {rate * iterations:>13.0f}")


class Timed:
    """A bot that counts the decisions it searched (more than one legal action) and their CPU
    time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.searched = 0
        self.seconds = 0.0

    def choose(self, prompt: Prompt) -> Any:
        if len(prompt.legal) == 1:
            return self.bot.choose(prompt)
        started = time.process_time()
        action = self.bot.choose(prompt)
        self.seconds += time.process_time() - started
        self.searched += 1
        return action


class Rung(NamedTuple):
    """The games of one pairing: each seat's share of the win, and the search's decisions."""

    shares: list[float]
    """The search's share of each game's win."""
    searched: int
    seconds: float


def play_rung(spec: RunSpec, seeds: range) -> Rung:
    """The games of ``seeds`` with the search (the spec's first bot) timed: a worker's unit."""
    registry = Registry(plugin_manager())
    hooks = Hooks(registry.pm)
    game = spec.make(registry)
    search = spec.bots[0]
    rung = Rung([], 0, 0.0)
    for seed in seeds:
        seated = spec.seating(seed)
        match = Match.new(game, len(seated), seed, hooks)
        bots = [registry.player(name, game.id).make(game, s, seed) for s, name in enumerate(seated)]
        timed = [
            Timed(bot) if name == search else bot for bot, name in zip(bots, seated, strict=True)
        ]
        places = rank(match.run(timed))
        firsts = places.count(1)
        rung.shares.append(
            sum(
                1 / firsts
                for name, place in zip(seated, places, strict=True)
                if name == search and place == 1
            )
        )
        for bot in timed:
            if isinstance(bot, Timed):
                rung = rung._replace(
                    searched=rung.searched + bot.searched, seconds=rung.seconds + bot.seconds
                )
    return rung


def run_rung(spec: RunSpec, seeds: range, workers: int) -> Rung:
    """The games of ``seeds`` of a pairing, in chunks on ``workers`` processes (spawned, as
    ``simulate``'s); the share so far goes to stderr after each chunk."""
    size = max(1, min(25, len(seeds) // (workers * 4)))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    rung = Rung([], 0, 0.0)
    with contextlib.ExitStack() as stack:
        if workers == 1:
            parts: Iterator[Rung] = map(play_rung, [spec] * len(chunks), chunks)
        else:
            context = multiprocessing.get_context("spawn")
            pool = stack.enter_context(ProcessPoolExecutor(workers, mp_context=context))
            parts = pool.map(play_rung, [spec] * len(chunks), chunks)
        for part in parts:
            rung.shares.extend(part.shares)
            rung = rung._replace(
                searched=rung.searched + part.searched, seconds=rung.seconds + part.seconds
            )
            share = wilson(sum(rung.shares), len(rung.shares))
            print(f"  {len(rung.shares)} games: {share.value:.1%}", file=sys.stderr, flush=True)
    return rung


def ladder(
    registry: Registry,
    games: list[str],
    searches: list[str],
    against: list[str],
    n: int,
    workers: int,
    first: int = 0,
) -> None:
    print(
        f"{n} rotated games per pairing from seed {first}: the search's share of wins (95% Wilson)"
    )
    for game_id in games:
        game = registry.game(game_id)()
        seats = seats_for(game)
        opponents = [best_bot(registry, game_id) if a == "bot" else a for a in against]
        for opponent in dict.fromkeys(opponents):
            for search in searches:
                # The row names what the seat played: the game's own options written out.
                played = registry.player(search, game_id).text
                spec = RunSpec.of(game, [search] + [opponent] * (seats - 1), rotate=True)
                rung = run_rung(spec, range(first, first + n), workers)
                share = wilson(sum(rung.shares), len(rung.shares))
                per = rung.seconds / rung.searched if rung.searched else 0.0
                print(
                    f"{game_id:<16} {played:<36} vs {seats - 1} {opponent:<10} "
                    f"{share.value:6.1%} [{share.low:5.1%}, {share.high:5.1%}]  "
                    f"fair {1 / seats:.0%}  {per:.3f} s/decision",
                    flush=True,
                )


class Watched:
    """A bot that also asks ``guide`` at each of its decisions with a choice, and keeps those
    where they differ: the seat, its view, its choice and the guide's."""

    def __init__(self, bot: Bot, guide: Bot) -> None:
        self.bot, self.guide = bot, guide
        self.kept: list[tuple[int, State, Any, Any]] = []

    def choose(self, prompt: Prompt) -> Any:
        action = self.bot.choose(prompt)
        if len(prompt.legal) > 1 and (hint := self.guide.choose(prompt)) != action:
            self.kept.append((prompt.seat, prompt.view, action, hint))
        return action


def played_out(game: Any, bots: list[Bot], state: State) -> list[float]:
    """Each seat's win (1/k of one shared by k) once ``bots`` have played ``state`` to its end."""
    while state.stack:
        seat = state.stack[-1].seat
        legal = game.legal_actions(state)
        if len(legal) > 1:
            legal = [bots[seat].choose(Prompt.of(game, state, seat, legal))]
        game.resolve(state, legal[0])
    return rewards(game.scores(state), "win")


def deviations(registry: Registry, game_id: str, search: str, against: str, n: int,
               first: int, deals: int) -> None:  # fmt: skip
    game = registry.game(game_id)()
    opponent = best_bot(registry, game_id) if against == "bot" else against
    spec = RunSpec.of(game, [search] + [opponent] * (seats_for(game) - 1), rotate=True)
    judged: dict[tuple[str, str], list[float]] = {}
    wins = 0.0
    for seed in range(first, first + n):
        seated = spec.seating(seed)
        bots = [registry.player(name, game.id).make(game, s, seed) for s, name in enumerate(seated)]
        at = seated.index(search)
        watched = bots[at] = Watched(
            bots[at], registry.player(opponent, game.id).make(game, at, seed)
        )
        wins += rewards(Match.new(game, len(seated), seed, Hooks(None)).run(bots), "win")[at]
        judges = [
            registry.player(opponent, game.id).make(game, s, seed) for s in range(len(seated))
        ]
        for seat, view, action, hint in watched.kept:
            deal, gain = game.dealer(view), 0.0
            for k in range(deals):
                for sign, choice in ((1, action), (-1, hint)):
                    state = deal(Stream(f"judge/{k}"))
                    game.resolve(state, choice)
                    gain += sign * played_out(game, judges, state)[seat]
            kinds = (type(action).__name__, type(hint).__name__)
            judged.setdefault(kinds, []).append(gain / deals)
        print(f"  {seed - first + 1} games", file=sys.stderr, flush=True)
    print(f"{game_id}: {search} against {opponent}, {n} games from seed {first}, won "
          f"{wins / n:.1%}; each deviation judged on {deals} deals")  # fmt: skip
    head = ("the search played", "instead of", "times", "mean gain", "better", "worse")
    print("{:<20} {:<20} {:>6} {:>10} {:>7} {:>6}".format(*head))
    every = [g for gains in judged.values() for g in gains]
    for (mine, theirs), gains in sorted(judged.items(), key=lambda kv: -len(kv[1])):
        print(f"{mine:<20} {theirs:<20} {len(gains):>6} {sum(gains) / len(gains):>+10.3f} "
              f"{sum(g > 0 for g in gains):>7} {sum(g < 0 for g in gains):>6}")  # fmt: skip
    if every:
        print(f"{'all':<41} {len(every):>6} {sum(every) / len(every):>+10.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "ladder", "deviations"])
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("--iterations", type=int, default=200, help="speed: iterations")
    parser.add_argument("--samples", type=int, default=3, help="speed: mid-game states per game")
    parser.add_argument("--repeat", type=int, default=3, help="speed: runs, the best kept")
    parser.add_argument(
        "--search",
        nargs="+",
        default=["ismcts:iterations=25", "ismcts:iterations=100"],
        help="ladder: the search bots to rank, each with its options",
    )
    parser.add_argument(
        "--against",
        default="random,bot",
        help="ladder: comma-separated opponents (bot: the game's own best bot)",
    )
    parser.add_argument("-n", type=int, default=40, help="ladder: games per pairing")
    parser.add_argument("--seed", type=int, default=0, help="ladder: the first game's seed")
    parser.add_argument("--workers", type=int, default=1, help="ladder: processes")
    parser.add_argument("--deals", type=int, default=16, help="deviations: deals per judgement")
    args = parser.parse_args(argv)
    registry = Registry(plugin_manager())
    games = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else []
    for game_id in games:
        if game_id not in registry.games:
            parser.error(
                f"no game {game_id!r} is installed (installed: {', '.join(registry.games)})"
            )
    games = games or sorted(registry.games)
    try:
        if args.what == "speed":
            speed(registry, games, args.iterations, args.samples, args.repeat)
        elif args.what == "deviations":
            against = args.against.split(",")[0]
            for game_id in games:
                deviations(
                    registry, game_id, args.search[0], against, args.n, args.seed, args.deals
                )
        else:
            against = args.against.split(",")
            ladder(registry, games, args.search, against, args.n, args.workers, args.seed)
    except MeepleError as error:  # a bot or option misnamed: say which, as the CLI does
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
