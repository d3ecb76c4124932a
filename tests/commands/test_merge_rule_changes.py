"""Two records of one session where one changed the house rules from the next hand on (H8): the
change is a later fact, like a later hand, so an older copy, export or CSV is already here, and a
newer one brings the change along; two different changes after the same hand have diverged."""

from __future__ import annotations

import shutil


def _evening(ok, db):
    ok("--db", str(db), "new", "standard", "Ann", "Ben", "--dealer", "ben")
    ok("--db", str(db), "hand", "ann", "4", "22")


def _said(ok, *args) -> str:
    """What a command printed, as one line (a long path wraps it at any width)."""
    return " ".join(ok(*args).stdout.split())


def _rules(ok, db) -> tuple:
    doc = ok("--db", str(db), "status", "--json").json()
    return doc["rules"]["target"], [(c["from_hand"], c["rules"]["target"]) for c in doc["rule_changes"]]


def test_an_older_copy_or_export_of_a_session_changed_from_the_next_hand_is_already_here(ok, tmp_path):
    db = tmp_path / "g.json"
    _evening(ok, db)
    shutil.copy(db, tmp_path / "older.json")
    ok("--db", str(db), "export", "--format", "json", "--output", str(tmp_path / "older-export.json"))
    ok("--db", str(db), "house", "--target", "150", "--from-next")
    ok("--db", str(db), "hand", "ben", "0", "10")
    before = db.read_bytes()
    assert "Nothing was changed" in _said(ok, "--db", str(db), "merge", str(tmp_path / "older.json"))
    assert "Already here" in _said(ok, "--db", str(db), "import", str(tmp_path / "older-export.json"))
    ok("--db", str(db), "export", "--output", str(tmp_path / "now.csv"))
    assert "Already here" in _said(ok, "--db", str(db), "import", str(tmp_path / "now.csv"))  # its own CSV
    assert db.read_bytes() == before


def test_a_newer_copy_brings_its_rule_change_along_with_or_without_later_hands(ok, tmp_path):
    older, newer = tmp_path / "older.json", tmp_path / "newer.json"
    _evening(ok, older)
    shutil.copy(older, newer)
    ok("--db", str(newer), "house", "--target", "150", "--from-next")
    said = _said(ok, "--db", str(older), "merge", str(newer))
    assert "the house rules changed there from hand 2 on" in said
    assert _rules(ok, older) == (150, [(1, 100), (2, 150)])
    ok("--db", str(newer), "hand", "ben", "0", "10")
    assert "hand 2 from there" in _said(ok, "--db", str(older), "merge", str(newer))
    assert ok("--db", str(older), "log", "--json").json() == ok("--db", str(newer), "log", "--json").json()
    assert "Nothing was changed" in _said(ok, "--db", str(older), "merge", str(newer))


def test_two_different_changes_from_the_same_next_hand_have_diverged(ok, cli, tmp_path):
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    _evening(ok, ours)
    shutil.copy(ours, theirs)
    ok("--db", str(ours), "house", "--target", "120", "--from-next")
    ok("--db", str(theirs), "house", "--target", "150", "--from-next")
    before = ours.read_bytes()
    ran = cli("--db", str(ours), "merge", str(theirs))
    assert ran.exit_code == 1 and "house rules differ" in ran.stderr
    assert ours.read_bytes() == before
