"""`import` takes back every export ginscore writes, however long the session: an export of
tens of thousands of hands is well over 8 MiB (the old limit), and comes back whole."""

from __future__ import annotations

import os
import random
from datetime import datetime, timedelta, timezone

from ginscore.core.cards import parse_card
from ginscore.core.session import Draw, Knock, SessionFacts
from ginscore.core.scoring import HouseRules
from ginscore.db import atomic
from ginscore.db.store import Store
from ginscore.documents import MAX_FILE

HANDS = 20_000  # with a note on each, their export is over 8 MiB
START = datetime(2026, 1, 1, 20, tzinfo=timezone.utc)


def long_session(hands: int) -> SessionFacts:
    """One standard session played to a target no session reaches, every hand with a note,
    built directly (replaying each hand as it is added would take minutes)."""
    rng = random.Random(31)
    told = []
    for number in range(hands):
        at = (START + timedelta(seconds=number)).isoformat()
        note = f"hand {number}: " + "the long one at the club " * 7 + "again"
        upcard = parse_card(rng.choice(["AS", "3H", "6D", "9C", "10S", "KH"]))
        if rng.random() < 0.08:
            told.append(Draw(upcard=upcard, recorded_at=at, note=note))
        else:
            told.append(Knock(rng.choice(["Ann", "Ben"]), rng.randint(0, 10), rng.randint(0, 60), upcard,
                              recorded_at=at, note=note))
    return SessionFacts(name="years at the club", variant="standard", players=("Ann", "Ben"),
                        rules=HouseRules(target=10_000_000), first_dealer="Ann", created_at=START.isoformat(),
                        hands=tuple(told))


def test_an_export_over_8_mib_comes_back_whole(ok, db_path, tmp_path, monkeypatch):
    with Store(db_path).writing() as db:
        db.add(long_session(HANDS))
    export = tmp_path / "club.json"
    ok("export", "--format", "json", "--output", str(export))
    assert export.stat().st_size > 8 * 2**20
    before = ok("sessions", "--json").json(), ok("status", "--json").json()

    monkeypatch.setenv("GINSCORE_DB", str(tmp_path / "fresh.json"))
    said = ok("import", str(export)).stdout
    assert f"Imported {HANDS} hands" in said, said
    assert (ok("sessions", "--json").json(), ok("status", "--json").json()) == before


def test_a_file_over_the_limit_is_refused_before_it_is_read(refused, tmp_path, monkeypatch):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as handle:
        handle.truncate(MAX_FILE + 1)  # sparse: no memory or disk spent on it
    real_read = atomic.read

    def read_small(path):  # asking whether it is a database must not read it whole either
        assert os.path.realpath(path) != os.path.realpath(huge), "the file over the limit was read"
        return real_read(path)

    monkeypatch.setattr(atomic, "read", read_small)
    line = refused("import", str(huge), says=f"larger than {MAX_FILE // 2**20} MiB")
    assert "ginscore export" in line


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_not(ok, refused, tmp_path, monkeypatch):
    import ginscore.documents as documents

    ok("--db", tmp_path / "there.json", "new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("--db", tmp_path / "there.json", "hand", "ann", "2", "20")
    export = tmp_path / "e.json"
    export.write_text(ok("--db", tmp_path / "there.json", "export", "--format", "json").stdout)
    monkeypatch.setattr(documents, "MAX_FILE", export.stat().st_size - 1)
    refused("import", str(export), says="larger than")
    monkeypatch.setattr(documents, "MAX_FILE", export.stat().st_size)
    assert "Imported 1 hand" in ok("import", str(export)).stdout
