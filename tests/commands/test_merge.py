"""`ginscore merge` (and `import` of a session already here): sessions matched by id; a change of
house rules from the next hand on (H8) travels as a later fact, like a later hand."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import FIXTURES, run_cli, stored_sessions, unwrapped


def _one_line(result, status: int) -> str:
    assert result.exit_code == status, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in result.stderr
    return lines[0]


def _export(ok, tmp_path: Path, name: str, *db) -> Path:
    path = tmp_path / name
    path.write_text(ok(*db, "export", "-f", "json").stdout)
    return path


def _evening(ok, *db) -> None:
    ok(*db, "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    ok(*db, "hand", "ann", "4", "22")
    ok(*db, "hand", "ben", "0", "30")


def test_import_of_a_session_already_here_writes_nothing(ok, db_path, tmp_path):
    _evening(ok)
    export = _export(ok, tmp_path, "friday.json")
    before = db_path.read_bytes()
    out = " ".join(ok("import", str(export)).stdout.split())
    assert out.startswith("Already here:") and "'friday', with its 2 hands;" in out
    assert db_path.read_bytes() == before
    out = " ".join(ok("import", str(export), "--name", "sat night").stdout.split())  # not silently dropped
    assert "--name only names a new session; `ginscore rename --session friday \"sat night\"` renames" in out
    assert db_path.read_bytes() == before


def test_import_of_fewer_hands_of_a_session_here_writes_nothing(ok, db_path, tmp_path):
    _evening(ok)
    ok("undo", "--yes")
    short = _export(ok, tmp_path, "short.json")
    ok("hand", "ben", "0", "30")
    before = db_path.read_bytes()
    said = " ".join(ok("import", str(short)).stdout.split())  # the file's count, not only ours
    assert "Already here" in said and "with the first 1 hand of its 2 here; nothing was written" in said
    assert db_path.read_bytes() == before and ok("status", "--json").json()["hands_played"] == 2


def test_import_of_more_hands_adds_the_later_ones(ok, db_path, tmp_path):
    _evening(ok)
    other = ("--db", str(tmp_path / "laptop.json"))
    ok(*other, "import", str(_export(ok, tmp_path, "friday.json")))
    ok(*other, "hand", "ann", "3", "9")
    ok(*other, "draw")
    longer = _export(ok, tmp_path, "longer.json", *other)
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    out = unwrapped(ok("import", str(longer)).stdout)
    assert "alreadyhere" in out and "4handsnow" in out
    assert ok("status", "--json").json()["session"] == "friday"  # made current
    assert ok("log", "--json").json()["hands"] == ok(*other, "log", "--json").json()["hands"]
    assert len(ok("sessions", "--json").json()) == 2


def test_import_of_a_session_that_diverged_is_refused_naming_the_hand(cli, ok, db_path, tmp_path):
    _evening(ok)
    other = ("--db", str(tmp_path / "laptop.json"))
    ok(*other, "import", str(_export(ok, tmp_path, "friday.json")))
    ok(*other, "edit", "2", "ben", "0", "25")
    diverged = _export(ok, tmp_path, "diverged.json", *other)
    before = db_path.read_bytes()
    line = _one_line(cli("import", str(diverged)), 1)
    assert "hand 2 differs" in line and "--as-copy" in line and "diverged.json" in line
    assert db_path.read_bytes() == before
    ok("import", str(diverged), "--as-copy")  # all the same, as a new session
    sessions = stored_sessions(db_path)
    assert len(sessions) == 2 and sessions["1"]["id"] != sessions["2"]["id"]
    assert [s["name"] for s in sessions.values()] == ["friday", "friday-2"]


def test_as_copy_makes_a_new_session_outside_any_match(ok, db_path, tmp_path):
    _evening(ok)
    ok("rematch", "--yes")
    ok("hand", "ann", "2", "30")
    export = _export(ok, tmp_path, "rematch.json")
    assert json.loads(export.read_text())["session"]["match"]
    ok("import", str(export), "--as-copy", "--name", "again")
    copy = json.loads(ok("export", "-f", "json", "--session", "again").stdout)["session"]
    assert "match" not in copy and copy["id"] != json.loads(export.read_text())["session"]["id"]
    assert ok("status", "--json").json()["session"] == "again"


def test_an_old_export_without_an_id_is_imported_once(ok, db_path, tmp_path):
    _evening(ok)
    doc = json.loads(ok("export", "-f", "json").stdout)
    del doc["session"]["id"]
    doc["ginscore_export"] = 1
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", str(old))
    before = (tmp_path / "other.json").read_bytes()
    assert "Already here" in ok(*other, "import", str(old)).stdout
    assert (tmp_path / "other.json").read_bytes() == before


def test_a_csv_imported_twice_is_one_session(ok, db_path, tmp_path):
    _evening(ok)
    csv = tmp_path / "friday.csv"
    csv.write_text(ok("export").stdout)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", str(csv), "--variant", "standard")
    before = (tmp_path / "other.json").read_bytes()
    assert "Already here" in ok(*other, "import", str(csv), "--variant", "standard").stdout
    assert (tmp_path / "other.json").read_bytes() == before


def _csv(ok, tmp_path: Path, name: str, *db) -> Path:
    path = tmp_path / name
    path.write_text(ok(*db, "export").stdout)
    return path


def test_a_csv_carries_its_session_id_so_it_comes_home_as_the_same_session(cli, ok, db_path, tmp_path):
    """A CSV exported from this very database is this session: nothing twice, its later hands added
    where ours are its first (as a JSON export), read with the session's own rules (a CSV has none)."""
    _evening(ok)
    ok("house", "--target", "150", "--gin-bonus", "20", "--from-start")
    short = _csv(ok, tmp_path, "short.csv")
    sid = json.loads(ok("export", "-f", "json").stdout)["session"]["id"]
    assert all(row.endswith("," + sid) for row in short.read_text().splitlines()[1:])
    before = db_path.read_bytes()
    assert "Already here" in ok("import", str(short)).stdout  # its own database: its own rules
    assert "Already here" in ok("import", str(short), "--target", "150", "--gin-bonus", "20").stdout
    for other_rules in (["--gin-bonus", "20"], ["--variant", "oklahoma"]):  # what the session here does not say
        line = _one_line(cli("import", str(short), *other_rules), 2)
        assert "is session 'friday' here, read with its own variant and house rules; leave out" in line
    assert db_path.read_bytes() == before
    other = ("--db", str(tmp_path / "laptop.json"))
    ok(*other, "import", str(short), "--target", "150", "--gin-bonus", "20")
    ok("hand", "ann", "3", "9")
    longer = _csv(ok, tmp_path, "longer.csv")
    out = " ".join(ok(*other, "import", str(longer)).stdout.split())
    assert "was already here: added the later hands" in out and "3 hands now" in out
    assert ok(*other, "log", "--json").json()["hands"] == ok("log", "--json").json()["hands"]
    assert len(ok(*other, "sessions", "--json").json()) == 1
    assert "already here 1" in ok("merge", str(tmp_path / "laptop.json")).stdout  # one session, both ways
    ok(*other, "import", str(longer), "--as-copy")  # all the same, as a new session
    assert [s["name"] for s in ok(*other, "sessions", "--json").json()] == ["standard-1", "standard-2"]  # (a CSV has no name)


def test_an_oklahoma_csv_imported_without_its_variant_says_to_add_it(cli, ok, tmp_path):
    """A CSV does not say its variant (R15's upcards are in it, but a standard game may keep them
    too): read as standard, an Oklahoma game's scores or house rules do not fit, and the one line
    says to add --variant oklahoma, never only to leave its Oklahoma rules out."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--spades-double")
    ok("hand", "ann", "2", "20", "--upcard", "4s")  # 18 x 2 (H4)
    ok("hand", "ben", "1", "9", "--upcard", "5h")
    csv = tmp_path / "oklahoma.csv"
    csv.write_text(ok("export").stdout)
    other = ("--db", str(tmp_path / "other.json"))
    for rules in ([], ["--spades-double"]):
        line = _one_line(cli(*other, "import", str(csv), *rules), 2)
        assert line.endswith("if it was an Oklahoma game (its hands have upcards), add --variant oklahoma"), line
        assert not (tmp_path / "other.json").exists()
    assert "Imported 2 hands" in ok(*other, "import", str(csv), "--variant", "oklahoma", "--spades-double").stdout
    _evening(ok, *other)  # a standard game without upcards that does not add up gets no such hint
    plain = tmp_path / "friday.csv"
    plain.write_text(ok(*other, "export").stdout)
    assert "--variant" not in _one_line(cli("import", str(plain), "--gin-bonus", "20"), 2)
    # a standard game's CSV read as Oklahoma: its hands have no upcard, which `import` cannot be given
    line = _one_line(cli("--db", str(tmp_path / "third.json"), "import", str(plain), "--variant", "oklahoma"), 2)
    assert line == (f"Error: {plain} does not add up at hand 1: it has no upcard, which Oklahoma needs, as it sets "
                    "the knock limit (R15); fill in its upcard cell, or import it without --variant oklahoma"), line


def test_an_imported_name_taken_here_is_shortened_before_its_suffix(ok, db_path, tmp_path):
    long = "x" * 200
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", long)
    export = _export(ok, tmp_path, "long.json")
    ok("import", str(export), "--as-copy")
    names = [s["name"] for s in stored_sessions(db_path).values()]
    assert names == [long, "x" * 198 + "-2"] and all(len(n) <= 200 for n in names)


def test_a_csv_imported_is_named_as_new_names_a_session_never_a_deleted_ones_name(ok, tmp_path):
    """A CSV has no name: it gets the one `new` would give, which skips the names deleted sessions
    keep (else `restore standard-1` would meet a second standard-1)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    csv = _csv(ok, tmp_path, "a.csv")
    ok("delete", "--yes")
    assert unwrapped("as 'standard-2'") in unwrapped(ok("import", str(csv), "--as-copy").stdout)
    assert "Restored 'standard-1'" in " ".join(ok("restore", "standard-1").stdout.split())


def test_merging_two_copies_that_each_recorded_hands(ok, db_path, tmp_path):
    _evening(ok)
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ben", "--name", "holly")
    phone = tmp_path / "phone.json"
    shutil.copy(db_path, phone)
    ph = ("--db", str(phone))
    ok("hand", "ann", "2", "20", "--session", "friday")  # the laptop goes on with friday
    ok(*ph, "hand", "ben", "0", "12", "--session", "holly")  # the phone with holly
    ok(*ph, "new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--name", "threes")
    laptop = tmp_path / "laptop.json"
    shutil.copy(db_path, laptop)
    out = ok("merge", str(phone)).stdout
    assert "added 1" in out and "extended 1" in out and "threes" in out and "holly" in out
    ok(*ph, "merge", str(laptop))
    for name in ("friday", "holly", "threes"):
        ours = ok("log", "--json", "--session", name).json()
        assert ours == ok(*ph, "log", "--json", "--session", name).json()
    assert ok("status", "--json", "--session", "friday").json()["hands_played"] == 3
    assert ok("status", "--json", "--session", "holly").json()["hands_played"] == 1
    ids = sorted(s["id"] for s in stored_sessions(db_path).values())
    assert ids == sorted(s["id"] for s in stored_sessions(phone).values()) and len(ids) == 3


def test_a_new_laptop_merging_the_phones_file_keeps_score_in_the_phones_current_session(ok, cli, db_path, tmp_path):
    """Merged into a database with none current, the session current there (added by the merge) is current
    here, as `import` makes its session current; `status` said "no session is current" instead."""
    phone = ("--db", str(tmp_path / "phone.json"))
    _evening(ok, *phone)
    ok(*phone, "new", "oklahoma", "Ann", "Cy", "--dealer", "Cy", "--name", "okla")
    ok(*phone, "use", "friday")
    out = ok("merge", str(tmp_path / "phone.json")).stdout
    assert out.endswith("Now keeping score in 'friday', current there (none was here).\n"), out
    assert ok("status", "--json").json()["session"] == "friday"
    ok("delete", "friday", "--yes")  # none current again, but nothing added by the merge: nothing changes
    before = db_path.read_bytes()
    assert "Now keeping score" not in ok("merge", str(tmp_path / "phone.json")).stdout
    assert db_path.read_bytes() == before and cli("status").exit_code == 2
    ok("new", "standard", "Di", "Ed", "--dealer", "di", "--name", "mine")  # one current here: it stays
    ok("--db", str(tmp_path / "other.json"), "new", "standard", "Fay", "Gus", "--dealer", "fay")
    assert ok("merge", str(tmp_path / "other.json"), "--json").json()["made_current"] is None
    assert ok("status", "--json").json()["session"] == "mine"


def test_the_session_made_current_by_a_merge_is_said_by_its_name_here_and_there(ok, tmp_path):
    """Their 'friday' added as 'friday (merged)' (a 'friday' of ours is here, none current): the report
    names both, and --json says what the words say."""
    for db in ("laptop.json", "phone.json"):
        ok("--db", tmp_path / db, "new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("--db", tmp_path / "laptop.json", "new", "standard", "Cy", "Dee", "--dealer", "cy", "--name", "other")
    ok("--db", tmp_path / "laptop.json", "delete", "other", "--yes")  # none current here now
    laptop, kept = ("--db", tmp_path / "laptop.json"), tmp_path / "kept.json"
    kept.write_bytes((tmp_path / "laptop.json").read_bytes())
    out = " ".join(ok(*laptop, "merge", tmp_path / "phone.json").stdout.split())
    assert "Now keeping score in 'friday (merged)', current there as 'friday' (none was here)." in out
    (tmp_path / "laptop.json").write_bytes(kept.read_bytes())
    assert ok(*laptop, "merge", tmp_path / "phone.json", "--json").json()["made_current"] == {
        "name": "friday (merged)", "name_there": "friday"}


def test_hands_merged_into_a_session_deleted_here_say_how_to_see_them(ok, db_path, tmp_path):
    """The later hands go in (a deletion is only a mark), but the session is out of every list
    here: the report says so, and how to bring it back."""
    _evening(ok)
    phone = tmp_path / "phone.json"
    shutil.copy(db_path, phone)
    ok("--db", str(phone), "hand", "ann", "2", "20", "--session", "friday")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "other")
    ok("delete", "friday", "--yes")
    out = ok("merge", str(phone)).stdout
    assert "hand 3 from there (it is deleted here: `ginscore restore friday` brings it back)" in " ".join(out.split())
    report = ok("merge", str(phone), "--json").json()  # again: nothing more to add
    assert report["extended"] == [] and {"name": "friday", "hands": 3} in report["kept"]
    ok("restore", "friday")
    assert ok("status", "--json", "--session", "friday").json()["hands_played"] == 3


def test_a_merge_report_says_whether_an_extended_session_is_deleted_here(ok, db_path, tmp_path):
    _evening(ok)
    phone = tmp_path / "phone.json"
    shutil.copy(db_path, phone)
    ok("--db", str(phone), "hand", "ann", "2", "20", "--session", "friday")
    assert ok("merge", str(phone), "--json").json()["extended"] == [
        {"name": "friday", "hands_added": 1, "hands": 3, "deleted": False}]
    assert "deleted here" not in ok("merge", str(phone)).stdout


def test_merging_the_same_file_again_changes_nothing(ok, db_path, tmp_path):
    _evening(ok)
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "oklahoma", "Ann", "Cy", "--dealer", "Cy")
    ok("merge", str(other))
    before = db_path.read_bytes()
    report = ok("merge", str(other), "--json").json()
    assert db_path.read_bytes() == before
    assert report == {"file": str(other), "added": [], "extended": [], "copied": [],
                      "kept": [{"name": "oklahoma-1", "hands": 0}], "linked": [], "skipped": [], "made_current": None}


def test_a_diverged_session_refuses_the_whole_merge_unless_both_are_kept(cli, ok, db_path, tmp_path):
    _evening(ok)
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "only there")
    ok("--db", str(other), "edit", "1", "ann", "5", "22", "--session", "friday")
    before = db_path.read_bytes()
    line = _one_line(cli("merge", str(other)), 1)
    assert "'friday'" in line and "hand 1 differs" in line and "--keep-both" in line
    assert line.endswith("keeps theirs as a copy named 'friday (merged)'")
    assert db_path.read_bytes() == before  # not even the session only there was added
    report = ok("merge", str(other), "--keep-both", "--json").json()
    assert [r["name"] for r in report["added"]] == ["only there"]
    assert report["copied"] == [{"name": "friday (merged)", "of": "friday", "hand": 1, "deleted": False}]
    assert ok("log", "--json", "--session", "friday (merged)").json()["hands"][0]["knocker_deadwood"] == 5
    assert ok("log", "--json", "--session", "friday").json()["hands"][0]["knocker_deadwood"] == 4
    kept = db_path.read_bytes()
    report = ok("merge", str(other), "--json").json()  # theirs is kept here already: nothing to refuse
    assert report["added"] == report["copied"] == [] and db_path.read_bytes() == kept
    ok("--db", str(other), "edit", "1", "ann", "6", "22", "--session", "friday")
    line = _one_line(cli("merge", str(other)), 1)  # the copy it would make is the one it names
    assert line.endswith("keeps theirs as a copy named 'friday (merged 2)'") and db_path.read_bytes() == kept
    report = ok("merge", str(other), "--keep-both", "--json").json()
    assert report["copied"][0]["name"] == "friday (merged 2)"
    db_path.write_bytes(kept)  # as before that merge: what people read of the same one
    said = " ".join(ok("merge", str(other), "--keep-both").stdout.split())
    assert "copied 'friday (merged 2)': theirs of 'friday', which differs from hand 1; both count in stats and " \
           "ratings until one is deleted (`ginscore delete \"friday (merged 2)\"` or the other)" in said


@pytest.mark.parametrize(("their_hands", "counted"), [
    (0, "neither counts in stats or ratings, having no hands"),
    (1, "only the one with hands counts in stats and ratings"),
])
def test_a_copy_kept_of_a_session_with_no_hands_says_what_counts_in_stats(ok, db_path, tmp_path, their_hands,
                                                                          counted):
    """A session just started counts in no stats (docs/commands.md): a copy kept beside one says so."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "sat")
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "house", "--gin-bonus", "20")  # before its first hand: the two now differ
    for _ in range(their_hands):
        ok("--db", str(other), "hand", "ann", "4", "22")
    said = " ".join(ok("merge", str(other), "--keep-both").stdout.split())
    assert f"copied 'sat (merged)': theirs of 'sat', which differs; {counted} (`ginscore delete \"sat (merged)\"` " \
           "or the other)" in said


def test_a_copy_kept_of_a_record_deleted_there_stays_deleted_and_its_deletion_is_not_ours(ok, db_path, tmp_path):
    """The phone played on from a wrong hand 1 and deleted that record; the laptop corrected hand 1. Kept
    both, the phone's record comes as a deleted copy (as a session only there keeps its deletion), counts
    in no stats, and its deletion is not advised for the laptop's own record."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("hand", "ann", "5", "20")
    phone = tmp_path / "phone.json"
    shutil.copy(db_path, phone)
    ok("edit", "1", "ann", "5", "25")
    ok("--db", str(phone), "hand", "ben", "0", "10")
    ok("--db", str(phone), "delete", "fri", "--yes")
    before = db_path.read_bytes()
    report = ok("merge", str(phone), "--keep-both", "--json").json()
    assert report["copied"] == [{"name": "fri (merged)", "of": "fri", "hand": 1, "deleted": True}]
    assert report["skipped"] == []
    assert [row["name"] for row in ok("sessions", "--json").json()] == ["fri"]
    assert ok("stats", "--json").json()["players"]["Ann"]["sessions"] == 1
    db_path.write_bytes(before)
    said = " ".join(ok("merge", str(phone), "--keep-both").stdout.split())
    assert "copied 'fri (merged)': theirs of 'fri', which differs from hand 1; it was deleted there, so it is " \
           "deleted here (`ginscore restore \"fri (merged)\"` brings it back)" in said
    assert "skipped" not in said and "`ginscore delete fri`" not in said
    assert "Nothing was changed." in " ".join(ok("merge", str(phone), "--keep-both").stdout.split())
    ok("restore", "fri (merged)")
    assert ok("status", "--json").json()["hands_played"] == 2


def test_a_game_rematched_on_two_laptops_is_one_match_on_the_phone_whatever_came_first_r5(ok, db_path, tmp_path):
    """Both laptops start a rematch of the finished game g1; the phone gets one rematch by its export,
    then merges each laptop: one match of the three games, as on a laptop that merges the other, and
    the same whichever order the phone took them in (import, merge) or however often."""
    x, y = ("--db", str(tmp_path / "x.json")), ("--db", str(tmp_path / "y.json"))
    ok(*x, "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "g1")
    ok(*x, "hand", "ann", "0", "80")
    shutil.copy(tmp_path / "x.json", tmp_path / "y.json")
    ok(*x, "rematch", "--name", "g2")
    ok(*x, "hand", "ben", "5", "9")
    ok(*y, "rematch", "--name", "g3")
    ok(*x, "export", "--session", "g2", "--format", "json", "--output", str(tmp_path / "g2.json"))
    ok("import", str(tmp_path / "g2.json"))
    ok("merge", str(tmp_path / "y.json"))
    report = ok("merge", str(tmp_path / "x.json"), "--json").json()
    assert {row["name"] for row in report["linked"]} in ({"g2"}, {"g1", "g3"})  # (whichever id is kept)
    assert sorted(ok("status", "--json", "--session", "g2").json()["match"]["sessions"]) == ["g1", "g2", "g3"]
    assert ok("status", "--json", "--session", "g2").json()["match"]["games_won"] == {"Ann": 1, "Ben": 0}
    kept = db_path.read_bytes()
    ok("merge", str(tmp_path / "x.json"))
    ok("merge", str(tmp_path / "y.json"))
    assert db_path.read_bytes() == kept
    phone = ("--db", str(tmp_path / "phone.json"))  # the rematch's export, then the game's from the other laptop
    ok(*y, "export", "--session", "g1", "--format", "json", "--output", str(tmp_path / "g1.json"))
    ok(*phone, "import", str(tmp_path / "g2.json"))
    ok(*phone, "import", str(tmp_path / "g1.json"))
    said = " ".join(ok(*phone, "import", str(tmp_path / "g1.json")).stdout.split())  # the same game, in g2's match
    assert "nothing was written" in said
    ok(*x, "export", "--session", "g1", "--format", "json", "--output", str(tmp_path / "g1x.json"))
    said = " ".join(ok(*phone, "import", str(tmp_path / "g1x.json")).stdout.split())
    assert "it joins the match it is in there" in said
    assert sorted(ok(*phone, "status", "--json", "--session", "g1").json()["match"]["sessions"]) == ["g1", "g2"]


def test_renames_and_deletions_made_only_there_are_reported_not_applied(ok, db_path, tmp_path):
    _evening(ok)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "saturday")
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "rename", "--session", "friday", "vendredi")
    ok("--db", str(other), "delete", "saturday", "--yes")
    before = db_path.read_bytes()
    report = ok("merge", str(other), "--json").json()
    assert report["skipped"] == [{"name": "friday", "why": "named 'vendredi' there", "deleted": False},
                                 {"name": "saturday", "why": "deleted there", "deleted": False}]
    assert db_path.read_bytes() == before
    said = ok("merge", str(other)).stdout
    assert "kept as named here; `ginscore rename --session friday NEW` renames it" in " ".join(said.split())
    assert "not applied here; `ginscore delete saturday` does it" in " ".join(said.split())


def test_a_name_differing_in_an_older_backup_of_a_session_deleted_here_gives_no_advice_that_fails(ok, db_path,
                                                                                                  tmp_path):
    """Renamed and deleted here after the backup was taken: the backup's other name is said as
    what it is there (who renamed it cannot be told), with no command that would be refused."""
    _evening(ok)
    backup = tmp_path / "backup.json"
    shutil.copy(db_path, backup)
    ok("rename", "--session", "friday", "old")
    ok("delete", "old", "--yes")
    report = ok("merge", str(backup), "--json").json()
    assert report["skipped"] == [{"name": "old", "why": "named 'friday' there", "deleted": True}]
    said = " ".join(ok("merge", str(backup)).stdout.split())
    assert "'old': named 'friday' there (not applied here, where it is deleted)" in said and "`" not in said


def test_a_session_damaged_here_is_skipped_and_the_rest_merged(cli, ok, db_path, tmp_path):
    """A session damaged here (edited by hand), deleted or not, is left as it is, as every command
    leaves it: their record of it is not compared with it, and their other sessions come in."""
    _evening(ok)
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "bad")
    ok("hand", "cy", "1", "5", "--session", "bad")
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "hand", "ann", "2", "9", "--session", "friday")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    bad = next(d for d in data["sessions"].values() if d["name"] == "bad")
    bad["hands"] = bad["hands"].replace("|1|5|", "|1|X|")
    db_path.write_text(json.dumps(data), encoding="utf-8")
    for deleted in (False, True):
        if deleted:
            ok("delete", "bad", "--yes")
        before = db_path.read_bytes()
        report = ok("merge", str(other), "--json").json()
        assert report["skipped"] == [{"name": "bad", "why": "damaged here, so theirs was not compared",
                                      "deleted": deleted}]
        assert [row["name"] for row in report["extended"]] == ["friday"]
        assert "mend it in this file, then merge again" in " ".join(ok("merge", str(other)).stdout.split())
        merged = json.loads(db_path.read_text(encoding="utf-8"))["sessions"].values()
        assert next(d for d in merged if d["name"] == "bad")["hands"] == bad["hands"]  # still as it was
        db_path.write_bytes(before)


def test_a_session_only_there_whose_name_is_taken_here_comes_in_as_merged(ok, db_path, tmp_path):
    _evening(ok)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "friday")
    ok(*other, "new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "gone")
    ok(*other, "delete", "gone", "--yes")
    report = ok("merge", str(tmp_path / "other.json"), "--json").json()
    assert report["added"] == [{"name": "friday (merged)", "hands": 0, "deleted": False},
                               {"name": "gone", "hands": 0, "deleted": True}]
    assert [r["name"] for r in ok("sessions", "--deleted", "--json").json()] == ["gone"]


def test_merge_reads_every_older_layout(ok, db_path, tmp_path):
    ok("new", "standard", "Zed", "Yan", "--dealer", "Zed")
    folder = tmp_path / "old"
    shutil.copytree(FIXTURES / "schema3", folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    report = ok("merge", str(folder / "club.json"), "--json").json()
    assert len(report["added"]) == 8 and {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert ok("merge", str(folder / "club.json"), "--json").json()["added"] == []
    old2 = tmp_path / "old2.json"
    old2.write_bytes((FIXTURES / "schema2.json").read_bytes())
    assert ok("merge", str(old2), "--json").json()["added"]
    assert old2.read_bytes() == (FIXTURES / "schema2.json").read_bytes()


def test_a_copy_of_a_parted_database_upgraded_apart_merges_as_one(ok, tmp_path):
    """Two machines that each upgraded their copy of one 2.x database give its sessions the same ids."""
    for name in ("a", "b"):
        shutil.copytree(FIXTURES / "schema3", tmp_path / name)
        ok("--db", str(tmp_path / name / "club.json"), "hand", "ann", "1", "30", "--session", "Friday") if name == "a" \
            else ok("--db", str(tmp_path / name / "club.json"), "use", "Friday")
    report = ok("--db", str(tmp_path / "b" / "club.json"), "merge", str(tmp_path / "a" / "club.json"), "--json").json()
    assert report["added"] == [] and report["extended"] == [{"name": "Friday", "hands_added": 1, "hands": 5, "deleted": False}]


def test_merge_refuses_itself_a_missing_file_and_what_is_not_a_database(cli, ok, db_path, tmp_path):
    """Their file missing, not JSON, not a ginscore database or damaged is bad input, refused with exit
    2 as a bad file to `import` is (docs/commands.md): exit 1 would say this database cannot be used."""
    _evening(ok)
    before = db_path.read_bytes()
    assert "is this database" in _one_line(cli("merge", str(db_path)), 2)
    assert "no file" in _one_line(cli("merge", str(tmp_path / "nowhere.json")), 2)
    (tmp_path / "moved.json").symlink_to(tmp_path / "nowhere.json")  # a link whose file was moved away
    line = _one_line(cli("merge", str(tmp_path / "moved.json")), 2)
    assert "no file" in line and "link" in line and "holds no ginscore sessions" not in line
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    line = _one_line(cli("merge", str(junk)), 2)
    assert str(junk) in line and "not JSON" in line
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps({"meta": {"1": {"schema_version": 4, "current": None}},
                                   "sessions": {"1": {"id": "s-0123456789ab", "name": "x", "variant": "whist",
                                                      "players": ["A", "B"]}}}))
    line = _one_line(cli("merge", str(damaged)), 2)
    assert str(damaged) in line and "damaged session" in line
    (tmp_path / "folder.json").mkdir()
    assert "folder.json cannot be merged: it is a folder" in _one_line(cli("merge", str(tmp_path / "folder.json")), 2)
    assert db_path.read_bytes() == before


def test_merging_an_export_advises_importing_it(cli, ok, db_path, tmp_path):
    """An export (JSON or CSV) given to `merge`, which takes a database: `ginscore import FILE` is
    what brings its session in, not "JSON but not a ginscore database"."""
    _evening(ok)
    exported = _export(ok, tmp_path, "friday export.json")
    (tmp_path / "friday.csv").write_text(ok("export").stdout)
    before = db_path.read_bytes()
    line = _one_line(cli("merge", str(exported)), 2)
    assert line == (f"Error: {exported} is a ginscore export, not a database: `ginscore import '{exported}'` "
                    "brings its session in; nothing was merged")
    assert f"`ginscore import {tmp_path / 'friday.csv'}`" in _one_line(cli("merge", str(tmp_path / "friday.csv")), 2)
    assert db_path.read_bytes() == before


ACTIONS = st.lists(st.sampled_from([
    ("hand", "ann", "3", "20"), ("hand", "ben", "0", "10"), ("draw",), ("undo", "--yes"),
    ("new", "standard", "Ann", "Ben", "--dealer", "Ann"), ("new", "hollywood", "Ann", "Ben", "--dealer", "Ben"),
    ("rematch",), ("rename", "renamed"), ("delete", "--yes"),
]), max_size=6)


# What a merge does with the sessions it adds put into TinyDB's table one at a time, as before they went together.
ONE_BY_ONE = ("ginscore.db.database.Database.changing_many", lambda db: contextlib.nullcontext())


def _played_apart(folder: Path, mine: list, theirs: list) -> tuple[Path, Path]:
    """Two copies of one database (a session 'start' with a hand), each then played on with its own actions."""
    a, b = folder / "a.json", folder / "b.json"
    run_cli("--db", a, "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "start")
    run_cli("--db", a, "hand", "ann", "2", "9")
    shutil.copy(a, b)
    for db, actions in ((a, mine), (b, theirs)):
        for action in actions:
            run_cli("--db", db, *action)  # some are refused (a hand after the game): as at a table
    return a, b


def _merged_both_ways(db: Path, *args) -> list[tuple]:
    """``merge ARGS`` into ``db`` as it is now, with the sessions it changes put into the table together, then
    one at a time (the file put back between): each run's exit status, output, errors and file."""
    before, said = db.read_bytes(), []
    for together in (True, False):
        db.write_bytes(before)
        with pytest.MonkeyPatch.context() as patch:
            numbers = iter(f"s-{n:012x}" for n in range(1, 100))  # (the id a kept copy is given)
            patch.setattr("ginscore.cli.commands.merge.new_session_id", lambda: next(numbers))
            if not together:
                patch.setattr(*ONE_BY_ONE)
            ran = run_cli("--db", db, "merge", *args)
            said.append((ran.exit_code, ran.stdout, ran.stderr, db.read_bytes()))
    return said


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mine=ACTIONS, theirs=ACTIONS, keep_both=st.booleans())
def test_merging_twice_is_byte_identical_the_second_time(mine, theirs, keep_both):
    with tempfile.TemporaryDirectory() as tmp:
        a, b = _played_apart(Path(tmp), mine, theirs)
        extra = ["--keep-both"] if keep_both else []
        first = run_cli("--db", a, "merge", b, *extra)
        assert first.exit_code in (0, 1), first.stderr
        after = a.read_bytes()
        second = run_cli("--db", a, "merge", b, *extra)
        assert second.exit_code == first.exit_code and a.read_bytes() == after
        if first.exit_code == 0:
            ours = {s["id"] for s in stored_sessions(a).values()}
            assert {s["id"] for s in stored_sessions(b).values()} <= ours


@settings(max_examples=15, deadline=None)
@given(mine=ACTIONS, theirs=ACTIONS, keep_both=st.booleans(), spread=st.integers(1, 3))
def test_sessions_added_together_are_the_file_and_the_report_of_adding_them_one_by_one(mine, theirs, keep_both,
                                                                                         spread):
    """A merge puts the sessions it adds into TinyDB's table together (one by one it slowed with the
    square of their number): the file, the report and the exit status are those of adding them one
    at a time, whatever document numbers the file had (``spread``: numbered 1, 3, 5... by hand)."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = _played_apart(Path(tmp), mine, theirs)
        data = json.loads(a.read_text())
        data["sessions"] = {str(int(n) * spread): doc for n, doc in data["sessions"].items()}
        a.write_text(json.dumps(data))
        said = _merged_both_ways(a, b, *(["--keep-both"] if keep_both else []))
        assert said[0] == said[1]


def test_a_session_added_and_moved_into_the_joined_match_in_one_merge_keeps_the_move_r5(ok, db_path, tmp_path):
    """Their three games are one match; here the first and the third are in two matches (brought in
    apart) and the second is missing. The merge adds the second, and joining the matches then moves
    it again, before it is in TinyDB's table: all three end in one match, as one by one."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "g1", "--target", "50")
    for game in ("g2", "g3"):
        ok("hand", "ann", "0", "40")  # Ann's gin: the game is over
        ok("rematch", "--name", game)
    ok("hand", "ann", "0", "40")
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    data = json.loads(db_path.read_text())
    sessions = data["sessions"]
    del sessions["2"]
    sessions["1"]["match"], sessions["3"]["match"] = "m-ffffffffffff", "m-000000000000"
    db_path.write_text(json.dumps(data))
    said = _merged_both_ways(db_path, theirs)
    assert said[0] == said[1] and said[0][0] == 0
    assert {doc["name"]: doc["match"] for doc in stored_sessions(db_path).values()} == dict.fromkeys(
        ("g1", "g3", "g2"), "m-000000000000")


def test_several_sessions_grown_and_added_in_one_merge_each_keep_their_own_hands(ok, db_path, tmp_path):
    """Three sessions here each went on there with a hand of its own, and a fourth was started there: all
    four go into the table together, each with its own hands and totals, the file as one at a time."""
    for name, dealer in (("s1", "Ann"), ("s2", "Ben"), ("s3", "Ann")):
        ok("new", "standard", "Ann", "Ben", "--dealer", dealer, "--name", name)
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    for name, hand in (("s1", ("ann", "3", "20")), ("s2", ("ben", "0", "30")), ("s3", ("ann", "9", "4"))):
        ok("--db", str(theirs), "hand", "--session", name, *hand)
    ok("--db", str(theirs), "new", "hollywood", "Cy", "Dee", "--dealer", "Cy", "--name", "s4")
    said = _merged_both_ways(db_path, theirs)
    assert said[0] == said[1] and said[0][0] == 0
    scores = {name: ok("status", "--session", name, "--json").json()["totals"] for name in ("s1", "s2", "s3")}
    assert scores == {"s1": {"Ann": 17, "Ben": 0}, "s2": {"Ann": 0, "Ben": 55}, "s3": {"Ann": 0, "Ben": 15}}  # R9-R11
    assert ok("status", "--session", "s4", "--json").json()["players"] == ["Cy", "Dee"]


def test_a_game_the_merged_hands_end_otherwise_tells_of_its_rematch_started_as_it_stood_r5(ok, db_path, tmp_path):
    """Here Ann won the game and its rematch was started (Ann deals), then a hand was corrected and the game
    went on; there Ben then won it. Merged, the rematch no longer follows from the game: said, with the
    commands that start it again."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "g1", "--target", "50")
    ok("hand", "ann", "0", "40")
    ok("rematch", "--name", "g2")
    ok("edit", "1", "--session", "g1", "ann", "5", "20")
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    ok("--db", str(theirs), "hand", "--session", "g1", "ben", "0", "60")
    said = " ".join(ok("merge", str(theirs)).stdout.split())
    assert said.endswith("'g1': Its rematch 'g2' has no hands yet and was started as this game stood then (Ann "
                         "deals); after the hands merged Ben deals: `ginscore delete g2 --yes` then `ginscore "
                         "rematch --session g1 --name g2` start it again."), said


def test_a_session_whose_name_an_editor_made_a_number_here_is_skipped_as_damaged_and_the_rest_merged(cli, ok, db_path,
                                                                                                       tmp_path):
    """Their copy calls it 'friday'; here an editor made its name a number, which every command reads as
    damage. The merge skipped the session as damaged, adds their new one and says so; it once took the
    two for the same session and ended in a traceback after writing the file."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    ok("--db", str(theirs), "new", "standard", "Ann", "Cy", "--dealer", "Cy", "--name", "sat")
    data = json.loads(db_path.read_text())
    data["sessions"]["1"]["name"] = 7
    db_path.write_text(json.dumps(data))
    merged = cli("merge", str(theirs))
    assert merged.exit_code == 0 and merged.stderr == "", merged.stderr
    said = " ".join(merged.stdout.split())
    assert said.startswith("Merged ") and said.endswith(": added 1, already here 0, skipped 1. added 'sat', 0 hands "
                                                        "skipped '7': damaged here, so theirs was not compared (mend "
                                                        "it in this file, then merge again)"), said
    assert [doc["name"] for doc in stored_sessions(db_path).values()] == [7, "sat"]


def _other_with(tmp_path: Path, ok, change) -> Path:
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "x")
    ok("--db", str(other), "hand", "cy", "3", "20")
    data = json.loads(other.read_text())
    change(data["sessions"])
    other.write_text(json.dumps(data))
    return other


def test_a_hostile_file_to_merge_is_refused_in_its_own_words(cli, ok, db_path, tmp_path):
    """Their file's problems are said of their file (never a hint to delete a session here), and
    a name `new` would refuse, or an id given twice, refuses the whole merge."""
    _evening(ok)
    before = db_path.read_bytes()
    cases = {
        "a name of 5000 characters": lambda s: s["1"].update(name="N" * 5000),
        "a name with a control character": lambda s: s["1"].update(name="x\x1b[2J"),
        "a name read as an option": lambda s: s["1"].update(name="-rf"),  # (advised `restore -rf` failed)
        "one id twice": lambda s: s.update({"2": dict(s["1"], name="Twin", hands="")}),
        "a damaged session": lambda s: s["1"].update(variant="whist"),
        # a hand edited there that does not add up (R7), added here, stopped every list (sessions, stats)
        "a hand over the knock limit": lambda s: s["1"].update(hands=s["1"]["hands"].replace("|Cy|3|", "|Cy|11|")),
        "a match that is no id": lambda s: s["1"].update(match=[1]),  # (it ended in a traceback)
        "a match that is a mapping": lambda s: s["1"].update(match={"m": 1}),
    }
    for what, change in cases.items():
        other = _other_with(tmp_path, ok, change)
        line = _one_line(cli("merge", str(other)), 2)
        assert str(other) in line and "cannot be merged" in line and "ginscore delete" not in line, (what, line)
        assert db_path.read_bytes() == before, what
        other.unlink()
    _one_line(cli("merge", ""), 2)  # an empty path: refused in one line


@pytest.mark.parametrize("keep_both", [False, True])
def test_later_hands_of_theirs_that_do_not_add_up_refuse_the_merge_naming_file_and_session(cli, ok, db_path,
                                                                                          tmp_path, keep_both):
    """Their copy of a session here went on with a hand edited there past the knock limit (R7): refused
    whole, said of their file and session (not "check the count or play on", which is for the table);
    kept as a copy (--keep-both) it would have stopped every list here."""
    _evening(ok)
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    ok("--db", str(theirs), "hand", "ann", "5", "20")
    if keep_both:  # and ours went on otherwise: the two have diverged
        ok("hand", "ben", "2", "9")
    data = json.loads(theirs.read_text())
    data["sessions"]["1"]["hands"] = data["sessions"]["1"]["hands"].replace("|Ann|5|20|", "|Ann|15|20|")
    theirs.write_text(json.dumps(data))
    before = db_path.read_bytes()
    line = _one_line(cli("merge", str(theirs), *(["--keep-both"] if keep_both else [])), 2)
    assert line == (f"Error: {theirs} cannot be merged: in its session 'friday', its hand 3 does not add up (Ann "
                    "knocked with 15, over this hand's knock limit of 10 (R7)); nothing was merged"), line
    assert db_path.read_bytes() == before
    assert ok("sessions").stdout


def test_a_name_merge_gave_is_not_reported_as_a_rename_there(ok, db_path, tmp_path):
    _evening(ok)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "friday")
    assert ok("merge", str(tmp_path / "other.json"), "--json").json()["added"][0]["name"] == "friday (merged)"
    assert ok("merge", str(tmp_path / "other.json"), "--json").json()["skipped"] == []
    ok(*other, "rename", "--session", "friday", "friday with Cy and Dee")  # a new name that starts as the old one
    assert ok("merge", str(tmp_path / "other.json"), "--json").json()["skipped"] == [
        {"name": "friday (merged)", "why": "named 'friday with Cy and Dee' there", "deleted": False}]


def test_a_parted_database_missing_a_cache_file_still_reads_and_merges(ok, tmp_path):
    folder = tmp_path / "old"
    shutil.copytree(FIXTURES / "schema3", folder)
    for cache in folder.glob("club.summary-*"):
        cache.unlink()
    assert len(ok("--db", str(folder / "club.json"), "sessions", "--json").json()) == 7
    assert len(ok("merge", str(folder / "club.json"), "--json").json()["added"]) == 8


def test_the_copy_keep_both_keeps_is_named_merged_even_when_its_name_is_free(ok, db_path, tmp_path):
    _evening(ok)
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "rename", "--session", "friday", "vendredi")
    ok("--db", str(other), "edit", "1", "ann", "5", "22", "--session", "vendredi")
    report = ok("merge", str(other), "--keep-both", "--json").json()
    assert report["copied"] == [{"name": "vendredi (merged)", "of": "friday", "hand": 1, "deleted": False}]
    out = ok("merge", str(other), "--keep-both").stdout
    assert out.startswith("Merged") and "added 0" in out and "already here 1" in out  # each count after its word


def _two_machines_apart(ok, tmp_path: Path, name: str, dealer: str, second_a, second_b) -> tuple[Path, Path]:
    """Machines A and B hold one session ``name`` with its first hand in common (B copied A's file),
    then each played a different second hand (``hand`` arguments)."""
    a, b = tmp_path / "A.json", tmp_path / "B.json"
    ok("--db", str(a), "new", "standard", "Ann", "Ben", "--dealer", dealer, "--name", name)
    ok("--db", str(a), "hand", "ann", "4", "22")
    shutil.copy(a, b)
    ok("--db", str(a), "hand", *second_a)
    ok("--db", str(b), "hand", *second_b)
    return a, b


def test_two_machines_merging_back_and_forth_with_keep_both_settle_on_one_copy_each(ok, tmp_path):
    """Each machine records another second hand of the same session, then each merges the other
    with --keep-both, twice over: each keeps its own record and one copy of the other's, every
    session id once, and the second round changes neither file."""
    a, b = _two_machines_apart(ok, tmp_path, "S", "ben", ("ann", "5", "22"), ("ben", "3", "22"))
    assert ok("--db", str(a), "merge", str(b), "--keep-both", "--json").json()["copied"][0]["name"] == "S (merged)"
    report = ok("--db", str(b), "merge", str(a), "--keep-both", "--json").json()
    assert report["added"] == [] and [c["name"] for c in report["copied"]] == ["S (merged)"]
    assert "S" in [k["name"] for k in report["kept"]]  # their copy of our record is our record
    for path, mine, copied in ((a, 5, 3), (b, 3, 5)):
        docs = stored_sessions(path).values()
        assert len({d["id"] for d in docs}) == len(docs) == 2
        second = {d["name"]: d["hands"].split(";")[1].split("|")[1:3] for d in docs}
        assert second == {"S": ["Ann" if mine == 5 else "Ben", str(mine)],
                          "S (merged)": ["Ben" if copied == 3 else "Ann", str(copied)]}
    settled = (a.read_bytes(), b.read_bytes())
    for here, there in ((a, b), (b, a), (a, b)):
        assert ok("--db", str(here), "merge", str(there), "--keep-both", "--json").json()["copied"] == []
        assert ok("--db", str(here), "merge", str(there)).stdout  # and without --keep-both: not refused
    assert (a.read_bytes(), b.read_bytes()) == settled
    ok("--db", str(b), "hand", "ann", "2", "30", "--session", "S (merged)")  # B plays on its copy of A's record:
    report = ok("--db", str(a), "merge", str(b), "--json").json()  # A's own record gets that hand
    assert report["extended"] == [{"name": "S", "hands_added": 1, "hands": 3, "deleted": False}] and report["copied"] == []
    before = b.read_bytes()
    assert ok("--db", str(b), "merge", str(a), "--json").json()["extended"] == [] and b.read_bytes() == before
    assert len(stored_sessions(a)) == len(stored_sessions(b)) == 2


@pytest.mark.parametrize("said_whose", [True, False], ids=["with copy_of", "older still: no copy_of"])
def test_a_copy_kept_under_the_id_merge_gave_it_before_is_still_found(ok, db_path, tmp_path, said_whose):
    """Copies kept before copy ids were made from the record kept had an id made from the
    session's id alone (older still, no copy_of either): merging the same file again finds such a copy,
    and makes no other."""
    from ginscore.cli.commands.merge import _copy_id_before

    _evening(ok)
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "edit", "1", "ann", "5", "22", "--session", "friday")
    ok("merge", str(other), "--keep-both")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    docs = data["sessions"].values()
    original = next(d for d in docs if d["name"] == "friday")
    copy = next(d for d in docs if d["name"] == "friday (merged)")
    copy["id"] = _copy_id_before(original)
    if not said_whose:
        del copy["copy_of"]
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    assert ok("merge", str(other), "--keep-both", "--json").json()["copied"] == []
    assert db_path.read_bytes() == before


def _ids_once(path: Path) -> list[dict]:
    docs = list(stored_sessions(path).values())
    assert len({d["id"] for d in docs}) == len(docs), [d["id"] for d in docs]
    return docs


def _records(path: Path) -> list[tuple]:
    """Each record in the file as what was told (no times), sorted: a record held twice shows twice."""
    return sorted(tuple(tuple(row.split("|")[:-1]) for row in d["hands"].split(";")) for d in _ids_once(path))


def test_three_machines_merging_every_way_hold_each_record_once_and_settle(ok, tmp_path):
    """A, B and C each played on differently from one record (C relays the others' records): every
    machine ends with each of the three records once (its own never again as a copy), every id
    once, and a further round of merges changes no file."""
    a, b, c = (tmp_path / f"{n}.json" for n in "ABC")
    ok("--db", str(a), "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    ok("--db", str(a), "hand", "ann", "4", "22")
    ok("--db", str(a), "hand", "ann", "5", "25")
    shutil.copy(a, b)
    shutil.copy(a, c)
    ok("--db", str(c), "undo", "--yes")
    ok("--db", str(a), "hand", "ben", "0", "30")
    ok("--db", str(b), "hand", "ann", "2", "12")
    ok("--db", str(c), "hand", "ann", "1", "11")
    ok("--db", str(c), "merge", str(a), "--keep-both")
    ok("--db", str(c), "merge", str(b), "--keep-both")
    ok("--db", str(b), "merge", str(c), "--keep-both")
    assert len(_records(b)) == len(set(_records(b))) == 3  # B's own record once, and one copy of each other
    for _ in range(2):
        for here, there in ((a, b), (a, c), (b, a), (b, c), (c, a), (c, b)):
            ok("--db", str(here), "merge", str(there), "--keep-both")
    settled = [p.read_bytes() for p in (a, b, c)]
    for here, there in ((a, b), (a, c), (b, a), (b, c), (c, a), (c, b)):
        ok("--db", str(here), "merge", str(there), "--keep-both")
        ok("--db", str(here), "merge", str(there))  # and without --keep-both: nothing to refuse
    assert [p.read_bytes() for p in (a, b, c)] == settled
    assert _records(a) == _records(b) == _records(c) and len(set(_records(a))) == 3


def _a_copy_of_b_kept_in_a(ok, tmp_path: Path) -> tuple[Path, Path]:
    """A and B each played a different second hand of 'fri'; A merged B with --keep-both."""
    a, b = _two_machines_apart(ok, tmp_path, "fri", "Ann", ("ben", "0", "30"), ("ann", "2", "12"))
    ok("--db", str(a), "merge", str(b), "--keep-both")
    return a, b


def test_a_kept_copy_edited_here_is_kept_and_theirs_kept_again_once(ok, tmp_path):
    """A corrects its copy of B's record: B's record is then not here any more, so the next merge
    keeps it again, once; every merge after that changes nothing."""
    a, b = _a_copy_of_b_kept_in_a(ok, tmp_path)
    ok("--db", str(a), "edit", "2", "ann", "3", "12", "--session", "fri (merged)")
    assert [c["name"] for c in ok("--db", str(a), "merge", str(b), "--keep-both", "--json").json()["copied"]] \
        == ["fri (merged 2)"]
    before = a.read_bytes()
    assert ok("--db", str(a), "merge", str(b), "--keep-both", "--json").json()["copied"] == []
    assert a.read_bytes() == before and len(_records(a)) == len(set(_records(a))) == 3


def test_a_copy_moved_by_export_and_import_merges_without_a_second_id(ok, tmp_path):
    """A kept copy exported and imported into another database arrives there as a session of its
    own id (an export does not say whose copy it is): merging the two never stores one id twice."""
    a, b = _a_copy_of_b_kept_in_a(ok, tmp_path)
    exported = tmp_path / "copy.json"
    exported.write_text(ok("--db", str(a), "export", "-f", "json", "--session", "fri (merged)").stdout)
    c = tmp_path / "C.json"
    ok("--db", str(c), "import", str(exported))
    for here, there in ((a, c), (c, a), (a, c)):
        ok("--db", str(here), "merge", str(there), "--keep-both")
        _ids_once(here)


def test_a_database_holding_a_kept_copy_merges_into_a_new_one_and_into_its_older_backup(ok, tmp_path):
    """A kept B's record as a copy: a new phone, a fresh file or A's backup from before takes A
    whole, the copy as the copy it is (its own id, its name), not refused as if it were a record
    of the session that differs from it; once in, merging again changes nothing."""
    a, b = _two_machines_apart(ok, tmp_path, "fri", "Ann", ("ben", "0", "30"), ("ann", "2", "12"))
    backup = tmp_path / "backup.json"
    shutil.copy(a, backup)
    ok("--db", str(a), "merge", str(b), "--keep-both")
    for here in (tmp_path / "new.json", backup):
        report = ok("--db", str(here), "merge", str(a), "--json").json()
        assert [row["name"] for row in report["added"]] == (["fri", "fri (merged)"] if here != backup
                                                             else ["fri (merged)"])
        assert _records(here) == _records(a) and sorted(d["id"] for d in _ids_once(here)) \
            == sorted(d["id"] for d in _ids_once(a))
        before = here.read_bytes()
        ok("--db", str(here), "merge", str(a))
        assert here.read_bytes() == before


def test_a_database_given_to_import_is_told_to_merge_and_an_empty_one_to_merge_says_why(cli, ok, db_path, tmp_path):
    """`import` takes an export, `merge` a database: each says which command takes the file given."""
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Dee", "--dealer", "Cy")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = db_path.read_bytes()
    line = _one_line(cli("import", str(other)), 2)
    assert "is a ginscore database, not an export" in line and f"merge {other}`" in line
    line = _one_line(cli("import", str(db_path)), 2)  # this database: merge would refuse it, so never advised
    assert "is this database (or one of its files), not an export; import a file `ginscore export` wrote" in line
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    line = _one_line(cli("merge", str(empty)), 2)
    assert "holds no ginscore sessions, so there is nothing to merge" in line
    assert db_path.read_bytes() == before


def test_a_sync_clients_conflicted_copy_opens_and_merges(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    conflicted = tmp_path / "ginscore (conflicted copy 2026-12-01).json"
    shutil.copy(db_path, conflicted)
    ok("--db", str(conflicted), "hand", "ben", "0", "30")  # the phone's hand, in the copy
    assert ok("--db", str(conflicted), "status", "--json").json()["hands_played"] == 2
    out = ok("merge", str(conflicted)).stdout
    assert "extended 1" in out and "hand 2 from there" in out
    assert ok("status", "--json").json()["hands_played"] == 2


def test_the_summary_counts_each_session_once(ok, db_path, tmp_path):
    # 14 sessions, two renamed there: they are kept (unchanged) and their renames are not applied;
    # the summary once said "kept 14, skipped 2", counting those two sessions twice.
    for number in range(1, 15):
        ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", f"s{number}")
    other = tmp_path / "other.json"
    shutil.copy(db_path, other)
    ok("--db", str(other), "rename", "--session", "s1", "first")
    ok("--db", str(other), "delete", "s2", "--yes")
    report = ok("merge", str(other), "--json").json()
    assert len(report["kept"]) == 14 and len(report["skipped"]) == 2  # scripts: every row, as before
    said = " ".join(ok("merge", str(other)).stdout.split())
    assert unwrapped(said).startswith(unwrapped(f"Merged {other}: added 0, already here 14; 1 deletion made only "
                                                "there not applied; 1 session named otherwise there, kept as named "
                                                "here. Nothing was changed.")), said
    assert "skipped 2" not in said
    assert "skipped 's1': named 'first' there (kept as named here; `ginscore rename --session s1 NEW` renames" in said


def test_a_rename_made_here_is_not_said_to_be_made_there(ok, tmp_path):
    """Which side renamed a session cannot be told: the name that differs is reported as such, kept as here."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri")
    other = tmp_path / "other.json"
    ok("export", "--format", "json", "--output", tmp_path / "fri.json")
    ok("--db", str(other), "import", tmp_path / "fri.json")
    ok("rename", "friday")
    said = " ".join(ok("merge", str(other)).stdout.split())
    assert "made only there" not in said and "1 session named otherwise there, kept as named here" in said


def test_a_rematch_made_there_links_ours_into_its_match_and_both_machines_rematches_are_one_match(ok, tmp_path):
    """A rematch stores its match in the session it follows: merged, that link comes too (the match standings
    count every game), and a session rematched on each machine makes one match, not two."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri", "--target", "50")
    ok("hand", "ann", "0", "40")  # Ann's gin, 65: over
    other = ("--db", str(tmp_path / "other.json"))
    ok("export", "--format", "json", "--output", tmp_path / "fri.json")
    ok(*other, "import", tmp_path / "fri.json")
    ok(*other, "rematch", "--name", "there")
    ok(*other, "hand", "ben", "3", "20")
    report = ok("merge", tmp_path / "other.json", "--json").json()
    assert [row["name"] for row in report["linked"]] == ["fri"]
    assert [row["name"] for row in report["added"]] == ["there"]
    assert ok("status", "--session", "there", "--json").json()["match"]["sessions"] == ["fri", "there"]
    ok("rematch", "--session", "fri", "--name", "here", "--yes")  # (its match: the one from there)
    ok(*other, "rematch", "--session", "fri", "--name", "also-there", "--yes")
    ok("merge", tmp_path / "other.json")
    assert ok("status", "--session", "also-there", "--json").json()["match"]["sessions"] == [
        "fri", "there", "here", "also-there"]
    assert ok("merge", tmp_path / "other.json", "--json").json()["linked"] == []  # again: nothing to do


# --- a change of house rules from the next hand on (H8) is a later fact, like a later hand ----


def _one_hand_evening(ok, db):
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
    _one_hand_evening(ok, db)
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
    _one_hand_evening(ok, older)
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
    _one_hand_evening(ok, ours)
    shutil.copy(ours, theirs)
    ok("--db", str(ours), "house", "--target", "120", "--from-next")
    ok("--db", str(theirs), "house", "--target", "150", "--from-next")
    before = ours.read_bytes()
    ran = cli("--db", str(ours), "merge", str(theirs))
    assert ran.exit_code == 1 and "its house rules from hand 2 on differ;" in ran.stderr  # (hand 1: as one)
    assert ours.read_bytes() == before


def test_a_hand_both_played_under_other_rules_names_where_the_rules_part(ok, cli, tmp_path):
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    _one_hand_evening(ok, ours)
    shutil.copy(ours, theirs)
    ok("--db", str(ours), "house", "--gin-bonus", "30", "--from-next")
    for db in (ours, theirs):
        ok("--db", str(db), "hand", "ben", "0", "10")
    ran = cli("--db", str(ours), "merge", str(theirs))
    assert ran.exit_code == 1 and "its house rules from hand 2 on differ;" in ran.stderr, ran.stderr


def test_a_second_change_made_there_after_a_first_both_hold_comes_with_its_hand_h8(ok, tmp_path):
    """Each record's latest change is told apart from the one before it, not from one further back."""
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    _one_hand_evening(ok, theirs)
    ok("--db", str(theirs), "house", "--gin-bonus", "30", "--from-next")
    ok("--db", str(theirs), "hand", "ben", "2", "10")
    shutil.copy(theirs, ours)
    ok("--db", str(theirs), "house", "--gin-bonus", "35", "--from-next")
    ok("--db", str(theirs), "hand", "ann", "0", "10")
    export = _export(ok, tmp_path, "theirs-export.json", "--db", str(theirs))
    assert "added the later hands" in _said(ok, "--db", str(ours), "import", str(export))
    assert ok("--db", str(ours), "log", "--json").json() == ok("--db", str(theirs), "log", "--json").json()
    assert ok("--db", str(ours), "status", "--json").json()["rules"]["gin_bonus"] == 35


def _edited_export(ok, tmp_path: Path, db: Path, edit) -> Path:
    doc = json.loads(ok("--db", str(db), "export", "-f", "json").stdout)
    edit(doc["session"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    return path


def _swap_box_and_captain(session: dict) -> None:
    roles = session["first_roles"]
    roles["box"], roles["captain"] = roles["captain"], roles["box"]


@pytest.mark.parametrize(("start", "edit", "why"), [
    (["standard", "Ann", "Ben", "--dealer", "ann"], lambda s: s.update(first_dealer="Ben"), "its first dealer differs"),
    (["three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben"], _swap_box_and_captain, "its first roles differ"),
    (["standard", "Ann", "Ben", "--dealer", "ann"], lambda s: s.update(players=["Ann", "Bea"], first_dealer="Ann"),
     "its players differ"),
])
def test_two_records_of_a_session_with_no_hands_yet_that_start_otherwise_have_diverged(ok, cli, tmp_path, start,
                                                                                       edit, why):
    """Before any hand, who deals first (R5) or the first roles (R21) are what tells two records apart."""
    db = tmp_path / "g.json"
    ok("--db", str(db), "new", *start)
    edited = _edited_export(ok, tmp_path, db, edit)
    before = db.read_bytes()
    ran = cli("--db", str(db), "import", str(edited))
    assert ran.exit_code == 1 and f"not as it is here: {why}" in ran.stderr, ran.stderr
    assert db.read_bytes() == before


def test_a_copy_that_went_on_brings_its_later_hands_and_who_deals_next(ok, db_path, tmp_path):
    """The plainest merge of all: the laptop's copy of tonight's file, one hand further on (R11, R13)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "4", "22")
    laptop = tmp_path / "laptop.json"
    shutil.copy(db_path, laptop)
    ok("--db", str(laptop), "hand", "ben", "0", "30")
    said = " ".join(ok("merge", str(laptop)).stdout.split())
    assert "extended 1" in said and "extended 'friday': hand 2 from there" in said
    doc = ok("status", "--json").json()
    assert (doc["hands_played"], doc["totals"], doc["next_dealer"]) == (2, {"Ann": 18, "Ben": 55}, "Ben")


@pytest.mark.parametrize("copy_of", ["junk", 7, None])
def test_their_file_with_a_copy_of_that_is_no_session_id_is_refused_whole(ok, refused, db_path, tmp_path, copy_of):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    theirs = tmp_path / "theirs.json"
    ok("--db", str(theirs), "new", "standard", "Cy", "Di", "--dealer", "cy", "--name", "saturday")
    doc = json.loads(theirs.read_bytes())
    doc["sessions"]["1"]["copy_of"] = copy_of
    theirs.write_text(json.dumps(doc))
    if copy_of is None:  # null: not a copy, merged as any session
        assert "added 1" in " ".join(ok("merge", str(theirs)).stdout.split())
        return
    line = refused("merge", str(theirs))
    assert f"cannot be merged: it has a session whose copy_of {copy_of!r} is not a session id" in line


# Merging back the file a merge was made from reports nothing skipped for the names the first merge
# gave: ' (merged)' was ginscore's own rename, not one made there.
def test_merging_back_reports_no_rename_that_a_merge_made(ok, db_path, tmp_path):
    theirs = tmp_path / "theirs.json"
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    ok("--db", str(theirs), "new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "friday")
    first = ok("merge", str(theirs), "--json").json()
    assert [row["name"] for row in first["added"]] == ["friday (merged)"] and first["skipped"] == []
    back = ok("--db", str(theirs), "merge", str(db_path), "--json").json()
    assert back["skipped"] == [], back
    assert [row["name"] for row in back["added"]] == ["friday (merged)"]


# `merge` keeps the fields of a session it does not know (a user's own, a later version's), as every
# other command does: on a session it adds, and on one it extends.
def _set_field(path, name: str, **fields) -> None:
    data = json.loads(path.read_bytes())
    for doc in data["sessions"].values():
        if doc["name"] == name:
            doc.update(fields)
    path.write_text(json.dumps(data))


def _session(path, name: str) -> dict:
    return next(doc for doc in json.loads(path.read_bytes())["sessions"].values() if doc["name"] == name)


def test_merge_keeps_unknown_fields_on_sessions_it_adds_and_extends(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "shared")
    ok("hand", "ann", "5", "20")
    theirs = tmp_path / "theirs.json"
    shutil.copy(db_path, theirs)
    ok("--db", str(theirs), "hand", "ben", "3", "30", "--session", "shared")  # extended there
    ok("--db", str(theirs), "new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "only there")
    _set_field(theirs, "shared", venue="the club")
    _set_field(theirs, "only there", venue="the pub", later={"kept": [1, 2]})
    ok("merge", str(theirs))
    added, extended = _session(db_path, "only there"), _session(db_path, "shared")
    assert added["venue"] == "the pub" and added["later"] == {"kept": [1, 2]}
    assert extended["venue"] == "the club" and extended["hands"].count("knock|") == 2  # their hand came too
    ok("merge", str(theirs))  # merging again changes nothing


def test_a_kept_copy_deleted_here_stays_deleted_when_the_same_file_is_merged_again(ok, tmp_path):
    """A sync client's conflicted copy merged with --keep-both, and its `(merged)` copy deleted once the
    evening was settled: merging that copy again, with --keep-both or without, brings nothing back."""
    a, b = _two_machines_apart(ok, tmp_path, "friday", "ben", ("ann", "5", "22"), ("ben", "3", "22"))
    ok("--db", str(a), "merge", str(b), "--keep-both")
    ok("--db", str(a), "delete", "friday (merged)", "--yes")
    settled = a.read_bytes()
    for again in (["--keep-both"], []):
        report = ok("--db", str(a), "merge", str(b), *again, "--json").json()
        assert (report["added"], report["copied"]) == ([], []) and a.read_bytes() == settled
    assert [s["name"] for s in ok("--db", str(a), "sessions", "--json").json()] == ["friday"]


def test_merge_of_a_file_over_the_import_limit_is_refused_before_a_byte_is_read(ok, refused, tmp_path, monkeypatch,
                                                                                db_path):
    """A 5 GB file given to merge took 12 GB of memory (and under a memory limit, a crash) before it was found
    to be no database: like import, merge refuses a file over its limit from its size alone."""
    from ginscore.db import atomic
    from ginscore.documents import MAX_FILE

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as handle:
        handle.truncate(MAX_FILE + 1)  # sparse: no memory or disk spent on it
    real_read = atomic.read

    def read_small(path):
        assert os.path.realpath(path) != os.path.realpath(huge), "the file over the limit was read"
        return real_read(path)

    monkeypatch.setattr(atomic, "read", read_small)
    refused("merge", str(huge), says=f"larger than {MAX_FILE // 2**20} MiB, the most merge reads")


def test_a_session_whose_player_starts_with_a_hyphen_still_gets_its_later_hands(ok, refused, tmp_path, db_path):
    """A file made before such names were refused (edited by hand) keeps a player "-a": a copy of it played
    on (`hand -- -a 5 20`) was refused whole by merge, though the session and its players were already here.
    Its later hands come in; a new session with such a player still does not."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "5", "30")
    db_path.write_text(db_path.read_text().replace("Ann", "-a"))
    laptop = tmp_path / "laptop.json"
    laptop.write_bytes(db_path.read_bytes())
    ok("--db", laptop, "hand", "--", "-a", "5", "20")
    ok("merge", laptop)
    assert ok("status", "--json").json()["totals"] == {"-a": 40, "Ben": 0}
    ok("--db", laptop, "new", "standard", "Cy", "Ben", "--dealer", "cy")
    laptop.write_text(laptop.read_text().replace('"Cy"', '"-c"'))
    refused("merge", laptop, says="a player's name cannot start with '-' ('-c':")
