"""A sync client replaces the database while ginscore writes it: neither write is lost.

ginscore swaps its new file in (``atomic.exchange``) and checks that the file which came out is
the one it read; a file that landed meanwhile is swapped back and the command exits 1. The first
test puts a sync client's replacement before each step of a write, one step at a time; the second
runs a sync client of its own process beside a few hundred `hand` commands.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time

import pytest

import ginscore.db.atomic as atomic
from ginscore.db.store import Store

BIG_TARGET = "100000000"  # no game ends during a test
fork = multiprocessing.get_context("fork")


def _hands(db) -> list[tuple[int, int]]:
    return [(h.knocker_deadwood, h.opponent_deadwood) for h in Store(db).reading().load(None).hands]


def _marks(db) -> list[int]:
    """The changes the sync client made, as the file now holds them."""
    return json.loads(db.read_bytes())["meta"]["1"].get("synced", [])


def _synced(db, mark: int) -> None:
    """What a sync client does: the file brought from elsewhere, with its own change, renamed over."""
    data = json.loads(db.read_bytes())
    data["meta"]["1"].setdefault("synced", []).append(mark)
    brought = db.with_name("sync-client-download")
    brought.write_text(json.dumps(data), encoding="utf-8")
    os.replace(brought, db)


# Every call a write makes, from its first look at the file to the folder's fsync, that the sync
# client's replacement can land before.
STEPS = [(os, "fsync"), (os, "close"), (os, "lstat"), (os, "replace"), (os, "link"), (os, "unlink"),
         (os, "listxattr"), (atomic, "read"), (atomic, "exchange"), (atomic, "fsync_folder")]


def _hooked(monkeypatch, db, at_step: int | None) -> list[int]:
    """Count the calls of ``STEPS`` while the database is replaced; before the ``at_step``-th, the
    sync client replaces the file. The calls seen so far are returned (a list, filled as it runs)."""
    seen = [0]
    inside = [False]

    def hook(real):
        def call(*args, **kwargs):
            if inside[0]:
                seen[0] += 1
                if seen[0] == at_step:
                    inside[0] = False  # the sync client's own calls are not steps
                    _synced(db, at_step)
                    inside[0] = True
            return real(*args, **kwargs)
        return call

    for owner, name in STEPS:
        if hasattr(owner, name):
            monkeypatch.setattr(owner, name, hook(getattr(owner, name)))
    replace = atomic.replace

    def replacing(*args, **kwargs):
        inside[0] = True
        try:
            return replace(*args, **kwargs)
        finally:
            inside[0] = False

    monkeypatch.setattr(atomic, "replace", replacing)
    return seen


def test_a_sync_client_replacing_the_file_at_any_step_of_a_write_loses_nothing(ok, cli, db_path, monkeypatch):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET)
    with monkeypatch.context() as patched:
        steps = _hooked(patched, db_path, None)
        ok("hand", "ann", "1", "20")
    assert steps[0] >= 5  # the temporary file closed, fsynced, the check, the swap, the old file removed
    recorded = 1
    for step in range(1, steps[0] + 1):
        with monkeypatch.context() as patched:
            _hooked(patched, db_path, step)
            result = cli("hand", "ann", "2", str(20 + step))
        assert step in _marks(db_path), f"the sync client's change was lost at step {step}"
        hands = _hands(db_path)
        if result.exit_code == 0:
            recorded += 1
            assert hands[-1] == (2, 20 + step) and len(hands) == recorded, step
        else:
            assert result.exit_code == 1 and "changed on disk" in result.stderr, (step, result.stderr)
            assert len(hands) == recorded and (2, 20 + step) not in hands, step
        assert not [p.name for p in db_path.parent.iterdir() if atomic.is_temp_of(p.name, db_path.name)], step


def _sync_client(db: str, log: str, stop, seed: int) -> None:
    """A careful sync client in a process of its own: at random moments it brings the file with a
    change of its own (a mark), swapped in as ginscore does, and counts the change as made (the log)
    only when what came out is the file it read; else it swaps back, as ginscore does."""
    rng = random.Random(seed)
    mark = 0
    with open(log, "a") as made:
        while not stop.is_set():
            time.sleep(rng.uniform(0.0, 0.03))
            with open(db, "rb") as handle:
                raw = handle.read()
            data = json.loads(raw)
            data["meta"]["1"].setdefault("synced", []).append(mark)
            brought = f"{db}.sync-download"
            with open(brought, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            ours = os.lstat(brought)
            assert atomic.exchange(brought, db)
            with open(brought, "rb") as handle:
                came_out = handle.read()
            if came_out == raw:
                made.write(f"{mark}\n")
                made.flush()
            else:
                atomic.exchange(brought, db)
                back = os.lstat(brought)
                if (back.st_dev, back.st_ino) != (ours.st_dev, ours.st_ino):
                    atomic.exchange(brought, db)
            os.unlink(brought)
            mark += 1
    os._exit(0)


WRITES = 200


@pytest.mark.slow
def test_a_sync_client_beside_two_hundred_writes_loses_no_acknowledged_change(cli, ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET)
    probe = tmp_path / "probe"
    probe.write_text("a")
    db_path.with_name("probe2").write_text("b")
    if not atomic.exchange(str(probe), str(db_path.with_name("probe2"))):
        pytest.skip("this file system cannot swap two names")
    log, stop = tmp_path / "synced.log", fork.Event()
    log.touch()
    client = fork.Process(target=_sync_client, args=(str(db_path), str(log), stop, random.randrange(2**32)))
    client.start()
    done, refused = [], 0
    try:
        for i in range(WRITES):
            hand = (i % 11, 11 + i // 11)
            result = cli("hand", "ann", str(hand[0]), str(hand[1]))
            assert result.exit_code in (0, 1), result.stderr
            if result.exit_code == 0:
                done.append(hand)
            else:
                assert "changed on disk" in result.stderr, result.stderr
                refused += 1
    finally:
        stop.set()
        client.join(30)
    assert client.exitcode == 0, "the sync client failed"
    hands, marks = _hands(db_path), _marks(db_path)
    made = [int(line) for line in log.read_text().split()]
    missing_hands = [h for h in done if h not in hands]
    missing_marks = [m for m in made if m not in marks]
    print(f"\n{len(done)} hands recorded, {refused} refused (exit 1), {len(hands) - len(done)} refused yet present; "
          f"sync client: {len(made)} changes made, {len(set(marks))} kept")
    assert not missing_hands and not missing_marks
    assert len(hands) == len(set(hands))  # nothing doubled


def test_without_the_c_librarys_wrapper_the_system_call_swaps(tmp_path, monkeypatch):
    import ctypes

    real = ctypes.CDLL(None, use_errno=True)

    class OlderLibrary:  # a C library from before renameat2 had a wrapper (glibc before 2.28)
        syscall = real.syscall

    monkeypatch.setattr(ctypes, "CDLL", lambda *args, **kwargs: OlderLibrary())
    monkeypatch.setattr(atomic, "_swapper", [])
    one, other = tmp_path / "one", tmp_path / "other"
    one.write_text("1")
    other.write_text("2")
    assert atomic.exchange(str(one), str(other))
    assert (one.read_text(), other.read_text()) == ("2", "1")
    with pytest.raises(FileNotFoundError):
        atomic.exchange(str(one), str(tmp_path / "missing"))


def test_where_nothing_can_be_swapped_the_check_before_the_rename_still_finds_a_change(ok, cli, db_path,
                                                                                       monkeypatch):
    """A file system that cannot swap (renameat2 says EINVAL): the new file is renamed over, after
    the last check; a replacement before that check is found (exit 1, theirs kept)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET)
    monkeypatch.setattr(atomic, "exchange", lambda one, other: False)
    ok("hand", "ann", "1", "20")
    assert _hands(db_path) == [(1, 20)]
    read, reads = atomic.read, []

    def the_check_reads(path):  # the command's first read is its own; the next one is the last check
        reads.append(path)
        if len(reads) == 2:
            _synced(db_path, 7)
        return read(path)

    monkeypatch.setattr(atomic, "read", the_check_reads)
    result = cli("hand", "ann", "2", "20")
    assert result.exit_code == 1 and "changed on disk" in result.stderr
    assert _marks(db_path) == [7] and _hands(db_path) == [(1, 20)]


def test_a_second_sync_file_landing_while_the_first_is_swapped_back_is_the_one_kept(ok, cli, db_path, monkeypatch):
    """A sync client's file lands just before ginscore swaps its new file in, and its next file lands
    while ginscore swaps the first one back: the newest is left in place, as a rename would leave it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET)
    ok("hand", "ann", "1", "20")
    exchange, swaps, first = atomic.exchange, [], db_path.with_name("first-landing")

    def two_landings(one, other):
        swaps.append(other)
        if len(swaps) == 1:  # before the swap in
            _synced(db_path, 1)
            first.write_bytes(db_path.read_bytes())
        elif len(swaps) == 2:  # before the swap back: the sync client's next file, made from its first
            data = json.loads(first.read_bytes())
            data["meta"]["1"]["synced"].append(2)
            first.write_text(json.dumps(data), encoding="utf-8")
            os.replace(first, db_path)
        return exchange(one, other)

    monkeypatch.setattr(atomic, "exchange", two_landings)
    result = cli("hand", "ann", "2", "20")
    assert result.exit_code == 1 and "changed on disk" in result.stderr, result.stderr
    assert _marks(db_path) == [1, 2] and _hands(db_path) == [(1, 20)]
    assert not [p.name for p in db_path.parent.iterdir() if atomic.is_temp_of(p.name, db_path.name)]


def test_a_link_put_in_the_files_place_just_before_the_swap_is_kept_and_the_write_refused(ok, cli, db_path,
                                                                                          monkeypatch):
    """Just before ginscore swaps its new file in, the database is moved into a synced folder and a link
    to it put in its place (as docs/storage.md advises, done meanwhile). The file that came out was read
    through the link, the same bytes, and passed as the file read: the link was removed, and the hand
    went into a new file beside it while the synced one missed it. Now: exit 1, the link kept as a link,
    the synced file as it was."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", BIG_TARGET)
    ok("hand", "ann", "1", "20")
    synced = db_path.parent / "synced" / db_path.name
    synced.parent.mkdir()
    exchange, swaps = atomic.exchange, []

    def moved_behind_a_link(one, other):
        swaps.append(other)
        if len(swaps) == 1:
            os.replace(db_path, synced)
            os.symlink(synced, db_path)
        return exchange(one, other)

    monkeypatch.setattr(atomic, "exchange", moved_behind_a_link)
    result = cli("hand", "ann", "2", "20")
    assert result.exit_code == 1 and "changed on disk" in result.stderr, result.stderr
    assert db_path.is_symlink() and os.readlink(db_path) == str(synced)
    assert _hands(synced) == [(1, 20)]
    assert not [p.name for p in db_path.parent.iterdir() if atomic.is_temp_of(p.name, db_path.name)]
    monkeypatch.setattr(atomic, "exchange", exchange)
    ok("hand", "ann", "2", "20")  # taken again: written through the link, into the synced file
    assert db_path.is_symlink() and _hands(synced) == [(1, 20), (2, 20)]
