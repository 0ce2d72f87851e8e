"""Yes-or-no questions about declared types, each answered once per type.

The zone walk asks which fields can hold a zone, the copier which values are
immutable; both read annotations, never values, so each answer is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Question = Callable[[Any], bool]


def remembered(provisional: bool) -> Callable[[Question], Question]:
    """Keep ``question``'s answer for each declared type it is asked about.

    A recursive type asks about itself while being answered: it gets
    ``provisional`` meanwhile. The keys are types a program declares (never
    anything a file holds), so the memory is bounded. An annotation with
    unhashable metadata is answered afresh each time.
    """

    def wrap(question: Question) -> Question:
        known: dict[Any, bool] = {}

        def ask(tp: Any) -> bool:
            try:
                answer = known.get(tp)
            except TypeError:
                return question(tp)
            if answer is None:
                known[tp] = provisional
                answer = known[tp] = question(tp)
            return answer

        ask.__doc__ = question.__doc__
        return ask

    return wrap
