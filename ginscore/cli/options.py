"""The options commands share, each declared once: --db (which every command takes after its
name too), --session, --json, --all, --limit, the choices of variant and deal, and the house-rule
options of `new`, `import` and `house` (given to a command by ``house_rule_options``, as
sqlite-utils gives its commands shared options with a decorator)."""

import functools
import inspect
from enum import Enum

import typer

from ginscore.cli.paths import DB_GIVEN, named_file
from ginscore.core.scoring import DEALS, VARIANTS, HouseRules, parse_stake
from ginscore.db.sessions import Store
from ginscore.present import terminal

DB_HELP = "The database file (default: $GINSCORE_DB, else ginscore.json in your app folder)."


def db_after_command(ctx, param, value) -> None:
    """``--db`` given after the subcommand: the same as before it (docs/commands.md), and it wins."""
    if value is not None:
        ctx.find_root().obj = Store(named_file(value, DB_GIVEN))
        terminal.advise_with_db(value)


def takes_db(function):
    """``function`` as a command that also takes ``--db PATH``: typer reads the option from the
    signature, and the value is dropped here (``db_after_command`` has opened that database)."""
    db = inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--db", metavar="PATH", help=DB_HELP, expose_value=False, callback=db_after_command))
    return with_parameters(function, [db], lambda _given: {})


def with_parameters(function, added: list[inspect.Parameter], passed, where: str | None = None):
    """``function`` with parameters ``added`` to the signature typer reads: in place of its own
    parameter ``where`` (after its last one when None). What they are given goes to
    ``passed``, whose answer is passed on to ``function`` as keywords."""
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
    """Mark a parameter as naming a ``kind`` of thing, as click marks a path as a "file".

    Kinds: "players" (of the session acted on), "everyone" (who ever played),
    "sessions", "new-players" (the names typed earlier on a `new` line).
    completions/generate.py reads the mark (the help of the one completion
    offered), and the scripts it writes ask `ginscore complete KIND` for the
    names while a line is being typed.
    """

    def complete(incomplete: str):
        return [(incomplete, COMPLETION_MARK + kind)]

    return complete


PLAYERS, EVERYONE, SESSIONS, NEW_PLAYERS = map(completes, ("players", "everyone", "sessions", "new-players"))

SESSION_HELP = "The session to act on (exact name or unique prefix); the current one when left out."
JSON_HELP = "Print one JSON document for scripts instead of tables."


def session_option():
    return typer.Option(None, "--session", "-s", help=SESSION_HELP, metavar="NAME", autocompletion=SESSIONS)


def json_option():
    return typer.Option(False, "--json", help=JSON_HELP)


def all_option():
    return typer.Option(False, "--all", help="Every session, not only the newest that fit one screen.")


def limit_option():
    return typer.Option(None, "--limit", min=1, help="Only the newest N sessions.", metavar="N")


Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)  # the choices typer shows
Deal = Enum("Deal", {name: name for name in DEALS}, type=str)  # H6 choices, as typer shows them


def rule_option(name: str, kind: type, default, *declared, **settings) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=kind,
                             default=typer.Option(default, *declared, **settings))


# House rules (H1-H7), in the order `new`, `import` and `house` list them; None means "not given".
HOUSE_RULE_OPTIONS = (
    rule_option("target", int, None, "--target", help="Points that win a game; default 100 (R14, H5)."),
    rule_option("gin_bonus", int, None, "--gin-bonus", help="Gin bonus; default 25 (R11, H1)."),
    rule_option("undercut_bonus", int, None, "--undercut-bonus", help="Undercut bonus; default 10 (R10, H1)."),
    rule_option("big_gin_bonus", int, None, "--big-gin-bonus", help="Play big gin with this bonus, often 31 (H2)."),
    rule_option("game_bonus", int, None, "--game-bonus", help="Bonus to a game's winner, often 100 (H3)."),
    rule_option("box_bonus", int, None, "--box-bonus", help="Bonus per hand won, often 20 or 25 (H3)."),
    rule_option("shutout", bool, None, "--shutout/--no-shutout",
                help="Double the winner's final score on a shutout (H3)."),
    rule_option("spades_double", bool, None, "--spades-double/--no-spades-double",
                help="Oklahoma: a spade upcard doubles the hand (H4)."),
    rule_option("ace_means_gin", bool, None, "--ace-means-gin/--no-ace-means-gin",
                help="Oklahoma: an ace upcard allows only gin (H4)."),
    rule_option("deal", Deal, None, "--deal", help="Who deals after a hand: winner (default), loser or alternate (H6)."),
    rule_option("stake", str, None, "--stake", help="Play for this much a point, like 0.01; default 0 (H7).",
                metavar="AMOUNT"),
)
# `house` alone turns big gin off (H2): the other house rules have an off form of their own.
NO_BIG_GIN = rule_option("no_big_gin", bool, False, "--no-big-gin", help="Stop playing big gin (H2).")


def house_rule_options(function=None, *, no_big_gin: bool = False):
    """Give a command the house-rule options in place of its parameter ``given_rules``, which
    then holds what each was given (None when left out); with ``no_big_gin``, --no-big-gin after
    --big-gin-bonus as well."""

    def give(function):
        options = list(HOUSE_RULE_OPTIONS)
        if no_big_gin:
            options.insert([p.name for p in options].index("big_gin_bonus") + 1, NO_BIG_GIN)
        return with_parameters(function, options, lambda given: {"given_rules": given}, where="given_rules")

    return give if function is None else give(function)


def rule_choices(given: dict) -> dict:
    """The house rules given (``house_rule_options``' ``given_rules``); an off form is False."""
    chosen = {option.name: given[option.name] for option in HOUSE_RULE_OPTIONS if given[option.name] is not None}
    if "deal" in chosen:
        chosen["deal"] = chosen["deal"].value
    if "stake" in chosen:
        chosen["stake"] = parse_stake(chosen["stake"])  # H7: exact decimal, never a float
    return chosen


def house_rules(given: dict) -> HouseRules | None:
    """The house rules given (``house_rule_options``' ``given_rules``), or None when none was."""
    chosen = {k: v for k, v in rule_choices(given).items() if v is not False}
    return HouseRules(**chosen) if chosen else None
