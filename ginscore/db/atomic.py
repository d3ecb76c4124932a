"""Files read and written whole at paths that are trusted for nothing.

The database and an ``export --output`` file are both replaced the same way:
a temporary file created *exclusively* (O_CREAT|O_EXCL|O_NOFOLLOW) under a
fresh random name beside the real file, written, fsynced, then renamed over
it and the folder fsynced. A directory or symlink planted at any name we
could guess cannot block or redirect the write: the name is new each time and
the create refuses anything already there.

The database is not renamed over but *swapped* in (``exchange``: Linux
renameat2 RENAME_EXCHANGE, macOS renamex_np RENAME_SWAP), so the file that was
there comes out whole at the temporary name and can be checked to be the one
read: a sync client's file that landed a moment before is swapped back, never
lost. Where the system cannot swap, the check comes right before the rename.
Extended attributes (and so POSIX ACLs) are copied to the new file.

A symbolic link is followed once, up front (``os.path.realpath``), and the
file it points to is the one read and replaced; the link stays a link. A path
that is not a regular file (a folder, a device, a FIFO, a socket) is refused
before it is opened for reading, and opened with O_NONBLOCK so that a FIFO
swapped in at the last moment cannot hang a read. The file that is replaced
keeps its permission bits (and, where allowed, its owner); a new file gets
the usual umask default.

Nothing here knows about ginscore's data or prints; callers turn
``NotRegular`` and ``OSError`` into their own one-line errors.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
TEMP_MARK = ".tmp-"


class NotRegular(Exception):
    """A path that exists but is not a regular file; ``kind`` says what it is ("a folder", ...)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def kind_of(mode: int) -> str | None:
    """What a file of this mode is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


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
    """The bytes of the regular file at ``path`` and its stat; None when there is no file.

    Checked before opening (a device is never opened) and again on the open
    descriptor (a FIFO put there in between cannot block: O_NONBLOCK).
    """
    try:
        if existing(path) is None:
            return None
        fd = os.open(path, _READ)
    except FileNotFoundError:
        return None
    with open(fd, "rb") as handle:
        st = _regular(os.fstat(fd))
        return handle.read(), st


def temp_prefix(name: str) -> str:
    """The start of every temporary file name for the file called ``name``."""
    return f".{name}{TEMP_MARK}"


def is_temp_of(entry_name: str, name: str) -> bool:
    """True for a name ``_create_temp`` makes for ``name``: ``.NAME.tmp-PID-HEX``."""
    prefix = temp_prefix(name)
    if not entry_name.startswith(prefix):
        return False
    pid, _, token = entry_name[len(prefix):].partition("-")
    return pid.isdigit() and bool(token) and all(c in "0123456789abcdef" for c in token)


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


def remove_leftovers(path: str) -> None:
    """Remove what writers of ``path`` killed mid-write left beside it: only a regular file named
    exactly as ``_create_temp`` names one for ``path``, whose process no longer runs, holding what
    a writer writes (a JSON object, or nothing yet). Anything else is never touched."""
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
            with open(os.open(entry.path, _READ | _NOFOLLOW), "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode) or handle.read(1) not in (b"", b"{"):
                    continue
            os.unlink(entry.path)
        except OSError:  # gone already, or not ours to read: left as it is
            continue


def _create_temp(path: str) -> tuple[int, str]:
    folder, name = os.path.split(path)
    for _ in range(16):
        temp = os.path.join(folder, f"{temp_prefix(name)}{os.getpid()}-{os.urandom(8).hex()}")
        try:
            return os.open(temp, _CREATE, 0o600), temp
        except FileExistsError:  # something planted (or 2**64 bad luck): another fresh name
            continue
    raise FileExistsError(f"no fresh temporary name beside {path}")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def umask_default() -> int:
    """The permission bits a new file gets here (0666 less the umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _copy_attributes(path: str, fd: int) -> None:
    """Give the temporary file the extended attributes of the file it replaces (POSIX ACLs live there
    too), so that a write does not drop them; where the system has none, or refuses one, it is skipped."""
    if not hasattr(os, "listxattr"):  # macOS and Windows: see docs/storage.md
        return
    try:
        names = os.listxattr(path)
    except OSError:  # no file yet, or a file system without extended attributes
        return
    for name in names:
        try:
            os.setxattr(fd, name, os.getxattr(path, name))
        except OSError:  # not supported here, or one only the system may set (security.*, trusted.*)
            pass


def _take_over(fd: int, like: os.stat_result | None) -> None:
    """Give the temporary file the owner and permission bits of the file it replaces."""
    if not hasattr(os, "fchown"):  # pragma: no cover - Windows has no POSIX owner or bits to keep
        return
    if like is None:
        os.fchmod(fd, umask_default())
        return
    if (like.st_uid, like.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, like.st_uid, like.st_gid)
        except OSError:  # not allowed to give it away: the bits are still kept
            pass
    os.fchmod(fd, stat.S_IMODE(like.st_mode))


# Swapping two names in one step. The C library's wrapper where there is one; else the system call
# itself, whose number depends on the processor.
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
    if sys.platform.startswith("linux"):
        wrapper = getattr(libc, "renameat2", None)
        if wrapper is not None:
            wrapper.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            return lambda one, other: wrapper(_AT_FDCWD, one, _AT_FDCWD, other, _RENAME_EXCHANGE)
        number = _RENAMEAT2_CALL.get(platform.machine().lower())
        if number is None or not hasattr(libc, "syscall"):
            return None
        call = libc.syscall
        call.restype = ctypes.c_long
        return lambda one, other: call(ctypes.c_long(number), ctypes.c_int(_AT_FDCWD), ctypes.c_char_p(one),
                                       ctypes.c_int(_AT_FDCWD), ctypes.c_char_p(other), ctypes.c_uint(_RENAME_EXCHANGE))
    if sys.platform == "darwin":
        swap = getattr(libc, "renamex_np", None)
        if swap is not None:
            swap.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
            return lambda one, other: swap(one, other, _RENAME_SWAP)
    return None


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


def _same_file(one: os.stat_result, other: os.stat_result) -> bool:
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _swapped_in(temp: str, path: str, came_out) -> bool:
    """Swap the new file at ``temp`` in for the file at ``path``, then ask ``came_out(temp)`` about
    the file that came out: what it raises (not the file that was read) swaps the two back and is
    raised; the new file then goes with the temporary name. True when the new file is in place; False
    where nothing could be swapped (the caller renames instead)."""
    ours = os.lstat(temp)
    if not exchange(temp, path):
        return False
    try:
        came_out(temp)
    except BaseException:
        exchange(temp, path)  # theirs back in place, ours back at the temporary name
        if not _same_file(os.lstat(temp), ours):
            # A third file replaced ours in the instant between the two swaps: it is the newest, so
            # it goes in place; the one first swapped out, which it replaced, goes as a rename would.
            exchange(temp, path)
        raise
    try:
        os.unlink(temp)  # the file as it was read: replaced now, as a rename would have
    except OSError:
        pass
    return True


def _renamed_over(path: str, fill, put=None) -> None:
    """A temporary file of a fresh name beside ``path`` (created exclusively), given its bytes by
    ``fill(fd)``, then renamed over ``path`` (unless ``put(temp, what fill returned)`` put it there
    itself); removed again if anything fails on the way."""
    fd, temp = _create_temp(path)
    try:
        try:
            filled = fill(fd)
        finally:
            os.close(fd)
        if put is None or not put(temp, filled):
            os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)  # ours: created exclusively under a fresh name
        except OSError:
            pass
        raise


class AppearedMeanwhile(FileExistsError):
    """A file appeared at a path that had none when it was read (``replace`` with ``new_only``)."""


def _owner_bits(found: os.stat_result | None):
    return None if found is None else (found.st_uid, found.st_gid, stat.S_IMODE(found.st_mode))


def replace(path: str, data: bytes, check, like: os.stat_result | None, new_only: bool = False,
            came_out=None) -> None:
    """Make the regular file at ``path`` (already resolved) hold ``data``, whole or not at all.

    The new file takes the owner and permission bits of ``like`` (the file as it was read; None:
    there was none) and is fsynced. Only then ``check()`` runs, right before the file is put in
    place, so that nothing another program does meanwhile falls in a gap: it raises to stop the
    replace (the file changed, or is no longer a regular file) and returns the stat of the file
    about to be replaced (None if there is none); owner or bits changed since ``like`` are taken
    again. ``new_only``: where there is no file, the new one is put there only if there is still
    none (a hard link, which no existing name lets through: ``AppearedMeanwhile``); a file system
    without hard links gets the rename, as an existing file does.

    ``came_out(at)``: the new file is swapped in for an existing one (``exchange``) and
    ``came_out`` asked about the file that came out, now at the temporary name ``at``; it raises to
    have the two swapped back (``_swapped_in``). Where the system cannot swap, ``check`` was the last
    word before the rename. Such a replace is a database's: once it is done, what its killed writers
    left beside it goes too (``remove_leftovers``).
    """
    def fill(fd: int) -> os.stat_result | None:
        _write_all(fd, data)
        _take_over(fd, like)
        _copy_attributes(path, fd)
        os.fsync(fd)  # the bytes, owner, bits and attributes
        now = check()
        if _owner_bits(now) != _owner_bits(like):  # (changed without the bytes: chmod by hand)
            _take_over(fd, now)
            os.fsync(fd)
            now = check()
        return now

    def put(temp: str, now: os.stat_result | None) -> bool:
        if now is None:
            return new_only and _linked(temp, path)
        return came_out is not None and _swapped_in(temp, path, came_out)

    _renamed_over(path, fill, put)
    fsync_folder(os.path.dirname(path))
    if came_out is not None:
        remove_leftovers(path)


def _linked(temp: str, path: str) -> bool:
    """Put ``temp`` at ``path`` only if nothing is there (True, and ``temp`` removed); False where the
    file system has no hard links. Raises ``AppearedMeanwhile`` when something is there."""
    try:
        os.link(temp, path, follow_symlinks=False)
    except FileExistsError:
        raise AppearedMeanwhile(path) from None
    except OSError:  # no hard links here (FAT, some network and sync file systems)
        return False
    os.unlink(temp)
    return True


def replace_unsynced(path: str, data: bytes) -> None:
    """Make ``path`` hold ``data``, whole or not at all, without waiting for the disk: for a cache,
    which a crash may leave old or missing (its readers then make it again)."""
    _renamed_over(path, lambda fd: _write_all(fd, data))


def fsync_folder(folder: str) -> None:
    """Make the rename durable. Done after the file is replaced, so a failure here is not an error."""
    try:
        fd = os.open(folder or ".", os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a folder
        pass
    finally:
        os.close(fd)


def create_new(path: str, data: bytes, like: os.stat_result | None, durable: bool = True) -> bool:
    """Write ``data`` to a file that must not exist yet; False when a regular file is already there.

    Used for the copy kept before an upgrade of an older layout: a symlink or
    folder planted at that name is refused (NotRegular), never followed.
    ``durable``: fsynced before this returns.
    """
    try:
        fd = os.open(path, _CREATE, 0o600)
    except FileExistsError:
        mode = os.lstat(path).st_mode
        if stat.S_ISREG(mode):
            return False
        raise NotRegular("a symbolic link" if stat.S_ISLNK(mode) else kind_of(mode)) from None
    try:
        try:
            _write_all(fd, data)
            _take_over(fd, like)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        os.unlink(path)
        raise
    return True
