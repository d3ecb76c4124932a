"""The lists of `sessions` and `history`: JSON row by row, long lists, fitted to the screen."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from ginscore.cache.rows import Listings
from ginscore.core.escape import json_safe
from ginscore.core.names import fold
from ginscore.core.replay import replay
from ginscore.core.session import SessionFacts
from ginscore.core.reports import history_row
from ginscore.db.store import Store
from tests.support import benchmark_sessions, quiet_session, statistics

PART_SIZE = 50  # a number of sessions the lists are tried at: more than a batch of rows (64) in two


def _history(ok, db_path) -> list[SessionFacts]:
    """Over a hundred sessions of every variant, started over three months, some on the same
    second, one with no start kept, one added long after it was played (an import), some deleted,
    and players whose names need escaping. Returns the live sessions in the order added."""
    every = []
    for n, facts in enumerate(benchmark_sessions(2 * PART_SIZE + 7)):
        month, day = 1 + n // 40, 1 + n % 28
        every.append(facts._replace(created_at=f"2026-{month:02d}-{day:02d}T20:{n % 3:02d}:00+00:00"))
    every[5] = every[5]._replace(created_at=None)
    every += [quiet_session("old-evening", ("Zoë", "ann"), "2025-12-24T19:00:00+00:00"),
              quiet_session("quoted", ("Dee \"Q\" 李", "Ann"), "2026-02-10T20:00:00+00:00", "oklahoma")]
    with Store(db_path).writing() as db:
        for facts in every:
            db.add(facts)
    for name in ("standard-8", "three-63", "hollywood-102"):
        ok("delete", name, "--yes")
    return [facts for facts in every if facts.name not in ("standard-8", "three-63", "hollywood-102")]


def _in_order(live: list[SessionFacts]) -> list[SessionFacts]:
    return sorted(live, key=lambda facts: facts.created_at or "")  # stable: ties in the order added


def _chosen(live, variant=None, since=None, player=None) -> list[SessionFacts]:
    """What the filters choose, worked out from the facts alone, in the order played."""
    return [facts for facts in _in_order(live)
            if (variant is None or facts.variant == variant)
            and (since is None or (facts.created_at or "")[:10] >= since)
            and (player is None or fold(player) in {fold(p) for p in facts.players})]


def _as_printed(doc, encoding: str = "utf-8") -> str:
    """What ``_print_json`` writes of a whole document."""
    return json_safe(json.dumps(doc, ensure_ascii=False, indent=2), encoding) + "\n"


FILTERS = [{}, {"variant": "hollywood"}, {"variant": "three"}, {"player": "ann"}, {"player": "Cy"},
           {"player": "zoë"}, {"since": "2026-02-03"}, {"since": "2026-03-01", "variant": "standard"},
           {"since": "2026-01-01", "player": "DEE \"q\" 李"}, {"since": "2027-01-01"}, {"since": "2000-01-01"},
           {"variant": "oklahoma", "player": "Ben"}]


def _options(chosen: dict) -> list[str]:
    return [word for key, value in chosen.items() for word in (f"--{key}", value)]


def test_history_json_is_written_row_by_row_as_json_dumps_writes_the_whole_list(ok, db_path):
    live = _history(ok, db_path)
    counts = []
    for chosen in [f for f in FILTERS if "since" not in f]:  # history takes no --since
        rows = [history_row(replay(facts)) for facts in reversed(_chosen(live, **chosen))]
        counts.append(len(rows))
        for _ in ("made", "kept"):  # each item made and kept in the cache, then the kept bytes written
            assert ok("history", "--json", *_options(chosen)).stdout == _as_printed(rows), chosen
        for limit in ("1", "7", "500"):
            assert ok("history", "--json", "--limit", limit, *_options(chosen)).stdout == _as_printed(rows[:int(limit)])
    assert counts[0] > 7 and len(set(counts)) > 3, counts  # the whole list, and filters that choose from it


def test_sessions_json_is_written_row_by_row_as_json_dumps_writes_the_whole_list(ok, db_path):
    live = _history(ok, db_path)
    keys = ("name", "variant", "players", "hands_played", "winner", "over")

    def rows(current: str) -> list[dict]:
        made = []
        for facts in live:  # in the order added
            row = history_row(replay(facts))
            made.append({k: row[k] for k in keys} | {"current": facts.name == current, "created_at": facts.created_at})
        return made

    for current in ("hollywood-50", "quoted", "hollywood-50"):  # the items kept are never the current one's
        ok("use", current)
        for _ in ("made or kept", "kept"):
            assert ok("sessions", "--json").stdout == _as_printed(rows(current))
        assert ok("sessions", "--json", "--limit", "60").stdout == _as_printed(rows(current)[-60:])


def test_an_empty_list_is_written_as_json_dumps_writes_it(ok, db_path):
    assert ok("history", "--json").stdout == ok("sessions", "--json").stdout == "[]\n"
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    assert ok("history", "--json", "--variant", "three").stdout == "[]\n"


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_an_output_encoding_without_every_character_escapes_the_whole_list_as_before(ok, db_path, encoding):
    """``json_safe`` escapes every non-ASCII character when any one does not fit: the whole list is held."""
    live = _history(ok, db_path)
    rows = [history_row(replay(facts)) for facts in reversed(_in_order(live))]
    env = dict(os.environ, PYTHONIOENCODING=encoding, GINSCORE_DB=str(db_path))
    for _ in ("made", "kept"):
        done = subprocess.run([sys.executable, "-m", "ginscore", "history", "--json"], env=env, capture_output=True,
                              check=True)
        assert done.stdout == _as_printed(rows, encoding).encode(encoding)
    assert b"\\u00eb" in done.stdout  # Zoë: held back and escaped, as json_safe does with the whole text


def test_a_long_list_is_one_aligned_line_a_session_wide_and_hostile_names_included(ok, db_path, monkeypatch):
    """Past 200 sessions `--all` lays the columns out itself (Rich would take seconds): every cell
    starts in the same terminal column on every line, a wide character counting two, and what a
    name holds that a terminal would act on is written as an escape. Under 80 columns (a phone)
    each session is a few lines, a blank line between two, none wider than the screen."""
    from rich.cells import cell_len

    names = [f"{'李' * (n % 4)}night-{n}" if n % 3 else f"plain-{n}" for n in range(230)]
    names[10] = "a-name-wider-than-a-phone-" + "李" * 30  # broken where it must be
    names[7], names[8] = "red\x1b[31m-7", "turned\u202e-8"
    with Store(db_path).writing() as db:
        for n, name in enumerate(names):
            db.add(quiet_session(name, ("Ann", "Zoë 李"), f"2026-03-{1 + n % 28:02d}T20:00:00+00:00",
                          "oklahoma" if n % 2 else "standard"))
    monkeypatch.setenv("COLUMNS", "200")
    for command, column in ((["sessions", "--all"], "Variant"), (["history", "--all"], "Variant")):
        lines = ok(*command).stdout.splitlines()
        head = next(n for n, line in enumerate(lines) if column in line)
        listed = [line for line in lines[head + 2:] if "Standard" in line or "Oklahoma" in line]
        assert len(listed) == len(names), command
        starts = {cell_len(line[:max(line.find("Standard"), line.find("Oklahoma"))]) for line in listed}
        assert starts == {cell_len(lines[head][:lines[head].find(column)])}, command
        hands = cell_len(lines[head][:lines[head].find("Hands") + len("Hands")])  # counts end where it ends
        ending = [next(line[i - 1] for i in range(len(line) + 1) if cell_len(line[:i]) == hands) for line in listed]
        assert set(ending) == {"0"}, command
        shown = "\n".join(lines)
        assert "\x1b" not in shown and "\u202e" not in shown and "red\\x1b[31m-7" in shown and "turned\\u202e-8" in shown
    monkeypatch.setenv("COLUMNS", "40")  # a phone: a few lines a session, every line within the screen
    for command in (["sessions", "--all"], ["history", "--all"]):
        shown = ok(*command).stdout
        assert max(cell_len(line) for line in shown.splitlines()) <= 40, command
        assert shown.count("hands · in play") == len(names) and "\x1b" not in shown and "\u202e" not in shown
        assert "red\\x1b[31m-7 · " in shown and "plain-228 · Standard" in shown and "a-name-wider-than-a-phone-" in shown
        assert shown.splitlines()[0] and shown.splitlines().count("") == len(names) - 1, command


@pytest.mark.parametrize(("command", "height"), [("sessions", 7), ("sessions", 8), ("history", 15)])
def test_the_last_row_that_fits_because_it_leaves_no_note_is_shown(ok, db_path, monkeypatch, command, height):
    """Showing every session leaves out the note of those not shown: four sessions fit 7 lines
    (head, rule, four rows, the prompt) where three and the note would not (in `history` a
    session takes three lines)."""
    with Store(db_path).writing() as db:
        for n in range(4):
            db.add(quiet_session(f"evening-{n}", ("Ann", "Ben"), f"2026-03-0{1 + n}T20:00:00+00:00"))
    monkeypatch.setenv("LINES", str(height))
    monkeypatch.setenv("COLUMNS", "80")
    shown = ok(command).stdout
    assert "older" not in shown and all(f"evening-{n}" in shown for n in range(4)), shown


@pytest.mark.parametrize("color", ["", "1"])
def test_a_list_fitted_to_the_screen_is_what_the_same_rows_draw(ok, db_path, monkeypatch, color):
    """A list fitted to the screen is drawn while it is measured, and that drawing is what is shown:
    byte for byte what `--limit N` draws for the same N sessions (colours, notes and all)."""
    import re

    with Store(db_path).writing() as db:
        for n in range(14):
            db.add(quiet_session(f"evening-{n}" if n != 9 else "red\x1b[31m-9", ("Ann", "Ben") if n % 3 else ("Zoë 李", "Ann"),
                          f"2026-03-{1 + n:02d}T20:00:00+00:00", "oklahoma" if n % 3 == 0 else "standard"))
        db.delete("evening-2", "2026-03-20T20:00:00+00:00")
    if color:
        monkeypatch.setenv("FORCE_COLOR", color)
    else:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    for width, height in [(80, 9), (80, 16), (40, 12), (40, 30), (120, 50)]:
        monkeypatch.setenv("COLUMNS", str(width))
        monkeypatch.setenv("LINES", str(height))
        for command in (["sessions"], ["history"], ["sessions", "--deleted"]):
            fitted = ok(*command).stdout
            shown = len(set(re.findall(r"evening-\d+|red\\x1b\[31m-9", fitted)))
            assert len(fitted.splitlines()) < height or shown == 3, (command, width, height)  # (3 at least)
            assert fitted == ok(*command, "--limit", str(shown)).stdout, (command, width, height)
            assert color or "\x1b[" not in fitted  # (a name's own escape shown, never sent)


LONG_LISTS = [["sessions", "--all"], ["history", "--all"], ["sessions", "--limit", "220"],
              ["history", "--limit", "201"], ["history", "--all", "--player", "ann"]]


def test_a_long_list_drawn_from_the_cells_kept_says_what_one_drawn_from_the_rows_says(ok, db_path, tmp_path,
                                                                                      monkeypatch):
    """Past 200 sessions `--all` (or --limit) draws each session's cells as the cache keeps them by the
    digest of its facts (no row read or cell made again): cold, warm, without a cache, with the
    cells forged into another shape, and after a session changed, every line and note is what the
    list drawn from the rows says (matches, the current session, deleted ones not listed)."""
    import ginscore.present.lists
    from ginscore.cache.files import Cache

    every = [facts._replace(created_at=f"2026-{1 + n // 28 % 12:02d}-{1 + n % 28:02d}T20:00:00+00:00")
             for n, facts in enumerate(benchmark_sessions(236))]
    every[3] = every[3]._replace(name="red\x1b[31m")
    every.append(quiet_session("turned\u202e-李", ("Zoë 李", "Ann"), "2026-12-01T20:00:00+00:00"))
    every[40], every[41] = (facts._replace(match="m-1a2b3c4d") for facts in every[40:42])
    with Store(db_path).writing() as db:
        for facts in every:
            db.add(facts)
    ok("delete", every[7].name, "--yes")
    ok("use", every[100].name)
    monkeypatch.setenv("COLUMNS", "160")

    def outputs() -> list[str]:
        return [ok(*command).stdout for command in LONG_LISTS]

    with monkeypatch.context() as rows_only:
        rows_only.setattr(ginscore.present.lists, "from_kept_cells", lambda count: False)
        expected = outputs()
    assert "Games of one match, oldest first: " in expected[1] and "red\\x1b[31m" in expected[0]
    assert "turned\\u202e-李" in expected[0] and "\u202e" not in "".join(expected) and "Zoë 李" in expected[0] and "Games of one match" in expected[4]
    assert "*  " + every[100].name in expected[0] and "Not listed: 1 deleted session" in expected[0]
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cold"))
    assert outputs() == expected  # made, and kept
    cells = Cache(os.path.realpath(db_path), "cells")
    assert len(list(cells.keyed("sessions").keys())) == 236 and cells.keyed("history").keys()
    with monkeypatch.context() as kept_only:  # kept: no row read
        for reading in ("summaries", "history_items"):
            kept_only.setattr(Listings, reading, lambda *args: pytest.fail("a row read for a kept line"))
        assert outputs() == expected
    for forged in (b'["one"]', b'[1, 2, 3, 4, 5, 6]', b"{}"):
        for listing in ("sessions", "history"):
            kept = cells.keyed(listing)
            cells.put_keyed(listing, {key: forged for key in kept.keys()})
        cells.save(cells.made_from, cells.names())
        assert outputs() == expected, forged
    # cells of the right shape holding, once read, characters a terminal obeys (JSON writes them escaped)
    os.unlink(cells.path)  # (cells of another shape are never kept in place of the forged: made afresh here)
    assert outputs() == expected
    cells = Cache(os.path.realpath(db_path), "cells")
    for listing in ("sessions", "history"):
        kept = cells.keyed(listing)
        cells.put_keyed(listing, {key: bytes(kept.raw(key)).replace(b'["', b'["\\u001b]0;pwned\\u0007', 1)
                                  for key in kept.keys()})
    cells.save(cells.made_from, cells.names())
    assert b"\\u001b]0;pwned" in bytes(Cache(os.path.realpath(db_path), "cells").keyed("history").data)
    assert outputs() == expected
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "a-file" / "below"))
    (tmp_path / "a-file").write_text("no cache folder can be made here")
    assert outputs() == expected
    ok("hand", "ann", "3", "30", "--session", every[100].name)
    monkeypatch.setenv("GINSCORE_CACHE", str(tmp_path / "cold"))
    changed = outputs()
    with monkeypatch.context() as rows_only:
        rows_only.setattr(ginscore.present.lists, "from_kept_cells", lambda count: False)
        assert outputs() == changed != expected


@pytest.mark.parametrize("columns", ["40", "80", "120"])
def test_a_list_shows_the_newest_sessions_that_fit_one_screen_and_no_fewer(ok, db_path, monkeypatch, columns):
    """Without --all or --limit, `sessions` and `history` show as many of the newest sessions as
    the screen's height leaves room for, in the layout chosen for its width (a line a session at
    80 columns, blocks at 40), their notes and the shell's prompt included, and say how many are
    left out: the same screen as --limit with that count, and one more would not fit."""
    live = _history(ok, db_path)
    for facts in live[:12]:
        ok("delete", facts.name, "--yes")  # a list of the deleted longer than a screen too
    monkeypatch.setenv("COLUMNS", columns)
    for height in (12, 30):
        monkeypatch.setenv("LINES", str(height))
        for command in (["sessions"], ["sessions", "--deleted"], ["history"], ["history", "--player", "ann"]):
            shown = ok(*command).stdout
            total = len(ok(*command, "--json").json())
            left_out = re.search(r"([0-9]+)\s+older\s+sessions?\s+not\s+shown", shown)
            count = total - (int(left_out.group(1)) if left_out else 0)
            assert count >= 3 and shown == ok(*command, "--limit", str(count)).stdout, (command, height)
            if count > 3:
                assert shown.count("\n") <= height - 1, (command, height, shown)
            for advised in re.findall(r"`[^`]+`", " ".join(shown.split())):  # no command that fits is broken
                assert len(advised) > int(columns) or advised in shown, (advised, shown)
            if count < total:
                one_more = ok(*command, "--limit", str(count + 1)).stdout
                assert one_more.count("\n") > height - 1, (command, height, count)


def test_filtered_stats_and_history_equal_a_replay_of_the_sessions_chosen(ok, refused, db_path):
    live = _history(ok, db_path)
    for chosen in FILTERS:
        expected = statistics([replay(facts) for facts in _chosen(live, **chosen)])
        assert ok("stats", "--json", *_options(chosen)).stdout == _as_printed(expected), chosen
        if "since" not in chosen:
            names = [facts.name for facts in reversed(_chosen(live, **chosen))]
            assert [row["name"] for row in ok("history", "--json", *_options(chosen)).json()] == names
            shown = ok("history", *_options(chosen)).stdout
            assert all(name in shown for name in names[:3]), chosen
    assert ok("stats", "Cy", "--json", "--variant", "three").json()["players"]["Cy"] == \
        statistics([replay(facts) for facts in _chosen(live, variant="three")])["players"]["Cy"]
    for command in ("stats", "history"):  # every player of every part named, whatever --since
        line = refused(command, "--player", "Nobody", *(["--since", "2027-01-01"] if command == "stats" else []),
                       says="nobody named 'Nobody' has played; the players are")
        assert all(name in line for name in ("Ann", "ann", "Ben", "Cy", "Zoë", "Dee"))
        assert "the players are Ann, ann, Ben, Cy, Dee" in line  # the same order every run
    assert ok("complete", "everyone").stdout.splitlines()[:3] == ["Ann", "ann", "Ben"]
    refused("stats", "--since", "yesterday", says="--since takes a date like 2026-11-01")


@pytest.mark.parametrize("command", [["history", "--json"], ["sessions", "--json"], ["stats", "--variant", "oklahoma"],
                                     ["history", "--player", "ben"], ["stats", "--since", "2026-01-01"]])
def test_a_damaged_session_met_on_the_way_stops_the_list_naming_it(cli, ok, db_path, command):
    """A session edited by hand into something unreadable, among the first: the list stops
    before its first row, exit 1, one line naming it, nothing cut on standard output; the
    database left as it is."""
    from tests.support import database_files

    with Store(db_path).writing() as db:
        for n in range(2 * PART_SIZE + 5):  # more than a batch of rows (64) before the damaged one
            db.add(quiet_session(f"s{n:03d}", ("Ann", "Ben"), "2026-01-02T20:00:00+00:00", ("standard", "oklahoma")[n % 2]))
    stored = json.loads(db_path.read_text())
    damaged = next(doc for doc in stored["sessions"].values() if doc["name"] == "s007")
    damaged["players"] = "Ann"
    db_path.write_text(json.dumps(stored))
    before = database_files(db_path)
    done = cli(*command)
    assert done.exit_code == 1, (command, done.stdout)
    assert len(done.stderr.splitlines()) == 1 and "damaged session 's007'" in done.stderr, done.stderr
    assert done.stdout == ""
    assert database_files(db_path) == before


def _three_evenings(ok, clock) -> None:
    """Three sessions started at one fixed moment, so the lists' widths never depend on the day they run."""
    clock("2026-12-05T20:00:00+00:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday night")
    ok("hand", "ann", "0", "80")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ben", "0", "20")
    ok("new", "three", "Ann", "Ben", "Cyrille", "--box", "ann", "--captain", "ben")


@pytest.mark.parametrize(("columns", "heads"), [
    ("80", ["Started", "Session", "Variant", "Hands", "Winner", "Score"]),
    ("60", ["Started", "Session", "Hands", "Winner", "Score"]),  # each variant under its session's name
])
def test_history_keeps_its_headings_at_every_width_a_table_fits(ok, clock, monkeypatch, columns, heads):
    _three_evenings(ok, clock)
    monkeypatch.setenv("COLUMNS", columns)
    lines = ok("history").stdout.splitlines()
    assert lines[0].split() == heads and set(lines[1]) == {"─"}
    assert ("Standard" in lines[-2]) == (columns == "80") and ("Standard" in lines[-1]) == (columns == "60")


def test_two_players_on_two_lines_of_a_sessions_table_keep_their_v_at_every_width(ok, monkeypatch):
    """Whatever width the Players column gets, "Annabella v" / "Bartholomew" or "Annabella" / "v Bartholomew":
    never two bare names, which read as two sessions' players (the narrowest screens list a player a line)."""
    ok("new", "standard", "Al", "Bo", "--dealer", "al")
    ok("new", "standard", "Annabella", "Bartholomew", "--dealer", "anna")
    tables = 0
    for columns in range(44, 101):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = ok("sessions").stdout
        if "Players" in out.splitlines()[0]:
            tables += 1
            assert re.search(r"\bAnnabella v\b|\bv Bartholomew\b", out), (columns, out)
            assert "Annabella" in out and "Bartholomew" in out, (columns, out)  # neither player lost to the "v"
    assert tables > 40


@pytest.mark.parametrize("command", ["sessions", "history"])
def test_a_list_of_exactly_200_sessions_is_still_fitted_to_the_screen(ok, db_path, monkeypatch, command):
    """Only past 200 sessions is each one long line, however wide (tables.LONG); 200 are still a table of 80."""
    with Store(db_path).writing() as db:
        for n in range(200):
            db.add(quiet_session(f"evening-{n}", ("Alexandrina Maria", "Bartholomew James"),
                                 f"2026-03-{1 + n % 28:02d}T20:00:00+00:00"))
    monkeypatch.setenv("COLUMNS", "80")
    lines = ok(command, "--all").stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and sum("evening-" in line for line in lines) == 200


@pytest.mark.parametrize(("command", "last", "row"), [
    ("sessions", r"2026-03-[0-9]{2} 20:00", r"^[* ] +evening-\d+ +Standard +Ann v Ben +0 +in play +"),
    ("history", r"\(so far\)", r"^2026-03-[0-9]{2} 20:00 +evening-\d+ +Standard +0 +in play +Ann 0, Ben 0 "),
])
def test_each_long_line_of_a_long_list_ends_with_its_last_column(ok, db_path, monkeypatch, command, last, row):
    """Past 200 sessions: `sessions` ends each line with when it started, `history` with the score so far; each
    line reads as the short list's row: the players joined by "v", who won or "in play", each player's score;
    in `sessions` the current one (the last added) alone starred."""
    with Store(db_path).writing() as db:
        for n in range(201):
            db.add(quiet_session(f"evening-{n}", ("Ann", "Ben"), f"2026-03-{1 + n % 28:02d}T20:00:00+00:00"))
    monkeypatch.setenv("COLUMNS", "120")
    listed = [line for line in ok(command, "--all").stdout.splitlines() if "evening-" in line]
    assert len(listed) == 201 and all(re.search(row + last + "$", line) for line in listed), listed[:3]
    assert [line for line in listed if line.startswith("*")] == listed[-1:] * (command == "sessions"), listed[-3:]


@pytest.mark.parametrize("command", ["sessions", "history"])
def test_a_screen_one_column_narrower_shows_the_same_list_when_it_still_fits(ok, clock, monkeypatch, command):
    """The widest layout that fits is chosen: what a screen shows, one a column narrower shows too when
    every line of it fits there (no layout is given up at the exact width it needs)."""
    _three_evenings(ok, clock)
    shown = {}
    for columns in range(44, 121):
        monkeypatch.setenv("COLUMNS", str(columns))
        shown[columns] = ok(command).stdout
    for columns in range(44, 120):
        wider = shown[columns + 1]
        if max(len(line) for line in wider.splitlines()) <= columns:
            assert shown[columns] == wider, (columns, shown[columns], wider)
