"""``policy``: a trained agent in a seat, from an ONNX model file (the ``policy`` extra).

The model reads a seat's decision as :mod:`meeple.core.rl`'s environments show it -- the
same encoder gives the observation, the same catalogue numbers the actions -- and scores
every action of the catalogue; the bot plays the best-scored legal one (or, with
``sample``, draws one by the softmax of the scores from its own stream). It sees the game
through its :class:`~meeple.core.bots.Prompt` alone, as every bot does.

What a model takes (checked when the bot is made, against every table size of the game):

- an input of shape ``(batch, observation size)``, float32: the observation;
- optionally a second input, the first then named ``observation`` and this one
  ``action_mask``, of shape ``(batch, catalogue size)``: the mask, in the type it declares;
- its first output, of shape ``(batch, catalogue size)``: a score for every action.

The batch dimension may be named or 1. A seat names the model by its path and its SHA-256
(:meth:`PolicyOptions.pinned` fills that in for a seat named on the command line), so a
saved game or a run names the very model it was played with, and a bot is made only from
a file with that digest: a file from elsewhere cannot make meeple load any other file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, NamedTuple

import msgspec

from meeple.core import files, rl
from meeple.core.bots import Bot, Prompt
from meeple.core.errors import MeepleError, UnreadableFile, install_hint
from meeple.core.game import Game
from meeple.core.plugins import BotOptions, hookimpl
from meeple.core.rng import Stream
from meeple.core.state import Action

INSTALL_HINT = f"bot 'policy' needs the policy extra: {install_hint('policy')}"

NO_MODEL = "bot 'policy' needs a model: write policy:model=PATH.onnx"

MAX_MODEL_BYTES = 256 * 1024 * 1024
"""The largest model file read."""

Digest = Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")]
"""A SHA-256 in hex, or nothing yet."""

# What a model's declared tensor types read as in numpy (by name: numpy is imported late).
_DTYPES = {
    "tensor(float)": "float32",
    "tensor(double)": "float64",
    "tensor(bool)": "bool",
    "tensor(int8)": "int8",
    "tensor(uint8)": "uint8",
    "tensor(int32)": "int32",
    "tensor(int64)": "int64",
}


class PolicyOptions(BotOptions, frozen=True):
    """The model of ``policy`` and how it picks."""

    model: str = ""
    """The policy's ONNX file, a path on this machine (docs/rl.md says what it reads)."""
    sample: bool = False
    """Draw the action by the softmax of the model's scores over the legal actions, from
    the bot's own stream (false: play the best-scored legal action)."""
    sha256: Digest = ""
    """The model file's SHA-256, filled in from the file for a seat named on the command
    line: a saved game names the very model."""

    def pinned(self) -> PolicyOptions:
        """The options with the model file's digest, the file loaded as a model (so that a
        file that is none stops the command before it plays)."""
        data = self._read()
        digest = files.digest(data)
        if self.sha256 and self.sha256 != digest:
            raise MeepleError(
                f"bot 'policy': the model {self.model!r} has sha256 {digest}, not the "
                f"{self.sha256} given; name the model without sha256= to play this file"
            )
        _model(self._where(), digest, data)
        return msgspec.structs.replace(self, sha256=digest)

    def unavailable(self) -> list[str]:
        if not (self.model and self.sha256):
            return [self._unpinned()]
        try:
            same = files.digest(self._read()) == self.sha256
        except MeepleError:
            same = False
        if same:
            return []
        # One message whatever the reason (missing, unreadable, other bytes): a file from
        # elsewhere learns nothing about this machine's files.
        return [
            f"bot 'policy': the model {self.model!r} is not available as it was when this game "
            f"was played (sha256 {self.sha256}); put that same file, byte for byte, at that path"
        ]

    def _read(self) -> bytes:
        """The model file's bytes."""
        if not self.model:
            raise MeepleError(NO_MODEL)
        try:
            return files.read_file(self.model, MAX_MODEL_BYTES)
        except UnreadableFile as exc:
            raise MeepleError(f"bot 'policy', option model={self.model}: {exc.reason}") from None

    def _where(self) -> str:
        return f"the model {self.model!r}"

    def _unpinned(self) -> str:
        """Why these options, not pinned, make no bot."""
        if not self.model:
            return NO_MODEL
        return (
            f"bot 'policy': its model {self.model!r} is named without its sha256, which a saved "
            "game or a run holds (the command line fills it in: policy:model=PATH)"
        )


class _Table(NamedTuple):
    """A game at one table size as its environments see it: the catalogue and the encoder."""

    actions: rl.Actions
    encoder: Any


_TABLES: dict[tuple[type, bytes, int], _Table] = {}


def _table(game: Game[Any, Any], seats: int) -> _Table:
    """The catalogue and encoder of ``game`` at ``seats``, made once per process."""
    key = (type(game), msgspec.json.encode(game.options), seats)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = _Table(rl.Actions(game, seats), rl.observer(game, seats))
    return found


class _Model:
    """A loaded model: its session, the names of what it reads and gives, and its sizes."""

    def __init__(self, where: str, data: bytes) -> None:
        try:
            import numpy
            import onnxruntime
        except ImportError:
            raise MeepleError(INSTALL_HINT) from None
        self.numpy = numpy
        settings = onnxruntime.SessionOptions()
        # One decision is a small product: threads would only compete with the other games
        # a run plays on every core. Errors only: the command's output stays its own.
        settings.intra_op_num_threads = settings.inter_op_num_threads = 1
        settings.log_severity_level = 3
        try:
            self.session = onnxruntime.InferenceSession(
                data, settings, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime's own errors, of its own types
            reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else repr(exc)
            raise MeepleError(
                f"bot 'policy': {where} is not an ONNX model onnxruntime can load ({reason})"
            ) from None
        inputs, outputs = self.session.get_inputs(), self.session.get_outputs()
        names = [i.name for i in inputs]
        if len(inputs) == 2 and sorted(names) == ["action_mask", "observation"]:
            observed = inputs[names.index("observation")]
            mask = inputs[names.index("action_mask")]
        elif len(inputs) == 1:
            observed, mask = inputs[0], None
        else:
            raise MeepleError(
                f"bot 'policy': {where} takes the inputs {', '.join(map(repr, names))}; a "
                "model takes one, the observation, or two named observation and action_mask"
            )
        if not outputs:
            raise MeepleError(f"bot 'policy': {where} gives no output; it gives action scores")
        self.observation = observed.name
        self.size = _width(where, f"input {observed.name!r}", observed, ("tensor(float)",))
        self.mask, self.mask_type = None if mask is None else mask.name, "int8"
        scores = outputs[0]
        self.scores = scores.name
        self.actions = _width(
            where, f"output {scores.name!r}", scores, ("tensor(float)", "tensor(double)")
        )
        if mask is not None:
            width = _width(where, "input 'action_mask'", mask, tuple(_DTYPES))
            if width != self.actions:
                raise MeepleError(
                    f"bot 'policy': {where} takes a mask of {width:,} actions but scores "
                    f"{self.actions:,}; both are the catalogue's size"
                )
            self.mask_type = _DTYPES[mask.type]
        self.fits: dict[tuple[type, bytes], list[int]] = {}
        """The table sizes of each game (by class and options) that the model fits."""

    def check(self, where: str, game: Game[Any, Any]) -> list[int]:
        """The table sizes of ``game`` whose observation and catalogue the model's inputs and
        output fit; raises naming each size's when there are none."""
        key = (type(game), msgspec.json.encode(game.options))
        fits = self.fits.get(key)
        if fits is not None:
            return fits
        sizes = {
            seats: (table.encoder.size, len(table.actions.catalogue))
            for seats in range(game.min_seats, game.max_seats + 1)
            for table in (_table(game, seats),)
        }
        fits = self.fits[key] = [s for s, size in sizes.items() if size == self.shape]
        if not fits:
            theirs = ", ".join(f"{o:,} and {a:,} at {s} seats" for s, (o, a) in sizes.items())
            raise MeepleError(
                f"bot 'policy': {where} reads {self.size:,} numbers and scores "
                f"{self.actions:,} actions, but {game.title} observes and has {theirs}: "
                "export a model of this game and its options (docs/rl.md)"
            )
        return fits

    @property
    def shape(self) -> tuple[int, int]:
        return self.size, self.actions


def _width(where: str, what: str, arg: Any, types: tuple[str, ...]) -> int:
    """The fixed last dimension of a model's input or output of shape ``(batch, width)``,
    checked to be one of ``types``."""
    shape = list(arg.shape or ())
    batch_ok = len(shape) == 2 and (not isinstance(shape[0], int) or shape[0] == 1)
    if not batch_ok or not isinstance(shape[1], int):
        shown = "(" + ", ".join("batch" if d is None else str(d) for d in shape) + ")"
        raise MeepleError(
            f"bot 'policy': {where}'s {what} has shape {shown}; it must be (batch, width), "
            "the batch named or 1"
        )
    if arg.type not in types:
        raise MeepleError(
            f"bot 'policy': {where}'s {what} is a {arg.type}, not a {' or '.join(types)}"
        )
    return int(shape[1])


_MODELS: dict[str, _Model] = {}
"""Models loaded in this process, by the digest of their file."""


def _load(options: PolicyOptions) -> _Model:
    """The model ``options`` pin, read now and checked against its digest."""
    if not (options.model and options.sha256):
        raise MeepleError(options._unpinned())
    data = options._read()
    if files.digest(data) != options.sha256:
        raise MeepleError(
            f"bot 'policy': {options._where()} is not the one this game names (sha256 "
            f"{options.sha256}): it changed since; play it under its own digest by naming it "
            "again on the command line"
        )
    return _model(options._where(), options.sha256, data)


def _model(where: str, digest: str, data: bytes) -> _Model:
    """The model of file bytes ``data`` of SHA-256 ``digest``, loaded once per process."""
    model = _MODELS.get(digest)
    if model is None:
        model = _MODELS[digest] = _Model(where, data)
    return model


class Policy:
    """The bot; see the module's docstring."""

    def __init__(
        self,
        game: Game[Any, Any],
        seat: int,
        stream: Stream,
        options: PolicyOptions,
        bots: Callable[[str], Callable[..., Bot]],
    ) -> None:
        self.game, self.options = game, options
        self._where, self._model = options._where(), _load(options)
        self._fits = self._model.check(self._where, game)
        self._random = stream.random

    def choose(self, prompt: Prompt) -> Action:
        legal = prompt.legal
        if len(legal) == 1:
            return legal[0]
        view, model = prompt.view, self._model
        numpy = model.numpy
        if view.seats not in self._fits:
            tables = " or ".join(map(str, self._fits))
            raise MeepleError(
                f"bot 'policy': {self._where} was made for {self.game.title} at {tables} "
                f"seats, and this game has {view.seats}"
            )
        table = _table(self.game, view.seats)
        by_index = table.actions.legal(view, legal)
        indices = numpy.fromiter(by_index, numpy.intp, len(by_index))
        feeds = {model.observation: table.encoder(view, prompt.seat)[None, :]}
        if model.mask is not None:
            mask = numpy.zeros((1, model.actions), model.mask_type)
            mask[0, indices] = 1
            feeds[model.mask] = mask
        try:
            scores = model.session.run([model.scores], feeds)[0][0][indices]
        except Exception as exc:  # onnxruntime's own errors, of its own types
            raise MeepleError(f"bot 'policy': {self._where} failed to score ({exc})") from None
        finite = numpy.isfinite(scores)
        if not finite.all():
            raise MeepleError(
                f"bot 'policy': {self._where} scored a legal action {scores[~finite][0]}; "
                "a score is a finite number"
            )
        if not self.options.sample:
            return by_index[int(indices[int(numpy.argmax(scores))])]
        weights = numpy.exp(scores - scores.max())
        pick = int(numpy.searchsorted(numpy.cumsum(weights), self._random() * weights.sum()))
        return by_index[int(indices[min(pick, len(indices) - 1)])]


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "policy",
        Policy,
        help="plays a trained model (ONNX) from what a seat of meeple.core.rl observes",
        options=PolicyOptions,
    )
