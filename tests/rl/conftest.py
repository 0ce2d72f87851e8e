"""The environments' tests need the rl extra: without it they are not collected, so the
default run (which deselects them anyway) does not list them as skipped."""

from __future__ import annotations

import importlib.util

collect_ignore = (
    []
    if importlib.util.find_spec("pettingzoo")
    else ["test_env.py", "test_observation.py", "test_snapshots_rewards.py"]
)
