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
