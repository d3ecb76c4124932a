"""The index of where each session is in the file, and the lazy reader and writer it serves."""

from __future__ import annotations

import json
import os

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginscore.db.layout
from ginscore.cache.files import Cache
from ginscore.db.database import SCHEMA_VERSION
from ginscore.db.store import Store
from ginscore.db.layout import (
    OUTLINED,
    Stored,
    digest,
    digest_soon,
    fits,
    index_after,
    index_of,
    laid_out,
    lazy_tables,
    outline,
)
from tests.profiles import examples
from tests.support import EVENING, every_output

INDEXED_FROM = ginscore.db.layout.INDEXED_FROM  # as shipped (the tests below lower it to 0)


_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=12) | st.floats(
    allow_nan=False, allow_infinity=False)


_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=6), inner, max_size=3), max_leaves=8)


_docs = st.dictionaries(st.sampled_from(OUTLINED + ("hands", "rules", "players", "notes", "}", '","1":{')),
                        _values, max_size=8)


@given(meta=st.dictionaries(st.sampled_from(["1"]), st.dictionaries(st.text(max_size=8), _values, max_size=3)),
       sessions=st.dictionaries(st.integers(1, 10**6).map(str), _docs, max_size=6))
@settings(max_examples=examples(200))
def test_a_document_at_a_time_is_the_same_bytes_as_the_tables_at_once(meta, sessions):
    sessions = dict(sorted(sessions.items(), key=lambda item: int(item[0])))  # as TinyDB adds them
    tables = {"meta": meta, "sessions": sessions}
    written, places = laid_out(tables)
    assert written == orjson.dumps(tables)
    for slot, doc in enumerate(sessions.values()):
        assert orjson.loads(written[places[2 * slot]:places[2 * slot + 1]]) == doc
    index = index_of("d", written, tables)
    assert index["places"] == places and index["numbers"] == [int(key) for key in sessions]
    assert index["outlines"] == [outline(doc) for doc in sessions.values()]
    assert fits(index, "d", len(written)) and not fits(index, "e", len(written))


@given(sessions=st.lists(_docs, min_size=1, max_size=8), data=st.data())
@settings(max_examples=examples(200))
def test_a_lazy_writer_writes_the_bytes_a_whole_one_writes(sessions, data):
    """Some sessions read, some replaced, some added, the meta table changed: laid out from the lazy
    tables (sessions not read kept as their bytes), the file is the one orjson writes of the whole
    tables, and its index the one worked out from every session."""
    tables = {"meta": {"1": {"current": "a"}}, "sessions": {str(n + 1): doc for n, doc in enumerate(sessions)}}
    raw = orjson.dumps(tables)
    lazy = lazy_tables(index_of("old", raw, tables), raw)
    whole = json.loads(json.dumps(tables))
    for key in data.draw(st.lists(st.sampled_from(sorted(lazy["sessions"])), max_size=3)):
        lazy["sessions"][key] = lazy["sessions"][key].parsed() if type(lazy["sessions"][key]) is Stored else \
            lazy["sessions"][key]
        if data.draw(st.booleans()):
            whole["sessions"][key] = lazy["sessions"][key] = data.draw(_docs)
    for key in data.draw(st.lists(st.sampled_from(sorted(lazy["sessions"])), max_size=1, unique=True)):
        if data.draw(st.booleans()):  # removed (a merge's or a person's script's)
            del whole["sessions"][key], lazy["sessions"][key]
    for n in range(data.draw(st.integers(0, 2))):
        whole["sessions"][str(len(sessions) + 1 + n)] = lazy["sessions"][str(len(sessions) + 1 + n)] = data.draw(_docs)
    whole["meta"]["1"]["current"] = lazy["meta"]["1"]["current"] = data.draw(st.text(max_size=5))
    written, places = laid_out(lazy)
    assert written == orjson.dumps(whole)
    old = index_of("old", raw, tables)
    assert index_after("new", lazy, places, old["outlines"]) == index_of("new", written, whole)


def test_an_index_that_does_not_lay_the_file_out_gives_no_lazy_tables():
    tables = {"meta": {"1": {}}, "sessions": {"1": {"name": "a", "notes": {"7": {"x": 1}}}, "2": {"name": "b"}}}
    raw = orjson.dumps(tables)
    index = index_of("d", raw, tables)
    assert lazy_tables(index, raw) is not None
    index["places"][1] -= 1  # a session cut short
    assert lazy_tables(index, raw) is None
    swapped = index_of("d", raw, tables)
    swapped["numbers"] = [2, 1]  # each session under the other's key
    assert lazy_tables(swapped, raw) is None


def test_another_layout_has_no_index():
    tables = {"meta": {"1": {"schema_version": 4}}, "sessions": {"1": {"name": "a"}, "2": {"name": "b"}}}
    assert index_of("d", json.dumps(tables, indent=2).encode(), tables) is None  # a person's script wrote it
    assert index_of("d", json.dumps(tables).encode(), tables) is None  # Python's json: spaces after : and ,
    turned = {"sessions": tables["sessions"], "meta": tables["meta"]}
    assert index_of("d", orjson.dumps(turned), turned) is None
    assert index_of("d", b"", {}) is None
    backwards = {"meta": {}, "sessions": {"2": {"name": "b"}, "1": {"name": "a"}}}  # not as TinyDB adds them
    assert laid_out(backwards)[0] == orjson.dumps(backwards) and index_of("d", orjson.dumps(backwards), backwards) is None
    assert outline({"name": "a", "hands": "x", "id": "s-1"}) == {"id": "s-1", "name": "a"}


@pytest.fixture(autouse=True)
def _every_file_indexed(monkeypatch):
    """The index is what these tests are about: every file has one, however small (a real one
    only from ``layout.INDEXED_FROM``, a mebibyte)."""
    monkeypatch.setattr("ginscore.db.layout.INDEXED_FROM", 0)


def _places(db_path) -> Cache:
    return Cache(os.path.realpath(db_path), "places")


def _index(db_path):
    return _places(db_path).section("index")


@pytest.mark.parametrize("beside", [False, True], ids=["hashed-at-once", "hashed-beside"])
def test_every_write_keeps_where_each_session_is_for_the_file_it_wrote(ok, db_path, monkeypatch, beside):
    """(A file over a MiB is hashed in a thread while the cache is read or the file written: here every
    file is, so that path is the one the evening takes.)"""
    if beside:
        monkeypatch.setattr("ginscore.db.layout.DIGEST_BESIDE", 0)
    for args in EVENING[:14]:
        ok(*args)
        index = _index(db_path)
        raw = db_path.read_bytes()
        assert index["file"] == digest(raw), args
        docs = json.loads(raw)["sessions"]
        assert index["numbers"] == [int(key) for key in docs]
        places = index["places"]
        for slot, key in enumerate(docs):
            assert json.loads(raw[places[2 * slot]:places[2 * slot + 1]]) == docs[key]
            assert index["outlines"][slot] == {k: docs[key][k] for k in OUTLINED if k in docs[key]}


def test_a_digest_worked_out_beside_is_the_digest(monkeypatch):
    for size in (0, 10, 3 << 20):
        data = os.urandom(size)
        assert digest_soon(data)() == digest(data)
        monkeypatch.setattr("ginscore.db.layout.DIGEST_BESIDE", 0)
        assert digest_soon(data)() == digest(data)
        monkeypatch.undo()


@pytest.mark.parametrize("beside", [False, True], ids=["hashed-at-once", "hashed-beside"])
def test_a_reader_through_the_places_says_what_a_reader_of_the_whole_file_says(ok, db_path, tmp_path, monkeypatch,
                                                                                beside):
    if beside:
        monkeypatch.setattr("ginscore.db.layout.DIGEST_BESIDE", 0)
    for args in EVENING:
        ok(*args)
    ok("delete", "hollywood-2", "--yes")
    assert _index(db_path)["file"] == digest(db_path.read_bytes())
    through_places = every_output(ok)
    ratings = ok("ratings", "--json").stdout
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "none-yet"))
    assert every_output(ok) == through_places
    assert ok("ratings", "--json").stdout == ratings


def test_a_file_rewritten_by_a_persons_script_is_read_whole_and_the_same(ok, db_path):
    for args in EVENING[:14]:
        ok(*args)
    before = every_output(ok)
    tables = json.loads(db_path.read_bytes())
    db_path.write_text(json.dumps(tables, indent=4, ensure_ascii=False), encoding="utf-8")  # TinyDB's own way
    assert every_output(ok) == before
    assert _index(db_path)["file"] != digest(db_path.read_bytes())  # no places for that layout
    ok("hand", "ann", "1", "30")
    assert _index(db_path)["file"] == digest(db_path.read_bytes())


def _forged(db_path, change) -> None:
    """The cache's index changed by ``change`` and sealed again, as only someone forging it would."""
    cache = _places(db_path)
    index = json.loads(json.dumps(cache.section("index")))  # a copy: the kept one is compared with it
    change(index, db_path.read_bytes())
    cache.keep_index(index)
    assert _index(db_path) == index


def _swap_first_two(index, raw):
    places = index["places"]
    places[0:2], places[2:4] = places[2:4], places[0:2]


def _swap(index, raw, keys=("numbers", "outlines", "places")):
    for key in keys:
        width = 2 if key == "places" else 1
        found = index[key]
        found[0:width], found[width:2 * width] = found[width:2 * width], found[0:width]


FORGERIES = {
    "two sessions' numbers, places and outlines swapped": _swap,
    "numbers not whole": lambda index, raw: index["numbers"].__setitem__(0, "1"),
    "a place past the end": lambda index, raw: index["places"].__setitem__(-1, len(raw) + 10),
    "places out of order": _swap_first_two,
    "a place on the meta table": lambda index, raw: index["places"].__setitem__(slice(0, 2), [8, raw.index(b"}}") + 2]),
    "a place on another session": lambda index, raw: index["places"].__setitem__(
        slice(0, 2), index["places"][2:4]),
    "an outline not an object": lambda index, raw: index["outlines"].__setitem__(0, ["friday"]),
    "no meta": lambda index, raw: index.__setitem__("meta", []),
    "fewer outlines": lambda index, raw: index["outlines"].pop(),
    "the meta document not an object": lambda index, raw: index["meta"].__setitem__("1", []),
    "numbers a number": lambda index, raw: index.__setitem__("numbers", 5),
    "places a number": lambda index, raw: index.__setitem__("places", 5),
    "outlines a number": lambda index, raw: index.__setitem__("outlines", 5),
    "a place not whole": lambda index, raw: index["places"].__setitem__(0, index["places"][0] + 0.5),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_index_is_never_believed(ok, db_path, tmp_path, monkeypatch, forgery):
    for args in EVENING[:14]:
        ok(*args)
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cold"))
    expected = every_output(ok)
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cache"))
    _forged(db_path, FORGERIES[forgery])
    assert every_output(ok) == expected


def test_an_index_whose_outlines_were_swapped_still_gives_each_session_its_own_facts(ok, db_path):
    """A forged outline is what the lists show (the cache is the user's own, sealed against damage, not
    forgery), but the facts read for a session are always that session's: the file decides."""
    for args in EVENING[:14]:
        ok(*args)
    expected = every_output(ok)
    _forged(db_path, lambda index, raw: _swap(index, raw, keys=("outlines",)))
    found = every_output(ok)
    for name in ("status", "log", "export"):
        assert found[name] == expected[name]


def test_a_hand_finds_the_new_places_from_the_old_not_from_every_session(ok, db_path, monkeypatch):
    """Writing every session again to find where it went costs a 100,000-hand file about 40 ms: a
    writer that changed one session finds the places from the old index, and only without one (here:
    before the first write that keeps it) goes through every session."""
    import ginscore.db.layout

    for args in EVENING[:14]:
        ok(*args)

    def every_session(*args):
        raise AssertionError("every session laid out again")

    monkeypatch.setattr(ginscore.db.layout, "index_of", every_session)
    ok("use", "friday")
    for args in (["hand", "ann", "2", "30"], ["draw"], ["edit", "1", "ben", "3", "20"], ["undo", "--yes"],
                 ["rename", "late"], ["new", "standard", "Ann", "Ben", "--dealer", "Ann"], ["hand", "ben", "1", "9"]):
        ok(*args)
        assert _index(db_path)["file"] == digest(db_path.read_bytes()), args


def test_with_no_cache_to_keep_it_in_a_reader_never_works_out_an_index(ok, db_path, tmp_path, monkeypatch):
    """An index is worth working out only to be kept: with a cache folder that cannot be written (or
    none at all), a reader reads the file whole and lays out nothing more."""
    import ginscore.db.layout

    for args in EVENING[:14]:
        ok(*args)
    expected = every_output(ok)

    def every_session(*args):
        raise AssertionError("every session laid out for nothing")

    monkeypatch.setattr(ginscore.db.layout, "index_of", every_session)
    blocker = tmp_path / "a-file"
    blocker.write_text("where the cache folder would be")
    for cache in (blocker / "below", blocker):
        monkeypatch.setenv("GINSCORE_CACHE", str(cache))
        assert every_output(ok) == expected
    monkeypatch.setenv("GINSCORE_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", "")
    assert every_output(ok) == expected


def test_a_file_that_holds_no_session_yet_is_written_through_its_index(ok, db_path):
    """A file laid out as ginscore writes it, with its meta table and not one session: a reader keeps
    its index, and the first `new` written through that index starts the session."""
    db_path.write_bytes(b'{"meta":{"1":{"schema_version":%d,"current":null}},"sessions":{}}' % SCHEMA_VERSION)
    assert ok("sessions", "--json").json() == []
    assert _index(db_path)["numbers"] == []
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "first")
    assert ok("status", "--json").json()["session"] == "first"


def test_a_small_file_is_read_whole_and_keeps_no_index(ok, db_path, tmp_path, monkeypatch):
    """Under ``layout.INDEXED_FROM`` bytes a file is parsed whole, in less time than it takes to import
    hashlib, hash the file and read an index: no reader or writer keeps one, and every command says
    what it says through an index. From that size on, the first write keeps one."""
    for args in EVENING[:14]:
        ok(*args)
    indexed = every_output(ok)
    monkeypatch.setattr(ginscore.db.layout, "INDEXED_FROM", INDEXED_FROM)
    assert len(db_path.read_bytes()) < INDEXED_FROM
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "small"))
    ok("hand", "ann", "1", "30")
    ok("undo", "--yes")
    assert every_output(ok) == indexed
    assert _index(db_path) is None
    monkeypatch.setattr(ginscore.db.layout, "INDEXED_FROM", len(db_path.read_bytes()))  # as large as it
    assert every_output(ok) == indexed
    assert _index(db_path)["file"] == digest(db_path.read_bytes())  # a reader keeps it for the next


WRITES = EVENING + [
    ["hand", "ann", "2", "30", "--session", "friday"], ["edit", "1", "ben", "3", "20", "--session", "friday"],
    ["house", "--target", "120", "--session", "friday", "--from-start"], ["delete", "hollywood-1", "--yes"],
    ["restore", "hollywood-1", "--name", "old hollywood"], ["rename", "--session", "three-1", "the three"],
    ["undo", "--yes", "--session", "friday"], ["rematch", "--session", "friday", "--yes"],
]


def test_a_writer_that_reads_only_what_it_changes_writes_the_file_a_whole_writer_would(ok, db_path, monkeypatch):
    """With the index of the file it reads, a writer parses only the sessions it looks at: the file it
    writes is byte for byte orjson's of its tables, and every session it did not change keeps its bytes."""
    import ginscore.db.storage

    for args in WRITES[:2]:
        ok(*args)
    for args in WRITES[2:]:
        before = json.loads(db_path.read_bytes())["sessions"]
        raw = db_path.read_bytes()
        places = _index(db_path)["places"]
        kept = {key: raw[places[2 * slot]:places[2 * slot + 1]] for slot, key in enumerate(before)}
        with monkeypatch.context() as patched:
            patched.setattr(ginscore.db.storage, "parsed", lambda *a: pytest.fail(f"{args}: the whole file parsed"))
            ok(*args)
        raw = db_path.read_bytes()
        assert raw == orjson.dumps(orjson.loads(raw)), args
        index = _index(db_path)
        assert index["file"] == digest(raw), args
        after = json.loads(raw)["sessions"]
        for slot, key in enumerate(after):
            if key in before and after[key] == before[key]:
                assert raw[index["places"][2 * slot]:index["places"][2 * slot + 1]] == kept[key], (args, key)


@pytest.mark.parametrize("command", [["hand", "ann", "2", "30", "--session", "friday"],
                                     ["rename", "--session", "hollywood-1", "cy and ann"],
                                     ["delete", "friday", "--yes"], ["use", "hollywood-1"]])
def test_a_forged_index_never_makes_a_writer_change_another_session(cli, ok, db_path, tmp_path, monkeypatch,
                                                                     command):
    """Outlines swapped (friday's is hollywood-1's): a writer that finds a session by its outline checks
    it against the session's document, stops (exit 1, nothing written) and sets the index aside, so the
    command run again does what it says."""
    for args in EVENING[:14]:
        ok(*args)
    _forged(db_path, lambda index, raw: _swap(index, raw, keys=("outlines",)))  # friday <-> hollywood-1
    before = db_path.read_bytes()
    stopped = cli(*command)
    assert stopped.exit_code == 1 and "run the command again" in stopped.stderr and stopped.stderr.count("\n") == 1
    assert db_path.read_bytes() == before
    ok("hand", "ann", "2", "30", "--session", "friday")
    ok("rename", "--session", "hollywood-1", "cy and ann")
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cold"))
    friday = ok("log", "--json", "--session", "friday").json()
    assert friday["variant"] == "standard" and len(friday["hands"]) == 2
    assert ok("status", "--json", "--session", "cy and ann").json()["variant"] == "hollywood"
    assert len(ok("log", "--json", "--session", "cy and ann").json()["hands"]) == 1


def test_a_merge_into_a_file_read_through_its_index_writes_what_a_merge_into_it_read_whole_writes(ok, db_path,
                                                                                                   tmp_path,
                                                                                                   monkeypatch):
    """Another machine's copy played on (a later hand, a session whose name is taken here) merged into a file
    whose index is kept and which lost a session in an editor: the file, the report and every listing after
    it are those of the same merge with no index to read through, and the index kept is the new file's."""
    for args in EVENING[:14]:
        ok(*args)
    theirs = tmp_path / "laptop.json"
    theirs.write_bytes(db_path.read_bytes())
    for args in (["hand", "cy", "2", "30", "--session", "three-1"],
                 ["new", "standard", "Ann", "Cy", "--dealer", "Cy", "--name", "sat"], ["hand", "cy", "0", "10"]):
        ok("--db", str(theirs), *args)
    data = orjson.loads(db_path.read_bytes())
    del data["sessions"]["2"]  # hollywood-1, lost here: theirs comes back before three-1 takes its later hand
    db_path.write_bytes(orjson.dumps(data))
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--name", "sat")
    before = db_path.read_bytes()
    ok("sessions")  # the index of this file, kept
    lazy, opened = [], []
    real, writing = ginscore.db.layout.lazy_tables, Store.writing
    monkeypatch.setattr("ginscore.db.layout.lazy_tables", lambda *a: lazy.append(real(*a)) or lazy[-1])
    monkeypatch.setattr(Store, "writing", lambda store: opened.append(store) or writing(store))
    through_index = ok("merge", str(theirs), "--json").stdout
    # read through the index, and not run again from the whole file (what a cache that breaks a command gets)
    assert lazy[0] is not None and len(opened) == 1
    monkeypatch.setattr(Store, "writing", writing)
    written = db_path.read_bytes()
    assert _index(db_path)["file"] == digest(written)
    listed = every_output(ok)
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "none-yet"))
    assert every_output(ok) == listed
    db_path.write_bytes(before)
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "none-again"))
    assert ok("merge", str(theirs), "--json").stdout == through_index
    assert db_path.read_bytes() == written
    report = json.loads(through_index)
    assert [row["name"] for row in report["added"]] == ["hollywood-1", "sat (merged)"]
    assert [row["name"] for row in report["extended"]] == ["three-1"]
