"""`ginscore draw`: a drawn hand (R12)."""

from __future__ import annotations


def test_draw_keeps_the_dealer_r12(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("draw").stdout
    assert "nobody scores; Ann deals again (R12)" in out
    doc = status()
    assert doc["hands_played"] == 1 and doc["next_dealer"] == "Ann" and doc["totals"] == {"Ann": 0, "Ben": 0}
