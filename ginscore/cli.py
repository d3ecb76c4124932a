"""The command line entry point: the only place the commands are gathered.

The commands live by concern in ``ginscore.commands`` (STYLE.md "As the
house grows"); the shared app, options and the one exit point in
``commands.common``. ``main`` builds only the command that was typed.
"""

from __future__ import annotations

import sys


def _stopped_while_starting() -> None:
    """Ctrl-C before any command ran (loading, or building the command): nothing was changed."""
    try:
        sys.stderr.write("Error: stopped; nothing was changed\n")
    except (AttributeError, OSError, ValueError):
        pass
    raise SystemExit(130)


try:
    import typer

    from .commands.common import _make_app, app
    # Each module registers its commands; the order here is the order `--help` lists them.
    from .commands import table, house, view, sessions, after, live, watching, cards, complete  # noqa: F401, I001
    from . import interrupts
    from .store import writes as database_writes
except KeyboardInterrupt:
    _stopped_while_starting()


def _typed_command(args: list[str]) -> str | None:
    """The subcommand a command line names, or None (help, or an option we do not know)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--db":
            skip = True
        elif not arg.startswith("--db="):
            return None if arg.startswith("-") else arg
    return None


def app_for(args: list[str]) -> typer.Typer:
    """An app holding only the command that was typed, else the whole app.

    typer turns every registered command into click objects before parsing,
    which costs more than the rest of a `status --json` (issue 5); the one
    command typed parses exactly as in the whole app. Anything else (help,
    a mistyped command, completion scripts, tests) uses the whole app.
    """
    typed = _typed_command(args)
    chosen = [c for c in app.registered_commands if (c.name or c.callback.__name__) == typed]
    if not chosen:
        return app
    one = _make_app()
    one.registered_callback = app.registered_callback
    one.registered_commands = chosen
    return one


def main() -> None:
    """Console-script entry point (and `python -m ginscore`)."""
    interrupts.command_line()
    try:
        app_for(sys.argv[1:])()
    except KeyboardInterrupt:  # outside the command (the exit point answers inside it)
        if database_writes():
            interrupts.finished()
            raise SystemExit(0) from None
        _stopped_while_starting()
