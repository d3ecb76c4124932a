"""One TinyDB file: what is in it, what is beside it, its cache, and the upgrade from older layouts.

The database is one file a person can copy, sync and open with TinyDB; ginscore
creates only its lock beside it; what is derived from the facts lives in the
cache folder and is never needed (docs/storage.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ginscore.codec.facts import session_from_dict
from ginscore.core.stats import combine, packed, session_counts
from ginscore.db.sessions import SCHEMA_VERSION
from ginscore.db.store import Store
from ginscore.core.standings import history_row
from ginscore.core.replay import replay

from .conftest import database_files, run_cli, stored_sessions

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED_2 = json.loads((FIXTURES / "schema2-expected.json").read_text())
EXPECTED_3 = json.loads((FIXTURES / "schema3-expected.json").read_text())


def _meta(db_path: Path) -> dict:
    return json.loads(db_path.read_text())["meta"]["1"]


def _every_output(ok, *db) -> dict:
    """What every listing and every session's status, log and export say, as JSON."""
    sessions = ok(*db, "sessions", "--json").json()
    return {
        "sessions": sessions,
        "deleted": ok(*db, "sessions", "--deleted", "--json").json(),
        "history": ok(*db, "history", "--json").json(),
        "stats": ok(*db, "stats", "--json").json(),
        "status": {r["name"]: ok(*db, "status", "--json", "--session", r["name"]).json() for r in sessions},
        "log": {r["name"]: ok(*db, "log", "--json", "--session", r["name"]).json() for r in sessions},
        "export": {r["name"]: json.loads(ok(*db, "export", "-f", "json", "--session", r["name"]).stdout)
                   for r in sessions},
    }


def _holds(found, expected) -> bool:
    """``found`` says all that ``expected`` (what an older ginscore said) says; later versions may say more."""
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(k in found and _holds(found[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(_holds, found, expected))
    return found == expected


def _folder(db_path: Path) -> list[str]:
    return sorted(p.name for p in db_path.parent.iterdir() if p.name != "cache")


# --- the upgrade from both older layouts ------------------------------------------------------


def test_a_schema_2_file_is_read_as_is_then_upgraded_on_the_first_write_with_a_copy_kept(ok, db_path):
    old = (FIXTURES / "schema2.json").read_bytes()
    db_path.write_bytes(old)
    backup = db_path.with_name("ginscore.json.pre-3.bak") / "ginscore.json"
    before = _every_output(ok)  # readers of an old file: read-only, what 1.x said
    assert _holds(before, EXPECTED_2)
    assert db_path.read_bytes() == old and _folder(db_path) == ["ginscore.json"]
    ok("use", "friday")  # the first write
    assert backup.read_bytes() == old
    assert _meta(db_path)["schema_version"] == SCHEMA_VERSION == 4
    assert _every_output(ok) == before  # every export identical, ids included
    was = {s["name"]: s for s in json.loads(old)["sessions"].values()}
    now = {doc["name"]: {k: v for k, v in doc.items() if k != "id"} for doc in stored_sessions(db_path).values()}
    assert now == was  # the facts moved whole, each with an id
    ok("hand", "ann", "5", "15")
    assert ok("status", "--json").json()["totals"] == {"Ann": 28, "Ben": 67}
    assert backup.read_bytes() == old  # kept as it was
    assert _folder(db_path) == ["ginscore.json", "ginscore.json.lock", "ginscore.json.pre-3.bak"]


def _parted(tmp_path: Path) -> Path:
    """A copy of a real database of the parted layout (ginscore 2.x): club.json and its parts."""
    folder = tmp_path / "club"
    shutil.copytree(FIXTURES / "schema3", folder)
    return folder / "club.json"


def _without_ids(found):
    if isinstance(found, dict):
        return {k: _without_ids(v) for k, v in found.items() if k != "id"}
    if isinstance(found, list):
        return [_without_ids(v) for v in found]
    return found


def test_a_parted_database_is_read_as_it_is_then_upgraded_to_one_file(ok, tmp_path):
    club = _parted(tmp_path)
    old = {p.name: p.read_bytes() for p in club.parent.iterdir()}
    db = ("--db", str(club))
    before = _every_output(ok, *db)
    for name, export in EXPECTED_3["exports"].items():  # what ginscore 2.x exported, and each session's id
        assert before["export"][name]["ginscore_export"] == 3 and before["export"][name]["session"]["id"]
        assert _without_ids(before["export"][name])["session"] == export["session"]
        said = EXPECTED_3["csv"][name].splitlines()  # and its CSV, each row now ending in the session's id
        sid = before["export"][name]["session"]["id"]
        assert ok(*db, "export", "--session", name).stdout.splitlines() == \
            [said[0] + ",session_id"] + [row + "," + sid for row in said[1:]]
    assert before["deleted"] == EXPECTED_3["deleted"] and before["history"] == EXPECTED_3["history"]
    assert before["stats"] == EXPECTED_3["stats"]
    assert {p.name: p.read_bytes() for p in club.parent.iterdir()} == old  # reading changed nothing
    ok(*db, "use", "Holly")  # the first write
    assert _every_output(ok, *db) == before | {
        "sessions": [r | {"current": r["name"] == "Holly"} for r in before["sessions"]]}
    kept = club.parent / "club.json.pre-3.bak"
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == old  # every file of the old layout, as it was
    assert _folder(club) == ["club.json", "club.json.lock", "club.json.pre-3.bak"]  # one file again
    ok(*db, "hand", "ann", "2", "30", "--session", "Friday")
    assert ok(*db, "status", "--json", "--session", "Friday").json()["hands_played"] == 5


def test_an_upgrade_interrupted_after_its_copy_is_finished_by_the_next_write(ok, tmp_path):
    club = _parted(tmp_path)
    kept = club.parent / "club.json.pre-3.bak"
    kept.mkdir()
    (kept / "club.json").write_bytes(club.read_bytes())  # a copy a killed upgrade had made
    ok("--db", str(club), "use", "Threes")
    assert sorted(p.name for p in kept.iterdir()) == sorted(p.name for p in (FIXTURES / "schema3").iterdir())


# --- one file, and only its lock beside it -----------------------------------------------------

EVENING = [
    ["new", "standard", "Ann", "Ben", "--dealer", "Ann"], ["hand", "ann", "4", "22"], ["draw"], ["status"],
    ["log"], ["undo", "--yes"], ["edit", "1", "ben", "0", "30", "--note", "gin"], ["house", "--target", "150"],
    ["rename", "friday"], ["new", "hollywood", "Ann", "Cy", "--dealer", "Cy"], ["hand", "cy", "0", "20"],
    ["rematch"], ["new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben"], ["hand", "ann", "3", "30"],
    ["sessions"], ["history"], ["stats"], ["chart"], ["dealer"], ["delete", "friday", "--yes"],
    ["restore", "friday"], ["use", "friday"], ["export", "-f", "json"], ["rules"],
]


def test_the_folder_holds_exactly_the_database_and_its_lock_after_every_command(ok, db_path):
    for args in EVENING:
        ok(*args)
        assert _folder(db_path) == ["ginscore.json", "ginscore.json.lock"], args
    assert len(stored_sessions(db_path)) == 4


def test_tinydb_opens_the_file_as_a_persons_own_script_would(ok, db_path):
    for args in EVENING[:14]:
        ok(*args)
    script = (
        "import sys\n"
        "from tinydb import TinyDB\n"
        "db = TinyDB(sys.argv[1], access_mode='r', encoding='utf-8')\n"
        "for session in db.table('sessions').all():\n"
        "    print(session['id'], session['name'], session['variant'], len(session['hands'].split(';')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(db_path)], capture_output=True, text=True, check=True)
    names = [line.split()[1] for line in out.stdout.splitlines()]
    assert names == ["friday", "hollywood-1", "hollywood-2", "three-1"]
    assert all(line.startswith("s-") for line in out.stdout.splitlines())


@pytest.mark.parametrize("first", ["g", "g.json", "g.JSON", "g.json.bak"])
def test_two_databases_in_one_folder_never_touch_each_others_files(ok, tmp_path, first):
    folder = tmp_path / "shared"
    folder.mkdir()
    names = ["g", "g.json", "g.JSON", "g.json.bak"]
    for name in [first] + [n for n in names if n != first]:
        ok("--db", str(folder / name), "new", "standard", name.replace(".", "x"), "Ben", "--dealer", "Ben")
    for name in names:
        before = {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in (name, name + ".lock")}
        ok("--db", str(folder / name), "hand", "ben", "3", "20")
        ok("--db", str(folder / name), "new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
        assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in (name, name + ".lock")} == before
    for name in names:
        listed = ok("--db", str(folder / name), "sessions", "--json").json()
        assert listed[0]["players"] == [name.replace(".", "x"), "Ben"] and len(listed) == 2
    assert sorted(p.name for p in folder.iterdir()) == sorted(names + [n + ".lock" for n in names])


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_a_missing_or_empty_database_touches_nothing_beside_it(cli, ok, tmp_path, state):
    """A sync client replacing the file leaves it missing or empty for a moment: it is read as
    what it is (no sessions), and nothing beside it is touched (the old engine deleted its parts)."""
    club = _parted(tmp_path)
    beside = {p.name: p.read_bytes() for p in club.parent.iterdir() if p != club}
    if state == "missing":
        club.unlink()
    else:
        club.write_bytes(b"")
    result = cli("--db", str(club), "use", "Friday")
    assert result.exit_code == 2 and "no session" in result.stderr
    result = cli("--db", str(club), "hand", "ann", "1", "30")
    assert result.exit_code == 2
    assert {p.name: p.read_bytes() for p in club.parent.iterdir() if p != club and p.name != "club.json.lock"} == beside


def test_an_older_database_restored_from_a_backup_is_read_as_it_is(ok, tmp_path):
    club = _parted(tmp_path)
    ok("--db", str(club), "use", "Friday")  # upgraded: one file
    older = club.parent / "club.json.pre-3.bak"
    for part in older.iterdir():  # the person puts the old folder back beside the new file, by hand
        shutil.copy(part, club.parent / part.name)
    assert ok("--db", str(club), "status", "--json").json()["hands_played"] == 4
    ok("--db", str(club), "hand", "ann", "1", "30")  # writes the one file, reads the old one as it is
    assert ok("--db", str(club), "status", "--json").json()["hands_played"] == 5


# --- caches: in the cache folder, never needed, trusted only on a digest ------------------------

LISTINGS = [
    ["sessions", "--json"], ["sessions", "--json", "--deleted"], ["history", "--json"],
    ["history", "--json", "--player", "cy"], ["history", "--json", "--variant", "hollywood"],
    ["stats", "--json"], ["stats", "--json", "--variant", "standard"], ["stats", "--json", "--player", "ben"],
    ["stats", "--json", "--since", "2026-01-01"], ["stats", "--json", "--since", "2999-01-01"], ["stats", "ann", "--json"],
    ["history"], ["sessions"], ["stats"],
]


def _listings(ok) -> list:
    return [ok(*args).stdout for args in LISTINGS]


@pytest.mark.parametrize("indexed", [False, True], ids=["small", "indexed"])
def test_deleting_the_cache_or_an_unwritable_cache_folder_changes_no_output(ok, db_path, tmp_path, monkeypatch,
                                                                            indexed):
    if indexed:  # as a file of a mebibyte or more is read (layout.INDEXED_FROM)
        monkeypatch.setattr("ginscore.db.index.INDEXED_FROM", 0)
    for args in EVENING:
        ok(*args)
    cold = _listings(ok)
    cache = tmp_path / "cache"
    # in the cache folder: the rows and tallies, the items of the JSON lists, and for a large file
    # the index of where each session is in it
    kept = ["items.json", "json"] + (["places.json"] if indexed else [])
    assert sorted(p.name.split(".", 1)[1] for p in cache.iterdir()) == kept
    assert _listings(ok) == cold  # warm
    shutil.rmtree(cache)
    assert _listings(ok) == cold
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("GINSCORE_CACHE", str(blocker / "below"))
    assert _listings(ok) == cold
    monkeypatch.delenv("GINSCORE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _listings(ok) == cold and list((tmp_path / "xdg" / "ginscore").iterdir())
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _listings(ok) == cold and list((tmp_path / "home" / ".cache" / "ginscore").iterdir())
    monkeypatch.chdir(tmp_path / "home")
    for home in ("", "relative"):  # no home: no cache, never the root's or the current folder's .cache
        monkeypatch.setenv("HOME", home)
        monkeypatch.setenv("XDG_CACHE_HOME", "xdg-relative")
        assert _listings(ok) == cold
        assert not (tmp_path / "home" / "xdg-relative").exists() and not (tmp_path / "home" / "relative").exists()
        assert sorted(p.name for p in (tmp_path / "home").iterdir()) == [".cache"]


def test_an_edit_by_hand_that_keeps_size_and_time_is_seen(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "one")
    ok("hand", "ann", "2", "12")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "two")
    ok("hand", "ben", "3", "9")
    before = ok("stats", "--json").json()["players"]["Ann"]
    global ROW_BEFORE_EDIT
    ROW_BEFORE_EDIT = next(r for r in ok("history", "--json").json() if r["name"] == "one")
    assert "10" in json.dumps(ROW_BEFORE_EDIT)
    was = db_path.stat()
    raw = db_path.read_bytes()
    db_path.write_bytes(raw.replace(b"knock|Ann|2|12", b"knock|Ann|2|19", 1))  # same size
    os.utime(db_path, ns=(was.st_atime_ns, was.st_mtime_ns))  # and the same time
    assert db_path.stat().st_size == was.st_size and db_path.stat().st_mtime_ns == was.st_mtime_ns
    after = ok("stats", "--json").json()["players"]["Ann"]
    assert after != before
    row = next(r for r in ok("history", "--json").json() if r["name"] == "one")
    assert ok("status", "--json", "--session", "one").json()["totals"]["Ann"] == 17
    assert row != ROW_BEFORE_EDIT and "17" in json.dumps(row)
    ok("hand", "ann", "1", "30", "--session", "two")  # a later write elsewhere keeps the hand edit
    assert ok("status", "--json", "--session", "one").json()["totals"]["Ann"] == 17


@pytest.mark.parametrize("damage", [b"NaN", b"Infinity", b"-Infinity"])
def test_a_nan_edited_in_is_damage_a_kept_row_never_hides(ok, cli, db_path, tmp_path, monkeypatch, damage):
    """orjson writes NaN as null, so a session with a NaN edited in once digested like the session
    before the edit, and the lists showed its kept row with exit 0 where a cold cache says damaged."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "alpha")
    ok("hand", "ann", "3", "20")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "beta")
    lists = [["history", "--json"], ["sessions", "--json"], ["stats", "--json"]]
    for args in lists:
        ok(*args)  # the rows kept
    raw = db_path.read_bytes()
    db_path.write_bytes(raw.replace(b'"big_gin_bonus":null', b'"big_gin_bonus":' + damage, 1))
    for args in lists:
        warm = cli(*args)
        monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cold"))
        cold = cli(*args)
        monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cache"))
        assert warm.exit_code == cold.exit_code == 1 and "damaged session 'alpha'" in warm.stderr, args
        assert (warm.stdout, warm.stderr) == (cold.stdout, cold.stderr)


def _replayed(doc: dict) -> dict:
    standings = replay(session_from_dict(doc, strict=False))
    return history_row(standings) | {"counts": packed(session_counts(standings))["counts"]}


def _legal_sessions(count: int) -> list:
    """Sessions of every variant, legal hand by hand, some over (the benchmark's builder)."""
    import random

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from cli_latency import VARIANTS, _session
    finally:
        sys.path.pop(0)
    rng = random.Random(12)
    return [_session(rng, n, VARIANTS[n % 4], rng.randint(0, 30), live=False) for n in range(count)]


def test_the_cached_rows_equal_a_replay_of_every_session(ok, db_path, tmp_path):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ben")
    with Store(db_path).writing() as db:
        for facts in _legal_sessions(65):
            db.add(facts)
    ok("use", "hollywood-1")
    for args in (["hand", "ann", "0", "30"], ["draw"], ["hand", "ben", "8", "5"], ["undo", "--yes"],
                 ["edit", "1", "ben", "3", "20"], ["rename", "evening"], ["delete", "oklahoma-1", "--yes"],
                 ["restore", "oklahoma-1"], ["delete", "three-3", "--yes"], ["use", "evening"], ["rematch"],
                 ["hand", "ann", "2", "40"]):
        ok(*args)
    ok("stats", "--json")  # makes the cache
    from ginscore.cache.files import Cache

    cache = Cache(os.path.realpath(db_path))
    rows, digests = cache.keyed("rows"), cache.section("digests")
    facts = stored_sessions(db_path)
    live = {key: doc for key, doc in facts.items() if not doc.get("deleted_at")}
    assert len(facts) == 67 and len(live) == 66 and len(rows.keys()) == 66  # what stats reads: the live ones
    from ginscore.cache.rows import sound_row

    for key, doc in live.items():
        assert rows.get(digests[key]) == json.loads(json.dumps(_replayed(doc)))
        assert sound_row(rows.get(digests[key]))  # so a kept row is taken, never made again
    in_order = sorted((_replayed(doc) | {"id": int(key)} for key, doc in facts.items() if not doc.get("deleted_at")),
                      key=lambda row: (row["created_at"] or "", row["id"]))
    assert ok("stats", "--json").json() == json.loads(json.dumps(combine(in_order)))


DAMAGES = ["body changed", "stamp of other code", "cut short", "empty", "not JSON", "a folder", "a fifo",
           "two sections swapped"]


@pytest.mark.parametrize("kind, damage", [("json", damage) for damage in DAMAGES] + [
    ("json", "a row of another shape under a matching digest"), ("json", "a row of another shape, not JSON")] + [
    ("items.json", damage) for damage in DAMAGES])  # the rows and tallies; the JSON lists' items
def test_a_damaged_or_forged_cache_is_made_again_never_trusted(ok, db_path, tmp_path, kind, damage):
    for args in EVENING[:14]:
        ok(*args)
    expected = _listings(ok)
    (cache,) = (p for p in (tmp_path / "cache").iterdir() if p.name.split(".", 1)[1] == kind)
    head, _, body = cache.read_bytes().partition(b"\n")
    if damage == "body changed":
        cache.write_bytes(head + b"\n" + body.replace(b'"Ann"', b'"Zed"'))
    elif damage == "stamp of other code":
        cache.write_bytes(head.replace(b'"version":"', b'"version":"0') + b"\n" + body)
    elif damage == "cut short":
        cache.write_bytes(head + b"\n" + body[: len(body) // 2])
    elif damage == "empty":
        cache.write_bytes(b"")
    elif damage == "not JSON":
        cache.write_bytes(b"\x00\xff garbage\n{")
    elif damage.startswith("a row of another shape"):
        from ginscore.cache.files import Cache

        kept = Cache(os.path.realpath(db_path))
        rows = kept.keyed("rows")
        forged = b'{"x":1}' if damage.endswith("digest") else b'not json'
        kept.put_keyed("rows", {key: forged if n == 0 else rows.raw(key) for n, key in enumerate(rows.keys())})
        kept.save(kept.made_from, kept.names())
        assert Cache(os.path.realpath(db_path)).keyed("rows").raw(next(iter(rows.keys()))) == forged
    elif damage == "two sections swapped":  # each still sealed for its bytes, read under the other's name
        stamp = json.loads(head)
        first, second = sorted(stamp["sections"])[:2]
        stamp["sections"][first], stamp["sections"][second] = stamp["sections"][second], stamp["sections"][first]
        cache.write_bytes(json.dumps(stamp).encode() + b"\n" + body)
    elif damage == "a folder":
        cache.unlink()
        cache.mkdir()
    else:
        cache.unlink()
        os.mkfifo(cache)
    assert _listings(ok) == expected


def test_kept_values_read_many_at_once_are_each_ones_own():
    """A listing parses its rows a few hundred at a time; a kept value that is not one JSON value
    reads as missing (made again), and never shifts another key's value."""
    from ginscore.cache.files import Keyed

    values = {f"k{n}": json.dumps({"n": n}).encode() for n in range(1_203)}
    assert Keyed.made(values).get_many(list(values)) == [{"n": n} for n in range(1_203)]
    damaged = values | {"k3": b'{"n": 3}, {"n": 4}', "k700": b"", "k900": b"[1"}
    expected = [None if n in (3, 700, 900) else {"n": n} for n in range(1_203)]
    assert Keyed.made(damaged).get_many(list(values)) == expected
    assert Keyed.made(values).get_many(["k5", "missing", "k5"]) == [{"n": 5}, None, {"n": 5}]
    unsound = Keyed({"a": [0, 2], "b": [2, 99], "c": "x", "d": [2, 4]}, b'{}{}', b"")  # made again: the sound kept
    assert unsound.kept({"a", "b", "c", "e"}) == {"a": b"{}"} and unsound.kept({"d"}) == {"d": b"{}"}


# --- the findings of the hostile user, one by one ---------------------------------------------


def test_importing_a_session_twice_adds_it_once(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--stake", "0.10")
    for args in (["hand", "ann", "0", "30"], ["hand", "ann", "0", "30"]):
        ok(*args)
    export = tmp_path / "s1.json"
    export.write_text(ok("export", "-f", "json").stdout)
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "import", str(export))
    settled = ok(*other, "stats", "--json").json()
    before = (tmp_path / "other.json").read_bytes()
    out = ok(*other, "import", str(export)).stdout
    assert "Already here" in out and "nothing was written" in out
    assert (tmp_path / "other.json").read_bytes() == before
    assert ok(*other, "stats", "--json").json() == settled
    assert len(ok(*other, "sessions", "--json").json()) == 1


def test_an_exact_name_of_a_deleted_session_is_never_a_prefix_of_another(ok, refused, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "standard-13")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "standard-130")
    ok("delete", "standard-13", "--yes")
    before = db_path.read_bytes()
    line = refused("hand", "ann", "1", "30", "--session", "standard-13", says="is deleted")
    assert "ginscore restore standard-13" in line and db_path.read_bytes() == before
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday night")
    ok("use", "friday")  # an exact name beats a prefix of another
    assert ok("status", "--json").json()["session"] == "Friday"
    assert ok("status", "--json", "--session", "FRIDAY").json()["session"] == "Friday"
    assert ok("use", "standard-1").stdout.count("standard-130") == 1  # a prefix of no exact name: the live one


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


def test_a_warm_cache_says_what_a_cold_one_says_after_every_write(ok, db_path, tmp_path, monkeypatch):
    """Listings read one after another (each writing the cache) after each write of an evening,
    compared with the same listings made from no cache at all."""
    warm = tmp_path / "cache"
    for step, args in enumerate(EVENING):
        ok(*args)
        reads = [["sessions", "--json"], ["stats", "--json"], ["ratings", "--json"], ["history", "--json"],
                 ["ratings", "--json", "--player", "ann"], ["stats", "--json", "--variant", "standard"]]
        found = [ok(*read).stdout for read in reads]
        monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / f"cold-{step}"))
        assert [ok(*read).stdout for read in reads] == found, args
        monkeypatch.setenv("GINSCORE_CACHE", str(warm))
