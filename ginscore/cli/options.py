"""The options commands share, each declared once: --db (which every command takes after its name
too), --session, --json, --all, --limit, the variant, and what a parameter completes to; and how a set of
options is added to a command's signature (``with_parameters``), with the whole-number reader they use."""

import functools
import inspect
import re
from enum import Enum

import typer

from ginscore.cli.paths import default_db_path, index_cache, named_file
from ginscore.core.scoring import VARIANTS
from ginscore.db.store import Store
from ginscore.present import terminal

DB_HELP = "The database file (default: $GINSCORE_DB, else ginscore.json in your app folder)."


def use_db(ctx, typed: str | None) -> None:
    """Make the database ``typed`` (a --db; None: $GINSCORE_DB or the default) the one this command line's
    commands use (``actions.store_of``), and a --db typed the one its advice gives."""
    path = (functools.partial(named_file, typed, "--db a database file path", "ginscore.json")
            if typed is not None else default_db_path)
    ctx.find_root().obj = Store(path, index_cache)
    if typed is not None:
        terminal.advise_with_db(typed)


def db_after_command(ctx, param, value) -> None:
    """``--db`` given after the subcommand: the same as before it (docs/commands.md), and it wins;
    checked, as there, only when the command needs the file (`deadwood` needs none)."""
    if value is not None:
        use_db(ctx, value)


def takes_db(function):
    """``function`` as a command that also takes ``--db PATH`` (``db_after_command`` opens it)."""
    db = inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--db", metavar="PATH", help=DB_HELP, expose_value=False, callback=db_after_command))
    return with_parameters(function, [db], lambda _given: {})


def with_parameters(function, added: list[inspect.Parameter], passed, where: str | None = None):
    """``function`` with parameters ``added`` for typer, in place of its parameter ``where`` (else last);
    what they are given goes through ``passed`` to ``function`` as keywords."""
    signature = inspect.signature(function)
    own = list(signature.parameters.values())
    at = len(own) if where is None else [p.name for p in own].index(where)
    names = [p.name for p in added]

    @functools.wraps(function)
    def command(*args, **kwargs):
        given = {name: kwargs.pop(name) for name in names if name in kwargs}
        return function(*args, **kwargs, **passed(given))

    kept = own[:at] + added + own[at + (where is not None):]
    command.__signature__ = signature.replace(parameters=kept)
    return command


COMPLETION_MARK = "ginscore-completes:"


def completes(kind: str):
    """Mark a parameter as naming a ``kind`` of thing, as click marks a path a "file": the completion
    scripts (completions/generate.py) ask `ginscore complete KIND` for the names."""

    def complete(incomplete: str):
        return [(incomplete, COMPLETION_MARK + kind)]

    return complete


EVERYONE, SESSIONS, DELETED, NEW_PLAYERS = map(completes, ("everyone", "sessions", "deleted", "new-players"))
KNOCKERS, KNOCKERS_OF_HAND = map(completes, ("knockers", "knockers-of-hand"))


def session_option():
    return typer.Option(None, "--session", "-s", metavar="NAME", autocompletion=SESSIONS,
                        help="The session to act on (exact name or unique prefix); the current one when left out.")


def json_option():
    return typer.Option(False, "--json", help="Print one JSON document for scripts instead of tables.")


def all_option():
    return typer.Option(False, "--all", help="Every session, not only the newest that fit one screen.")


def limit_option():
    return typer.Option(None, "--limit", parser=whole_number(low=1), help="Only the newest N sessions.", metavar="N")


# A whole number as people type it: ASCII digits, perhaps a minus. Python's int(), and so typer's, also
# reads "1_000", "+5" and other scripts' digits; every number typed is read by this one rule.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def whole_number(low: int | None = None, high: int | None = None):
    """typer's ``parser`` for a number option or argument, from ``low`` to ``high``. Refused in click's
    words, which the command line says as people do (messages.VALIDATOR_WORDS)."""

    def read(value) -> int:
        if isinstance(value, int):  # a default
            return value
        try:
            number = int(value) if WHOLE_NUMBER.fullmatch(value.strip()) else None
        except ValueError:  # more digits than Python reads: a whole number still, too large for anything
            raise typer.BadParameter(f"it has {len(value.strip().lstrip('-'))} digits, more than any number "
                                     f"ginscore takes") from None
        if number is None:
            raise typer.BadParameter(f"{value!r} is not a valid int.")
        if (low is not None and number < low) or (high is not None and number > high):
            within = f"x>={low}" if high is None else f"{low}<=x<={high}"
            raise typer.BadParameter(f"{number} is not in the range {within}.")
        return number

    read.__name__ = "int"  # typer shows an option's metavar by it (<int>), as for a plain int
    return read


Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)  # the choices typer shows
