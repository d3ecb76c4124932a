"""`ginscore undo`: the last hand removed."""

from __future__ import annotations


def test_undo_asks_and_yes_skips(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ann", "5", "20")
    out = ok("undo", input="n\n").stdout
    assert "Nothing removed" in out and status()["hands_played"] == 2
    out = ok("undo", input="y\n").stdout
    assert "Removed hand 2" in out and status()["hands_played"] == 1
    ok("undo", "--yes")
    assert status()["hands_played"] == 0 and status()["totals"] == {"Ann": 0, "Ben": 0}


def test_the_question_is_wrapped_at_words_on_a_narrow_screen(ok, monkeypatch):
    """undo, delete and rematch ask in lines that fit the screen, as play does, never cut mid-word."""
    ok("new", "standard", "Alexandrinaa", "Bartholomeww", "--dealer", "alex")
    ok("hand", "alex", "4", "22")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("undo", input="n\n").stdout.splitlines()
    assert lines[:4] == ["Remove hand 1: Alexandrinaa knocked", "with 4, Bartholomeww had 22: knock:",
                         "Alexandrinaa scores 22 - 4 = 18?", "[y/N]: n"]  # (the answer, as a terminal shows it)
    monkeypatch.setenv("COLUMNS", "160")
    assert ok("undo", input="n\n").stdout.startswith("Remove hand 1: Alexandrinaa knocked with 4, Bartholomeww had 22:")
