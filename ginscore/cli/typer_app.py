"""How each command is built: the typer app the command modules register on, help laid out for
the screen, unknown options refused."""

import re
import textwrap

import typer
from typer.core import TyperCommand

from ginscore.cli import registry
from ginscore.cli.messages import help_of
from ginscore.cli.options import takes_db
from ginscore.core.errors import Refused
from ginscore.present import terminal


# click wraps help at hyphens, parting "--no-shutout" or a file name of an example over two lines:
# a hyphen is held as this one, which no wrapper breaks at, until the help is written out.
UNBROKEN_HYPHEN = "\u2011"
# In an example, the space between an option and its value and those inside a quoted name or a comment
# ("# Ann knocked ...") are held as this one (no space to click's wrapper), so a command copied from a
# narrow screen still works and a comment's words never start a line of their own.
UNBROKEN_SPACE = "\u00a0"


def unbroken(text: str, room: int) -> str:
    """Help text with every hyphen held, and in an example each option with its value and a quoted name
    whole where they fit in ``room`` (a longer one would be cut inside a word)."""
    def held(words) -> str:
        return words.group().replace(" ", UNBROKEN_SPACE) if len(words.group()) <= room else words.group()

    head, example, command = text.partition("Example:")
    command = re.sub(r'--[a-z-]+ [^-\s]\S*|"[^"]*"|# .*', held, command)
    return (head + example + command).replace("-", UNBROKEN_HYPHEN)


class HelpFormatter(typer.Context.formatter_class):
    """click's help layout, also on a screen narrower than 70 columns; no line ends in spaces, and no
    word (an option, an example's file name) is parted at a hyphen."""

    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None) -> None:
        # The screen's width less 2, from 20 to 78, as every other output (click's own never goes below 50).
        super().__init__(indent_increment, width or max(min(terminal.screen_width(), 80) - 2, 20), max_width)

    def write_text(self, text: str) -> None:
        super().write_text(unbroken(text, self.width - self.current_indent))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [(first, second.replace("-", UNBROKEN_HYPHEN)) for first, second in rows]
        if self.width >= 70:
            return super().write_dl(rows, col_max, col_spacing)
        indent = " " * self.current_indent
        room = max(self.width - self.current_indent, 10)
        column = min(max(len(first) for first, _ in rows), max(8, self.width // 3)) + col_spacing
        text_width = max(room - column, 10)
        for first, second in rows:
            *before, last = folded(first, room)
            for line in before:
                self.write(f"{indent}{line}\n")
            text = textwrap.wrap(" ".join(second.split()), text_width) if second else []
            lead = last.ljust(column) if text and len(last) + col_spacing <= column else None
            if lead is None:  # no text, or a long term: on a line of its own (its text under it)
                self.write(f"{indent}{last}\n")
            for number, line in enumerate(text):
                self.write(f"{indent}{lead if number == 0 and lead else ' ' * column}{line}\n")

    def getvalue(self) -> str:
        written = super().getvalue().replace(UNBROKEN_HYPHEN, "-").replace(UNBROKEN_SPACE, " ")
        return "\n".join(line.rstrip() for line in written.split("\n"))


def folded(term: str, room: int) -> list[str]:
    """``term`` in lines of at most ``room`` characters, broken after a ``|`` or at a space."""
    lines, line = [], ""
    for piece in re.findall(r"[^| ]*(?:\||\s+|$)", term):
        if line and len(line) + len(piece.rstrip()) > room:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    return [*lines, line.rstrip()] if line.strip() or not lines else lines


class HelpContext(typer.Context):
    formatter_class = HelpFormatter


class CheckedCommand(TyperCommand):
    """A command laid out by ``HelpFormatter`` that refuses an unknown option even where "-3" is let through."""

    context_class = HelpContext

    def parse_args(self, ctx, args):
        if ctx.ignore_unknown_options:  # `hand`, `edit`: so that "-3" reaches the deadwood check (R3)
            refuse_unknown_option(self, ctx, args)
        return super().parse_args(ctx, args)


def refuse_unknown_option(command, ctx, args: list[str]) -> None:
    """Refuse an unknown option (``--upcrad``) where a command lets "-3" through as an argument."""
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
            raise Refused(f"No such option: {name}{possible}; see ", *help_of(ctx.command_path))


class App(typer.Typer):
    """The app commands register on: each also takes ``--db`` after its name; named and hidden as
    the registry says (the group finds a command by ``info.name``)."""

    def command(self, name: str | None = None, **kwargs):
        kwargs.setdefault("cls", CheckedCommand)

        def register(function):
            listed = registry.BY_NAME[name or function.__name__]
            return super(App, self).command(listed.name, hidden=listed.hidden, **kwargs)(takes_db(function))

        return register


def make_app(**settings) -> typer.Typer:
    """A typer app with ginscore's help text and settings."""
    return App(
        help="Keep score of Gin Rummy at a real table: standard, Oklahoma, Hollywood and three-player.\n\n"
        "Example: ginscore new hollywood Ann Ben, then ginscore hand ann 4 22 after each hand.",
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
        rich_markup_mode=None,
        **settings,
    )


app = make_app()
