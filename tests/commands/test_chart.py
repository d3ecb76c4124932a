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
    ok("new", "three", "Ève", "Eva", "ßen", "--box", "eve", "--captain", "eva")
    ok("hand", "eve", "2", "10")
    # one cell a letter ("ß" is "SS" in capitals), and none that differs from another only by its accent
    assert "È Ève  V Eva  N ßen" in ok("chart").stdout


def test_a_player_named_by_a_number_is_marked_by_that_number_r21(ok):
    """Al, La and 2: "2" has no letter, so the players are numbered; the player named 2 is marked 2, not 3
    beside La marked 2 (the legend read "1 Al  2 La  3 2"; it goes in the players' order)."""
    ok("new", "three", "Al", "La", "2", "--box", "al", "--captain", "la")
    ok("hand", "al", "4", "22")
    out = ok("chart").stdout
    assert "1 Al  3 La  2 2" in out, out


def test_a_name_with_no_letter_left_numbers_every_player_in_the_legend(ok):
    """Ann and Aa: every letter of "Aa" is Ann's A, so the players are numbered 1, 2, each mark in the legend."""
    ok("new", "standard", "Ann", "Aa", "--dealer", "ann")
    ok("hand", "ann", "3", "20")
    ok("hand", "aa", "3", "20")
    out = ok("chart").stdout
    assert "1 Ann  2 Aa" in out and "A Ann" not in out
    assert any("1" in line.split("|", 1)[-1] and "*" in line for line in out.splitlines() if "|" in line), out


def _alternating_chart(ok, monkeypatch, rounds: int, target: str, columns: str) -> tuple[list[str], int]:
    """The chart of ``rounds`` of Ann then Ben knocking for 8 each, at ``columns``: its lines, and which is the axis."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", target)
    for _ in range(rounds):
        ok("hand", "ann", "2", "10")
        ok("hand", "ben", "2", "10")
    monkeypatch.setenv("COLUMNS", columns)
    lines = ok("chart").stdout.splitlines()
    return lines, next(n for n, line in enumerate(lines) if line.lstrip().startswith("+"))


def test_a_long_session_draws_a_narrower_column_a_hand_to_fit_the_screen(ok, monkeypatch):
    """30 hands at 80 columns: three characters a hand would not fit, so each takes two, every line whole."""
    lines, axis = _alternating_chart(ok, monkeypatch, 15, "500", "80")
    assert max(len(line) for line in lines) <= 80
    assert lines[axis].count("-") == 30 * 2 and lines[axis + 1].split() == ["1", "30"]


def test_a_chart_past_the_target_labels_the_top_the_target_half_of_it_and_zero(ok):
    """Ann 35 then 90, over the target 40 (H5): the y axis reads 90, 40 on the dashed line, 20 and 0."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "40")
    ok("hand", "ann", "0", "10")
    ok("hand", "ann", "0", "30")
    rows = [line.split("|") for line in ok("chart").stdout.splitlines() if "|" in line]
    labelled = {label.strip(): row for label, row in rows if label.strip()}
    assert list(labelled) == ["90", "40", "20", "0"]
    assert set(labelled["40"].strip()) == {"-", " "}  # the target's row is the dashed one


def test_a_score_just_over_the_target_has_its_own_labelled_row_above_it_r14(ok):
    """Won with 105 of 100: the top row was labelled 100 (the target's label over the top score's) with the
    winner's letter on it, as if the game ended at 100. Every other screen says 105."""
    ok("new", "standard", "Cy", "Dee", "--dealer", "cy")
    ok("hand", "cy", "0", "40")  # 65
    ok("hand", "cy", "0", "15")  # 40: 105, the game won (R14)
    lines = ok("chart").stdout.splitlines()[2:4]
    assert lines == ["105 |    C", "100 |- - -"], lines


def test_a_session_of_more_hands_than_columns_still_draws_its_last_hand(ok, monkeypatch):
    """62 hands in at most 60 columns: every other hand is drawn, and the last one always, numbered 62."""
    lines, axis = _alternating_chart(ok, monkeypatch, 31, "1000", "120")
    assert lines[axis + 1].split() == ["1", "62"]
    last = len(lines[axis]) - 1  # (a column a hand here: one character each)
    assert any(len(row) > last and row[last] in "AB*" for row in lines[:axis])  # the last hand is drawn


def test_each_game_is_drawn_to_the_target_it_was_played_to_h5_h8(ok, monkeypatch):
    """Hollywood to 50: Ann wins game 1 with 55, then the target goes to 100 from the next hand. Game 1
    was drawn against 100, its winner far under the line as if it were not won; each game now has the
    target it was won under (game 1: 50), an open one the target in force (100)."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann", "--target", "50")
    ok("hand", "ann", "0", "30")  # gin: 30 + 25 = 55, game 1 won (R17)
    ok("hand", "ben", "2", "20")
    ok("house", "--target", "100", "--from-next")
    ok("hand", "ann", "1", "11")
    monkeypatch.setenv("COLUMNS", "40")  # the games one under another
    out = ok("chart").stdout
    game_1 = out.split("Game 1 (won by Ann)\n")[1].split("\n\n")[0].splitlines()
    target_row = next(n for n, line in enumerate(game_1) if "|- - -" in line)  # the dashed line
    assert game_1[target_row].split("|")[0].strip() == "50", out
    assert any("A" in line.split("|")[1] for line in game_1[:target_row + 1]), out  # on or over its target
    game_2 = out.split("Game 2\n")[1].split("\n\n")[0].splitlines()
    assert game_2[0].split("|")[0].strip() == "100" and "|- - -" in game_2[0], out
    assert "- - each game's target" in out
    ok("new", "standard", "Cy", "Di", "--dealer", "cy")
    ok("hand", "cy", "4", "22")
    assert "- - target 100 " in ok("chart").stdout  # one target: said as before


def test_the_target_is_drawn_as_a_dashed_row_and_a_player_reaching_it_by_their_letter(ok):
    """The dashes are the finishing line (H5): a mark on them has won, so it must be the player's letter,
    not the "*" of several players, which would hide who."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")  # 55
    ok("hand", "ann", "0", "20")  # 100: the target
    lines = ok("chart").stdout.splitlines()
    assert lines[2] == "100 |- - A" and lines[-1] == "* several   - - target 100   hands left to right", lines


def test_a_chart_of_no_hands_says_there_is_nothing_to_draw(ok):
    """A chart of no hands would be an empty frame; the heading is followed by why nothing is drawn."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert ok("chart").stdout.splitlines()[2:] == ["No hands yet, so nothing to draw."]


def test_hollywood_charts_one_under_another_are_kept_apart_by_a_blank_line(ok, monkeypatch):
    """At 40 columns Hollywood's three charts stand one under another; without a blank line between them a
    game's title reads as a row of the chart above."""
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "ann")
    for _ in range(3):
        ok("hand", "ann", "0", "30")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("chart").stdout.splitlines()
    titles = [n for n, line in enumerate(lines) if line.startswith("Game ")]
    assert [lines[n] for n in titles] == ["Game 1 (won by Ann)", "Game 2 (won by Ann)", "Game 3"], lines
    assert [lines[n - 1] for n in titles[1:]] == ["", ""] and "" not in lines[:titles[0]], lines


def test_on_a_colour_terminal_each_players_mark_has_a_colour_of_its_own(ok, monkeypatch):
    """Colour is laid on top of the letters so that each player's line stands out from the others'."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "0", "30")
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    out = ok("chart").stdout
    assert "\x1b[36mA\x1b[0m" in out and "\x1b[35mB\x1b[0m" in out, out


def test_players_at_the_same_score_share_one_star_and_one_hand_is_numbered_once(ok):
    """After a drawn first hand both players stand at 0 (R12): their one cell is "*", several, not one
    letter hiding the other; and the axis of a single hand reads 1, once."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("draw")
    lines = ok("chart").stdout.splitlines()
    assert "  0 | *" in lines and lines[-4:-2] == ["    +---", "      1"], lines


def test_a_chart_heads_itself_with_the_house_rules_in_force_now_not_those_of_hand_1_h8(ok):
    """A target raised from the next hand on: the chart's heading says the target played to now, as
    status does, not the one of hand 1 (the log's heading lists the changes after it, the chart's does not)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "50")
    ok("hand", "ann", "2", "12")
    ok("house", "--target", "100", "--from-next")
    heading = ok("chart").stdout.splitlines()[1]
    assert heading.startswith("House rules: target 100;"), heading
