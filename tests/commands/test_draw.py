"""`ginscore draw`: a drawn hand (R12)."""

from __future__ import annotations


def test_draw_keeps_the_dealer_r12(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("draw").stdout
    assert "nobody scores; Ann deals again (R12)" in out
    doc = status()
    assert doc["hands_played"] == 1 and doc["next_dealer"] == "Ann" and doc["totals"] == {"Ann": 0, "Ben": 0}


def test_a_three_player_draw_keeps_the_box_and_says_so_r25(ok, status):
    """R25: a drawn hand changes nothing in three-player; the line says the box deals again, not a dealer."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    said = " ".join(ok("draw").stdout.split())
    assert "drawn hand: nobody scores; Ann stays in the box and deals again (R12, R25)." in said, said
    assert status()["roles"] == {"box": "Ann", "captain": "Ben", "out": "Cy"}
