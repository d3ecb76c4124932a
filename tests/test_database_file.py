"""The database file: unusable files are reported (exit 1) and never rewritten;
writes are whole; the lock bounds the wait (docs/commands.md, "Errors and exit codes")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ginscore.db.sessions import SCHEMA_VERSION

from .conftest import stored_sessions

UNUSABLE = {
    "not-json": (b"{not json", "is not JSON"),
    "truncated": (b'{"meta": {"1": {"schema_version": 1}}, "sessions": {"1": {"na', "is not JSON"),
    "binary": (b"\x00\xff\xfe garbage", "is not JSON"),
    "a-list": (b"[1, 2, 3]", "not a ginscore database"),
    "other-tables": (b'{"_default": {"1": {"x": 1}}}', "not a ginscore database"),
    "no-meta": (b'{"sessions": {"1": {"name": "x"}}}', "not a ginscore database"),
    "bad-version": (b'{"meta": {"1": {"schema_version": "one"}}}', "not a ginscore database"),
    "newer-schema": (json.dumps({"meta": {"1": {"schema_version": SCHEMA_VERSION + 1}}}).encode(), "newer ginscore"),
    "damaged-session": (  # a 1.x file (schema 2) edited by hand
        json.dumps({"meta": {"1": {"schema_version": 2, "current": "x"}},
                    "sessions": {"1": {"name": "x", "variant": "whist", "players": ["A", "B"]}}}).encode(),
        "damaged",
    ),
    "hand-that-breaks-a-rule": (
        json.dumps({"meta": {"1": {"schema_version": 2, "current": "x"}},
                    "sessions": {"1": {"name": "x", "variant": "standard", "players": ["A", "B"],
                                       "first_dealer": "A", "rules": {},
                                       "hands": "knock|A|40|50||0|"}}}).encode(),
        "does not add up",
    ),
}

COMMANDS = [["status"], ["sessions"], ["hand", "a", "1", "9"], ["log", "--json"], ["undo", "--yes"], ["export"],
            ["rematch"], ["draw"], ["dealer"]]
WHOLE_FILE = [["new", "standard", "Ann", "Ben"], ["use", "x"]]
DAMAGED_SESSION = ("damaged-session", "hand-that-breaks-a-rule")


@pytest.mark.parametrize("case", [c for c in UNUSABLE if c not in DAMAGED_SESSION])
def test_unusable_file_refuses_even_a_new_session(cli, db_path, case):
    content, says = UNUSABLE[case]
    db_path.write_bytes(content)
    for args in WHOLE_FILE:
        result = cli(*args)
        assert result.exit_code == 1 and says in result.stderr and str(db_path) in result.stderr
        assert result.stderr.count("\n") == 1
    assert db_path.read_bytes() == content


@pytest.mark.parametrize("case", DAMAGED_SESSION)
def test_a_damaged_session_is_kept_as_it_is_beside_a_new_one(cli, ok, db_path, case):
    content, _ = UNUSABLE[case]
    db_path.write_bytes(content)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    kept = stored_sessions(db_path)["1"]
    assert kept.pop("id").startswith("s-")  # upgraded from 1.x: the session got the id made from its fields
    assert kept == json.loads(content)["sessions"]["1"]
    assert cli("status", "--session", "x").exit_code == 1  # still damaged, still named
    assert ok("status", "--json").json()["session"] == "standard-1"


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


def test_edit_is_how_a_user_mends_a_stored_hand_that_breaks_a_rule(cli, ok, db_path):
    content, _ = UNUSABLE["hand-that-breaks-a-rule"]
    db_path.write_bytes(content)
    assert cli("status").exit_code == 1
    ok("edit", "1", "a", "4", "50")
    assert ok("status", "--json").json()["totals"] == {"A": 46, "B": 0}


def test_database_path_is_a_folder(cli, db_path):
    db_path.mkdir()
    for args in (["status"], ["new", "standard", "Ann", "Ben"]):
        result = cli(*args)
        assert result.exit_code == 1 and "is a folder" in result.stderr and str(db_path) in result.stderr
    assert db_path.is_dir()


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
    assert knock.startswith("knock|Ann|4|22|7H|0|2026-") or knock.startswith("knock|Ann|4|22|7H|0|")
    assert knock.split("|")[6] and draw.startswith("draw||") and draw.split("|")[2]
    assert "totals" not in json.dumps(stored_sessions(db_path))  # nothing derived is stored with the facts


SCHEMA_1 = {
    "meta": {"1": {"schema_version": 1, "current": "old"}},
    "sessions": {"1": {"name": "old", "variant": "standard", "players": ["Ann", "Ben"], "first_dealer": "Ann",
                       "rules": {"gin_bonus": 20}, "first_roles": None, "created_at": None,
                       "hands": [{"type": "knock", "knocker": "Ann", "knocker_deadwood": 0, "opponent_deadwood": 10,
                                  "upcard": None, "big_gin": False, "recorded_at": "2026-01-01T20:00:00+00:00"},
                                 {"type": "draw", "upcard": "7H", "recorded_at": None}]}},
}


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


def _as_nobody(db: str, args: list[str], result) -> None:
    """Run the CLI in a forked child that has dropped root, so file permissions apply."""
    from tests.conftest import run_main

    os.setgid(65534)
    os.setuid(65534)
    err = open(os.devnull, "w")
    os.dup2(err.fileno(), 1)
    import io

    captured = io.StringIO()
    sys.stderr = captured
    status = run_main(["--db", db, *args])
    result.put((status, captured.getvalue()))


@pytest.mark.parametrize("args", [["status"], ["hand", "ann", "4", "22"]])
def test_no_permission_to_read_exit_1_names_file(cli, args):
    import multiprocessing
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
            ctx = multiprocessing.get_context("fork")
            queue = ctx.Queue()
            child = ctx.Process(target=_as_nobody, args=(db, args, queue))
            child.start()
            status, stderr = queue.get(timeout=30)
            child.join()
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


def test_two_sessions_given_one_id_by_hand_are_refused_not_mixed_up(cli, ok, db_path, tmp_path):
    """A second session given the first's id (an edit by hand, say through TinyDB): `use` of it
    would make current the other one, and a hand go into the wrong session; every command that
    must tell them apart exits 1 naming the file, which stays as it was (merge too, either way)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "s")
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "t")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    first, second = data["sessions"]["1"], data["sessions"]["2"]
    second["id"] = data["meta"]["1"]["current"] = first["id"]
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    for args in (["use", "t"], ["use", "s"], ["status"], ["hand", "cy", "3", "20"], ["sessions"]):
        result = cli(*args)
        assert result.exit_code == 1 and result.stdout == "", args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and str(db_path.name) in lines[0] and "two sessions with one id" in lines[0], args
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Ed", "Flo", "--dealer", "Ed")
    assert cli("--db", str(other), "merge", str(db_path)).exit_code == 2  # theirs: a file that cannot be merged
    assert cli("merge", str(other)).exit_code == 1  # ours: this database cannot be used
    assert db_path.read_bytes() == before
