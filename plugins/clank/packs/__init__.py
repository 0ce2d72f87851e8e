"""Effect packs: effects any game on the Clank! engine may opt into, whatever its map.

A pack is a mixin over :class:`~meeple.plugins.clank.rules.ClankEngine` holding an effect
type, its handler, its text and whatever frames and actions it needs, registered like the
engine's own rules. A game opts in by listing the pack among its bases, before
``ClankEngine``, and adding the pack's types to its vocabulary
(:func:`~meeple.plugins.clank.effects.vocabulary`), its frames and its ``Action`` union.
Where a pack needs something only the game knows (a secret pile, where the turn's market
offer is kept), it asks through a method the game implements.
"""
