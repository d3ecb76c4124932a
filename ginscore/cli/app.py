"""The command line entry point: the only place the commands are gathered.

The commands live by concern in ``ginscore.commands``, a module for each
thing people do; the shared app, options and the one exit point in
``commands.common``. ``main`` builds only the command that was typed.
"""

from __future__ import annotations

import gc
import importlib
import sys


def _stopped_while_starting() -> None:
    """Ctrl-C before any command ran (loading, or building the command): nothing was changed."""
    try:
        sys.stderr.write("Error: stopped; nothing was changed\n")
    except (AttributeError, OSError, ValueError):
        pass
    raise SystemExit(130)


def _import_held(name: str) -> None:
    """Import the C extension ``name`` with Ctrl-C held until it is loaded: orjson's module start
    crashed Python (SIGSEGV, no words, about one Ctrl-C in 300 at start-up) when a KeyboardInterrupt
    was raised inside it. Held, the Ctrl-C arrives just after, as a KeyboardInterrupt (exit 130)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # (not on Windows, where a Ctrl-C is no signal)
        importlib.import_module(name)
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        importlib.import_module(name)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


try:
    _import_held("orjson")
    import typer

    from ginscore.cli import common
    from ginscore.db import interrupts
    from ginscore.db.storage import writes as database_writes
except KeyboardInterrupt:
    _stopped_while_starting()
except RuntimeError as error:  # a Ctrl-C while a class was made (Python wraps it so)
    from ginscore.core.errors import interrupted

    if not interrupted(error):
        raise
    _stopped_while_starting()


# Where each command lives (ginscore/commands/MODULE.py), in the order `--help` lists them; a
# command line loads only its command's module (tests/test_cli_commands.py checks this list).
COMMANDS = {
    "table": ("new", "rematch", "hand", "draw", "edit", "undo"),
    "house": ("house",),
    "view": ("status", "dealer", "log", "rules", "chart"),
    "sessions": ("import", "export", "sessions", "use", "where", "rename", "delete", "restore"),
    "merge": ("merge",),
    "after": ("stats", "history"),
    "ratings": ("ratings",),
    "live": ("play",),
    "watching": ("watch",),
    "cards": ("deadwood",),
    "complete": ("complete",),
}


def _load(module: str) -> None:
    importlib.import_module(f"{__package__}.commands.{module}")  # it registers its commands on common.app


def whole_app() -> typer.Typer:
    """The app with every command (help, a mistyped command, completion scripts, tests)."""
    for module in COMMANDS:
        _load(module)
    order = [name for names in COMMANDS.values() for name in names]
    common.app.registered_commands.sort(key=lambda c: order.index(c.name or c.callback.__name__))
    return common.app


def __getattr__(name: str):
    if name == "app":  # `from ginscore.cli import app`: every command
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def _wanted(args: list[str]) -> str | None:
    """What a command line needs built: the command it names; "" for `--version` (no command at
    all); None for the whole app (help, a mistyped command, completion scripts)."""
    typed = _typed_command(args)
    if any(typed in names for names in COMMANDS.values()):
        return typed
    if typed is None and {"--version", "-V"} & set(args) and not {"-h", "--help"} & set(args):
        return ""
    return None


def app_for(args: list[str]) -> typer.Typer:
    """An app holding only the command that was typed, else the whole app.

    typer turns every registered command into click objects before parsing,
    which costs more than the rest of a `status --json`; the one
    command typed parses exactly as in the whole app, and only its module is
    loaded (with what it imports: `play` imports `undo`, `edit` and `rematch`,
    so it reaches them all the same).
    """
    wanted = _wanted(args)
    if wanted is None:
        return whole_app()
    module = next((module for module, names in COMMANDS.items() if wanted in names), None)
    if module is not None:
        _load(module)  # importing every command module cost about 2 ms more
    one = common._make_app()
    one.registered_callback = common.app.registered_callback
    one.registered_commands = [c for c in common.app.registered_commands if (c.name or c.callback.__name__) == wanted]
    return one


_built: dict = {}  # the click command for each kind of command line: built once a process (tests call main often)


def command_line(args: list[str]):
    """The click command that runs ``args``: the same for the installed script and the tests."""
    wanted = _wanted(args)
    if wanted not in _built:
        import typer.main

        _built[wanted] = typer.main.get_command(app_for(args))
    return _built[wanted]


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (and `python -m ginscore`), and the tests' way in.

    ``argv`` (the arguments after the program's name) defaults to ``sys.argv[1:]``; only then is
    this process a command line of its own (``interrupts.command_line``): a test runner calling
    ``main(argv)`` keeps its own Ctrl-C. It always ends in ``SystemExit`` with the exit status.
    """
    if argv is None:
        interrupts.command_line()
        # One command, then the process ends: Python's cyclic garbage collector only costs here
        # (it ran over every object of a 6.5 MB database parse dozens of times: about 15% of a
        # list's time at 100,000 hands; docs/performance.md). `play` and `watch`, which run
        # for an evening, switch it back on. A test calling main(argv) keeps its own.
        gc.disable()
    args = sys.argv[1:] if argv is None else [str(arg) for arg in argv]
    try:
        command_line(args).main(args=args, prog_name="ginscore")
    except KeyboardInterrupt:  # outside the command (the exit point answers inside it)
        if database_writes():
            interrupts.finished()
            raise SystemExit(0) from None
        _stopped_while_starting()
