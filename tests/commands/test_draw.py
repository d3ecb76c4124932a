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


def test_an_oklahoma_hand_drawn_with_no_upcard_given_says_nobody_scores_r12(ok, status):
    """Oklahoma asks a knock for its upcard (R15), a draw does not: one recorded without it is said
    as a draw with no upcard named, not a traceback."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    said = " ".join(ok("draw").stdout.split())
    assert "Recorded hand 1: drawn hand: nobody scores; Ann deals again (R12)." in said, said
    assert status()["hands_played"] == 1
