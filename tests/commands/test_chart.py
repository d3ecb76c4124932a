"""`ginscore chart`: the running totals drawn as a chart."""

from __future__ import annotations


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


def test_same_initials_take_another_letter_of_the_name_never_a_digit(ok, monkeypatch):
    """A digit among the hand numbers and points reads as one: "Winner 2" looked like 2 points."""
    ok("new", "standard", "Ann", "Anna", "--dealer", "Ann")
    ok("hand", "anna", "1", "30")
    assert "A Ann  N Anna" in ok("chart").stdout
    ok("new", "three", "Ann", "Al", "Ben", "--box", "ann", "--captain", "ben")
    ok("hand", "ben", "2", "10")  # Ben captains against Ann in the box; Al sits out (R21)
    monkeypatch.setenv("COLUMNS", "40")
    log = ok("log").stdout
    assert "A Ann  L Al  B Ben" in log and "L sat out" in log
    ok("new", "standard", "Mary Ann", "Mary Beth", "--dealer", "mary a")
    ok("hand", "mary b", "2", "30")
    assert "M Mary Ann  B Mary Beth" in ok("chart").stdout  # the initial of another word first
