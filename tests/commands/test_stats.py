"""`ginscore stats`: per player and head to head."""

from __future__ import annotations

import unicodedata

import pytest

from tests.support import in_two_time_zones, NFC, NFD


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


def test_player_filters_take_a_unique_prefix_as_every_name_does(ok, refused):
    """`history --player` and `stats --player` find a player by a unique prefix, accents and case
    ignored, as `stats NAME`, `ratings --player` and every session command do (docs/commands.md)."""
    ok("new", "oklahoma", "Mary Jane", "José Álvarez", "--dealer", "mary")
    ok("hand", "mary", "5", "30", "--upcard", "6h")
    ok("new", "standard", "Mark", "Ann", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    assert [r["players"] for r in ok("history", "--json", "--player", "jose").json()] == [["Mary Jane", "José Álvarez"]]
    assert list(ok("stats", "--json", "--player", "mary").json()["players"]) == ["Mary Jane", "José Álvarez"]
    assert list(ok("stats", "--json", "--player", "mark").json()["players"]) == ["Mark", "Ann"]
    refused("history", "--player", "ma", says="'ma' could be Mark or Mary Jane; type more of the name")
    refused("stats", "--player", "zed", says="nobody named 'zed' has played; the players are Ann, José Álvarez, Mark")


def test_stats_follow_an_edit(season, ok):
    ok("edit", "1", "cy", "2", "12", "--session", "trio")
    before = ok("stats", "--json").json()["players"]["Cy"]["points"]
    ok("edit", "1", "ann", "2", "12", "--session", "trio")
    after = ok("stats", "--json").json()["players"]
    # hand 2 keeps the roles it was played with (H8): Cy in the box undercut Ben there
    assert before == 20 and after["Cy"]["points"] == 10 and after["Ann"]["knocks_won"] == 2


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


def test_stats_count_one_player_across_spellings(ok):
    ok("new", "standard", NFC, "Ann", "--dealer", "ann", "--target", "10")
    ok("hand", "jose", "3", "20")
    ok("new", "standard", NFD, "ANN", "--dealer", "ann", "--target", "10")
    ok("hand", "ann", "3", "20")
    doc = ok("stats", "--json").json()
    assert len(doc["players"]) == 2
    (jose,) = [r for name, r in doc["players"].items() if unicodedata.normalize("NFC", name) == NFC]
    assert jose["sessions"] == 2 and jose["sessions_won"] == 1
    assert doc["head_to_head"][0]["sessions"] == 2
    assert ok("stats", "jose", "--json").json()["players"].keys() == {NFD}  # the latest spelling
    assert len(ok("history", "--player", "JOSE", "--json").json()) == 2


def test_stats_for_a_name_nobody_played_under_speaks_of_every_session(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy")
    ok("draw")  # (a session with no hand is no session played)
    message = refused("stats", "zed", says="nobody named 'zed' has played; the players are")
    assert "in this session" not in message and all(n in message for n in ("Ann", "Ben", "Cy", "Dee"))
    refused("stats", "cy", "--variant", "oklahoma", says="sessions that match")
    refused("stats", "zed", "--player", "ann", says="nobody named 'zed' has played in the sessions chosen")
    assert list(ok("stats", "a", "--json").json()["players"]) == ["Ann"]


def test_runs_and_spellings_follow_the_order_sessions_started_whatever_the_offset(ok, clock):
    """Sessions recorded under two UTC offsets (another time zone, the clocks going back) are taken in
    the order they started: the run of wins and the spelling shown are those of that order."""
    in_two_time_zones(ok, clock, [["new", "standard", "ANN", "Ben", "--dealer", "ben"], ["hand", "ann", "0", "10"]],
                      [["new", "standard", "Ann", "Ben", "--dealer", "ben"], ["hand", "ben", "0", "10"],
                       ["hand", "ann", "0", "10"]])
    players = ok("stats", "--json").json()["players"]
    assert set(players) == {"Ann", "Ben"}  # spelled as in the latest session
    assert players["Ann"]["longest_run"] == 1  # won, then lost, then won: never two in a row


def test_a_run_of_wins_goes_on_through_a_session_won_hand_after_hand(ok):
    """Ann wins the last two hands of one session, every hand of the next and the first two of a third:
    her longest run is all seven, carried through the session she never lost a hand in."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    for knocker in ("ben", "ann", "ann"):
        ok("hand", knocker, "4", "10")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    for _ in range(3):
        ok("hand", "ann", "4", "10")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ben")
    for knocker in ("ann", "ann", "ben"):
        ok("hand", knocker, "4", "10")
    assert ok("stats", "--json").json()["players"]["Ann"]["longest_run"] == 7


def test_an_average_with_nothing_to_average_shows_a_dash(ok, monkeypatch):
    """Ben never knocked and Ann was never caught: their averages are "-", as --json's null, not "None"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "20")
    monkeypatch.setenv("COLUMNS", "160")
    players = ok("stats").stdout.split("\n\n")[0]  # (not the head to head under it)
    rows = {line.split()[0]: line.split()[1:] for line in players.splitlines() if line.startswith(("Ann ", "Ben "))}
    assert rows["Ann"][-4:] == ["0.00", "-", "45.00", "1"] and rows["Ben"][-4:] == ["-", "20.00", "0.00", "0"]


def test_stats_stay_one_table_on_a_screen_exactly_as_wide_as_it(ok, monkeypatch):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "20")
    monkeypatch.setenv("COLUMNS", "300")
    wide = ok("stats").stdout
    player_table = wide.split("\n\n")[0]
    monkeypatch.setenv("COLUMNS", str(max(len(line) for line in player_table.splitlines())))
    assert ok("stats").stdout == wide


@pytest.mark.parametrize(("columns", "per_table"), [("60", [5, 5, 3]), ("80", [7, 6]), ("100", [7, 6])])
def test_statistics_split_over_tables_are_shared_out_evenly(ok, monkeypatch, columns, per_table):
    """13 statistics that need two tables are shown 7 and 6, not as many as fit in the first and the few
    left over in the last; three tables 5, 5 and 3."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "20")
    monkeypatch.setenv("COLUMNS", columns)
    tables = ok("stats").stdout.split("\n\n")[:-1]  # (the head to head last)
    assert [len(next(line for line in table.splitlines() if line.startswith("Ann ")).split()) - 1
            for table in tables] == per_table


def test_an_average_is_rounded_as_a_calculator_rounds_a_half_up(ok):
    """Knocking with 1, 1, 1, 1, 1, 1, 1 and 2 is 9 / 8 = 1.125 on average: shown 1.12 (a half rounded to
    even, Python's way), where a player checking with a calculator gets 1.13."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "1000")
    for deadwood in ("1",) * 7 + ("2",):
        ok("hand", "ann", deadwood, "30")
    assert ok("stats", "--json").json()["players"]["Ann"]["avg_deadwood_knocking"] == 1.13
    assert "1.13" in ok("stats").stdout.split()
