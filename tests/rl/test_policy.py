"""The ``policy`` bot: a trained model (ONNX) in a seat (the rl and policy extras, onnx)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
import pytest
from onnx import TensorProto, helper
from policy_models import constant, low_rank, save

from meeple.core import rl
from meeple.core.bots import Prompt
from meeple.core.engine import Hooks, Match
from meeple.core.errors import MeepleError
from meeple.core.files import digest
from meeple.core.plugins import Registry

pytestmark = pytest.mark.rl

Invoke = Callable[..., Any]

POLICY = Path(__file__).resolve().parents[2] / "examples" / "rl_policy.py"


def sizes(registry: Registry, game_id: str, seats: int) -> tuple[int, int]:
    """The observation size and catalogue size of a game's environment."""
    env = rl.make(registry.game(game_id)(), seats)
    return env.encoder.size, len(env.catalogue)


def seated(registry: Registry, name: str, game: Any, seats: int, seed: int) -> list[Any]:
    """The bot ``name`` (as the command line names it) in every seat."""
    player = registry.player(name, game.id, pin=True)
    return [player.make(game, seat, seed) for seat in range(seats)]


@pytest.mark.parametrize(
    ("game", "mask"),
    [
        ("clonk", None),
        ("clank", None),
        ("clank-catacombs", None),
        ("tiny", None),
        ("clonk", TensorProto.INT8),
        ("tiny", TensorProto.BOOL),
    ],
)
def test_the_bot_plays_what_the_model_scores_best_in_the_environment(
    registry: Registry, tmp_path: Path, game: str, mask: int | None
) -> None:
    """A game of policy bots is the game the environment plays when each step takes the
    legal action the model scores best from the environment's observation and mask: the
    bot reads a decision as the environment does (with a mask input too, whose scores
    depend on which other actions are legal)."""
    model = low_rank(tmp_path / "m.onnx", *sizes(registry, game, 2), mask=mask, seed=1)
    played = registry.game(game)()
    match = Match.new(played, 2, 5, Hooks(None))
    match.run(seated(registry, f"policy:model={model}", played, 2, 5), max_steps=3_000)
    session = onnxruntime.InferenceSession(model)
    env = rl.make(played, 2)
    env.reset(seed=5)
    for _ in env.agent_iter():
        observed, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        feeds = {"observation": observed["observation"][None, :]}
        if mask is not None:
            feeds["action_mask"] = observed["action_mask"][None, :].astype(
                bool if mask == TensorProto.BOOL else np.int8
            )
        scores = session.run(None, feeds)[0][0]
        legal = np.flatnonzero(observed["action_mask"])
        env.step(int(legal[np.argmax(scores[legal])]))
    assert env.match.actions == match.actions


def test_a_seat_named_on_the_command_line_names_its_model_by_digest(
    registry: Registry, tmp_path: Path
) -> None:
    model = low_rank(tmp_path / "m.onnx", *sizes(registry, "tiny", 2))
    sha = digest(model.read_bytes())
    assert registry.player(f"policy:model={model}", "tiny").text == f"policy:model={model}"
    pinned = registry.player(f"policy:sample=true:model={model}", "tiny", pin=True)
    assert pinned.text == f"policy:model={model}:sample=true:sha256={sha}"
    again = registry.player(pinned.text, "tiny", pin=True)  # a pinned name stays as it is
    assert again.text == pinned.text and again.unavailable() == []
    with pytest.raises(MeepleError, match=f"has sha256 {sha}, not the {'0' * 64} given"):
        registry.player(f"policy:model={model}:sha256={'0' * 64}", "tiny", pin=True)
    with pytest.raises(MeepleError, match="option sha256=abc: Expected `str` matching"):
        registry.player(f"policy:model={model}:sha256=abc", "tiny")


def test_simulate_and_tournament_name_the_model(
    cli: Invoke, registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the command line: a run file's header and a tournament's ratings name the
    model by path and digest; a run resumed once the model changed is refused, naming the
    digest each was played with."""
    monkeypatch.chdir(tmp_path)
    model = low_rank(Path("m.onnx"), *sizes(registry, "tiny", 2))
    sha = digest(model.read_bytes())
    name = f"policy:model=m.onnx:sha256={sha}"
    seats = ["--seats", "policy:model=m.onnx,random"]
    result = cli("simulate", "tiny", "-n", "4", *seats, "--jsonl", "run.jsonl")
    assert result.exit_code == 0, result.output
    header = json.loads(Path("run.jsonl").read_text().splitlines()[0])
    assert header["run"]["bots"] == [name, "random"]
    result = cli("tournament", "tiny", "--bots", "policy:model=m.onnx,random", "-n", "4")
    assert result.exit_code == 0, result.output
    assert "policy:model=m.onnx:sha256=" in "".join(result.output.split())  # folded in cells
    ratings = json.loads(
        cli(
            "tournament", "tiny", "--bots", "random,policy:model=m.onnx", "-n", "4", "--json"
        ).stdout  # the schedule's size is said on standard error
    )["ratings"]
    assert {r["bot"] for r in ratings} == {name, "random"}
    low_rank(model, *sizes(registry, "tiny", 2), seed=9)  # another model, the same path
    result = cli("simulate", "tiny", "-n", "8", *seats, "--jsonl", "run.jsonl", "--resume")
    assert result.exit_code == 1
    assert f"sha256={sha}" in result.output and f"sha256={digest(model.read_bytes())}" in (
        result.output
    )


def test_a_saved_game_plays_on_only_with_its_model(
    cli: Invoke, registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """play saves the model's digest; validate and replay check it, and a changed model is
    named as not the one the game was played with until the very file is back."""
    monkeypatch.chdir(tmp_path)
    model = low_rank(Path("m.onnx"), *sizes(registry, "tiny", 2))
    kept = model.read_bytes()
    seats = "policy:model=m.onnx,random"
    result = cli("play", "tiny", "--seats", seats, "--save", "g.json", "--plain")
    assert result.exit_code == 0, result.output
    record = json.loads(Path("g.json").read_text())
    assert record["setup"]["seats"][0] == f"policy:model=m.onnx:sha256={digest(kept)}"
    assert cli("validate", "g.json").exit_code == 0
    low_rank(model, *sizes(registry, "tiny", 2), seed=9)
    said = "the model 'm.onnx' is not available as it was when this game was played"
    for command in (("validate", "g.json"), ("replay", "g.json")):
        result = cli(*command)
        assert result.exit_code == 1 and said in " ".join(result.output.split())
    model.write_bytes(kept)
    assert cli("replay", "g.json").exit_code == 0


def test_a_file_from_elsewhere_cannot_load_another_file(
    cli: Invoke, save: Any, tmp_path: Path
) -> None:
    """A record naming a policy seat loads its model only if the file has the digest the
    record names: any other file (here one that is no model) gets the one message that
    tells nothing of it, and a seat without a digest is refused."""
    other = tmp_path / "notes.txt"
    other.write_text("not a model")
    for seat, said in (
        (f"policy:model={other}:sha256={'0' * 64}", "is not available as it was"),
        (f"policy:model={other}", "is named without its sha256"),
    ):
        path = save("record", seats=2)
        record = json.loads(path.read_text())
        record["setup"]["seats"][0] = seat
        path.write_text(json.dumps(record))
        result = cli("validate", str(path))
        assert result.exit_code == 1
        assert said in " ".join(result.output.split()) and "ONNX" not in result.output


def one_node(path: Path, node: Any, shape: list[Any], output: int = TensorProto.FLOAT) -> Path:
    """A model of one node from ``observation`` to ``scores``, both of ``shape``."""
    return save(
        path,
        [node],
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("scores", output, shape)],
        {},
    )


def two_inputs(path: Path, names: tuple[str, str]) -> Path:
    return save(
        path,
        [helper.make_node("Add", list(names), ["scores"])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["batch", 4]) for n in names],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", 4])],
        {},
    )


@pytest.mark.parametrize(
    ("write", "said"),
    [
        (lambda path, registry: None, "bot 'policy', option model=m.onnx: No such file"),
        (
            lambda path, registry: path.write_text("hello"),
            r"the model 'm.onnx' is not an ONNX model onnxruntime can load \(",
        ),
        (
            lambda path, registry: one_node(
                path, helper.make_node("Identity", ["observation"], ["scores"]), ["batch", 2, 5]
            ),
            r"the model 'm.onnx''s input 'observation' has shape \(batch, 2, 5\); it must be "
            r"\(batch, width\)",
        ),
        (
            lambda path, registry: two_inputs(path, ("observation", "legal")),
            "takes the inputs 'observation', 'legal'; a model takes one, the observation, or "
            "two named observation and action_mask",
        ),
        (
            lambda path, registry: one_node(
                path,
                helper.make_node("Cast", ["observation"], ["scores"], to=TensorProto.INT64),
                ["batch", 5],
                TensorProto.INT64,
            ),
            r"output 'scores' is a tensor\(int64\), not a tensor\(float\) or tensor\(double\)",
        ),
        (
            lambda path, registry: low_rank(path, 5, 4, batch=2),
            r"has shape \(2, 5\); it must be \(batch, width\), the batch named or 1",
        ),
        (
            lambda path, registry: low_rank(path, *sizes(registry, "clonk", 2)),
            r"reads 1,400 numbers and scores 2,023 actions, but Tiny observes and has 92 and 14 "
            r"at 2 seats, .* at 4 seats: export a model of this game",
        ),
    ],
    ids=["missing", "not-onnx", "rank", "inputs", "int", "batch", "other-game"],
)
def test_a_model_the_bot_cannot_play_is_one_clear_error(
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    write: Callable[[Path, Registry], Any],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    write(Path("m.onnx"), registry)
    game = registry.game("tiny")()
    with pytest.raises(MeepleError, match=said):
        seated(registry, "policy:model=m.onnx", game, 2, 0)


def test_a_model_of_another_table_size_is_named_at_its_first_decision(
    registry: Registry, tmp_path: Path
) -> None:
    model = low_rank(tmp_path / "m.onnx", *sizes(registry, "clonk", 2))
    game = registry.game("clonk")()
    match = Match.new(game, 3, 0, Hooks(None))
    with pytest.raises(MeepleError, match=r"made for Clonk! at 2 seats, and this game has 3"):
        match.run(seated(registry, f"policy:model={model}", game, 3, 0))


def test_a_model_is_read_as_pinned(registry: Registry, tmp_path: Path) -> None:
    """The bot is made only from the very file its name pins, and only from a pinned name:
    a program that names the seat pins it as the command line does."""
    model = low_rank(tmp_path / "m.onnx", *sizes(registry, "tiny", 2))
    game = registry.game("tiny")()
    with pytest.raises(MeepleError, match="named without its sha256"):
        registry.player(f"policy:model={model}", "tiny").make(game, 0, 0)
    pinned = registry.player(f"policy:model={model}", "tiny", pin=True)
    low_rank(model, *sizes(registry, "tiny", 2), seed=4)
    with pytest.raises(MeepleError, match=r"is not the one this game names \(sha256"):
        pinned.make(game, 0, 0)
    for named in ({"pin": True}, {}):  # named by a person, or by ismcts:rollout=policy
        with pytest.raises(MeepleError, match=r"needs a model: write policy:model=PATH\.onnx"):
            registry.player("policy", "tiny", **named).make(game, 0, 0)


def test_scores_that_are_not_numbers_are_named(registry: Registry, tmp_path: Path) -> None:
    size, actions = sizes(registry, "tiny", 2)
    model = constant(tmp_path / "m.onnx", size, np.full(actions, np.nan))
    game = registry.game("tiny")()
    with pytest.raises(MeepleError, match="scored a legal action nan; a score is a finite"):
        Match.new(game, 2, 0, Hooks(None)).run(
            seated(registry, f"policy:model={model}", game, 2, 0)
        )


def test_sampling_follows_the_scores_and_the_bots_stream(
    registry: Registry, tmp_path: Path
) -> None:
    """With sample=true the bot draws by the softmax of the scores, from its own stream:
    a score far above the others is always drawn; equal scores give each legal action in
    turn, the same ones for the same seed."""
    size, actions = sizes(registry, "tiny", 2)
    game = registry.game("tiny")()
    match = Match.new(game, 2, 3, Hooks(None))
    legal = match.legal()
    index = rl.Actions(game, 2).legal(match.state, legal)
    peak = np.zeros(actions)
    peak[max(index)] = 50.0
    peaked = constant(tmp_path / "peak.onnx", size, peak)
    flat = constant(tmp_path / "flat.onnx", size, np.zeros(actions))
    prompt = Prompt.of(game, match.state, 0, legal)

    def picks(model: Path, seed: int) -> list[Any]:
        bot = seated(registry, f"policy:model={model}:sample=true", game, 2, seed)[0]
        return [bot.choose(prompt) for _ in range(40)]

    assert set(picks(peaked, 1)) == {index[max(index)]}
    assert set(picks(flat, 1)) == set(legal) and picks(flat, 1) == picks(flat, 1)
    assert picks(flat, 1) != picks(flat, 2)


def test_the_policy_example_trains_exports_and_rates_a_model(tmp_path: Path) -> None:
    """A small budget: a few games imitated, two epochs of training, a short tournament
    whose ratings and win shares it prints, the policy's among them."""
    model = tmp_path / "policy.onnx"
    budget = ["--games", "3", "--epochs", "2", "--rated", "6", "--workers", "1"]
    result = subprocess.run(
        [sys.executable, str(POLICY), *budget, "--out", str(model), "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = result.stdout.splitlines()
    imitated = r"clank, 3 seats: [\d,]+ decisions of the heuristic bot in 3 games \(\d+\.\d s\)"
    assert re.fullmatch(imitated, lines[0])
    assert re.fullmatch(r"trained 2 epochs in \d+\.\d s \(cross entropy \d\.\d{3}\)", lines[1])
    sha = hashlib.sha256(model.read_bytes()).hexdigest()
    assert lines[2] == f"wrote {model} ({model.stat().st_size:,} bytes, sha256 {sha})"
    assert lines[3] == "meeple tournament, 6 games: rating mu (mu ± 2σ), wins"
    number = r" *-?\d+\.\d"
    rating = rf" *(\w+)  {number} \({number}–{number}\)  \d+% \(\d+%–\d+%\)"
    rated = [re.fullmatch(rating, line) for line in lines[4:]]
    assert sorted(found[1] for found in rated if found) == ["heuristic", "policy", "random"]
