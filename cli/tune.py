"""``meeple tune``: search a game's options toward a stated target, on paired seeds."""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Table

from meeple.cli import arguments, environment, output
from meeple.core import tune as tuning
from meeple.core.bots import HUMAN
from meeple.core.errors import MeepleError, echo, install_hint
from meeple.core.game import Game
from meeple.core.runner import RunSpec, play

app = typer.Typer()

SHOWN = 5
"""The trials listed after the best, nearest first."""


def optuna() -> Any:
    """The ``tune`` extra's optuna, or an error saying how to install it."""
    try:
        module = importlib.import_module("optuna")
    except ImportError:
        raise MeepleError(f"meeple tune needs optuna: {install_hint('tune')}") from None
    module.logging.set_verbosity(module.logging.WARNING)
    return module


@app.command()
def tune(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `meeple games`).")],
    search: Annotated[
        list[str],
        typer.Option(
            help="An option to search: NAME (a bool, Literal or enum: every value; a bounded "
            "number: its bounds), NAME=LOW..HIGH or NAME=A,B,C. Repeat for more.",
        ),
    ],
    target: Annotated[
        str,
        typer.Option(
            help="seats (win rates equal by seat), length=N (mean game length near N rounds) "
            "or card=KIND (that card kind's adjusted effect on winning near none).",
        ),
    ],
    n: Annotated[int, typer.Option("-n", "--games", min=2, help="Games a trial plays.")] = 200,
    trials: Annotated[
        int, typer.Option(min=1, help="Trials in all; a study resumed plays only those missing.")
    ] = 30,
    seats: Annotated[
        str | None, typer.Option(help="Comma-separated bots, one per seat (default: bot).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A fixed game option, key=value.")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="First seed of every trial's games.")] = 1,
    study: Annotated[
        Path | None,
        typer.Option(help="A file keeping the trials (optuna's journal); resumed if it exists."),
    ] = None,
) -> None:
    """Search a game's options toward a target, and report the best settings.

    Every trial plays the same -n seeds with the same bots, so trials differ
    by their options alone. The search is optuna's (TPE); the nearest
    settings are printed with the measure's 95% interval. With --study the
    trials are kept in a file, and the same command later plays only the
    trials still missing. Needs the tune extra (optuna); card=KIND also needs
    the report extra's statistics.

    Example: meeple tune clonk --search hand_limit=3..9 --target seats -n 400
    """
    env = environment.env(ctx)
    with output.errors():
        registry = env.registry
        game_cls = registry.game(game_id)
        axes = [tuning.axis(game_cls.options_type, text) for text in search]
        aim = tuning.target(target)
        fixed = arguments.parse_options(game_cls, option or [])
        bots = arguments.parse_seats(
            registry, game_cls, seats or ",".join([arguments.BOT] * game_cls.max_seats)
        )
        if HUMAN in bots:
            raise MeepleError("--seats: tune plays bots only")
        kinds = _kinds(game_cls(fixed), len(bots), seed)
        if isinstance(aim, tuning.Card):
            from meeple.core.balance import require

            require("statsmodels.api")
            if aim.kind not in kinds:
                shown = ", ".join(sorted(kinds)[:12]) + (", …" if len(kinds) > 12 else "")
                raise MeepleError(
                    f"--target {target}: {game_cls.title} has no card kind {echo(aim.kind)} "
                    f"(kinds: {shown})"
                )
        seeds = arguments.seed_range(seed, n)
        optuna_ = optuna()
        setup = {"game": game_cls.id, "version": game_cls.version, "target": aim.text,
                 "search": msgspec.to_builtins(axes), "games": n, "seed": seed, "bots": bots,
                 "options": msgspec.to_builtins(fixed)}  # fmt: skip
        found = _study(optuna_, study, setup)

        def objective(trial: Any) -> float:
            values = {a.name: _suggest(trial, a) for a in axes}
            options = {**msgspec.to_builtins(fixed), **values}
            try:
                game = game_cls(msgspec.convert(options, game_cls.options_type, strict=False))
                game.setup(len(bots), seed)
            except (msgspec.ValidationError, MeepleError) as exc:
                raise MeepleError(
                    f"--search: the options {values} do not go together ({exc})"
                ) from None
            spec = RunSpec.of(game, bots, card_facts=aim.card_facts)
            result = aim.aim(spec, list(play(registry, env.hooks, spec, seeds)), kinds)
            trial.set_user_attr("aim", msgspec.to_builtins(result))
            return result.distance

        done = sum(t.state.name == "COMPLETE" for t in found.trials)
        if done < trials:
            found.optimize(objective, n_trials=trials - done, catch=())
        _show(found, axes, aim, study)


def _kinds(game: Game[Any, Any], seats: int, seed: int) -> set[str]:
    """The card kinds of the game's set-up."""
    state = game.setup(seats, seed)
    return {game.encoding.card_kind(card) for card in game.cards(state)}


def _suggest(trial: Any, axis: tuning.Axis) -> Any:
    if axis.kind == "int":
        return trial.suggest_int(axis.name, int(axis.low), int(axis.high))
    if axis.kind == "float":
        return trial.suggest_float(axis.name, axis.low, axis.high)
    return trial.suggest_categorical(axis.name, axis.choices)


def _study(optuna_: Any, path: Path | None, setup: dict[str, Any]) -> Any:
    """A new study, or the one ``path`` keeps if it searched the same setup."""
    sampler = optuna_.samplers.TPESampler(seed=setup["seed"])
    if path is None:
        return optuna_.create_study(direction="minimize", sampler=sampler)
    backend = optuna_.storages.journal.JournalFileBackend(str(path))
    storage = optuna_.storages.JournalStorage(backend)
    found = optuna_.create_study(
        storage=storage, study_name="meeple", direction="minimize", sampler=sampler,
        load_if_exists=True,
    )  # fmt: skip
    kept = found.user_attrs.get("setup")
    if kept is None:
        found.set_user_attr("setup", setup)
    elif kept != setup:
        differ = sorted(k for k in setup if kept.get(k) != setup[k])
        raise MeepleError(
            f"--study {path}: it searched another setup (its {', '.join(differ)} differ); "
            "name a new file, or give the same game, target, search, games, seed and bots"
        )
    return found


def _show(found: Any, axes: list[tuning.Axis], aim: tuning.Target, path: Path | None) -> None:
    complete = [t for t in found.trials if t.state.name == "COMPLETE"]
    complete.sort(key=lambda t: (t.value, t.number))
    table = Table(title=f"nearest to {aim.text}, of {len(complete)} trials")
    for column in ("trial", *(a.name for a in axes), "measure", "95% interval", "distance"):
        table.add_column(column, justify="right")
    for trial in complete[: SHOWN + 1]:
        result = msgspec.convert(trial.user_attrs["aim"], tuning.Aim)
        est = result.estimate
        table.add_row(
            str(trial.number), *(_shown(trial.params[a.name]) for a in axes), _number(est.value),
            f"[{_number(est.low)}, {_number(est.high)}]", _number(result.distance),
        )  # fmt: skip
        table.caption = f"measure: {result.words}"
    output.console.print(table)
    best = complete[0]
    settings = " ".join(f"{a.name}={_shown(best.params[a.name])}" for a in axes)
    kept = f" (trials kept in {path})" if path is not None else ""
    output.console.print(output.plain(f"best: {settings}{kept}"), soft_wrap=True)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return _number(value) if isinstance(value, float) else str(value)


def _number(value: float) -> str:
    return "-" if not math.isfinite(value) else f"{value:.4g}"
