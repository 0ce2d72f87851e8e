"""Clonk! (placeholder while the plugin is written)."""
