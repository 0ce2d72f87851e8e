"""The games that ship with meeple, each a plugin like any third-party game."""

GAMES = (
    "meeple.plugins.clonk",
    "meeple.plugins.clank",
    "meeple.plugins.clank_catacombs",
)
"""Module paths of the built-in game plugins (the core registers them after third-party ones)."""
