"""The standard streams made safe to write to, advice written for the database in use, and the
screen's size; no Rich, so the JSON paths never load it. After ``make_streams_safe()`` the output
raises nothing but ``OSError``, so the exit status tells the truth (docs/commands.md "Errors and exit codes").
"""

from __future__ import annotations

import errno
import io
import os
import re
import sys
from contextlib import suppress

from ginscore.core.escape import for_encoding, shell_word, visible


class _Closed(io.RawIOBase):
    """Where a closed standard output writes: every write fails as on a closed descriptor."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _open_descriptors() -> None:
    """Point a closed descriptor 0, 1 or 2 at the null device (so a database file cannot take it)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:  # opened as the lowest closed descriptor: this one, as those below it are open by now
            os.open(os.devnull, os.O_RDWR)


_TRAILING = re.compile(" +\n")


class SafeStdout:
    """Where the Rich console writes, each write made to fit the encoding; ``stream`` is standard output
    as the console was made, never a later stand-in such as the proxy of Rich's ``Live``."""

    def __init__(self, stream):
        self.stream = stream

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        if "\x1b" not in text and " \n" in text:  # plain text (piped, NO_COLOR): no line ends in a cell's padding
            text = _TRAILING.sub("\n", text)
        return self.stream.write(for_encoding(text, self.encoding))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def fileno(self) -> int:
        return self.stream.fileno()


_advised: tuple[str, ...] = ()  # the commands whose advice acts on a database (``advise_commands``)
_typed_db: str | None = None  # the --db this command line gave, as typed


def advise_commands(names: tuple[str, ...]) -> None:
    """Set the commands whose advice acts on a database: only these are given the --db (``command_text``)."""
    global _advised
    _advised = tuple(names)


def advise_with_db(typed: str | None) -> None:
    """The --db the command line gave (None: GINSCORE_DB or the default), for ``command_text``."""
    global _typed_db
    _typed_db = typed


def command_text(command) -> str:
    """An advised ``errors.Command`` as it must be typed here, with this command line's --db when it needs one
    (help reads no database: `ginscore hand --help` is the same whatever --db was given)."""
    words = " ".join(command)
    if _typed_db is not None and command and command[0] in _advised and "--help" not in command:
        words = f"--db {shell_word(_typed_db)} {words}"
    return f"`ginscore {words}`"


def parts_text(parts) -> str:
    """A message's parts (text and the commands it advises) as a person reads them, every character visible."""
    # A tuple part is an advised command's words (an errors.Command is a tuple); every other part is text.
    return "".join(command_text(tuple(map(visible, part))) if isinstance(part, tuple) else visible(part)
                   for part in parts)


def make_streams_safe() -> None:
    """Make the standard streams safe to write to for one command (see the module)."""
    advise_with_db(None)  # a new command line: an earlier one's --db (in the same process) is not this one's
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        _open_descriptors()
    if sys.stdin is None:  # a question then reads the end of its input: no answer
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Closed()), encoding="utf-8", errors="backslashreplace")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors != "backslashreplace":
            stream.reconfigure(errors="backslashreplace")


def flush() -> None:
    """Write out what is buffered; raises OSError when the output cannot take it."""
    sys.stdout.flush()
    with suppress(OSError, ValueError):  # an error line that cannot be shown changes nothing that happened
        sys.stderr.flush()


def abandon_output() -> None:
    """After a failed write: drop what is left, so that no later flush fails again."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        fd = None
    if fd is not None:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    else:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


def tell(line: str) -> None:
    """One line on standard error, if it can be written at all."""
    with suppress(OSError, ValueError):
        sys.stderr.write(for_encoding(line, getattr(sys.stderr, "encoding", None)) + "\n")
        sys.stderr.flush()


def screen_width() -> int:
    """How wide human output is laid out (docs/commands.md "For people at the table")."""
    return _screen("COLUMNS", 0, 80)


def screen_height() -> int:
    """How many lines one screen shows."""
    return _screen("LINES", 1, 24)


# No screen is larger: a `$COLUMNS` or `$LINES` of 99999 would have `watch` draw for minutes, deaf to Ctrl-C.
LARGEST_SCREEN = 1000


def _screen(variable: str, which: int, otherwise: int) -> int:
    """``$variable`` when it is a positive whole number, else the terminal's size, else ``otherwise``; at
    most ``LARGEST_SCREEN``."""
    typed = os.environ.get(variable, "").strip()
    if re.fullmatch(r"[0-9]{1,5}", typed) and int(typed) > 0:
        return min(int(typed), LARGEST_SCREEN)
    for fd in (1, 2, 0):  # stderr and stdin too: `ginscore log | less` is laid out for less's terminal
        try:
            size = os.get_terminal_size(fd)[which]
        except (OSError, ValueError):
            continue
        if size > 0:
            return min(size, LARGEST_SCREEN)
    return otherwise
