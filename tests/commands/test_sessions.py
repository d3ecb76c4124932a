"""`ginscore sessions` and `ginscore use`."""

from __future__ import annotations

import json

import pytest

from ginscore.db.store import Store
from tests.support import exported, quiet_session


def test_sessions_use_and_session_option(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "Friday")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    rows = ok("sessions", "--json").json()
    assert [(r["name"], r["current"]) for r in rows] == [("Friday", False), ("hollywood-1", True)]
    assert set(rows[0]) >= {"name", "variant", "players", "hands_played", "winner", "over", "current"}
    ok("hand", "ann", "2", "9", "--session", "fri")
    assert status("--session", "friday")["totals"]["Ann"] == 7
    assert status()["session"] == "hollywood-1"
    ok("use", "FRI")
    assert status()["session"] == "Friday"
    out = ok("sessions").stdout
    assert "Friday" in out and "hollywood-1" in out


@pytest.mark.parametrize("typed, args", [("fri", ["use", "fri"]), ("friday", ["status", "--session", "friday"]),
                                         ("f", ["hand", "ann", "3", "20", "-s", "f"]),
                                         ("fri", ["rename", "sunday", "--session", "fri"])])
def test_a_name_that_begins_two_sessions_names_both_and_asks_for_more(ok, refused, typed, args):
    """`use fri` with "friday one" and "friday two" kept: which is meant cannot be told, so nothing is
    chosen for the table; both are named, and more of the name is asked for."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday one")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday two")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "saturday")
    refused(*args, says=f"'{typed}' could be 'friday one' or 'friday two'; type more of the name")
    assert ok("status", "--json").json()["session"] == "saturday"

def test_names_that_hold_commas_are_told_apart_when_a_prefix_could_be_either(ok, refused):
    """"'fri' could be fri, big night, fri late" did not say where one name ended: each is quoted."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri, big night")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fri late")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "fried")
    refused("use", "fri", says="'fri' could be 'fri, big night', 'fri late' or 'fried'; type more of the name")


def test_a_current_session_left_out_of_a_short_list_is_said(ok, db_path, monkeypatch):
    with Store(db_path).writing() as db:
        for n in range(30):
            db.add(quiet_session(f"evening-{n}", ("Ann", "Ben"), f"2026-03-{1 + n % 28:02d}T20:00:00+00:00"))
    ok("use", "evening-2")
    monkeypatch.setenv("LINES", "12")
    for columns in ("40", "80"):
        monkeypatch.setenv("COLUMNS", columns)
        shown = " ".join(ok("sessions").stdout.split())
        assert "evening-2 " not in shown and "The current session, 'evening-2', is among them" in shown
    ok("use", "evening-29")  # shown: not said
    assert "The current session" not in ok("sessions").stdout
    ok("use", "evening-2")
    assert "The current session" not in ok("sessions", "--all").stdout


def test_a_series_won_with_game_3_still_open_reads_whole_on_a_phone(ok, db_path, monkeypatch):
    """At 40 columns "(game 3 open)" is never broken, in a short list (drawn by Rich) or a long one (plain)."""
    ok("new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex", "--name", "friday")
    ok("hand", "alex", "0", "80")  # gin: 105 in game 1 (R19)
    ok("hand", "alex", "0", "80")  # game 1 is won: 105 in game 2, the second game won
    monkeypatch.setenv("COLUMNS", "40")
    for command in ("sessions", "history"):
        assert "2 hands · won by Alexandrina\n(game 3 open)\n" in ok(command).stdout, command
    with Store(db_path).writing() as db:
        for n in range(200):
            db.add(quiet_session(f"evening-{n}", ("Ann", "Ben"), f"2026-03-{1 + n % 28:02d}T20:00:00+00:00"))
    for command in ("sessions", "history"):
        assert "2 hands · won by Alexandrina\n(game 3 open)\n" in ok(command, "--all").stdout, command


def test_sessions_help_tells_the_order_they_are_listed_in(ok, tmp_path):
    out = exported(ok, tmp_path, "json")
    doc = json.loads(out.read_text())
    doc["session"]["created_at"] = "2001-01-01T20:00:00+00:00"  # an old evening, brought in last
    doc["session"]["name"] = "old"
    doc["session"].pop("id", None)
    out.write_text(json.dumps(doc))
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy", "--name", "tonight")
    ok("import", out)
    help_text = " ".join(ok("sessions", "--help").stdout.split())
    assert "oldest first" not in help_text
    assert "in the order they came into this database" in help_text
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["friday", "tonight", "old"]


def test_on_a_phone_each_session_says_when_it_started_or_was_deleted_over_its_players(ok, clock, monkeypatch):
    """At 40 columns a session is a few lines: name, hands and result, when it started (when it was
    deleted, in the deleted list), then its players each on an indented line of their own."""
    clock("2026-12-05T20:00:00+00:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("new", "oklahoma", "Cy", "Dee", "--dealer", "cy", "--name", "saturday")
    clock("2026-12-06T21:30:00+00:00")
    ok("delete", "saturday", "--yes")
    ok("hand", "ann", "0", "90", "--session", "friday")  # won at once: a standard game has no game 3
    monkeypatch.setenv("COLUMNS", "40")
    assert ok("sessions").stdout.startswith(
        "friday · Standard\n1 hand · won by Ann\nstarted 2026-12-05 20:00\n  Ann\n  Ben\n")
    assert ok("sessions", "--deleted").stdout.startswith(
        "saturday · Oklahoma\n0 hands · in play\ndeleted 2026-12-06 21:30\n  Cy\n  Dee\n")


@pytest.mark.parametrize(("columns", "heads", "time"), [
    ("80", ["Session", "Variant", "Players", "Hands", "Result"], " 20:00"),
    ("50", ["Session", "Players", "Hands", "Result"], ""),  # each variant under its name, the day only
])
def test_sessions_heads_each_column_and_says_when_each_was_started_or_deleted(ok, clock, monkeypatch, columns,
                                                                              heads, time):
    """The last column of the list is when each session started; of the deleted list, when each was deleted."""
    clock("2026-12-05T20:00:00+00:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("new", "oklahoma", "Cy", "Dee", "--dealer", "cy", "--name", "saturday")
    clock("2026-12-06T20:00:00+00:00")
    ok("delete", "saturday", "--yes")
    monkeypatch.setenv("COLUMNS", columns)
    for command, last, when in ((["sessions"], "Started", "2026-12-05"),
                                (["sessions", "--deleted"], "Deleted", "2026-12-06")):
        lines = ok(*command).stdout.splitlines()
        assert lines[0].split() == heads + [last] and set(lines[1]) == {"─"}, (command, lines)
        assert lines[2].endswith(f" in play  {when}{time}"), (command, lines)


@pytest.mark.parametrize("columns", ["80", "50", "40"])
def test_the_current_session_alone_is_starred_in_the_list(ok, monkeypatch, columns):
    """The star in the first column is what tells a player which session a `hand` would go to."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("new", "oklahoma", "Cy", "Dee", "--dealer", "cy", "--name", "saturday")
    ok("use", "friday")
    monkeypatch.setenv("COLUMNS", columns)
    shown = ok("sessions").stdout
    assert [line.split()[1] for line in shown.splitlines() if line.startswith("* ")] == ["friday"], shown


def test_the_notes_under_the_lists_of_sessions_name_the_commands_that_go_on(ok):
    """Under the list: how to see the sessions left out, with the same list's command; under the deleted
    ones: how to bring one back, or that there are none."""
    assert ok("sessions", "--deleted").stdout == "No deleted sessions.\n"
    for name in ("mon", "tue", "wed", "thu"):
        ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", name)
    ok("delete", "mon", "--yes")
    ok("delete", "tue", "--yes")
    said = " ".join(ok("sessions", "--limit", "1").stdout.split())
    assert ("1 older session not shown: `ginscore sessions --all` shows every one, "
            "`ginscore sessions --limit N` the newest N.") in said
    said = " ".join(ok("sessions", "--deleted", "--limit", "1").stdout.split())
    assert ("1 older session not shown: `ginscore sessions --deleted --all` shows every one, "
            "`ginscore sessions --deleted --limit N` the newest N.") in said
    assert said.endswith("`ginscore restore NAME` brings one back.")


@pytest.mark.parametrize("columns", ["56", "66"])
def test_three_players_too_many_for_one_line_share_as_few_lines_as_fit_joined_by_v(ok, monkeypatch, columns):
    """"Ann v Ben" over "v Cyrille": two lines, each "v" kept, so the lines read as one session's three players."""
    ok("new", "three", "Ann", "Ben", "Cyrille", "--box", "ann", "--captain", "ben", "--name", "tri")
    monkeypatch.setenv("COLUMNS", columns)
    lines = ok("sessions").stdout.splitlines()
    players = [line[lines[0].index("Players"):].split("  ")[0] for line in lines[2:4]]
    assert players == ["Ann v Ben", "v Cyrille"], lines


def test_a_series_with_game_3_open_is_one_line_where_the_list_has_room_and_two_where_not(ok, clock, monkeypatch):
    """At 120 columns a session is a line: its result reads whole on it; at 80 "(game 3 open)" goes under
    "won by ...", in the Result column, beside the variant under the name."""
    clock("2026-12-05T20:00:00+00:00")
    ok("new", "hollywood", "Alexandrina", "Bartholomew", "--dealer", "alex", "--name", "friday")
    ok("hand", "alex", "0", "80")
    ok("hand", "alex", "0", "80")  # game 1 and game 2 won: the series is won, game 3 still open
    monkeypatch.setenv("COLUMNS", "120")
    lines = ok("sessions").stdout.splitlines()
    assert lines[2].endswith("  won by Alexandrina (game 3 open)  2026-12-05 20:00"), lines
    monkeypatch.setenv("COLUMNS", "80")
    lines = ok("sessions").stdout.splitlines()
    assert lines[2].endswith("  won by Alexandrina  2026-12-05"), lines
    assert lines[3].split() == ["Hollywood", "(game", "3", "open)"], lines
