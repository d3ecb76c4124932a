"""The files ginscore keeps beside a database ``NAME``, which an ``export --output`` must never replace:
``NAME.lock``, the temporary ``.NAME.tmp-PID-RANDOM``, an upgrade's copy ``NAME.pre-3.bak`` or
``NAME.pre-4.bak``, and the files of the parted layout of 2.x.
"""

from __future__ import annotations

import os
import re
import stat

from ginscore.db import atomic

LOCK_SUFFIX = ".lock"
BACKUP_SUFFIX = ".pre-3.bak"  # the copy kept when a database of ginscore 1.x or 2.x is upgraded
DEALT_BACKUP_SUFFIX = ".pre-4.bak"  # the copy kept when one of 3.x is: its hands did not yet keep who dealt
BACKUP_SUFFIXES = (BACKUP_SUFFIX, DEALT_BACKUP_SUFFIX)


def part_of(name: str) -> str | None:
    """The database (its name without ``.json``) whose file of the parted layout of 2.x ``name`` is
    (``club.facts-0000-26.json``: ``club``), or None."""
    found = re.fullmatch(r"(.+)\.(index|totals|(facts|summary|tally)-\d{4,})-\d+\.json", name, re.S)
    return found[1] if found else None


def _same_file(one: str, other: str) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _beside(name: str, db_name: str) -> bool:
    """A name ginscore uses beside the database ``db_name``: the file, its lock, its temporary
    files, the copy kept before an upgrade, and the files of its old parted layout."""
    if name in (db_name, db_name + LOCK_SUFFIX, *(db_name + s for s in BACKUP_SUFFIXES)) or atomic.is_temp_of(name, db_name):
        return True
    return part_of(name) == db_name.removesuffix(".json")  # what the files of its old parted layout begin with


def belongs(other: str, databases: set[str]) -> bool:
    """Whether ``other`` is one of these database paths or one of its own files, by any path:
    through links or ``..``, or as a hard link."""
    target = os.path.realpath(other)
    folder, name = os.path.split(target)
    for db in databases:
        db_folder, db_name = os.path.split(db)
        if (db_folder == folder or _same_file(db_folder, folder)) and _beside(name, db_name):
            return True
        parent, kept = os.path.split(folder)
        if kept in [db_name + s for s in BACKUP_SUFFIXES] and (parent == db_folder or _same_file(parent, db_folder)):
            return True  # a file of the copy kept before an upgrade
        if _same_file(db, target) or _same_file(db + LOCK_SUFFIX, target):
            return True
    return False


def is_a_companion(target: str) -> bool:
    """Whether the file at ``target`` (links followed) is, or would be, a temporary file, anything in an
    upgrade's copy, or a lock of some database: of one that is there, or empty, as made before a first write."""
    folder, name = os.path.split(target)
    if atomic.is_temp(name) or name.endswith(BACKUP_SUFFIXES) or os.path.basename(folder).endswith(BACKUP_SUFFIXES):
        return True
    if name.endswith(LOCK_SUFFIX) and len(name) > len(LOCK_SUFFIX):
        if os.path.lexists(os.path.join(folder, name[:-len(LOCK_SUFFIX)])):
            return True
        try:
            found = os.lstat(target)
        except OSError:
            return False
        return stat.S_ISREG(found.st_mode) and found.st_size == 0
    return False
