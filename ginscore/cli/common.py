"""What every command shares: the app, its one exit point, the options and the
steps of loading and saving a session.

``_Group.main`` is where every error reaches the user: one line on standard
error and the exit status of ``errors.ExitStatus``.
"""

import errno
import functools
import gc
import inspect
import json
import os
import re
import sys
import textwrap
from enum import Enum
from pathlib import Path
from typing import NamedTuple

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from ginscore.codec import validate
from ginscore.db import interrupts
from ginscore.present import terminal
from ginscore.core.cards import parse_card, parse_cards
from ginscore.core.errors import BadCard, BadDeadwood, BadHandAt, DatabaseUnusable, ExitStatus, GameOver, GinscoreError, Refused, interrupted, message_parts
from ginscore.codec.facts import check_note, knock_from_cards
from ginscore.core.scoring import DEALS, VARIANTS, HouseRules, parse_stake
from ginscore.core.escape import json_safe, visible
from ginscore.db.damage import unsound
from ginscore.db.storage import writes as database_writes
from ginscore.db.store import Store
from ginscore.core.replay import check_shown, fold, Knock, MAX_NAME, SessionFacts, Standings, replay, resolve_player

# typer 0.29 checks values with pydantic, 0.28 with click: their words, said as people say it
# (and alike on both). Compiled when a usage error is first told (as re keeps them), not at every start.
_VALIDATOR_WORDS = (
    (r"Value error, ", ""),
    (r"Input should be a valid integer(?:, unable to parse string as an integer)?", "it is not a whole number"),
    (r"('.*') is not a valid int(?:eger)?(?: range)?\b", r"\1 is not a whole number"),
    (r"Input should be greater than or equal to (-?[0-9]+)", r"it must be \1 or more"),
    (r"(-?[0-9]+) is not in the range x>=(-?[0-9]+)", r"it must be \2 or more, not \1"),
    (r"Input should be less than or equal to (-?[0-9]+)", r"it must be \1 or less"),
)


def usage_words(error: typer.TyperException, args: list[str] | None = None, see: str | None = None) -> str:
    """What a usage error (an unknown option, a missing argument, a bad value) says, in one sentence.

    typer 0.27+ carries its own click: every click exception is a public
    ``typer.TyperException``, and a usage error is the one that knows its command.
    ``args``: the command line, to say where a misplaced ``--session`` goes; ``see``: what to do
    instead of seeing the command's --help (`play` says how its own commands are typed).
    """
    message = error.format_message()
    ctx = getattr(error, "ctx", None)
    if not hasattr(error, "ctx"):  # not about the command line (a file that cannot be opened)
        return message
    if ctx is not None and getattr(error, "option_name", None) in SESSION_OPTIONS:
        return _session_misplaced(ctx, list(args or ()))
    for validator_words, words in _VALIDATOR_WORDS:
        message = re.sub(validator_words, words, message)
    message = message.strip().rstrip(".")
    if ctx is not None and see is not None:
        message += f"; {see}"
    elif ctx is not None:  # a question ("Did you mean 'hand'?") ends its own sentence
        message += f"{' S' if message.endswith('?') else '; s'}ee `{ctx.command_path} --help`"
    elif message.endswith("requires an argument"):  # (an option last on the line: no command known yet)
        message += "; give its value right after it (`ginscore --help` lists every option)"
    return message


SESSION_OPTIONS = ("--session", "-s")

# What a command that takes no --session covers instead, and what to type ({session}: the name given).
_NO_SESSION = {
    "new": "it starts a session of its own (--name names it)",
    "rules": "it shows the rules with the current session's house rules; "
             "`ginscore house --session {session}` shows that session's",
    "import": "it brings in the session a file holds (--name names it)",
    "sessions": "it lists every session; `ginscore status --session {session}` shows one",
    "use": "give the name itself, `ginscore use {session}`",
    "where": "it prints the database's path (--db picks the database)",
    "delete": "give the name itself, `ginscore delete {session}`",
    "restore": "give the name itself, `ginscore restore {session}`",
    "merge": "it brings in every session of another database",
    "stats": "it counts every session; --player, --variant or --since narrow it",
    "history": "it lists every past session; --player, --variant or --limit narrow it",
    "ratings": "it rates every finished game; --player, --variant or --since narrow it",
    "deadwood": "it counts the cards typed, not a session's",
}


def _session_misplaced(ctx, args: list[str]) -> str:
    """`--session` where no command takes it: given before the command name (it goes after it), or
    to a command that covers no single session (what that command covers, and what to type)."""
    rest, given = _without_session(args)
    session = terminal.shell_word(given) if given is not None else "NAME"
    if ctx.parent is not None:  # a command that has no --session
        return _no_session(ctx.info_name, session)
    name = next((word for word in _words(rest) if word in ctx.command.commands), None)
    if name is None:
        return f"--session goes after the command name, like `ginscore status --session {session}`"
    if not any(param.name == "session" for param in ctx.command.commands[name].params):
        return _no_session(name, session)
    cut = rest.index("--") if "--" in rest else len(rest)
    quoted = [terminal.shell_word(word) for word in rest]
    line = " ".join([*quoted[:cut], "--session", session, *quoted[cut:]])
    return f"--session goes after the command name: `ginscore {line}`"


def _no_session(name: str, session: str) -> str:
    words = _NO_SESSION.get(name, f"see `ginscore {name} --help`")
    return f"`ginscore {name}` takes no --session: {words.format(session=session)}"


def _without_session(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without the first --session (or -s) and its value, and that value (None when none
    was given)."""
    for at, arg in enumerate(args):
        if arg in SESSION_OPTIONS:
            given = args[at + 1 : at + 2]
            return args[:at] + args[at + 2 :], given[0] if given else None
    for at, arg in enumerate(args):
        joined = re.match(r"(--session=|-s(?!-))(.+)", arg, re.S)  # --session=friday, -sfriday
        if joined:
            return args[:at] + args[at + 1 :], joined[2]
    return args, None


def _words(args: list[str]):
    """The words of a command line that are not options (nor the value of --db)."""
    words = iter(args)
    for word in words:
        if word == "--db":
            next(words, None)
        elif not word.startswith("-"):
            yield word


def _fail(status: int, *parts) -> int:
    """The one place an error is told: one line on standard error, every character visible."""
    joined = []  # runs of text as one, its spaces squeezed (never those of a path in a command's words)
    for part in parts:
        if isinstance(part, str) and joined and isinstance(joined[-1], str):
            joined[-1] += part
        else:
            joined.append(part)
    said = terminal.parts_text(re.sub("  +", " ", part) if isinstance(part, str) else part for part in joined)
    terminal.tell("Error: " + terminal.advice(said.strip(" ")))
    return int(status)


def _unwritten(error: OSError, changed: bool, status: int = ExitStatus.OK) -> int:
    """The output could not be written (a closed pipe, a full disk, a closed stdout).

    A command that changed the database exits 0 all the same (docs/commands.md). One that
    changed nothing exits 0 when the reader went away (``| head``: nothing was
    lost), else 1 with one line; one that had already failed keeps its status.
    """
    terminal.abandon_output()
    reason = error.strerror or str(error)
    if status != ExitStatus.OK and not changed:
        return status
    if changed:
        if error.errno != errno.EPIPE:
            terminal.tell(f"Note: the change was saved, but its output could not be written ({reason}).")
        return ExitStatus.OK
    if error.errno == errno.EPIPE:
        return ExitStatus.OK
    return _fail(ExitStatus.DATABASE, f"the output could not be written ({reason}); nothing was changed")


class _OutputLost(Exception):
    """An OSError out of a command, carried past typer (which would exit 1 on a broken pipe)."""

    def __init__(self, error: OSError):
        super().__init__(error)
        self.error = error


def _stopped(changed: bool) -> int:
    """Ctrl-C: before the change, exit 130 and say so; after it, exit 0 (the change stands)."""
    if changed:
        terminal.tell("Stopped; the change was saved.")
        return ExitStatus.OK
    return _fail(130, "stopped; nothing was changed")


class _HelpFormatter(typer.Context.formatter_class):
    """click's help layout, for a screen narrower than 70 columns too: the option column narrows
    (click keeps it up to 32 wide and the text at least 10, 44 in all), a term longer than the
    screen folds after a ``|`` or a space, and no line ends in spaces."""

    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None) -> None:
        # Laid out for the screen as every other output is (click would never go below 50
        # columns): at most 78 wide, as click's own, and 2 less than a narrower screen.
        super().__init__(indent_increment, width or max(min(terminal.screen_width(), 80) - 2, 20), max_width)

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        if self.width >= 70:
            return super().write_dl(rows, col_max, col_spacing)
        rows = list(rows)
        indent = " " * self.current_indent
        room = max(self.width - self.current_indent, 10)
        column = min(max(len(first) for first, _ in rows), max(8, self.width // 3)) + col_spacing
        text_width = max(room - column, 10)
        for first, second in rows:
            *before, last = _folded(first, room)
            for line in before:
                self.write(f"{indent}{line}\n")
            text = textwrap.wrap(" ".join(second.split()), text_width) if second else []
            lead = last.ljust(column) if text and len(last) + col_spacing <= column else None
            if lead is None:  # no text, or a long term: on a line of its own (its text under it)
                self.write(f"{indent}{last}\n")
            for number, line in enumerate(text):
                self.write(f"{indent}{lead if number == 0 and lead else ' ' * column}{line}\n")

    def getvalue(self) -> str:
        return "\n".join(line.rstrip() for line in super().getvalue().split("\n"))


def _folded(term: str, room: int) -> list[str]:
    """``term`` in lines of at most ``room`` characters, broken after a ``|`` or at a space."""
    lines, line = [], ""
    for piece in re.findall(r"[^| ]*(?:\||\s+|$)", term):
        if line and len(line) + len(piece.rstrip()) > room:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    return [*lines, line.rstrip()] if line.strip() or not lines else lines


class _Context(typer.Context):
    formatter_class = _HelpFormatter


class _Command(TyperCommand):
    context_class = _Context

    def parse_args(self, ctx, args):
        if ctx.ignore_unknown_options:  # `hand`, `edit`: so that "-3" reaches the deadwood check (R3)
            _unknown_option(self, ctx, args)
        return super().parse_args(ctx, args)


def _unknown_option(command, ctx, args: list[str]) -> None:
    """Refuse a word that looks like an option the command does not have (``--upcrad``), as click
    does for every other command, rather than read it as one more argument; a negative number
    ("-3") and an option's own value ("--note -x") are not options."""
    import difflib

    takes_value, known = set(), set()
    for param in command.get_params(ctx):
        names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
        known.update(names)
        if names and not getattr(param, "is_flag", False) and param.param_type_name == "option":
            takes_value.update(param.opts)
    words = iter(args)
    for word in words:
        if word == "--":
            return
        name = word.split("=", 1)[0]
        if name in takes_value and "=" not in word:
            next(words, None)
        elif len(word) > 1 and word.startswith("-") and not word[1].isdigit() and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=3)
            possible = f" (Possible options: {', '.join(close)})" if close else ""
            raise Refused(f"No such option: {name}{possible}; see `{ctx.command_path} --help`")


class _Group(TyperGroup):
    """Runs a command and turns every expected failure into one line and an exit status.

    The exit status tells the truth about the database: a command that
    replaced the file exits 0 whatever became of its output or of a Ctrl-C
    after the write; one that exits non-zero changed nothing.

    """

    context_class = _Context

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        terminal.steady()
        writes = database_writes()

        def changed() -> bool:
            return database_writes() != writes

        try:
            if args is not None and any("\x00" in str(arg) for arg in args):
                # No real command line can carry one (they are C strings); an in-process caller can.
                raise Refused("an argument contains a NUL character; no file, name or number has one")
            result = super().main(
                args=args, prog_name="ginscore", complete_var=complete_var, standalone_mode=False, **extra
            )
            status = result if isinstance(result, int) else ExitStatus.OK
            if status == 130:  # typer's answer to KeyboardInterrupt
                status = _stopped(changed())
        except GinscoreError as error:
            status = _fail(error.status, *message_parts(error))
        except typer.TyperException as error:
            status = _fail(ExitStatus.REFUSED, usage_words(error, args))
        except (typer.Abort, KeyboardInterrupt):
            status = _stopped(changed())
        except RuntimeError as error:
            if not interrupted(error):
                raise
            status = _stopped(changed())
        except _OutputLost as lost:
            status = _unwritten(lost.error, changed())
        except OSError as error:
            status = _unwritten(error, changed())
        try:
            terminal.flush()
        except OSError as error:
            status = _unwritten(error, changed(), status)
        if changed():
            interrupts.finished()
            status = ExitStatus.OK
        if standalone_mode:
            sys.exit(status)
        return status

    def make_context(self, *args, **kwargs):  # where `ginscore --help` is written
        try:
            return super().make_context(*args, **kwargs)
        except OSError as error:
            raise _OutputLost(error) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as error:
            raise _OutputLost(error) from None


class _App(typer.Typer):
    """A typer app whose every command also takes ``--db`` after its name (docs/commands.md: "accepted
    before or after the subcommand"): a real option, declared once here for each command."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", _Command)
        register = super().command(*args, **kwargs)
        return lambda function: register(_takes_db(function))


def _takes_db(function):
    """``function`` as a command that also takes ``--db PATH``: typer reads the option from the
    signature, and the value is dropped here (``_db_after_command`` has opened that database)."""
    signature = inspect.signature(function)
    db = inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--db", metavar="PATH", help=DB_HELP, expose_value=False, callback=_db_after_command))

    @functools.wraps(function)
    def command(*args, db=None, **kwargs):
        return function(*args, **kwargs)

    command.__signature__ = signature.replace(parameters=[*signature.parameters.values(), db])
    return command


def for_the_evening() -> None:
    """A command that runs for an evening (`play`, `watch`) collects its cyclic garbage again:
    ``ginscore.cli.main`` switched the collector off for a process that runs one command."""
    gc.enable()


DB_GIVEN = "--db a database file path"


def named_file(typed: str, what: str) -> Path:
    """The file a command line names. An empty name names none: refused here in one line (typer
    0.28 would have read it as the current folder, 0.29 says that folder is a directory)."""
    if not typed.strip():
        raise Refused(f"give {what}: an empty name names no file")
    return _file_path(typed, f"'{typed}'", "ginscore.json" if what == DB_GIVEN else None)


def _file_path(typed: str, named: str, example: str | None = "ginscore.json") -> Path:
    """The file ``typed`` names: a leading ``~`` read as the home folder (``ginscore.homes``:
    `--db=~/g.json` reaches ginscore unexpanded); one that ends in a slash names a folder, and
    is refused before anything is made (Python's paths drop the slash: `--db games/` made a file
    named `games`). ``named`` says where it came from; ``example``, a file name to suggest."""
    from ginscore.db.paths import NoHome, home_expanded

    if typed.endswith(("/", os.sep)):
        like = f", like {typed.rstrip('/' + os.sep)}/{example}" if example else ""
        raise Refused(f"{named} ends in /, so it names a folder; name a file in it{like}")
    try:
        path = Path(home_expanded(typed))
    except NoHome as error:
        raise Refused(f"{named} {error}") from None
    if not path.is_absolute() and path.parts and path.parts[0].startswith("~"):
        # `./~/g.json`, a folder named ~ here: Python's paths drop the ./, and `~/g.json` shown or
        # passed on would mean the home folder; the full path says which it is
        path = Path.cwd() / path
    return path


def command_of(function):
    """The command line of one command (``function``, as its module registers it), built once:
    one command that needs another (`play` runs `undo`) imports its function and calls this."""
    if function not in _built:
        info = next(c for c in app.registered_commands if c.callback is function)
        one = _make_app()
        one.registered_commands = [info]
        _built[function] = typer.main.get_command(one)
    return _built[function]


_built: dict = {}


def _make_app() -> typer.Typer:
    return _App(
        cls=_Group,
        help="Keep score of Gin Rummy at a real table: standard, Oklahoma, Hollywood and three-player.\n\n"
        "Example: ginscore new hollywood Ann Ben, then ginscore hand ann 4 22 after each hand.",
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
        rich_markup_mode=None,
    )


app = _make_app()


Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)  # the choices typer shows

COMPLETION_MARK = "ginscore-completes:"


def _completes(kind: str):
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


PLAYERS, EVERYONE, SESSIONS, NEW_PLAYERS = map(_completes, ("players", "everyone", "sessions", "new-players"))

SESSION_HELP = "The session to act on (exact name or unique prefix); the current one when left out."
JSON_HELP = "Print one JSON document for scripts instead of tables."


def _session_option():
    return typer.Option(None, "--session", "-s", help=SESSION_HELP, metavar="NAME", autocompletion=SESSIONS)


def _json_option():
    return typer.Option(False, "--json", help=JSON_HELP)


def _all_option():
    return typer.Option(False, "--all", help="Every session, not only the newest that fit one screen.")


def _limit_option():
    return typer.Option(None, "--limit", min=1, help="Only the newest N sessions.", metavar="N")


def _day(since: str | None) -> str | None:
    """The date --since names, as YYYY-MM-DD (None without --since)."""
    if since is None:
        return None
    from datetime import date

    try:
        return date.fromisoformat(since.strip()).isoformat()
    except ValueError:
        raise Refused(f"--since takes a date like 2026-11-01, not '{since}'") from None


def _how_many(show_all: bool, limit: int | None, as_json: bool) -> tuple[int | None, bool]:
    """How many of the newest sessions a list shows, and whether to keep only what fits one
    screen: --limit N; every one (None) with --all or --json (a script reads the whole list);
    else about a screenful."""
    if show_all and limit is not None:
        raise Refused("give --all or --limit N, not both")
    if limit is not None:
        return limit, False
    if show_all or as_json:
        return None, False
    from ginscore.present.terminal import screen_height

    return screen_height(), True


# What typer.get_app_dir reads. An empty (or relative) value would put the database
# relative to the current folder: such a value is treated as unset (docs/commands.md).
_HOME_VARIABLES = ("XDG_CONFIG_HOME", "HOME", "APPDATA", "LOCALAPPDATA", "USERPROFILE")


def default_db_path() -> Path:
    """$GINSCORE_DB, else ginscore.json in the per-user app folder (docs/commands.md); never relative to the current folder."""
    from_env = os.environ.get("GINSCORE_DB", "")
    if from_env.strip():
        return _file_path(from_env, f"GINSCORE_DB '{from_env}'")
    if from_env:  # as --db " " is: spaces name no file (an empty value is unset)
        raise Refused("GINSCORE_DB is only spaces, which name no file; unset it or give a file's path")
    unset = {name: os.environ.pop(name) for name in _HOME_VARIABLES if not os.path.isabs(os.environ.get(name, "/"))}
    try:
        folder = typer.get_app_dir("ginscore")
    finally:
        os.environ.update(unset)
    if not os.path.isabs(folder):
        raise Refused("cannot tell where your home folder is (HOME is empty or unset); pass --db PATH or set GINSCORE_DB")
    return Path(folder) / "ginscore.json"


DB_HELP = "The database file (default: $GINSCORE_DB, else ginscore.json in your app folder)."


def index_cache(real: str):
    """Where the cache keeps a large database file's index, so a command parses only what it reads."""
    from ginscore.cache.files import Cache  # (loaded only by a command on a file large enough to be indexed)

    return Cache(real, "places")


def _db_after_command(ctx, param, value) -> None:
    """``--db`` given after the subcommand: the same as before it (docs/commands.md), and it wins."""
    if value is not None:
        ctx.find_root().obj = Store(named_file(value, DB_GIVEN), index_cache)
        terminal.advise_with_db(value)


def _show_version(value: bool) -> None:
    """`ginscore --version` (or -V): the version of the ginscore that runs (``ginscore.__version__``,
    which the package's metadata is made from)."""
    if value:
        from ginscore import __version__

        typer.echo(f"ginscore {__version__}")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def _top(
    ctx: typer.Context,
    db: str = typer.Option(None, "--db", help=DB_HELP, metavar="PATH"),
    version: bool = typer.Option(
        False, "--version", "-V", help="Show the installed version and exit.", is_eager=True, callback=_show_version,
    ),
) -> None:
    # (named_file later: a --db after the subcommand wins, even over one before it that is refused)
    ctx.obj = Store(functools.partial(named_file, db, DB_GIVEN) if db is not None else default_db_path, index_cache)
    if db is not None:
        terminal.advise_with_db(db)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def _store(ctx: typer.Context) -> Store:
    return ctx.find_root().obj


def _now() -> str:
    from datetime import datetime  # only commands that record something need the time

    return datetime.now().astimezone().isoformat(timespec="seconds")


def _standings(store: Store, facts: SessionFacts, deleted: bool = False) -> Standings:
    """Replay stored facts; a stored hand that no longer adds up makes the file unusable."""
    try:
        return replay(facts)
    except BadHandAt as error:
        raise DatabaseUnusable(store.path, *unsound(facts.name, error, deleted)) from None


def _replay_changed(facts: SessionFacts, changed_hand: int, store: Store | None = None) -> Standings:
    """Replay after a change at hand ``changed_hand``; refuse the change if any hand breaks.

    With ``store``, a hand before the change that breaks is damage in the file (exit 1), not a refusal.
    """
    try:
        return replay(facts)
    except BadHandAt as error:
        if store is not None and error.number < changed_hand:
            raise DatabaseUnusable(store.path, *unsound(facts.name, error)) from None
        if error.number == changed_hand:
            raise error.error from None
        if isinstance(error.error, GameOver):
            raise Refused(_over_before(facts, error.number)) from None
        raise Refused(
            f"refused: after that change hand {error.number} could not stand ({error.error}); "
            "undo or edit the later hands first"
        ) from None


def _over_before(facts: SessionFacts, number: int) -> str:
    """A change that ends the game at an earlier hand: hand ``number`` and every hand after it would
    come after its end (R14; Hollywood's series, R19; three players, R24). Their counts are most
    likely right and the change wrong; if not, those hands were played after the end."""
    ended = replay(facts._replace(hands=facts.hands[: number - 1]))
    game = "series" if facts.variant == "hollywood" else "game"
    rule = {"hollywood": "R19", "three": "R24"}.get(facts.variant, "R14")
    wins = f"{ended.winner} wins the {game}" if ended.winner else f"the {game} ends"
    last = len(facts.hands)
    later = f"hand {number}" if number == last else f"hands {number} {'and' if last == number + 1 else 'to'} {last}"
    return (f"refused: with that change {wins} at hand {number - 1}, so {later} would come after "
            f"its end ({rule}); check the counts, or undo {later} first")


def _asked(question: str, yes: bool, verb: str) -> bool:
    """A yes/no question that defaults to no (``--yes`` skips it); no answer at all refuses.

    ``verb`` is what a yes does ("remove", "delete"), for the words said on a no.
    """
    if yes:
        return True
    try:
        sure = typer.confirm(visible(question), default=False)
    except typer.Abort:
        raise Refused(f"no answer, so nothing was {verb}d; add --yes to {verb} without asking") from None
    if not sure:
        from ginscore.present import render

        render.say(f"Nothing {verb}d.")
    return sure


def _print_json(doc) -> None:
    sys.stdout.write(json_safe(json.dumps(doc, ensure_ascii=False, indent=2), sys.stdout.encoding) + "\n")


def _print_json_list(rows) -> None:
    """``_print_json`` of a list, byte for byte, written a few items at a time as ``rows`` gives
    them: years of sessions listed in the memory of a part or two."""
    from ginscore.cache.summarise import json_item

    _print_json_items(map(json_item, rows))


def _print_json_items(items) -> None:
    """A JSON list of these items (each ``store_summary.json_item``'s bytes), exactly as
    ``_print_json`` prints the list, written a few hundred at a time. An output encoding that
    cannot hold every character escapes all or nothing (``json_safe``), so it is held whole."""
    import codecs
    from itertools import islice

    encoding = sys.stdout.encoding
    try:
        streams = codecs.lookup(encoding or "utf-8").name.startswith("utf")
    except LookupError:
        streams = False
    held = []
    put = sys.stdout.write if streams else held.append
    items, first = iter(items), True
    while batch := list(islice(items, 256)):
        put(("[\n" if first else ",\n") + b",\n".join(batch).decode())
        first = False
    put("[]" if first else "\n]")
    sys.stdout.write(("" if streams else json_safe("".join(held), encoding)) + "\n")


def _deadwood(text: str, whose: str) -> int:
    """A count as typed: digits, perhaps a minus (refused later with a clearer word, R3)."""
    digits = text.strip()
    if not re.fullmatch(r"-?[0-9]+", digits):
        raise BadDeadwood(f"{whose} deadwood '{text}' is not a number; give a whole number from 0 to 98 (R3)")
    if len(digits.lstrip("-")) > validate.MAX_DIGITS:  # Python refuses to read 4,300 digits and more
        raise BadDeadwood(f"{whose} deadwood has {len(digits.lstrip('-'))} digits; give a whole number from 0 to 98 (R3)")
    if digits.startswith("-") and not digits.strip("-0"):  # "-0": a slip of the finger, not a gin
        raise BadDeadwood(f"{whose} deadwood '{text}' has a minus sign; count the unmatched cards again (R3: 0 to 98)")
    return int(digits)


def _upcard(text: str | None):
    return parse_card(text, rank_only=True) if text else None


class _Told(NamedTuple):
    """A knocked hand as typed: two counts, or the two hands of cards."""

    knocker: str
    knocker_deadwood: str | None
    opponent_deadwood: str | None
    cards: str | None
    against: str | None
    upcard: str | None
    big_gin: bool
    note: str | None = None  # `--note`, as typed

    def check(self, example: str) -> None:
        """Refuse a mix of counts and cards before anything is read or written."""
        counts = [c for c in (self.knocker_deadwood, self.opponent_deadwood) if c is not None]
        if (self.cards is None) != (self.against is None):
            raise BadCard("give both hands: --cards with the knocker's cards and --against with the opponent's")
        if self.cards is not None and counts:
            raise Refused("give either the two deadwood counts or --cards/--against, not both")
        if self.cards is None and len(counts) != 2:
            raise Refused(f"give the knocker and both deadwood counts, like `{example}`, or --cards and --against")

    def knock(self, facts: SessionFacts, at: str | None) -> Knock:
        name = resolve_player(facts.players, self.knocker)
        told = {"upcard": _upcard(self.upcard), "big_gin": self.big_gin, "recorded_at": at,
                "note": check_note(self.note)}
        if self.cards is not None:
            knocker_cards = parse_cards(self.cards)
            if len(knocker_cards) == 11 and not self.big_gin:
                raise BadCard("the knocker has 11 cards: give the 10 kept after the discard, or add --big-gin (H2)")
            return knock_from_cards(name, knocker_cards, parse_cards(self.against), **told)
        return Knock(
            knocker=name,
            knocker_deadwood=_deadwood(self.knocker_deadwood, f"{name}'s"),
            opponent_deadwood=_deadwood(self.opponent_deadwood, "the opponent's"),
            **told,
        )


def _append(ctx: typer.Context, session: str | None, make_hand) -> Standings:
    """Record one more hand under the lock; written only if it stands."""
    with _store(ctx).writing() as db:
        facts = db.load(session)
        facts = facts._replace(hands=facts.hands + (make_hand(facts),))
        standings = _replay_changed(facts, len(facts.hands), _store(ctx))
        db.save(facts)
    return standings


def _free_name(taken: list[str], variant: str) -> str:
    folded = {fold(t) for t in taken}
    number = 1
    while fold(f"{variant}-{number}") in folded:
        number += 1
    return f"{variant}-{number}"


def _session_name(typed: str | None, what: str = "--name") -> str:
    """A session name as typed, spaces folded; "" when none was given (one is chosen)."""
    if typed is None:
        return ""
    name = " ".join(typed.split())
    if not name:
        raise Refused(f"the session name is empty; give {what} a name")
    if not name.isprintable():
        from ginscore.core.escape import visible

        raise Refused(f"the session name '{visible(name)}' has characters that cannot be shown; type it plainly")
    check_shown(name, "the session name")
    return validate.text(name, what, limit=MAX_NAME)


def _start(ctx: typer.Context, facts: SessionFacts, told: str, rematch_of: str | None = None) -> None:
    """Store a new session and show it; a rematch also puts the session it follows in its match."""
    with _store(ctx).writing() as db:
        if not facts.name:
            facts = facts._replace(name=_free_name(db.names(include_deleted=True), facts.variant))
        if rematch_of is not None:
            old = db.load(rematch_of)
            if old.match is None:
                db.save(old._replace(match=facts.match))
        db.add(facts)
    from ginscore.present import render

    render.say(f"Started '{facts.name}': {', '.join(facts.players)}.")
    if told:
        render.say(told)
    render.show_standings(replay(facts))


# House rules (H1-H7), shared by `new`, `import` and `house`; None means "not given".
# Each command names them as parameters (typer has no parameter groups).
HOUSE_RULE_OPTIONS = list(HouseRules._fields)
Deal = Enum("Deal", {name: name for name in DEALS}, type=str)  # H6 choices, as typer shows them
TARGET = typer.Option(None, "--target", help="Points that win a game; default 100 (R14, H5).")
GIN_BONUS = typer.Option(None, "--gin-bonus", help="Gin bonus; default 25 (R11, H1).")
UNDERCUT_BONUS = typer.Option(None, "--undercut-bonus", help="Undercut bonus; default 10 (R10, H1).")
BIG_GIN_BONUS = typer.Option(None, "--big-gin-bonus", help="Play big gin with this bonus, often 31 (H2).")
GAME_BONUS = typer.Option(None, "--game-bonus", help="Bonus to a game's winner, often 100 (H3).")
BOX_BONUS = typer.Option(None, "--box-bonus", help="Bonus per hand won, often 20 or 25 (H3).")
SHUTOUT = typer.Option(None, "--shutout/--no-shutout", help="Double the winner's final score on a shutout (H3).")
SPADES_DOUBLE = typer.Option(
    None, "--spades-double/--no-spades-double", help="Oklahoma: a spade upcard doubles the hand (H4)."
)
ACE_MEANS_GIN = typer.Option(
    None, "--ace-means-gin/--no-ace-means-gin", help="Oklahoma: an ace upcard allows only gin (H4)."
)
DEAL = typer.Option(None, "--deal", help="Who deals after a hand: winner (default), loser or alternate (H6).")
STAKE = typer.Option(None, "--stake", help="Play for this much a point, like 0.01; default 0 (H7).", metavar="AMOUNT")


def _rule_choices(options: dict) -> dict:
    """The house rules given among a command's options (its ``locals()``); an off form is False."""
    chosen = {k: options[k] for k in HOUSE_RULE_OPTIONS if options[k] is not None}
    if "deal" in chosen:
        chosen["deal"] = chosen["deal"].value
    if "stake" in chosen:
        chosen["stake"] = parse_stake(chosen["stake"])  # H7: exact decimal, never a float
    return chosen


def _house_rules(options: dict) -> HouseRules | None:
    """The house rules among a command's options (its ``locals()``), or None when none was given."""
    chosen = {k: v for k, v in _rule_choices(options).items() if v is not False}
    return HouseRules(**chosen) if chosen else None


def _match_of(store: Store, db, facts: SessionFacts) -> list[Standings] | None:
    """The sessions of ``facts``'s match (linked by `rematch`), oldest first; None when it is in none."""
    if facts.match is None:
        return None
    linked = db.in_match(facts.match)
    linked.sort(key=lambda f: f.created_at or "")
    return [_standings(store, f) for f in linked]



def _load(ctx: typer.Context, session: str | None) -> Standings:
    store = _store(ctx)
    return _standings(store, store.reading().load(session))


def _report(ctx: typer.Context, session: str | None, as_json: bool, to_json: str, to_text: str) -> None:
    """Replay a session and show it: ``summary.<to_json>`` for scripts, ``render.<to_text>`` for people.

    Imported by name so that the JSON path never loads Rich.
    """
    standings = _load(ctx, session)
    if as_json:
        from ginscore.core import standings as summary

        _print_json(getattr(summary, to_json)(standings))
        return
    from ginscore.present import render

    getattr(render, to_text)(standings)

