"""Clank! Catacombs: the dungeon grows from tiles as players discover it."""
