"""`ginscore log`: every hand of the session with its result and running totals."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest


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


def test_log_json_says_which_hand_was_a_big_gin_h2(ok):
    """A script reading `log --json` finds "big_gin" true for the hand won with all eleven cards (H2),
    false for a plain gin and for a drawn hand."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "0", "20", "--big-gin")
    ok("hand", "ann", "0", "20")
    ok("draw")
    hands = ok("log", "--json").json()["hands"]
    assert [(h["outcome"], h["big_gin"]) for h in hands] == [("big-gin", True), ("gin", False), ("draw", False)]


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


def test_a_drawn_hand_in_the_stacked_log_still_says_it_was_drawn(ok, monkeypatch):
    """R12: a drawn hand scores nothing. At 40 columns the log gives each hand a few lines; a draw with no
    upcard has no other line, so without the word its row would be a bare number."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("draw")
    monkeypatch.setenv("COLUMNS", "40")
    rows = ok("log").stdout.splitlines()
    assert any(row.startswith("2 ") and "drawn hand" in row for row in rows), rows


def test_the_stacked_log_says_who_knocked_each_hand(ok, monkeypatch):
    """On an undercut the knocker is not the winner (R13), so the Won column cannot tell who knocked; at
    40 columns the hand's first line must name the knocker by letter beside its result."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ben", "9", "3")
    monkeypatch.setenv("COLUMNS", "40")
    out = ok("log").stdout
    assert "B undercut" in out and "A Ann  B Ben" in out, out


def test_the_stacked_log_keeps_each_hands_deadwood(ok, monkeypatch):
    """The deadwood counts are what the points were worked from (R9, R10); the wide log has a column for
    them and the narrow one a line under the result, never neither."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ben", "9", "3")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("log").stdout.splitlines()
    hand = next(n for n, line in enumerate(lines) if line.startswith("1 "))
    assert "9 v 3" in lines[hand + 1], lines


@pytest.mark.parametrize("columns", ["120", "60", "40"])
def test_a_hand_doubled_by_a_spade_upcard_says_so_in_the_log_h4(ok, monkeypatch, columns):
    """Under spades double (H4) a 5 v 25 knock on the 7 of spades scores 40, not the 20 a person works out from
    the deadwood beside it: the log marks that hand's result x2, and no other, at every width."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--spades-double")
    ok("hand", "ben", "5", "25", "--upcard", "7s")
    ok("hand", "ann", "1", "30", "--upcard", "ah")
    ok("hand", "ann", "0", "10", "--upcard", "ks")  # gin: (10 + 25) x 2
    monkeypatch.setenv("COLUMNS", columns)
    out = ok("log").stdout
    assert re.search(r"\bknock x2\b", out) and re.search(r"\bgin x2\b", out), out
    assert out.count(" x2") == 2 and re.search(r"\bknock\b(?! x2)", out), out  # the ace of hearts: not doubled


@pytest.mark.parametrize("columns", ["120", "40"])
def test_the_log_marks_x2_only_the_hands_spades_double_doubled_h4_h8(ok, monkeypatch, columns):
    """Spades double agreed from the next hand on (H8) doubles no hand played before: a gin on the 5 of spades
    then is not marked x2, while the undercut and the big gin it doubled afterwards are."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "0", "10", "--upcard", "5s")  # gin: 10 + 25, not doubled
    ok("house", "--spades-double", "--from-next")
    ok("hand", "ann", "5", "5", "--upcard", "ks")  # undercut: (0 + 10) x 2
    ok("hand", "ben", "0", "4", "--upcard", "2s", "--big-gin")  # (4 + 31) x 2
    monkeypatch.setenv("COLUMNS", columns)
    out = ok("log").stdout
    assert re.search(r"\bundercut x2\b", out) and re.search(r"\bbig gin x2\b", out), out
    assert out.count(" x2") == 2 and re.search(r"(?<!big )\bgin\b(?! x2)", out), out


def test_a_wide_three_player_log_names_the_captain_of_each_hand_r22_r23(ok, monkeypatch):
    """Who played against the box is what a person checks a three-player hand by (R22): where the screen has
    room the log names each hand's captain beside the box and who sat out, and where it has not (80 columns)
    the log stays as it was, every name in full, rather than letters."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "5", "15")  # the box wins: the captain sits out, Cy captains (R23)
    ok("hand", "ann", "7", "4")  # Cy undercuts the box: Cy takes it, Ben captains, Ann sits out (R23)
    ok("hand", "cy", "2", "30")
    monkeypatch.setenv("COLUMNS", "120")
    rows = [line.split() for line in ok("log").stdout.splitlines()]
    assert rows[2][:4] == ["#", "Box", "Captain", "Sat"], rows
    assert [row[:4] for row in rows[4:7]] == [["1", "Ann", "Ben", "Cy"], ["2", "Ann", "Cy", "Ben"],
                                              ["3", "Cy", "Ben", "Ann"]], rows
    monkeypatch.setenv("COLUMNS", "80")
    rows = [line.split() for line in ok("log").stdout.splitlines()]
    assert rows[2][:4] == ["#", "Box", "Sat", "out"] and rows[4][:3] == ["1", "Ann", "Cy"], rows


def test_a_narrow_log_uses_its_short_headings(ok, monkeypatch):
    """The short headings are what let a whole hand stay on one line at 50 columns and the stacked one fit
    at 40; a long word in their place pushes the log into a narrower layout than the screen needs."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("draw")
    ok("hand", "ben", "9", "3")
    for columns, heads in (("50", ["#", "Dlr", "By", "Deadwood", "Result", "Won", "Pts", "A", "B"]),
                           ("40", ["#", "Dlr", "Hand", "Won", "Pts", "A", "B"])):
        monkeypatch.setenv("COLUMNS", columns)
        lines = ok("log").stdout.splitlines()
        assert lines[3].split() == heads, lines


def test_the_notes_under_a_log_come_under_their_own_heading(ok):
    """Without the heading a note's line reads as one more row of the table above it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22", "--note", "spilt beer")
    lines = ok("log").stdout.splitlines()
    assert lines[-2:] == ["Notes:", "  hand 1: spilt beer"], lines


def test_a_finished_log_says_how_the_game_ended_bonuses_and_all_h3(ok):
    """The log's totals are the hands' points (Kim 120): with a game bonus and box bonuses it ended at 260,
    which status, history and the finals export said and the log never did."""
    ok("new", "standard", "Kim", "Lee", "--dealer", "kim", "--game-bonus", "100", "--box-bonus", "20")
    ok("hand", "kim", "0", "40")  # 65
    assert "wins" not in ok("log").stdout  # still in play
    ok("hand", "kim", "0", "30")  # 55: 120, won; 120 + 100 + 2 x 20 = 260 (H3)
    assert ok("log").stdout.splitlines()[-1] == "Kim wins the game with 260 (Lee 0), bonuses added (H3)."
