"""Paths trusted for nothing (docs/commands.md "Where the data lives", "Errors and exit codes").

Real files, symlinks, FIFOs, sockets, device nodes and chmod, never a mocked
file system. Every refused case asserts its exit status, exactly one line on
standard error, no traceback, and the database (the real file behind any
link) byte-identical; every committed write asserts the hand is there exactly
once. Tests run as root here, so permission bits are checked as st_mode, not
by failing to read. A FIFO is only ever used through a subprocess with a
timeout, so a read that blocks fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import pwd
import signal
import socket
import stat
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ginscore.cli import registry
from ginscore.db.sessions import Database
from ginscore.db.store import Store
from tests.conftest import Ran, run_cli, run_main

HAND = ("hand", "ann", "3", "20")


def _one_error_line(result, status: int) -> str:
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


class _Ran:
    def __init__(self, done: subprocess.CompletedProcess):
        self.exit_code, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr


def _python_m(*args, env: dict | None = None, cwd=None) -> _Ran:
    """The real program in its own process (`python -m ginscore`); a hang fails after 60 s."""
    done = subprocess.run([sys.executable, "-m", "ginscore", *map(str, args)], capture_output=True, text=True,
                          timeout=60, env=env, cwd=cwd)
    return _Ran(done)


class _Blocked(BaseException):
    """Raised into a command that waited too long (no ``except Exception`` of ginscore's catches it)."""


def _in_time(*args) -> Ran:
    """The real CLI in-process (``ginscore.cli.main``), as ``cli`` runs it; a read that would block
    (opening a FIFO nobody writes) fails the test after 20 s instead of hanging it."""

    def late(signum, frame):
        raise _Blocked(f"ginscore {' '.join(map(str, args))} waited 20 s")

    was = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        return run_cli(*map(str, args))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, was)


def _state(path) -> tuple:
    """Everything about a path that ginscore must leave alone: kind, inode, device, link target, bytes, listing."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("missing",)
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        extra = os.readlink(path)
    elif stat.S_ISREG(mode):
        extra = Path(path).read_bytes()
    elif stat.S_ISDIR(mode):
        extra = sorted(os.listdir(path))
    else:
        extra = st.st_rdev
    return stat.S_IFMT(mode), st.st_ino, extra


def _hands(path, session: str | None = None) -> list:
    return list(Store(path).reading().load(session).hands)


def _temps(folder) -> list:
    return sorted(p.name for p in Path(folder).glob(".ginscore.json.tmp-*"))


def _mknod_null(path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("cannot make a device node here")


def _bind_socket(path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.relpath(path))  # relative: a socket path is limited to ~100 bytes
    return sock


@pytest.fixture
def evening(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "2", "12")
    return db_path.read_bytes()


# --- 1. a symlinked database is followed ---------------------------------------------------------

def _link_shapes(tmp: Path) -> dict:
    real = tmp / "synced" / "ginscore.json"
    return {
        "absolute": [("db", str(real))],
        "relative": [("db", "synced/ginscore.json")],
        "chain-of-two": [("db", "hop"), ("hop", str(real))],
        "relative-chain-across-folders": [("db", "a/one"), ("a/one", "../b/two"), ("b/two", "../synced/ginscore.json")],
        "dangling-until-the-first-write": [("db", "synced/ginscore.json")],
        "link-to-a-link-in-the-same-folder": [("db", "synced/alias.json"), ("synced/alias.json", "ginscore.json")],
    }


LINK_SHAPES = list(_link_shapes(Path("/")))


@pytest.mark.parametrize("given", ["environment", "--db after the command"])
@pytest.mark.parametrize("shape", LINK_SHAPES)
def test_a_symlinked_database_is_followed_and_stays_a_link(cli, ok, tmp_path, monkeypatch, shape, given):
    monkeypatch.chdir(tmp_path)
    real = tmp_path / "synced" / "ginscore.json"
    for folder in ("synced", "a", "b"):
        (tmp_path / folder).mkdir()
    links = _link_shapes(tmp_path)[shape]
    for name, target in links:
        os.symlink(target, tmp_path / name)
    db = tmp_path / "db"
    monkeypatch.setenv("GINSCORE_DB", str(db))
    extra = ("--db", "db") if given != "environment" else ()
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", *extra)
    ok(*HAND, *extra)
    ok("hand", "ben", "0", "9", *extra)
    assert [os.readlink(tmp_path / name) for name, _ in links] == [target for _, target in links]
    assert real.is_file() and not real.is_symlink()
    assert [(h.knocker, h.knocker_deadwood) for h in _hands(real)] == [("Ann", 3), ("Ben", 0)]
    assert ok("status", "--json", *extra).json()["hands_played"] == 2
    assert (tmp_path / "synced" / "ginscore.json.lock").is_file()
    assert not (tmp_path / "db.lock").exists() and not _temps(tmp_path) and not _temps(real.parent)
    assert ok("where", *extra).stdout.strip().endswith("db")  # the path as given


def test_a_database_reached_through_a_linked_folder(ok, tmp_path, monkeypatch):
    (tmp_path / "synced").mkdir()
    (tmp_path / "folder-link").symlink_to("synced")
    monkeypatch.setenv("GINSCORE_DB", str(tmp_path / "folder-link" / "ginscore.json"))
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok(*HAND)
    assert (tmp_path / "folder-link").is_symlink()
    assert len(_hands(tmp_path / "synced" / "ginscore.json")) == 1


def test_a_schema_1_file_behind_a_link_is_migrated_with_its_copy_beside_the_real_file(ok, tmp_path, db_path):
    from .test_database_file import SCHEMA_1

    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    old = json.dumps(SCHEMA_1).encode()
    real.write_bytes(old)
    real.chmod(0o640)
    db_path.symlink_to(real)
    ok("hand", "ben", "3", "9")
    backup = real.with_name("ginscore.json.pre-3.bak") / "ginscore.json"
    assert backup.read_bytes() == old and stat.S_IMODE(backup.stat().st_mode) == 0o640
    assert db_path.is_symlink() and not (tmp_path / "ginscore.json.pre-3.bak").exists()
    assert len(_hands(real)) == 3


@pytest.mark.parametrize("planted", ["symlink", "dangling symlink", "a file", "a link inside the folder",
                                     "another file inside the folder"])
def test_a_planted_upgrade_copy_name_is_refused_not_followed(cli, tmp_path, db_path, planted):
    from .test_database_file import SCHEMA_1

    old = json.dumps(SCHEMA_1).encode()
    db_path.write_bytes(old)
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    backup = tmp_path / "ginscore.json.pre-3.bak"
    if planted == "a file":
        backup.write_bytes(b"not a folder")
    elif planted.endswith("inside the folder"):
        backup.mkdir()
        backup = backup / "ginscore.json"
        if planted.startswith("a link"):
            backup.symlink_to(victim)
        else:
            backup.write_bytes(b"another copy")
    else:
        backup.symlink_to(victim if planted == "symlink" else tmp_path / "nowhere")
    line = _one_error_line(cli(*HAND), 1)
    assert "needs an upgrade" in line and str(backup) in line
    assert db_path.read_bytes() == old and victim.read_bytes() == b"keep me"
    assert not (tmp_path / "nowhere").exists()


def test_a_link_into_a_folder_that_does_not_exist_creates_nothing(cli, tmp_path, db_path):
    db_path.symlink_to(tmp_path / "unmounted" / "ginscore.json")
    line = _one_error_line(cli("new", "standard", "Ann", "Ben"), 1)
    assert str(db_path) in line
    assert not (tmp_path / "unmounted").exists() and db_path.is_symlink()


@pytest.mark.parametrize("args", [["status"], list(HAND)])
def test_a_symlink_loop_is_unusable(cli, tmp_path, db_path, args):
    db_path.symlink_to(tmp_path / "other")
    (tmp_path / "other").symlink_to(db_path)
    line = _one_error_line(cli(*args), 1)
    assert str(db_path) in line
    assert os.readlink(db_path) == str(tmp_path / "other")


# --- 2. a path that is not a regular file is unusable --------------------------------------------

def _make_not_a_file(kind: str, path: Path) -> list:
    """Put ``kind`` at ``path``; return what must be kept open while it is used."""
    spare = path.with_name("spare")
    if kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("mine")
    elif kind == "device":
        _mknod_null(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        return [_bind_socket(path)]
    elif kind.startswith("link to a "):
        _make_not_a_file(kind.removeprefix("link to a "), spare)
        path.symlink_to(spare.name)
    return []


NOT_A_FILE = {"folder": "is a folder", "device": "is a device", "fifo": "is a FIFO", "socket": "is a socket",
              "link to a fifo": "is a FIFO", "link to a device": "is a device", "link to a folder": "is a folder"}
ON_NOT_A_FILE = [["status"], list(HAND), ["new", "standard", "Ann", "Ben"], ["export"], ["sessions"]]


@pytest.mark.parametrize("args", ON_NOT_A_FILE, ids=lambda a: a[0])
@pytest.mark.parametrize("kind", NOT_A_FILE)
def test_a_path_that_is_not_a_regular_file_is_unusable_and_left_alone(tmp_path, monkeypatch, kind, args):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "ginscore.json"
    keep = _make_not_a_file(kind, db)
    before = (_state(db), _state(tmp_path / "spare"))
    monkeypatch.setenv("GINSCORE_DB", "ginscore.json")
    result = _in_time(*args)
    line = _one_error_line(result, 1)
    assert NOT_A_FILE[kind] in line and "ginscore.json" in line
    assert (_state(db), _state(tmp_path / "spare")) == before
    assert not _temps(tmp_path) and not (tmp_path / "ginscore.json.lock").exists()
    for thing in keep:
        thing.close()


@pytest.mark.parametrize("args", [["status"], ["sessions"], ["log"]], ids=lambda a: a[0])
def test_dev_null_as_the_database_is_a_device(cli, args):
    before = _state("/dev/null")
    line = _one_error_line(cli("--db", "/dev/null", *args), 1)
    assert "/dev/null is a device" in line
    assert _state("/dev/null") == before


# --- 3. temporary files: exclusive, fresh names; leftovers only ours ----------------------------

def _plant(kind: str, path: Path, victim: Path) -> None:
    if kind == "folder":
        path.mkdir()
        (path / "inside").write_text("mine")
    elif kind == "symlink to a file":
        path.symlink_to(victim)
    elif kind == "dangling symlink":
        path.symlink_to(victim.with_name("created-by-ginscore"))
    elif kind == "fifo":
        os.mkfifo(path)


PLANTED = ["folder", "symlink to a file", "dangling symlink", "fifo"]


@pytest.mark.parametrize("kind", PLANTED)
def test_a_planted_thing_at_the_temporary_names_neither_blocks_nor_redirects(ok, tmp_path, db_path, monkeypatch,
                                                                              evening, kind):
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    tokens = [bytes([n]) * 8 for n in range(3)]
    planted = [tmp_path / f".ginscore.json.tmp-{os.getpid()}-{t.hex()}" for t in tokens]
    for path in planted:
        _plant(kind, path, victim)
    before = [_state(p) for p in planted]
    real_urandom = os.urandom
    queue = list(tokens)
    monkeypatch.setattr(os, "urandom", lambda n: queue.pop(0) if queue else real_urandom(n))
    ok(*HAND)  # the first three names are taken: a fourth, fresh one is used
    monkeypatch.undo()
    assert not queue and len(_hands(db_path)) == 2
    assert [_state(p) for p in planted] == before
    assert victim.read_bytes() == b"keep me" and not (tmp_path / "created-by-ginscore").exists()
    assert not db_path.is_symlink()


def test_when_no_fresh_temporary_name_can_be_made_nothing_is_written(cli, tmp_path, db_path, monkeypatch, evening):
    token = b"\x07" * 8
    (tmp_path / f".ginscore.json.tmp-{os.getpid()}-{token.hex()}").mkdir()
    monkeypatch.setattr(os, "urandom", lambda n: token)
    line = _one_error_line(cli(*HAND), 1)
    monkeypatch.undo()
    assert "cannot be written" in line and str(db_path) in line
    assert db_path.read_bytes() == evening


LEFTOVERS = {  # names beside the database that a killed writer, or anyone, could leave
    "ours": (".ginscore.json.tmp-41-deadbeef", "file"),
    "ours, long token": (".ginscore.json.tmp-41-00112233445566778899aabbccddeeff", "file"),
    "a symlink with our name": (".ginscore.json.tmp-42-abcdef", "symlink"),
    "a folder with our name": (".ginscore.json.tmp-43-abcdef", "folder"),
    "a fifo with our name": (".ginscore.json.tmp-44-abcdef", "fifo"),
    "not our pattern": (".ginscore.json.tmp-notours", "file"),
    "another database's": (".other.json.tmp-46-abcdef", "file"),
    "a part of the parted layout": ("ginscore.facts-0000-7.json", "file"),
    "an index of the parted layout": ("ginscore.index-7.json", "file"),
}


@pytest.mark.parametrize("case", LEFTOVERS)
def test_no_writer_removes_a_file_it_did_not_make_in_this_run(ok, tmp_path, db_path, evening, case):
    name, kind = LEFTOVERS[case]
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    leftover = tmp_path / name
    if kind == "file":
        leftover.write_text("half a write")
    elif kind == "symlink":
        leftover.symlink_to(victim)
    else:
        _plant(kind, leftover, victim)
    before = _state(leftover)
    ok("status")
    ok(*HAND)
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    assert _state(leftover) == before
    assert victim.read_bytes() == b"keep me" and len(_hands(db_path, "standard-1")) == 2


# --- 4. the lock file is never followed ---------------------------------------------------------

def _plant_lock(kind: str, lock: Path, tmp: Path) -> list:
    victim = tmp / "victim"
    victim.write_bytes(b"keep me")
    if kind == "dangling symlink":
        lock.symlink_to(tmp / "made-by-ginscore")
    elif kind == "symlink to a file":
        lock.symlink_to(victim)
    elif kind == "symlink to /dev/null":
        lock.symlink_to("/dev/null")
    elif kind == "relative dangling symlink":
        lock.symlink_to("made-by-ginscore")
    elif kind == "socket":
        return [_bind_socket(lock)]
    else:
        _make_not_a_file(kind, lock)
    return []


LOCKS = {"dangling symlink": "symbolic link", "relative dangling symlink": "symbolic link",
         "symlink to a file": "symbolic link", "symlink to /dev/null": "symbolic link",
         "folder": "is a folder", "fifo": "not a regular file", "device": "not a regular file", "socket": "lock"}


@pytest.mark.parametrize("args", [list(HAND), ["new", "standard", "Cy", "Di"], ["use", "standard-1"]],
                         ids=lambda a: a[0])
@pytest.mark.parametrize("kind", LOCKS)
def test_a_lock_file_that_is_not_a_plain_file_is_refused(cli, ok, tmp_path, db_path, monkeypatch, evening, kind, args):
    monkeypatch.chdir(tmp_path)
    lock = tmp_path / "ginscore.json.lock"
    lock.unlink()
    keep = _plant_lock(kind, lock, tmp_path)
    before = _state(lock), _state(tmp_path / "victim")
    line = _one_error_line(cli(*args), 1)
    assert LOCKS[kind] in line and str(db_path) in line
    assert db_path.read_bytes() == evening
    assert (_state(lock), _state(tmp_path / "victim")) == before
    assert not (tmp_path / "made-by-ginscore").exists() and not _temps(tmp_path)
    assert ok("status", "--json").json()["hands_played"] == 1  # readers take no lock
    for thing in keep:
        thing.close()


def test_a_dangling_lock_beside_the_real_file_of_a_linked_database_is_refused(cli, tmp_path, db_path):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    (real.parent / "ginscore.json.lock").symlink_to(tmp_path / "made-by-ginscore")
    line = _one_error_line(cli("new", "standard", "Ann", "Ben"), 1)
    assert "symbolic link" in line
    assert not real.exists() and not (tmp_path / "made-by-ginscore").exists()


# --- 5. permission bits and owner are kept -------------------------------------------------------

@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o660, 0o664, 0o604, 0o700, 0o755, 0o200])
def test_replacing_the_file_keeps_its_permission_bits(ok, db_path, evening, mode):
    db_path.chmod(mode)
    ok(*HAND)
    assert stat.S_IMODE(db_path.stat().st_mode) == mode
    assert len(_hands(db_path)) == 2


@pytest.mark.parametrize("mode", [0o400, 0o444, 0o440, 0o500, 0o555, 0o000])
@pytest.mark.parametrize("args", [list(HAND), ["new", "standard", "Cy", "Dee"], ["rename", "other"], ["undo", "--yes"]])
def test_a_read_only_database_is_read_and_never_written(cli, ok, db_path, evening, mode, args):
    """Like SQLite with a read-only file: reading works, a write exits 1 in one line and changes
    nothing, also for root (who could write it anyway)."""
    db_path.chmod(mode)
    folder = _state(db_path.parent)
    if mode & 0o444:
        assert ok("status", "--json").json()["hands_played"] == 1
    line = _one_error_line(cli(*args), 1)
    assert "read-only" in line and str(db_path) in line
    assert db_path.read_bytes() == evening and stat.S_IMODE(db_path.stat().st_mode) == mode
    assert _state(db_path.parent) == folder


@pytest.mark.parametrize("mode", [0o444, 0o555])
def test_a_read_only_database_answers_a_command_that_changes_nothing(ok, tmp_path, db_path, evening, mode):
    """A writing command with nothing to write (the current session made current, an export or a
    copy of the file that is here already) does what it does on any file, exit 0: read-only
    refuses a change, not a command."""
    exported = tmp_path / "standard-1.json"
    exported.write_text(ok("export", "-f", "json").stdout, encoding="utf-8")
    copy = tmp_path / "copy.json"
    copy.write_bytes(evening)
    db_path.chmod(mode)
    folder = _state(db_path.parent)
    assert "Now keeping score in 'standard-1'" in ok("use", "standard-1").stdout
    assert "Already here" in ok("import", str(exported)).stdout
    assert "Nothing was changed" in " ".join(ok("merge", str(copy)).stdout.split())
    assert db_path.read_bytes() == evening and _state(db_path.parent) == folder


@pytest.mark.parametrize("old", ["schema2.json", "schema3/club.json"])
def test_a_read_only_database_of_an_older_layout_answers_a_command_that_changes_nothing(cli, ok, tmp_path, old):
    """Read through its upgrade, a read-only file of 1.x or of the parted layout is no more changed
    by `use` of its current session than a file of today's; a change is still refused."""
    fixture = Path(__file__).parent / "fixtures" / old
    folder = tmp_path / "old"
    if old.startswith("schema3"):  # the main file and its parts
        shutil.copytree(fixture.parent, folder)
    else:
        folder.mkdir()
        shutil.copy(fixture, folder)
    db = folder / fixture.name
    db.chmod(0o444)
    current = ok("--db", str(db), "status", "--json").json()["session"]
    before = _state(folder)
    assert f"Now keeping score in '{current}'" in ok("--db", str(db), "use", current).stdout
    assert "read-only" in _one_error_line(cli("--db", str(db), "rename", "zzz"), 1)
    assert _state(folder) == before


def test_a_linked_database_keeps_the_bits_of_the_real_file(ok, tmp_path, db_path):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    real.chmod(0o600)
    ok(*HAND)
    assert stat.S_IMODE(real.stat().st_mode) == 0o600 and db_path.is_symlink()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_umask_default(ok, db_path, umask, mode):
    old = os.umask(umask)
    try:
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    finally:
        os.umask(old)
    assert stat.S_IMODE(db_path.stat().st_mode) == mode


def test_replacing_the_file_keeps_its_owner(ok, db_path, evening):
    os.chown(db_path, 1234, 5678)  # root may give a file away
    ok(*HAND)
    st = db_path.stat()
    assert (st.st_uid, st.st_gid) == (1234, 5678)


# --- 6. a file changed on disk between read and write is not overwritten ------------------------

def _facts_file(path: Path) -> Path:
    """The file that holds the session's hands: the database file itself."""
    return path


def _other_program(change: str, path: Path, tmp: Path) -> None:
    """What a sync client (or an editor) does to the file while ginscore holds it."""
    if change == "rewritten in place, same size":
        facts = _facts_file(path)
        raw = facts.read_bytes()
        with open(facts, "r+b") as handle:
            handle.write(raw.replace(b"knock|Ann|2|12", b"knock|Ann|3|12", 1))
        return
    raw = path.read_bytes()
    if change == "replaced by another file":
        facts = _facts_file(path)
        other = tmp / "other.json"
        other.write_bytes(facts.read_bytes().replace(b"knock|Ann|2|12", b"knock|Ann|7|12"))
        os.rename(other, facts)
    elif change == "appended to":
        with open(path, "ab") as handle:
            handle.write(b"\n")
    elif change == "emptied":
        path.write_bytes(b"")
    elif change == "deleted":
        path.unlink()
    elif change == "replaced by a link to another file":
        (tmp / "elsewhere.json").write_bytes(raw + b" ")
        path.unlink()
        path.symlink_to(tmp / "elsewhere.json")
    elif change == "replaced by a fifo":
        path.unlink()
        os.mkfifo(path)
    elif change == "same bytes, new file":
        (tmp / "same.json").write_bytes(raw)
        os.rename(tmp / "same.json", path)
    elif change == "touched":
        os.utime(path, ns=(1, 1))
    elif change == "made private":
        path.chmod(0o600)


CHANGED = ["rewritten in place, same size", "replaced by another file", "appended to", "emptied", "deleted",
           "replaced by a link to another file", "replaced by a fifo"]
HARMLESS = {"same bytes, new file": 0o644, "touched": 0o644, "made private": 0o600}


def _meanwhile(monkeypatch, method: str, change: str, path: Path, tmp: Path) -> None:
    real = getattr(Database, method)

    def changed_meanwhile(self, *args):
        _other_program(change, path, tmp)
        return real(self, *args)

    monkeypatch.setattr(Database, method, changed_meanwhile)


@pytest.mark.parametrize("command", ["hand", "new"])
@pytest.mark.parametrize("change", CHANGED)
def test_a_file_changed_on_disk_since_it_was_read_is_not_overwritten(cli, tmp_path, db_path, monkeypatch, evening,
                                                                        change, command):
    db_path.chmod(0o644)
    _meanwhile(monkeypatch, "save" if command == "hand" else "flush", change, db_path, tmp_path)  # after its reads
    args = HAND if command == "hand" else ("new", "standard", "Cy", "Di")
    left_by_the_other = []
    real_replace = os.replace

    def snapshot(src, dst, *rest):  # what the other program left, just before ginscore would replace it
        left_by_the_other.append(_state(dst))
        return real_replace(src, dst, *rest)

    monkeypatch.setattr("ginscore.db.atomic.os.replace", snapshot)
    result = cli(*args)
    monkeypatch.undo()
    line = _one_error_line(result, 1)
    assert ("changed on disk" in line or "FIFO" in line) and str(db_path) in line
    assert not left_by_the_other, "ginscore got as far as replacing the file"
    assert not _temps(tmp_path)
    if change in ("rewritten in place, same size", "replaced by another file"):  # the other program's hand kept
        assert [h.knocker_deadwood for h in _hands(db_path)] == [3 if change.startswith("rewritten") else 7]
        assert db_path.read_bytes() == evening.replace(b"knock|Ann|2|12", b"knock|Ann|3|12" if change.startswith(
            "rewritten") else b"knock|Ann|7|12", 1)  # exactly what the other program left
    if change == "appended to":
        assert db_path.read_bytes() != evening and json.loads(db_path.read_bytes())  # the other program's file
        assert len(_hands(db_path)) == 1


@pytest.mark.parametrize("change", HARMLESS)
def test_a_file_touched_but_not_changed_is_written(ok, tmp_path, db_path, monkeypatch, evening, change):
    db_path.chmod(0o644)
    _meanwhile(monkeypatch, "save", change, db_path, tmp_path)
    ok(*HAND)
    monkeypatch.undo()
    assert len(_hands(db_path)) == 2
    assert stat.S_IMODE(db_path.stat().st_mode) == HARMLESS[change]


# --- 7. export --output never replaces the database or its files ---------------------------------

def _export_targets(tmp: Path, db: Path) -> dict:
    """Ways to name the database or one of its files; each built when the case runs."""

    def hard(name):
        def make():
            os.link(tmp / name, tmp / "sub" / "hard")
            return tmp / "sub" / "hard"
        return make

    def link(name):
        def make():
            (tmp / "sub" / "link").symlink_to(tmp / name)
            return tmp / "sub" / "link"
        return make

    return {
        "the database": lambda: db,
        "the database through ..": lambda: tmp / "sub" / ".." / "ginscore.json",
        "the database, relative": lambda: Path("ginscore.json"),
        "the database, ./././": lambda: Path("./././ginscore.json"),
        "the database through a symlink": link("ginscore.json"),
        "the database through a chain of symlinks": lambda: (
            (tmp / "sub" / "l1").symlink_to("l2"), (tmp / "sub" / "l2").symlink_to("../ginscore.json"))
        and tmp / "sub" / "l1",
        "the database through a hard link": hard("ginscore.json"),
        "the lock": lambda: tmp / "ginscore.json.lock",
        "the lock through a hard link": hard("ginscore.json.lock"),
        "the lock through a symlink": link("ginscore.json.lock"),
        "the upgrade copy": lambda: tmp / "ginscore.json.pre-3.bak",
        "a file in the upgrade copy": lambda: (tmp / "ginscore.json.pre-3.bak").mkdir() or
        tmp / "ginscore.json.pre-3.bak" / "ginscore.json",
        "a temporary file": lambda: tmp / ".ginscore.json.tmp-1-abcdef",
        "a part of the parted layout": lambda: tmp / "ginscore.facts-0000-3.json",
        "a dangling symlink to a temporary name": lambda: (
            (tmp / "sub" / "dl").symlink_to(tmp / ".ginscore.json.tmp-9-abc")) or tmp / "sub" / "dl",
    }


EXPORT_TARGETS = list(_export_targets(Path("/"), Path("/")))


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("case", EXPORT_TARGETS)
def test_export_refuses_to_write_over_the_database_or_its_files(cli, tmp_path, db_path, monkeypatch, evening,
                                                                 case, fmt):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    target = _export_targets(tmp_path, db_path)[case]()
    folder = _state(tmp_path)
    lock = _state(tmp_path / "ginscore.json.lock")
    line = _one_error_line(cli("export", "-f", fmt, "--output", target), 2)
    assert "is the database or one of its own files" in line
    assert db_path.read_bytes() == evening
    assert (_state(tmp_path), _state(tmp_path / "ginscore.json.lock")) == (folder, lock)


@pytest.mark.parametrize("case", ["the real file", "the link", "the real file's lock", "a lock beside the link"])
def test_export_refuses_the_files_of_a_linked_database(cli, ok, tmp_path, db_path, case):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = real.read_bytes()
    target = {"the real file": real, "the link": db_path, "the real file's lock": real.with_name("ginscore.json.lock"),
              "a lock beside the link": tmp_path / "ginscore.json.lock"}[case]
    _one_error_line(cli("export", "--output", target), 2)
    assert real.read_bytes() == before and db_path.is_symlink()


@pytest.mark.parametrize("kind", ["folder", "device", "fifo", "socket", "link to a fifo", "link to a folder",
                                  "missing folder"])
def test_export_refuses_an_output_that_is_not_a_file(tmp_path, db_path, evening, kind):
    out = tmp_path / "out"
    keep = [] if kind == "missing folder" else _make_not_a_file(kind, out)
    if kind == "missing folder":
        out = tmp_path / "no-such-folder" / "out.csv"
    before = _state(out)
    result = _in_time("export", "--output", out)
    line = _one_error_line(result, 2)
    assert "out" in line
    assert _state(out) == before and db_path.read_bytes() == evening and not _temps(tmp_path)
    for thing in keep:
        thing.close()


@pytest.mark.parametrize("name", ["ginscore", "ginscore.json.bak", "other.json", "schema2.json", "club.json"])
def test_export_never_replaces_another_ginscore_database_beside_it(cli, ok, tmp_path, db_path, name):
    """Two databases in one folder (`g` and `g.json`, a backup copy): an export of one onto the
    other is refused (exit 2) and both stay as they were; an earlier export is still replaced."""
    other = tmp_path / name
    if name in ("schema2.json", "club.json"):  # the single file of 1.x, the parted layout's main file
        fixtures = Path(__file__).parent / "fixtures"
        other.write_bytes((fixtures / name if name == "schema2.json" else fixtures / "schema3" / name).read_bytes())
    else:
        ok("--db", str(other), "new", "standard", "Cy", "Di", "--dealer", "Cy")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = other.read_bytes()
    for fmt in ("csv", "json", "html"):
        line = _one_error_line(cli("export", "-f", fmt, "--output", other), 2)
        assert f"{name} is a ginscore database" in line and "choose another --output" in line
    assert other.read_bytes() == before
    export = tmp_path / "tonight.csv"
    for _ in range(2):
        ok("export", "--output", export)
    assert export.read_text(encoding="utf-8").startswith("hand,")


@pytest.mark.parametrize("damage", ["a byte order mark", "a NaN in one session", "a lone surrogate in a name"])
def test_export_never_replaces_a_database_that_ginscore_reads_though_edited(cli, ok, tmp_path, db_path, damage):
    """A database saved with a byte order mark, or with one session damaged by hand, is still a
    database every command reads (the others still work): an export never replaces it."""
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Di", "--dealer", "Cy")
    raw = other.read_bytes()
    other.write_bytes({"a byte order mark": b"\xef\xbb\xbf" + raw,
                       "a NaN in one session": raw.replace(b'"target":100', b'"target":NaN'),
                       "a lone surrogate in a name": raw.replace(b'"Cy"', b'"C\\ud800"')}[damage])
    before = other.read_bytes()
    assert before != raw, damage
    assert cli("--db", str(other), "sessions").exit_code in (0, 1)  # read as a database, not "not JSON"
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    line = _one_error_line(cli("export", "--output", other), 2)
    assert "is a ginscore database" in line
    assert other.read_bytes() == before


def test_export_never_replaces_a_file_of_an_older_parted_database_nor_one_it_cannot_read(cli, ok, tmp_path, evening):
    """The parted layout of 2.x kept a database in several files: none of them is replaced by an
    export, nor is a file that cannot be read (it may be a database nobody can check)."""
    folder = tmp_path / "old"
    shutil.copytree(Path(__file__).parent / "fixtures" / "schema3", folder)
    for part in sorted(folder.iterdir()):
        before = part.read_bytes()
        line = _one_error_line(cli("export", "--output", part), 2)
        assert "older ginscore database" in line or "is a ginscore database" in line, line
        assert part.read_bytes() == before
    if os.geteuid() != 0:  # (root reads a file of mode 000)
        locked = tmp_path / "locked.json"
        locked.write_text("{}")
        locked.chmod(0)
        assert "cannot read" in _one_error_line(cli("export", "--output", locked), 2)


def test_export_to_dev_null_is_refused(cli, evening):
    before = _state("/dev/null")
    assert "is a device" in _one_error_line(cli("export", "--output", "/dev/null"), 2)
    assert _state("/dev/null") == before


def test_export_replaces_an_existing_file_whole_and_keeps_its_bits(ok, tmp_path, evening):
    out = tmp_path / "out.csv"
    out.write_text("x" * 10_000)
    out.chmod(0o600)
    ok("export", "--output", out)
    text = out.read_text()
    assert text == ok("export").stdout and "x" not in text
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".out.csv.tmp-*"))


def test_export_through_a_symlink_writes_the_real_file_and_keeps_the_link(ok, tmp_path, evening):
    real = tmp_path / "backups" / "tonight.json"
    real.parent.mkdir()
    real.write_text("old")
    (tmp_path / "out.json").symlink_to("backups/tonight.json")
    ok("export", "-f", "json", "--output", tmp_path / "out.json")
    assert (tmp_path / "out.json").is_symlink()
    assert json.loads(real.read_text())["session"]["name"] == "standard-1"


def test_a_new_export_gets_the_umask_default(ok, tmp_path, evening):
    old = os.umask(0o027)
    try:
        ok("export", "--output", tmp_path / "new.csv")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640


# --- 8. an empty HOME, XDG_CONFIG_HOME or GINSCORE_DB is unset; --db after the command -----------

def _home_of_user() -> str:
    return pwd.getpwuid(os.getuid()).pw_dir


ENVIRONMENTS = {  # variables set (None: removed) -> the database `where` must print
    "empty GINSCORE_DB": ({"GINSCORE_DB": "", "XDG_CONFIG_HOME": None}, "{home}/.config/ginscore/ginscore.json"),
    "empty XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": ""}, "{home}/.config/ginscore/ginscore.json"),
    "relative XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": "conf"}, "{home}/.config/ginscore/ginscore.json"),
    "absolute XDG_CONFIG_HOME": ({"XDG_CONFIG_HOME": "{tmp}/xdg"}, "{tmp}/xdg/ginscore/ginscore.json"),
    "empty HOME": ({"HOME": "", "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
    "empty HOME and XDG_CONFIG_HOME": ({"HOME": "", "XDG_CONFIG_HOME": ""}, "{user}/.config/ginscore/ginscore.json"),
    "relative HOME": ({"HOME": "me", "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
    "HOME unset": ({"HOME": None, "XDG_CONFIG_HOME": None}, "{user}/.config/ginscore/ginscore.json"),
}


def _environment(tmp: Path, case: str) -> tuple[dict, str]:
    changes, expected = ENVIRONMENTS[case]
    env = dict(os.environ, HOME=str(tmp / "home"))
    env.pop("GINSCORE_DB")
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value.format(tmp=tmp)
    return env, expected.format(home=tmp / "home", tmp=tmp, user=_home_of_user().rstrip("/"))


@pytest.mark.parametrize("case", ENVIRONMENTS)
def test_an_empty_or_relative_home_never_means_the_current_folder(tmp_path, case):
    env, expected = _environment(tmp_path, case)
    result = _python_m("where", env=env, cwd=tmp_path)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == expected + "\n"
    assert not list(tmp_path.iterdir()) or not (tmp_path / "ginscore").exists()


@pytest.mark.parametrize("case", ["empty HOME and XDG_CONFIG_HOME", "empty XDG_CONFIG_HOME", "empty GINSCORE_DB"])
def test_the_same_in_process_and_the_environment_is_left_as_it_was(cli, tmp_path, monkeypatch, case):
    env, expected = _environment(tmp_path, case)
    for name in ("GINSCORE_DB", "HOME", "XDG_CONFIG_HOME"):
        if name in env:
            monkeypatch.setenv(name, env[name])
        else:
            monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    result = cli("where")
    assert result.exit_code == 0 and result.stdout == expected + "\n"
    assert dict(os.environ) == before


def test_no_home_at_all_is_refused_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("GINSCORE_DB", "XDG_CONFIG_HOME")}
    env["HOME"] = ""
    code = ("import pwd, runpy, sys; pwd.getpwuid = lambda uid: (_ for _ in ()).throw(KeyError(uid));"
            " sys.argv = ['ginscore', 'where']; runpy.run_module('ginscore', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                          cwd=tmp_path)
    line = _one_error_line(_Ran(done), 2)
    assert "home folder" in line and "--db" in line
    assert done.stdout == ""
    # `deadwood` needs no database, so it does not care where the home folder is
    code = code.replace("'where'", "'deadwood', 'AS', '2S', '3S', '7H', '7D', '7C', '9H', '10H', 'JH', '2D'")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env,
                          cwd=tmp_path).returncode == 0


# --- a leading ~ that no shell expanded: the home folder, never a folder named "~" ---------------

@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of its own, and a current folder that is not it (where a literal ~ would go)."""
    mine = tmp_path / "home"
    mine.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("HOME", str(mine))
    monkeypatch.chdir(here)
    return mine


@pytest.mark.parametrize("how", ["GINSCORE_DB=~/g.json", "--db=~/g.json", "--db ~/g.json (quoted)"])
def test_a_database_path_starting_with_a_tilde_is_in_the_home_folder(ok, home, monkeypatch, how):
    """`--db=~/g.json` reaches ginscore unexpanded (bash expands no ~ after `--db=`), and so does a
    GINSCORE_DB set in a file: it names ~/g.json, as a shell would read it, not ./~/g.json."""
    args = []
    if how.startswith("GINSCORE_DB"):
        monkeypatch.setenv("GINSCORE_DB", "~/g.json")
    else:
        monkeypatch.delenv("GINSCORE_DB")
        args = ["--db=~/g.json"] if how.startswith("--db=") else ["--db", "~/g.json"]
    assert ok(*args, "where").stdout == f"{home / 'g.json'}\n"
    ok(*args, "new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok(*args, "hand", "ann", "3", "20")
    assert (home / "g.json").is_file() and os.listdir(".") == []
    assert ok("--db", str(home / "g.json"), "status", "--json").json()["totals"] == {"Ann": 17, "Ben": 0}


def test_files_named_with_a_tilde_are_in_the_home_folder(ok, home, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "mine")
    ok("hand", "ann", "3", "20")
    ok("export", "-f", "json", "--output", "~/mine.json")
    assert json.loads((home / "mine.json").read_text(encoding="utf-8"))["session"]["name"] == "mine"
    assert "Already here" in ok("import", "~/mine.json").stdout
    (home / "copy.json").write_bytes(db_path.read_bytes())
    before = db_path.read_bytes()
    ok("merge", "~/copy.json")  # the same sessions: nothing to add
    assert db_path.read_bytes() == before and os.listdir(".") == []


@pytest.mark.parametrize("typed, inside", [("~//g.json", "g.json"), ("~///deep//g.json", "deep/g.json")])
def test_more_slashes_after_the_tilde_stay_in_the_home_folder(ok, home, typed, inside):
    """As in a shell, `~//g.json` is the home's g.json, never /g.json at the filesystem's root."""
    assert os.path.normpath(ok("--db", typed, "where").stdout.strip()) == str(home / inside)


def test_a_folder_named_tilde_here_is_shown_by_its_full_path(ok, home, tmp_path, monkeypatch):
    """`./~/g.json` (a folder named ~ in this folder) is what it says; shown as `~/g.json` it would
    read, and be passed on, as the home folder's."""
    here = Path.cwd()
    assert ok("--db", "./~/g.json", "where").stdout == f"{here / '~' / 'g.json'}\n"
    monkeypatch.setenv("GINSCORE_DB", ok("--db", "./~/g.json", "where").stdout.strip())
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert (here / "~" / "g.json").is_file() and not (home / "g.json").exists()


def test_a_refused_db_before_the_command_gives_way_to_one_after_it(ok, tmp_path):
    """A --db after the subcommand wins (docs/commands.md), even over one before it that is refused."""
    good = tmp_path / "good.json"
    for bad in ("~no-such-user-here/g.json", "games/", " "):
        assert ok("--db", bad, "where", "--db", str(good)).stdout == f"{good}\n"
        assert ok("--db", bad, "deadwood", "AS", "2S", "3S", "7H", "7D", "7C", "9H", "10H", "JH", "2D").exit_code == 0


@pytest.mark.parametrize("typed, says", [
    ("~no-such-user-here/g.json", "no user named 'no-such-user-here'"),
    ("~/g.json", "HOME is empty"),
])
def test_a_tilde_with_no_such_home_is_refused_and_makes_nothing(cli, refused, home, monkeypatch, typed, says):
    if says.startswith("HOME"):
        monkeypatch.setenv("HOME", "")
    for args in (["--db", typed, "new", "standard", "Ann", "Ben"], ["--db=" + typed, "where"]):
        line = refused(*args, says=says)
        assert typed in line and "full path" in line
    monkeypatch.setenv("GINSCORE_DB", typed)
    assert "GINSCORE_DB" in refused("new", "standard", "Ann", "Ben", says=says)
    for args in (["complete", "sessions"], ["--db", typed, "complete", "players"]):  # a TAB never shows an error
        ran = cli(*args)
        assert (ran.exit_code, ran.stdout, ran.stderr) == (0, "", "")
    assert os.listdir(".") == [] and os.listdir(home) == []


@pytest.mark.parametrize("args, says", [
    (["--db", "games/", "new", "standard", "Ann", "Ben"], "like games/ginscore.json"),
    (["--db=games/", "where"], "like games/ginscore.json"),
    (["export", "--output", "out/"], "'out/' ends in /"),
    (["import", "in/"], "'in/' ends in /"),
    (["merge", "other/"], "'other/' ends in /"),
])
def test_a_path_ending_in_a_slash_names_a_folder_and_is_refused(ok, refused, tmp_path, monkeypatch, args, says):
    """Python's paths drop a trailing slash: `--db games/` made a file named `games`."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    line = refused(*args, says=says)
    assert "names a folder" in line
    assert sorted(os.listdir(tmp_path)) == before
    monkeypatch.setenv("GINSCORE_DB", "games/")
    assert "GINSCORE_DB 'games/' ends in /" in refused("where")
    assert sorted(os.listdir(tmp_path)) == before


def test_a_cache_folder_starting_with_a_tilde_is_in_the_home_folder(ok, home, monkeypatch):
    monkeypatch.setenv("GINSCORE_CACHE", "~/cache")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    cached = ok("stats", "--json").json()
    assert list((home / "cache").iterdir()) and os.listdir(".") == []
    monkeypatch.setenv("HOME", "")  # no home: no cache, the same answers
    assert ok("stats", "--json").json() == cached


COMMANDS = list(registry.NAMES)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_db_after_its_name(ok, command):
    assert "--db PATH" in ok(command, "--help").stdout


DB_AFTER = [
    ["where", "--db", "{x}"],
    ["where", "--db={x}"],
    ["--db", "{y}", "where", "--db", "{x}"],  # after the command wins
    ["status", "--json", "--db", "{x}"],
    ["status", "--db", "{x}", "--json"],
    ["hand", "ann", "3", "20", "--db", "{x}"],
    ["log", "--db", "{x}", "--json"],
]


@pytest.mark.parametrize("how", ["ginscore.cli.main", "python -m ginscore"])
@pytest.mark.parametrize("args", DB_AFTER, ids=lambda a: " ".join(a))
def test_db_after_the_command_is_the_database_used(cli, tmp_path, db_path, how, args):
    x, y = tmp_path / "x.json", tmp_path / "y.json"
    assert cli("--db", x, "new", "standard", "Ann", "Ben", "--dealer", "Ann").exit_code == 0
    before = x.read_bytes()
    typed = [a.format(x=x, y=y) for a in args]
    result = cli(*typed) if how == "ginscore.cli.main" else _python_m(*typed, env=dict(os.environ, GINSCORE_DB=str(db_path)))
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    if args[0] == "hand":
        assert len(_hands(x)) == 1
    else:
        assert x.read_bytes() == before
    if "where" in args:
        assert result.stdout == f"{x}\n"
    if "--json" in args:
        assert json.loads(result.stdout)
    assert not db_path.exists() and not y.exists()


def _export_dying_before_rename(db: str, out: str) -> None:
    """Run `export --output` but die (as a SIGKILL would) where the finished file would be renamed."""
    sys.stdout = sys.stderr = open(os.devnull, "w")
    os.replace = lambda src, dst: os._exit(9)
    run_main(["--db", db, "export", "--output", out])
    os._exit(0)


def test_an_export_cut_short_leaves_the_old_output_whole(tmp_path, db_path, evening):
    import multiprocessing

    out = tmp_path / "out.csv"
    out.write_text("the export of last week\n")
    child = multiprocessing.get_context("fork").Process(target=_export_dying_before_rename,
                                                         args=(str(db_path), str(out)))
    child.start()
    child.join()
    assert child.exitcode == 9
    assert out.read_text() == "the export of last week\n"  # never opened for writing in place
    assert list(tmp_path.glob(".out.csv.tmp-*")) and db_path.read_bytes() == evening


@pytest.mark.parametrize("args", [["--db", "", "status"], ["status", "--db", ""], ["export", "-o", ""],
                                  ["import", ""], ["import", " "], ["merge", ""]])
def test_an_empty_file_name_is_refused_the_same_on_every_typer(ok, refused, args):
    """An empty name names no file: one line, exit 2, nothing written (typer 0.28 read it as the
    current folder, 0.29 calls the folder a directory; ginscore says it before either)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    refused(*args, says="an empty name names no file")


def test_ginscore_db_of_only_spaces_is_refused_as_db_of_spaces_is(cli, monkeypatch, tmp_path):
    """An empty GINSCORE_DB is unset (the app folder's file); one of spaces names no file, as
    `--db " "` does not: refused in one line, no file made anywhere."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GINSCORE_DB", "  ")
    for args in (["status"], ["new", "standard", "Ann", "Ben"]):
        line = _one_error_line(cli(*args), 2)
        assert "GINSCORE_DB is only spaces" in line
    assert list(tmp_path.iterdir()) == [] or sorted(p.name for p in tmp_path.iterdir()) == ["cache"]
