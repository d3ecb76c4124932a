"""Ctrl-C and the other stop signals around the moment the database file is replaced
(docs/commands.md "Errors and exit codes").

A Ctrl-C either stops a command before it changes anything (exit 130,
nothing changed) or lets the change finish (exit 0): never "recorded, yet
exit 130". SIGTERM (``kill``, ``timeout``) and SIGHUP (a closed terminal) keep
the same promise with their own statuses: before the change the process ends
as they always end it (143, 129), so a script that retries doubles nothing.
``held()`` keeps all three waiting while the file is replaced; once the change
is written, one that arrived meanwhile (or arrives later) is raised as
KeyboardInterrupt, and the exit point, seeing that the file changed, exits 0
(and from then on, in a command-line process, ignores them: ``finished``). One
that arrived while a write failed (nothing written) ends the process as it
would have.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager


HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_STOPS = HELD[1:]  # the stop signals besides Ctrl-C


def _raise_interrupt(number, frame) -> None:
    raise KeyboardInterrupt


@contextmanager
def held(writes: Callable[[], int]):
    """Hold SIGINT, SIGTERM and SIGHUP for the block (see the module); one that is ignored (a
    background job's Ctrl-C, a ``nohup``'s SIGHUP) stays ignored. ``writes()``: how many times this
    process has written the database (``storage.writes``): the block wrote it if that changed."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler
        return
    arrived: list[int] = []
    previous = {number: signal.getsignal(number) for number in HELD}
    for number, handler in previous.items():
        if handler != signal.SIG_IGN:
            signal.signal(number, lambda number, frame: arrived.append(number))
    written = writes()
    try:
        yield
    finally:
        committed = writes() != written
        for number, handler in previous.items():
            if handler == signal.SIG_IGN:
                continue
            if committed and _command_line and number in _STOPS:
                handler = _raise_interrupt  # the change is made: a stop from now on is answered with exit 0
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        stops = [number for number in arrived if number in _STOPS]
        if stops and not (committed and _command_line):
            signal.raise_signal(stops[0])  # nothing written (or no command line): as it would have ended
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
    """A command line is done and its change is written: ignore Ctrl-C, SIGTERM and SIGHUP until
    the process ends.

    Python puts back the default SIGINT action while it exits; a Ctrl-C then
    would kill the process and the shell would read 130 for a change that was
    made (and a SIGTERM 143). Only in a command-line process: a test runner keeps its own Ctrl-C.

    CPython also remembers a KeyboardInterrupt raised inside ``exec``/``eval``
    of a string (``namedtuple`` and ``dataclasses`` build classes that way, so
    a Ctrl-C while a module loads can land there) and kills itself with SIGINT
    at exit even though the exit point answered it; the next string it runs
    clears that memory (pythonrun.c, ``run_eval_code_obj``), hence ``exec``.
    """
    if _command_line and threading.current_thread() is threading.main_thread():
        for number in HELD:
            signal.signal(number, signal.SIG_IGN)
        exec("None")
