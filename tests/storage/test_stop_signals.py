"""SIGTERM and SIGHUP during a write are held like a Ctrl-C (docs/commands.md, "Errors and exit codes").

A real signal, sent by the ginscore process to itself at a chosen moment of a `hand`: before the
change it ends the process as it always does (143 or 129 in a shell, nothing written); once the
change is written the command exits 0, so a script that sees 143 and tries again doubles nothing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from ginscore.db.store import Store
from tests.support import terminal_output

ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}

# The process sends itself the signal (or the signals, "SIGTSTP,SIGINT") right after a chosen call returns
# ("module.name"); with a leading "fail:" that call then fails as a full disk would.
SEND = """
import errno, importlib, os, signal, sys
numbers = [getattr(signal, name) for name in sys.argv.pop(1).split(",")]
where = sys.argv.pop(1)
fail = where.startswith("fail:")
module, name = where.removeprefix("fail:").rsplit(".", 1)
module = importlib.import_module(module)
real = getattr(module, name)
def sending(*args, **kwargs):
    out = real(*args, **kwargs)
    for number in numbers:
        os.kill(os.getpid(), number)
    if fail:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return out
setattr(module, name, sending)
from ginscore.cli import main
sys.argv[0] = "ginscore"
main()
"""


def _hands(db) -> int:
    return len(Store(db).reading().load(None).hands)


@pytest.fixture
def table(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    return db_path


def _send(db, name: str, where: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SEND, name, where, "hand", "ann", "3", "20"],
                          env={**ENV, "GINSCORE_DB": str(db)}, capture_output=True, timeout=60)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("where, written", [
    ("fcntl.flock", False),  # while taking the lock: before the change
    ("os.fsync", True),  # while the new file is made: held until it is in place
    ("ginscore.db.atomic.exchange", True),  # the instant the file is swapped in
    ("ginscore.db.atomic.fsync_folder", True),  # just after
    ("ginscore.present.screens.show_hand", True),  # while the recorded hand is shown
])
def test_a_stop_signal_ends_before_the_change_or_exits_0_after_it(table, name, where, written):
    before = table.read_bytes()
    done = _send(table, name, where)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    if written:
        assert done.returncode == 0, (done.returncode, err)
        assert _hands(table) == 1
    else:
        assert done.returncode == -getattr(signal, name), (done.returncode, err)  # 143 / 129 in a shell
        assert table.read_bytes() == before


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_held_through_a_write_that_failed_ends_the_process_as_it_would_have(table, name):
    before = table.read_bytes()
    done = _send(table, name, "fail:os.fsync")
    assert done.returncode == -getattr(signal, name), done.stderr
    assert table.read_bytes() == before and _hands(table) == 0


def test_a_hangup_that_nohup_ignores_stays_ignored(table):
    done = subprocess.run([sys.executable, "-c", SEND, "SIGHUP", "ginscore.db.atomic.exchange", "hand", "ann", "3", "20"],
                          env={**ENV, "GINSCORE_DB": str(table)}, capture_output=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    assert done.returncode == 0 and done.stderr == b"" and _hands(table) == 1


@pytest.mark.skipif(not hasattr(signal, "SIGTSTP"), reason="no Ctrl-Z")
def test_a_ctrl_z_that_the_shell_has_ignored_stays_ignored_while_the_lock_is_held(table):
    """Started with Ctrl-Z ignored (a shell without job control), a command holding the lock is not put
    aside by one: it records the hand and ends (exit 0), never stopped to wait for an `fg` nobody can type."""
    done = subprocess.run([sys.executable, "-c", SEND, "SIGTSTP", "fcntl.flock", "hand", "ann", "3", "20"],
                          env={**ENV, "GINSCORE_DB": str(table)}, capture_output=True, timeout=30,
                          preexec_fn=lambda: signal.signal(signal.SIGTSTP, signal.SIG_IGN))
    assert done.returncode == 0 and done.stderr == b"" and _hands(table) == 1


@pytest.mark.skipif(not hasattr(os, "openpty") or not hasattr(signal, "SIGTSTP"), reason="no terminals, no Ctrl-Z")
@pytest.mark.parametrize("name, where, status", [
    ("SIGINT", "fcntl.flock", 130),  # Ctrl-C as the lock is taken: before the change
    ("SIGINT", "os.fsync", 0),  # while the new file is made: held until it is in place
    ("SIGTERM", "os.fsync", 0),
    ("SIGHUP", "os.fsync", 0),
])
def test_ctrl_z_then_a_stop_while_the_lock_is_held_ends_the_command_at_once(table, name, where, status):
    """Ctrl-Z during a write, then Ctrl-C (or a kill, or the terminal closed) before it stopped: the command
    was put aside as it let the lock go, and ended only after `fg`. The stop ends it at once, as it says."""
    import time

    leader, follower = os.openpty()
    # in a process group of its own, as a shell starts a command: a Ctrl-Z stops it
    child = subprocess.Popen([sys.executable, "-c", SEND, f"SIGTSTP,{name}", where, "hand", "ann", "3", "20"],
                             stdin=follower, stdout=follower, stderr=follower, env={**ENV, "GINSCORE_DB": str(table)},
                             process_group=0)
    os.close(follower)
    shown, deadline = b"", time.monotonic() + 60
    try:
        while (ended := os.waitid(os.P_PID, child.pid, os.WEXITED | os.WSTOPPED | os.WNOHANG | os.WNOWAIT)) is None:
            assert time.monotonic() < deadline
            shown += terminal_output(leader)
        assert ended.si_code != os.CLD_STOPPED, "put aside, not ended"
        assert child.wait(timeout=60) == status
        shown += terminal_output(leader)
    finally:
        if child.poll() is None:
            child.kill()  # (a stopped process too)
            child.wait()
        os.close(leader)
    assert b"Traceback" not in shown, shown
    assert _hands(table) == (1 if status == 0 else 0)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGKILL"])
@pytest.mark.parametrize("where, written", [
    ("ginscore.cli.commands.merge._add_theirs", False),  # while their sessions are being added: before the change
    ("ginscore.db.atomic.exchange", True),  # the instant the merged file is swapped in
])
def test_a_stop_during_a_merge_leaves_the_file_as_it_was_or_wholly_merged(ok, db_path, tmp_path, name, where,
                                                                           written):
    """Another machine's copy with sessions of its own: a stop (Ctrl-C, a shutdown, a kill) while the merge
    adds them leaves the file byte for byte as it was, never half merged; once the file is swapped in, it
    holds them all (exit 0, but for a kill, which nothing outlives). The merge run again doubles nothing."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    theirs = tmp_path / "laptop.json"
    for game in ("sat", "sun", "mon"):
        ok("--db", str(theirs), "new", "standard", "Ann", "Cy", "--dealer", "Cy", "--name", game)
    before = db_path.read_bytes()
    done = subprocess.run([sys.executable, "-c", SEND, name, where, "merge", str(theirs)],
                          env={**ENV, "GINSCORE_DB": str(db_path)}, capture_output=True, timeout=60)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    if written:
        assert done.returncode == (-signal.SIGKILL if name == "SIGKILL" else 0), (done.returncode, err)
        assert Store(db_path).reading().names() == ["friday", "sat", "sun", "mon"]
    else:
        stopped = {"SIGINT": 130, "SIGTERM": -signal.SIGTERM, "SIGKILL": -signal.SIGKILL}[name]  # 143, 137 in a shell
        assert done.returncode == stopped, (done.returncode, err)
        assert db_path.read_bytes() == before
    ok("merge", str(theirs))
    assert Store(db_path).reading().names() == ["friday", "sat", "sun", "mon"]
