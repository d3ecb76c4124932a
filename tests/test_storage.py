"""Years of evenings: the database in parts, its summary cache, the migration from 1.x (issue 12).

The facts of a session live in one part file of at most PART_SIZE sessions;
what each session adds up to is a cache beside them, which must always equal
a replay of the facts, and is made again when missing or stale.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from ginscore.records import session_from_dict
from ginscore.stats import combine, packed, running, session_counts, tally
from ginscore.store import SCHEMA_VERSION, Store, _sealed
from ginscore.store_files import PART_SIZE
from ginscore.summary import history_row
from ginscore.variants import replay

from .conftest import database_files, stored_sessions

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "schema2-expected.json").read_text())


def _meta(db_path: Path) -> dict:
    return json.loads(db_path.read_text())["meta"]["1"]


def _file(db_path: Path, key: str) -> Path:
    return db_path.parent / f"ginscore.{key}-{_meta(db_path)['files'][key]}.json"


def _every_output(ok) -> dict:
    """What every listing and every session's status and log say, as JSON."""
    sessions = ok("sessions", "--json").json()
    return {
        "sessions": sessions,
        "history": ok("history", "--json").json(),
        "stats": ok("stats", "--json").json(),
        "status": {r["name"]: ok("status", "--json", "--session", r["name"]).json() for r in sessions},
        "log": {r["name"]: ok("log", "--json", "--session", r["name"]).json() for r in sessions},
    }


def _holds(found, expected) -> bool:
    """``found`` says all that ``expected`` (what ginscore 1.x said) says; later versions may say more."""
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(k in found and _holds(found[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(_holds, found, expected))
    return found == expected


def test_a_schema_2_file_is_read_as_is_then_migrated_on_the_first_write_with_a_copy_kept(ok, db_path):
    old = (FIXTURES / "schema2.json").read_bytes()
    db_path.write_bytes(old)
    backup = db_path.with_name("ginscore.json.schema2.bak")
    before = _every_output(ok)  # readers of an old file: read-only, what 1.x said
    assert _holds(before, EXPECTED)
    assert db_path.read_bytes() == old and not backup.exists()
    assert list(database_files(db_path)) == ["ginscore.json"]
    ok("use", "friday")  # the first write
    assert backup.read_bytes() == old
    assert _meta(db_path)["schema_version"] == SCHEMA_VERSION == 3
    assert _every_output(ok) == before
    before = {s["name"]: s for s in json.loads(old)["sessions"].values()}
    assert {doc["name"]: doc for doc in stored_sessions(db_path).values()} == before  # facts moved whole
    ok("hand", "ann", "5", "15")
    assert ok("status", "--json").json()["totals"] == {"Ann": 28, "Ben": 67}
    assert backup.read_bytes() == old  # kept as it was


def _summaries(db_path: Path) -> dict:
    """The summary rows stored beside the facts, by session id."""
    rows = {}
    for key in _meta(db_path)["files"]:
        if key.startswith("summary-"):
            rows.update(json.loads(_file(db_path, key).read_text())["summaries"])
    return rows


def _replayed(doc: dict) -> dict:
    standings = replay(session_from_dict(doc, strict=False))
    return history_row(standings) | {"counts": packed(session_counts(standings))["counts"]}


def _legal_sessions(count: int) -> list:
    """Sessions of every variant, legal hand by hand, some over (the benchmark's builder)."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from cli_latency import VARIANTS, _session
    finally:
        sys.path.pop(0)
    rng = random.Random(12)
    return [_session(rng, n, VARIANTS[n % 4], rng.randint(0, 30), live=False) for n in range(count)]


def test_the_stored_summaries_equal_a_replay_of_every_session(ok, db_path):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ben")
    with Store(db_path).writing() as db:
        for facts in _legal_sessions(PART_SIZE + 15):  # two parts
            db.add(facts)
    ok("use", "hollywood-1")
    for args in (["hand", "ann", "0", "30"], ["draw"], ["hand", "ben", "8", "5"], ["undo", "--yes"],
                 ["edit", "1", "ben", "3", "20"], ["rename", "evening"], ["delete", "oklahoma-1", "--yes"],
                 ["restore", "oklahoma-1"], ["delete", "three-3", "--yes"], ["use", "evening"], ["rematch"], ["hand", "ann", "2", "40"]):
        ok(*args)
    facts = stored_sessions(db_path)
    assert len(facts) == PART_SIZE + 17
    replayed = {key: _replayed(doc) for key, doc in facts.items()}
    assert _summaries(db_path) == replayed
    index = json.loads(_file(db_path, "index").read_text())["index"]["1"]
    for part in (0, 1):  # each part's statistics: its live sessions, replayed
        stored = json.loads(_file(db_path, f"tally-{part:04d}").read_text())["tally"]["1"]["groups"]
        live = [n for n, p, gone in zip(index["ids"], index["parts"], index["deleted"]) if p == part and not gone]
        groups = {}  # of one variant and the same players, in the order first added
        for n in live:
            row = replayed[str(n)] | {"id": n}
            groups.setdefault((row["variant"], tuple(row["players"])), []).append(row)
        assert stored == json.loads(json.dumps([{"variant": v, "players": list(p), "tally": tally(rows)}
                                                for (v, p), rows in groups.items()]))
        assert len(stored) > 1
    assert any(index["deleted"])
    totals = json.loads(_file(db_path, "totals").read_text())  # every part but the newest, continued by stats
    assert totals["stamp"]["1"]["parts"].keys() == {"0000"}
    assert totals["totals"]["1"]["totals"] == json.loads(json.dumps(running(
        [tally([replayed[str(n)] | {"id": n} for n, p, gone in zip(index["ids"], index["parts"], index["deleted"])
                if p == 0 and not gone])])))
    in_order = sorted((replayed[str(n)] | {"id": n} for n, gone in zip(index["ids"], index["deleted"]) if not gone),
                      key=lambda row: (row["created_at"] or "", row["id"]))
    assert ok("stats", "--json").json() == json.loads(json.dumps(combine(in_order)))


def _two_parts(ok, db_path, more: int = 3) -> dict:
    """A full part and ``more`` sessions in a second; its `stats --json`."""
    with Store(db_path).writing() as db:
        for facts in _legal_sessions(PART_SIZE + more):
            db.add(facts)
    return ok("stats", "--json").json()


def test_the_kept_totals_are_made_again_when_missing_or_stale_and_never_trusted_then(ok, db_path):
    expected = _two_parts(ok, db_path)
    totals = _file(db_path, "totals")
    good = totals.read_bytes()
    kept = json.loads(good)
    stamp = kept["stamp"]["1"]
    lying = json.loads(json.dumps(kept["totals"]).replace('"ann"', '"nobody"').replace('"Ann"', '"Nobody"'))
    assert lying != kept["totals"]
    first = stamp["parts"]["0000"]
    for stale in ({"parts": {"0000": first | {"version": "another"}}},
                  {"parts": {"0000": first | {"tally": first["tally"] - 1}}},
                  {"parts": {"0000": first | {"facts": first["facts"] - 1}}},
                  {"parts": {"0000": first | {"facts_size": first["facts_size"] + 1}}},
                  {"parts": {"0000": first | {"facts_mtime_ns": 1, "facts_digest": "0" * 32}}}, {"parts": {}}):
        totals.write_text(json.dumps({"stamp": {"1": stamp | stale}, "totals": lying}))
        assert ok("stats", "--json").json() == expected  # other code, other facts: not trusted
    totals.write_text(json.dumps({"stamp": {"1": stamp}, "totals": lying}))  # its body changed by hand
    assert ok("stats", "--json").json() == expected
    totals.write_bytes(_sealed(stamp, "totals", lying))  # a forgery that knows the digest is trusted:
    assert ok("stats", "--json").json() != expected  # (what a trusted one would do: the test can fail)
    totals.unlink()
    assert ok("stats", "--json").json() == expected
    ok("use", "standard-4")  # a writer puts it back
    assert _file(db_path, "totals").read_bytes() == good
    assert ok("stats", "--json").json() == expected
    facts = _file(db_path, "facts-0000")  # an old part edited by hand, its size kept
    facts.write_bytes(facts.read_bytes().replace(b"Ann", b"Zed"))
    assert "Zed" in ok("stats", "--json").json()["players"]
    ok("use", "standard-8")  # the next write makes the totals again, and that part's tally
    assert "Zed" in ok("stats", "--json").json()["players"]
    assert "Zed" in json.loads(_file(db_path, "totals").read_text())["totals"]["1"]["totals"]["shown_as"].values()


def test_stats_are_right_when_the_newest_part_holds_a_session_played_before_the_others(ok, db_path):
    _two_parts(ok, db_path, more=0)
    ok("new", "standard", "ANN", "Ben", "--dealer", "ANN", "--name", "late entry")  # Ann, as spelt long ago
    for _ in range(3):
        ok("hand", "ann", "0", "5")  # gin, three times: a run of wins
    sessions = stored_sessions(db_path)
    late = next(key for key, doc in sessions.items() if doc["name"] == "late entry")
    part = next(key for key in _meta(db_path)["files"] if key.startswith("facts-") and
                late in json.loads(_file(db_path, key).read_text())["sessions"])
    facts = _file(db_path, part)
    stored = json.loads(facts.read_text())
    stored["sessions"][late]["created_at"] = "2025-01-01T20:00:00+00:00"  # as an import of an old evening would
    facts.write_text(json.dumps(stored))
    ok("rename", "--session", "late entry", "old evening")  # a write: the caches made again from the facts
    in_order = sorted((_replayed(doc) | {"id": int(key)} for key, doc in stored_sessions(db_path).items()
                       if not doc.get("deleted_at")), key=lambda row: (row["created_at"] or "", row["id"]))
    assert ok("stats", "--json").json() == json.loads(json.dumps(combine(in_order)))
    assert "Ann" in ok("stats", "--json").json()["players"]  # the name as spelt last, not in the newest part


def test_a_missing_or_stale_summary_is_made_again_from_the_facts(ok, db_path):
    db_path.write_bytes((FIXTURES / "schema2.json").read_bytes())
    ok("use", "friday")
    summary = _file(db_path, "summary-0000")
    good = summary.read_bytes()
    expected = _every_output(ok)
    summary.unlink()  # missing
    assert _every_output(ok) == expected
    ok("use", "okla")  # a writer puts it back
    assert _file(db_path, "summary-0000").exists()
    ok("use", "friday")

    summary = _file(db_path, "summary-0000")
    stored = json.loads(summary.read_text())
    lying = {key: row | {"hands_played": 999, "winner": "Nobody"} for key, row in stored["summaries"].items()}
    stamp = stored["stamp"]["1"]
    for stale in ({"version": "another"}, {"facts": stamp["facts"] - 1}, {"facts_size": stamp["facts_size"] + 1}):
        summary.write_text(json.dumps({"stamp": {"1": stamp | stale}, "summaries": lying}))
        assert _every_output(ok) == expected  # other code, other facts: not trusted
    summary.write_bytes(good)

    tallied = _file(db_path, "tally-0000")
    stored = json.loads(tallied.read_text())
    stamp = stored["stamp"]["1"]
    lying = json.loads(json.dumps(stored["tally"]).replace('"Ann"', '"Nobody"'))
    assert lying != stored["tally"]
    for stale in ({"version": "another"}, {"facts": stamp["facts"] - 1}, {"facts_size": stamp["facts_size"] + 1}):
        tallied.write_text(json.dumps({"stamp": {"1": stamp | stale}, "tally": lying}))
        assert ok("stats", "--json").json() == expected["stats"]
    tallied.unlink()
    assert ok("stats", "--json").json() == expected["stats"]
    ok("use", "okla")  # a writer puts it back
    assert _file(db_path, "tally-0000").exists() and ok("stats", "--json").json() == expected["stats"]


def test_a_facts_file_edited_by_hand_is_noticed_even_at_the_same_size(ok, db_path):
    """The caches' stamps name the facts file by size and modification time and, when the time
    differs (a copied folder, an edit), by a digest of its bytes (issue 12)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "other")
    expected = {args: ok(*args).json() for args in (("history", "--json"), ("stats", "--json"))}
    facts = _file(db_path, "facts-0000")
    for folder in (db_path.parent / "copy",):  # a copy with new modification times keeps its caches
        shutil.copytree(db_path.parent, folder, ignore=shutil.ignore_patterns("copy", "*.lock"))
        copied = folder / db_path.name
        for args, rows in expected.items():
            assert ok("--db", str(copied), *args).json() == rows
    stored, summary_before = facts.read_bytes(), _file(db_path, "summary-0000").read_text()
    edited = stored.replace(b'Ann', b'Zed')  # a rename by hand: the same size
    assert len(edited) == len(stored) and edited != stored
    facts.write_bytes(edited)
    history = ok("history", "--json").json()
    assert {p for row in history for p in row["players"]} == {"Zed", "Ben", "Cy", "Dee"}
    assert "Zed" in ok("stats", "--json").json()["players"]
    assert "Ann" not in ok("stats", "--json").json()["players"]
    ok("hand", "cy", "2", "30")  # the next write to the part stamps it afresh
    stamp = json.loads(_file(db_path, "summary-0000").read_text())["stamp"]["1"]
    assert stamp["facts_digest"] != json.loads(summary_before)["stamp"]["1"]["facts_digest"]
    assert "Zed" in ok("stats", "--json").json()["players"]


def test_a_summary_made_by_other_code_is_made_again_by_the_next_writer(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    main = json.loads(db_path.read_text())
    main["meta"]["1"]["summary_version"] = "older"
    db_path.write_text(json.dumps(main))
    summary = _file(db_path, "summary-0000")
    stored = json.loads(summary.read_text())
    stored["stamp"]["1"]["version"] = "older"
    summary.write_text(json.dumps(stored))
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy")
    rows = _summaries(db_path)
    assert json.loads(_file(db_path, "summary-0000").read_text())["stamp"]["1"]["version"] == _meta(db_path)[
        "summary_version"] != "older"
    assert rows["1"]["score"] == {"Ann": 18, "Ben": 0}


def test_a_command_on_one_session_reads_only_its_part(ok, db_path):
    with Store(db_path).writing() as db:
        for n in range(2 * PART_SIZE + 1):
            db.add(replay_free_session(f"s{n}"))
    files = _meta(db_path)["files"]
    assert sorted(k for k in files if k.startswith("facts-")) == ["facts-0000", "facts-0001", "facts-0002"]
    for key in ("facts-0000", "facts-0001"):  # the facts of the other parts are never read
        other = _file(db_path, key)
        was = other.stat()
        other.write_bytes(b"x" * was.st_size)
        os.utime(other, ns=(was.st_atime_ns, was.st_mtime_ns))  # as their caches' stamps say
    ok("hand", "ann", "4", "22")
    ok("draw")
    assert ok("status", "--json").json()["hands_played"] == 2
    assert ok("log", "--json").json()["session"] == f"s{2 * PART_SIZE}"
    assert ok("history", "--limit", "1", "--json").json()[0]["hands_played"] == 2
    assert ok("stats", "--json").json()["players"]["Ann"]["hands"] == 2


def replay_free_session(name: str):
    from ginscore.rules import HouseRules
    from ginscore.variants import SessionFacts

    return SessionFacts(name=name, variant="standard", players=("Ann", "Ben"), rules=HouseRules(),
                        first_dealer="Ann", created_at=f"2026-01-01T20:00:{len(name):02d}+00:00")


def test_a_reader_that_finds_a_file_gone_reads_the_main_file_again(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    reader = Store(db_path).reading()
    assert reader.current_name == "standard-1"  # the main file is read: it names generation 1
    ok("hand", "ann", "4", "22")  # a writer commits generation 2 and removes generation 1
    assert len(reader.load().hands) == 1  # its part was gone: read again, whole


def test_the_parts_of_a_symlinked_database_live_beside_the_real_file(ok, db_path, tmp_path):
    real = tmp_path / "elsewhere" / "scores.json"
    real.parent.mkdir()
    db_path.symlink_to(real)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    assert db_path.is_symlink()
    assert sorted(p.name.split("-")[0] for p in real.parent.iterdir() if not p.name.endswith(".lock")) == [
        "scores.facts", "scores.index", "scores.json", "scores.summary", "scores.tally"]
    assert ok("status", "--json").json()["totals"] == {"Ann": 18, "Ben": 0}
    copy = tmp_path / "copy"
    shutil.copytree(real.parent, copy)  # copying the folder copies everything
    assert ok("--db", copy / "scores.json", "status", "--json").json()["totals"] == {"Ann": 18, "Ben": 0}


def _many(ok, db_path, count: int) -> None:
    with Store(db_path).writing() as db:
        for n in range(count):
            db.add(replay_free_session(f"s{n:03d}")._replace(created_at=f"2026-01-{1 + n // 24:02d}T{n % 24:02d}:00"))


def test_sessions_and_history_show_the_newest_that_fit_one_screen(ok, db_path, monkeypatch):
    _many(ok, db_path, 40)
    monkeypatch.setenv("LINES", "30")
    out = ok("sessions").stdout
    assert "s039" in out and "s000" not in out
    assert "older sessions not shown: `ginscore sessions --all`" in out
    shown = [line for line in out.splitlines() if " s0" in line or line.startswith("s0") or "* s0" in line]
    assert 3 <= len(shown) <= 30
    out = ok("history").stdout
    assert out.index("s039") < out.index("s038") and "s000" not in out
    assert "older sessions not shown: `ginscore history --all`" in out
    monkeypatch.setenv("LINES", "200")
    assert "not shown" not in ok("history").stdout


def test_all_and_limit(ok, refused, db_path):
    _many(ok, db_path, 300)
    every = ok("sessions", "--all").stdout
    assert all(f"s{n:03d}" in every for n in range(300)) and "not shown" not in every
    assert every.index("s000") < every.index("s299")
    assert every.splitlines()[-1].startswith("*")  # the newest is current
    history = ok("history", "--all").stdout
    assert history.index("s299") < history.index("s000")
    assert len(ok("history", "--json").json()) == 300  # a script reads the whole list
    assert len(ok("sessions", "--json").json()) == 300
    assert [r["name"] for r in ok("history", "--limit", "2", "--json").json()] == ["s299", "s298"]
    assert [r["name"] for r in ok("sessions", "--limit", "2", "--json").json()] == ["s298", "s299"]
    out = ok("sessions", "--limit", "5").stdout
    assert "s295" in out and "s294" not in out and "295 older sessions not shown" in out
    refused("history", "--all", "--limit", "3", says="not both")
    refused("sessions", "--limit", "0")


def test_deleted_sessions_stay_out_of_the_lists(ok, db_path):
    _many(ok, db_path, 6)
    for n in (1, 2, 3):
        ok("delete", f"s00{n}", "--yes")
    assert [r["name"] for r in ok("sessions", "--json").json()] == ["s000", "s004", "s005"]
    assert len(ok("history", "--json").json()) == 3 and ok("stats", "--json").json()["players"]["Ann"]["sessions"] == 3
    assert sorted(r["name"] for r in ok("sessions", "--deleted", "--json").json()) == ["s001", "s002", "s003"]
    out = ok("sessions", "--deleted", "--limit", "1").stdout
    assert "2 older sessions not shown: `ginscore sessions --deleted --all`" in out


def test_the_next_writer_removes_a_killed_writers_files_and_nothing_else(ok, db_path, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    folder = db_path.parent
    half_done = [folder / "ginscore.facts-0000-99.json", folder / "ginscore.summary-0003-99.json",
                 folder / "ginscore.index-99.json", folder / "ginscore.tally-0000-99.json"]
    for path in half_done:
        path.write_text("half a write")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.json").write_text("not ginscore's")
    planted = folder / "ginscore.facts-0001-98.json"
    planted.symlink_to(elsewhere / "keep.json")  # a link at one of our names is never followed nor removed
    others = [folder / "ginscore.facts-0000-x.json", folder / "ginscore.notes.json", folder / "other.facts-0000-1.json"]
    for path in others:
        path.write_text("someone else's")
    ok("status")
    assert all(path.exists() for path in half_done)  # readers never touch them
    ok("hand", "ann", "4", "22")
    assert not any(path.exists() for path in half_done)
    assert planted.is_symlink() and (elsewhere / "keep.json").read_text() == "not ginscore's"
    assert all(path.read_text() == "someone else's" for path in others)
    assert ok("status", "--json").json()["totals"] == {"Ann": 18, "Ben": 0}


@pytest.mark.parametrize("command", [["hand", "ann", "4", "22"], ["delete", "--yes"], ["rename", "other"],
                                     ["status"], ["sessions"]])
def test_a_part_file_lost_from_the_folder_is_one_line_never_a_traceback(ok, cli, db_path, command):
    """Another program removed a file the main file names: exit 1 naming it, the rest left as it is."""
    from .conftest import database_files

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    facts = next(name for name in database_files(db_path) if ".facts-" in name)
    (db_path.parent / facts).unlink()
    before = database_files(db_path)
    result = cli(*command)
    assert result.exit_code == 1, (command, result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "names a file that is not there" in lines[0] and facts in lines[0]
    assert database_files(db_path) == before


def test_a_cache_file_a_crash_left_empty_or_cut_is_made_again(ok, db_path):
    """Caches are not fsynced (a write waits for the disk only for what is not made again): after a
    crash one can be empty, zeros or cut short. Readers then make it again from the facts, and
    every output stays what it was; the next write that reads it writes it afresh."""
    _two_parts(ok, db_path)

    def listings() -> dict:
        return {args: ok(*args).json() for args in (("sessions", "--json"), ("history", "--json"), ("stats", "--json"),
                                                     ("stats", "--json", "--variant", "three"))}

    expected = listings()
    for key in ("summary-0000", "tally-0000", "totals", "summary-0001", "tally-0001"):
        cache = _file(db_path, key)
        good = cache.read_bytes()
        for damage in (b"", b"\0" * len(good), good[: len(good) // 2], b'{"stamp": 3}'):
            cache.write_bytes(damage)
            assert listings() == expected, (key, damage[:20])
        cache.write_bytes(b"")
        ok("history", "--all")  # a reader writes nothing
        assert cache.read_bytes() == b""
    ok("delete", "standard-0", "--yes")  # a writer: part 0 changes, and with it its caches and the totals
    ok("restore", "standard-0")
    for key in ("summary-0000", "tally-0000", "totals"):
        assert json.loads(_file(db_path, key).read_bytes())["stamp"]
    assert ok("stats", "--json").json() == expected[("stats", "--json")]
    assert ok("history", "--json").json() == expected[("history", "--json")]


def test_a_write_waits_for_the_disk_only_for_what_is_not_a_cache(ok, db_path, monkeypatch):
    """The facts, the index and the main file are fsynced; the summaries, tallies and totals are not."""
    import ginscore.atomic as atomic

    _two_parts(ok, db_path)
    synced = []
    real = atomic.create_new

    def create_new(path, data, like, durable=True):
        synced.append((os.path.basename(path), durable))
        return real(path, data, like, durable)

    monkeypatch.setattr(atomic, "create_new", create_new)
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "tonight")
    ok("hand", "ann", "2", "30")
    kinds = {name.split(".")[1].split("-")[0]: durable for name, durable in synced}
    assert kinds == {"facts": True, "index": True, "summary": False, "tally": False}


def files_read(monkeypatch) -> list[str]:
    """The files of the database (by key) that the commands run from now on read."""
    import ginscore.store_files as store_files

    read = []
    real = store_files.Files.read

    def reading(files, key, generation):
        read.append(key)
        return real(files, key, generation)

    monkeypatch.setattr(store_files.Files, "read", reading)
    return read


def test_after_a_folder_copied_with_new_times_the_next_write_stamps_the_totals_afresh(ok, db_path, tmp_path,
                                                                                    monkeypatch):
    """`cp -r` gives every file a new time: the caches are still trusted (by the digest of each
    facts file, read once a command), and the next write stamps the totals afresh, so that `stats`
    then reads no facts file at all."""
    _two_parts(ok, db_path, more=2)
    expected = ok("stats", "--json").json()
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in db_path.parent.iterdir():
        if path.is_file() and path.name.startswith("ginscore."):
            (copy / path.name).write_bytes(path.read_bytes())  # new times, the same bytes
    copied = str(copy / "ginscore.json")
    read = files_read(monkeypatch)
    assert ok("--db", copied, "stats", "--json").json() == expected
    assert "facts-0000" in read  # its digest, as the time differs
    ok("--db", copied, "use", "standard-4")  # any write
    read.clear()
    assert ok("--db", copied, "stats", "--json").json() == expected
    assert [key for key in read if key.startswith("facts-")] == []


def test_stats_of_one_variant_continues_that_variants_kept_totals(ok, db_path, monkeypatch):
    """stats --variant reads the totals kept for that variant and the newest part's tallies, as
    stats does for every session: the same figures as a replay of that variant's sessions."""
    from ginscore.stats import statistics

    _two_parts(ok, db_path, more=7)
    every = stored_sessions(db_path)
    read = files_read(monkeypatch)
    for variant in ("standard", "oklahoma", "hollywood", "three"):
        chosen = sorted((session_from_dict(doc, strict=False) for doc in every.values() if doc["variant"] == variant),
                        key=lambda facts: facts.created_at or "")
        read.clear()
        assert ok("stats", "--json", "--variant", variant).json() == json.loads(json.dumps(
            statistics([replay(facts) for facts in chosen])))
        assert sorted(key for key in read if key != "index") == ["tally-0001", "totals"]


def test_a_cache_whose_body_was_changed_under_a_current_stamp_is_made_again(ok, db_path):
    """A row, a tally or totals of the wrong shape under a stamp that still matches the facts
    (an edit by hand): made again from the facts, never shown and never a traceback (issue 9)."""
    _two_parts(ok, db_path)

    def listings() -> dict:
        return {args: ok(*args).json() for args in (("sessions", "--json"), ("history", "--json"), ("stats", "--json"),
                                                     ("stats", "--json", "--player", "ann"))}

    expected = listings()
    for key, table, broken in (("summary-0000", "summaries", lambda rows: {k: {"foo": 1} for k in rows}),
                               ("summary-0001", "summaries", lambda rows: {k: {"name": 3} for k in rows}),
                               ("tally-0000", "tally", lambda body: {"1": {"groups": [{"variant": 1}]}}),
                               ("tally-0001", "tally", lambda body: {"1": {"groups": "x"}}),
                               ("totals", "totals", lambda body: {"1": {"totals": {"sums": 3}, "by_variant": {}}})):
        cache = _file(db_path, key)
        good = cache.read_bytes()
        stored = json.loads(good)
        cache.write_text(json.dumps({"stamp": stored["stamp"], table: broken(stored[table])}))
        assert listings() == expected, key
        cache.write_bytes(good)
