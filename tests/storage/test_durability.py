"""Kills, concurrent writers and changes made by other programs lose and double nothing."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import stat
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ginscore.db.database import Database
from ginscore.db.store import Store
from tests.profiles import examples
from tests.support import (
    HAND,
    database_files,
    hands_in,
    one_error_line,
    path_state,
    put_back,
    run_main,
    temporary_files,
)

KILLS = examples(120)  # random kill moments: a fifth of them in the dev profile (tests/profiles.py)


WRITERS, HANDS_EACH = 8, 25


BIG_TARGET = "100000000"  # no game ends during the test


fork = multiprocessing.get_context("fork")


@pytest.fixture(params=["file", "symlink"])
def real_folder(request, db_path, tmp_path):
    """The folder of the real database file: where its temporary files must appear (and go)."""
    if request.param == "file":
        yield tmp_path
        return
    folder = tmp_path / "synced"
    folder.mkdir()
    db_path.symlink_to(os.path.join("synced", db_path.name))
    yield folder
    assert db_path.is_symlink() and os.readlink(db_path) == os.path.join("synced", db_path.name)
    assert (folder / db_path.name).is_file() and not (folder / db_path.name).is_symlink()
    assert (folder / f"{db_path.name}.lock").is_file() and not (tmp_path / f"{db_path.name}.lock").exists()
    assert not list(tmp_path.glob(".ginscore.json.tmp-*"))


def _quiet() -> None:
    devnull = open(os.devnull, "w")
    os.dup2(devnull.fileno(), 1)
    sys.stdout = devnull


def _hand_args(i: int) -> tuple[str, str]:
    """Hand i of the kill test: a legal knock that Ann always wins, recognisable by i."""
    return str(i % 11), str(11 + i % 80)


def _record_forever(db: str, log: str, start: int) -> None:
    """Record hands in the session 'main'; between them the file also shrinks.

    After each hand the recorder adds a hand to a 'scratch' session and undoes
    it, so writes that make the file shorter are killed too: an in-place
    rewrite (TinyDB's own storage) killed between its write and its truncate
    leaves trailing bytes and an unreadable file.
    """
    _quiet()
    i = start
    scratch = ["--db", db, "hand", "ann", "1", "2", "--session", "scratch"]
    with open(log, "a") as done:
        while True:
            knocker_deadwood, opponent_deadwood = _hand_args(i)
            status = run_main(["--db", db, "hand", "ann", knocker_deadwood, opponent_deadwood, "--session", "main"])
            if status != 0:
                os._exit(status)
            done.write(f"{i}\n")  # only after the command said it was done
            done.flush()
            i += 1
            for args in (scratch, ["--db", db, "undo", "--yes", "--session", "scratch"]):
                if run_main(args) != 0:
                    os._exit(3)


@pytest.mark.slow
def test_kill_at_random_moments_loses_no_hand(ok, db_path, tmp_path, real_folder):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET, "--name", "scratch")
    ok("hand", "ann", "1", "2")  # a long first hand, so that undoing the next one shrinks the file
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET, "--name", "main")
    log = tmp_path / "done.log"
    log.touch()
    rng = random.Random(20261129)
    killed_mid_write = 0
    for _ in range(KILLS):
        start = len(hands_in(db_path, "main"))
        child = fork.Process(target=_record_forever, args=(str(db_path), str(log), start))
        child.start()
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        assert child.exitcode == -signal.SIGKILL, "the recorder stopped by itself"
        json.loads(db_path.read_bytes())  # the file always loads
        hands = hands_in(db_path, "main")
        logged = [int(line) for line in log.read_text().split()]
        for i, hand in enumerate(hands):  # nothing doubled, nothing out of order, nothing damaged
            assert (str(hand.knocker_deadwood), str(hand.opponent_deadwood)) == _hand_args(i)
        assert all(i < len(hands) for i in logged), "a hand whose command exited 0 is missing"
        last_done = max([i for i in logged if i >= start], default=start - 1)  # this recorder's last exit 0
        assert len(hands) <= last_done + 2, "more than the one hand in flight is extra"
        assert not _unnamed(real_folder)
        killed_mid_write = len(_temps(real_folder))
    print(f"\n{KILLS} kills survived; {len(hands_in(db_path, 'main'))} hands kept; "
          f"{killed_mid_write} kills left a temporary file of a half-done write behind")
    ok("hand", "ann", "1", "20", "--session", "main")
    assert not _temps(real_folder) and not _unnamed(real_folder)  # what the killed writers left: removed


def _write_hands(db: str, session: str, writer: int, go) -> None:
    _quiet()
    go.wait()
    for n in range(HANDS_EACH):
        status = run_main(["--db", db, "hand", "ann", str(writer % 11), str(11 + n), "--session", session])
        if status != 0:
            os._exit(10 + status)
    os._exit(0)


@pytest.mark.slow
def test_eight_writers_at_once_lose_and_double_nothing(ok, db_path, real_folder):
    sessions = [f"s{n}" for n in range(WRITERS - 1)]
    for name in sessions:
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET, "--name", name)
    plan = [(sessions[0], 0)] + [(sessions[max(0, w - 1)], w) for w in range(1, WRITERS)]  # two on s0
    go = fork.Event()
    writers = [fork.Process(target=_write_hands, args=(str(db_path), s, w, go)) for s, w in plan]
    for writer in writers:
        writer.start()
    go.set()
    for writer in writers:
        writer.join(120)
    assert [w.exitcode for w in writers] == [0] * WRITERS
    database = Store(db_path).reading()
    total = 0
    for name in sessions:
        hands = database.load(name).hands
        expected = sorted((w % 11, 11 + n) for s, w in plan if s == name for n in range(HANDS_EACH))
        assert sorted((h.knocker_deadwood, h.opponent_deadwood) for h in hands) == expected
        total += len(hands)
    assert total == WRITERS * HANDS_EACH == 200
    json.loads(db_path.read_bytes())


STEPS = ("fsync", "replace", "unlink")  # the calls a write makes that a death can fall between


def _die_at(step: int, db: str, counted: str | None = None) -> None:
    """Record one hand, but die (as a SIGKILL would) just before the write's ``step``-th call of
    fsync, replace or unlink; with ``counted``, die at none and write the number of calls there."""
    _quiet()
    # A cache folder of its own: every run starts from none, so the cache files it writes (where the
    # file has each session, after the commit) are the same calls in the counted run and the deadly ones.
    # It is made in the test's own folder, which goes with the test: a child killed here never cleans up.
    os.environ["GINSCORE_CACHE"] = tempfile.mkdtemp(dir=os.path.dirname(db))
    calls = [0]

    def deadly(real):
        def call(*args, **kwargs):
            calls[0] += 1
            if calls[0] == step:
                os._exit(9)
            return real(*args, **kwargs)
        return call

    for name in STEPS:
        setattr(os, name, deadly(getattr(os, name)))
    status = run_main(["--db", db, "hand", "ann", "4", "22"])
    if counted:
        with open(counted, "w") as out:
            out.write(str(calls[0]))
    os._exit(status)


def _unnamed(real_folder) -> list[str]:
    """Files beside the database that are neither it, its lock, nor a temporary file of ginscore's
    own naming (which a writer killed mid-write leaves, and the next writer removes)."""
    from ginscore.db.atomic import is_temp_of

    return sorted(p.name for p in real_folder.iterdir() if "ginscore" in p.name
                  and p.name not in ("ginscore.json", "ginscore.json.lock") and not is_temp_of(p.name, "ginscore.json"))


def _temps(real_folder) -> list[str]:
    from ginscore.db.atomic import is_temp_of

    return sorted(p.name for p in real_folder.iterdir() if is_temp_of(p.name, "ginscore.json"))


def _run_child(*args) -> int:
    child = fork.Process(target=_die_at, args=args)
    child.start()
    child.join()
    return child.exitcode


@pytest.mark.parametrize(("sessions", "indexed"), [(1, False), (120, False), (120, True)],
                         ids=["1", "120", "120-indexed"])
def test_death_at_each_step_of_a_write_leaves_the_old_database_or_the_new(ok, db_path, tmp_path, real_folder,
                                                                         monkeypatch, sessions, indexed):
    """A write makes a temporary file, fsyncs it (its bytes, owner and bits), renames it over the
    database (the commit) and fsyncs the folder, and for a file read through its index (a large one;
    ``indexed``: every file) keeps the new file's index in the cache: killed before any of these
    calls, the database reads back whole as before the write or as after it."""
    if indexed:
        monkeypatch.setattr("ginscore.db.layout.INDEXED_FROM", 0)
    for n in range(sessions):
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", f"s{n}")
    ok("hand", "ann", "2", "12")
    real = real_folder / db_path.name
    before = database_files(real)
    counted = tmp_path / "calls"
    put_back(real, before)  # as every step below starts: the files written again (new times, same bytes)
    assert _run_child(10**9, str(db_path), str(counted)) == 0
    steps = int(counted.read_text())
    assert steps >= (4 if indexed else 3)  # the file fsynced, the rename, the folder fsynced (the index kept)
    after = database_files(real)
    outcomes = set()
    for step in range(1, steps + 1):
        put_back(real, before)
        assert _run_child(step, str(db_path)) == 9
        json.loads(db_path.read_bytes())  # whole, whichever it is
        hands = len(hands_in(db_path))
        assert hands in (1, 2)
        outcomes.add(hands)
        if hands == 1:  # as before the write, byte for byte (after it, only the new hand's time differs)
            assert real.read_bytes() == before["ginscore.json"]
        assert len(real.read_bytes()) == len((before if hands == 1 else after)["ginscore.json"])
        if sessions > 1:
            assert len(ok("sessions", "--json").json()) == sessions
        ok("draw")  # the next writer
        assert not _unnamed(real_folder)
        for temp in _temps(real_folder):  # what the killed one left (the next writer removes it too)
            (real_folder / temp).unlink()
        assert len(hands_in(db_path)) == hands + 1
        ok("undo", "--yes")
    assert outcomes == {1, 2}


def test_a_database_made_by_another_program_in_the_last_moment_of_a_first_write_is_kept(cli, db_path, monkeypatch):
    """The last check before the file is put in place finds no file, and another program (a sync
    client bringing the file from the laptop) makes one right then: the new file goes in only where
    there is still none (a hard link), so theirs is kept and the command exits 1, nothing written.
    (It used to be renamed over theirs, exit 0.)"""
    import ginscore.db.storage

    theirs = b'{"meta":{},"sessions":{}}'
    checked = ginscore.db.storage.FileStorage._unchanged

    def then_theirs_arrives(storage):
        found = checked(storage)
        db_path.write_bytes(theirs)
        return found

    monkeypatch.setattr(ginscore.db.storage.FileStorage, "_unchanged", then_theirs_arrives)
    result = cli("new", "standard", "Ann", "Ben")
    assert result.exit_code == 1 and "created by another" in result.stderr, result.stderr
    assert db_path.read_bytes() == theirs
    assert sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache") == [db_path.name, db_path.name + ".lock"]


def test_a_change_made_while_the_new_file_is_made_ready_is_found(ok, cli, db_path, monkeypatch):
    """Another program replaces the database while ginscore gives its new file the old one's owner
    and bits and fsyncs it: the check comes after all that, so the change is found (exit 1, theirs
    kept), not overwritten."""
    import ginscore.db.atomic

    ok("new", "standard", "Ann", "Ben")
    theirs = db_path.read_bytes().replace(b'"Ann"', b'"Ana"')
    made_ready = ginscore.db.atomic._take_over

    def meanwhile(fd, like):
        db_path.with_name("sync-temp").write_bytes(theirs)
        os.replace(db_path.with_name("sync-temp"), db_path)
        made_ready(fd, like)

    monkeypatch.setattr(ginscore.db.atomic, "_take_over", meanwhile)
    result = cli("hand", "ann", "3", "20")
    assert result.exit_code == 1 and "changed on disk" in result.stderr, result.stderr
    assert db_path.read_bytes() == theirs


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
        left_by_the_other.append(path_state(dst))
        return real_replace(src, dst, *rest)

    monkeypatch.setattr("ginscore.db.atomic.os.replace", snapshot)
    result = cli(*args)
    monkeypatch.undo()
    line = one_error_line(result, 1)
    assert ("changed on disk" in line or "FIFO" in line) and str(db_path) in line
    assert not left_by_the_other, "ginscore got as far as replacing the file"
    assert not temporary_files(tmp_path)
    if change in ("rewritten in place, same size", "replaced by another file"):  # the other program's hand kept
        assert [h.knocker_deadwood for h in hands_in(db_path)] == [3 if change.startswith("rewritten") else 7]
        assert db_path.read_bytes() == evening.replace(b"knock|Ann|2|12", b"knock|Ann|3|12" if change.startswith(
            "rewritten") else b"knock|Ann|7|12", 1)  # exactly what the other program left
    if change == "appended to":
        assert db_path.read_bytes() != evening and json.loads(db_path.read_bytes())  # the other program's file
        assert len(hands_in(db_path)) == 1


@pytest.mark.parametrize("change", HARMLESS)
def test_a_file_touched_but_not_changed_is_written(ok, tmp_path, db_path, monkeypatch, evening, change):
    db_path.chmod(0o644)
    _meanwhile(monkeypatch, "save", change, db_path, tmp_path)
    ok(*HAND)
    monkeypatch.undo()
    assert len(hands_in(db_path)) == 2
    assert stat.S_IMODE(db_path.stat().st_mode) == HARMLESS[change]
