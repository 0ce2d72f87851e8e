"""``meeple plugins``: the registered plugins, the hooks they implement, and broken ones."""

from __future__ import annotations

import msgspec
import typer
from rich.table import Table
from rich.text import Text

from meeple.cli import environment, output
from meeple.cli.app import Meeple
from meeple.core.plugins import list_plugins

app = typer.Typer()


class CommandInfo(msgspec.Struct, frozen=True):
    """A command a plugin adds, for listings."""

    name: str
    plugin: str
    help: str


@app.command()
def plugins(
    ctx: typer.Context,
    all_: bool = typer.Option(False, "--all", help="Include the built-in plugins."),
    hook: str | None = typer.Option(None, "--hook", help="Only plugins implementing this hook."),
    json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List plugins, the hooks each implements, and the commands plugins add.

    Third-party plugins only, unless --all adds the built-in ones. Plugins
    that failed to load or to register are listed as warnings, with what is
    skipped and why; the others still work.

    Example: meeple plugins --all --hook meeple_games
    """
    env = environment.env(ctx)
    env.report = False  # every broken plugin is reported below, in full
    root = ctx.find_root().command
    commands = root.plugin_commands(ctx) if isinstance(root, Meeple) else {}
    pm = env.pm
    if hook is not None and not hasattr(pm.hook, hook):
        known = ", ".join(sorted(h for h in vars(pm.hook) if h.startswith("meeple_")))
        output.fail(f"--hook {hook!r}: no such hook (hooks: {known})")
    infos = [
        p for p in list_plugins(pm) if (all_ or not p.builtin) and (hook is None or hook in p.hooks)
    ]
    added = [
        CommandInfo(name, found.plugin, found.command.get_short_help_str(limit=200))
        for name, found in sorted(commands.items())
    ]
    if json:
        output.echo_json(
            msgspec.json.encode({"plugins": infos, "commands": added, "broken": pm.broken})
        )
        return
    for broken in pm.broken:
        output.warn(broken.describe())
    if pm.broken:
        names = ",".join(dict.fromkeys(b.name for b in pm.broken))
        output.err_console.print(
            output.plain(
                "Fix or uninstall a broken plugin, or block it: "
                f"MEEPLE_DISABLE_PLUGINS={names} silences these warnings."
            ),
            soft_wrap=True,
        )
    if not infos:
        what = "plugins" if all_ else "third-party plugins"
        found = f"implement {hook}" if hook else "are installed"
        output.console.print(f"No {what} {found}." + ("" if all_ else " (--all: built-ins too)"))
    else:
        # Built for 80 columns: a name is folded rather than cut (built-in ones share a long
        # prefix, and MEEPLE_DISABLE_PLUGINS takes the whole name), a hook per line.
        table = Table(title="Plugins")
        table.add_column("name", overflow="fold")
        table.add_column("hooks", overflow="fold")
        table.add_column("distribution", overflow="fold")
        for p in infos:  # names and versions come from plugins: text, never markup
            source = "built-in" if p.builtin else f"{p.distribution or ''} {p.version or ''}"
            hooks = Text("\n").join(map(output.plain, p.hooks))
            table.add_row(output.plain(p.name), hooks, output.plain(source.strip()))
        output.console.print(table)
    if added:
        table = Table(title="Commands added by plugins")
        for column in ("command", "plugin", "help"):
            table.add_column(column, overflow="fold")
        for c in added:
            table.add_row(*map(output.plain, (c.name, c.plugin, c.help)))
        output.console.print(table)
