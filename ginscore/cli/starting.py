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
