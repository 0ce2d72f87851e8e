"""``meeple validate``: check records and snapshots, one report per file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.text import Text

from meeple.cli import environment, output
from meeple.core.validate import Report, check_file

app = typer.Typer()


@app.command()
def validate(
    ctx: typer.Context,
    files: Annotated[list[Path], typer.Argument(help="Record or snapshot files to check.")],
    json: Annotated[bool, typer.Option("--json", help="Print a JSON array of reports.")] = False,
    check_every: Annotated[
        int, typer.Option(min=0, help="Also check a record's state every N steps (0: at the end).")
    ] = 0,
) -> None:
    """Check game records and snapshots: strict decoding, the game's rules, the final digest.

    A record is replayed action by action (the first illegal step is named);
    a snapshot's state is checked card by card. Exit code 0 when every file
    is valid, 1 when any is not.

    Example: meeple validate game.json saves/*.json --json
    """
    env = environment.env(ctx)
    reports = [check_file(f, env.registry, env.hooks, check_every=check_every) for f in files]
    if json:
        # JSON holds UTF-8 only: a byte of a file name that is not is written as its escape.
        named = [
            msgspec.structs.replace(r, path=r.path.encode(errors="backslashreplace").decode())
            for r in reports
        ]
        output.echo_json(msgspec.json.encode(named))
    else:
        for report in reports:
            show(report)
    if not all(r.ok for r in reports):
        raise typer.Exit(1)


def show(report: Report) -> None:
    """One line per file; an invalid file's problems follow, one per line."""
    kind = (report.kind or "").removeprefix("meeple.")
    what = f"{kind} of {report.game}" if report.game else kind
    if report.steps is not None:
        what += f", {report.steps} steps" if kind == "record" else f" at step {report.steps}"
    status = ("OK     ", "green") if report.ok else ("INVALID", "bold red")
    line = Text.assemble(status, " ", output.plain(report.path))
    if what:
        line.append_text(output.plain(f" ({what})"))
    output.console.print(line, soft_wrap=True)
    for problem in report.problems:
        output.console.print(output.plain(f"  - {problem}"), soft_wrap=True)
