"""Where the database file is, and the two ways to open it: ``reading()`` without a lock (the file is
replaced whole, so a reader sees it before a write or after) and ``writing()`` under the lock; and how
`watch` and `serve` tell that the file changed (``file_signature``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from ginscore.core.errors import DatabaseUnusable
from ginscore.db import atomic, interrupts
from ginscore.db.companions import belongs
from ginscore.db.database import Database
from ginscore.db.storage import not_a_file, writes

LOCK_TIMEOUT = 5.0  # seconds a writer waits for another before giving up
NOT_THEIRS = ("may not be written by this user (another user's file?), so nothing was written; "
              "use --db for a file of your own")
READ_ONLY = ("is read-only (nobody may write it), so nothing was written; "
             "make it writable (chmod u+w) to record in it, or use --db for another file")
ON_READ_ONLY_DISK = ("is on a file system mounted read-only, so nothing was written; "
                     "use --db for a file on a disk that can be written")
FOLDER_CLOSED = ("is in a folder this user may not write, and ginscore replaces the file whole beside it, so "
                 "nothing was written; ask the folder's owner to let you write it, or use --db for a file of your own")
STICKY = ("is another user's file in a shared folder where only its owner may replace it (like /tmp), so nothing "
          "was written; its owner can move it to a folder of its own, or use --db for a file of your own")


def _not_writable(real: str, found: os.stat_result) -> str | None:
    """Why this user cannot replace the database file (said once a command changed something); None
    when it can. ginscore writes a new file beside it and swaps it in: the folder must let it."""
    if not stat.S_IMODE(found.st_mode) & 0o222:
        return READ_ONLY
    folder = os.path.dirname(real) or "."
    with suppress(OSError):  # (what cannot be asked is found out by the write itself)
        if hasattr(os, "statvfs") and os.statvfs(folder).f_flag & os.ST_RDONLY:
            return ON_READ_ONLY_DISK
    if not os.access(real, os.W_OK):
        return NOT_THEIRS
    if not os.access(folder, os.W_OK | os.X_OK):
        return FOLDER_CLOSED
    try:
        around = os.stat(folder)
    except OSError:
        return None
    if around.st_mode & stat.S_ISVTX and getattr(os, "geteuid", lambda: 0)() not in (0, found.st_uid, around.st_uid):
        return STICKY
    return None


def _lock(held: ExitStack, shown: Path, real: str) -> None:
    """Take the database's lock for the rest of ``held`` (its folder made first, for a new database)."""
    from ginscore.db.lock import LockTimeout, LockUnusable, exclusive  # only commands that write pay for it

    try:
        with atomic.owners_bits_kept():
            shown.parent.mkdir(parents=True, exist_ok=True)
        waiting = held.enter_context(interrupts.ctrl_z_held())  # (left after the lock is let go)
        held.enter_context(exclusive(real + ".lock", LOCK_TIMEOUT, real, waiting))
    except LockTimeout as error:
        raise DatabaseUnusable(
            shown, f"is locked by another ginscore command for over {LOCK_TIMEOUT:g} s (its lock file {error}); try again"
        ) from None
    except LockUnusable as error:
        if not error.removable:
            raise DatabaseUnusable(shown, f"cannot be locked or reached: its lock file {error}") from None
        raise DatabaseUnusable(shown, f"cannot be locked: its lock file {error}; remove it") from None
    except OSError as error:
        raise DatabaseUnusable(shown, f"cannot be locked or reached: {error.strerror or error}") from None


class Store:
    """Where the database file is. ``path``: as given (messages name it), or a callable asked only when
    a command needs the file; ``index_cache(real)``: where the cache keeps the file's index, a
    ``cache.files.Cache`` (db/ uses its ``section``, ``writable``, ``keep_index`` and ``drop``; it
    cannot import cache/, which reads db/)."""

    def __init__(self, path: Path | str | Callable[[], Path], index_cache: Callable[[str], object] | None = None):
        self._where = path
        self.index_cache = index_cache

    @property
    def path(self) -> Path:
        if callable(self._where):
            self._where = self._where()
        return Path(self._where)

    @property
    def real(self) -> str:
        """The file itself: every symlink on the way followed (a link stays a link)."""
        return os.path.realpath(self.path)

    def owns(self, other: str) -> bool:
        """Is ``other`` the database or one of its own files (lock, temporary, upgrade copy), by any path?"""
        return belongs(other, {os.path.abspath(self.path), self.real})

    def reading(self) -> Database:
        """Open for reading: no lock; never writes the database."""
        return Database(self.path, self._reachable(), index_cache=self.index_cache)

    def _reachable(self) -> str:
        """The file itself (``real``). A path through a link that leads nowhere (onto a drive not mounted) is
        said as such: never read as a database with no sessions yet, and nothing is made there. Folders
        simply not made yet, below a link or not, are made by the first write."""
        real = self.real
        if real != os.path.abspath(self.path):  # (a path with no link on the way names the file itself)
            self._leads_to(real)
        if os.path.isdir(os.path.dirname(real)):
            return real
        on_the_way = os.path.abspath(self.path)
        while not os.path.exists(on_the_way) and on_the_way != os.path.dirname(on_the_way):
            if os.path.islink(on_the_way):
                raise DatabaseUnusable(self.path, f"leads to {real}, whose folder is not there (a drive not "
                                                  "mounted?); bring that folder back, or use another database file")
            on_the_way = os.path.dirname(on_the_way)
        return real

    def _leads_to(self, real: str) -> None:
        """/dev/fd/N leads to what is open, not to the file its link names: refused unless they are one file.
        A look a writer's swap came between (the path itself moved meanwhile) is not counted; a path that never
        holds still is a name a writer keeps replacing, not an open file."""
        held_still = 0
        for _ in range(100):
            try:
                through = os.stat(self.path)
            except OSError:
                return  # (nothing there yet: a new database)
            with suppress(OSError):
                if os.path.samestat(through, os.stat(real)):
                    return
            with suppress(OSError):
                held_still += os.path.samestat(through, os.stat(self.path))
            if held_still == 3:
                raise not_a_file(self.path, "a pipe (like <(...))" if stat.S_ISFIFO(through.st_mode) else
                                 atomic.kind_of(through.st_mode) or "an open file with no name (a deleted one?)")

    @contextmanager
    def writing(self):
        """Open for one read-modify-write under the lock; written only if the block succeeds.

        Where there is no database file yet, the lock (and the folder) are made only when there is
        something to write: a command refused on a path with no database leaves nothing behind (a
        typo in ``--db`` makes no folder and no lock file). What it read then, no file, is checked
        again under the lock before anything is written, as every write is (``_unchanged``)."""
        shown = self.path
        real = self._reachable()
        with ExitStack() as held:
            try:
                found = atomic.existing(real)  # a folder, device or FIFO is refused before any lock
            except atomic.NotRegular as error:
                raise not_a_file(shown, error.kind) from None
            except OSError as error:
                raise DatabaseUnusable(shown, f"cannot be locked or reached: {error.strerror or error}") from None
            cannot_replace = None if found is None else _not_writable(real, found)  # why not, in words
            database = Database(shown, real, writer=True, index_cache=self.index_cache)  # (reads nothing yet)
            if cannot_replace:  # read as it is, unlocked; refused only if the command changed something
                database.storage.bytes()  # a file nobody may read says so before it says it cannot be written
            elif found is not None:
                _lock(held, shown, real)
            yield database
            if cannot_replace:
                if database.storage.changed():
                    raise DatabaseUnusable(shown, cannot_replace)
                return
            if found is None and database.storage.dirty:
                _lock(held, shown, real)
            with interrupts.held(writes):  # a Ctrl-C now waits until the write is committed (then exit 0)
                database.flush()


POLL_SECONDS = 0.25  # how often `watch` and `serve` look at file_signature: a change shows within a second


def file_signature(path) -> tuple | None:
    """What changes whenever the file is replaced or written (None: it is not there): what the live
    boards (`watch`, `serve`) look at to notice a hand recorded anywhere."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns
