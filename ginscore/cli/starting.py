"""What answers a Ctrl-C while the command line is still being read in by Python, before any command
ran: kept apart from the app, so that the package can answer one while it imports the app."""

import sys


def stopped_while_starting() -> None:
    """A Ctrl-C before any command ran: nothing was changed (exit 130)."""
    try:
        sys.stderr.write("Error: stopped; nothing was changed\n")
    except (AttributeError, OSError, ValueError):
        pass
    raise SystemExit(130)


try:  # a Ctrl-C while even these are read in, before any handler is set, is answered the same
    import signal
    import threading
except KeyboardInterrupt:
    stopped_while_starting()

_pressed: list[int] = []  # a Ctrl-C came while the app was read in
_unraisable = [sys.unraisablehook]  # what tells an exception Python cannot raise, as it was


def _first(number, frame) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the ones after it: nothing may cut short its answer
    _pressed.append(number)
    raise KeyboardInterrupt


def _dropped(what) -> None:
    if not isinstance(what.exc_value, KeyboardInterrupt):
        _unraisable[0](what)


def unraisable_ctrl_c_dropped() -> None:
    """From now on a Ctrl-C that lands where Python cannot raise it (a weak reference callback of the import
    system) is dropped rather than printed with a traceback; any other goes where it went before."""
    if sys.unraisablehook is not _dropped:
        _unraisable[0], sys.unraisablehook = sys.unraisablehook, _dropped


def reading_in() -> None:
    """The app is about to be read in: the first Ctrl-C from now on is raised, those after it ignored, so that
    the answer to it is one line whatever is pressed again (exit 130), never a traceback."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is (
            signal.default_int_handler):
        signal.signal(signal.SIGINT, _first)
        unraisable_ctrl_c_dropped()


def read_in() -> None:
    """The app is read in and answers Ctrl-C from now on; one that came where Python could not raise it stops
    the command line all the same."""
    if signal.getsignal(signal.SIGINT) is _first:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if sys.unraisablehook is _dropped:
        sys.unraisablehook = _unraisable[0]
    if _pressed:
        stopped_while_starting()
