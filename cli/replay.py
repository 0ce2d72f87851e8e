"""``meeple replay``: re-run a game record, printing its log and the final scores."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from meeple.cli import common
from meeple.core import validate
from meeple.core.game import Game
from meeple.core.state import Action, Event, State

app = typer.Typer()


class Log:
    """Prints each replayed step as ``viewer`` (a seat, or ``None`` for an onlooker) knows it.

    An action is worded from the viewer's view of the state before it, and
    its events pass through ``describe_event``, so ``--seat`` shows no more
    than that seat knew at the table.
    """

    def __init__(self, game: Game[Any, Any], seats: list[str], viewer: int | None) -> None:
        self.game, self.seats, self.viewer = game, seats, viewer
        self.round = 0
        self.line = ""

    def before(self, step: int, state: State, action: Action) -> None:
        if state.turns.round != self.round:
            self.round = state.turns.round
            common.console.rule(f"round {self.round}")
        seat = state.to_move
        who = "you" if seat == self.viewer else f"seat {seat} ({self.seats[seat or 0]})"
        said = self.game.presentation.describe_action(self.game.view(state, self.viewer), action)
        self.line = f"{step:>4}. {who}: {said}"

    def after(self, step: int, state: State, events: list[Event]) -> None:
        describe, viewer = self.game.presentation.describe_event, self.viewer
        seen = [text for e in events if (text := describe(e, viewer))]
        common.console.print(common.plain(self.line + "".join(f" — {s}" for s in seen)))


@app.command()
def replay(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A game record (meeple.record JSON).")],
    to: Annotated[
        int | None, typer.Option(min=0, help="Stop after this many actions and show the table.")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(min=0, help="Show the game as this seat knew it (default: onlooker)."),
    ] = None,
) -> None:
    """Re-run a game record: every action, its events, and the final score table.

    Each action is checked as it is replayed, and a full replay must end in
    the recorded state (exit code 1 otherwise, like `meeple validate`).

    Example: meeple replay game.json --seat 0 --to 40
    """
    env = common.env(ctx)
    with common.errors():  # every check of `meeple validate` before the log begins
        loaded, _ = validate.open_saved(file, env.registry, env.hooks)
    if not loaded.is_record:
        common.fail(
            f"{file}: this is a snapshot, which holds no actions to replay; "
            "`meeple validate` checks it and `meeple play --resume` continues it"
        )
    seats, actions = loaded.setup.seats, loaded.value.actions
    if seat is not None and seat >= len(seats):
        common.fail(f"--seat {seat}: this game has seats 0-{len(seats) - 1}", code=2)
    if to is not None and to > len(actions):
        common.fail(f"--to {to}: the record holds {len(actions)} actions", code=2)
    game = loaded.game
    common.console.print(
        common.plain(
            f"{game.title}: {len(seats)} seats ({', '.join(seats)}), seed {loaded.setup.seed}, "
            f"{len(actions)} actions"
        )
    )
    with common.errors():
        match = validate.replay(loaded, env.hooks, to=to, narration=Log(game, seats, seat))
    if match.over:
        common.console.print(common.score_table(match.scores(), seats))
        return
    common.console.print(f"after {len(match.actions)} of {len(actions)} actions:")
    common.console.print(common.shown(game.presentation.render(game.view(match.state, seat), seat)))
