"""`export --output` never lands on a file ginscore keeps beside a database: its lock, a temporary
file, the copy an upgrade keeps; not of the database in use, nor of any other.

A lock replaced by an export is a new, unheld lock: a second writer would then run while the
first still holds the old one.
"""

from __future__ import annotations

import os

import pytest

TEMP = ".g.json.tmp-4242-00c0ffee"


def _state(path):
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    return (found.st_ino, found.st_mode, found.st_size, path.read_bytes() if path.is_file() else None)


@pytest.fixture
def other(ok, tmp_path):
    """Another database, in a folder of its own, written once (so its lock is there)."""
    folder = tmp_path / "club"
    folder.mkdir()
    db = folder / "g.json"
    ok("--db", db, "new", "standard", "Cy", "Dee", "--dealer", "cy")
    ok("--db", db, "hand", "cy", "2", "12")
    (folder / TEMP).write_bytes(db.read_bytes())  # what a writer killed mid-write leaves
    (folder / "g.json.pre-3.bak").mkdir()
    (folder / "g.json.pre-3.bak" / "g.json").write_bytes(b'{"meta": {"1": {"schema_version": 2}}}')
    return db


@pytest.mark.parametrize("name", ["g.json.lock", TEMP, "g.json.pre-3.bak/g.json", "g.json.pre-3.bak/new.csv",
                                  "h.json.pre-3.bak", ".h.json.tmp-1-ab"])
def test_an_export_onto_a_file_kept_beside_another_database_is_refused(ok, cli, db_path, other, name):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    target = other.parent / name
    beside = {p: _state(p) for p in [other, target, *other.parent.iterdir()]}
    ours = db_path.read_bytes()
    result = cli("export", "--output", str(target))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert str(target) in result.stderr and "beside a database" in result.stderr
    assert {p: _state(p) for p in beside} == beside and db_path.read_bytes() == ours
    assert sorted(os.listdir(other.parent)) == sorted(p.name for p in beside if p.parent == other.parent and p.exists())


def test_the_lock_of_a_database_not_yet_written_and_a_lock_through_a_link_are_refused(ok, cli, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    lone = tmp_path / "first.json.lock"
    lone.touch()  # a first write holds the lock before its database is there
    link = tmp_path / "innocent.csv"
    link.symlink_to(lone)
    for target in (lone, link):
        result = cli("export", "--output", str(target))
        assert result.exit_code == 2 and "beside a database" in result.stderr, result.stderr
    assert lone.read_bytes() == b"" and link.is_symlink()


def test_an_export_to_a_file_merely_named_lock_still_works(ok, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    notes = tmp_path / "poetry.lock"
    notes.write_text("not ginscore's\n")
    ok("export", "--output", str(notes))
    assert notes.read_text().startswith("hand")
