"""Files read and written whole at paths that are trusted for nothing: a new file is made under a
fresh name nobody could plant, fsynced, and swapped or renamed into place (docs/storage.md, "How a
write happens"). Nothing here prints; callers turn ``NotRegular`` and ``OSError`` into one line.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from contextlib import contextmanager, suppress

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
READ_NO_LINK = _READ | _NOFOLLOW  # a file opened to read, never through a link, never waited on (a FIFO)
_ANY_TEMP = re.compile(r"\..+\.tmp-[0-9]+-[0-9a-f]+", re.S)  # what temp_prefix and _temp_beside make
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
          stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFSOCK: "a socket", stat.S_IFLNK: "a symbolic link"}


class NotRegular(Exception):
    """A path that exists but is not a regular file; ``kind`` says what it is ("a folder", ...)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def kind_of(mode: int) -> str | None:
    """What a file of this mode (from ``os.lstat`` too) is, in words; None for a regular file."""
    return None if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _regular(st: os.stat_result) -> os.stat_result:
    kind = kind_of(st.st_mode)
    if kind is not None:
        raise NotRegular(kind)
    return st


def existing(path: str) -> os.stat_result | None:
    """The stat of the regular file at ``path`` (links followed), None when nothing is there."""
    try:
        return _regular(os.stat(path))
    except FileNotFoundError:
        return None


def read(path: str) -> tuple[bytes, os.stat_result] | None:
    """The bytes of the regular file at ``path`` and its stat; None when there is no file. Checked
    before opening (a device is never opened) and again once open (a FIFO put there meanwhile)."""
    try:
        if existing(path) is None:
            return None
        with open(os.open(path, _READ), "rb") as handle:
            st = _regular(os.fstat(handle.fileno()))
            return handle.read(), st
    except FileNotFoundError:
        return None


def read_unlinked(path, most: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, never opened through a link (ELOOP) nor waited on:
    ``NotRegular`` for a FIFO or a device; ValueError when it holds more than ``most`` bytes."""
    fd = os.open(path, READ_NO_LINK)
    try:
        # (checked before Python's file object, which refuses a folder as if reading failed)
        size = _regular(os.fstat(fd)).st_size
        if most is not None and size > most:
            raise ValueError(f"{size} bytes, more than {most}")
    except (NotRegular, ValueError):
        os.close(fd)
        raise
    with open(fd, "rb") as handle:
        return handle.read()


def temp_prefix(name: str) -> str:
    """The start of every temporary file name for the file called ``name``."""
    return f".{name}.tmp-"


def is_temp(entry_name: str) -> bool:
    """True for a name ``_temp_beside`` makes for any file."""
    return _ANY_TEMP.fullmatch(entry_name) is not None


def is_temp_of(entry_name: str, name: str) -> bool:
    """True for a name ``_temp_beside`` makes for ``name``: ``.NAME.tmp-PID-HEX``."""
    # [0-9], not isdigit(): that takes digits of every script ("²"), which int() then refuses
    return re.fullmatch(re.escape(temp_prefix(name)) + "[0-9]+-[0-9a-f]+", entry_name) is not None


def _running(pid: int) -> bool:
    """Whether a process of this number runs (another user's too); unsure counts as running."""
    if pid <= 0 or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's (EPERM), or a number no process can have
        return True
    return True


def _own(found: os.stat_result) -> bool:
    """Whether this user made the file: another user's file of that name is theirs, whatever it holds."""
    return not hasattr(os, "geteuid") or found.st_uid == os.geteuid()


def remove_leftovers(path: str) -> None:
    """Remove what writers of ``path`` killed mid-write left beside it: only a regular file of this user
    named as ``_temp_beside`` names one, whose process no longer runs, holding a JSON object or nothing yet."""
    folder, name = os.path.split(path)
    prefix = temp_prefix(name)
    try:
        entries = [entry for entry in os.scandir(folder or ".") if is_temp_of(entry.name, name)]
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(prefix):].partition("-")[0]
        try:
            if _running(int(pid)) or not entry.is_file(follow_symlinks=False):
                continue
            with open(os.open(entry.path, READ_NO_LINK), "rb") as handle:
                found = os.fstat(handle.fileno())
                if not stat.S_ISREG(found.st_mode) or handle.read(1) not in (b"", b"{") or not _own(found):
                    continue
            os.unlink(entry.path)
        except OSError:  # gone already, or not ours to read: left as it is
            continue


@contextmanager
def _temp_beside(path: str):
    """A new file beside ``path`` under a fresh name, as (descriptor, name): removed again when the block
    fails (ours: created exclusively under a fresh name)."""
    folder, name = os.path.split(path)
    for _ in range(16):
        temp = os.path.join(folder, f"{temp_prefix(name)}{os.getpid()}-{os.urandom(8).hex()}")
        with suppress(FileExistsError):  # something planted (or 2**64 bad luck): another fresh name
            fd = os.open(temp, _CREATE, 0o600)
            break
    else:
        raise FileExistsError(f"no fresh temporary name beside {path}")
    try:
        yield fd, temp
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


@contextmanager
def owners_bits_kept():
    """Folders made inside are always ones their owner can use: the umask is kept for everyone else (under
    a umask of 0777 a folder would be made where nobody, its owner too, could go)."""
    mask = os.umask(0o022)
    os.umask(mask & 0o077)
    try:
        yield
    finally:
        os.umask(mask)


def umask_default() -> int:
    """The permission bits a new file gets here: 0666 less the umask, but always read and write for its
    owner (under a umask of 0777 the file would be kept where nobody, its owner too, could read it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask | 0o600


def _copy_attributes(path: str, fd: int) -> None:
    """Give the temporary file the extended attributes (POSIX ACLs too) of the file it replaces."""
    if not hasattr(os, "listxattr"):  # macOS and Windows: see docs/storage.md
        return
    try:
        names = os.listxattr(path)
    except OSError:  # no file yet, or a file system without extended attributes
        return
    for name in names:
        with suppress(OSError):  # not supported here, or one only the system may set (security.*, trusted.*)
            os.setxattr(fd, name, os.getxattr(path, name))


def keep_owner(fd: int, like: os.stat_result) -> None:
    """Give the file ``fd`` the owner and group of ``like``; where this user may not give a file away,
    its group alone (a member of a shared folder's group may), so the others of the group still can."""
    if not hasattr(os, "fchown") or (like.st_uid, like.st_gid) == (os.geteuid(), os.getegid()):
        return  # (Windows has no POSIX owner to keep)
    try:
        os.fchown(fd, like.st_uid, like.st_gid)
    except OSError:
        with suppress(OSError):  # not in that group either: the bits are still kept
            os.fchown(fd, -1, like.st_gid)


def _take_over(fd: int, like: os.stat_result | None) -> None:
    """Give the temporary file the owner and permission bits of ``like`` (None: a new file's)."""
    if not hasattr(os, "fchown"):  # pragma: no cover - Windows has no POSIX owner or bits to keep
        return
    if like is None:
        os.fchmod(fd, umask_default())
        return
    keep_owner(fd, like)
    os.fchmod(fd, stat.S_IMODE(like.st_mode))


# Swapping two names in one step: the C library's wrapper, else the system call (its number per processor).
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # Linux <linux/fs.h>
_RENAME_SWAP = 2  # macOS <stdio.h>
_RENAMEAT2_CALL = {"x86_64": 316, "amd64": 316, "aarch64": 276, "arm64": 276, "riscv64": 276,
                   "i386": 353, "i686": 353, "armv7l": 382, "ppc64le": 357, "ppc64": 357, "s390x": 347}
_CANNOT_SWAP = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV}
_swapper = []  # the swapping call once found: [None] where this system has none


def _find_swapper():
    import ctypes
    import platform

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - no C library to ask
        return None
    if sys.platform == "darwin" and hasattr(libc, "renamex_np"):
        swap = libc.renamex_np
        swap.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        return lambda one, other: swap(one, other, _RENAME_SWAP)
    if not sys.platform.startswith("linux"):
        return None
    if hasattr(libc, "renameat2"):
        wrapper = libc.renameat2
        wrapper.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        return lambda one, other: wrapper(_AT_FDCWD, one, _AT_FDCWD, other, _RENAME_EXCHANGE)
    number = _RENAMEAT2_CALL.get(platform.machine().lower())
    if number is None or not hasattr(libc, "syscall"):
        return None
    call = libc.syscall
    call.restype = ctypes.c_long
    return lambda one, other: call(ctypes.c_long(number), ctypes.c_int(_AT_FDCWD), ctypes.c_char_p(one),
                                   ctypes.c_int(_AT_FDCWD), ctypes.c_char_p(other), ctypes.c_uint(_RENAME_EXCHANGE))


def exchange(one: str, other: str) -> bool:
    """Swap the files at two existing names in one step; False (nothing done) where this system or
    file system cannot swap. Another OSError (a name not there) is raised."""
    if not _swapper:
        _swapper.append(_find_swapper())
    swap = _swapper[0]
    if swap is None:
        return False
    if swap(os.fsencode(one), os.fsencode(other)) == 0:
        return True
    import ctypes

    number = ctypes.get_errno()
    if number in _CANNOT_SWAP:
        return False
    raise OSError(number, os.strerror(number), one, None, other)


def _swapped_in(temp: str, path: str, check) -> bool:
    """Swap the new file at ``temp`` in for the file at ``path``, then ``check(temp)`` the file that
    came out: what it raises swaps the two back and is raised. False where nothing could be swapped."""
    ours = os.lstat(temp)
    if not exchange(temp, path):
        return False
    try:
        check(temp)
    except BaseException:
        exchange(temp, path)  # theirs back in place, ours back at the temporary name
        if not os.path.samestat(os.lstat(temp), ours):
            # A third file replaced ours in the instant between the two swaps: it is the newest, so
            # it goes in place; the one first swapped out, which it replaced, goes as a rename would.
            exchange(temp, path)
        raise
    with suppress(OSError):
        os.unlink(temp)  # the file as it was read: replaced now, as a rename would have
    return True


def _linked(temp: str, path: str) -> bool:
    """Put ``temp`` at ``path`` only if nothing is there (True); False where the file system has no
    hard links. Raises ``AppearedMeanwhile`` when something is there."""
    try:
        os.link(temp, path, follow_symlinks=False)
    except FileExistsError:
        raise AppearedMeanwhile(path) from None
    except OSError:  # no hard links here (FAT, some network and sync file systems)
        return False
    os.unlink(temp)
    return True


class AppearedMeanwhile(FileExistsError):
    """A file appeared at a path that had none when it was read (``replace`` of a database)."""


def _owner_bits(found: os.stat_result | None):
    return None if found is None else (found.st_uid, found.st_gid, stat.S_IMODE(found.st_mode))


def replace(path: str, data: bytes, check, like: os.stat_result | None, database: bool = False) -> None:
    """Make the regular file at ``path`` (already resolved) hold ``data``, whole or not at all, with the
    owner, bits and attributes of ``like`` (the file as read). ``check()`` raises to stop the replace or
    gives the stat of the file about to be replaced. A ``database`` is swapped in rather than renamed
    over (or linked into place when there is none yet), and the file that came out is checked again
    with ``check(path_it_was_moved_to)`` (``_swapped_in``)."""
    with _temp_beside(path) as (fd, temp):
        try:
            _write_all(fd, data)
            _take_over(fd, like)
            _copy_attributes(path, fd)
            os.fsync(fd)  # the bytes, owner, bits and attributes
            now = check()
            if _owner_bits(now) != _owner_bits(like):  # (changed without the bytes: chmod by hand)
                _take_over(fd, now)
                os.fsync(fd)
                now = check()
        finally:
            os.close(fd)
        placed = database and (_linked(temp, path) if now is None else _swapped_in(temp, path, check))
        if not placed:  # an export, or a file system that can neither link nor swap
            os.replace(temp, path)
    fsync_folder(os.path.dirname(path))
    if database:
        remove_leftovers(path)


def replace_unsynced(path: str, data: bytes) -> None:
    """Make ``path`` hold ``data``, whole or not at all, without waiting for the disk: for a cache,
    which a crash may leave old or missing (its readers then make it again)."""
    with _temp_beside(path) as (fd, temp):
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(temp, path)


def fsync_folder(folder: str) -> None:
    """Make the rename durable. Done after the file is replaced, so a failure here is not an error
    (some file systems cannot fsync a folder)."""
    with suppress(OSError):
        fd = os.open(folder or ".", os.O_RDONLY | _CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def create_new(path: str, data: bytes, like: os.stat_result | None) -> bool:
    """Write ``data`` (fsynced) to a file that must not exist yet; False when a regular file is
    already there. For the copy kept before an upgrade: a symlink or folder planted at that name is
    refused (NotRegular), never followed."""
    try:
        fd = os.open(path, _CREATE, 0o600)
    except FileExistsError:
        kind = kind_of(os.lstat(path).st_mode)
        if kind is None:
            return False
        raise NotRegular(kind) from None
    try:
        try:
            _write_all(fd, data)
            _take_over(fd, like)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        os.unlink(path)
        raise
    return True
