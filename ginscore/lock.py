"""One writer at a time, across processes: an exclusive lock on ``<database>.lock``.

On POSIX this is ``fcntl.flock`` on a separate lock file: the kernel drops
the lock when its holder exits, even on SIGKILL, so a killed writer never
leaves the database locked. flock has no timeout, so a waiting writer polls
a non-blocking lock until its deadline. Windows has no fcntl; there the
``filelock`` package does the same job. (filelock is not used on POSIX
because importing it costs more than the rest of a `hand` command, issue 5.)
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager


class LockTimeout(Exception):
    """Another process held the lock for longer than the timeout."""


@contextmanager
def exclusive(path: str, timeout: float):
    """Hold the lock on ``path`` for the block; raise LockTimeout after ``timeout`` seconds."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield from _with_filelock(path, timeout)
        return
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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
