"""Train a policy on a game's environment, export it to ONNX, and rate it as a seat.

    pip install "meeple[rl,policy]" onnx
    python examples/rl_policy.py --game clank --games 100 --seed 0

1. Imitation: games of the game's ``heuristic`` bot in every seat, stepped through the
   game's PettingZoo environment (:mod:`meeple.core.rl`), keep each decision's observation,
   action mask and the heuristic's choice as a catalogue index.
2. Training (numpy, CPU): a softmax over the legal actions of low-rank linear scores,
   ``b + ((observation / scale) @ U) @ V``, fitted to those choices by Adam on the cross
   entropy, for ``--epochs`` passes over the decisions.
3. Export: the same scores as an ONNX graph, built with the onnx package's helpers: input
   ``observation`` of shape (batch, observation size), output ``scores`` of shape (batch,
   catalogue size), what the ``policy`` bot reads.
4. Rating: ``meeple tournament GAME --bots policy:model=FILE,random,heuristic``, whose
   openskill ratings and win shares the script prints.
"""

from __future__ import annotations

import os

# One thread for numpy's matrix products: they are small, and on a busy machine a second
# BLAS thread waiting for a core makes each one many times slower. Set before numpy loads.
for threads in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(threads, "1")

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from meeple.core import rl
from meeple.core.bots import Prompt
from meeple.core.plugins import Registry, plugin_manager


class Decisions:
    """What imitation learns from: each decision's observation (its nonzero entries: a
    game's observation is mostly zeros), its legal actions and which of them was chosen."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    def add(self, observation: np.ndarray, legal: np.ndarray, chosen: int) -> None:
        nonzero = np.flatnonzero(observation)
        at = int(np.flatnonzero(legal == chosen)[0])
        self.rows.append((nonzero, observation[nonzero], legal, at))

    def __len__(self) -> int:
        return len(self.rows)

    def arrays(self) -> Batches:
        return Batches(self.size, self.rows)


class Batches:
    """The decisions as arrays, cut into batches without a loop in Python: the nonzero
    entries of every observation one after the other, and the legal actions padded to the
    widest decision's."""

    def __init__(self, size: int, rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]):
        columns, values, legal, chosen = zip(*rows, strict=True)
        self.size = size
        self.columns, self.values = np.concatenate(columns), np.concatenate(values)
        self.offsets = np.cumsum([0, *map(len, columns)])
        self.widths = np.array([len(row) for row in legal])
        self.legal = np.zeros((len(rows), self.widths.max()), np.intp)
        self.valid = np.arange(self.legal.shape[1]) < self.widths[:, None]
        self.legal[self.valid] = np.concatenate(legal)
        self.chosen = np.array(chosen)

    def scale(self) -> np.ndarray:
        """The largest magnitude of each observation entry (1 where it is never larger)."""
        scale = np.ones(self.size, np.float32)
        np.maximum.at(scale, self.columns, np.abs(self.values))
        return scale

    def batch(self, rows: np.ndarray) -> tuple[np.ndarray, ...]:
        """The observations of ``rows`` (dense), their legal actions, which are real, and
        the index of the one chosen among them."""
        starts, counts = self.offsets[rows], np.diff(self.offsets)[rows]
        at = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        x = np.zeros((len(rows), self.size), np.float32)
        x[np.repeat(np.arange(len(rows)), counts), self.columns[at]] = self.values[at]
        widest = self.widths[rows].max()
        return x, self.legal[rows, :widest], self.valid[rows, :widest], self.chosen[rows]


def imitate(env: Any, registry: Registry, bot: str, seeds: range) -> Decisions:
    """Games of ``bot`` in every seat, stepped through ``env``: its decisions."""
    game = env.game
    decisions = Decisions(env.encoder.size)
    for seed in seeds:
        env.reset(seed=seed)
        player = registry.player(bot, game.id)
        bots = [player.make(game, seat, seed) for seat in range(env.seats)]
        for agent in env.agent_iter():
            observed, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            match, seat = env.match, env.possible_agents.index(agent)
            action = bots[seat].choose(Prompt.of(game, match.state, seat, match.legal()))
            chosen = env.index[env.key(action)]
            legal = np.flatnonzero(observed["action_mask"])
            if len(legal) > 1:  # a forced move teaches nothing
                decisions.add(observed["observation"], legal, chosen)
            env.step(chosen)
    return decisions


class LowRank:
    """Scores ``b + ((x / scale) @ U) @ V`` of every catalogue action; the policy is their
    softmax over the legal ones."""

    def __init__(self, scale: np.ndarray, actions: int, rank: int, rng: np.random.Generator):
        self.scale = scale
        self.params = {  # float32 throughout: mixed with float64, products cost several times
            "U": rng.normal(0, 1 / np.sqrt(len(scale)), (len(scale), rank)).astype(np.float32),
            "V": rng.normal(0, 1 / np.sqrt(rank), (rank, actions)).astype(np.float32),
            "b": np.zeros(actions, np.float32),
        }
        self.moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in self.params.items()}
        self.steps = 0

    def step(
        self, x: np.ndarray, legal: np.ndarray, valid: np.ndarray, chosen: np.ndarray, rate: float
    ) -> float:
        """One Adam step on a batch: ``x`` its observations, ``legal`` the legal actions of
        each (padded, ``valid`` marking the real ones), ``chosen`` the index of the action
        taken among them; the batch's mean cross entropy."""
        U, V, b = self.params["U"], self.params["V"], self.params["b"]
        x = x / self.scale
        h = x @ U
        columns = V[:, legal]  # (rank, batch, legal)
        logits = np.einsum("nr,rnl->nl", h, columns) + b[legal]
        logits = np.where(valid, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        rows = np.arange(len(chosen))
        loss = -np.log(p[rows, chosen] + 1e-12).mean()
        g = p.astype(np.float32)
        g[rows, chosen] -= 1
        g[~valid] = 0
        g /= len(chosen)
        every = np.zeros((len(chosen), len(b)), np.float32)  # g over the whole catalogue
        every[np.repeat(rows, valid.sum(axis=1)), legal[valid]] = g[valid]
        grads = {"U": x.T @ (every @ V.T), "V": h.T @ every, "b": every.sum(axis=0)}
        self.steps += 1
        for key, grad in grads.items():
            first, second = self.moments[key]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad**2
            fresh1, fresh2 = first / (1 - 0.9**self.steps), second / (1 - 0.999**self.steps)
            self.params[key] -= rate * fresh1 / (np.sqrt(fresh2) + 1e-8)
        return float(loss)

    def onnx(self) -> onnx.ModelProto:
        """The scores as an ONNX graph: what the ``policy`` bot reads."""
        size, actions = self.params["U"].shape[0], self.params["V"].shape[1]
        weights = {"inverse_scale": 1 / self.scale, **self.params}
        nodes = [
            helper.make_node("Mul", ["observation", "inverse_scale"], ["x"]),
            helper.make_node("MatMul", ["x", "U"], ["h"]),
            helper.make_node("MatMul", ["h", "V"], ["hv"]),
            helper.make_node("Add", ["hv", "b"], ["scores"]),
        ]
        graph = helper.make_graph(
            nodes,
            "low-rank policy",
            [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", size])],
            [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", actions])],
            [numpy_helper.from_array(w.astype(np.float32), k) for k, w in weights.items()],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(model)
        return model


def train(batches: Batches, model: LowRank, epochs: int, rng: np.random.Generator) -> float:
    """Adam on batches of 256 decisions, shuffled anew each epoch; the last epoch's mean
    cross entropy."""
    losses = [float("nan")]
    for _ in range(epochs):
        order = rng.permutation(len(batches.chosen))
        losses = [
            model.step(*batches.batch(order[i : i + 256]), 0.01) for i in range(0, len(order), 256)
        ]
    return float(np.mean(losses))


def rate(game: str, model: Path, games: int, seed: int, workers: int | None) -> dict[str, Any]:
    """``meeple tournament``'s ratings of the policy against random and heuristic play."""
    bots = f"policy:model={model},random,heuristic"
    command = [sys.executable, "-m", "meeple.cli", "tournament", game, "--bots", bots]
    command += ["-n", str(games), "--seed", str(seed), "--json"]
    command += [] if workers is None else ["--workers", str(workers)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"meeple tournament failed: {done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="clank", help="a game with a heuristic bot")
    parser.add_argument("--seats", type=int, default=3, help="table size (default 3)")
    parser.add_argument("--games", type=int, default=100, help="games imitated (default 100)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over them (default 10)")
    parser.add_argument("--rank", type=int, default=32, help="rank of U @ V (default 32)")
    parser.add_argument("--rated", type=int, default=90, help="tournament games (default 90)")
    parser.add_argument("--out", type=Path, default=Path("policy.onnx"), help="the model file")
    parser.add_argument("--seed", type=int, default=0, help="seeds the games and the training")
    parser.add_argument("--workers", type=int, help="the tournament's processes (default all)")
    args = parser.parse_args(argv)
    registry = Registry(plugin_manager())
    env = rl.env(args.game, seats=args.seats)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    decisions = imitate(env, registry, "heuristic", range(args.seed, args.seed + args.games))
    played = time.perf_counter() - start
    print(
        f"{args.game}, {args.seats} seats: {len(decisions):,} decisions of the heuristic bot "
        f"in {args.games} games ({played:.1f} s)"
    )
    batches = decisions.arrays()
    model = LowRank(batches.scale(), len(env.catalogue), args.rank, rng)
    loss = train(batches, model, args.epochs, rng)
    trained = time.perf_counter() - start - played
    print(f"trained {args.epochs} epochs in {trained:.1f} s (cross entropy {loss:.3f})")
    onnx.save(model.onnx(), args.out)
    sha = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes, sha256 {sha})")
    # The tournament's games follow the imitated ones: none was seen in training.
    result = rate(args.game, args.out, args.rated, args.seed + args.games, args.workers)
    wins = {bot["name"]: bot["win_rate"] for bot in result["summary"]["bots"]}
    print(f"meeple tournament, {result['summary']['games']} games: rating mu (mu ± 2σ), wins")
    for rating in result["ratings"]:
        name, won = rating["bot"], wins[rating["bot"]]
        shown = "policy" if name.startswith("policy:") else name
        print(
            f"{shown:>9}  {rating['mu']:5.1f} ({rating['low']:5.1f}–{rating['high']:5.1f})  "
            f"{won['value']:.0%} ({won['low']:.0%}–{won['high']:.0%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
