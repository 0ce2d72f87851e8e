"""``take-secret``: the top tokens of a face-down secret pile, as if found in a room."""

from __future__ import annotations

from typing import Literal

from meeple.core.state import Event
from meeple.core.zones import Zone
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank.part import S, effect, hook
from meeple.plugins.clank.present import effect_text, plural
from meeple.plugins.clank.rules import ClankEngine


class TakeSecret(fx.Effect, frozen=True, tag="take-secret"):
    """Take the top ``n`` tokens of the face-down ``kind`` secret pile, as if found in a room."""

    kind: Literal["minor", "major"]
    n: fx.Count = 1


class TakeSecretPack(ClankEngine[S]):
    """The ``take-secret`` pack; the game keeps the piles (:meth:`secret_pile`)."""

    @hook
    def secret_pile(self, state: S, kind: str) -> Zone:
        """The face-down pile of ``kind`` secrets (``major``, ``minor``)."""
        raise NotImplementedError

    @effect(TakeSecret)
    def take_secret(
        self, state: S, seat: int, e: TakeSecret, card: str | None, events: list[Event]
    ) -> None:
        pile = self.secret_pile(state, e.kind)
        for _ in range(min(e.n, len(pile))):
            self._found(state, seat, pile.draw(), events)


@effect_text.register
def _take_secret(e: TakeSecret) -> str:
    return "take " + plural(e.n, f"{e.kind} secret")
