"""What lies beside the database file: leftovers of killed writers, extended attributes and ACLs,
and the lock file (its bits, its name in every error, none for a database never written)."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys

import pytest

import ginscore.db.atomic as atomic
from tests.support import AS_ROOT, run_as_nobody


def _dead_pid() -> int:
    """The number of a process that has ended (and was waited for)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_what_a_killed_writer_left_goes_with_the_next_write_and_nothing_else(ok, db_path, evening, tmp_path):
    dead = _dead_pid()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        folder = db_path.parent
        gone = {f".ginscore.json.tmp-{dead}-00c0ffee": evening,  # a whole new file, never renamed
                f".ginscore.json.tmp-{dead}-0badcafe": evening[:40],  # cut short
                f".ginscore.json.tmp-{dead}-deadbeef": b""}  # killed right after it was made
        kept = {f".ginscore.json.tmp-{alive.pid}-00c0ffee": evening,  # a writer still at work
                f".ginscore.json.tmp-{dead}-notours": evening,  # not our pattern
                f".ginscore.json.tmp-{dead}-abcdef": b"half a write",  # named so, but not what we write
                ".ginscore.json.tmp-\u00b2-abcdef": evening,  # a digit, but not an ASCII one
                ".ginscore.json.tmp-\u0663-abcdef": evening,  # another script's digit three
                f".other.json.tmp-{dead}-abcdef": evening,  # another database's
                f"ginscore.json.tmp-{dead}-abcdef": evening}  # no leading dot
        for name, data in {**gone, **kept}.items():
            (folder / name).write_bytes(data)
        linked = folder / f".ginscore.json.tmp-{dead}-11111111"
        linked.symlink_to(db_path)
        ok("status")  # a reader removes nothing
        assert all((folder / name).exists() for name in gone)
        ok("hand", "ann", "3", "20")
        assert not any((folder / name).exists() for name in gone)
        assert {name: (folder / name).read_bytes() for name in kept} == kept
        assert linked.is_symlink()
    finally:
        alive.kill()
        alive.wait()


@AS_ROOT
def test_a_file_named_as_a_leftover_but_made_by_another_user_is_left_as_it_is(ok, db_path, evening):
    """docs/storage.md: the next write removes a killed writer's file and only it; one of that name made
    by someone else is left as it is, even when no process has its number."""
    planted = db_path.parent / f".{db_path.name}.tmp-{_dead_pid()}-00c0ffee"
    planted.write_bytes(b'{"bob": "his own"}')
    os.chown(planted, 65534, 65534)
    ok("hand", "ann", "3", "20")
    assert planted.read_bytes() == b'{"bob": "his own"}'


def _xattrs_supported(path) -> bool:
    try:
        os.setxattr(path, "user.ginscore-test", b"1")
        os.removexattr(path, "user.ginscore-test")
        return True
    except (OSError, AttributeError):
        return False


def test_extended_attributes_and_an_acl_survive_a_write(ok, db_path, evening):
    if not _xattrs_supported(db_path):
        pytest.skip("no extended attributes here")
    os.setxattr(db_path, "user.origin", b"the laptop")
    os.setxattr(db_path, "user.xdg.tags", b"games")
    try:  # what `setfacl -m u:nobody:rw` writes: the ACL, in its extended attribute
        os.setxattr(db_path, "system.posix_acl_access", _ACL_NOBODY_MAY_WRITE)
    except OSError:  # a file system without POSIX ACLs
        pass
    before = {name: os.getxattr(db_path, name) for name in os.listxattr(db_path)}
    mode = stat.S_IMODE(db_path.stat().st_mode)
    ok("hand", "ann", "3", "20")
    assert db_path.read_bytes() != evening
    assert {name: os.getxattr(db_path, name) for name in os.listxattr(db_path)} == before
    assert stat.S_IMODE(db_path.stat().st_mode) == mode


def _acl_entry(tag: int, perm: int, who: int = 0xFFFFFFFF) -> bytes:
    import struct

    return struct.pack("<HHI", tag, perm, who)


_ACL_NOBODY_MAY_WRITE = (b"\x02\x00\x00\x00" + _acl_entry(0x01, 6) + _acl_entry(0x02, 6, 65534) + _acl_entry(0x04, 4)
                         + _acl_entry(0x10, 6) + _acl_entry(0x20, 4))  # owner, user nobody, group, mask, other


def test_the_lock_file_is_made_with_the_databases_bits(ok, db_path, evening):
    os.chmod(db_path, 0o666)  # shared with everyone in the house
    lock = db_path.with_name(db_path.name + ".lock")
    lock.unlink()
    mask = os.umask(0o022)
    try:
        ok("hand", "ann", "3", "20")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(lock.stat().st_mode) == 0o666
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o666


@AS_ROOT
def test_a_database_shared_by_a_group_stays_the_groups_when_another_member_writes(cli):
    """Another member of the file's group writes it: it may not give the file away, but it keeps the group,
    on the file and on a lock it makes, so every member can still read and write (a club's shared folder)."""
    import shutil
    import tempfile

    group = 4242  # a group of the club: nobody is in it, and so is the file's owner
    folder = tempfile.mkdtemp(prefix="ginscore-group-", dir="/tmp")  # reachable by nobody, unlike tmp_path
    db = os.path.join(folder, "club.json")
    try:
        assert cli("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "Ann").exit_code == 0
        os.remove(db + ".lock")
        os.chown(folder, 4243, group)
        os.chmod(folder, 0o770)
        os.chown(db, 4243, group)  # another member's file
        os.chmod(db, 0o660)
        status, said = run_as_nobody("--db", db, "hand", "ann", "3", "20", groups=(group,))
        assert status == 0, said
        for path in (db, db + ".lock"):
            found = os.stat(path)
            assert (found.st_gid, stat.S_IMODE(found.st_mode)) == (group, 0o660), path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_lock_another_user_made_narrower_still_locks(ok, db_path, evening, monkeypatch):
    """Another user's 0644 lock: this user may only read it, and flock needs no more."""
    real_open, opened = os.open, []

    def as_another_user(path, flags, *args, **kwargs):
        if str(path).endswith(".lock") and flags & (os.O_RDWR | os.O_WRONLY) and not flags & os.O_EXCL:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        opened.append(path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", as_another_user)
    ok("hand", "ann", "3", "20")
    assert str(db_path) + ".lock" in opened


def test_every_lock_error_names_the_lock_file(cli, db_path, evening, monkeypatch):
    import ginscore.db.store

    lock = str(db_path) + ".lock"
    real_open = os.open

    def refused(path, flags, *args, **kwargs):
        if str(path) == lock:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return real_open(path, flags, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(os, "open", refused)
        result = cli("hand", "ann", "3", "20")
    assert result.exit_code == 1 and lock in result.stderr, result.stderr
    monkeypatch.setattr(ginscore.db.store, "LOCK_TIMEOUT", 0.1)
    import fcntl

    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = cli("hand", "ann", "3", "20")
    assert result.exit_code == 1 and "locked" in result.stderr and lock in result.stderr, result.stderr
    assert db_path.read_bytes() == evening


def test_a_first_write_that_fails_leaves_no_lock(cli, db_path, monkeypatch):
    def disk_full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write_all", disk_full)
    result = cli("new", "standard", "Ann", "Ben")
    assert result.exit_code == 1 and "cannot be written" in result.stderr, result.stderr
    assert sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache") == []


def test_a_lock_that_was_there_before_a_failed_first_write_stays(cli, db_path, monkeypatch):
    lock = db_path.with_name(db_path.name + ".lock")
    lock.touch()  # not made by this command: not its to remove
    monkeypatch.setattr(atomic, "_write_all", lambda fd, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    assert cli("new", "standard", "Ann", "Ben").exit_code == 1
    assert lock.exists()


def test_a_lock_removed_by_another_first_write_that_failed_is_taken_afresh(ok, db_path, monkeypatch):
    """Two first sessions started at once: the other command's write failed, and it removed the lock it made
    just as this one took it. This one locks the file at the lock's name now (made anew), not the one
    removed, which no later command would wait for, and starts its session."""
    import fcntl

    lock = db_path.with_name(db_path.name + ".lock")
    real, taken = fcntl.flock, []

    def removed_as_taken(handle, operation):
        real(handle, operation)
        if operation & fcntl.LOCK_EX:
            taken.append(os.fstat(handle).st_ino)
            if len(taken) == 1:
                lock.unlink()  # (the other command's, removing the lock its failed first write made)

    with monkeypatch.context() as patched:
        patched.setattr(fcntl, "flock", removed_as_taken)
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert len(taken) == 2 and lock.stat().st_ino == taken[1]
    assert ok("status", "--json").json()["session"] == "standard-1"

def test_a_file_system_without_locks_is_said_so_at_once(cli, db_path, evening, monkeypatch):
    """No locks there (ENOLCK: some network file systems): exit 1 naming the lock file, never a wait."""
    import fcntl

    tries = []

    def no_locks_here(handle, operation):
        tries.append(operation)
        if len(tries) > 50:  # (were it asked again and again, the test fails rather than waits forever)
            raise RuntimeError("the lock was tried again and again")
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    with monkeypatch.context() as patched:
        patched.setattr(fcntl, "flock", no_locks_here)
        result = cli("hand", "ann", "3", "20")
    assert result.exit_code == 1 and "cannot be locked" in result.stderr and str(db_path) + ".lock" in result.stderr
    assert len(tries) == 1 and db_path.read_bytes() == evening
