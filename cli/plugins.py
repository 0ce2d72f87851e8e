"""``meeple plugins``: the registered plugins, the hooks they implement, and broken ones."""

from __future__ import annotations

import msgspec
import typer
from rich.table import Table

from meeple.cli import common
from meeple.core.plugins import list_plugins

app = typer.Typer()


@app.command()
def plugins(
    ctx: typer.Context,
    all_: bool = typer.Option(False, "--all", help="Include the built-in plugins."),
    hook: str | None = typer.Option(None, "--hook", help="Only plugins implementing this hook."),
    json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List third-party plugins (--all: built-ins too) and the hooks each implements.

    Plugins that failed to load are listed as warnings; the others still work.

    Example: meeple plugins --all --hook meeple_games
    """
    pm = common.env(ctx).pm
    if hook is not None and not hasattr(pm.hook, hook):
        known = ", ".join(sorted(h for h in vars(pm.hook) if h.startswith("meeple_")))
        common.fail(f"--hook {hook!r}: no such hook (hooks: {known})")
    infos = [
        p for p in list_plugins(pm) if (all_ or not p.builtin) and (hook is None or hook in p.hooks)
    ]
    if json:
        common.echo_json(msgspec.json.encode({"plugins": infos, "broken": pm.broken}))
        return
    for broken in pm.broken:
        warning = f"plugin {broken.name!r} failed to load: {broken.error}"
        common.err_console.print(common.error_line(warning, "warning:", "yellow"), soft_wrap=True)
    if not infos:
        what = "plugins" if all_ else "third-party plugins"
        found = f"implement {hook}" if hook else "are installed"
        common.console.print(f"No {what} {found}." + ("" if all_ else " (--all: built-ins too)"))
        return
    table = Table(title="Plugins")
    for column in ("name", "hooks", "distribution", "version", "built-in"):
        table.add_column(column)
    for p in infos:
        cells = (p.name, ", ".join(p.hooks), p.distribution or "", p.version or "")
        table.add_row(*map(common.plain, cells), "yes" if p.builtin else "")
    common.console.print(table)
