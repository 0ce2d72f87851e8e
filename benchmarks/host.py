"""Hosted games under load: many games at once on one server, every seat a bot client.

``python benchmarks/host.py`` starts a server of ``meeple host``'s kind (the same lobby,
app and uvicorn settings, with limits raised to take every connection) in a process of its
own, hosting ``--concurrent`` games of ``--game`` at once, every seat a human's; this
process seats a random bot client (:func:`meeple.core.net.connect`, over websockets on
127.0.0.1) at each, and the server starts the next game as one ends, up to ``--games``
(or ``--seconds``, after which no game starts). It prints games/s, moves/s, the time from
a move sent to the next view received (p50, p90, p99, the worst), and the server's
resident memory as the games go on: flat, if nothing is kept of a game that ended.

The clients play at once, so the server is as busy as they can make it: the latency is
mostly the time a move waits behind the other games' moves. Figures depend on the machine
and its load; nothing here is asserted by the test suite beyond a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from meeple.core import net
from meeple.core.bots import HUMAN
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import Stream

console = Console()


def rss_kib() -> int:
    """This process's resident memory now (Linux), in KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# -- the server -------------------------------------------------------------------------


async def serve(game_id: str, seats: int, concurrent: int, games: int) -> None:
    """Host ``concurrent`` games at a time, ``games`` in all, printing one JSON line for
    each game started (its links) and ended (the memory then)."""
    from meeple.cli import hosting

    registry = Registry(plugin_manager(entry_points=False))
    cls = registry.game(game_id)
    limits = net.Limits(connections=concurrent * seats + 8, waiting=concurrent * seats)
    lobby = net.Lobby(limits)
    sock = hosting.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    web = hosting.server(lobby, sock, hosting.names("127.0.0.1", port)[1])
    say({"port": port})
    names = [HUMAN] * seats
    started = 0

    async def one(number: int) -> None:
        match = Match.new(cls(), seats, number, Hooks(None))
        tokens = net.Tokens.new(names)
        host = net.Host(match, names, [None] * seats, tokens=tokens)
        lobby.hosts.append(host)
        say({"game": number, "tokens": tokens.seats})
        await host.run()
        lobby.hosts.remove(host)
        say({"over": number, "rss_kib": rss_kib()})

    async def games_in_turn() -> None:
        nonlocal started
        running: set[asyncio.Task[None]] = set()
        while started < games or running:
            while started < games and len(running) < concurrent:
                running.add(asyncio.create_task(one(started)))
                started += 1
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        web.should_exit = True

    await hosting.serve(web, sock, [games_in_turn(), stopped(web)])


async def stopped(web: Any) -> None:
    """Stop serving when the benchmark closes this process's input (it has seen enough)."""
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    web.should_exit = True


def say(line: dict[str, Any]) -> None:
    print(json.dumps(line), flush=True)


# -- the clients ----------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.memory: list[tuple[int, int]] = []


async def seat(link: str, tally: Tally, stream: Stream, games: Any) -> None:
    """Play one seat at random through its link, timing each move to the next view."""
    async with net.connect(link, games) as remote:
        sent: tuple[int, float] | None = None
        async for update in remote.updates():
            if sent is not None and update.step > sent[0]:
                tally.latencies.append(time.perf_counter() - sent[1])
                sent = None
            if update.to_move is None:
                return
            if update.to_move == remote.seat and update.choices and sent is None:
                sent = (update.step, time.perf_counter())
                tally.moves += 1
                await remote.choose(update.step, stream.below(len(update.choices)))


async def drive(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server, seat bot clients at every game it starts, and sum it up."""
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        "--game",
        args.game,
        "--seats",
        str(args.seats),
        "--concurrent",
        str(args.concurrent),
        "--games",
        str(args.games),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None and server.stdin is not None
    games = Registry(plugin_manager(entry_points=False)).game
    tally = Tally()
    port = json.loads(await server.stdout.readline())["port"]
    clients: set[asyncio.Task[None]] = set()
    start = time.perf_counter()
    deadline = start + args.seconds
    seated: set[int] = set()
    while True:
        line = json.loads(await server.stdout.readline())
        if "tokens" in line and time.perf_counter() < deadline:  # none starts past the time
            seated.add(line["game"])
            for s, token in enumerate(line["tokens"]):
                stream = Stream(f"bench/{line['game']}/{s}")
                link = f"http://127.0.0.1:{port}/#{token}"
                task = asyncio.create_task(seat(link, tally, stream, games))
                clients.add(task)
                task.add_done_callback(clients.discard)
        elif "over" in line:
            seated.discard(line["over"])
            tally.games += 1
            if tally.games == 1 or tally.games % args.every == 0:
                tally.memory.append((tally.games, line["rss_kib"]))
        if not seated and (tally.games == args.games or time.perf_counter() >= deadline):
            break
    await asyncio.gather(*clients)
    wall = time.perf_counter() - start
    server.stdin.close()
    server.kill()
    await server.wait()
    cuts = statistics.quantiles(tally.latencies, n=100) if len(tally.latencies) > 1 else [0.0] * 99
    return {
        "game": args.game,
        "seats": args.seats,
        "concurrent": args.concurrent,
        "games": tally.games,
        "seconds": round(wall, 1),
        "games_per_s": round(tally.games / wall, 2),
        "moves_per_s": round(tally.moves / wall, 1),
        "latency_ms": {
            "p50": round(cuts[49] * 1000, 1),
            "p90": round(cuts[89] * 1000, 1),
            "p99": round(cuts[98] * 1000, 1),
            "max": round(max(tally.latencies, default=0.0) * 1000, 1),
        },
        "server_rss_mib": [(games, round(kib / 1024, 1)) for games, kib in tally.memory],
    }


def report(result: dict[str, Any]) -> None:
    table = Table(title=f"{result['concurrent']} {result['game']} games at once, "
                  f"{result['seats']} bot clients each")  # fmt: skip
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("games played", str(result["games"]))
    table.add_row("seconds", str(result["seconds"]))
    table.add_row("games/s", str(result["games_per_s"]))
    table.add_row("moves/s", str(result["moves_per_s"]))
    for key, value in result["latency_ms"].items():
        table.add_row(f"move to next view, {key} (ms)", str(value))
    for games, mib in result["server_rss_mib"]:
        table.add_row(f"server memory after {games} games (MiB)", str(mib))
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clank")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--concurrent", type=int, default=100, help="games at once")
    parser.add_argument("--games", type=int, default=1000, help="games in all")
    parser.add_argument("--seconds", type=float, default=900, help="no game starts after this")
    parser.add_argument("--every", type=int, default=100, help="memory shown every N games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(args.game, args.seats, args.concurrent, args.games))
        return 0
    result = asyncio.run(drive(args))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
