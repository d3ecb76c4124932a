"""The one line on standard error when a command cannot do what was asked, always written by ``fail``.
An error raised elsewhere brings its own words; click's usage errors, output that could not be
written and Ctrl-C are worded here."""

import errno
import re

import typer

from ginscore.cli import registry, stopping
from ginscore.core.errors import BadCard, Command, ExitStatus
from ginscore.core.escape import shell_word
from ginscore.present import terminal

# click's words for a refused value, as people say it (compiled by re when first used, not at start).
VALIDATOR_WORDS = (
    (r"('.*') is not a valid int(?:eger)?(?: range)?\b", r"\1 is not a whole number"),
    (r"(-?[0-9]+) is not in the range x>=(-?[0-9]+)", r"it must be \2 or more, not \1"),
    (r"(-?[0-9]+) is not in the range (-?[0-9]+)<=x<=(-?[0-9]+)", r"it must be from \2 to \3, not \1"),
    # click lists the choices of a missing argument a line and a tab each, which one line cannot show
    (r"(?s)\. Choose from:\s+(.+)", lambda found: f" (one of {', '.join(found[1].replace(',', ' ').split())})"),
)

SESSION_OPTIONS = ("--session", "-s")


def usage_words(error: typer.TyperException, args: list[str] | None = None, see: str | None = None) -> tuple:
    """A usage error in one sentence, as parts. ``args``: the command line, to place a misplaced
    ``--session``; ``see``: advice in place of the command's --help (`play` has its own)."""
    message = error.format_message()
    ctx = getattr(error, "ctx", None)
    if not hasattr(error, "ctx"):  # not about the command line (a file that cannot be opened)
        return (message,)
    if ctx is not None and getattr(error, "option_name", None) in SESSION_OPTIONS:
        return session_misplaced(ctx, list(args or ()))
    taken = command_taken_for_db(list(args or ())) if ctx is not None and ctx.parent is None else None
    if taken is not None:  # what follows the command was read as the command: that is not what went wrong
        return db_given_a_command(taken)
    extra = re.fullmatch(r"Got unexpected extra arguments?(?:\(s\))? \((.+)\)\.?", message.strip())
    advice = session_as_argument(ctx, list(args or ()), extra.group(1)) if extra and see is None else None
    if advice:
        return advice
    for validator_words, words in VALIDATOR_WORDS:
        message = re.sub(validator_words, words, message)
    message = message.strip().rstrip(".")
    if ctx is not None and see is not None:
        return (f"{message}; {see}",)
    if ctx is not None:  # a question ("Did you mean 'hand'?") ends its own sentence
        return (f"{message}{' S' if message.endswith('?') else '; s'}ee ", *help_of(ctx.command_path))
    if message.endswith("requires an argument"):  # an option last on the line: its command read from the line
        return value_missing(message, next(command_words(list(args or ())), None))
    return (message,)


def value_missing(message: str, name: str | None) -> tuple:
    """An option given no value, last on the line (click's ``message``), as parts."""
    return (f"{message}; give its value right after it (", _help_of_command(name), " lists every option)")


def option_for_value(option: str, long_name: str, following: str, name: str, known: bool = True) -> tuple:
    """An option followed by another option where its value belongs (``known``: one of the command's), as
    parts; a value that does start with '-' is joined to the option's long name with '=' (click reads
    ``-s=x`` as "=x")."""
    what = "is another option" if known else "looks like an option"
    return (f"{option} was given no value ('{following}' {what}); give it right after {option}, or as "
            f"{long_name}=VALUE if it starts with '-' (", _help_of_command(name), " lists every option)")


def _help_of_command(name: str | None) -> Command:
    return Command(name, "--help") if name in registry.BY_NAME else Command("--help")


def command_taken_for_db(args: list[str]) -> str | None:
    """`ginscore --db status ...`: the command name a --db before the command was given (its path left
    out), else None."""
    for at, arg in enumerate(args):
        if arg == "--db" or arg.startswith("--db="):
            value = arg[len("--db="):] if arg.startswith("--db=") else (args[at + 1 : at + 2] or [None])[0]
            return value if value in registry.BY_NAME else None
        if not arg.startswith("-"):  # the command: a --db after it is its own
            return None
    return None


def db_given_a_command(name: str) -> tuple:
    return (f"--db takes the database file's path, and '{name}' is a command; give the path before it (",
            Command("--db", "PATH", name), ")")


def session_as_argument(ctx, args: list[str], named: str) -> tuple | None:
    """`status friday`: a session named as `use` takes it. The command line again with --session before the
    name, its other options kept; None where the word is no session's name (`undo 3`, `draw QS`) or where
    more than one word was given too many."""
    command = registry.BY_NAME.get(ctx.info_name) if ctx is not None else None
    takes_arguments = ctx is not None and any(param.param_type_name == "argument" for param in ctx.command.params)
    if command is None or not command.takes_session or takes_arguments:
        return None
    at = [n for n, word in enumerate(args) if word == named]
    if len(at) != 1 or named.isdigit() or _is_card(named):
        return None
    typed = [shell_word(word) for word in args]
    typed[at[0]:at[0] + 1] = ["--session", typed[at[0]]]
    return (f"`ginscore {ctx.info_name}` takes no argument ('{named}'); a session is named with --session: ",
            Command(*typed))


def _is_card(word: str) -> bool:
    from ginscore.core.cards import parse_card  # only for this advice

    try:
        parse_card(word, rank_only=True)
    except BadCard:
        return False
    return True


def help_of(command_path: str) -> tuple:
    """Advice to see a command's --help (click's ``command_path``: "ginscore hand"), as parts."""
    return (Command(*command_path.split(" ")[1:], "--help"),)


def session_misplaced(ctx, args: list[str]) -> tuple:
    """Where a misplaced ``--session`` goes: after the command name, or nowhere (what the command covers)."""
    rest, given = without_session(args)
    session = shell_word(given) if given is not None else "NAME"
    if ctx.parent is not None:  # a command that has no --session
        return no_session(ctx.info_name, session)
    name = next((word for word in command_words(rest) if word in registry.BY_NAME), None)
    if name is None:
        return ("--session goes after the command name, like ", Command("status", "--session", session))
    if not registry.BY_NAME[name].takes_session:
        return no_session(name, session)
    cut = rest.index("--") if "--" in rest else len(rest)
    quoted = [shell_word(word) for word in rest]
    return ("--session goes after the command name: ", Command(*quoted[:cut], "--session", session, *quoted[cut:]))


def no_session(name: str, session: str) -> tuple:
    """A command that takes no --session: what it covers instead, or where its help is."""
    command = registry.BY_NAME.get(name)
    instead = (command.instead_of_session if command and command.instead_of_session
               else ("see ", Command(name, "--help")))
    if isinstance(instead, str):
        instead = (instead,)
    return (Command(name), " takes no --session: ",
            *(Command(*(word.format(session=session) for word in part)) if isinstance(part, Command)
              else part.format(session=session) for part in instead))


def without_session(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without the first --session (or -s) and its value, and that value (None when none)."""
    for at, arg in enumerate(args):
        if arg in SESSION_OPTIONS:
            given = args[at + 1 : at + 2]
            return args[:at] + args[at + 2 :], given[0] if given else None
    for at, arg in enumerate(args):
        joined = re.match(r"(--session=|-s(?!-))(.+)", arg, re.S)  # --session=friday, -sfriday
        if joined:
            return args[:at] + args[at + 1 :], joined[2]
    return args, None


def db_typed_after_command(args: list[str]) -> str | None:
    """The --db typed after the command name (the last, which wins), else None: a command line refused as it
    was read never got to it, yet what it advises acts on that database."""
    words, typed, command = iter(args), None, False
    for word in words:
        if word == "--":
            break
        if word == "--db" or word.startswith("--db="):
            value = word[len("--db="):] if word.startswith("--db=") else next(words, None)
            typed = value if command and value else typed  # (an empty one names no file: not advised)
        elif not word.startswith("-"):
            command = True
    return typed


def command_words(args: list[str]):
    """The words of a command line that are not options (nor the value of --db)."""
    words = iter(args)
    for word in words:
        if word == "--db":
            next(words, None)
        elif not word.startswith("-"):
            yield word


# Digits far past any number ginscore takes (a stuck key): where an error echoes them, they are shortened.
_LONG_NUMBER = re.compile(r"[0-9]{41,}")


def short_numbers(part):
    """A part of an error with each number too long to read shortened, so the error stays one line a person
    reads (`play` tells its refusals so too); advice (a ``Command``) is never shortened, as it is typed again."""
    if not isinstance(part, str):
        return part
    return _LONG_NUMBER.sub(lambda found: f"{found[0][:12]}…({len(found[0])} digits)", part)


def fail(status: int, *parts) -> int:
    """The one place an error is told: one line on standard error, every character visible."""
    joined = []  # runs of text as one, its spaces squeezed (never those of a path in a command's words)
    for part in parts:
        if isinstance(part, str) and joined and isinstance(joined[-1], str):
            joined[-1] += part
        else:
            joined.append(part)
    said = terminal.parts_text(short_numbers(re.sub("  +", " ", part)) if isinstance(part, str) else part
                               for part in joined)
    terminal.tell("Error: " + said.strip(" "))
    return int(status)


def unwritten(error: OSError, changed: bool, status: int = ExitStatus.OK) -> int:
    """What is said, and the exit status, when the output could not be written (docs/commands.md);
    a reader that went away (``| head``) is no failure."""
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
    return fail(ExitStatus.DATABASE, f"the output could not be written ({reason}); nothing was changed")


def stopped(changed: bool) -> int:
    """Ctrl-C: before the change, exit 130 and say so; after it, exit 0 (the change stands)."""
    stopping.ctrl_c_ignored()  # pressed again while this is said, it would end the command line by the signal
    if changed:
        terminal.tell("Stopped; the change was saved.")
        return ExitStatus.OK
    return fail(130, "stopped; nothing was changed")
