"""Older layouts (schema 1, schema 2, the parted 2.x one) read as they are and upgraded on the
first write."""

from __future__ import annotations

import io
import json
import shutil
import stat
from pathlib import Path

import pytest

from ginscore.codec.facts import stored_hands
from ginscore.core.session import keeps_who_dealt
from ginscore.db.database import SCHEMA_VERSION
from ginscore.db.storage import CHANGED_ON_DISK
from tests.support import (
    FIXTURES,
    HAND,
    SCHEMA_1,
    every_output,
    folder_listing,
    hands_in,
    one_error_line,
    parted_copy,
    path_state,
    stored_sessions,
)


def test_schema_1_file_is_read_as_is_and_migrated_on_first_write_after_a_copy(ok, db_path):
    old = json.dumps(SCHEMA_1).encode()
    db_path.write_bytes(old)
    backup = db_path.with_name(db_path.name + ".pre-3.bak") / db_path.name
    assert ok("status", "--json").json()["totals"] == {"Ann": 30, "Ben": 0}
    assert db_path.read_bytes() == old and not backup.exists()  # readers never upgrade
    ok("hand", "ben", "3", "9")
    assert backup.read_bytes() == old
    data = json.loads(db_path.read_text())
    assert data["meta"]["1"]["schema_version"] == SCHEMA_VERSION
    assert [h.split("|")[0] for h in stored_sessions(db_path)["1"]["hands"].split(";")] == ["knock", "draw", "knock"]
    assert ok("status", "--json").json()["totals"] == {"Ann": 30, "Ben": 6}
    assert ok("log", "--json").json()["hands"][1]["upcard"] == "7H"


def test_a_1_0_session_the_first_write_does_not_touch_is_kept_in_rows_with_who_dealt(ok, db_path):
    """The first write of a 1.0 file upgrades every session, not only the one it records in: each hand
    of the others is kept as a row of today's layout, with its dealer (H8)."""
    db_path.write_text(json.dumps(SCHEMA_1))
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy")
    assert stored_sessions(db_path)["1"]["hands"] == "knock|Ann|0|10||0|2026-01-01T20:00:00+00:00||Ann;draw|7H|||Ann"


def test_a_schema_1_file_behind_a_link_is_migrated_with_its_copy_beside_the_real_file(ok, tmp_path, db_path):
    from tests.support import SCHEMA_1

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
    assert len(hands_in(real)) == 3


# What is planted at the copy's name, and what the refusal calls the thing to move: never a copy
# that could not be kept, which reads as a fault of the disk.
PLANTED = {"symlink": "is in the way", "dangling symlink": "is in the way", "a file": "is in the way",
           "a link to a folder": "is in the way", "a link inside the folder": "is a symbolic link",
           "another file inside the folder": "holds something else"}


@pytest.mark.parametrize("planted", PLANTED)
def test_a_planted_upgrade_copy_name_is_refused_not_followed(cli, tmp_path, db_path, planted):
    """A link, a file or another copy at the name of the upgrade's copy (or of its folder) is named as
    what to move; nothing is written through a link, not even into a folder it leads to."""
    from tests.support import SCHEMA_1

    old = json.dumps(SCHEMA_1).encode()
    db_path.write_bytes(old)
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
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
        backup.symlink_to({"symlink": victim, "a link to a folder": elsewhere}.get(planted, tmp_path / "nowhere"))
    line = one_error_line(cli(*HAND), 1)
    assert line.endswith(f"needs an upgrade, but {backup} {PLANTED[planted]}; move it away"), line
    assert db_path.read_bytes() == old and victim.read_bytes() == b"keep me"
    assert not (tmp_path / "nowhere").exists() and list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("old", ["schema2.json", "schema3/club.json"])
def test_a_read_only_database_of_an_older_layout_answers_a_command_that_changes_nothing(cli, ok, tmp_path, old):
    """Read through its upgrade, a read-only file of 1.x or of the parted layout is no more changed
    by `use` of its current session than a file of today's; a change is still refused."""
    fixture = FIXTURES / old
    folder = tmp_path / "old"
    if old.startswith("schema3"):  # the main file and its parts
        shutil.copytree(fixture.parent, folder)
    else:
        folder.mkdir()
        shutil.copy(fixture, folder)
    db = folder / fixture.name
    db.chmod(0o444)
    current = ok("--db", str(db), "status", "--json").json()["session"]
    before = path_state(folder)
    assert f"Now keeping score in '{current}'" in ok("--db", str(db), "use", current).stdout
    assert "read-only" in one_error_line(cli("--db", str(db), "rename", "zzz"), 1)
    assert path_state(folder) == before


@pytest.mark.parametrize("old", ["schema2.json", "schema3/club.json"])
def test_a_command_that_records_nothing_leaves_an_older_layout_as_it_was(ok, tmp_path, old):
    """docs/storage.md: only a command that records something upgrades an older layout (and keeps its
    copy); one that says nothing was changed changes nothing, so an older ginscore beside it still reads it."""
    fixture = FIXTURES / old
    for folder in (tmp_path / "old", tmp_path / "copy"):
        if old.startswith("schema3"):
            shutil.copytree(fixture.parent, folder)
        else:
            folder.mkdir()
            shutil.copy(fixture, folder)
    db = ("--db", str(folder.with_name("old") / fixture.name))
    current = ok(*db, "status", "--json").json()["session"]
    ok(*db, "export", "--format", "json", "--output", tmp_path / "export.json")
    ok(*db, "use", current)  # (its lock file is made: that is all)
    folder = folder.with_name("old")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert "nothing was changed" in ok(*db, "rename", current).stdout
    assert "nothing was" in ok(*db, "import", tmp_path / "export.json").stdout
    assert "Nothing was changed" in " ".join(ok(*db, "merge", tmp_path / "copy" / fixture.name).stdout.split())
    ok(*db, "use", current)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_database_of_1_0_without_deal_stake_or_notes_still_reads(ok, db_path, status):
    db_path.write_text(json.dumps({
        "meta": {"1": {"schema_version": 2, "current": "old"}},
        "sessions": {"1": {
            "name": "old", "variant": "standard", "players": ["Ann", "Ben"],
            "rules": {"target": 100, "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": None,
                      "game_bonus": 0, "box_bonus": 0, "shutout": False, "spades_double": False,
                      "ace_means_gin": False},
            "first_dealer": "Ann", "first_roles": None, "created_at": "2026-11-29T20:00:00+01:00",
            "hands": "knock|Ann|4|22||0|2026-11-29T20:00:00+01:00",
        }},
    }))
    doc = status()
    assert doc["rules"]["deal"] == "winner" and doc["rules"]["stake"] == "0" and doc["match"] is None
    assert ok("log", "--json").json()["hands"][0]["note"] is None


EXPECTED_2 = json.loads((FIXTURES / "schema2-expected.json").read_text())


EXPECTED_3 = json.loads((FIXTURES / "schema3-expected.json").read_text())


def _meta(db_path: Path) -> dict:
    return json.loads(db_path.read_text())["meta"]["1"]


def _holds(found, expected) -> bool:
    """``found`` says all that ``expected`` (what an older ginscore said) says; later versions may say more."""
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(k in found and _holds(found[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(_holds, found, expected))
    return found == expected


def test_a_schema_2_file_is_read_as_is_then_upgraded_on_the_first_write_with_a_copy_kept(ok, db_path):
    old = (FIXTURES / "schema2.json").read_bytes()
    db_path.write_bytes(old)
    backup = db_path.with_name("ginscore.json.pre-3.bak") / "ginscore.json"
    before = every_output(ok)  # readers of an old file: read-only, what 1.x said
    assert _holds(before, EXPECTED_2)
    assert db_path.read_bytes() == old and folder_listing(db_path) == ["ginscore.json"]
    ok("use", "okla")  # the first write: it records something (then back, so that every output is as before)
    ok("use", "friday")
    assert backup.read_bytes() == old
    assert _meta(db_path)["schema_version"] == SCHEMA_VERSION == 5
    assert every_output(ok) == before  # every export identical, ids included
    was = {s["name"]: {k: v for k, v in s.items() if k != "hands"} for s in json.loads(old)["sessions"].values()}
    now = {doc["name"]: {k: v for k, v in doc.items() if k not in ("id", "hands")}
           for doc in stored_sessions(db_path).values()}
    assert now == was  # the facts moved whole, each with an id
    for doc in stored_sessions(db_path).values():  # and each hand with who dealt it, given once (H8)
        assert all(keeps_who_dealt(hand) for hand in stored_hands(doc["hands"])), doc["name"]
    ok("hand", "ann", "5", "15")
    assert ok("status", "--json").json()["totals"] == {"Ann": 28, "Ben": 67}
    assert backup.read_bytes() == old  # kept as it was
    assert folder_listing(db_path) == ["ginscore.json", "ginscore.json.lock", "ginscore.json.pre-3.bak"]


def _without_ids(found):
    if isinstance(found, dict):
        return {k: _without_ids(v) for k, v in found.items() if k != "id"}
    if isinstance(found, list):
        return [_without_ids(v) for v in found]
    return found


def test_a_parted_database_is_read_as_it_is_then_upgraded_to_one_file(ok, tmp_path):
    club = parted_copy(tmp_path)
    old = {p.name: p.read_bytes() for p in club.parent.iterdir()}
    db = ("--db", str(club))
    before = every_output(ok, *db)
    for name, export in EXPECTED_3["exports"].items():  # what ginscore 2.x exported, and each session's id
        assert before["export"][name]["ginscore_export"] == 4 and before["export"][name]["session"]["id"]
        session = _without_ids(before["export"][name])["session"]
        for hand in session["hands"]:  # each hand now keeps who dealt it (H8), as its CSV row below says
            hand.pop("dealer", None) or hand.pop("roles")
        assert session == export["session"]
        said = EXPECTED_3["csv"][name].splitlines()  # and its CSV, each row now ending in the session's id
        sid = before["export"][name]["session"]["id"]
        assert ok(*db, "export", "--session", name).stdout.splitlines() == \
            [said[0] + ",session_id"] + [row + "," + sid for row in said[1:]]
    assert before["deleted"] == EXPECTED_3["deleted"] and before["history"] == EXPECTED_3["history"]
    assert before["stats"] == EXPECTED_3["stats"]
    assert {p.name: p.read_bytes() for p in club.parent.iterdir()} == old  # reading changed nothing
    ok(*db, "use", "Holly")  # the first write
    assert every_output(ok, *db) == before | {
        "sessions": [r | {"current": r["name"] == "Holly"} for r in before["sessions"]]}
    kept = club.parent / "club.json.pre-3.bak"
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == old  # every file of the old layout, as it was
    assert folder_listing(club) == ["club.json", "club.json.lock", "club.json.pre-3.bak"]  # one file again
    ok(*db, "hand", "ann", "2", "30", "--session", "Friday")
    assert ok(*db, "status", "--json", "--session", "Friday").json()["hands_played"] == 5


def test_a_parted_database_that_never_held_a_session_reads_as_empty_then_takes_the_first(ok, tmp_path):
    """A ginscore 2.x file made before any session names no part, not even an index: every command
    says there is no session yet, not a traceback, and the first session started upgrades it."""
    club = tmp_path / "club.json"
    main = {"meta": {"1": {"schema_version": 3, "current": None, "write": 1, "files": {}}}}
    club.write_text(json.dumps(main))
    db = ("--db", str(club))
    assert ok(*db, "sessions", "--json").json() == []
    assert "No sessions yet" in ok(*db, "sessions").stdout
    ok(*db, "new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert json.loads((tmp_path / "club.json.pre-3.bak" / "club.json").read_text()) == main
    assert ok(*db, "status", "--json").json()["players"] == ["Ann", "Ben"]


def test_a_part_of_the_parted_layout_that_fails_on_reading_is_named_and_nothing_changes(cli, tmp_path, monkeypatch):
    """An error of the disk comes when a file is read, after it opened: the same one line as a file
    that cannot be opened, not a word about the output."""
    import errno

    import os

    import ginscore.db.atomic as atomic

    club = parted_copy(tmp_path)
    old = {p.name: p.read_bytes() for p in club.parent.iterdir()}

    class FailingRead(io.FileIO):  # (only the part: the main file reads)
        def read(self, size=-1):
            if "facts-" in os.readlink(f"/proc/self/fd/{self.fileno()}"):
                raise OSError(errno.EIO, "Input/output error")
            return super().read(size)

    monkeypatch.setattr(atomic, "open", lambda fd, mode: FailingRead(fd, "r"), raising=False)
    line = one_error_line(cli("--db", str(club), "use", "Holly"), 1)
    assert line.startswith(f"Error: the database {club} ") and "cannot read" in line, line
    assert "Input/output error; move it away" in line and "output could not be written" not in line
    assert {p.name: p.read_bytes() for p in club.parent.iterdir() if p.name != "club.json.lock"} == old


def test_a_part_of_a_2x_database_removed_before_its_upgrade_is_written_stops_it(cli, tmp_path, monkeypatch):
    """A sync client removes one of the files of a 2.x database after ginscore read it, before the upgrade
    writes: nothing is written over what the folder now holds (exit 1, saying the file changed on disk)."""
    import ginscore.db.upgrade

    club = parted_copy(tmp_path)
    main, gone = club.read_bytes(), club.parent / "club.facts-0000-26.json"
    record_dealers = ginscore.db.upgrade.Old.record_dealers

    def removed_meanwhile(self, tables):
        gone.unlink(missing_ok=True)
        return record_dealers(self, tables)

    monkeypatch.setattr(ginscore.db.upgrade.Old, "record_dealers", removed_meanwhile)
    line = one_error_line(cli("--db", str(club), "use", "Holly"), 1)
    assert line == f"Error: the database {club} {CHANGED_ON_DISK}"
    assert club.read_bytes() == main and not gone.exists()

def test_an_upgrade_interrupted_after_its_copy_is_finished_by_the_next_write(ok, tmp_path):
    club = parted_copy(tmp_path)
    kept = club.parent / "club.json.pre-3.bak"
    kept.mkdir()
    (kept / "club.json").write_bytes(club.read_bytes())  # a copy a killed upgrade had made
    ok("--db", str(club), "use", "Threes")
    assert sorted(p.name for p in kept.iterdir()) == sorted(p.name for p in (FIXTURES / "schema3").iterdir())


def test_an_older_database_restored_from_a_backup_is_read_as_it_is(ok, tmp_path):
    club = parted_copy(tmp_path)
    ok("--db", str(club), "use", "Holly")  # upgraded: one file
    ok("--db", str(club), "use", "Friday")
    older = club.parent / "club.json.pre-3.bak"
    for part in older.iterdir():  # the person puts the old folder back beside the new file, by hand
        shutil.copy(part, club.parent / part.name)
    assert ok("--db", str(club), "status", "--json").json()["hands_played"] == 4
    ok("--db", str(club), "hand", "ann", "1", "30")  # writes the one file, reads the old one as it is
    assert ok("--db", str(club), "status", "--json").json()["hands_played"] == 5


# The ids a 1.x file's sessions are given, from what never changes in them: another machine that upgrades
# the same old file gives the same ones, so the two copies merge session by session, never doubled.
SCHEMA_2_IDS = {"friday": "s-a1cf6a1a5c1fe538e209b486", "okla": "s-6f96a9a79ea0222ebbe1567b",
                "holly": "s-c43bb047dac6ed639dbd9904", "trio": "s-d894b20458f811510e9cd4a9",
                "short": "s-11e720e2e4d5c57256e69a2c", "cards": "s-9754be72dc873d3df0036b88",
                "sem;i|colon%": "s-40c0c4a59e1896bb3cc004c8"}


def test_the_sessions_of_a_1_x_file_get_the_ids_every_machine_gives_them(ok, db_path, tmp_path):
    db_path.write_bytes((FIXTURES / "schema2.json").read_bytes())
    ok("use", "okla")  # the upgrading write (friday is current: `use friday` would change nothing)
    assert {doc["name"]: doc["id"] for doc in stored_sessions(db_path).values()} == SCHEMA_2_IDS
    doc = json.loads(ok("export", "--session", "friday", "--format", "json").stdout)
    for hand in doc["session"].pop("hands"):
        assert hand.pop("dealer")
    del doc["session"]["id"]
    (tmp_path / "old-export.json").write_text(json.dumps(doc | {"ginscore_export": 2}))  # as 1.x exported it
    assert "Already here" in ok("import", tmp_path / "old-export.json").stdout


def test_a_1_x_session_that_already_has_an_id_keeps_it(ok, db_path):
    """An id in a 1.x file (a file edited by hand, or put back from a later ginscore) is the session's own:
    the upgrade never gives it another, which would make it a stranger to every other machine."""
    old = json.loads((FIXTURES / "schema2.json").read_bytes())
    old["sessions"]["1"]["id"] = "s-0123456789abcdef01234567"
    db_path.write_text(json.dumps(old))
    ok("use", "okla")
    assert stored_sessions(db_path)["1"]["id"] == "s-0123456789abcdef01234567"


def test_a_1_x_session_whose_id_was_edited_into_a_list_is_named_and_the_others_upgrade(ok, cli, db_path):
    """An id edited by hand into what is no id (a list) is a damaged session, named like any other: the
    upgrade keeps it as it was, and every other session still works, never a traceback."""
    old = json.loads((FIXTURES / "schema2.json").read_bytes())
    old["sessions"]["2"]["id"] = ["s-0123456789abcdef01234567"]
    db_path.write_text(json.dumps(old))
    ok(*HAND)  # into friday, the current one: the upgrading write
    assert ok("status", "--json").json()["hands_played"] == 5
    assert stored_sessions(db_path)["2"] == old["sessions"]["2"]
    line = one_error_line(cli("status", "--session", "okla"), 1)
    assert "has a damaged session 'okla'" in line and "is not a session id ginscore makes" in line, line


def test_a_1_x_file_with_no_current_session_has_none_after_its_upgrade(ok, cli, db_path):
    """A 1.x file that names no current session: its upgrade never makes one current, not even a session
    whose name an edit by hand took away, so `status` still asks which session to use."""
    old = json.loads((FIXTURES / "schema2.json").read_bytes())
    old["meta"]["1"]["current"] = None
    del old["sessions"]["2"]["name"]
    db_path.write_text(json.dumps(old))
    assert "no session is current" in one_error_line(cli("status"), 2)
    ok(*HAND, "--session", "friday")  # the upgrading write
    assert _meta(db_path) == {"schema_version": SCHEMA_VERSION, "current": None}
    assert "no session is current" in one_error_line(cli("status"), 2)


def test_two_sessions_of_a_1_x_file_alike_in_every_fixed_field_get_two_ids(ok, db_path):
    old = json.loads((FIXTURES / "schema2.json").read_bytes())
    twin = dict(old["sessions"]["1"], name="friday again")  # the name is not a fixed field: it can be renamed
    old["sessions"]["8"] = twin
    db_path.write_text(json.dumps(old))
    ok("use", "okla")
    ids = {doc["name"]: doc["id"] for doc in stored_sessions(db_path).values()}
    assert ids["friday"] == SCHEMA_2_IDS["friday"] and ids["friday again"] not in SCHEMA_2_IDS.values()


def test_the_current_session_of_a_1_x_file_is_the_live_one_of_its_name_not_a_deleted_one(ok, db_path):
    """A 1.x file kept its current session by name: a deleted 'friday' before the live one of that
    name, and the hand goes to the live one, never into the deleted session."""
    old = json.loads((FIXTURES / "schema2.json").read_bytes())
    sessions = old["sessions"]
    sessions["1"]["deleted_at"] = "2026-11-30T10:00:00+00:00"
    sessions["8"] = dict(sessions["2"], name="friday", created_at="2026-11-30T11:00:00+00:00")  # Oklahoma
    db_path.write_text(json.dumps(old))
    status = ok("status", "--json").json()
    assert (status["variant"], status["hands_played"]) == ("oklahoma", 2)
    ok("hand", "ann", "3", "20", "--upcard", "9s")
    assert ok("status", "--json").json()["hands_played"] == 3
    deleted = next(doc for doc in stored_sessions(db_path).values() if doc.get("deleted_at"))
    assert len(stored_hands(deleted["hands"])) == 4


@pytest.mark.parametrize("facts", [b"[]", b'{"sessions": []}', b'{"sessions": {"1": 5}}', b'{"sessions": null}'])
def test_a_damaged_part_of_the_parted_layout_is_named_not_a_traceback(cli, tmp_path, facts):
    club = parted_copy(tmp_path)
    (club.parent / "club.facts-0000-26.json").write_bytes(facts)
    old = {p.name: p.read_bytes() for p in club.parent.iterdir()}
    line = one_error_line(cli("--db", str(club), "sessions"), 1)
    assert f"has a damaged file {club.parent / 'club.facts-0000-26.json'}; it was left as it is" in line
    assert {p.name: p.read_bytes() for p in club.parent.iterdir()} == old


def _named_and_left_as_it_is(cli, club: Path, said: str) -> None:
    """Every command names what is wrong with the 2.x database in one line, and nothing in its folder changes."""
    before = {p.name: path_state(p) for p in club.parent.iterdir()}
    for command in (["sessions"], ["use", "Holly"]):
        assert one_error_line(cli("--db", str(club), *command), 1) == f"Error: the database {club} {said}"
    assert {p.name: path_state(p) for p in club.parent.iterdir() if p.name != "club.json.lock"} == before


@pytest.mark.parametrize("part, said", [
    ("missing", "names a file that is not there ({path}); restore the folder from a copy"),
    ("a link", "cannot read {path}: Too many levels of symbolic links; move it away"),
    ("a FIFO", "names {path}, which is not a regular file; move it away"),
    ("a folder", "names {path}, which is not a regular file; move it away"),
], ids=["missing", "a link", "a FIFO", "a folder"])
def test_a_part_of_the_parted_layout_gone_or_not_a_file_is_named_not_a_traceback(cli, tmp_path, part, said):
    """A part of a 2.x database lost in a copy, or a link, a FIFO or a folder in its place: every command names
    it in one line, and nothing in the folder changes."""
    import os

    club = parted_copy(tmp_path)
    facts = club.parent / "club.facts-0000-26.json"
    facts.unlink()
    if part == "a link":
        (club.parent / "elsewhere.json").write_bytes((FIXTURES / "schema3" / facts.name).read_bytes())
        facts.symlink_to("elsewhere.json")
    elif part == "a FIFO":
        os.mkfifo(facts)
    elif part == "a folder":  # (it was said to be the output that could not be written)
        facts.mkdir()
    _named_and_left_as_it_is(cli, club, said.format(path=facts))


@pytest.mark.parametrize("files", [None, [1], {"facts-0000": "26", "summary-0000": 26, "tally-0000": 26, "index": 25},
                                   {"facts-0000": 26, "summary-0000": 26, "tally-0000": 26}],
                         ids=["null", "a list", "a part's number as text", "no index"])
def test_a_parted_main_file_whose_list_of_parts_is_damaged_is_named_not_a_traceback(cli, tmp_path, files):
    """The main file of a 2.x database lists its parts by number: a list edited into something else is
    named in one line, and nothing in the folder changes. Without the index, which lists the sessions,
    the database would read as holding none."""
    club = parted_copy(tmp_path)
    data = json.loads(club.read_bytes())
    data["meta"]["1"]["files"] = files
    club.write_text(json.dumps(data))
    _named_and_left_as_it_is(cli, club, "is a ginscore 2 database whose main file is damaged; it was left as it is")


@pytest.mark.parametrize("index, said", [
    ({"ids": 5}, "has a damaged index beside it; it was left as it is"),
    ({"parts": 5}, "has a damaged index beside it; it was left as it is"),
    ({"ids": list(range(1, 10))}, "has a damaged index beside it; it was left as it is"),
    ({"ids": list(range(1, 10)), "parts": [0] * 9}, "lists a session that is not in its part (facts-0000)"),
], ids=["ids a number", "parts a number", "more ids than parts", "an id in no part"])
def test_a_damaged_index_of_the_parted_layout_is_named_not_a_traceback(cli, tmp_path, index, said):
    """The index beside a 2.x database lists each session's id and part: one edited into something else,
    or listing a session its part does not hold, is named in one line, and nothing in the folder changes."""
    club = parted_copy(tmp_path)
    kept = club.parent / "club.index-25.json"
    data = json.loads(kept.read_bytes())
    data["index"]["1"].update(index)
    kept.write_text(json.dumps(data))
    _named_and_left_as_it_is(cli, club, said)


def test_the_copy_an_upgrade_keeps_is_for_its_owner_alone(ok, db_path):
    """Every old session is in it: others may not even look in (as a umask would allow)."""
    import os

    db_path.write_bytes((FIXTURES / "schema4.json").read_bytes())
    was = os.umask(0o022)
    try:
        ok("draw")
    finally:
        os.umask(was)
    assert stat.S_IMODE(db_path.with_name("ginscore.json.pre-4.bak").stat().st_mode) == 0o700
