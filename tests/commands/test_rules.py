"""`ginscore rules`: the rules and the session's house rules in plain words."""

from __future__ import annotations


def test_rules_command(ok):
    out = ok("rules", "oklahoma").stdout
    assert "R15" in out and "R21" not in out
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--box-bonus", "20")
    out = ok("rules").stdout
    assert "R23" in out and "box bonus 20" in out


def test_rules_of_another_variant_do_not_claim_the_sessions_house_rules(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--gin-bonus", "20", "--name", "friday")
    other = ok("rules", "hollywood").stdout
    assert "House rules of 'friday'" not in other
    assert "The current session 'friday' is Standard, not Hollywood; its own house rules: target 100; gin bonus 20" \
        in " ".join(other.split())
    for same in (ok("rules").stdout, ok("rules", "standard").stdout):
        assert "House rules of 'friday' (Standard): target 100; gin bonus 20" in same


def test_a_shutout_is_every_other_player_scoring_nothing(ok):
    """H3 (docs/rules.md): in three-player two lose, and a shutout needs both to have scored nothing; big gin's
    bonus is not only for a session's start (H2): `house` sets it too."""
    said = " ".join(ok("rules").stdout.split())
    assert "--shutout doubles the winner's final score when every other player scored nothing" in said
    assert "--big-gin-bonus N (new, or house), then hand --big-gin" in said


def test_the_winner_deals_only_where_two_play(ok):
    """R5 is a two-player rule: beside R22 (the box deals every hand) it must not read as every variant's."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    said = " ".join(ok("rules").stdout.split())
    assert "R5 Two players: the winner of a hand deals the next" in said and "R22 The box deals every hand" in said


def test_a_rule_fills_each_of_its_lines_beside_its_id(ok, monkeypatch):
    """At 60 columns H7's lines go on to the edge (56 cells beside the id): no word is moved down early."""
    monkeypatch.setenv("COLUMNS", "60")
    lines = ok("rules").stdout.splitlines()
    assert "    final scores times the stake, the lower final paying the" in lines
    assert "    higher; Hollywood nets its three games into one payment" in lines


def test_rules_with_no_current_session_tell_every_variant_and_no_sessions_house_rules(ok):
    """The current session deleted: `rules` still tells the rules, of every variant, and claims no
    session's house rules."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "fri")
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--gin-bonus", "20", "--name", "sat")
    ok("delete", "sat", "--yes")
    out = ok("rules").stdout
    assert "R15" in out and "R21" in out
    assert "House rules of" not in out and "gin bonus 20" not in out
