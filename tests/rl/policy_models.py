"""Small ONNX models for the policy bot's tests, built with the onnx package's helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def low_rank(
    path: Path,
    size: int,
    actions: int,
    *,
    seed: int = 0,
    rank: int = 3,
    mask: int | None = None,
    batch: Any = "batch",
) -> Path:
    """Scores ``(observation @ U) @ V + b`` of random weights, written to ``path``. With
    ``mask`` (an ONNX tensor type), a second input ``action_mask`` of that type adds
    ``(mask @ P) @ Q``: each legal action's score then depends on which others are legal."""
    rng = np.random.default_rng(seed)
    weights = {
        "U": rng.normal(0, 0.1, (size, rank)),
        "V": rng.normal(0, 1, (rank, actions)),
        "b": rng.normal(0, 1, actions),
        "P": rng.normal(0, 1, (actions, rank)),
        "Q": rng.normal(0, 1, (rank, actions)),
    }
    nodes = [
        helper.make_node("MatMul", ["observation", "U"], ["h"]),
        helper.make_node("MatMul", ["h", "V"], ["hv"]),
        helper.make_node("Add", ["hv", "b"], ["scores" if mask is None else "own"]),
    ]
    inputs = [helper.make_tensor_value_info("observation", TensorProto.FLOAT, [batch, size])]
    if mask is not None:
        inputs.append(helper.make_tensor_value_info("action_mask", mask, [batch, actions]))
        nodes += [
            helper.make_node("Cast", ["action_mask"], ["m"], to=TensorProto.FLOAT),
            helper.make_node("MatMul", ["m", "P"], ["mp"]),
            helper.make_node("MatMul", ["mp", "Q"], ["mq"]),
            helper.make_node("Add", ["own", "mq"], ["scores"]),
        ]
    else:
        del weights["P"], weights["Q"]
    return save(
        path,
        nodes,
        inputs,
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [batch, actions])],
        weights,
    )


def constant(path: Path, size: int, scores: np.ndarray) -> Path:
    """Scores that are ``scores`` whatever the observation (``0 * sum(observation)`` added,
    so that the model reads its input)."""
    nodes = [
        helper.make_node("ReduceSum", ["observation"], ["total"], keepdims=1),
        helper.make_node("Mul", ["total", "zero"], ["nothing"]),
        helper.make_node("Add", ["nothing", "scores_of"], ["scores"]),
    ]
    return save(
        path,
        nodes,
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", size])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", len(scores)])],
        {"zero": np.zeros(1), "scores_of": scores},
    )


def save(
    path: Path,
    nodes: list[Any],
    inputs: list[Any],
    outputs: list[Any],
    weights: dict[str, np.ndarray],
) -> Path:
    initial = [numpy_helper.from_array(w.astype(np.float32), name) for name, w in weights.items()]
    graph = helper.make_graph(nodes, "policy", inputs, outputs, initial)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path
