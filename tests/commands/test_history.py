"""`ginscore history`: every session, newest first, with its winner and score."""

from __future__ import annotations

import re

from ginscore.db.store import Store
from tests.support import in_two_time_zones, quiet_session


def test_history_newest_first_with_winner_and_score(season, ok):
    rows = ok("history", "--json").json()
    assert [r["name"] for r in rows] == ["trio", "two", "one"]
    assert rows[2]["winner"] == "Ann" and rows[2]["final"] == {"Ann": 57, "Ben": 0} and rows[2]["over"]
    assert rows[0]["winner"] is None and rows[0]["score"] == {"Ann": 0, "Ben": 0, "Cy": 20}
    assert [r["name"] for r in ok("history", "--json", "--variant", "standard").json()] == ["two", "one"]
    assert [r["name"] for r in ok("history", "--json", "--player", "CY").json()] == ["trio"]
    out = ok("history").stdout
    assert out.index("trio") < out.index("one") and "(so far)" in out


def test_history_shows_which_sessions_are_one_match(ok):
    ok("new", "standard", "Ann", "Ben", "--name", "friday")
    ok("rematch", "--name", "friday-2", "--yes")
    ok("new", "standard", "Cy", "Di", "--name", "alone")
    ok("new", "hollywood", "Ann", "Ben", "--name", "sat")
    ok("rematch", "--name", "sat-2", "--yes")
    rows = {r["name"]: r["match"] for r in ok("history", "--json").json()}
    assert rows["alone"] is None
    assert rows["friday"] == rows["friday-2"] and rows["sat"] == rows["sat-2"] and rows["friday"] != rows["sat"]
    out = ok("history").stdout
    assert "Games of one match, oldest first: 'friday', 'friday-2'." in out
    assert "Games of one match, oldest first: 'sat', 'sat-2'." in out and "alone." not in out


def test_an_empty_history_says_why_as_sessions_does(ok):
    """No filter given, so "No sessions match." would say nothing true: it says there are none yet, or
    that the deleted ones are not listed; a filter that chooses none still says none match."""
    assert ok("history").stdout.startswith("No sessions yet; start one, like `ginscore new standard Ann Ben`")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("delete", "--yes")
    assert "Not listed: 1 deleted session (`ginscore sessions --deleted`)" in ok("history").stdout
    assert ok("history", "--variant", "oklahoma").stdout == "No sessions match.\n"


def test_sessions_started_under_two_utc_offsets_are_listed_in_the_order_they_started(ok, clock):
    """A laptop taken abroad, or the clocks going back: the newest session is the one started last,
    whatever offset its time was written with (docs/ratings.md "Times")."""
    in_two_time_zones(ok, clock, *([["new", "standard", "Ann", "Ben", "--dealer", "ben", "--name", name]]
                                   for name in ("tokyo", "new-york")))
    assert [r["name"] for r in ok("history", "--json").json()] == ["new-york", "tokyo"]
    assert [r["name"] for r in ok("history", "--json", "--player", "ann").json()] == ["new-york", "tokyo"]
    out = ok("history").stdout
    assert out.index("new-york") < out.index("tokyo")


def test_the_advice_under_a_filtered_list_keeps_its_filters(ok):
    """The count of sessions not shown is of the filtered list: the commands it advises list the same."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    said = " ".join(ok("history", "--variant", "three", "--limit", "1").stdout.split())
    assert ("1 older session not shown: `ginscore history --variant three --all` shows every one, "
            "`ginscore history --variant three --limit N` the newest N.") in said
    said = " ".join(ok("history", "--player", "Cy", "--variant", "three", "--limit", "1").stdout.split())
    assert "`ginscore history --player Cy --variant three --all`" in said
    assert "`ginscore history --all` shows every one" in " ".join(ok("history", "--limit", "1").stdout.split())


def test_history_of_a_player_whose_name_is_left_empty_is_refused_like_stats(ok, refused):
    """An empty name means no one (it would be a prefix of every name): refused with the players listed, as
    `stats ""` is, never a crash."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    refused("history", "--player", "", says="nobody named '' has played; the players are Ann, Ben")
    refused("stats", "", says="nobody named '' has played; the players are Ann, Ben")


def test_on_a_phone_each_session_says_when_it_started_over_its_scores(ok, clock, monkeypatch):
    """At 40 columns a session is a few lines: name, hands and result, when it started, then each
    player's score on an indented line of its own, and "(so far)" while it is in play."""
    clock("2026-12-05T20:00:00+00:00")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "friday")
    ok("hand", "ann", "3", "20")
    monkeypatch.setenv("COLUMNS", "40")
    assert ok("history").stdout == "friday · Standard\n1 hand · in play\nstarted 2026-12-05 20:00\n" \
                                   "  Ann 17\n  Ben 0\n  (so far)\n"


def test_past_200_sessions_a_finished_game_shows_its_final_score_not_so_far(ok, db_path, monkeypatch):
    """A list too long for a table is drawn line by line: a game won still reads as its winner and its final
    score, "(so far)" only after the ones in play."""
    with Store(db_path).writing() as db:
        for n in range(201):
            db.add(quiet_session(f"evening-{n}", ("Ann", "Ben"), f"2026-03-{1 + n % 28:02d}T20:00:00+00:00"))
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "won")
    ok("hand", "ann", "0", "90")
    monkeypatch.setenv("COLUMNS", "120")
    lines = ok("history", "--all").stdout.splitlines()
    assert re.search(r" won +Standard +1 +Ann +Ann 115, Ben 0$", lines[2]), lines[:3]
    assert lines[3].endswith("in play  Ann 0, Ben 0 (so far)"), lines[:4]


def test_one_game_of_a_match_listed_alone_is_not_called_a_match(ok):
    """With only the rematch listed, no "Games of one match" line names it alone: only the games shown."""
    ok("new", "standard", "Ann", "Ben", "--name", "friday")
    ok("rematch", "--name", "friday-2", "--yes")
    assert "Games of one match" in ok("history").stdout
    assert "Games of one match" not in ok("history", "--limit", "1").stdout
