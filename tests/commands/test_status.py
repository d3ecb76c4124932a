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


def test_a_won_by_row_names_each_won_games_winner_and_leaves_an_open_game_blank_r19(ok):
    """Hollywood: no "Won by" row while no game is won; then the winner under the game won, nothing
    under the games still open. A two-player game won has no such row: its winner is said below."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    assert "Won by" not in ok("status").stdout
    ok("hand", "ann", "0", "30")  # game 1 won, at its first hand
    rows = [line.split() for line in ok("status").stdout.splitlines()]
    assert ["Won", "by", "Ann"] in rows, rows
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy", "--target", "50")
    ok("hand", "cy", "0", "30")  # the game won
    out = ok("status").stdout
    assert "Won by" not in out and "Cy wins the game with 55 (Di 0)." in out, out


def test_a_two_player_sessions_json_has_no_roles_key_as_documented(ok, status):
    """docs/commands.md: "roles" is three-player only: a script reading a two-player session's
    status, dealer or log finds no "roles" key, not a null one."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    assert "roles" not in status()
    assert ok("dealer", "--json").json() == {"session": "standard-1", "next_dealer": "Ann", "over": False}
    assert "roles" not in ok("log", "--json").json()["hands"][0]


def test_dealer_json_of_a_three_player_game_over_gives_null_roles_r24(ok):
    """docs/commands.md: three-player `dealer --json` has "roles" for the next hand, null once the game
    is over; a script asking after the last hand gets that, not a traceback."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", "--target", "10")
    ok("hand", "ann", "0", "20")
    assert ok("dealer", "--json").json() == {"session": "three-1", "next_dealer": None, "roles": None, "over": True}


def test_a_series_won_from_the_second_seat_says_the_winners_total_first_r19(ok):
    """Ben, seated second, wins games 1 and 2 and Ann game 3: the banner gives Ben's total before
    Ann's, the winner's first as for any seat, never the seating order."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    for hand in (["ben", "0", "30"], ["ben", "0", "30"], ["ben", "2", "12"], ["ann", "0", "30"]):
        said = " ".join(ok("hand", *hand).stdout.split())
    assert "Ben wins the series, 2 games of 3 (120 to 55 over the three games)." in said, said


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


def test_three_player_status_says_each_players_role_for_the_next_hand_r22(ok):
    """The Next hand column is where the table reads who sits down where (R22, R23): each role in words,
    beside its player."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "30")  # the box won: the captain and the sitter-out swap (R23)
    rows = [line.split() for line in ok("status").stdout.splitlines()]
    assert rows[2:7] == [["Player", "Next", "hand", "Points", "Hands", "won"], ["─" * 37],
                         ["Ann", "in", "the", "box", "27", "1"], ["Ben", "sits", "out", "0", "0"],
                         ["Cy", "captain", "0", "0"]], rows


def test_a_narrow_status_keeps_each_column_under_a_short_heading(ok, monkeypatch):
    """Below the width of the long headings the standings keep every column under a short one (the role
    a word: R22), rather than losing a column or breaking a heading over two lines."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "30")
    monkeypatch.setenv("COLUMNS", "30")
    rows = [line.split() for line in ok("status").stdout.splitlines()]
    at = rows.index(["Player", "Next", "Pts", "Won"])
    assert rows[at + 2:at + 5] == [["Ann", "box", "27", "1"], ["Ben", "out", "0", "0"],
                                   ["Cy", "captain", "0", "0"]], rows


def test_a_narrow_status_of_a_game_won_keeps_its_final_under_a_short_heading_h3(ok, monkeypatch):
    """The final with its bonuses (H3) is what the game is settled on; at 30 columns it keeps its column."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--target", "20")
    ok("hand", "ann", "0", "25")
    monkeypatch.setenv("COLUMNS", "30")
    rows = [line.split() for line in ok("status").stdout.splitlines()]
    at = rows.index(["Player", "Pts", "Won", "Final"])
    assert rows[at + 2:at + 4] == [["Ann", "50", "1", "150"], ["Ben", "0", "0", "0"]], rows


def test_a_narrow_hollywood_status_keeps_the_hands_won_and_final_rows_h3(ok, monkeypatch):
    """At 40 columns Hollywood's standings turn round, a row a game; the hands won and the finals with
    their bonuses (H3) keep a row each, under their names."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100", "--target", "50")
    for _ in range(3):
        ok("hand", "ann", "0", "25")
    monkeypatch.setenv("COLUMNS", "40")
    rows = [line.split() for line in ok("status").stdout.splitlines()]
    at = rows.index(["Ann", "Ben"])
    assert rows[at + 2:at + 7] == [["Game", "1", "50", "(won)", "0"], ["Game", "2", "50", "(won)", "0"],
                                   ["Game", "3", "50", "(won)", "0"], ["Hands", "won", "3", "0"],
                                   ["Final", "(H3)", "450", "0"]], rows


def test_status_names_the_variant_in_its_heading(ok):
    """The heading is where the table sees which game it is playing, so which rules count the hands."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "a")
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--name", "b")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--name", "c")
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--name", "d")
    headings = [ok("status", "--session", name).stdout.splitlines()[0] for name in "abcd"]
    assert headings == ["a · Standard · Ann v Ben", "b · Oklahoma · Ann v Ben", "c · Hollywood · Ann v Ben",
                        "d · Three-player · Ann v Ben v Cy"], headings


def test_dealer_of_a_game_over_says_nobody_deals_and_how_the_next_game_starts(ok):
    """Once the game is won nobody deals it again; the answer says so and how to start the next game."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    said = " ".join(ok("dealer").stdout.split())
    assert said == ("'standard-1' is over, so nobody deals; `ginscore rematch` starts the next one, Ann dealing "
                    "first (H6)."), said  # the winner deals the next game, as the next hand (H6)


def test_a_hollywood_series_is_called_won_only_once_a_player_has_two_games_r19(ok):
    """R19: two games of three win the series. Before that the status names no winner; from then until game
    3 ends it says who has won and that game 3 is still played out."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "75")  # game 1
    assert "series" not in ok("status").stdout
    ok("hand", "ann", "0", "75")  # game 2
    said = " ".join(ok("status").stdout.split())
    assert "Ann has won the series (2 games); game 3 is still being played out." in said, said


def test_a_three_player_game_won_gives_each_other_players_score_r24(ok):
    """R24: scores are individual, so the banner of a three-player game gives both the others' scores."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben", "--target", "30")
    ok("hand", "ben", "2", "10")  # Ben beats the box: 8; Ben to the box, Cy captains (R23)
    ok("hand", "cy", "3", "10")  # Cy beats the box: 7; Cy to the box, Ann captains
    ok("hand", "ann", "0", "10")  # Ann's gin: 35, the game
    assert "Ann wins the game with 35 (Ben 8, Cy 7)." in ok("status").stdout.splitlines()


def test_a_game_won_with_no_bonus_shows_no_final_column_h3(ok):
    """With no bonus (H3) the final is the points: a Final column would only repeat them."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "20")
    ok("hand", "ann", "0", "10")
    assert "Player  Points  Hands won" in ok("status").stdout.splitlines()


def test_a_game_won_with_a_bonus_shows_its_final_once_and_the_winner_in_bold_h3(ok, monkeypatch):
    """At full width the finals with their bonuses (H3) have their own column under "Final (H3)", said
    nowhere else (a line of each game's bonuses is Hollywood's); on a colour terminal the winner's name
    alone is bold."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--game-bonus", "100")
    ok("hand", "ann", "0", "90")
    monkeypatch.setenv("COLUMNS", "80")
    out = ok("status").stdout
    rows = [line.split() for line in out.splitlines()]
    at = rows.index(["Player", "Points", "Hands", "won", "Final", "(H3)"])
    assert rows[at + 2:at + 4] == [["Ann", "115", "1", "215"], ["Ben", "0", "0", "0"]], rows
    assert "with its bonuses" not in out
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    out = ok("status").stdout
    assert "\x1b[1mAnn" in out and "\x1b[1mBen" not in out, out


def test_the_standings_say_from_which_hand_their_house_rules_hold_h8(ok):
    """After `house --gin-bonus 20 --from-next`, status said "gin bonus 20" and nothing of hand 1, scored
    at 25: the heading says from which hand the rules it shows hold, as the log says where they changed."""
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    ok("hand", "cy", "0", "20")
    assert ok("status").stdout.splitlines()[1].startswith("House rules: target 100; gin bonus 25")
    ok("house", "--gin-bonus", "20", "--from-next")
    for shown in (ok("status").stdout, ok("hand", "cy", "0", "20").stdout, ok("watch", "--once").stdout):
        assert "House rules from hand 2: target 100; gin bonus 20" in shown, shown
    ok("house", "--gin-bonus", "30", "--from-start")  # set wrong from the start: one set of rules again
    assert ok("status").stdout.splitlines()[1].startswith("House rules: target 100; gin bonus 30")
