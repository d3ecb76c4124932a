"""`ginscore status` and `ginscore dealer`: the standings and who deals next."""

from __future__ import annotations


def test_hollywood_status_games_and_r20_through_cli(ok, status):
    ok("new", "hollywood", "Alexandra", "Bob", "--dealer", "Bob")
    ok("hand", "bob", "5", "15")
    ok("hand", "alex", "2", "20")
    out = ok("hand", "bob", "0", "5").stdout
    assert "in games 1 and 2" in out
    ok("hand", "bob", "6", "10")
    doc = status()
    assert "totals" not in doc and len(doc["games"]) == 3
    assert [g["scores"] for g in doc["games"]] == [
        {"Alexandra": 18, "Bob": 44}, {"Alexandra": 0, "Bob": 34}, {"Alexandra": 0, "Bob": 4}]
    assert all(g["winner"] is None and g["final"] is None for g in doc["games"])


def test_hollywood_winner_with_two_games_before_over(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "75")
    out = ok("hand", "ann", "0", "75").stdout
    assert "Game 2 goes to Ann" in out
    doc = status()
    assert doc["winner"] == "Ann" and doc["over"] is False and doc["next_dealer"] == "Ann"
    assert doc["games"][0]["final"] == {"Ann": 100, "Ben": 0}
    out = ok("hand", "ann", "0", "75").stdout
    assert "Ann wins the series" in out
    doc = status()
    assert doc["over"] is True and doc["final"] == {"Ann": 300, "Ben": 0}
    out = ok("status").stdout
    assert ["Won", "by", "Ann", "Ann", "Ann"] in [line.split() for line in out.splitlines()]  # each game's winner


def test_three_player_roles_rotation_and_dealer(ok, status):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    doc = status()
    assert doc["roles"] == {"box": "Ann", "captain": "Ben", "out": "Cy"} and doc["next_dealer"] == "Ann"
    ok("hand", "ben", "3", "20")  # box loses (R23)
    assert status()["roles"] == {"box": "Ben", "captain": "Cy", "out": "Ann"}
    out = ok("dealer").stdout
    assert "Ben is in the box and deals, Cy captains, Ann sits out" in out
    assert ok("dealer", "--json").json() == {
        "session": "three-1", "next_dealer": "Ben", "roles": {"box": "Ben", "captain": "Cy", "out": "Ann"},
        "over": False}
    ok("hand", "ben", "2", "9")  # box wins
    assert status()["roles"] == {"box": "Ben", "captain": "Ann", "out": "Cy"}
    ok("draw")  # R25
    assert status()["roles"] == {"box": "Ben", "captain": "Ann", "out": "Cy"}
    assert status()["totals"] == {"Ann": 0, "Ben": 17 + 7, "Cy": 0}  # R24: the sitter-out never scores


def test_h5_the_leader_is_told_what_is_left_to_this_sessions_target(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "150")
    ok("hand", "ann", "4", "22")
    assert "Ann needs 132 more to reach 150." in ok("status").stdout
    assert "Ann needs 132 more to reach 150." in " ".join(status()["state_of_play"])


def test_r13_a_hand_won_for_no_points_counts_among_the_hands_won(ok, status):
    """An undercut with the undercut bonus 0 and equal counts scores nothing but is won (R10, R13)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--undercut-bonus", "0")
    ok("hand", "ann", "5", "5")
    assert status()["hands_won"] == {"Ann": 0, "Ben": 1}


def test_two_of_three_players_level_in_the_lead_are_said_so_r21(ok):
    ok("new", "three", "Ann", "Ben", "Cat", "--box", "ann", "--captain", "ben")
    ok("hand", "ben", "0", "10")
    ok("hand", "cat", "0", "10")
    said = " ".join(ok("status").stdout.split())
    assert "Ben and Cat are level at 35, ahead of Ann by 35; each needs 65 more to reach 100." in said


def test_the_hand_that_closes_a_hollywood_game_gives_its_score_winner_first_r18(ok):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    assert "Game 1 goes to Ann, 100 to 0." in " ".join(ok("hand", "ann", "0", "75").stdout.split())
    ok("hand", "ben", "0", "60")  # Ben 85 in game 2 (R18: game 1 is closed)
    assert "Game 2 goes to Ann, 100 to 85." in " ".join(ok("hand", "ann", "0", "75").stdout.split())
