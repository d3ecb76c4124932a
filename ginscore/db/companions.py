"""The files ginscore keeps beside a database, which nothing else may replace.

Beside a database file ``NAME`` its writers hold ``NAME.lock`` (an empty file:
one writer at a time), make the next file under a temporary name
``.NAME.tmp-PID-RANDOM``, and an upgrade keeps the files of the old layout in
the folder ``NAME.pre-3.bak``. An ``export --output`` that replaced one of them
would let a second writer run beside the first (a new lock file is a new
lock), put an export where a writer's next database is being made, or lose a
copy kept for safety; so these names are told apart here, for any database,
not only the one a command uses.
"""

from __future__ import annotations

import os
import re
import stat

from ginscore.db.upgrade import BACKUP_SUFFIX

LOCK_SUFFIX = ".lock"
_TEMP_NAME = re.compile(r"\..+\.tmp-[0-9]+-[0-9a-f]+", re.S)


def is_a_companion(target: str) -> bool:
    """Whether the file at ``target`` (links already followed) is, or would be, a lock, a temporary
    file or an upgrade's copy of some database: a lock of a database that is there (or an empty
    ``.lock`` file, as ginscore makes one before a first write), a name of ginscore's temporary
    pattern, anything named or kept in ``NAME.pre-3.bak``."""
    folder, name = os.path.split(target)
    if _TEMP_NAME.fullmatch(name):
        return True
    if name.endswith(BACKUP_SUFFIX) or os.path.basename(folder).endswith(BACKUP_SUFFIX):
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
