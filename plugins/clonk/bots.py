"""The greedy Clonk! bot (placeholder, replaced below)."""

from meeple.core.bots import RandomBot as GreedyBot  # noqa: F401
