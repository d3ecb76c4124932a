"""A file is read exactly or refused, and only a user's own ginscore database is written.

Each test pins one way a file used to be rewritten changed, or another program's file made a
database: a key twice, numbers orjson cannot keep, a file that is not ginscore's, a file this
user may not write.
"""

import json
import os

import pytest

from tests.support import AS_ROOT, run_as_nobody


def _two_sessions(ok) -> None:
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "one")
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "two")


def test_a_key_twice_in_a_table_refuses_the_file_rather_than_lose_a_session(cli, ok, db_path):
    _two_sessions(ok)
    raw = db_path.read_bytes()
    doubled = raw.replace(b'"2":{', b'"1":{')  # an editor's copy-paste: two sessions under one key
    db_path.write_bytes(doubled)
    for command in (["sessions"], ["hand", "cy", "5", "20", "--session", "two"]):
        done = cli(*command)
        assert done.exit_code == 1 and "twice" in done.stderr and str(db_path) in done.stderr, done.stderr
        assert db_path.read_bytes() == doubled


def test_a_key_twice_inside_a_session_refuses_the_file(cli, ok, db_path):
    _two_sessions(ok)
    doubled = db_path.read_bytes().replace(b'"name":"one"', b'"name":"one","name":"uno"')
    db_path.write_bytes(doubled)
    done = cli("hand", "ann", "5", "20", "--session", "two")
    assert done.exit_code == 1 and '"name" twice' in done.stderr and db_path.read_bytes() == doubled


def _with_field(db_path, text: bytes) -> bytes:
    """The database with a field of the user's own (``venue``) holding ``text`` as written in JSON."""
    raw = db_path.read_bytes()
    changed = raw.replace(b'"name":"one"', b'"name":"one","venue":' + text)
    assert changed != raw
    db_path.write_bytes(changed)
    return changed


def test_an_integer_past_64_bits_is_written_back_exactly(ok, db_path):
    _two_sessions(ok)
    _with_field(db_path, b"1180591620717411303424")  # 2**70
    ok("hand", "ann", "5", "20", "--session", "one")
    assert b'"venue":1180591620717411303424' in db_path.read_bytes()
    assert json.loads(db_path.read_bytes())["sessions"]["1"]["venue"] == 2 ** 70


def test_a_number_too_large_for_a_float_refuses_the_file(cli, ok, db_path):
    _two_sessions(ok)
    changed = _with_field(db_path, b"1e400")
    done = cli("hand", "cy", "5", "20", "--session", "two")
    assert done.exit_code == 1 and "1e400" in done.stderr and db_path.read_bytes() == changed


@pytest.mark.parametrize("number", ["1e-400", "51.50735091234567890123", "12345678901234567890.25"])
def test_a_number_a_float_cannot_hold_exactly_refuses_the_file_rather_than_change_it(cli, ok, db_path, number):
    """Read as a float, each would be written back changed (0.0, 51.50735091234568, 1.2345678901234567e+19)
    by a write to another session, without a word."""
    _two_sessions(ok)
    changed = _with_field(db_path, number.encode())
    done = cli("hand", "cy", "5", "20", "--session", "two")
    assert done.exit_code == 1 and number in done.stderr and str(db_path) in done.stderr, done.stderr
    assert db_path.read_bytes() == changed


def test_a_number_written_another_way_but_held_exactly_is_kept(ok, db_path):
    _two_sessions(ok)
    _with_field(db_path, b"[0.1, 1.0E2, -0.0, 5e-324, 2.5e+300]")
    ok("hand", "cy", "5", "20", "--session", "two")
    assert json.loads(db_path.read_bytes())["sessions"]["1"]["venue"] == [0.1, 100.0, -0.0, 5e-324, 2.5e300]


def test_two_keys_of_one_document_number_refuse_the_file_rather_than_lose_a_session(cli, ok, db_path):
    """TinyDB reads the key "02" as document 2: beside a "2" (an edit by hand), one of the two sessions was
    listed twice, the other left out of every count and dropped by the next write."""
    _two_sessions(ok)
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"] = {"02" if key == "1" else key: doc for key, doc in data["sessions"].items()}
    db_path.write_text(json.dumps(data), encoding="utf-8")
    before = db_path.read_bytes()
    for args in (["sessions"], ["stats", "--json"], ["hand", "cy", "2", "10"]):
        done = cli(*args)
        assert done.exit_code == 1 and 'holds the document 2 twice, under keys like "02"' in done.stderr, done.stderr
    assert db_path.read_bytes() == before


@pytest.mark.parametrize("content", [b"{}", b"  \n\t ", "{}".encode("utf-16"), b" {} \n"],
                         ids=["empty object", "whitespace", "utf-16 empty object", "spaced empty object"])
def test_a_file_that_is_not_a_ginscore_database_is_never_made_one(cli, db_path, content):
    db_path.write_bytes(content)
    done = cli("new", "standard", "Ann", "Ben")
    assert done.exit_code == 1 and "holds no ginscore database" in done.stderr, done.stderr
    # never advised to start a session with `new`, which it would refuse; nor told "no sessions" (a script
    # reading `sessions --json` would take it for an empty database)
    for args in (["status"], ["sessions"], ["history"], ["sessions", "--deleted"], ["sessions", "--json"],
                 ["history", "--json"], ["stats"], ["stats", "--json"], ["stats", "Ann"], ["ratings", "--json"]):
        done = cli(*args)
        assert done.exit_code == 1 and "holds no ginscore database" in done.stderr, (args, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and done.stdout == ""
    assert db_path.read_bytes() == content


def test_an_empty_file_is_still_a_new_database(ok, db_path):
    db_path.write_bytes(b"")
    ok("new", "standard", "Ann", "Ben")
    assert json.loads(db_path.read_bytes())["sessions"]


def test_a_file_this_user_may_not_write_is_refused_and_unchanged(cli, ok, db_path, monkeypatch):
    _two_sessions(ok)
    before = db_path.read_bytes()
    real_access, real = os.access, os.path.realpath(db_path)

    def access(path, mode, *args, **kwargs):  # another user's 0644 file: readable, not writable by us
        if os.path.realpath(path) == real and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    done = cli("hand", "ann", "5", "20", "--session", "one")
    assert done.exit_code == 1 and "may not be written by this user" in done.stderr, done.stderr
    assert db_path.read_bytes() == before
    assert cli("status", "--session", "one").exit_code == 0  # reading it is fine


def test_a_folder_this_user_may_not_write_reads_refuses_typos_first_and_says_why_a_change_is_not_written(
        cli, ok, db_path, monkeypatch):
    """ginscore writes a new file beside the database and swaps it in, so a folder this user may not write
    makes the file read-only for them: read without the lock, a typo refused as a typo (exit 2), and a change
    refused saying it is the folder, whether or not a lock file happens to be there."""
    _two_sessions(ok)
    before = db_path.read_bytes()
    real_access, folder = os.access, os.path.realpath(db_path.parent)

    def access(path, mode, *args, **kwargs):  # root's folder, 0755: the file is ours, the folder is not
        if os.path.realpath(path) == folder and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    for lock in (True, False):
        if not lock:
            os.remove(f"{db_path}.lock")
        assert cli("hand", "ann", "44", "22", "--session", "one").exit_code == 2  # over the knock limit (R7)
        assert cli("use", "two").exit_code == 0  # already current: nothing to write
        done = cli("hand", "ann", "5", "20", "--session", "one")
        assert done.exit_code == 1 and "is in a folder this user may not write" in done.stderr, done.stderr
        assert db_path.read_bytes() == before and os.path.exists(f"{db_path}.lock") == lock


def test_a_file_on_a_disk_mounted_read_only_says_so_not_another_users_file(cli, ok, db_path, monkeypatch):
    _two_sessions(ok)
    before, real_statvfs = db_path.read_bytes(), os.statvfs

    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", lambda path: ReadOnly() if path == str(db_path.parent) else real_statvfs(path))
    monkeypatch.setattr(os, "access", lambda path, mode, *args, **kwargs: not mode & os.W_OK)  # (as EROFS answers)
    done = cli("hand", "ann", "5", "20", "--session", "one")
    assert done.exit_code == 1 and "is on a file system mounted read-only" in done.stderr, done.stderr
    assert "another user" not in done.stderr and db_path.read_bytes() == before


@AS_ROOT
def test_another_users_file_in_a_sticky_shared_folder_says_only_its_owner_may_replace_it(cli):
    """A chmod 666 database in a folder like /tmp (1777): another user may write it, not replace it."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="ginscore-sticky-", dir="/tmp")
    db = os.path.join(folder, "g.json")
    try:
        assert cli("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "Ann").exit_code == 0
        os.chmod(folder, 0o1777)
        os.chmod(db, 0o666)
        os.chmod(db + ".lock", 0o666)
        with open(db, "rb") as handle:
            before = handle.read()
        assert run_as_nobody("--db", db, "hand", "ann", "44", "22")[0] == 2  # a typo is a typo (R7)
        status, said = run_as_nobody("--db", db, "hand", "ann", "4", "22")
        assert status == 1 and "only its owner may replace it" in said, said
        with open(db, "rb") as handle:
            assert handle.read() == before
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("depth", [252, 300, 1020])
def test_nesting_orjson_reads_but_cannot_write_is_said_as_too_deep(cli, ok, db_path, tmp_path, depth):
    """orjson reads deeper than it writes: such a file ended every command in a traceback."""
    _two_sessions(ok)
    changed = _with_field(db_path, b"[" * depth + b"]" * depth)
    for command in (["status"], ["hand", "cy", "5", "20", "--session", "two"]):
        done = cli(*command)
        assert done.exit_code == 1 and "nested too deeply" in done.stderr and str(db_path) in done.stderr, done
        assert db_path.read_bytes() == changed
    other = tmp_path / "other.json"  # another machine's copy, to merge or import here
    other.write_bytes(changed)
    db_path.unlink()
    for command in (["merge", str(other)], ["import", str(other)]):
        done = cli(*command)
        assert done.exit_code == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "nested too deeply" in cli("merge", str(other)).stderr


def test_deep_nesting_is_said_as_such_not_as_not_json(cli, db_path):
    content = b"[" * 100_000 + b"]" * 100_000
    db_path.write_bytes(content)
    done = cli("status")
    assert done.exit_code == 1 and "nested too deeply" in done.stderr and "not JSON" not in done.stderr
    assert db_path.read_bytes() == content


def test_a_relative_cache_folder_counts_as_unset(ok, db_path, tmp_path, monkeypatch):
    _two_sessions(ok)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("GINSCORE_CACHE", "relative-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    ok("stats")
    assert not (elsewhere / "relative-cache").exists()
    assert list((tmp_path / "xdg" / "ginscore").iterdir())
