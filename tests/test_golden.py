"""Seeded games whose outcome is pinned: a change meant to keep behaviour keeps these bytes.

``tests/golden/games.json`` holds, for every built-in game and every declared
variant, 200 games of random bots and 50 of the game's best bot in every seat,
spread over the seat counts: each game's final digest and the SHA-256 of its
event stream, plus the full events of the first game of each variant, so that a
difference can be read. The default run replays a slice of every variant; the
soak run replays them all. After a deliberate rules change, write the file anew
with ``python tests/test_golden.py --write`` and say why in the commit. After a
change of the state's layout alone, ``--digests`` writes the new final digests
and refuses if any game plays differently (its steps, end or events).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meeple import plugins as builtin
from meeple.cli.common import best_bot
from meeple.core.engine import Hooks, Match, TooLong
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.rng import bot_stream

GOLDEN = Path(__file__).parent / "golden" / "games.json"
RANDOM_GAMES, BOT_GAMES = 200, 50
DEFAULT_SLICE = 2
"""Games per variant and kind of player that the default run replays."""
MAX_STEPS = 20_000
"""A game still going after this many decisions is pinned as it stands (``ended`` false):
bots that never end a game are a behaviour to keep visible, not to hang on."""


class Played(msgspec.Struct, kw_only=True):
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    steps: int
    ended: bool
    digest: str
    events: str
    """SHA-256 of the JSON of every event, in order."""


def schedule(registry: Registry) -> list[tuple[str, dict[str, Any], list[str], int]]:
    """Every pinned game: (game id, options, seat names, seed)."""
    games = []
    for game_id in sorted(registry.games):
        cls = registry.game(game_id)
        if registry.game_plugin(game_id) not in builtin.GAMES:
            continue
        counts = range(cls.min_seats, cls.max_seats + 1)
        for options in cls.variants:
            for name, n in (("random", RANDOM_GAMES), (best_bot(registry, game_id), BOT_GAMES)):
                for seed in range(n):
                    seats = counts[seed % len(counts)]
                    games.append((game_id, dict(options), [name] * seats, seed))
    return games


def play(registry: Registry, game_id: str, options: dict[str, Any], seats: list[str], seed: int):
    cls = registry.game(game_id)
    game = cls(msgspec.convert(options, cls.options_type))
    match = Match.new(game, len(seats), seed, Hooks(None))
    bots = [
        registry.bot(name, game_id).factory(game, s, bot_stream(seed, s, name))
        for s, name in enumerate(seats)
    ]
    stream: list[bytes] = []
    with contextlib.suppress(TooLong):
        match.run(
            bots,
            on_events=lambda _seat, _action, events: stream.append(msgspec.json.encode(events)),
            max_steps=MAX_STEPS,
        )
    played = Played(
        game=game_id,
        options=options,
        seats=seats,
        seed=seed,
        steps=len(match.actions),
        ended=match.over,
        digest=game.digest(match.state),
        events=hashlib.sha256(b"\n".join(stream)).hexdigest(),
    )
    return played, stream


def _registry() -> Registry:
    return Registry(plugin_manager(entry_points=False))


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_bytes())


def _sliced(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keep, seen = [], {}
    for g in games:
        key = (g["game"], json.dumps(g["options"], sort_keys=True), g["seats"][0])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= DEFAULT_SLICE:
            keep.append(g)
    return keep


def _check(registry: Registry, games: list[dict[str, Any]]) -> None:
    for pinned in games:
        played, _ = play(
            registry, pinned["game"], pinned["options"], pinned["seats"], pinned["seed"]
        )
        assert msgspec.to_builtins(played) == pinned, f"{pinned['game']} {pinned['options']}"


def test_golden_file_covers_every_builtin_game_and_variant():
    registry = _registry()
    pinned = [(g["game"], g["options"], g["seats"], g["seed"]) for g in _golden()["games"]]
    assert pinned == schedule(registry)


def test_golden_games_replay_identically():
    _check(_registry(), _sliced(_golden()["games"]))


def test_golden_events_read_the_same():
    registry = _registry()
    for key, lines in _golden()["events"].items():
        game_id, options, seats, seed = json.loads(key)
        _, stream = play(registry, game_id, options, seats, seed)
        assert [s.decode() for s in stream] == lines, key


SOAK_BATCHES = 16
"""The soak replay's share of work per test, so that parallel workers split it."""


@pytest.mark.soak
@pytest.mark.parametrize("batch", range(SOAK_BATCHES))
def test_every_golden_game_replays_identically(batch):
    _check(_registry(), _golden()["games"][batch::SOAK_BATCHES])


def write() -> None:
    registry = _registry()
    games, events = [], {}
    for game_id, options, seats, seed in schedule(registry):
        played, stream = play(registry, game_id, options, seats, seed)
        games.append(msgspec.to_builtins(played))
        if seed == 0:
            key = json.dumps([game_id, options, seats, seed], sort_keys=True)
            events[key] = [s.decode() for s in stream]
    GOLDEN.write_text(json.dumps({"games": games, "events": events}, indent=0, sort_keys=True))
    print(f"wrote {len(games)} games to {GOLDEN}")


def write_digests() -> int:
    """New final digests for a new state layout; every game must play as pinned."""
    registry = _registry()
    golden = _golden()
    changed, differ = 0, []
    for pinned in golden["games"]:
        played, _ = play(
            registry, pinned["game"], pinned["options"], pinned["seats"], pinned["seed"]
        )
        now = msgspec.to_builtins(played)
        if {**now, "digest": None} != {**pinned, "digest": None}:
            differ.append(" ".join(str(pinned[k]) for k in ("game", "options", "seats", "seed")))
        changed += now["digest"] != pinned["digest"]
        pinned["digest"] = now["digest"]
    if differ:
        print(f"{len(differ)} games play differently; nothing written:", *differ[:20], sep="\n")
        return 1
    GOLDEN.write_text(json.dumps(golden, indent=0, sort_keys=True))
    print(f"every game plays as pinned; {changed} of {len(golden['games'])} digests changed")
    return 0


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
elif __name__ == "__main__" and sys.argv[1:] == ["--digests"]:
    sys.exit(write_digests())
