"""`ginscore house`: the session's house rules shown, and changed from the start or from the next hand."""

from __future__ import annotations

import pytest


def test_house_shows_every_rule_and_changes_nothing(ok, db_path):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01", "--deal", "loser")
    before = db_path.read_bytes()
    out = ok("house").stdout
    for words in ("Target", "Gin bonus", "Undercut bonus", "Big gin", "Game bonus", "Box bonus", "Shutout",
                  "Spades double", "Ace means gin", "the loser deals next", "0.01 a point"):
        assert words in out
    assert db_path.read_bytes() == before


def test_house_change_rescores_every_hand(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25 = 55
    ok("hand", "ben", "9", "5")  # undercut: Ann 4 + 10 = 14
    out = ok("house", "--gin-bonus", "20", "--undercut-bonus", "25", "--stake", "0.02", "--from-start").stdout
    assert "rescored 2 hands" in out and "Gin bonus (H1): 20 (was 25)" in out
    doc = status()
    assert doc["totals"] == {"Ann": 50 + 29, "Ben": 0}
    assert doc["rules"]["gin_bonus"] == 20 and doc["rules"]["stake"] == "0.02"


def test_house_lowering_the_target_to_the_last_hand_ends_the_game(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # 55
    ok("hand", "ann", "2", "20")  # 73
    ok("house", "--target", "70", "--stake", "1", "--from-start")
    doc = status()
    assert doc["over"] is True and doc["winner"] == "Ann"
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "73.00"}]


def test_house_turns_switches_off(ok, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--shutout", "--spades-double", "--ace-means-gin",
       "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "9", "--upcard", "5s")  # doubled: 14
    assert status()["totals"]["Ann"] == 14
    ok("house", "--no-shutout", "--no-spades-double", "--no-ace-means-gin", "--no-big-gin", "--from-start")
    doc = status()
    assert doc["totals"]["Ann"] == 7
    assert [doc["rules"][k] for k in ("shutout", "spades_double", "ace_means_gin", "big_gin_bonus")] == [
        False, False, False, None]


def test_house_with_the_same_rules_writes_nothing(ok, db_path):
    ok("new", "standard", "Ann", "Ben", "--gin-bonus", "20")
    before = db_path.read_bytes()
    assert "nothing was changed" in ok("house", "--gin-bonus", "20").stdout
    assert db_path.read_bytes() == before


def test_house_acts_on_the_named_session(ok, status):
    ok("new", "standard", "Ann", "Ben", "--name", "first")
    ok("new", "standard", "Cy", "Di", "--name", "second")
    ok("house", "--target", "150", "--session", "first")
    assert status("--session", "first")["rules"]["target"] == 150
    assert status()["rules"]["target"] == 100
    # the rules of a session named, not current, say how to change *its* rules
    said = " ".join(ok("house", "--session", "first").stdout.split())
    assert "Change any of them with `ginscore house --session first OPTION`" in said
    assert "`ginscore house OPTION`" in " ".join(ok("house").stdout.split())


@pytest.fixture
def played(ok):
    """An Oklahoma session that turns several house-rule changes down."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "2", "9", "--upcard", "5")  # hand 1: a rank-only upcard
    ok("hand", "ben", "0", "40", "--big-gin", "--upcard", "kh")  # hand 2: big gin, 71
    ok("hand", "ann", "1", "20", "--upcard", "ah", "--note", "knock on an ace")  # hand 3: 19
    ok("hand", "ben", "3", "4", "--upcard", "9c")  # hand 4


@pytest.mark.parametrize("options, says", [
    (["--no-big-gin"], "hand 2 could not stand (this session plays no big gin"),
    (["--target", "60"], "hand 3 could not stand (the game would already have been won before it)"),
    (["--spades-double"], "hand 1 could not stand (spades double is on"),
    (["--ace-means-gin"], "hand 3 could not stand (Ann knocked with 1, but this hand allows only gin"),
    (["--big-gin-bonus", "31", "--no-big-gin"], "not both"),
    (["--deal", "loser", "--target", "0"], "target must be"),
    (["--gin-bonus", "-5"], "0 or more"),
])
def test_house_change_a_hand_cannot_stand_under_is_refused_whole(played, refused, options, says):
    line = refused("house", *options, "--from-start", says=says)
    assert line.startswith("Error: refused: under those rules hand") or "hand" not in says


def test_house_refuses_a_rule_that_makes_no_sense_for_the_variant(ok, refused):
    ok("new", "standard", "Ann", "Ben")
    refused("house", "--spades-double", says="Oklahoma house rule (H4)")
    refused("house", "--ace-means-gin", says="Oklahoma house rule (H4)")


def test_house_says_a_rule_cannot_be_before_asking_from_when(ok, refused):
    """After a hand, a rule that cannot be is the one thing said: saying from when would not help (H4, H5,
    R22, H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    refused("house", "--spades-double", says="--spades-double is an Oklahoma house rule (H4); leave it out")
    refused("house", "--target", "0", says="the target must be a whole number above 0, not 0 (H5)")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "4", "22")
    refused("house", "--deal", "loser", says="in three-player the box deals every hand (R22)")
    refused("house", "--gin-bonus", "30", says="say from when")  # a rule that can be: from when, first


def test_house_without_a_session_is_refused(refused):
    refused("house", says="no session yet")
    refused("house", "--target", "50", says="no session yet")


def test_house_says_when_it_reopens_a_finished_game(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "90")  # 90 + 25: Ann has won
    out = ok("house", "--target", "200", "--from-start").stdout
    assert "Ann had won is not over yet" in out
    out = ok("house", "--target", "100", "--from-start").stdout
    assert "the game is over: Ann wins" in out


def test_house_says_nothing_of_the_game_when_its_end_is_unchanged(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    out = ok("house", "--gin-bonus", "20", "--from-start").stdout
    assert "is over" not in out and "not over yet" not in out and "wins" not in out
