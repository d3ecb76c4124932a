"""Ctrl-C, SIGTERM and SIGHUP around the moment the database file is replaced, and Ctrl-Z while its
lock is held.

A stop either ends a command before it changes anything (130, 143, 129, as they always end it)
or lets the change finish (exit 0): never "recorded, yet stopped", so a script that retries
doubles nothing (docs/commands.md "Errors and exit codes").
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager


HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_STOPS = HELD[1:]  # the stop signals besides Ctrl-C
_command_line = False  # this process runs one command line (cli.main), not a test or a library caller


def _raise_interrupt(number, frame) -> None:
    raise KeyboardInterrupt


@contextmanager
def held(writes: Callable[[], int]):
    """Hold SIGINT, SIGTERM and SIGHUP for the block; one that is ignored (a ``nohup``'s SIGHUP)
    stays ignored. Afterwards one that arrived is raised as KeyboardInterrupt, which the exit point
    answers with 0 when the block wrote the database (``writes()`` changed)."""
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


def ctrl_z_ours() -> bool:
    """Whether this process may answer Ctrl-Z (SIGTSTP) itself: only its main thread may, and a shell
    without job control has it ignored."""
    return (hasattr(signal, "SIGTSTP") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGTSTP) == signal.SIG_DFL)


@contextmanager
def ctrl_z_held():
    """Hold Ctrl-Z (SIGTSTP) for the block, which holds the database's lock: stopped there, the process
    would keep every other ginscore waiting until `fg`. It stops as soon as the block is left."""
    if not ctrl_z_ours():
        yield
        return
    arrived: list[int] = []
    signal.signal(signal.SIGTSTP, lambda number, frame: arrived.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        if arrived:
            signal.raise_signal(signal.SIGTSTP)  # stopped here, the lock let go, until `fg`


class Stops:
    """What ``until_stopped`` yields: ``wait`` is the one place its command is stopped."""

    def __init__(self):
        self.arrived: list[int] = []
        self.waiting = False

    def wait(self, seconds: float) -> None:
        """Sleep ``seconds``; KeyboardInterrupt once a stop has come (then, or while the command did anything else)."""
        self.waiting = True
        try:
            if self.arrived:
                raise KeyboardInterrupt
            time.sleep(seconds)
            if self.arrived:
                raise KeyboardInterrupt
        finally:
            self.waiting = False


@contextmanager
def until_stopped():
    """For a command that runs until it is stopped (`watch`): the first Ctrl-C, SIGTERM or SIGHUP is raised as
    KeyboardInterrupt only in ``wait``, never halfway through drawing, so that it cannot leave the terminal as the
    drawing left it (the screen the board filled, the cursor hidden); the ones after it are ignored, so that none
    cuts short the restoring. A SIGTERM or SIGHUP is raised again as the block is left, so the command ends by it as
    it always has (143, 129); one that is ignored (a ``nohup``'s SIGHUP) stays ignored. A command line ends with
    them ignored, as ``finished`` leaves it."""
    stops = Stops()
    if threading.current_thread() is not threading.main_thread():
        yield stops
        return
    previous = {number: signal.getsignal(number) for number in HELD}
    previous = {number: signal.SIG_DFL if handler is None else handler for number, handler in previous.items()}
    watched = [number for number, handler in previous.items() if handler != signal.SIG_IGN]

    def first(number, frame) -> None:
        for each in watched:
            signal.signal(each, signal.SIG_IGN)
        stops.arrived.append(number)
        if stops.waiting:
            raise KeyboardInterrupt

    for number in watched:
        signal.signal(number, first)
    try:
        yield stops
    finally:
        if not (stops.arrived and _command_line):
            for number in watched:
                signal.signal(number, previous[number])
        if stops.arrived and stops.arrived[0] in _STOPS:
            signal.signal(stops.arrived[0], previous[stops.arrived[0]])
            signal.raise_signal(stops.arrived[0])  # as it would have ended: by the signal


def ctrl_c_ignored() -> None:
    """A command was stopped by Ctrl-C (or `serve` ended by it): one pressed again while the command line ends is
    ignored, as ``finished`` leaves it; else Python, putting back the default action as it exits, ends by it (130)."""
    if _command_line and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def command_line() -> None:
    """Say that this process runs one command line and ends with it (see ``finished``).

    A Ctrl-C that lands where Python cannot raise it (a weak reference callback of the import
    system) is dropped rather than printed with a traceback.
    """
    global _command_line
    _command_line = True
    default = sys.unraisablehook

    def unraisable(what) -> None:
        if not isinstance(what.exc_value, KeyboardInterrupt):
            default(what)

    sys.unraisablehook = unraisable


def finished() -> None:
    """A command line is done and its change is written: ignore the stop signals until it ends.

    Python puts back the default SIGINT action while it exits, so a Ctrl-C then would read as 130
    for a change that was made. CPython also remembers a KeyboardInterrupt raised inside ``exec``
    of a string (``namedtuple`` builds classes so) and kills itself with SIGINT at exit; the next
    string it runs clears that memory (pythonrun.c, ``run_eval_code_obj``), hence ``exec``.
    """
    if _command_line and threading.current_thread() is threading.main_thread():
        for number in HELD:
            signal.signal(number, signal.SIG_IGN)
        exec("None")
