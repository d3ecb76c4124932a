"""Ctrl-C, SIGTERM and SIGHUP around the moment the database file is replaced, and Ctrl-Z while its
lock is held.

A stop either ends a command before it changes anything (130, 143, 129, as they always end it)
or lets the change finish (exit 0): never "recorded, yet stopped", so a script that retries
doubles nothing (docs/commands.md "Errors and exit codes"). How a command line itself stops is
cli/stopping.py's.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager


HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
STOPS = HELD[1:]  # the stop signals besides Ctrl-C
_command_line = False  # this process runs one command line (cli.main), not a test or a library caller


def command_line() -> None:
    """Say that this process runs one command line and ends with it: a stop that comes once its change
    is written is answered with exit 0, not by the signal."""
    global _command_line
    _command_line = True


def one_command_line() -> bool:
    """Whether this process runs one command line (``command_line`` was said), on its main thread."""
    return _command_line and threading.current_thread() is threading.main_thread()


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
            if committed and _command_line and number in STOPS:
                handler = _raise_interrupt  # the change is made: a stop from now on is answered with exit 0
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        stops = [number for number in arrived if number in STOPS]
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
    would keep every other ginscore waiting until `fg`. It stops as soon as the block is left, unless
    a Ctrl-C, SIGTERM or SIGHUP ends the command there: then it ends at once, not once brought back.
    Yields how to wait for the lock, holding nothing yet: a Ctrl-Z is answered there at once (it says
    whether the process was put aside meanwhile)."""
    if not ctrl_z_ours():
        yield time.sleep
        return
    arrived: list[int] = []

    def hold(number, frame) -> None:
        arrived.append(number)

    def stop_if_pressed() -> bool:
        if not arrived:
            return False
        arrived.clear()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTSTP)  # stopped here, holding nothing, until `fg`
        signal.signal(signal.SIGTSTP, hold)
        return True

    def waiting(seconds: float) -> bool:
        before = stop_if_pressed()
        time.sleep(seconds)
        return stop_if_pressed() or before

    signal.signal(signal.SIGTSTP, hold)
    try:
        yield waiting
    except KeyboardInterrupt:  # (how held, and Python, raise them)
        arrived.clear()
        raise
    finally:
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        if arrived:
            signal.raise_signal(signal.SIGTSTP)  # stopped here, the lock let go, until `fg`
