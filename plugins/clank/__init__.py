"""Clank!: the deck-building dungeon crawl, and the engine Clank! games share."""
