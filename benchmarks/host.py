"""Hosted games under load: many games at once on one server, every seat a bot client.

``python benchmarks/host.py`` starts a server of ``meeple host``'s kind (the same lobby,
app and uvicorn settings, with limits raised to take every connection) in a process of its
own, hosting ``--concurrent`` games of ``--game`` at once, every seat a human's, and
``--procs`` client processes, each seating a random bot client (:func:`meeple.core.net.connect`,
over websockets on 127.0.0.1) at every seat of its share of the games. The server starts
the next game as one ends, up to ``--games``; after ``--seconds`` no game starts, and the
games still playing are left. With ``--save DIR`` each game is saved after every action, as
``meeple host --save`` saves it. It prints games/s, moves/s, the time from a move sent to
the next view received (p50, p90, p99, the worst), the server's resident memory as the
games go on (flat, if nothing is kept of a game that ended), and where a move's time can
go besides the server's work: how late each process's event loop ran (the server's and the
clients' worst at the 99th percentile) and the server's garbage collections.

By default the clients answer at once, so the server is as busy as they can make it: the
latency is then mostly the time a move waits behind the other games' moves (with every game
waiting on the server, a move waits about games-at-once / moves-per-second). ``--think S``
has each client wait as a person would before answering, between S/2 and 3S/2 seconds
(seeded), and the latency is then the server's own. Figures depend on the machine and its
load; nothing here is asserted by the test suite beyond a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from meeple.core import net, records
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


def say(line: dict[str, Any]) -> None:
    print(json.dumps(line), flush=True)


def quantile(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (0 for fewer than two)."""
    if len(values) < 2:
        return 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Lag:
    """How late this process's event loop runs: a task that sleeps :attr:`TICK` again and
    again and notes by how much each wake-up is late (a loop busy elsewhere wakes it late)."""

    TICK = 0.01

    def __init__(self) -> None:
        self.late: list[float] = []

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.TICK)
            self.late.append(loop.time() - start - self.TICK)

    def figures(self) -> dict[str, float]:
        return {
            "p99": round(quantile(self.late, 99) * 1000, 1),
            "max": round(max(self.late, default=0.0) * 1000, 1),
        }


# -- the server -------------------------------------------------------------------------


class Collections:
    """The garbage collections of this process, timed (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self.note)

    def note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.times.append(time.perf_counter() - self._start)

    def figures(self) -> dict[str, float]:
        return {
            "count": len(self.times),
            "total_ms": round(sum(self.times) * 1000, 1),
            "max_ms": round(max(self.times, default=0.0) * 1000, 1),
        }


async def serve(args: argparse.Namespace) -> None:
    """Host ``--concurrent`` games at a time, ``--games`` in all, printing one JSON line for
    each game started (its links) and ended (the memory then), and when stopped, how late
    its loop ran and its garbage collections."""
    from meeple.cli import hosting

    collections, lag = Collections(), Lag()
    registry = Registry(plugin_manager(entry_points=False))
    cls = registry.game(args.game)
    seats, concurrent = args.seats, args.concurrent
    limits = net.Limits(connections=concurrent * seats + 8, waiting=concurrent * seats)
    lobby = net.Lobby(limits)
    sock = hosting.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    web = hosting.server(lobby, sock, hosting.names("127.0.0.1", port)[1])
    say({"port": port})
    names = [HUMAN] * seats
    started = 0

    async def one(number: int) -> None:
        game = cls()
        match = Match.new(game, seats, number, Hooks(None))
        save = None
        if args.save is not None:  # as `meeple host --save` saves: the record, atomically
            setup, path = records.setup_of(game, names, number), args.save / f"{number}.json"

            def save() -> None:
                records.write_atomic(path, records.encode(records.record_of(match, setup)))

        tokens = net.Tokens.new(names)
        host = net.Host(match, names, [None] * seats, tokens=tokens, save=save)
        lobby.hosts.append(host)
        say({"game": number, "tokens": tokens.seats})
        await host.run()
        lobby.hosts.remove(host)
        say({"over": number, "rss_kib": rss_kib()})

    async def games_in_turn() -> None:
        nonlocal started
        running: set[asyncio.Task[None]] = set()
        while started < args.games or running:
            while started < args.games and len(running) < concurrent:
                running.add(asyncio.create_task(one(started)))
                started += 1
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()

    watching = asyncio.create_task(lag.watch())
    await hosting.serve(web, sock, [games_in_turn(), stopped(web)])
    watching.cancel()
    say({"lag_ms": lag.figures(), "gc": collections.figures()})


async def stopped(web: Any) -> None:
    """Stop serving when the benchmark closes this process's input (it has seen enough)."""
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    web.should_exit = True


# -- the clients ----------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0


async def seat(link: str, tally: Tally, stream: Stream, games: Any, think: float) -> None:
    """Play one seat at random through its link, after ``think`` seconds or so (none if 0),
    timing each move to the next view."""
    async with net.connect(link, games) as remote:
        sent: tuple[int, float] | None = None
        async for update in remote.updates():
            if sent is not None and update.step > sent[0]:
                tally.latencies.append(time.perf_counter() - sent[1])
                sent = None
            if update.to_move is None:
                return
            if update.to_move == remote.seat and update.choices and sent is None:
                if think:
                    await asyncio.sleep(think * (0.5 + stream.random()))
                sent = (update.step, time.perf_counter())
                tally.moves += 1
                await remote.choose(update.step, stream.below(len(update.choices)))


async def clients(think: float) -> None:
    """Seat a bot client at each seat of every game named on this process's input (a JSON
    line of links each), until it closes; then leave the games still playing and print
    what was measured."""
    loop = asyncio.get_running_loop()
    games = Registry(plugin_manager(entry_points=False)).game
    tally, lag = Tally(), Lag()
    watching = asyncio.create_task(lag.watch())
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    playing: set[asyncio.Task[None]] = set()
    while line := await reader.readline():
        given = json.loads(line)
        for s, link in enumerate(given["links"]):
            stream = Stream(f"bench/{given['game']}/{s}")
            task = asyncio.create_task(seat(link, tally, stream, games, think))
            playing.add(task)
            task.add_done_callback(playing.discard)
    for task in list(playing):
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    watching.cancel()
    say({"latencies": tally.latencies, "moves": tally.moves, "lag_ms": lag.figures()})


# -- the benchmark ------------------------------------------------------------------------


async def drive(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server and the client processes, hand each client process its share of
    the games as the server starts them, and sum it up."""

    async def process(*argv: str) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )

    shape = ["--game", args.game, "--seats", str(args.seats)]
    shape += ["--concurrent", str(args.concurrent), "--games", str(args.games)]
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
        shape += ["--save", str(args.save)]
    server = await process("--serve", *shape)
    players = [await process("--clients", "--think", str(args.think)) for _ in range(args.procs)]
    assert server.stdout is not None and server.stdin is not None
    port = json.loads(await server.stdout.readline())["port"]
    memory: list[tuple[int, int]] = []
    over = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    seated: set[int] = set()
    while True:
        left = deadline - time.perf_counter()
        try:
            line = json.loads(await asyncio.wait_for(server.stdout.readline(), max(left, 0.01)))
        except TimeoutError:  # the time is up: the games still playing are left
            break
        if "tokens" in line and time.perf_counter() < deadline:  # none starts past the time
            number = line["game"]
            seated.add(number)
            links = [f"http://127.0.0.1:{port}/#{token}" for token in line["tokens"]]
            given = json.dumps({"game": number, "links": links}).encode() + b"\n"
            players[number % len(players)].stdin.write(given)
        elif "over" in line:
            seated.discard(line["over"])
            over += 1
            if over == 1 or over % args.every == 0:
                memory.append((over, line["rss_kib"]))
        if not seated and (over == args.games or time.perf_counter() >= deadline):
            break
    wall = time.perf_counter() - start
    tallies = []
    for player in players:
        assert player.stdin is not None and player.stdout is not None
        player.stdin.close()
        tallies.append(json.loads(await player.stdout.read()))  # one long line
        await player.wait()
    server.stdin.close()
    said = {}
    while line := await server.stdout.readline():
        said = json.loads(line)
    await server.wait()
    latencies = [t for tally in tallies for t in tally["latencies"]]
    moves = sum(tally["moves"] for tally in tallies)

    def ms(q: int) -> float:
        return round(quantile(latencies, q) * 1000, 1)

    return {
        "game": args.game,
        "seats": args.seats,
        "concurrent": args.concurrent,
        "think_s": args.think,
        "client_procs": args.procs,
        "saved": args.save is not None,
        "games": over,
        "seconds": round(wall, 1),
        "games_per_s": round(over / wall, 2),
        "moves_per_s": round(moves / wall, 1),
        "latency_ms": {
            "p50": ms(50),
            "p90": ms(90),
            "p99": ms(99),
            "max": round(max(latencies, default=0.0) * 1000, 1),
        },
        "server_rss_mib": [(games, round(kib / 1024, 1)) for games, kib in memory],
        "server_lag_ms": said.get("lag_ms"),
        "server_gc": said.get("gc"),
        "client_lag_ms": {
            key: max(tally["lag_ms"][key] for tally in tallies) for key in ("p99", "max")
        },
    }


def report(result: dict[str, Any]) -> None:
    think = f", thinking {result['think_s']} s" if result["think_s"] else ""
    saved = ", saved after every action" if result["saved"] else ""
    table = Table(title=f"{result['concurrent']} {result['game']} games at once, "
                  f"{result['seats']} bot clients each{think}{saved}, "
                  f"{result['client_procs']} client processes")  # fmt: skip
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
    for who in ("server", "client"):
        for key, value in (result[f"{who}_lag_ms"] or {}).items():
            table.add_row(f"{who} loop late, {key} (ms)", str(value))
    for key, value in (result["server_gc"] or {}).items():
        table.add_row(f"server garbage collections, {key.replace('_', ' (')}"
                      f"{')' if '_' in key else ''}", str(value))  # fmt: skip
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clank")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--concurrent", type=int, default=100, help="games at once")
    parser.add_argument("--games", type=int, default=1000, help="games in all")
    parser.add_argument(
        "--seconds", type=float, default=900, help="no game starts after this, and none plays on"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a client thinks before a move, or so"
    )
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument("--save", type=Path, help="save each game after every action, here")
    parser.add_argument("--every", type=int, default=100, help="memory shown every N games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(args))
        return 0
    if args.clients:
        asyncio.run(clients(args.think))
        return 0
    result = asyncio.run(drive(args))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
