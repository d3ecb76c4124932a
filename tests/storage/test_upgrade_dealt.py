"""A database of ginscore 3.x (schema 4), whose hands did not keep who dealt them: read as it is,
then on the first write kept in ``<file>.pre-4.bak`` and given every hand's dealer once (H8).

tests/fixtures/schema4.json was written by ginscore 3.0.0: 'loser' (deal loser: Ann, Ann, Ben
dealt) and 'trio' (three players: the box deals, R22)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ginscore.codec.facts import stored_hands
from ginscore.core.session import keeps_who_dealt
from ginscore.db.database import SCHEMA_VERSION

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "schema4.json"
TRIO_ROLES = [{"box": "Ann", "captain": "Ben", "out": "Cy"}, {"box": "Ann", "captain": "Cy", "out": "Ben"},
              {"box": "Cy", "captain": "Ben", "out": "Ann"}]


def _copy(tmp_path) -> Path:
    db = tmp_path / "old.json"
    shutil.copy(FIXTURE, db)
    return db


def _dealt(ok, db, session):
    hands = ok("--db", str(db), "log", "--json", "--session", session).json()["hands"]
    return [(h["dealer"], h.get("roles")) for h in hands]


def test_a_database_of_3x_reads_as_it_did_and_its_first_write_gives_each_hand_its_dealer_with_a_copy_kept(ok, tmp_path):
    db = _copy(tmp_path)
    old = db.read_bytes()
    assert [d for d, _ in _dealt(ok, db, "loser")] == ["Ann", "Ann", "Ben"]
    assert [r for _, r in _dealt(ok, db, "trio")] == TRIO_ROLES
    assert db.read_bytes() == old  # reading writes nothing
    ok("--db", str(db), "house", "--deal", "alternate", "--from-start")  # the reproduction, on an old file
    assert db.with_name("old.json.pre-4.bak").joinpath("old.json").read_bytes() == old
    data = json.loads(db.read_bytes())
    assert data["meta"]["1"]["schema_version"] == SCHEMA_VERSION == 5
    for doc in data["sessions"].values():  # every session, the one changed and the other
        assert all(keeps_who_dealt(hand) for hand in stored_hands(doc["hands"])), doc["name"]
    assert [d for d, _ in _dealt(ok, db, "loser")] == ["Ann", "Ann", "Ben"]  # H8: who dealt stays
    assert [r for _, r in _dealt(ok, db, "trio")] == TRIO_ROLES
    assert ok("--db", str(db), "dealer", "--json").json()["next_dealer"] == "Ann"  # alternate after Ben


def test_a_read_only_database_of_3x_answers_a_command_that_changes_nothing(ok, cli, tmp_path):
    db = _copy(tmp_path)
    db.chmod(0o444)
    old = db.read_bytes()
    ok("--db", str(db), "use", "loser")
    assert db.read_bytes() == old and not db.with_name("old.json.pre-4.bak").exists()
    assert cli("--db", str(db), "rename", "zzz").exit_code == 1


def test_an_export_never_replaces_the_copy_kept_before_the_upgrade(ok, refused, tmp_path):
    db = _copy(tmp_path)
    ok("--db", str(db), "use", "trio")  # the first write (it records something): the copy is kept
    kept = db.with_name("old.json.pre-4.bak") / "old.json"
    before = kept.read_bytes()
    refused("--db", str(db), "export", "--output", str(kept))
    assert kept.read_bytes() == before
