"""Ctrl-C around the moment the database file is replaced (docs/commands.md "Errors and exit codes").

A Ctrl-C either stops a command before it changes anything (exit 130,
nothing changed) or lets the change finish (exit 0): never "recorded, yet
exit 130". ``held()`` keeps SIGINT waiting while the file is replaced; one
that arrived meanwhile is raised as KeyboardInterrupt once the write is
done, and the exit point, seeing that the file changed, exits 0 (and from
then on, in a command-line process, ignores Ctrl-C: ``finished``).
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager


@contextmanager
def held():
    """Hold SIGINT for the block; raise KeyboardInterrupt after it if one arrived."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield  # only the main thread may set a handler; an ignored Ctrl-C (a background job) stays ignored
        return
    arrived: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: arrived.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
    if arrived:
        raise KeyboardInterrupt


_command_line = False  # this process runs one command line (cli.main), not a test or a library caller


def command_line() -> None:
    """Say that this process runs one command line and ends with it (see ``finished``).

    A Ctrl-C that lands in code Python cannot raise it from (a weak reference
    callback of the import system) is dropped rather than printed with a
    traceback; the command goes on as if it had not come.
    """
    global _command_line
    _command_line = True
    default = sys.unraisablehook

    def unraisable(what) -> None:
        if not isinstance(what.exc_value, KeyboardInterrupt):
            default(what)

    sys.unraisablehook = unraisable


def finished() -> None:
    """A command line is done and its change is written: ignore Ctrl-C until the process ends.

    Python puts back the default SIGINT action while it exits; a Ctrl-C then
    would kill the process and the shell would read 130 for a change that was
    made. Only in a command-line process: a test runner keeps its own Ctrl-C.

    CPython also remembers a KeyboardInterrupt raised inside ``exec``/``eval``
    of a string (``namedtuple`` and ``dataclasses`` build classes that way, so
    a Ctrl-C while a module loads can land there) and kills itself with SIGINT
    at exit even though the exit point answered it; the next string it runs
    clears that memory (pythonrun.c, ``run_eval_code_obj``), hence ``exec``.
    """
    if _command_line and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        exec("None")
