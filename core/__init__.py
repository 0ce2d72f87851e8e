"""meeple's generic core: what every tabletop card game shares.

Nothing in this package knows any particular game. Games are plugins that
subclass :class:`meeple.core.game.Game` and register it through the
``meeple_games`` hook (see :mod:`meeple.core.hookspecs`).
"""

from meeple.core.errors import IllegalAction, InvalidFile, MeepleError
from meeple.core.files import FilePath
from meeple.core.game import Game, Options
from meeple.core.plugins import hookimpl
from meeple.core.state import Action, Event, Frame, State

__all__ = [
    "Action",
    "Event",
    "FilePath",
    "Frame",
    "Game",
    "IllegalAction",
    "InvalidFile",
    "MeepleError",
    "Options",
    "State",
    "hookimpl",
]
