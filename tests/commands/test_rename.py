"""`ginscore rename`."""

from __future__ import annotations

from tests.support import session_names


def test_rename_current_session_and_the_current_pointer_follows(two_games, ok, status):
    out = ok("rename", "Cy's night").stdout
    assert "Renamed 'test' to 'Cy's night'" in out
    assert status()["session"] == "Cy's night"  # still current
    assert session_names(ok) == ["friday", "Cy's night"]
    assert status("--session", "cy's")["totals"] == {"Ann": 0, "Cy": 65}  # hands go with it


def test_rename_another_session_with_session_option(two_games, ok, status):
    ok("rename", "--session", "fri", "Friday 1")
    assert session_names(ok) == ["Friday 1", "test"] and status()["session"] == "test"
    ok("rename", "--session", "friday 1", "FRIDAY 1")  # the same name in other letters is no clash
    assert session_names(ok)[0] == "FRIDAY 1"


def test_rename_to_the_name_it_has_says_so_and_writes_nothing(two_games, ok, db_path):
    """Not "Renamed 'test' to 'test'.": nothing to do is said, exit 0, the file byte for byte as it was."""
    before, when = db_path.read_bytes(), db_path.stat().st_mtime_ns
    assert ok("rename", "test").stdout == "'test' already has that name; nothing was changed.\n"
    assert ok("rename", "--session", "fri", "friday").stdout.startswith("'friday' already has that name")
    assert db_path.read_bytes() == before and db_path.stat().st_mtime_ns == when
    assert session_names(ok) == ["friday", "test"]


def test_rename_refuses_a_taken_name_ignoring_case_an_empty_or_unprintable_name(two_games, refused, ok):
    refused("rename", "FRIDAY", says="already a session named 'friday'")
    refused("rename", "   ", says="name is empty")
    refused("rename", "evil\x1b]0;pwned\x07", says="cannot be shown")
    refused("rename", "x", "--session", "nope", says="no session 'nope'")
    refused("new", "standard", "Ann", "Ben", "--name", "a\x1bb", says="cannot be shown")
    assert session_names(ok) == ["friday", "test"]
