"""The strength of every game's levels: ``python benchmarks/levels.py [--games clonk] [-n 60]``.

For each game, plays ``meeple tournament GAME --bots bot:easy,bot:medium,bot:hard`` (every
level in every seat equally often, seeds from ``--seed``, on ``--workers`` processes) and
writes what it measured -- each level's bot, its share of the wins with its 95% Wilson
interval, and its openskill rating -- to ``--out``/GAME/levels.json (``seeds/`` by default),
the table the game's plugin declares with its levels and ``meeple games --bots`` shows. The
same options play the same games; the figures depend only on them, not on the machine.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

import msgspec

from meeple.cli.tournament import Tournament
from meeple.core.levels import LEVELS, Measured, Strength
from meeple.core.plugins import Registry, plugin_manager

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def measure(registry: Registry, game_id: str, n: int, seed: int, workers: int) -> Measured:
    """One tournament of the game's levels, as the table of their strength."""
    bots = ",".join(f"bot:{name}" for name in LEVELS)
    command = f"meeple tournament {game_id} --bots {bots} -n {n} --seed {seed}"
    argv = [*shlex.split(command), "--workers", str(workers), "--json", "--quiet"]
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout
    played = msgspec.json.decode(out, type=Tournament)
    ratings = {r.bot: r for r in played.ratings}
    wins = {p.name: p for p in played.summary.bots}
    levels = {}
    for level in registry.levels(game_id):
        rating, won = ratings[level.bot], wins[level.bot]
        levels[level.name] = Strength(
            bot=level.bot,
            games=won.games,
            wins=round(won.win_rate.value, 4),
            low=round(won.win_rate.low, 4),
            high=round(won.win_rate.high, 4),
            mu=round(rating.mu, 2),
            sigma=round(rating.sigma, 2),
        )
    seats = len(played.schedule[0])
    return Measured(
        game=game_id, seats=seats, games=played.summary.games, command=command, levels=levels
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("-n", type=int, default=60, help="games per game's tournament")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--out", type=Path, default=SEEDS, help="where GAME/levels.json goes")
    args = parser.parse_args(argv)
    registry = Registry(plugin_manager())
    games = args.games.split(",") if args.games else sorted(registry.games)
    for game_id in games:
        if game_id not in registry.games:
            parser.error(
                f"no game {game_id!r} is installed (installed: {', '.join(registry.games)})"
            )
        measured = measure(registry, game_id, args.n, args.seed, args.workers)
        path = args.out / game_id / "levels.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(msgspec.json.format(msgspec.json.encode(measured)) + b"\n")
        for name, s in measured.levels.items():
            print(
                f"{game_id:<16} {name:<6} {s.bot:<48} {s.wins:6.1%} [{s.low:5.1%}, {s.high:5.1%}]"
                f"  mu {s.mu:5.2f} ± {2 * s.sigma:4.2f}",
                flush=True,
            )
        print(f"{game_id}: {measured.games} games of {measured.seats} -> {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
