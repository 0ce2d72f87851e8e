"""The errors meeple raises for things a user can fix.

Each one says what went wrong, where, and how to fix it; the CLI prints the
message and exits with code 1 (never a traceback).
"""


class MeepleError(Exception):
    """Base class of every error a user can act on."""


class UnknownGame(MeepleError):
    """No registered game has the requested id."""


class IllegalAction(MeepleError):
    """An action that is not among the legal actions of the current state."""


class ContentError(MeepleError):
    """A game's content table (cards, boards, tiles) is malformed."""


class InvalidFile(MeepleError):
    """A record or snapshot file could not be read or failed a check.

    ``problems`` lists every finding, each already phrased for a user
    (what, where -- a ``$.json.path`` or a step number -- and how to fix it).
    """

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


class UnreadableFile(MeepleError):
    """A file meeple was asked to read is not a regular file it can read within its limit.

    ``reason`` says why (missing, a folder, a device, a named pipe, too big),
    so that a caller can name the file as it knows it and say how to fix it.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")
