"""How a command line stops: the Ctrl-C, SIGTERM and SIGHUP of the commands that run until stopped
(`watch`, `serve`), and the stop signals ignored once a command line is done, so that a change made
is never reported as stopped. The write itself is held by db/interrupts.py."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

from ginscore.cli.starting import unraisable_ctrl_c_dropped
from ginscore.db import interrupts
from ginscore.db.interrupts import HELD, STOPS, one_command_line


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
        if not (stops.arrived and one_command_line()):
            for number in watched:
                signal.signal(number, previous[number])
        if stops.arrived and stops.arrived[0] in STOPS:
            signal.signal(stops.arrived[0], previous[stops.arrived[0]])
            signal.raise_signal(stops.arrived[0])  # as it would have ended: by the signal


def ctrl_c_ignored() -> None:
    """A command was stopped by Ctrl-C (or `serve` ended by it): one pressed again while the command line ends is
    ignored, as ``finished`` leaves it; else Python, putting back the default action as it exits, ends by it (130)."""
    if one_command_line():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def command_line() -> None:
    """Say that this process runs one command line and ends with it (see ``finished``); a Ctrl-C that
    lands where Python cannot raise it is dropped, as while the app was read in."""
    interrupts.command_line()
    unraisable_ctrl_c_dropped()


def finished() -> None:
    """A command line is done and its change is written: ignore the stop signals until it ends.

    Python puts back the default SIGINT action while it exits, so a Ctrl-C then would read as 130
    for a change that was made. CPython also remembers a KeyboardInterrupt raised inside ``exec``
    of a string (``namedtuple`` builds classes so) and kills itself with SIGINT at exit; the next
    string it runs clears that memory (pythonrun.c, ``run_eval_code_obj``), hence ``exec``.
    """
    if one_command_line():
        for number in HELD:
            signal.signal(number, signal.SIG_IGN)
        exec("None")
