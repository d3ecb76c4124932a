"""After the game: stats, history, chart and the guided play loop."""

from __future__ import annotations

import pytest


@pytest.fixture
def season(ok):
    """A small hand-made history: two standard games and a three-player one."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "one")
    ok("hand", "ann", "0", "20")  # Ann gin 45
    ok("hand", "ben", "6", "4")  # Ben undercut by Ann: 2 + 10 = 12 -> Ann 57, wins
    ok("new", "standard", "ann", "Ben", "--dealer", "Ben", "--target", "50", "--name", "two")
    ok("hand", "ben", "3", "13")  # Ben knock 10
    ok("draw")
    ok("hand", "ann", "8", "10")  # Ann knock 2
    ok("hand", "ben", "0", "30")  # Ben gin 55 -> Ben 65, wins
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Cy", "--captain", "Ann", "--target", "500", "--name", "trio")
    ok("hand", "cy", "2", "12")  # box Cy beats captain Ann: 10; Ben captains next
    ok("hand", "ben", "9", "9")  # Ben knocks, Cy undercuts: 10


def test_stats_per_player_pinned_on_a_small_history(season, ok):
    doc = ok("stats", "--json").json()
    assert set(doc["players"]) == {"Ann", "Ben", "Cy"}  # 'ann' in session two is Ann: case is ignored
    ann, ben, cy = (doc["players"][n] for n in ("Ann", "Ben", "Cy"))
    assert (ann["sessions"], ann["sessions_won"], ann["hands"], ann["hands_won"]) == (3, 1, 7, 3)
    assert (ann["gins"], ann["knocks_won"], ann["undercuts_scored"], ann["undercuts_suffered"]) == (1, 1, 1, 0)
    assert ann["points"] == 45 + 12 + 2 and ann["points_per_hand"] == round(59 / 7, 2)
    assert ann["avg_deadwood_knocking"] == 4.0  # 0 and 8
    assert ann["avg_deadwood_caught"] == round((4 + 13 + 30 + 12) / 4, 2)  # Ben knocked three times, Cy once
    assert ann["longest_run"] == 2  # gin, then the undercut
    assert (ben["sessions"], ben["sessions_won"], ben["hands"], ben["hands_won"]) == (3, 1, 7, 2)
    assert (ben["gins"], ben["knocks_won"], ben["undercuts_suffered"]) == (1, 1, 2)
    assert ben["longest_run"] == 1 and ben["points"] == 65
    assert (cy["hands"], cy["hands_won"], cy["undercuts_scored"], cy["knocks_won"]) == (2, 2, 1, 1)
    assert cy["longest_run"] == 2
    assert {"sessions", "sessions_won", "hands", "hands_won", "gins", "undercuts_scored",
            "undercuts_suffered"} <= set(ann)


def test_stats_for_people_show_every_average_with_two_decimals(season, ok):
    """Ann's average deadwood knocking is 4.0 in the JSON: people read 4.00 beside 14.75, one
    column of numbers with as many decimals each."""
    out = ok("stats").stdout
    ann = next(line for line in out.splitlines() if line.startswith("Ann") and "4.00" in line)
    assert "14.75" in ann and "8.43" in ann and " 4.0 " not in f"{ann} "


def test_stats_head_to_head(season, ok):
    pairs = {tuple(h["players"]): h for h in ok("stats", "--json").json()["head_to_head"]}
    assert pairs[("Ann", "Ben")] == {"players": ["Ann", "Ben"], "sessions": 3, "wins": {"Ann": 1, "Ben": 1}}
    assert pairs[("Ann", "Cy")]["sessions"] == 1 and pairs[("Ben", "Cy")]["sessions"] == 1


def test_a_session_with_no_hand_yet_is_no_session_played(season, ok, refused):
    """A rematch just started, or a game nobody played, counts in no "sessions" and meets nobody."""
    before = ok("stats", "--json").json()
    ok("rematch", "--session", "one")  # Ann v Ben, no hand yet
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("new", "three", "Ann", "Ben", "Dee", "--box", "dee", "--captain", "ann")  # Dee has played no hand anywhere
    assert ok("stats", "--json").json() == before
    assert "Ann v Ben         3  1 - 1" in ok("stats").stdout
    refused("stats", "dee", says="nobody named 'dee' has played")
    ok("draw")  # a drawn hand is a hand played: Dee's first session, and the trio's meeting
    doc = ok("stats", "--json").json()
    assert doc["players"]["Dee"]["sessions"] == 1 and doc["players"]["Ann"]["sessions"] == 4
    pairs = {tuple(h["players"]): h["sessions"] for h in doc["head_to_head"]}
    assert pairs[("Ann", "Ben")] == 4 and pairs[("Ann", "Dee")] == 1


def test_stats_filters_and_one_player(season, ok, refused):
    doc = ok("stats", "--json", "--variant", "three").json()
    assert doc["players"]["Cy"]["sessions"] == 1 and doc["players"]["Ann"]["hands"] == 1
    doc = ok("stats", "cy", "--json").json()
    assert list(doc["players"]) == ["Cy"] and all("Cy" in h["players"] for h in doc["head_to_head"])
    doc = ok("stats", "--json", "--player", "cy").json()
    assert doc["players"]["Ben"]["sessions"] == 1
    assert ok("stats", "--json", "--since", "2999-01-01").json() == {"players": {}, "head_to_head": []}
    refused("stats", "--since", "yesterday", says="--since")
    refused("stats", "--player", "zed", says="nobody named 'zed'")
    refused("stats", "zed", says="nobody named 'zed' has played; the players are")
    out = ok("stats").stdout
    assert "Head to head" in out and "Ann v Ben" in out


def test_stats_follow_an_edit(season, ok):
    ok("edit", "1", "cy", "2", "12", "--session", "trio")
    before = ok("stats", "--json").json()["players"]["Cy"]["points"]
    ok("edit", "1", "ann", "2", "12", "--session", "trio")
    after = ok("stats", "--json").json()["players"]
    assert before == 20 and after["Cy"]["points"] == 0 and after["Ann"]["knocks_won"] == 2


def test_history_newest_first_with_winner_and_score(season, ok):
    rows = ok("history", "--json").json()
    assert [r["name"] for r in rows] == ["trio", "two", "one"]
    assert rows[2]["winner"] == "Ann" and rows[2]["final"] == {"Ann": 57, "Ben": 0} and rows[2]["over"]
    assert rows[0]["winner"] is None and rows[0]["score"] == {"Ann": 0, "Ben": 0, "Cy": 20}
    assert [r["name"] for r in ok("history", "--json", "--variant", "standard").json()] == ["two", "one"]
    assert [r["name"] for r in ok("history", "--json", "--player", "CY").json()] == ["trio"]
    out = ok("history").stdout
    assert out.index("trio") < out.index("one") and "(so far)" in out


def test_chart_draws_players_and_target(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "40")
    ok("hand", "ann", "0", "10")
    ok("hand", "ben", "2", "12")
    out = ok("chart").stdout
    assert "A Ann" in out and "B Ben" in out and "target 40" in out
    lines = out.splitlines()
    target_line = next(line for line in lines if line.strip().startswith("40 |"))
    assert "-" in target_line
    assert any("A" in line.split("|", 1)[-1] for line in lines if "|" in line)


def test_chart_hollywood_three_games_side_by_side(ok):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    for _ in range(3):
        ok("hand", "ann", "1", "30")
    out = ok("chart").stdout
    header = next(line for line in out.splitlines() if "Game 1" in line)
    assert "Game 2" in header and "Game 3" in header


def test_chart_same_initials_use_numbers(ok):
    ok("new", "standard", "Ann", "Anna", "--dealer", "Ann")
    ok("hand", "anna", "1", "30")
    assert "1 Ann  2 Anna" in ok("chart").stdout


def test_play_guided_loop_saves_each_hand_and_asks_again(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    script = "\n".join([
        "zed", "ann",  # unknown name, asked again
        "12", "-1", "-0", "4",  # over the limit, negative, a minus sign (not a gin), then 4
        "x", "22",  # not a number, then 22
        "y",  # record it
        ":draw", "y",
        "ben", "0", "10", "n",  # not confirmed: not recorded
        ":quit",
    ]) + "\n"
    out = ok("play", input=script).stdout
    assert "\\x0a" not in out and "\n  :back " in out  # the help is lines, not one escaped string
    assert "no player 'zed'" in out and "knock limit of 10" in out and "negative" in out and "minus sign" in out
    assert "not a number" in out and "Saved hand 1" in out and "Saved hand 2" in out
    assert "Not recorded" in out and "Every hand you confirmed is saved" in out
    doc = status()
    assert doc["hands_played"] == 2 and doc["totals"] == {"Ann": 18, "Ben": 0}


def test_play_oklahoma_three_player_and_end_of_input(ok, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--target", "20", "--name", "okla")
    out = ok("play", input="6h\nann\n7\n6\n30\ny\n").stdout  # 7 is over the six's limit (R15)
    assert "knock limit of 6" in out and "wins the game" in out
    assert status()["winner"] == "Ann"
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    out = ok("play", input="cy\nben\n3\n20\ny\n").stdout  # Cy sits out (R22); then input ends
    assert "Cy sits out" in out and "Every hand you confirmed is saved" in out
    assert status()["roles"] == {"box": "Ben", "captain": "Cy", "out": "Ann"}


def test_r6_first_turn_is_play_detail_nothing_asked_nothing_scored(ok):
    out = ok("rules", "standard").stdout
    assert "R6" in out and "nothing to score" in out
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    asked = ok("play", input=":quit\n").stdout
    assert "Upcard" not in asked and "first turn" not in asked.lower()  # only Oklahoma asks for the upcard


def test_stats_big_gins_and_hollywood_series_and_games(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    ok("hand", "ann", "0", "10", "--big-gin")
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0", "75")  # game 1 (100)
    ok("hand", "ben", "0", "75")  # Ben, shut out of game 1: game 2 (100)
    ok("hand", "ann", "0", "75")  # game 3: Ann wins the series two games to one
    doc = ok("stats", "--json").json()["players"]
    assert doc["Ann"]["big_gins"] == 1 and doc["Ann"]["gins"] == 2 and doc["Ben"]["big_gins"] == 0
    assert doc["Ann"]["hollywood_games_won"] == 2 and doc["Ben"]["hollywood_games_won"] == 1
    assert doc["Ann"]["sessions_won"] == 1 and doc["Ben"]["sessions_won"] == 0  # the series (R19)
    assert doc["Ann"]["points"] == 41 + 100 + 100 and doc["Ann"]["longest_run"] == 2
