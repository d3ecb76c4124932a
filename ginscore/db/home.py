"""A leading ``~`` in a path, read as a shell reads it: a path often reaches ginscore without a shell
(``GINSCORE_DB`` in a systemd unit, ``--db=~/g.json``), and taken literally it would make a folder named ``~``.
"""

from __future__ import annotations

import os


class NoHome(ValueError):
    """A path starts with ``~`` (or ``~NAME``) and there is no such home folder."""


def home_expanded(typed: str) -> str:
    """``typed`` with a leading ``~`` or ``~NAME`` replaced by that home folder (see the module)."""
    if not typed.startswith("~"):
        return typed
    head = typed[1:].partition("/")[0]
    rest = typed[1 + len(head):]  # "" or from the first slash on: `~//x` is the home's x, as in a shell
    if head:  # ~NAME: that user's home, as the system knows it
        home = os.path.expanduser(f"~{head}")
        if home.startswith("~") or not os.path.isabs(home):
            raise NoHome(f"starts with ~{head}, but there is no user named '{head}' here; give the full path")
    else:
        home = os.environ.get("HOME", "")
        if not os.path.isabs(home):  # unset, empty or relative: the account's own, never the root or this folder
            home = _account_home()
        if not os.path.isabs(home):
            raise NoHome("starts with ~, but this account has no home folder; give the full path")
    return home.rstrip("/") + rest if rest else home


def _account_home() -> str:
    """This account's home folder as the system knows it, whatever HOME says."""
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except ImportError:  # Windows: its profile folder
        return os.path.expanduser("~")
    except KeyError:  # an account with no entry: no home (expanduser would read HOME again, "" as the root)
        return ""
