"""The deal rule (`--deal`, H6) and the stake (`--stake`, H7): who deals, who pays whom."""

from __future__ import annotations

import pytest

from tests.support import stored_sessions


def dealers(ok) -> list[str]:
    return [h["dealer"] for h in ok("log", "--json").json()["hands"]]


def test_h6_winner_deals_by_default_r5(ok, status):
    # Ann deals hand 1 and Ben wins it: Ben deals hand 2 (R5).
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ben", "3", "20")
    assert status()["next_dealer"] == "Ben" and status()["rules"]["deal"] == "winner"


def test_h6_loser_deals_worked_example(ok, status):
    # Ann deals hand 1, Ben wins it by knocking, so Ann (the loser) deals hand 2.
    # Ann goes gin on hand 2, so Ben (the loser) deals hand 3. Hand 3 is drawn,
    # so Ben deals again (R12). Ben is undercut on hand 4: Ann wins, Ben deals hand 5.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "loser")
    ok("hand", "ben", "3", "20")
    assert status()["next_dealer"] == "Ann"
    ok("hand", "ann", "0", "12")
    assert status()["next_dealer"] == "Ben"
    out = ok("draw").stdout
    assert "Ben deals again (R12)" in out
    ok("hand", "ben", "8", "5")  # undercut: Ann wins (R10, R13)
    assert dealers(ok) == ["Ann", "Ann", "Ben", "Ben"]
    assert status()["next_dealer"] == "Ben"
    assert ok("dealer", "--json").json()["next_dealer"] == "Ben"


def test_h6_alternate_worked_example(ok, status):
    # Ann deals hand 1 and wins it: Ben deals hand 2 all the same (the deal passes).
    # Ben wins hand 2: Ann deals hand 3. Hand 3 is drawn: Ann deals hand 4 again (R12).
    # Ann deals hand 4, so Ben deals hand 5, whoever wins.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--deal", "alternate")
    ok("hand", "ann", "2", "9")
    ok("hand", "ben", "0", "4")
    ok("draw")
    ok("hand", "ben", "1", "5")
    assert dealers(ok) == ["Ann", "Ben", "Ann", "Ann"]
    assert status()["next_dealer"] == "Ben"
    assert "the deal alternates" in ok("status").stdout


def test_h6_alternate_in_hollywood_and_oklahoma(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ben", "--deal", "alternate")
    ok("hand", "ann", "2", "9")
    ok("hand", "ann", "2", "9")
    assert dealers(ok) == ["Ben", "Ann"] and status()["next_dealer"] == "Ben"
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ben", "--deal", "loser")
    ok("hand", "ann", "2", "9", "--upcard", "5h")
    assert status()["next_dealer"] == "Ben"


def test_h6_three_player_is_always_r22(ok, refused, status):
    refused("new", "three", "Ann", "Ben", "Cy", "--deal", "loser", says="the box deals every hand (R22)")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--deal", "winner")
    refused("house", "--deal", "alternate", says="R22")
    assert "the box deals every hand" in ok("house").stdout


def test_h7_standard_worked_example(ok, status):
    # Ben knocks 1 against 50: Ben 49. Ann goes gin against 87: Ann 87 + 25 = 112.
    # Ann wins 112 to 49 at 0.01 a point: Ben pays Ann (112 - 49) x 0.01 = 0.63.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01")
    ok("hand", "ben", "1", "50")
    assert "settlement" not in status()  # not over yet
    out = ok("hand", "ann", "0", "87").stdout
    assert "Ben pays Ann 0.63" in out
    doc = status()
    assert doc["final"] == {"Ann": 112, "Ben": 49}
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "0.63"}]
    said = " ".join(ok("status").stdout.split())  # one game: never "the three games netted"
    assert "Ben pays Ann 0.63 (the difference of the final scores at 0.01 a point, H7)." in said, said


def test_h7_no_stake_no_settlement(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10")
    ok("hand", "ann", "0", "0")
    doc = status()
    assert doc["over"] is True and "settlement" not in doc and doc["rules"]["stake"] == "0"
    assert "pays" not in ok("status").stdout


def test_h7_box_bonus_can_make_the_winner_pay(ok, status):
    # Box bonus 25 a hand won (H3). Ben wins six hands by 1 (knocks 1 against 2):
    # 6 points + 6 x 25 = 156. Ann goes gin against 75 once: 100 points, reaching
    # the target: Ann wins the game with 100 + 25 = 125. Ben's final is higher,
    # so the winner pays: Ann pays Ben (156 - 125) x 0.01 = 0.31.
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--box-bonus", "25", "--stake", "0.01")
    for _ in range(6):
        ok("hand", "ben", "1", "2")
    ok("hand", "ann", "0", "75")
    doc = status()
    assert doc["winner"] == "Ann" and doc["final"] == {"Ann": 125, "Ben": 156}
    assert doc["settlement"] == [{"from": "Ann", "to": "Ben", "amount": "0.31"}]
    assert "Ann pays Ben 0.31" in ok("status").stdout


def test_h7_three_player_each_loser_settles_with_the_winner(ok, status):
    # Ann (box) goes gin against Ben (captain) with 80: 105, game over.
    # Ben 0 and Cy 0: each pays Ann 105 x 2 = 210.
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--stake", "2")
    ok("hand", "ann", "0", "80")
    assert status()["settlement"] == [
        {"from": "Ben", "to": "Ann", "amount": "210.00"},
        {"from": "Cy", "to": "Ann", "amount": "210.00"},
    ]


def _hollywood_series(ok, stake: str, ben_third: tuple[str, str]) -> None:
    """Target 10. Ann wins 10 (game 1, 10-0). Ben wins 12: his first win goes to game 2
    only (R18), which he wins 12-0. Ben's next win (``ben_third``) goes to game 3.
    Ann wins 10 in game 3 and the series is over (R19)."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", stake)
    ok("hand", "ann", "1", "11")
    ok("hand", "ben", "1", "13")
    ok("hand", "ben", *ben_third)
    ok("hand", "ann", "1", "11")


def test_h7_hollywood_nets_the_three_games(ok, status):
    # Game 1: Ann 10 - Ben 0, Ben owes 10. Game 2: Ben 12 - Ann 0, Ann owes 12.
    # Game 3: Ann 10 - Ben 5, Ben owes 5. Netted: Ben pays Ann 10 - 12 + 5 = 3 points,
    # at 0.25 a point 0.75: one payment for the pair.
    _hollywood_series(ok, "0.25", ("2", "7"))  # Ben wins 5
    doc = status()
    assert [g["final"] for g in doc["games"]] == [{"Ann": 10, "Ben": 0}, {"Ann": 0, "Ben": 12}, {"Ann": 10, "Ben": 5}]
    assert doc["over"] is True
    assert doc["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "0.75"}]
    assert "Ben pays Ann 0.75 (the three games netted" in ok("status").stdout


def test_h7_hollywood_games_that_cancel_out_owe_nothing(ok, status):
    # Game 1: Ben owes 10. Game 2: Ann owes 12. Game 3: Ann 10 - Ben 8, Ben owes 2.
    # 10 - 12 + 2 = 0: nobody pays.
    _hollywood_series(ok, "1", ("2", "10"))  # Ben wins 8
    doc = status()
    assert doc["over"] is True and doc["settlement"] == []
    assert "nobody pays" in ok("status").stdout


def test_h7_hollywood_games_that_cancel_out_say_it_is_the_three_games_netted(ok):
    """Nobody pays because the three games net to nothing (H7), which is what the line must say: a series
    has no one final score to be level."""
    _hollywood_series(ok, "1", ("2", "10"))
    said = " ".join(ok("status").stdout.split())
    assert "At 1 a point nobody pays: the three games netted come out even (H7)." in said, said


def test_h7_h8_a_game_over_before_a_stake_changes_settles_at_the_stake_it_ended_under(ok, status):
    """A stake changed from the next hand on (H8) leaves a game already over as it was, its stake as its
    bonus: game 1 (Ann 35 + 10) at 1 a point, games 2 and 3 (Ben 35 + 100 each) at 2 (H7)."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "1", "--game-bonus", "10")
    ok("hand", "ann", "0", "10")  # gin, 35: game 1 over
    ok("house", "--stake", "2", "--game-bonus", "100", "--from-next")
    ok("hand", "ben", "0", "10")
    ok("hand", "ben", "0", "10")  # games 2 and 3: the series is over
    assert status()["settlement"] == [{"from": "Ann", "to": "Ben", "amount": "495.00"}]  # 2 x 270 - 45
    finals = ok("export", "--format", "json").json()["finals"]
    assert [(row["game"], row["player"], row["stake_net"]) for row in finals][:3] == [
        (1, "Ann", "45.00"), (1, "Ben", "-45.00"), (2, "Ann", "-270.00")]
    assert "Ann pays Ben 495.00 (the three games netted, each game at its own stake, H7)." in " ".join(
        ok("status").stdout.split())


def test_h7_level_finals_owe_nothing_and_say_so(ok, status):
    """Ben's two hands won at 0 points (R13) earn him box bonuses equal to Ann's final (H3): level finals."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--box-bonus", "10", "--gin-bonus", "0",
       "--undercut-bonus", "0", "--stake", "1")
    ok("hand", "ann", "3", "3")  # Ben undercuts: 0 points, his hand (R10, R13)
    ok("hand", "ann", "3", "3")
    ok("hand", "ann", "0", "10")  # Ann's gin: 10, the game; finals Ann 10 + 10, Ben 0 + 20
    assert status()["settlement"] == []
    assert "At 1 a point nobody pays: the final scores are level (H7)." in ok("status").stdout


def test_h7_hollywood_settles_only_once_the_series_is_over(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", "1")
    ok("hand", "ann", "1", "11")  # game 1
    ok("hand", "ann", "1", "11")  # games 2 (and 3)
    doc = status()
    assert doc["winner"] == "Ann" and doc["over"] is False and "settlement" not in doc


@pytest.mark.parametrize("typed", ["-1", "abc", "1e-2", "nan", "Infinity", "0.00001", "1,5", "", "+1", "2000000"])
def test_h7_stake_that_is_not_an_amount_is_refused(ok, refused, typed):
    refused("new", "standard", "Ann", "Ben", "--stake", typed, says="stake")
    ok("new", "standard", "Ann", "Ben")
    refused("house", "--stake", typed, says="stake")


def test_h7_money_is_written_with_the_decimals_it_needs_and_two_at_least(ok, status):
    """0.0625 a point times 10 is 0.625 (docs/guide.md), not 0.6250; times 16 is 1.00."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", "0.0625")
    ok("hand", "ann", "2", "12")  # Ann 10: the game, Ben owes 10 points
    assert status()["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "0.625"}]
    assert "Ben pays Ann 0.625 (" in ok("status").stdout
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "10", "--stake", "0.0625")
    ok("hand", "ann", "2", "18")  # 16 points
    assert status()["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "1.00"}]


def test_h7_stake_is_kept_as_exact_text_never_a_float(ok, db_path, status):
    ok("new", "standard", "Ann", "Ben", "--stake", "0.10")
    stored = stored_sessions(db_path)["1"]["rules"]["stake"]
    assert stored == "0.1" and status()["rules"]["stake"] == "0.1"


def test_h7_h8_a_match_settles_a_game_played_for_a_stake_later_set_to_nothing(ok, status):
    """Game 1 of the series was played at 0.01 a point; from hand 2 the stake is 0 (H8). The match still
    settles game 1 at its own stake (H7): Ben pays Ann 1.00."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--stake", "0.01")
    ok("hand", "ann", "0", "75")
    ok("house", "--stake", "0", "--from-next")
    ok("hand", "ann", "0", "75")
    ok("hand", "ann", "0", "75")
    ok("rematch", "--yes")
    assert status()["match"]["settlement"] == [{"from": "Ben", "to": "Ann", "amount": "1.00"}]


def test_h7_h8_hollywood_games_at_their_own_stakes_that_cancel_out_say_nobody_pays(ok, status):
    """Game 1 won by 35 at 1 a point, games 2 and 3 lost by 35 each at 0.5 from hand 2 on (H8): the series
    nets to nothing, and the standings must say so rather than fall silent about the stake (H7)."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "30", "--stake", "1")
    ok("hand", "ann", "0", "10")
    ok("house", "--stake", "0.5", "--from-next")
    ok("hand", "ben", "0", "10")
    said = " ".join(ok("hand", "ben", "0", "10").stdout.split())
    assert status()["settlement"] == []
    assert "Nobody pays: the three games netted, each game at its own stake, come out even (H7)." in said, said
