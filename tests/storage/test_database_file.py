"""The database file: unusable ones, links, devices, locks, permissions, temporary files."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ginscore.db.database import SCHEMA_VERSION
from ginscore.db.store import Store
from tests.support import (
    AS_ROOT,
    DAMAGED_SESSION,
    EVENING,
    HAND,
    UNUSABLE,
    bind_socket,
    folder_listing,
    hands_in,
    make_not_a_file,
    one_error_line,
    parted_copy,
    path_state,
    run_as_nobody,
    run_in_time,
    stored_sessions,
    temporary_files,
    terminal_output,
)


def test_names_with_separators_survive_the_file(ok):
    ok("new", "standard", "A|n;n%7C", "B%3B", "--dealer", "a|")
    ok("hand", "a|n", "4", "22")
    ok("hand", "b%", "2", "9")
    assert ok("status", "--json").json()["totals"] == {"A|n;n%7C": 18, "B%3B": 7}


COMMANDS = [["status"], ["sessions"], ["hand", "a", "1", "9"], ["log", "--json"], ["undo", "--yes"], ["export"],
            ["rematch", "--yes"], ["draw"], ["dealer"]]


WHOLE_FILE = [["new", "standard", "Ann", "Ben"], ["use", "x"]]


@pytest.mark.parametrize("case", [c for c in UNUSABLE if c not in DAMAGED_SESSION])
def test_unusable_file_refuses_even_a_new_session(cli, db_path, case):
    content, says = UNUSABLE[case]
    db_path.write_bytes(content)
    for args in WHOLE_FILE:
        result = cli(*args)
        assert result.exit_code == 1 and says in result.stderr and str(db_path) in result.stderr
        assert result.stderr.count("\n") == 1
    assert db_path.read_bytes() == content


@pytest.mark.parametrize("case", UNUSABLE)
def test_unusable_database_exit_1_names_file_and_is_untouched(cli, db_path, case):
    content, says = UNUSABLE[case]
    db_path.write_bytes(content)
    for args in COMMANDS:
        result = cli(*args)
        lines = result.stderr.splitlines()
        assert result.exit_code in (1, 2), (args, result.stderr)
        assert len(lines) == 1 and "Traceback" not in result.stderr
        if result.exit_code == 1:
            assert str(db_path) in lines[0]
        assert db_path.read_bytes() == content
    result = cli("status")
    assert result.exit_code == 1 and says in result.stderr


def test_database_path_is_a_folder(cli, db_path):
    db_path.mkdir()
    for args in (["status"], ["new", "standard", "Ann", "Ben"]):
        result = cli(*args)
        assert result.exit_code == 1 and "is a folder" in result.stderr and str(db_path) in result.stderr
    assert db_path.is_dir()


def test_a_file_where_the_path_needs_a_folder_is_said_and_nothing_is_made(cli, tmp_path):
    """`--db notes.txt/ginscore.json`, a file where the path needs a folder: a command that writes cannot
    reach it, one that reads cannot read it (exit 1, naming it, one line), and nothing is made."""
    (tmp_path / "notes.txt").write_text("milk\n")
    db = tmp_path / "notes.txt" / "ginscore.json"
    for args, says in ((["new", "standard", "Ann", "Ben"], "cannot be locked or reached: Not a directory"),
                       (["status"], "cannot be read: Not a directory")):
        result = cli("--db", str(db), *args)
        assert result.exit_code == 1 and result.stderr == f"Error: the database {db} {says}\n", result.stderr
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"] and (tmp_path / "notes.txt").read_text() == "milk\n"

def test_empty_file_is_taken_as_new(ok, db_path):
    db_path.write_bytes(b"")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert json.loads(db_path.read_text())["meta"]["1"]["schema_version"] == SCHEMA_VERSION


def test_file_keeps_facts_not_standings_and_schema_version(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22", "--upcard", "7h")
    ok("draw")
    data = json.loads(db_path.read_text())
    assert data["meta"]["1"]["schema_version"] == SCHEMA_VERSION
    assert data["meta"]["1"]["current"] == stored_sessions(db_path)["1"]["id"]  # the current session, by its id
    knock, draw = stored_sessions(db_path)["1"]["hands"].split(";")  # one string of rows (schema 2 on)
    assert knock.startswith("knock|Ann|4|22|7H|0|")
    assert knock.split("|")[6][:2] == "20" and draw.startswith("draw||") and draw.split("|")[2][:2] == "20"  # when
    assert "totals" not in json.dumps(stored_sessions(db_path))  # nothing derived is stored with the facts


def test_a_temporary_file_this_run_did_not_make_is_never_removed(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    leftover = db_path.parent / f".{db_path.name}.tmp-12345-deadbeef"
    leftover.write_text("half a write")
    ok("status")
    ok("hand", "ann", "4", "22")
    assert leftover.read_text() == "half a write"  # named like ours, but not made by this run: left alone
    assert ok("status", "--json").json()["totals"]["Ann"] == 18


def test_lock_held_too_long_exits_1_naming_the_file(cli, ok, db_path, monkeypatch):
    import ginscore.db.store

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = db_path.read_bytes()
    monkeypatch.setattr(ginscore.db.store, "LOCK_TIMEOUT", 0.2)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX);"
         " print('held', flush=True); time.sleep(30)", str(db_path) + ".lock"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        result = cli("hand", "ann", "4", "22")
        assert result.exit_code == 1 and "locked" in result.stderr and str(db_path) in result.stderr
        assert result.stderr.count("\n") == 1
        assert ok("status", "--json").json()["hands_played"] == 0  # readers are not blocked
    finally:
        holder.kill()
        holder.wait()
    assert db_path.read_bytes() == before
    ok("hand", "ann", "4", "22")


# `ginscore ARGS` whose merge says "merging" once it holds the lock and is adding their first session, then
# takes a second over it: long enough for another command to be typed meanwhile.
SLOW_MERGE = """
import sys, time
import ginscore.cli.commands.merge as merging
real = merging._add_theirs
def slow(*args, **kwargs):
    if not slow.told:
        slow.told = True
        print("merging", file=sys.stderr, flush=True)
        time.sleep(1)
    return real(*args, **kwargs)
slow.told = False
merging._add_theirs = slow
from ginscore.cli import main
sys.argv[0] = "ginscore"
main()
"""


@pytest.mark.parametrize("waits", [True, False], ids=["lands-after", "says-locked"])
def test_a_write_during_a_long_merge_lands_after_it_or_says_it_is_locked_and_the_merge_loses_nothing(
        cli, ok, db_path, tmp_path, monkeypatch, waits):
    """`new` typed while a merge adds another machine's sessions waits for the merge and is recorded after it,
    or, having waited too long, says the file is locked (exit 1, one line); every merged session is kept."""
    import ginscore.db.store

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    theirs = tmp_path / "laptop.json"
    for game in ("sat", "sun"):
        ok("--db", str(theirs), "new", "standard", "Ann", "Cy", "--dealer", "Cy", "--name", game)
    if not waits:
        monkeypatch.setattr(ginscore.db.store, "LOCK_TIMEOUT", 0.2)
    merging = subprocess.Popen([sys.executable, "-c", SLOW_MERGE, "merge", str(theirs)],
                               env={**os.environ, "GINSCORE_DB": str(db_path)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert merging.stderr.readline().strip() == "merging"
        late = cli("new", "standard", "Ann", "Dee", "--dealer", "Dee", "--name", "late")
    finally:
        _, err = merging.communicate(timeout=60)
    assert merging.returncode == 0, err
    names = Store(db_path).reading().names()
    if waits:
        assert late.exit_code == 0, late.stderr
        assert names == ["friday", "sat", "sun", "late"]
    else:
        assert late.exit_code == 1 and "locked" in late.stderr and late.stderr.count("\n") == 1
        assert names == ["friday", "sat", "sun"]


@pytest.mark.skipif(not hasattr(signal, "SIGTSTP"), reason="no Ctrl-Z here")
def test_ctrl_z_during_a_write_stops_it_only_once_the_lock_is_let_go(cli, ok, db_path, tmp_path, monkeypatch):
    """A merge put aside with Ctrl-Z while it held the lock kept every other ginscore waiting until `fg`:
    `new` typed meanwhile said the file was locked. The merge now finishes its write, then stops."""
    import ginscore.db.store

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    theirs = tmp_path / "laptop.json"
    ok("--db", str(theirs), "new", "standard", "Ann", "Cy", "--dealer", "Cy", "--name", "sat")
    monkeypatch.setattr(ginscore.db.store, "LOCK_TIMEOUT", 20)
    # in a process group of its own, as a shell starts a command: a Ctrl-Z stops it
    merging = subprocess.Popen([sys.executable, "-c", SLOW_MERGE, "merge", str(theirs)],
                               env={**os.environ, "GINSCORE_DB": str(db_path)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, process_group=0)
    try:
        assert merging.stderr.readline().strip() == "merging"
        merging.send_signal(signal.SIGTSTP)  # Ctrl-Z, while the merge holds the lock
        late = cli("new", "standard", "Ann", "Dee", "--dealer", "Dee", "--name", "late")
        assert late.exit_code == 0, late.stderr
        stopped = os.waitid(os.P_PID, merging.pid, os.WSTOPPED | os.WEXITED | os.WNOWAIT)
        assert stopped.si_code == os.CLD_STOPPED  # put aside, as the shell sees it, after its write
        assert Store(db_path).reading().names() == ["friday", "sat", "late"]
        merging.send_signal(signal.SIGCONT)  # `fg`
        _, err = merging.communicate(timeout=60)
    finally:
        if merging.poll() is None:
            merging.send_signal(signal.SIGCONT)
            merging.kill()
            merging.wait()
    assert merging.returncode == 0, err


# `hand` with the lock's wait cut to the seconds given first, so that a test can outlast it.
HAND_WAITING_BRIEFLY = """
import sys
import ginscore.db.store
ginscore.db.store.LOCK_TIMEOUT = float(sys.argv.pop(1))
sys.argv[0] = "ginscore"
from ginscore.cli import main
main()
"""


@pytest.mark.skipif(not hasattr(os, "openpty") or not hasattr(signal, "SIGTSTP") or not os.path.isdir("/proc/self/fd"),
                    reason="no terminals, no Ctrl-Z, or no /proc to see which files a process holds")
@pytest.mark.parametrize("longer", [False, True], ids=["done-before-fg", "put-aside-longer-than-the-wait"])
def test_ctrl_z_while_waiting_for_another_commands_lock_stops_at_once_and_fg_records(ok, db_path, longer):
    """A hand typed while another command held the lock waited for it, and Ctrl-Z went unanswered until the
    wait gave up; brought back with `fg`, it said the file was locked. It stops at once, holding nothing, and
    after `fg` records the hand; put aside longer than the wait for the lock, it waits again from `fg`."""
    import fcntl
    import time

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    lock = os.path.realpath(str(db_path) + ".lock")

    def waiting() -> bool:  # it has the lock file open: it is waiting for the lock
        with contextlib.suppress(OSError):  # (a file closed while looked at)
            return any(os.readlink(f"/proc/{hand.pid}/fd/{fd}") == lock for fd in os.listdir(f"/proc/{hand.pid}/fd"))
        return False

    leader, follower = os.openpty()
    with open(lock, "a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # another command, writing
        # in a process group of its own, as a shell starts a command: a Ctrl-Z stops it
        hand = subprocess.Popen([sys.executable, "-c", HAND_WAITING_BRIEFLY, "2" if longer else "20",
                                 "hand", "ann", "3", "20"], stdin=follower, stdout=follower, stderr=follower,
                                env={**os.environ, "GINSCORE_DB": str(db_path)}, process_group=0)
        os.close(follower)
        try:
            deadline = time.monotonic() + 30
            while not waiting() and time.monotonic() < deadline:
                time.sleep(0.01)
            hand.send_signal(signal.SIGTSTP)  # Ctrl-Z
            stopped = os.waitid(os.P_PID, hand.pid, os.WSTOPPED | os.WEXITED | os.WNOWAIT)
            assert stopped.si_code == os.CLD_STOPPED
            if longer:
                time.sleep(3)  # put aside longer than its wait for the lock
                hand.send_signal(signal.SIGCONT)  # `fg`, the other command still writing a moment
                time.sleep(0.5)
        except BaseException:
            hand.kill()
            hand.wait()
            os.close(leader)
            raise
    try:
        hand.send_signal(signal.SIGCONT)  # `fg`, the other command done
        assert hand.wait(timeout=60) == 0, terminal_output(leader)
    finally:
        if hand.poll() is None:
            hand.kill()
            hand.wait()
        os.close(leader)
    assert len(hands_in(db_path)) == 1


@pytest.mark.parametrize("args", [["status"], ["hand", "ann", "4", "22"]])
def test_no_permission_to_read_exit_1_names_file(cli, args):
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="ginscore-perm-", dir="/tmp")  # reachable by nobody, unlike tmp_path
    db = os.path.join(folder, "ginscore.json")
    try:
        assert cli("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "Ann").exit_code == 0
        with open(db, "rb") as handle:
            before = handle.read()
        os.chmod(folder, 0o777)
        os.chmod(db, 0)
        if os.geteuid() == 0:  # root reads anything: drop to nobody in a forked child
            status, stderr = run_as_nobody("--db", db, *args)
        else:
            result = cli("--db", db, *args)
            status, stderr = result.exit_code, result.stderr
        os.chmod(db, 0o644)
        assert status == 1 and stderr.count("\n") == 1, stderr
        assert db in stderr and "permission denied" in stderr.lower()
        with open(db, "rb") as handle:
            assert handle.read() == before
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@AS_ROOT
def test_a_new_database_in_a_folder_another_user_owns_is_said_and_nothing_is_made():
    """nobody starts a session at `--db FOLDER/games/ginscore.json`, in a folder of root's it may read but
    not write: the folder for it cannot be made, which is said (exit 1, naming the file), and nothing is."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="ginscore-theirs-", dir="/tmp")  # reachable by nobody, unlike tmp_path
    try:
        os.chmod(folder, 0o755)
        db = os.path.join(folder, "games", "ginscore.json")
        status, said = run_as_nobody("--db", db, "new", "standard", "Ann", "Ben")
        assert status == 1 and said == f"Error: the database {db} cannot be locked or reached: Permission denied\n"
        assert os.listdir(folder) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)

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
    assert [(h.knocker, h.knocker_deadwood) for h in hands_in(real)] == [("Ann", 3), ("Ben", 0)]
    assert ok("status", "--json", *extra).json()["hands_played"] == 2
    assert (tmp_path / "synced" / "ginscore.json.lock").is_file()
    assert not (tmp_path / "db.lock").exists() and not temporary_files(tmp_path) and not temporary_files(real.parent)
    assert ok("where", *extra).stdout.strip().endswith("db")  # the path as given


def test_a_database_reached_through_a_linked_folder(ok, tmp_path, monkeypatch):
    (tmp_path / "synced").mkdir()
    (tmp_path / "folder-link").symlink_to("synced")
    monkeypatch.setenv("GINSCORE_DB", str(tmp_path / "folder-link" / "ginscore.json"))
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok(*HAND)
    assert (tmp_path / "folder-link").is_symlink()
    assert len(hands_in(tmp_path / "synced" / "ginscore.json")) == 1


def test_a_link_into_a_folder_that_does_not_exist_creates_nothing(cli, tmp_path, db_path):
    db_path.symlink_to(tmp_path / "unmounted" / "ginscore.json")
    line = one_error_line(cli("new", "standard", "Ann", "Ben"), 1)
    assert str(db_path) in line
    assert not (tmp_path / "unmounted").exists() and db_path.is_symlink()


@pytest.mark.parametrize("args", [["status"], ["sessions"], ["sessions", "--json"], ["new", "standard", "Ann", "Ben"]])
def test_a_link_into_a_folder_not_there_is_never_read_as_no_sessions_yet(cli, tmp_path, db_path, args):
    """The database on a drive not mounted: `status` said there was no session yet (and advised `new`),
    `sessions` listed none, exit 0, as if the evenings were lost. Every command says the link leads into a
    folder that is not there, exit 1, and makes nothing."""
    db_path.symlink_to(tmp_path / "unmounted" / "ginscore.json")
    line = one_error_line(cli(*args), 1)
    assert f"{db_path} leads to {tmp_path / 'unmounted' / 'ginscore.json'}, whose folder is not there" in line
    assert not (tmp_path / "unmounted").exists() and db_path.is_symlink()


@pytest.mark.parametrize("where", ["the home folder", "--db"])
def test_folders_not_made_yet_below_a_link_are_made_by_the_first_new(ok, tmp_path, monkeypatch, where):
    """A home folder reached through a link (`/home` on another disk), with no .config/ginscore yet: the
    first `new` makes the folders there, as it does below a plain folder; only a link that leads nowhere
    is refused."""
    (tmp_path / "real").mkdir()
    (tmp_path / "home").symlink_to(tmp_path / "real")
    if where == "the home folder":
        monkeypatch.delenv("GINSCORE_DB")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):
            monkeypatch.delenv(variable, raising=False)
        ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
        assert list((tmp_path / "real").rglob("*.json"))
    else:
        ok("--db", str(tmp_path / "home" / "scores" / "g.json"), "new", "standard", "Ann", "Ben", "--dealer", "ann")
        assert (tmp_path / "real" / "scores" / "g.json").is_file()


@pytest.mark.parametrize("args", [["status"], list(HAND)])
def test_a_symlink_loop_is_unusable(cli, tmp_path, db_path, args):
    db_path.symlink_to(tmp_path / "other")
    (tmp_path / "other").symlink_to(db_path)
    line = one_error_line(cli(*args), 1)
    assert str(db_path) in line
    assert os.readlink(db_path) == str(tmp_path / "other")


NOT_A_FILE = {"folder": "is a folder", "device": "is a device", "fifo": "is a FIFO", "socket": "is a socket",
              "link to a fifo": "is a FIFO", "link to a device": "is a device", "link to a folder": "is a folder"}


ON_NOT_A_FILE = [["status"], list(HAND), ["new", "standard", "Ann", "Ben"], ["export"], ["sessions"]]


@pytest.mark.parametrize("args", ON_NOT_A_FILE, ids=lambda a: a[0])
@pytest.mark.parametrize("kind", NOT_A_FILE)
def test_a_path_that_is_not_a_regular_file_is_unusable_and_left_alone(tmp_path, monkeypatch, kind, args):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "ginscore.json"
    keep = make_not_a_file(kind, db)
    before = (path_state(db), path_state(tmp_path / "spare"))
    monkeypatch.setenv("GINSCORE_DB", "ginscore.json")
    result = run_in_time(*args)
    line = one_error_line(result, 1)
    assert NOT_A_FILE[kind] in line and "ginscore.json" in line
    assert (path_state(db), path_state(tmp_path / "spare")) == before
    assert not temporary_files(tmp_path) and not (tmp_path / "ginscore.json.lock").exists()
    for thing in keep:
        thing.close()


@pytest.mark.parametrize("args", [["status"], ["sessions"], ["log"]], ids=lambda a: a[0])
def test_dev_null_as_the_database_is_a_device(cli, args):
    before = path_state("/dev/null")
    line = one_error_line(cli("--db", "/dev/null", *args), 1)
    assert "/dev/null is a device" in line
    assert path_state("/dev/null") == before


@pytest.mark.parametrize("args", [["sessions"], ["status"], ["new", "standard", "Ann", "Ben", "--dealer", "ann"]],
                         ids=lambda a: a[0])
def test_a_pipe_or_a_deleted_file_given_as_dev_fd_is_named_not_read_as_no_sessions(cli, ok, tmp_path, args):
    """`--db <(cat tonight.json)`: the shell gives /dev/fd/63, a pipe. `sessions` said "No sessions yet"
    (exit 0) of a file full of them, and `new` failed making a lock beside a name that is no file."""
    ok("--db", tmp_path / "tonight.json", "new", "standard", "Ann", "Ben", "--dealer", "ann")
    read_end, write_end = os.pipe()
    os.write(write_end, (tmp_path / "tonight.json").read_bytes())
    os.close(write_end)
    deleted = os.open(tmp_path / "tonight.json", os.O_RDONLY)
    os.unlink(tmp_path / "tonight.json")
    try:
        line = one_error_line(cli("--db", f"/dev/fd/{read_end}", *args), 1)
        assert f"the database /dev/fd/{read_end} is a pipe (like <(...)), not a database file" in line
        line = one_error_line(cli("--db", f"/dev/fd/{deleted}", *args), 1)
        assert "is an open file with no name (a deleted one?), not a database file" in line
        line = one_error_line(cli("merge", f"/dev/fd/{read_end}"), 2)
        assert "cannot be merged: it is a pipe (like <(...)), not a database file; nothing was merged" in line
        # a file named as the deleted one's link reads ("NAME (deleted)") is another file: never written for it
        (tmp_path / "tonight.json (deleted)").write_text("{}")
        line = one_error_line(cli("--db", f"/dev/fd/{deleted}", *args), 1)
        assert "is an open file with no name (a deleted one?)" in line
        assert (tmp_path / "tonight.json (deleted)").read_text() == "{}"
    finally:
        os.close(read_end)
        os.close(deleted)


@pytest.mark.parametrize("given", ["the file", "a link to it"])
def test_a_file_a_sync_client_replaces_between_every_look_is_never_refused(ok, tmp_path, db_path, monkeypatch, given):
    """A sync client replacing the file over and over: ginscore's look at the path given and its look at the file
    it leads to saw two files three times running, and `status` called an ordinary file "an open file with no
    name (a deleted one?)". A look a swap came between is taken again; a path that never holds still is a name."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    path = db_path if given == "the file" else tmp_path / "link.json"
    if path != db_path:
        path.symlink_to(db_path)
    content, real_stat, kept = db_path.read_bytes(), os.stat, []

    def replaced_first(where, *args, **kwargs):
        if os.fspath(where) == str(db_path):  # the client's copy lands just before each look at the file
            kept.append(tmp_path / f"kept-{len(kept)}")
            os.link(db_path, kept[-1])  # (the file replaced lives on: its inode number is never the next one's)
            (tmp_path / "incoming").write_bytes(content)
            os.replace(tmp_path / "incoming", db_path)
        return real_stat(where, *args, **kwargs)

    monkeypatch.setattr(os, "stat", replaced_first)
    shown = ok("--db", path, "status").stdout
    monkeypatch.undo()
    assert "Ann deals next" in shown


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
    before = [path_state(p) for p in planted]
    real_urandom = os.urandom
    queue = list(tokens)
    monkeypatch.setattr(os, "urandom", lambda n: queue.pop(0) if queue else real_urandom(n))
    ok(*HAND)  # the first three names are taken: a fourth, fresh one is used
    monkeypatch.undo()
    assert not queue and len(hands_in(db_path)) == 2
    assert [path_state(p) for p in planted] == before
    assert victim.read_bytes() == b"keep me" and not (tmp_path / "created-by-ginscore").exists()
    assert not db_path.is_symlink()


def test_when_no_fresh_temporary_name_can_be_made_nothing_is_written(cli, tmp_path, db_path, monkeypatch, evening):
    token = b"\x07" * 8
    (tmp_path / f".ginscore.json.tmp-{os.getpid()}-{token.hex()}").mkdir()
    monkeypatch.setattr(os, "urandom", lambda n: token)
    line = one_error_line(cli(*HAND), 1)
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
    # a write begun, named for a number no process can have: unsure, taken as a process still running
    "ours, of a number past any process": (".ginscore.json.tmp-99999999999999999999-deadbeef", "begun"),
    "a part of the parted layout": ("ginscore.facts-0000-7.json", "file"),
    "an index of the parted layout": ("ginscore.index-7.json", "file"),
}


@pytest.mark.parametrize("case", LEFTOVERS)
def test_no_writer_removes_a_file_it_did_not_make_in_this_run(ok, tmp_path, db_path, evening, case):
    name, kind = LEFTOVERS[case]
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    leftover = tmp_path / name
    if kind in ("file", "begun"):
        leftover.write_text("half a write" if kind == "file" else '{"meta": {"1": {')
    elif kind == "symlink":
        leftover.symlink_to(victim)
    else:
        _plant(kind, leftover, victim)
    before = path_state(leftover)
    ok("status")
    ok(*HAND)
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    assert path_state(leftover) == before
    assert victim.read_bytes() == b"keep me" and len(hands_in(db_path, "standard-1")) == 2


@AS_ROOT
@pytest.mark.parametrize("case", ["a folder others may write but not list", "a leftover they may not read"])
def test_another_user_who_cannot_look_at_whats_beside_the_file_still_records(cli, case):
    """nobody records in a file of their own, in a folder of root's they may write: where they may not list
    the folder, or a write of root's was left there half done and unreadable to them, the hand is recorded
    all the same (exit 0, nothing said), and root's leftover is left as it is."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="ginscore-shared-", dir="/tmp")  # reachable by nobody, unlike tmp_path
    db = os.path.join(folder, "ginscore.json")
    leftover = os.path.join(folder, ".ginscore.json.tmp-4194305-deadbeef")  # past any process number Linux gives
    try:
        for args in (["new", "standard", "Ann", "Ben", "--dealer", "Ann"], HAND):
            assert cli("--db", db, *args).exit_code == 0
        with open(leftover, "w") as half:
            half.write('{"meta": {"1": {')
        os.chmod(leftover, 0o600)
        os.chown(db, 65534, 65534)
        os.chmod(folder, 0o733 if case.startswith("a folder") else 0o777)
        assert run_as_nobody("--db", db, "hand", "ben", "0", "9") == (0, "")
        with open(leftover) as half:
            assert half.read() == '{"meta": {"1": {'
        assert len(hands_in(Path(db))) == 2
    finally:
        shutil.rmtree(folder, ignore_errors=True)

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
        return [bind_socket(lock)]
    else:
        make_not_a_file(kind, lock)
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
    before = path_state(lock), path_state(tmp_path / "victim")
    line = one_error_line(cli(*args), 1)
    assert LOCKS[kind] in line and str(db_path) in line
    assert db_path.read_bytes() == evening
    assert (path_state(lock), path_state(tmp_path / "victim")) == before
    assert not (tmp_path / "made-by-ginscore").exists() and not temporary_files(tmp_path)
    assert ok("status", "--json").json()["hands_played"] == 1  # readers take no lock
    for thing in keep:
        thing.close()


def test_a_dangling_lock_beside_the_real_file_of_a_linked_database_is_refused(cli, tmp_path, db_path):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    (real.parent / "ginscore.json.lock").symlink_to(tmp_path / "made-by-ginscore")
    line = one_error_line(cli("new", "standard", "Ann", "Ben"), 1)
    assert "symbolic link" in line
    assert not real.exists() and not (tmp_path / "made-by-ginscore").exists()


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o660, 0o664, 0o604, 0o700, 0o755, 0o200])
def test_replacing_the_file_keeps_its_permission_bits(ok, db_path, evening, mode):
    db_path.chmod(mode)
    ok(*HAND)
    assert stat.S_IMODE(db_path.stat().st_mode) == mode
    assert len(hands_in(db_path)) == 2


@pytest.mark.parametrize("mode", [0o400, 0o444, 0o440, 0o500, 0o555, 0o000])
@pytest.mark.parametrize("args", [list(HAND), ["new", "standard", "Cy", "Dee"], ["rename", "other"], ["undo", "--yes"]])
def test_a_read_only_database_is_read_and_never_written(cli, ok, db_path, evening, mode, args):
    """Like SQLite with a read-only file: reading works, a write exits 1 in one line and changes
    nothing, also for root (who could write it anyway)."""
    db_path.chmod(mode)
    folder = path_state(db_path.parent)
    if mode & 0o444:
        assert ok("status", "--json").json()["hands_played"] == 1
    line = one_error_line(cli(*args), 1)
    assert "read-only" in line and str(db_path) in line
    assert db_path.read_bytes() == evening and stat.S_IMODE(db_path.stat().st_mode) == mode
    assert path_state(db_path.parent) == folder


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
    folder = path_state(db_path.parent)
    assert "Now keeping score in 'standard-1'" in ok("use", "standard-1").stdout
    assert "Already here" in ok("import", str(exported)).stdout
    assert "Nothing was changed" in " ".join(ok("merge", str(copy)).stdout.split())
    assert db_path.read_bytes() == evening and path_state(db_path.parent) == folder


def test_a_linked_database_keeps_the_bits_of_the_real_file(ok, tmp_path, db_path):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    real.chmod(0o600)
    ok(*HAND)
    assert stat.S_IMODE(real.stat().st_mode) == 0o600 and db_path.is_symlink()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664),
                                         (0o777, 0o600), (0o477, 0o600)])  # (never a file its owner cannot read)
def test_a_new_file_gets_the_umask_default(ok, db_path, umask, mode):
    old = os.umask(umask)
    try:
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    finally:
        os.umask(old)
    assert stat.S_IMODE(db_path.stat().st_mode) == mode


@pytest.mark.parametrize("umask", [0o777, 0o277, 0o177])
def test_folders_a_new_database_needs_are_made_ones_its_owner_can_use(ok, tmp_path, monkeypatch, umask):
    """The first `new` under such a umask made ~/.config (and the folders below) mode 000, 500 or 600: it
    failed on its lock file, and the folder stayed unusable, to other programs too, after the umask was
    set back. Everyone else's bits still follow the umask."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GINSCORE_DB", raising=False)
    (tmp_path / "home").mkdir()
    old = os.umask(umask)
    try:
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
        ok("--db", tmp_path / "sub" / "deeper" / "a.json", "new", "standard", "Ann", "Ben", "--dealer", "Ann")
    finally:
        os.umask(old)
    made = [tmp_path / "home" / ".config", tmp_path / "home" / ".config" / "ginscore", tmp_path / "sub",
            tmp_path / "sub" / "deeper"]
    assert [stat.S_IMODE(folder.stat().st_mode) for folder in made] == [0o700] * 4


def test_replacing_the_file_keeps_its_owner(ok, db_path, evening):
    os.chown(db_path, 1234, 5678)  # root may give a file away
    ok(*HAND)
    st = db_path.stat()
    assert (st.st_uid, st.st_gid) == (1234, 5678)


def test_no_session_yet_is_refused_without_creating_a_file(refused, db_path):
    """Nor a lock file: a command with nothing to write takes no lock where there is no database."""
    for args in (["status"], ["hand", "ann", "1", "2"], ["draw"], ["undo", "--yes"], ["log"], ["dealer"],
                 ["export"], ["rematch", "--yes"], ["use", "x"], ["edit", "1", "--draw"], ["house", "--target", "200"],
                 ["rename", "friday"], ["delete", "--yes"], ["restore", "x"]):
        refused(*args)
    assert not db_path.exists() and not db_path.with_name(db_path.name + ".lock").exists()


def test_a_mistyped_database_folder_is_not_made(cli, tmp_path):
    """``--db typo/g.json hand ...`` on a folder that is not there: refused, and nothing is made
    (it used to make the folder and a lock file in it)."""
    for args in (["hand", "ann", "1", "30"], ["use", "friday"], ["draw"], ["undo", "--yes"]):
        result = cli("--db", str(tmp_path / "typo" / "g.json"), *args)
        assert result.exit_code == 2 and "no session" in result.stderr, (args, result.stderr)
    assert not (tmp_path / "typo").exists()
    assert cli("--db", str(tmp_path / "typo" / "g.json"), "new", "standard", "Ann", "Ben").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "typo").iterdir()) == ["g.json", "g.json.lock"]


def test_a_database_made_elsewhere_while_a_first_session_starts_is_not_overwritten(cli, db_path, monkeypatch):
    """A command that found no database writes one only if there is still none when it holds the lock:
    another program (a sync client, a second ginscore) that made one meanwhile keeps it."""
    import ginscore.db.store

    theirs = b'{"meta":{},"sessions":{}}'
    real_lock = ginscore.db.store._lock

    def made_meanwhile(held, shown, real):
        db_path.write_bytes(theirs)
        real_lock(held, shown, real)

    monkeypatch.setattr(ginscore.db.store, "_lock", made_meanwhile)
    result = cli("new", "standard", "Ann", "Ben")
    assert result.exit_code == 1 and "created by another" in result.stderr and "nothing was written" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert db_path.read_bytes() == theirs


def test_the_folder_holds_exactly_the_database_and_its_lock_after_every_command(ok, db_path):
    for args in EVENING:
        ok(*args)
        assert folder_listing(db_path) == ["ginscore.json", "ginscore.json.lock"], args
    assert len(stored_sessions(db_path)) == 4


def test_tinydb_opens_the_file_as_a_persons_own_script_would(ok, db_path):
    for args in EVENING[:14]:
        ok(*args)
    script = (
        "import sys\n"
        "from tinydb import TinyDB\n"
        "db = TinyDB(sys.argv[1], access_mode='r', encoding='utf-8')\n"
        "for session in db.table('sessions').all():\n"
        "    print(session['id'], session['name'], session['variant'], len(session['hands'].split(';')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(db_path)], capture_output=True, text=True, check=True)
    names = [line.split()[1] for line in out.stdout.splitlines()]
    assert names == ["friday", "hollywood-1", "hollywood-2", "three-1"]
    assert all(line.startswith("s-") for line in out.stdout.splitlines())


@pytest.mark.parametrize("first", ["g", "g.json", "g.JSON", "g.json.bak"])
def test_two_databases_in_one_folder_never_touch_each_others_files(ok, tmp_path, first):
    folder = tmp_path / "shared"
    folder.mkdir()
    names = ["g", "g.json", "g.JSON", "g.json.bak"]
    for name in [first] + [n for n in names if n != first]:
        ok("--db", str(folder / name), "new", "standard", name.replace(".", "x"), "Ben", "--dealer", "Ben")
    for name in names:
        before = {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in (name, name + ".lock")}
        ok("--db", str(folder / name), "hand", "ben", "3", "20")
        ok("--db", str(folder / name), "new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
        assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in (name, name + ".lock")} == before
    for name in names:
        listed = ok("--db", str(folder / name), "sessions", "--json").json()
        assert listed[0]["players"] == [name.replace(".", "x"), "Ben"] and len(listed) == 2
    assert sorted(p.name for p in folder.iterdir()) == sorted(names + [n + ".lock" for n in names])


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_a_missing_or_empty_database_touches_nothing_beside_it(cli, ok, tmp_path, state):
    """A sync client replacing the file leaves it missing or empty for a moment: it is read as
    what it is (no sessions), and nothing beside it is touched (the old engine deleted its parts)."""
    club = parted_copy(tmp_path)
    beside = {p.name: p.read_bytes() for p in club.parent.iterdir() if p != club}
    if state == "missing":
        club.unlink()
    else:
        club.write_bytes(b"")
    result = cli("--db", str(club), "use", "Friday")
    assert result.exit_code == 2 and "no session" in result.stderr
    result = cli("--db", str(club), "hand", "ann", "1", "30")
    assert result.exit_code == 2
    assert {p.name: p.read_bytes() for p in club.parent.iterdir() if p != club and p.name != "club.json.lock"} == beside


def test_a_table_another_program_added_with_tinydb_is_named_and_the_file_left_as_it_is(ok, cli, db_path):
    """The file is open to any program through TinyDB; one that adds a table of its own is told which
    table stands in the way (exit 1, the file byte for byte as it was), not "not a ginscore database"."""
    from tinydb import TinyDB

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    with TinyDB(db_path, encoding="utf-8") as other:
        other.table("venues").insert({"name": "Ann's kitchen"})
    before = db_path.read_bytes()
    for args in (["status"], ["hand", "ann", "4", "22"]):
        result = cli(*args)
        assert result.exit_code == 1 and str(db_path) in result.stderr and result.stderr.count("\n") == 1
        assert "holds a table 'venues' beside ginscore's own" in result.stderr
        assert "keep that table in a file of its own" in result.stderr
    assert db_path.read_bytes() == before


def test_the_name_of_a_table_not_ginscores_reaches_the_terminal_visibly_and_short(cli, db_path):
    db_path.write_text(json.dumps({"meta": {"1": {"schema_version": 5, "current": None}}, "sessions": {},
                                   "\x1b[2J" + "x" * 5000: {}}))
    result = cli("status")
    assert result.exit_code == 1 and "holds a table '\\x1b[2J" in result.stderr and "\x1b" not in result.stderr
    assert len(result.stderr) < 400
