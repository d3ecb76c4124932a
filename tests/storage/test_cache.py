"""The cache of rows derived from the file: never trusted over the file, the same warm or cold."""

from __future__ import annotations

import copy
import json
import os
import shutil

import pytest

from ginscore.codec.facts import session_from_dict
from ginscore.core.replay import replay
from ginscore.core.reports import history_row
from ginscore.core.stats import combine_tallies, packed, session_counts, tally
from ginscore.db.store import Store
from tests.support import (
    EVENING,
    benchmark_sessions,
    hands_in,
    stored_sessions,
)

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
        monkeypatch.setattr("ginscore.db.layout.INDEXED_FROM", 0)
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


def test_the_cached_rows_equal_a_replay_of_every_session(ok, db_path, tmp_path):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ben")
    with Store(db_path).writing() as db:
        for facts in benchmark_sessions(65):
            db.add(facts)
    ok("use", "hollywood-1")
    for args in (["hand", "ann", "0", "30"], ["draw"], ["hand", "ben", "8", "5"], ["undo", "--yes"],
                 ["edit", "1", "ben", "3", "20"], ["rename", "evening"], ["delete", "oklahoma-1", "--yes"],
                 ["restore", "oklahoma-1"], ["delete", "three-3", "--yes"], ["use", "evening"], ["rematch", "--yes"],
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
    assert ok("stats", "--json").json() == json.loads(json.dumps(combine_tallies([tally(in_order)])))


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


def test_a_cache_file_padded_past_any_cache_ginscore_writes_is_made_again_not_read(ok, tmp_path):
    """A cache file grown by something else to gigabytes was read whole into memory on every listing."""
    from ginscore.cache.files import LARGEST

    for args in EVENING[:14]:
        ok(*args)
    expected = _listings(ok)
    for cache in (tmp_path / "cache").iterdir():
        os.truncate(cache, LARGEST + 1)  # (sparse: no disk taken)
    assert _listings(ok) == expected
    assert all(cache.stat().st_size < 2**20 for cache in (tmp_path / "cache").iterdir())  # each made again


FORGERIES = {  # a part kept in the cache, re-sealed by hand with something of another shape
    "a number for a player in a group": ("groups", lambda v: v["value"][0]["players"].__setitem__(0, 7)),
    "a group's sessions not a list": ("groups", lambda v: v["value"][0]["tally"].__setitem__("sessions", 7)),
    "a number for a name in a session's runs": (
        "groups", lambda v: v["value"][0]["tally"]["sessions"][0][2][0].__setitem__(0, 7)),
    "a list of counts cut short": ("groups", lambda v: next(iter(v["value"][0]["tally"]["sums"].values())).pop()),
    "the ladder's answers not a dict": ("ladder", lambda v: v["value"].__setitem__(next(iter(v["value"])), [])),
    "the names of the rated not a list": ("names", lambda v: v["value"].__setitem__(next(iter(v["value"])), 7)),
}


@pytest.mark.forged_cache
@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_cache_forged_by_hand_with_parts_of_another_shape_is_worked_out_again(ok, db_path, forgery):
    """The cache's seal catches damage, not a forger; a part of another shape that breaks a listing
    is set aside: the listing says what it says with no cache, and the part is made again."""
    from ginscore.cache.files import Cache

    for args in EVENING:
        ok(*args)
    reads = LISTINGS + [["ratings"], ["ratings", "--json"], ["history", "--player", "ann"], ["complete", "everyone"]]
    expected = [ok(*args).stdout for args in reads]
    name, forge = FORGERIES[forgery]
    real = os.path.realpath(db_path)
    forged = copy.deepcopy(Cache(real).section(name))
    forge(forged)

    def forge_again() -> None:  # (each run that reads the part makes it again)
        kept = Cache(real)
        kept.put(name, forged)
        kept.save(kept.made_from, kept.names())
        assert Cache(real).section(name) == forged  # sealed as its own: read as kept

    for args, before in zip(reads, expected):
        forge_again()
        assert ok(*args).stdout == before, args
    forge_again()
    for args in reads:  # one of them is broken by it
        ok(*args)
    assert Cache(real).section(name) not in (None, forged)  # made again


@pytest.mark.parametrize("others", ["everyone may write it", "another user's"])
def test_a_cache_folder_another_user_can_write_is_neither_read_nor_written(ok, db_path, tmp_path, others):
    """XDG_CACHE_HOME pointed at a shared folder: another user resealed a row there, and `sessions` said
    Mallory played. A cache folder someone else can write is not used: the lists say what the file says."""
    from ginscore.cache.files import Cache

    for args in EVENING[:14]:
        ok(*args)
    expected = ok("sessions", "--json").stdout
    items = Cache(os.path.realpath(db_path), "items")
    kept = items.keyed("sessions_items")
    assert kept.keys()
    items.put_keyed("sessions_items", {key: bytes(kept.raw(key)).replace(b'"Ann"', b'"Mallory"')
                                       for key in kept.keys()})
    items.save(items.made_from, items.names())
    folder = tmp_path / "cache"
    if others == "another user's":
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        os.chown(folder, 65534, -1)  # nobody
    else:
        folder.chmod(0o777)
    kept_there = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert ok("sessions", "--json").stdout == expected
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == kept_there  # nor written


@pytest.mark.parametrize("listing, section", [("history", "history_items"), ("sessions", "sessions_items")])
def test_a_json_item_forged_with_characters_a_terminal_obeys_is_made_again(ok, db_path, listing, section):
    """`history --json` and `sessions --json` write each session's item as the cache keeps it: one forged
    with a raw escape sequence (a new window title, red text) or a bidi override would reach the terminal
    as it is, and bytes that are no UTF-8 at all would reach it undecoded. Only forged bytes can hold either,
    so such an item is made again from the file."""
    from ginscore.cache.files import Cache

    for args in EVENING[:14]:
        ok(*args)
    expected = ok(listing, "--json").stdout
    items = Cache(os.path.realpath(db_path), "items")
    kept = items.keyed(section)
    assert kept.keys()
    for obeyed in (b"\x1b]0;pwned\x07\x1b[31m", "\u202e".encode(), "\u0085".encode(), b"\xff\xfe"):
        items.put_keyed(section, {key: bytes(kept.raw(key)).replace(b'"Ann"', b'"A' + obeyed + b'nn"')
                                  for key in kept.keys()})
        items.save(items.made_from, items.names())
        assert obeyed in bytes(Cache(os.path.realpath(db_path), "items").keyed(section).data)
        assert ok(listing, "--json").stdout == expected, obeyed


@pytest.mark.forged_cache  # (a bug of its own breaks the first run: the second shows it)
def test_a_bug_is_not_hidden_by_running_a_listing_again(ok, cli, monkeypatch):
    """A listing runs again without the cache only when kept parts broke it: an error of ginscore's
    own code still ends the run (it is not swallowed by the second run)."""
    import ginscore.cli.commands.after as after

    for args in EVENING:
        ok(*args)
    ok("stats")  # the cache is warm

    def broken(tallies):
        raise TypeError("a bug")

    monkeypatch.setattr(after, "combine_tallies", broken)
    with pytest.raises(TypeError, match="a bug"):
        cli("stats")


@pytest.mark.forged_cache  # (a bug of its own breaks the run: it must not run again)
@pytest.mark.parametrize("args, module, shows", [(["hand", "ben", "0", "30"], "cli.commands.table", "show_hand"),
                                                 (["status"], "present.screens", "show_standings")])
def test_a_bug_is_met_once_and_never_records_a_hand_twice(ok, cli, db_path, monkeypatch, args, module, shows):
    """A command that broke is run again without the cache only when parts kept there were read and nothing
    was written: a hand recorded, then a bug of ginscore's own while showing it, ends there (run again, the
    hand would be recorded twice); a bug met where no kept part was read ends there too."""
    import importlib

    from ginscore import cache

    for told in EVENING[:2]:
        ok(*told)
    ok("sessions")  # the cache is warm
    took_parts = []

    def broken(*_args, **_kwargs):
        took_parts.append(cache.this_run.took_parts)
        cache.this_run.took_parts = args[0] == "hand"  # (as if the hand's screen had read kept parts)
        raise TypeError("a bug")

    monkeypatch.setattr(importlib.import_module(f"ginscore.{module}"), shows, broken)
    with pytest.raises(TypeError, match="a bug"):
        cli(*args)
    assert took_parts == [False] and len(hands_in(db_path)) == 1 + (args[0] == "hand")

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


def test_a_warm_cache_answers_stats_and_ratings_without_working_anything_out_again(ok, monkeypatch):
    """What the cache keeps is used: with every session as it was, neither the tallies by group nor any
    rated game nor the ladder is made again."""
    import ginscore.cache.rows as rows
    import ginscore.cli.actions as actions

    for args in EVENING:
        ok(*args)
    warm = [ok(*args).stdout for args in (["stats", "--json"], ["ratings", "--json"], ["ratings"])]

    def worked_out(*args, **kwargs):
        raise AssertionError("worked out again with a warm cache")

    for module, name in ((rows, "grouped"), (actions, "replay"), (actions, "rated_games")):
        monkeypatch.setattr(module, name, worked_out)
    with monkeypatch.context() as asked_before:
        asked_before.setattr(actions, "ladder", worked_out)
        assert [ok(*args).stdout for args in (["stats", "--json"], ["ratings", "--json"], ["ratings"])] == warm
    ok("ratings", "--json", "--variant", "standard")  # a new question: a new ladder, from the games kept
