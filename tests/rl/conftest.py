"""The environments' tests need the rl extra, the policy bot's the policy extra and onnx too:
without them they are not collected, so the default run (which deselects them anyway) does
not list them as skipped."""

from __future__ import annotations

import importlib.util

collect_ignore = (
    []
    if importlib.util.find_spec("pettingzoo")
    else ["test_env.py", "test_observation.py", "test_snapshots_rewards.py"]
)
if not all(map(importlib.util.find_spec, ("pettingzoo", "onnx", "onnxruntime"))):
    collect_ignore.append("test_policy.py")  # and the policy extra, with onnx to write models
