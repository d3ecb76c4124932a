"""One writer at a time, across processes: an exclusive lock on ``<database>.lock`` (docs/storage.md).

``fcntl.flock``, which the kernel drops when its holder exits, even on SIGKILL; ``filelock`` on Windows
only, as importing it costs more than the rest of a `hand` command.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress

from ginscore.db.atomic import keep_owner, umask_default


class LockTimeout(Exception):
    """Another process held the lock for longer than the timeout."""


class LockUnusable(Exception):
    """The lock file is a symlink, a folder or not a regular file, or cannot be made; its message
    says which, and ``removable`` whether removing what is at its name would mend it."""

    def __init__(self, path: str, problem: str, removable: bool = True):
        super().__init__(f"{path} {problem}")
        self.removable = removable


_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_MAKE = os.O_RDWR | os.O_CREAT | os.O_EXCL | _FLAGS


def _shared_like(handle: int, database: str) -> None:
    """Give a new lock file the database's group and permission bits (the usual default where there
    is none yet): a database shared with others (0666, or a group's 0660) stays writable for them."""
    try:
        like = os.stat(database)
    except (OSError, ValueError):  # (no database yet, or a name no file can have)
        os.fchmod(handle, umask_default())
        return
    keep_owner(handle, like)
    os.fchmod(handle, stat.S_IMODE(like.st_mode) & 0o666)  # exactly the database's bits, whatever the umask


def _open(path: str, database: str) -> tuple[int, bool]:
    """Open (or create) the lock file itself, never what a link there points to; and whether this
    call made it."""
    try:
        try:
            handle = os.open(path, _MAKE, 0o600)
        except FileExistsError:
            try:
                handle, made = os.open(path, os.O_RDWR | _FLAGS), False
            except PermissionError:  # made narrower by another user: flock needs no write access
                handle, made = os.open(path, os.O_RDONLY | _FLAGS), False
        else:
            made = True
            _shared_like(handle, database)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise LockUnusable(path, "is a symbolic link (ginscore never follows one there)") from None
        if error.errno == errno.EISDIR:
            raise LockUnusable(path, "is a folder") from None
        # (a folder this user may not write, a read-only disk: nothing at the lock's name to remove)
        raise LockUnusable(path, f"cannot be made or opened: {error.strerror or error}", removable=False) from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise LockUnusable(path, "is not a regular file")
    return handle, made


def _still_there(path: str, handle: int) -> bool:
    """Whether the lock file at ``path`` is the one ``handle`` holds (not removed, nor replaced)."""
    try:
        return os.path.samestat(os.lstat(path), os.fstat(handle))
    except FileNotFoundError:
        return False


@contextmanager
def exclusive(path: str, timeout: float, database: str, waiting: Callable[[float], object] = time.sleep):
    """Hold the lock on ``path`` for the block; raise LockTimeout after ``timeout`` seconds.

    ``database``: the file the lock is for; the lock file is made with its bits, and removed again
    when this writer made it and the database is still not there when the block ends. ``waiting``:
    how it waits, holding nothing, before it tries again; true when the process was put aside meanwhile
    (Ctrl-Z), whose time stopped does not count."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import filelock

        try:
            with filelock.FileLock(path, timeout=timeout):
                yield
        except filelock.Timeout:
            raise LockTimeout(path) from None
        return
    deadline = time.monotonic() + timeout
    while True:
        handle, made = _open(path, database)
        try:
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockTimeout(path) from None
                    if waiting(0.01):  # put aside and brought back: the wait starts again
                        deadline = time.monotonic() + timeout
                except OSError as error:  # no locks on this file system, or none left
                    raise LockUnusable(path, f"cannot be locked: {error.strerror or error}") from None
        except BaseException:
            os.close(handle)
            raise
        if _still_there(path, handle):
            break
        os.close(handle)  # removed by a writer whose first write failed: lock the one at the name now
    try:
        yield
    finally:
        try:
            with suppress(OSError):
                if made and not os.path.lexists(database):
                    os.unlink(path)  # a database never written leaves no lock behind
        finally:
            os.close(handle)  # closing the descriptor releases the lock
