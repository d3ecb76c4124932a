"""A leading ``~`` in a path, read as a shell reads it: the home folder.

A path reaches ginscore without a shell's help more often than one would think:
``GINSCORE_DB`` set in a file (a systemd unit, a ``.env``, a crontab),
``--db=~/games.json`` (bash expands no ``~`` after ``--db=``), a quoted
``"~/games.json"``. Taken literally, such a path made a folder named ``~`` in
the current folder. ``home_expanded`` gives it the meaning the person typed:
``~`` and ``~/...`` are their home folder (``$HOME`` when it is an absolute
path, else the account's own), ``~NAME/...`` that user's. Where there is no
such home it says why instead of guessing (an empty ``$HOME`` is never the
filesystem's root). Any other path is returned as it is.
"""

from __future__ import annotations

import os


class NoHome(ValueError):
    """A path starts with ``~`` (or ``~NAME``) and there is no such home folder."""


def home_expanded(typed: str) -> str:
    """``typed`` with a leading ``~`` or ``~NAME`` replaced by that home folder (see the module)."""
    if not typed.startswith("~"):
        return typed
    head, slash, rest = typed[1:].partition("/")
    if head:  # ~NAME: that user's home, as the system knows it
        expanded = os.path.expanduser(f"~{head}")
        if expanded.startswith("~") or not os.path.isabs(expanded):
            raise NoHome(f"starts with ~{head}, but there is no user named '{head}' here; give the full path")
        return os.path.join(expanded, rest) if slash else expanded
    home = os.environ.get("HOME")
    if home is None:
        home = os.path.expanduser("~")  # no HOME at all: the account's own, from the password database
    elif not os.path.isabs(home):  # set, but empty or relative: never the filesystem's root or this folder
        raise NoHome("starts with ~, but HOME is empty or not a full path; give the full path")
    if not os.path.isabs(home):
        raise NoHome("starts with ~, but this account has no home folder; give the full path")
    return os.path.join(home, rest) if slash else home
