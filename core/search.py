"""``ismcts``: a search bot that plays any game, from its seat's view alone.

Single-observer information-set Monte Carlo tree search (Cowling, Powley
and Whitehouse, 2012). Each iteration deals the cards the seat cannot see at
random (:meth:`Game.determinize` of the prompt's view), then walks one tree
shared by every deal:

- **selection**: among the actions legal in this deal, UCB1 with
  *availability* counts -- a child's exploration term counts the iterations
  in which it could have been chosen, not its parent's visits; a forced move
  (one legal action) is played without a node;
- **expansion**: one action of this deal not yet in the tree, at random;
- **guidance** (option ``guide``): another bot of the game, asked at a node through the
  same :class:`Prompt` as any bot (once, and again only in a deal where its answer is not
  legal), has its choice expanded first and given a progressive bias
  ``bias / (visits + 1)`` in selection (Chaslot et al., 2008): the search follows a sound
  policy until its own statistics outweigh it; with ``margin``, the guide's choice is
  played unless another beats it by more, and never for a kind of action in ``defer``
  (before the game's turn ``until``, if set); before the game's turn ``start``, the guide
  alone chooses;
- **rollout**: random legal actions (or another bot of the game, option
  ``rollout``) to the end, or for ``depth`` decisions (or, with ``turn``, to the
  end of the decision's turn, where the tree stops too) and then scored by
  :meth:`Game.evaluate`;
- **backpropagation**: each node on the path adds the reward of the seat
  that chose its action.

Actions are frozen structs, so nodes are keyed by action value and an action
means the same in every deal. The bot answers with the root's most visited
action; with ``reuse``, its next choice in the same turn grows on that
action's subtree. Its randomness comes from its own stream only: with an iteration
budget, the same seed gives the same choices.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

import msgspec

from meeple.core.bots import Bot, Prompt
from meeple.core.errors import MeepleError
from meeple.core.game import Game, action_types
from meeple.core.plugins import BotName, BotOptions, hookimpl
from meeple.core.rng import Stream
from meeple.core.scoring import Score, rank
from meeple.core.state import Action, State


class IsmctsOptions(BotOptions, frozen=True):
    """The search budget and policies of ``ismcts``."""

    iterations: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 200
    """Iterations per decision (with ``time`` 0): the same seed gives the same choices."""
    time: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 0.0
    """Seconds per decision instead of an iteration count (0: use ``iterations``)."""
    exploration: Annotated[float, msgspec.Meta(ge=0, le=100)] = 0.7
    """UCB1's exploration constant (rewards lie in 0..1)."""
    rollout: BotName = "random"
    """The bot that plays the rollouts: ``random`` or another bot of the game."""
    depth: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 0
    """Cut a rollout off after this many decisions and score it with the game's
    ``evaluate`` (0: play it to the end)."""
    turn: bool = False
    """Also cut a rollout off, scored with ``evaluate``, when the turn of the decision ends:
    the luck of the other seats' turns would only add noise to the comparison of this
    turn's choices."""
    reward: Literal["win", "rank"] = "win"
    """``win``: 1 for a win, 1/k for a win shared by k seats, else 0; ``rank``: 1 for
    first place down to 0 for last, in even steps (tied seats share the better place)."""
    reuse: bool = False
    """Grow the next decision of the same turn from the subtree of the action chosen, when
    the search saw that decision as the seat's own next choice."""
    guide: BotName = ""
    """A bot of the game whose choice at each node of the tree is tried first and favoured
    by ``bias`` ("": none)."""
    bias: Annotated[float, msgspec.Meta(ge=0, le=100)] = 1.0
    """With ``guide``: the bonus ``bias / (visits + 1)`` of the guide's choice in selection,
    fading as the search's own visits of it come in."""
    paired: bool = False
    """Grow no tree: each iteration deals once and plays every legal action on that deal,
    then its rollout, so the actions are compared on common deals (the luck of a deal adds
    to each alike); the answer is the action of best mean reward."""
    margin: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    """With ``guide``: play the guide's choice unless another action's mean reward beats
    its by more than this (0: the most visited action, as without a guide)."""
    defer: str = ""
    """With ``guide``: the kinds of action, by tag and joined by ``+`` (``move+teleport``),
    the search never plays in place of the guide's choice, where the game's ``evaluate``
    is known to misjudge them."""
    until: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 0
    """With ``defer``: the game's turn (every seat's turns counted, from 1) from which the
    kinds in ``defer`` are the search's to choose too, where ``evaluate`` judges them better
    the nearer the end (0: deferred all game)."""
    start: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 0
    """With ``guide``: the game's turn (every seat's turns counted, from 1) before which the
    guide's choice is played without a search, where ``evaluate`` is too far from the end
    to judge a choice (0: the search chooses from the first turn)."""


class _Node:
    """The statistics of one action at one point of the tree, and what may follow it."""

    __slots__ = ("available", "children", "hint", "seat", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.seat = -1
        """The seat that chose among the children (-1: none yet)."""
        self.hint: Action | None = None
        """With a guide: its choice among the children, in the last deal that asked it."""


def win_chances(points: Sequence[float], spread: float) -> list[float]:
    """Each seat's chance of finishing first, if its final points are ``points`` plus
    independent noise of scale ``spread`` (in points): a softmax of ``points / spread``.

    The softmax is exact for Gumbel noise (the Gumbel-max trick), a close stand-in for the
    luck still to come; the less of the game is left, the smaller the spread a game gives.
    A game's :meth:`Game.evaluate` turns its expected final points into chances with it.
    """
    top = max(points)
    weights = [math.exp((p - top) / spread) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


def rewards(scores: Sequence[Score], how: str) -> list[float]:
    """Each seat's reward in 0..1 from the final scores (see :class:`IsmctsOptions`)."""
    places = rank(scores)
    n = len(places)
    if how == "rank":
        return [1.0 if n == 1 else (n - p) / (n - 1) for p in places]
    won = places.count(1)
    return [1.0 / won if p == 1 else 0.0 for p in places]


class Ismcts:
    """The search bot; see the module's docstring."""

    def __init__(
        self,
        game: Game[Any, Any],
        seat: int,
        stream: Stream,
        options: IsmctsOptions,
        bots: Callable[[str], Callable[..., Bot]],
    ) -> None:
        if (options.depth or options.turn) and type(game).evaluate is Game.evaluate:
            cut = f"depth={options.depth}" if options.depth else "turn=true"
            raise MeepleError(
                f"bot 'ismcts', option {cut}: {game.title} has no evaluate() to score a "
                "rollout cut off before the end; leave depth at 0 and turn false"
            )
        for key, task in (("rollout", "play its own rollouts"), ("guide", "guide itself")):
            if getattr(options, key) == "ismcts":
                raise MeepleError(
                    f"bot 'ismcts', option {key}=ismcts: a search cannot {task}; "
                    "name a faster bot (random, or the game's own)"
                )
        for key, why in (
            ("defer", "it defers to the guide's choice"),
            ("start", "the guide chooses before that turn"),
        ):
            if getattr(options, key) and not options.guide:
                raise MeepleError(
                    f"bot 'ismcts', option {key}={getattr(options, key)}: {why}; "
                    "name a guide too (guide=heuristic, or another bot of the game)"
                )
        self.game = game
        self.options = options
        self._stream = stream
        self._kept: tuple[int, _Node] | None = None
        """With ``reuse``: the turn number and the subtree of the last action chosen."""
        # ``random`` rollouts the search plays itself, from its own stream.
        self._policy = None if options.rollout == "random" else self._bots(bots, "rollout")
        self._guide = self._bots(bots, "guide") if options.guide else None
        self._deferred = _deferred(game, options)

    def _bots(self, bots: Callable[[str], Callable[..., Bot]], role: str) -> list[Bot]:
        """The bot named by the option ``role`` for every seat, each with a stream drawn from
        this bot's own."""
        factory = bots(getattr(self.options, role))
        return [
            factory(self.game, s, Stream(f"{role}/{s}/{self._stream.below(2**62)}"))
            for s in range(self.game.max_seats)
        ]

    def choose(self, prompt: Prompt) -> Action:
        legal = prompt.legal
        if len(legal) == 1:
            return legal[0]
        view = prompt.view
        turn = view.turns.turn
        if self._guide is not None and turn < self.options.start:
            self._kept = None
            return self._guide[prompt.seat].choose(prompt)
        kept = self._kept
        # Sound only if, in the search's deals, the seat itself chose next in this turn.
        reused = kept[1] if kept and kept[0] == turn and kept[1].seat == prompt.seat else None
        root = self.search(view, reused)
        paired = self.options.paired
        worth = {
            a: child.total / child.visits if paired else child.visits
            for a in legal
            if (child := root.children.get(a)) is not None and child.visits
        }
        action = max(worth, key=worth.__getitem__) if worth else legal[0]
        if self._guide is not None and (self.options.margin or self._deferred):
            action = self._confident(prompt, root, action)
        if self.options.reuse:
            child = root.children.get(action)
            self._kept = (turn, child) if child is not None else None
        return action

    def _confident(self, prompt: Prompt, root: _Node, best: Action) -> Action:
        """The guide's answer to ``prompt``, unless the search's ``best`` is better by more
        than the margin in mean reward and not of a kind deferred to the guide."""
        assert self._guide is not None
        hint = self._guide[prompt.seat].choose(prompt)
        mine, theirs = root.children[best], root.children.get(hint)
        if theirs is None or best == hint:
            return hint
        until = self.options.until
        if type(best) in self._deferred and (not until or prompt.view.turns.turn < until):
            return hint
        better = mine.total / mine.visits - theirs.total / theirs.visits
        return best if better > self.options.margin else hint

    def search(self, view: State, root: _Node | None = None) -> _Node:
        """The tree grown from ``view`` (on ``root``, a subtree kept from the last decision)
        within the budget; its root's children are the answers."""
        root = _Node() if root is None else root
        # A kept subtree's hint came from a deal of the last decision: ask in one of this one.
        root.hint = None
        options = self.options
        deal = self.game.dealer(view)
        iterate = self._compare if options.paired else self._iterate
        if options.time:
            deadline = time.perf_counter() + options.time
            while True:
                iterate(root, deal)
                if time.perf_counter() >= deadline:
                    break
        else:
            for _ in range(options.iterations):
                iterate(root, deal)
        return root

    def _compare(self, root: _Node, deal: Callable[[Stream], State]) -> None:
        """One deal, and every action legal in it played on a copy of it and rolled out."""
        key = f"paired/{self._stream.below(2**62)}"
        state = deal(Stream(key))
        turn = state.turns.turn if self.options.turn else None
        seat = root.seat = state.stack[-1].seat
        legal = self.game.legal_actions(state)
        for i, action in enumerate(legal):
            if i:  # the same stream deals the same cards
                state = deal(Stream(key))
            node = root.children.get(action)
            if node is None:
                node = root.children[action] = _Node()
            else:
                node.available += 1
            self.game.resolve(state, action)
            node.visits += 1
            node.total += self._rollout(state, {seat}, turn)[seat]

    def _iterate(self, root: _Node, deal: Callable[[Stream], State]) -> None:
        game = self.game
        legal_actions, resolve = game.legal_actions, game.resolve
        below = self._stream.below
        c, bias, guide = self.options.exploration, self.options.bias, self._guide
        state = deal(self._stream)
        turn = state.turns.turn if self.options.turn else None
        stack = state.stack
        node = root
        path: list[tuple[_Node, int]] = []
        while stack and (turn is None or state.turns.turn == turn):
            seat = stack[-1].seat
            legal = legal_actions(state)
            if len(legal) == 1:  # a forced move is no choice: it takes no node
                resolve(state, legal[0])
                continue
            if guide is not None and node.hint not in legal:
                # Asked again only in a deal where its answer is not legal (or not yet asked);
                # the guide sees the deal as any bot sees a game.
                node.hint = guide[seat].choose(Prompt.of(game, state, seat, legal))
            hint, children = node.hint, node.children
            node.seat = seat
            untried: list[Action] = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            if untried:
                action = hint if hint in untried else untried[below(len(untried))]
                node = children[action] = _Node()
                resolve(state, action)
                path.append((node, seat))
                break
            action, node = max(
                ((a, children[a]) for a in legal),
                key=lambda pair: (
                    pair[1].total / pair[1].visits
                    + c * math.sqrt(math.log(pair[1].available) / pair[1].visits)
                    + (bias / (pair[1].visits + 1) if pair[0] == hint else 0.0)
                ),
            )
            resolve(state, action)
            path.append((node, seat))
        reward = self._rollout(state, {seat for _, seat in path}, turn)
        for node, seat in path:
            node.visits += 1
            node.total += reward[seat]

    def _rollout(self, state: State, seats: set[int], turn: int | None) -> dict[int, float]:
        """Play ``state`` on to the end (or the cut-off: ``depth`` decisions, or the end of
        ``turn`` unless ``None``); the reward of each of ``seats``."""
        game = self.game
        legal_actions, resolve = game.legal_actions, game.resolve
        stack = state.stack
        depth = self.options.depth
        below, policy = self._stream.below, self._policy
        steps = 0
        while stack:
            if (depth and steps >= depth) or (turn is not None and state.turns.turn != turn):
                return {s: game.evaluate(state, s) for s in seats}
            legal = legal_actions(state)
            if policy is None:
                action = legal[below(len(legal))]
            else:
                seat = stack[-1].seat
                action = policy[seat].choose(Prompt.of(game, state, seat, legal))
            resolve(state, action)
            steps += 1
        return dict(enumerate(rewards(game.scores(state), self.options.reward)))


def _deferred(game: Game[Any, Any], options: IsmctsOptions) -> frozenset[type[Action]]:
    """The action types ``options.defer`` names, or an error naming the game's tags."""
    if not options.defer:
        return frozenset()
    tags = {t.__struct_config__.tag: t for t in action_types(game)}
    names = options.defer.split("+")
    for name in names:
        if name not in tags:
            raise MeepleError(
                f"bot 'ismcts', option defer={options.defer}: {game.title} has no action "
                f"{name!r}; its actions are {', '.join(map(str, tags))}"
            )
    return frozenset(tags[name] for name in names)


@hookimpl
def meeple_bots(register: Callable[..., None]) -> None:
    register(
        "ismcts",
        Ismcts,
        help="searches the game tree over random deals of what it cannot see (ISMCTS)",
        options=IsmctsOptions,
    )
