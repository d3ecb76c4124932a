"""`ginscore export`: CSV and JSON of a session, and where `--output` may and may not write."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from ginscore.db.database import SCHEMA_VERSION
from tests.support import (
    FIXTURES,
    make_not_a_file,
    run_as_nobody,
    one_error_line,
    path_state,
    run_in_time,
    run_main,
    temporary_files,
)


def test_export_csv_columns_and_inert_formulas(ok, tmp_path):
    ok("new", "standard", "=Ann", "Ben", "--dealer", "=ann")
    ok("hand", "=ann", "4", "22")
    ok("draw")
    text = ok("export").stdout
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:11] == ["hand", "dealer", "knocker", "knocker_deadwood", "opponent_deadwood", "upcard",
                            "outcome", "winner", "points", "total:=Ann", "total:Ben"]
    assert rows[1][:11] == ["1", "'=Ann", "'=Ann", "4", "22", "", "knock", "'=Ann", "18", "18", "0"]
    assert rows[2][:9] == ["2", "'=Ann", "", "", "", "", "draw", "", ""]
    target = tmp_path / "out.csv"
    ok("export", "--output", str(target))
    assert target.read_text() == text


def test_export_csv_hollywood_columns(ok):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ben", "2", "12")
    header = next(csv.reader(io.StringIO(ok("export").stdout)))
    assert header[9:15] == ["game1:Ann", "game1:Ben", "game2:Ann", "game2:Ben", "game3:Ann", "game3:Ben"]


def test_export_csv_three_player_rows_say_who_was_in_the_box_captained_and_sat_out_r23(ok):
    """A three-player session's CSV: every hand's row names its three roles, as they were when it was
    dealt: the captain who beat the box is in the box for the next hand (R22, R23)."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    ok("hand", "ben", "3", "30")
    ok("draw")
    rows = list(csv.DictReader(io.StringIO(ok("export").stdout)))
    assert [(r["hand"], r["box"], r["captain"], r["out"]) for r in rows] == [("1", "Ann", "Ben", "Cy"),
                                                                           ("2", "Ben", "Cy", "Ann")]
    assert [r["total:Ben"] for r in rows] == ["27", "27"]


def test_export_json_holds_the_session(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "22", "--upcard", "5c")
    doc = json.loads(ok("export", "--format", "json").stdout)
    session = doc["session"]
    assert session["variant"] == "oklahoma" and session["first_dealer"] == "Ann"
    assert session["hands"][0]["upcard"] == "5C" and session["hands"][0]["knocker_deadwood"] == 3


def _export_targets(tmp: Path, db: Path) -> dict:
    """Ways to name the database or one of its files; each built when the case runs."""

    def hard(name):
        def make():
            os.link(tmp / name, tmp / "sub" / "hard")
            return tmp / "sub" / "hard"
        return make

    def link(name):
        def make():
            (tmp / "sub" / "link").symlink_to(tmp / name)
            return tmp / "sub" / "link"
        return make

    return {
        "the database": lambda: db,
        "the database through ..": lambda: tmp / "sub" / ".." / "ginscore.json",
        "the database, relative": lambda: Path("ginscore.json"),
        "the database, ./././": lambda: Path("./././ginscore.json"),
        "the database through a symlink": link("ginscore.json"),
        "the database through a chain of symlinks": lambda: (
            (tmp / "sub" / "l1").symlink_to("l2"), (tmp / "sub" / "l2").symlink_to("../ginscore.json"))
        and tmp / "sub" / "l1",
        "the database through a hard link": hard("ginscore.json"),
        "the lock": lambda: tmp / "ginscore.json.lock",
        "the lock through a hard link": hard("ginscore.json.lock"),
        "the lock through a symlink": link("ginscore.json.lock"),
        "the upgrade copy": lambda: tmp / "ginscore.json.pre-3.bak",
        "a file in the upgrade copy": lambda: (tmp / "ginscore.json.pre-3.bak").mkdir() or
        tmp / "ginscore.json.pre-3.bak" / "ginscore.json",
        "a temporary file": lambda: tmp / ".ginscore.json.tmp-1-abcdef",
        "a part of the parted layout": lambda: tmp / "ginscore.facts-0000-3.json",
        "a dangling symlink to a temporary name": lambda: (
            (tmp / "sub" / "dl").symlink_to(tmp / ".ginscore.json.tmp-9-abc")) or tmp / "sub" / "dl",
    }


EXPORT_TARGETS = list(_export_targets(Path("/"), Path("/")))


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("case", EXPORT_TARGETS)
def test_export_refuses_to_write_over_the_database_or_its_files(cli, tmp_path, db_path, monkeypatch, evening,
                                                                 case, fmt):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    target = _export_targets(tmp_path, db_path)[case]()
    folder = path_state(tmp_path)
    lock = path_state(tmp_path / "ginscore.json.lock")
    line = one_error_line(cli("export", "-f", fmt, "--output", target), 2)
    assert "is the database or one of its own files" in line
    assert db_path.read_bytes() == evening
    assert (path_state(tmp_path), path_state(tmp_path / "ginscore.json.lock")) == (folder, lock)


@pytest.mark.parametrize("case", ["the real file", "the link", "the real file's lock", "a lock beside the link"])
def test_export_refuses_the_files_of_a_linked_database(cli, ok, tmp_path, db_path, case):
    real = tmp_path / "synced" / "ginscore.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = real.read_bytes()
    target = {"the real file": real, "the link": db_path, "the real file's lock": real.with_name("ginscore.json.lock"),
              "a lock beside the link": tmp_path / "ginscore.json.lock"}[case]
    one_error_line(cli("export", "--output", target), 2)
    assert real.read_bytes() == before and db_path.is_symlink()


@pytest.mark.parametrize("kind", ["folder", "device", "fifo", "socket", "link to a fifo", "link to a folder",
                                  "missing folder"])
def test_export_refuses_an_output_that_is_not_a_file(tmp_path, db_path, evening, kind):
    out = tmp_path / "out"
    keep = [] if kind == "missing folder" else make_not_a_file(kind, out)
    if kind == "missing folder":
        out = tmp_path / "no-such-folder" / "out.csv"
    before = path_state(out)
    result = run_in_time("export", "--output", out)
    line = one_error_line(result, 2)
    said = {"folder": "is a folder", "device": "is a device", "fifo": "is a FIFO", "socket": "is a socket",
            "link to a fifo": "is a FIFO", "link to a folder": "is a folder",
            "missing folder": "No such file or directory"}[kind]
    assert f"{out} {said}" in line or f"cannot write {out}: {said}" in line, line
    assert path_state(out) == before and db_path.read_bytes() == evening and not temporary_files(tmp_path)
    for thing in keep:
        thing.close()


@pytest.mark.parametrize("name", ["ginscore", "ginscore.json.bak", "other.json", "schema2.json", "club.json"])
def test_export_never_replaces_another_ginscore_database_beside_it(cli, ok, tmp_path, db_path, name):
    """Two databases in one folder (`g` and `g.json`, a backup copy): an export of one onto the
    other is refused (exit 2) and both stay as they were; an earlier export is still replaced."""
    other = tmp_path / name
    if name in ("schema2.json", "club.json"):  # the single file of 1.x, the parted layout's main file
        fixtures = FIXTURES
        other.write_bytes((fixtures / name if name == "schema2.json" else fixtures / "schema3" / name).read_bytes())
    else:
        ok("--db", str(other), "new", "standard", "Cy", "Di", "--dealer", "Cy")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    before = other.read_bytes()
    for fmt in ("csv", "json", "html"):
        line = one_error_line(cli("export", "-f", fmt, "--output", other), 2)
        assert f"{name} is a ginscore database" in line and "choose another --output" in line
    assert other.read_bytes() == before
    export = tmp_path / "tonight.csv"
    for _ in range(2):
        ok("export", "--output", export)
    assert export.read_text(encoding="utf-8").startswith("hand,")


REFUSED_WHOLE = ["a key twice", "a number no float holds", "nesting orjson cannot write", "another program's table",
                 "written by a newer ginscore"]


@pytest.mark.parametrize("damage", ["a byte order mark", "a NaN in one session", "a lone surrogate in a name",
                                    *REFUSED_WHOLE])
def test_export_never_replaces_a_database_that_ginscore_reads_though_edited(cli, ok, tmp_path, db_path, damage):
    """A database saved with a byte order mark, or with one session damaged by hand, is still a
    database every command reads (the others still work); one edited so that no command reads it
    until it is mended is still somebody's evenings: an export never replaces either."""
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Di", "--dealer", "Cy")
    raw = other.read_bytes()
    newer = (b'"schema_version":%d' % SCHEMA_VERSION, b'"schema_version":%d' % (SCHEMA_VERSION + 1))
    other.write_bytes({"a byte order mark": b"\xef\xbb\xbf" + raw,
                       "a NaN in one session": raw.replace(b'"target":100', b'"target":NaN'),
                       "a lone surrogate in a name": raw.replace(b'"Cy"', b'"C\\ud800"'),
                       "a key twice": raw.replace(b'"name":', b'"name":"x","name":'),
                       "a number no float holds": raw.replace(b'"name":', b'"venue":1e-400,"name":'),
                       "nesting orjson cannot write": raw.replace(b'"name":', b'"venue":' + b"[" * 300 + b"]" * 300
                                                                  + b',"name":'),
                       "another program's table": raw[:-1] + b',"venues":{"1":{"x":1}}}',
                       "written by a newer ginscore": raw.replace(*newer)}[damage])
    before = other.read_bytes()
    assert before != raw, damage
    read = cli("--db", str(other), "sessions")
    assert read.exit_code in (0, 1) and "not JSON" not in read.stderr  # read as a database
    if damage in REFUSED_WHOLE:
        assert read.exit_code == 1 and str(other) in read.stderr, read.stderr
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    line = one_error_line(cli("export", "--output", other), 2)
    assert "is a ginscore database" in line
    assert other.read_bytes() == before


@pytest.mark.parametrize("damage", ["cut short by a byte", "a byte no UTF-8 has", "something after its end",
                                    "laid out by an editor and cut short", "saved as UTF-16 and cut short",
                                    "another program's table first, cut short"])
def test_export_never_replaces_a_database_damaged_past_reading(cli, ok, tmp_path, damage):
    """A backup cut short, or saved by an editor as Latin-1, is not read by any command (exit 1, the file
    named and left as it is); an export replaced it with a CSV, its evenings gone. It is refused now."""
    other = tmp_path / "backup.json"
    ok("--db", str(other), "new", "standard", "Cy", "Di", "--dealer", "Cy")
    ok("--db", str(other), "hand", "cy", "3", "20", "--note", "café")
    raw = other.read_bytes()
    other.write_bytes({"cut short by a byte": raw[:-1], "a byte no UTF-8 has": raw.replace("é".encode(), b"\xe9"),
                       "something after its end": raw + b"x",
                       "laid out by an editor and cut short": json.dumps(json.loads(raw), indent=2).encode()[:-3],
                       "saved as UTF-16 and cut short": raw.decode().encode("utf-16")[:-2],
                       "another program's table first, cut short": b'{"_default": {}, ' + raw[1:-1]}[damage])
    before = other.read_bytes()
    assert cli("--db", str(other), "status").exit_code == 1
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert "is a ginscore database" in one_error_line(cli("export", "--output", other), 2)
    assert other.read_bytes() == before
    notes = tmp_path / "notes.json"
    notes.write_text('{"sessions of the club": [1, 2', encoding="utf-8")  # not ours, though like it: replaced
    ok("export", "--output", notes)


def test_export_never_replaces_a_file_of_an_older_parted_database_nor_one_it_cannot_read(cli, ok, tmp_path, evening):
    """The parted layout of 2.x kept a database in several files: none of them is replaced by an
    export, nor is a file that cannot be read (it may be a database nobody can check)."""
    folder = tmp_path / "old"
    shutil.copytree(FIXTURES / "schema3", folder)
    for part in sorted(folder.iterdir()):
        before = part.read_bytes()
        line = one_error_line(cli("export", "--output", part), 2)
        assert "older ginscore database" in line or "is a ginscore database" in line, line
        assert part.read_bytes() == before


def test_export_never_replaces_a_file_it_cannot_read(cli, tmp_path):
    """(It may be a database nobody can check.) Root reads a file of mode 000, so as root this runs as nobody."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="ginscore-perm-", dir="/tmp")  # reachable by nobody, unlike tmp_path
    db, locked = os.path.join(folder, "ginscore.json"), os.path.join(folder, "locked.json")
    try:
        assert cli("--db", db, "new", "standard", "Ann", "Ben", "--dealer", "ann").exit_code == 0
        with open(locked, "w") as handle:
            handle.write("{}")
        os.chmod(folder, 0o777)
        os.chmod(locked, 0)
        if os.geteuid() == 0:
            status, said = run_as_nobody("--db", db, "export", "--output", locked)
        else:
            result = cli("--db", db, "export", "--output", locked)
            status, said = result.exit_code, result.stderr
        assert status == 2 and said.count("\n") == 1 and "cannot read" in said, said
        os.chmod(locked, 0o644)
        with open(locked) as handle:
            assert handle.read() == "{}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_export_to_a_loop_of_links_is_refused_as_a_file_it_cannot_write(refused, tmp_path, evening):
    """Two links naming each other: followed so far and no further, then refused with the system's reason."""
    (tmp_path / "l1").symlink_to("l2")
    (tmp_path / "l2").symlink_to("l1")
    refused("export", "--output", tmp_path / "l1",
            says=f"cannot write {tmp_path / 'l1'}: Too many levels of symbolic links; choose another --output")
    assert os.readlink(tmp_path / "l1") == "l2" and os.readlink(tmp_path / "l2") == "l1"


def test_export_to_dev_null_is_refused(cli, evening):
    before = path_state("/dev/null")
    assert "is a device" in one_error_line(cli("export", "--output", "/dev/null"), 2)
    assert path_state("/dev/null") == before


@pytest.mark.parametrize("named", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "a link to /dev/stdout", "//dev/fd/1",
                                   "a folder linked to /proc/self/fd"])
def test_export_onto_standard_output_by_name_never_replaces_the_file_a_shell_appends_to(tmp_path, db_path, evening,
                                                                                      named):
    """`ginscore export --output /dev/stdout >> log.csv` names log.csv itself: replaced whole, the lines the
    log already held were lost. Refused, exit 2, with the way to write to standard output."""
    import subprocess

    if named.startswith("a link"):
        os.symlink("/dev/stdout", tmp_path / "out.csv")
        named = str(tmp_path / "out.csv")
    elif named.startswith("a folder"):
        os.symlink("/proc/self/fd", tmp_path / "open")
        named = str(tmp_path / "open" / "1")
    log = tmp_path / "log.csv"
    log.write_text("kept,from,before\n")
    with open(log, "a") as appended:
        done = subprocess.run([str(Path(sys.executable).parent / "ginscore"), "export", "--output", named],
                              stdout=appended, stderr=subprocess.PIPE, text=True, env=dict(os.environ), timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "leave out --output to write to standard output" in done.stderr
    assert log.read_text() == "kept,from,before\n" and db_path.read_bytes() == evening


def test_export_output_dash_is_refused_rather_than_a_file_named_dash(cli, tmp_path, monkeypatch, evening):
    monkeypatch.chdir(tmp_path)
    assert "leave out --output to write to standard output" in one_error_line(cli("export", "--output", "-"), 2)
    assert not (tmp_path / "-").exists()
    assert cli("export", "--output", "./-").exit_code == 0 and (tmp_path / "-").is_file()  # as the refusal says


def test_export_replaces_an_existing_file_whole_and_keeps_its_bits(ok, tmp_path, evening):
    out = tmp_path / "out.csv"
    out.write_text("x" * 10_000)
    out.chmod(0o600)
    ok("export", "--output", out)
    text = out.read_text()
    assert text == ok("export").stdout and "x" not in text
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".out.csv.tmp-*"))


def test_export_through_a_symlink_writes_the_real_file_and_keeps_the_link(ok, tmp_path, evening):
    real = tmp_path / "backups" / "tonight.json"
    real.parent.mkdir()
    real.write_text("old")
    (tmp_path / "out.json").symlink_to("backups/tonight.json")
    ok("export", "-f", "json", "--output", tmp_path / "out.json")
    assert (tmp_path / "out.json").is_symlink()
    assert json.loads(real.read_text())["session"]["name"] == "standard-1"


def test_a_new_export_gets_the_umask_default(ok, tmp_path, evening):
    old = os.umask(0o027)
    try:
        ok("export", "--output", tmp_path / "new.csv")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640


def _export_dying_before_rename(db: str, out: str) -> None:
    """Run `export --output` but die (as a SIGKILL would) where the finished file would be renamed."""
    sys.stdout = sys.stderr = open(os.devnull, "w")
    os.replace = lambda src, dst: os._exit(9)
    run_main(["--db", db, "export", "--output", out])
    os._exit(0)


def test_an_export_cut_short_leaves_the_old_output_whole(tmp_path, db_path, evening):
    import multiprocessing

    out = tmp_path / "out.csv"
    out.write_text("the export of last week\n")
    child = multiprocessing.get_context("fork").Process(target=_export_dying_before_rename,
                                                         args=(str(db_path), str(out)))
    child.start()
    child.join()
    assert child.exitcode == 9
    assert out.read_text() == "the export of last week\n"  # never opened for writing in place
    assert list(tmp_path.glob(".out.csv.tmp-*")) and db_path.read_bytes() == evening


def test_an_export_carries_the_session_id_as_format_3(ok):
    """Format 3 carries the session's id, which an older ginscore would refuse as an unknown
    field rather than import the session without it."""
    ok("new", "standard", "Ann", "Ben")
    doc = json.loads(ok("export", "--format", "json").stdout)
    assert doc["ginscore_export"] == 3 and doc["session"]["id"].startswith("s-")
    ok("hand", "ann", "4", "22")  # format 4: each hand keeps who dealt it (H8)
    doc = json.loads(ok("export", "--format", "json").stdout)
    assert doc["ginscore_export"] == 4 and doc["session"]["hands"][0]["dealer"] in ("Ann", "Ben")


# --- never onto a file ginscore keeps beside a database: its lock, a temporary file, the copy an upgrade
# keeps, of the database in use or of any other (a lock replaced by an export is a new, unheld lock: a
# second writer would then run while the first still holds the old one) ---------------------------------

TEMP = ".g.json.tmp-4242-00c0ffee"


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
    beside = {p: path_state(p) for p in [other, target, *other.parent.iterdir()]}
    ours = db_path.read_bytes()
    result = cli("export", "--output", str(target))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert str(target) in result.stderr and "beside a database" in result.stderr
    assert {p: path_state(p) for p in beside} == beside and db_path.read_bytes() == ours
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
    fresh = tmp_path / "tonight.lock"  # not there yet, and no database named tonight beside it
    ok("export", "--output", str(fresh))
    assert fresh.read_text() == notes.read_text()
