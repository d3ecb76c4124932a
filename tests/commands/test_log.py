"""`ginscore log`: every hand of the session with its result and running totals."""

from __future__ import annotations

import os
import subprocess
import sys


def test_log_and_log_json(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("draw", "--upcard", "7h")
    ok("hand", "ben", "9", "3")
    doc = ok("log", "--json").json()
    assert doc["session"] == "standard-1"
    hands = doc["hands"]
    assert [h["outcome"] for h in hands] == ["knock", "draw", "undercut"]
    assert [h["winner"] for h in hands] == ["Ann", None, "Ann"]
    assert [h["points"] for h in hands] == [18, None, 16]
    assert [h["totals"] for h in hands] == [{"Ann": 18, "Ben": 0}, {"Ann": 18, "Ben": 0}, {"Ann": 34, "Ben": 0}]
    assert [h["dealer"] for h in hands] == ["Ann", "Ann", "Ann"]
    assert hands[1]["upcard"] == "7H" and hands[0]["recorded_at"]
    out = ok("log").stdout
    assert "undercut" in out and "34" in out


def test_log_shows_cards_in_one_notation(ok, db_path):
    """Suit symbols on a terminal that can show them, letters on one that cannot: never both."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "--against", "KS KH KD QC QH QD JS JC 9C 8C",
       "--upcard", "3h")
    out = ok("log").stdout
    assert "3♥" in out and "3H" not in out
    env = {**os.environ, "GINSCORE_DB": str(db_path), "PYTHONIOENCODING": "ascii"}
    ascii_out = subprocess.run([sys.executable, "-m", "ginscore", "log"], env=env, capture_output=True,
                               text=True, encoding="ascii", check=True).stdout
    assert "3H" in ascii_out and "\\u" not in ascii_out


def test_the_log_of_a_session_with_no_hand_is_its_heading_and_one_line(ok):
    """No empty table (a blank line) under "No hands yet."."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("log").stdout
    assert out.endswith("\nNo hands yet.\n") and len(out.splitlines()) == 3, out


def test_the_legend_of_a_lettered_log_stays_one_line_on_a_screen_exactly_as_wide(ok, monkeypatch):
    legend = "A Alexandrina  B Bartholomew"
    ok("new", "standard", "Alexandrina", "Bartholomew", "--dealer", "alex")
    ok("hand", "alex", "2", "10")
    monkeypatch.setenv("COLUMNS", str(len(legend)))
    assert legend in ok("log").stdout.splitlines()
