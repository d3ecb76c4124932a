"""The one group every command line runs through, built lazily, and its one exit point: every error
becomes one line on standard error and an exit status. ``main`` is the installed script."""

from __future__ import annotations

import functools
import gc
import importlib
import re
import sys

from ginscore.cli.starting import stopped_while_starting


def import_with_ctrl_c_held(name: str) -> None:
    """Import the C extension ``name`` with Ctrl-C held off: one inside orjson's start-up crashed Python."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # Windows: a Ctrl-C is no signal there
        importlib.import_module(name)
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        importlib.import_module(name)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


# A Ctrl-C while these are read in is answered by the package (ginscore/cli/__init__.py).
import_with_ctrl_c_held("orjson")
import typer
import typer.main
from typer.core import TyperGroup

from ginscore import __version__
from ginscore.cache import run_with_the_cache
from ginscore.cli import registry, stopping, typer_app
from ginscore.cli.messages import (db_given_a_command, db_typed_after_command, fail, option_for_value, stopped,
                                   unwritten, usage_words)
from ginscore.cli.options import DB_HELP, use_db
from ginscore.core.errors import ExitStatus, GinscoreError, Refused, interrupted, message_parts
from ginscore.db.storage import writes as database_writes
from ginscore.present import terminal

# present/ cannot import the registry (cli sits above it), so terminal is told which commands' advice takes --db.
terminal.advise_commands(registry.ADVISED_COMMANDS)


class OutputLost(Exception):
    """An OSError from a command, carried past typer (which would exit 1 on a broken pipe)."""


class Group(TyperGroup):
    """Every command of the registry, built when typed, and the exit status of each run.
    A command that replaced the file exits 0 whatever follows; one that exits non-zero changed nothing."""

    context_class = typer_app.HelpContext

    def list_commands(self, ctx) -> list[str]:
        return list(registry.NAMES)

    def get_command(self, ctx, name: str):
        listed = registry.BY_NAME.get(name)
        if listed is not None and name not in self.commands:
            importlib.import_module(f"ginscore.cli.commands.{listed.module}")  # it registers its commands
            # typer builds click commands only from an app: an app of this command alone builds it, not every one.
            one = typer_app.make_app()
            one.registered_commands = [next(info for info in typer_app.app.registered_commands
                                            if info.name == name)]
            self.commands[name] = typer.main.get_command(one)
        return self.commands.get(name)

    def resolve_command(self, ctx, args):
        if args and args[0] not in registry.BY_NAME:  # a mistyped command: typer suggests from every one
            self.build_every_command()
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not ctx.resilient_parsing:  # (completion reads half-typed lines)
            check_option_values(ctx, name, command, rest)
        return name, command, rest

    def build_every_command(self) -> None:
        self.commands = {name: self.get_command(None, name) for name in registry.NAMES}

    def main(self, args=None, prog_name=None, complete_var=None, **extra):  # (it always exits: see ``main``)
        terminal.make_streams_safe()
        writes = database_writes()

        def changed() -> bool:
            return database_writes() != writes

        try:
            if args is not None and any("\x00" in str(arg) for arg in args):
                # No real command line can carry one (they are C strings); an in-process caller can.
                raise Refused("an argument contains a NUL character; no file, name or number has one")
            result = run_with_the_cache(lambda: super(Group, self).main(
                args=args, prog_name="ginscore", complete_var=complete_var, standalone_mode=False, **extra
            ), may_run_again=lambda: not changed())
            status = result if isinstance(result, int) else ExitStatus.OK
            if status == 130:  # typer's answer to KeyboardInterrupt
                status = stopped(changed())
        except GinscoreError as error:
            status = fail(error.status, *message_parts(error))
        except typer.TyperException as error:
            if (after := db_typed_after_command(args or [])) is not None:  # refused before the command read its --db
                terminal.advise_with_db(after)
            status = fail(ExitStatus.REFUSED, *usage_words(error, args))
        except (typer.Abort, KeyboardInterrupt, RuntimeError) as error:  # Python may wrap a Ctrl-C: see interrupted
            if not isinstance(error, typer.Abort) and not interrupted(error):
                raise
            status = stopped(changed())
        except OutputLost as lost:
            status = unwritten(lost.args[0], changed())
        except OSError as error:
            status = unwritten(error, changed())
        try:
            terminal.flush()
        except OSError as error:
            status = unwritten(error, changed(), status)
        if changed():
            stopping.finished()
            status = ExitStatus.OK
        sys.exit(status)

    def make_context(self, *args, **kwargs):  # where `ginscore --help` is written
        try:
            return super().make_context(*args, **kwargs)
        except OSError as error:
            raise OutputLost(error) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as error:
            raise OutputLost(error) from None


# A word shaped like a long option (--limit) is never a value given apart: no session may be named so, and a
# note that starts with '--' is given joined to its option (--note=--x).
LONG_OPTION = re.compile(r"--[a-z][a-z0-9-]*")


def check_option_values(ctx, name: str, command, args: list[str]) -> None:
    """`status --session --db x.json`: an option followed by another option (``--db``, ``--db=x``, ``-h``, or
    one the command does not have, `log -s --limit 3`) was given no value; click would take "--db" as the
    session's name."""
    options = set(ctx.help_option_names).union(*(param.opts + param.secondary_opts for param in command.params))
    long_name = {opt: max(param.opts, key=len) for param in command.params if param.param_type_name == "option"
                 and not param.is_flag and not param.count for opt in param.opts}  # those that take a value
    for option, following in zip(args, args[1:]):
        if option == "--":
            return
        word = following.split("=", 1)[0] if following.startswith("--") else following
        if option in long_name and (word in options or LONG_OPTION.fullmatch(word)):
            raise Refused(*option_for_value(option, long_name[option], following, name, known=word in options))


top = typer_app.make_app(cls=Group)


def show_version(value: bool) -> None:
    """`ginscore --version` (or -V): the version of the ginscore that runs."""
    if value:
        typer.echo(f"ginscore {__version__}")
        raise typer.Exit(0)


@top.callback(invoke_without_command=True)
def before_the_command(
    ctx: typer.Context,
    db: str = typer.Option(None, "--db", help=DB_HELP, metavar="PATH"),
    version: bool = typer.Option(
        False, "--version", "-V", help="Show the installed version and exit.", is_eager=True, callback=show_version,
    ),
) -> None:
    # The path is checked later: a --db after the command name wins, even over a refused one before it.
    use_db(ctx, db)
    if ctx.invoked_subcommand is None:
        if db in registry.BY_NAME:  # `ginscore --db status`: the path was left out, and the command taken for it
            raise Refused(*db_given_a_command(db))
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


@functools.cache
def command_line() -> Group:
    """The click group every command line runs through (the script's and the tests'), built once."""
    return typer.main.get_command(top)


def every_command() -> Group:
    """The group with every command built (completion scripts, tests)."""
    group = command_line()
    group.build_every_command()
    return group


def main(argv: list[str] | None = None) -> None:
    """The installed script, `python -m ginscore` and the tests' way in; always ends in ``SystemExit``.
    A test calling ``main(argv)`` keeps its own Ctrl-C handling and garbage collector."""
    if argv is None:
        stopping.command_line()
        # One command, then exit: the cyclic collector would only rescan a large database's parse
        # (docs/performance.md). The long-running commands switch it back on.
        gc.disable()
    args = sys.argv[1:] if argv is None else [str(arg) for arg in argv]
    try:
        command_line().main(args=args, prog_name="ginscore")
    except KeyboardInterrupt:  # outside the command (the exit point answers inside it)
        if database_writes():
            stopping.finished()
            raise SystemExit(0) from None
        stopped_while_starting()
