"""One writer at a time, across processes: an exclusive lock on ``<database>.lock``.

On POSIX this is ``fcntl.flock`` on a separate lock file: the kernel drops
the lock when its holder exits, even on SIGKILL, so a killed writer never
leaves the database locked. flock has no timeout, so a waiting writer polls
a non-blocking lock until its deadline. Windows has no fcntl; there the
``filelock`` package does the same job. (filelock is not used on POSIX
because importing it costs more than the rest of a `hand` command.)

The lock file is opened with O_NOFOLLOW and must be a regular file: a
symlink planted at ``<database>.lock`` (even a dangling one) is refused, never
followed, so it cannot make ginscore create or lock a file elsewhere.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from contextlib import contextmanager


class LockTimeout(Exception):
    """Another process held the lock for longer than the timeout."""


class LockUnusable(Exception):
    """The lock file is a symlink, a folder or not a regular file; ``problem`` says which."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path} {problem}")
        self.problem = problem


_OPEN = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _open(path: str) -> int:
    """Open (or create) the lock file itself, never what a link there points to."""
    try:
        handle = os.open(path, _OPEN, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise LockUnusable(path, "is a symbolic link (ginscore never follows one there)") from None
        if error.errno == errno.EISDIR:
            raise LockUnusable(path, "is a folder") from None
        raise
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise LockUnusable(path, "is not a regular file")
    return handle


@contextmanager
def exclusive(path: str, timeout: float):
    """Hold the lock on ``path`` for the block; raise LockTimeout after ``timeout`` seconds."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield from _with_filelock(path, timeout)
        return
    handle = _open(path)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(path) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(handle)  # closing the descriptor releases the lock


def _with_filelock(path: str, timeout: float):  # pragma: no cover - Windows
    import filelock

    lock = filelock.FileLock(path, timeout=timeout)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise LockTimeout(path) from None
    try:
        yield
    finally:
        lock.release()
