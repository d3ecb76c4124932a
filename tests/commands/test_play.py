"""`ginscore play`: the guided loop, its questions, its commands, and changes made elsewhere meanwhile."""

from __future__ import annotations

import json
import os
import re
import signal

import pytest

from tests.support import at_most_a_gibibyte, ROOT


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


def test_play_fed_a_stream_without_line_ends_stops_as_at_the_end_of_its_input(ok, db_path):
    """`ginscore play < /dev/zero` grew to gigabytes reading one endless answer: a line past any answer's
    length is the end of the input, so play stops, saving nothing it was not told."""
    import subprocess
    import sys

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    before = db_path.read_bytes()
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run([sys.executable, "-m", "ginscore", "play"], stdin=zeros, capture_output=True,
                              text=True, timeout=60, preexec_fn=at_most_a_gibibyte)
    assert done.returncode == 0 and done.stdout.endswith("Stopped. Every hand you confirmed is saved.\n")
    assert db_path.read_bytes() == before


def test_play_started_on_a_game_under_way_shows_where_it_stands_first(ok):
    """Opened again mid-evening (a laptop restarted), play shows the scores before it asks the next hand;
    on a finished game, the final standings and the winner before it offers the rematch. A new session has
    nothing to show."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "30")
    first = ok("play", input=":quit\n").stdout
    assert "Points" not in first and "Ann deals" in first
    ok("hand", "ann", "4", "22")
    out = ok("play", input=":quit\n").stdout
    help_ends = out.index(":quit        stop")
    assert help_ends < out.index("Ann         18          1") < out.index("Ann needs 12 more") < out.index(
        "Hand 2: Ann deals.")
    ok("hand", "ann", "0", "10")
    out = ok("play", input="n\n").stdout
    assert out.index("Ann         53") < out.index("Ann wins the game with 53") < out.index("Play a rematch")
    assert out.count("Ann wins the game") == 1


def test_an_upcard_without_its_suit_under_spades_double_is_told_why_as_hand_tells_it_h4(ok, refused):
    """With spades double on, the suit decides whether the hand counts double: play says so, in the words
    `hand --upcard` uses, rather than only that a card has a suit; then it takes 6s."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--spades-double")
    why = "spades double is on (H4), so the upcard needs its suit: type it like 6s or 6h"
    refused("hand", "ann", "2", "30", "--upcard", "6", says=why)
    out = " ".join(play(ok, "6", "6s", "ann 2 30", "y").split())
    assert why in out and "has no suit" not in out
    assert hands(ok) == [("Ann", 2, 30, "6S")]


def test_r6_first_turn_is_play_detail_nothing_asked_nothing_scored(ok):
    out = ok("rules", "standard").stdout
    assert "R6" in out and "nothing to score" in out
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    asked = ok("play", input=":quit\n").stdout
    assert "Upcard" not in asked and "first turn" not in asked.lower()  # only Oklahoma asks for the upcard


HINT = "[:back :undo :edit :help :quit]"


def play(ok, *answers: str, eof: bool = False, session: str | None = None) -> str:
    """Run play with these answers typed; it ends with :quit unless ``eof`` (the input just ends)."""
    lines = list(answers) + ([] if eof else [":quit"])
    extra = ("--session", session) if session else ()
    return ok("play", *extra, input="\n".join(lines) + "\n").stdout


def hands(ok, *extra: str) -> list[tuple]:
    """The saved hands as (knocker, knocker deadwood, opponent deadwood, upcard), draws as ("draw",)."""
    doc = ok("log", "--json", *extra).json()
    return [
        ("draw",) if h["outcome"] == "draw" else (h["knocker"], h["knocker_deadwood"], h["opponent_deadwood"], h["upcard"])
        for h in doc["hands"]
    ]


@pytest.fixture
def standard(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "game")


def test_every_prompt_says_the_commands(ok, standard):
    out = play(ok, "ann", "0", "30", "y", "ben", "4", "22", "n")
    prompts = [line for line in out.splitlines() if "]: " in line]
    assert len(prompts) == 9 and all(HINT + ": " in line for line in prompts)
    assert "commands start with ':'" in out


def test_a_player_called_quinn_is_typed_q_and_quits_only_with_colon(ok, status):
    ok("new", "standard", "Quinn", "Ann", "--dealer", "Ann")
    out = play(ok, "q", "4", "22", "y", "quit", "quinn", "3", "20", "y")
    assert "no player 'quit'" in out and "commands start with ':'" in out  # told, asked again
    assert hands(ok) == [("Quinn", 4, 22, None), ("Quinn", 3, 20, None)]
    assert status()["totals"] == {"Quinn": 35, "Ann": 0}


def test_names_cannot_start_with_the_command_mark(refused):
    refused("new", "standard", ":quit", "Ben", says="cannot start with ':'")


def test_unknown_command_and_draw_outside_its_question_are_told(ok, standard):
    out = play(ok, ":frobnicate", "ann", ":draw", "4", "22", "y")
    assert "there is no command ':frobnicate'" in out and ':draw answers "Who knocked?"' in out
    assert hands(ok) == [("Ann", 4, 22, None)]
    out = play(ok, ":draw", "y")
    assert hands(ok)[-1] == ("draw",)


def test_back_at_the_first_question_says_so(ok, standard):
    out = play(ok, ":back", "ann", "4", "22", "y")
    assert "This is the first question of the hand" in out
    assert hands(ok) == [("Ann", 4, 22, None)]


def test_back_at_each_question_of_a_knock(ok, standard):
    play(ok, "ann", ":back", "ben", "4", "22", "y")  # at the knocker's deadwood: another knocker
    play(ok, "ann", "5", ":back", "4", "22", "y")  # at the opponent's deadwood: another count
    play(ok, "ben", "4", "22", ":back", "30", "y")  # at the confirmation: the last count again
    play(ok, "ann", "4", ":back", ":back", "ben", "2", "9", "y")  # two steps back
    assert hands(ok) == [("Ben", 4, 22, None), ("Ann", 4, 22, None), ("Ben", 4, 30, None), ("Ben", 2, 9, None)]


def test_back_at_the_big_gin_and_upcard_questions(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    out = play(ok, ":back", "7h", ":back", "ah", ":back", "9c", "ann", ":back", ":back", "8d",
               "ann", "0", ":back", "0", "y", ":back", "n", "20", "y")
    assert "first question" in out
    doc = ok("log", "--json").json()["hands"]
    assert [(h["upcard"], h["knocker"], h["knocker_deadwood"], h["big_gin"], h["opponent_deadwood"]) for h in doc] \
        == [("8D", "Ann", 0, False, 20)]


def test_back_after_a_draw_asks_who_knocked_again(ok, standard):
    play(ok, ":draw", ":back", "ann", "4", "22", "y")
    assert hands(ok) == [("Ann", 4, 22, None)]


def test_gin_asks_just_the_opponents_deadwood_without_lay_offs(ok, standard):
    out = play(ok, "ann", "0", "30", "y", "ben", "5", "20", "y")
    gin_question = next(line for line in out.splitlines() if line.startswith("Ben's deadwood"))
    assert gin_question.startswith("Ben's deadwood? (gin: nothing is laid off)")  # R8, R11: no lay-offs on gin
    assert "after lay-offs" not in gin_question
    assert "Ann's deadwood after lay-offs (R8)?" in out  # a knock still asks after lay-offs


def test_undo_inside_play_asks_like_the_command_and_restarts_the_hand(ok, standard, status):
    out = play(ok, "ann", "4", "22", "y", "ben", ":undo", "n", "3", "9", "y")
    assert "Nothing removed" in out  # answered no: the hand in progress goes on
    assert hands(ok) == [("Ann", 4, 22, None), ("Ben", 3, 9, None)]
    out = play(ok, "ann", ":undo", "y", "ann", "2", "9", "y")  # yes: the hand is asked again from the start
    assert "Removed hand 2" in out
    assert hands(ok) == [("Ann", 4, 22, None), ("Ann", 2, 9, None)]
    play(ok, ":undo --yes", ":undo", "")  # --yes as for the command; then the default answer is no
    assert hands(ok) == [("Ann", 4, 22, None)]
    assert status()["totals"] == {"Ann": 18, "Ben": 0}


def test_undo_with_no_hands_is_refused_and_the_question_asked_again(ok, standard):
    out = play(ok, ":undo", "ann", "4", "22", "y")
    assert "'game' has no hands to undo" in out
    assert hands(ok) == [("Ann", 4, 22, None)]


def test_edit_inside_play_with_the_rules_of_the_command(ok, standard, status):
    out = play(
        ok, "ann", "4", "22", "y",
        ":edit 1 ben 3 20",  # corrected; the hand in progress restarts
        ":edit 9 ann 1 2",  # no hand 9: refused, told
        ":edit 1 ann 4",  # a count missing: refused, told
        ":edit 1 ann 4 22 --frob",  # an option edit does not have
        ':edit 1 ann 4 "22',  # an open quote
        "ben", "2", "30", "y",
    )
    assert "Corrected hand 1: Ben knocked with 3, Ann had 20" in out
    assert "there is no hand 9" in out and "give the knocker and both deadwood counts" in out
    # the advice names what is typed here, not a shell command (play's session, no shell at hand)
    assert "like `:edit 1 ann 4 22`" in out and "`ginscore edit 1" not in out
    assert "No such option: --frob" in out and "cannot read that" in out
    assert hands(ok) == [("Ben", 3, 20, None), ("Ben", 2, 30, None)]
    assert status()["totals"] == {"Ann": 0, "Ben": 45}


def test_edit_inside_play_reads_a_name_of_two_words_as_who_knocked_does(ok):
    """`ann marie 4 22` at "Who knocked?" was taken, `:edit 1 ann marie 2 22` refused ("unexpected extra
    argument (22)"): a name with a space is read whole in both, and quoted too."""
    ok("new", "standard", "Ann Marie", "Ben Li", "--dealer", "ann")
    out = play(ok, "ann marie 4 22", "y", ":edit 1 ann marie 2 22", ':edit 1 "ben li" 3 20 --upcard 7h')
    assert "Corrected hand 1: Ann Marie knocked with 2" in out and "Corrected hand 1: Ben Li knocked with 3" in out
    assert "unexpected extra" not in out
    assert hands(ok) == [("Ben Li", 3, 20, "7H")]


def test_edit_inside_play_keeps_the_hands_upcard_r15(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    out = play(ok, "7d", "ann 5 30", "y", ":edit 1 ann 6 3", ":edit 1 ann 8 3")
    assert "Corrected hand 1: Ann knocked with 6 on a 7♦ upcard" in " ".join(out.split())
    assert "8, over this hand's knock limit of 7 (R15)" in out and "add --upcard" not in out
    assert hands(ok) == [("Ann", 6, 3, "7D")]


def test_edit_a_session_not_current_edits_the_one_played(ok, standard, status):
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "other")
    play(ok, "ann", "4", "22", "y", ":edit 1 ann 2 22", session="game")
    assert hands(ok, "--session", "game") == [("Ann", 2, 22, None)]
    assert hands(ok, "--session", "other") == [] and status()["session"] == "other"


def test_edit_or_undo_inside_play_cannot_reach_another_database(ok, standard, tmp_path):
    other = tmp_path / "other.json"
    ok("--db", str(other), "new", "standard", "Cy", "Dee", "--dealer", "Cy")
    ok("--db", str(other), "hand", "cy", "2", "20")
    before = other.read_bytes()
    out = play(ok, "ann", "4", "22", "y", f":edit 1 ann 2 22 --db {other}", f":undo --yes --db={other}",
               "ben", "2", "30", "y")
    assert out.count("--db cannot be given here") == 2
    assert other.read_bytes() == before
    assert hands(ok) == [("Ann", 4, 22, None), ("Ben", 2, 30, None)]


def test_an_option_typed_in_play_where_another_options_value_belongs_is_told_given_no_value(ok, standard):
    """`:edit 1 --note --great` saved the note "--great" that `ginscore edit` refuses, and `:edit 1 --upcard
    --note x` said "no player 'x'": each is told its option was given no value, as the command says it."""
    out = " ".join(play(ok, "ann", "4", "22", "y", ":edit 1 --note --great", ":edit 1 --upcard --note x").split())
    assert "--note was given no value ('--great' looks like an option)" in out, out
    assert "--upcard was given no value ('--note' is another option)" in out and "no player 'x'" not in out
    assert [h.get("note") for h in ok("log", "--json").json()["hands"]] == [None]


def test_a_number_typed_by_a_stuck_key_is_shortened_where_play_tells_it_back(ok, standard):
    """`ginscore edit` tells 300 nines by their first digits and how many they are; play told them whole, four
    screen lines of nines, for `:edit`, `:undo` and an answer alike."""
    nines = "9" * 300
    out = play(ok, f":edit {nines} ann 4 22", f":undo {nines}", nines)
    said = " ".join(out.split())
    assert "there is no hand 999999999999…(300 digits) in 'game'" in said, said
    assert "argument(s) (999999999999…(300 digits))" in said and "no player '999999999999…(300 digits)'" in said


def test_game_over_offers_the_rematch_and_goes_on_in_it(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "first")
    out = play(ok, "ann", "0", "30", "y", "", "ben", "4", "22", "y")
    assert out.count("Ann wins the game with 55 (Ben 0)") == 1
    # who deals it is asked at the table as soon as the game ends (H6: the winner deals)
    assert out.count("Play a rematch, Ann dealing first (H6)? [Y/n]") == 1 and "The session is over" not in out
    assert "Started 'standard-1'" in out and "Rematch of 'first'" in out
    assert hands(ok, "--session", "first") == [("Ann", 0, 30, None)]
    doc = status()
    assert doc["session"] == "standard-1" and doc["totals"] == {"Ann": 0, "Ben": 18}


def test_rematch_declined_stops_and_starts_nothing(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "first")
    out = play(ok, "ann", "0", "30", "y", "n", eof=True)
    assert "No rematch" in out and "Stopped. Every hand you confirmed is saved." in out
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["first"]
    out = play(ok, "y", eof=True)  # play on a finished session offers the rematch at once
    assert out.count("Ann wins the game") == 1 and "Play a rematch" in out
    assert status()["session"] == "standard-1"


def test_undo_at_the_rematch_question_lets_the_game_go_on(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "first")
    out = play(ok, "ann", "0", "30", "y", ":back", ":undo", "y", "ann", "4", "22", "y")
    assert "no question to go back to" in out
    assert hands(ok) == [("Ann", 4, 22, None)] and status()["session"] == "first"
    assert not status()["over"]


def test_back_at_the_undo_question_removes_nothing_and_asks_again_what_undo_was_typed_at(ok, status):
    """:back at "Remove hand N?" said the rematch question's "no question to go back to" (typed at it), or
    went back a question in the hand in progress without a word of the undo; it is a no."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "first")
    out = play(ok, "ann", "0", "30", "y", ":undo", ":back", "n")
    assert "no question to go back to" not in out and "Nothing removed." in out and "No rematch" in out
    assert hands(ok) == [("Ann", 0, 30, None)] and status()["session"] == "first"
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = play(ok, "ann", "4", "22", "y", "ben", "3", ":undo", ":back", "9", "y")  # the count asked again
    assert "Nothing removed." in out and hands(ok) == [("Ann", 4, 22, None), ("Ben", 3, 9, None)]


def test_next_dealer_is_said_once_between_hands(ok, standard):
    out = play(ok, "ann", "4", "22", "y")
    between = out.split("Saved hand 1")[1]
    assert between.count("Ann deals") == 1 and "\nHand 2: Ann deals.\n" in between


def test_the_next_hand_is_named_once_with_its_roles(ok):
    """Not "Hand 2. Next hand: ...", two names of one hand: the hand, then who deals it (R22)."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    out = play(ok, "ann", "4", "22", "y")
    assert "\nHand 1: Ann is in the box and deals, Ben captains, Cy sits out.\n" in out
    assert "\nHand 2: Ann is in the box and deals, Cy captains, Ben sits out.\n" in out
    assert "Next hand:" not in out


def test_a_command_typed_wrong_in_play_is_told_as_play_types_it(ok, standard, monkeypatch):
    """Inside play, :edit without its hand says how :edit is typed (not `ginscore edit --help`), and
    a command that does not exist is told on one line of 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    out = play(ok, ":edit", ":edit x ann 4 22", ":undo now", ":frobnicate")
    said = [line.strip() for line in out.splitlines() if line.startswith("  ") and not line.startswith("  :")]
    assert said == ["Missing argument 'N'; type it like `:edit 3 ann 4 22` (:help for more)",
                    "Invalid value for 'N': 'x' is not a whole number; type it like",
                    "`:edit 3 ann 4 22` (:help for more)",
                    "Got unexpected extra argument(s) (now); type it like `:undo` (:help for more)",
                    "there is no command ':frobnicate'; :help lists the commands"], said
    assert "--help" not in out


OKLAHOMA_QUESTIONS = [
    [],  # the upcard
    ["7h"],  # who knocked
    ["7h", "ann"],  # the knocker's deadwood
    ["7h", "ann", "0"],  # big gin?
    ["7h", "ann", "0", "n"],  # the opponent's deadwood
    ["7h", "ann", "0", "n", "20"],  # record it?
    ["7h", "ann", "0", "n", "20", "y", ":undo"],  # the question of :undo (y/n, as the command's: Ctrl-D only)
]


STOPS = [(at, eof) for at in range(len(OKLAHOMA_QUESTIONS)) for eof in (False, True) if eof or at < 6]


@pytest.mark.parametrize(("at", "eof"), STOPS)
def test_quit_or_end_of_input_at_every_question_loses_nothing_confirmed(ok, status, at, eof):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31", "--target", "200")
    play(ok, "9c", "ben", "5", "25", "y")  # one confirmed hand first
    out = play(ok, *OKLAHOMA_QUESTIONS[at], eof=eof)
    assert "Stopped. Every hand you confirmed is saved." in out
    saved = [("Ben", 5, 25, "9C")] + ([("Ann", 0, 20, "7H")] if at == 6 else [])
    assert hands(ok) == saved
    assert status()["hands_played"] == len(saved)


@pytest.mark.parametrize("eof", [False, True], ids=["quit", "eof"])
def test_quit_or_end_of_input_at_the_rematch_question(ok, status, eof):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50", "--name", "first")
    out = play(ok, "ann", "0", "30", "y", eof=eof)
    assert "Play a rematch" in out and "Stopped. Every hand you confirmed is saved." in out
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["first"]
    assert status()["winner"] == "Ann" and hands(ok) == [("Ann", 0, 30, None)]


def test_an_imported_name_starting_with_the_command_mark_is_refused(ok, refused, tmp_path):
    import json

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    doc = json.loads(ok("export", "--format", "json").stdout)
    text = json.dumps(doc).replace('"Ben"', '":back"')
    assert ":back" in text
    (tmp_path / "colon.json").write_text(text)
    refused("import", str(tmp_path / "colon.json"), says="cannot start with ':'")


def test_a_finished_hollywood_series_offers_a_new_series(ok, status):
    ok("new", "hollywood", "Ann", "Ben", "--dealer", "Ann", "--name", "series")
    out = play(ok, "ann", "0", "75", "y", "ben", "0", "75", "y", "ann", "0", "75", "y", "y", "ben", "3", "9", "y")
    assert out.count("Ann wins the series, 2 games of 3") == 1 and "The series is over. Play a rematch" in out
    doc = status()
    assert doc["session"] == "hollywood-1" and doc["hands_played"] == 1  # R19: the rematch is a new series
    assert hands(ok, "--session", "series") == [("Ann", 0, 75, None), ("Ben", 0, 75, None), ("Ann", 0, 75, None)]


def test_who_knocked_takes_the_whole_knock_on_one_line(ok, standard):
    out = play(ok, "ann 4 22", "y", "Ben  0 31", "y")
    assert hands(ok) == [("Ann", 4, 22, None), ("Ben", 0, 31, None)]
    assert "Ann's deadwood?" not in out and "deadwood after lay-offs" not in out  # nothing asked twice
    assert 'a whole knock fits on one line' in out  # said with the commands, at the start


def test_back_after_a_one_line_knock_asks_the_last_count_again(ok, standard):
    play(ok, "ann 4 22", ":back", "25", "y")
    play(ok, "ann 4 22", ":back", ":back", "5", "26", "y")
    assert hands(ok) == [("Ann", 4, 25, None), ("Ann", 5, 26, None)]


def test_a_one_line_knock_is_checked_as_its_questions_are(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    out = play(ok, "7h", "ann 8 30", "ann 7 99", "zed 4 22", "4 22", "ann 0 30", "n", "y")
    assert "8 is over this hand's knock limit of 7" in out  # R15: the upcard's limit
    assert "Ben's deadwood 99 is more than ten cards can hold" in " ".join(out.split())  # R3: the opponent's too
    assert "no player 'zed'" in out
    assert "say who knocked first" in out and "ann 4 22" in out  # counts with no name: told the order
    assert "big gin" in out  # H2: gin still asks about big gin
    assert hands(ok) == [("Ann", 0, 30, "7H")]


@pytest.mark.parametrize("eof", [False, True])  # :quit, or Ctrl-D (the input ends)
def test_stopping_part_way_through_a_hand_says_that_hand_was_not_saved(ok, standard, eof):
    out = play(ok, "ann", "4", eof=eof)
    assert "Hand 1 was not saved: it was stopped before it was confirmed." in out
    assert hands(ok) == []
    assert "was not saved" not in play(ok, eof=eof)  # at the first question: no hand begun


@pytest.mark.parametrize("presses", [1, 2], ids=["once", "twice at once"])
@pytest.mark.parametrize("saved", [False, True], ids=["nothing saved", "a hand saved"])
def test_ctrl_c_in_play_exits_130_unless_a_hand_was_saved(db_path, saved, presses):
    """Ctrl-C at a question of play: as every command, exit 130 when play changed nothing ("stopped;
    nothing was changed"); once a hand was saved it stands, and play ends as :quit does (exit 0). Pressed
    twice, the second press ended play by the signal while the first was answered."""
    import select
    import subprocess
    import sys
    import time

    env = dict(os.environ, GINSCORE_DB=str(db_path), COLUMNS="80")
    ginscore = [sys.executable, "-m", "ginscore"]
    subprocess.run([*ginscore, "new", "standard", "Ann", "Ben", "--dealer", "Ann"], env=env, check=True,
                   capture_output=True)
    before = db_path.read_bytes()
    playing = subprocess.Popen([*ginscore, "play"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    if saved:
        playing.stdin.write(b"ann 4 22\ny\n")
        playing.stdin.flush()
    asked = b"Hand 2:" if saved else b"Hand 1:"
    seen, deadline = b"", time.monotonic() + 60
    while not (asked in seen and seen.endswith(b": ")) and time.monotonic() < deadline:
        if select.select([playing.stdout], [], [], 1)[0]:
            seen += os.read(playing.stdout.fileno(), 4096)
    assert asked in seen and seen.endswith(b": "), seen  # play waits for the answer
    for press in range(presses):
        time.sleep(0.005 if press else 0)  # (two at the same instant are one signal)
        playing.send_signal(signal.SIGINT)
    out, err = playing.communicate(timeout=60)
    said = " ".join((seen + out).decode().split())
    if saved:
        assert (playing.returncode, err) == (0, b""), err
        assert said.endswith("Stopped. Every hand you confirmed is saved.") and db_path.read_bytes() != before
    else:
        assert playing.returncode == 130 and err.decode() == "Error: stopped; nothing was changed\n", err
        assert out == b"\n", out  # the question's line ended: on a terminal the error is not read as its answer
        assert "Stopped." not in said and db_path.read_bytes() == before


def test_a_knocker_with_one_count_is_told_to_give_both_not_that_there_is_no_such_player(ok, standard):
    out = " ".join(play(ok, "ANN 0", "ann 0 22", "y").split())
    assert "no player" not in out
    assert "that is one count; give both on one line, Ann's then Ben's (like ANN 0 22), or just the name" in out
    assert hands(ok) == [("Ann", 0, 22, None)]


def test_a_one_line_knock_with_more_counts_is_refused_however_long(ok, standard):
    out = play(ok, "ann 1 2 4 22", "ann" + " 1 2" * 1_000, "ann 4.0 22", "ann 4 +22", "ann 4,0 22", "ann 4 22", "y")
    assert out.count("that is more than two counts; give the knocker, then the two deadwood counts") == 2
    # a count typed with a sign or a comma is the count's mistake, not "no player 'ann 4 +22'"
    assert out.count("deadwood counts are whole numbers; give the knocker, then both counts, like ann 4 22") == 3
    assert "no player" not in out
    assert "_WholeKnock" not in out and hands(ok) == [("Ann", 4, 22, None)]


def test_a_knock_is_advised_with_a_name_of_this_table(ok):
    ok("new", "standard", "Gil", "Hal", "--dealer", "hal")
    out = " ".join(play(ok, "4 22", "gil 4.0 22", "gil 1 2 3", "gil 4 22", "y").split())
    assert ("no player '4 22'; say who knocked first: a name (Gil or Hal), or the whole knock on one line, "
            "the knocker then both counts, like gil 4 22") in out
    assert "deadwood counts are whole numbers; give the knocker, then both counts, like gil 4 22" in out
    assert "that is more than two counts; give the knocker, then the two deadwood counts, like gil 4 22" in out
    assert hands(ok) == [("Gil", 4, 22, None)]


def test_a_one_line_knock_by_a_player_whose_name_holds_a_number(ok):
    ok("new", "standard", "Ann 2", "7", "--dealer", "7")
    play(ok, "ann 2 4 22", "y", "7 0 30", "y")
    assert hands(ok) == [("Ann 2", 4, 22, None), ("7", 0, 30, None)]


def test_an_ace_upcard_that_means_gin_is_cited_as_h4_in_play(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--ace-means-gin")
    out = " ".join(play(ok, "ah", "ann 1 30", "ann", "1").split())
    assert out.count("1 is not gin, and this hand allows only gin (H4: ace means gin); check the upcard, "
                     "or the count of a gin is 0") == 2
    assert "knock limit of 0" not in out


def test_a_knock_told_at_oklahomas_upcard_question_is_told_the_upcard_comes_first(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    out = " ".join(play(ok, "ann 4 20", "7 h", "7h", "ann 4 20", "y").split())
    assert "the upcard comes first here, as it sets the knock limit (R15): give it alone, like 7h" in out
    assert "'7 h' is not a card" in out
    assert hands(ok) == [("Ann", 4, 20, "7H")]


def test_a_one_line_knock_by_who_sits_out_is_refused(ok):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    out = play(ok, "cy 4 22", "cy 4")  # ("cy 4" said "no player 'cy 4'", though Cy plays the session)
    assert out.count("Cy sits out this hand; Ann or Ben can knock (R22)") == 2 and hands(ok) == []


def test_a_misspelt_knocker_in_three_player_is_told_who_can_knock_not_only_who_plays_r22(ok, refused):
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    out = " ".join(play(ok, "anne", "ann 4 22", "y").split())
    assert "no player 'anne'; the players are Ann, Ben, Cy (Ann or Ben can knock this hand)" in out
    # R23: Ann, the box, won: Ben sits out now
    refused("hand", "cyn", "4", "22", says="no player 'cyn'; the players are Ann, Ben, Cy (Ann or Cy can knock this")
    assert hands(ok) == [("Ann", 4, 22, None)]


def _while_play_asks(db_path, elsewhere: list[list[str]], then: str, *new: str, before: list[list[str]] = (),
                     first: bytes = b"ann\n4\n", waits_for: bytes = b"Ben's deadwood",
                     exits: int = 0) -> tuple[str, dict]:
    """Run ``new`` and ``before``, start `play` (a real second process), type ``first``, wait for the
    question ``waits_for``, run the ``elsewhere`` commands, then type ``then``; returns what play said
    and `status --json` ({} when no session is current); ``exits``: play's exit status (not 0: with its error)."""
    import select
    import subprocess
    import sys
    import time

    env = dict(os.environ, GINSCORE_DB=str(db_path), COLUMNS="80")
    ginscore = [sys.executable, "-m", "ginscore"]
    for args in [list(new), *before]:
        subprocess.run([*ginscore, *args], env=env, check=True, capture_output=True)
    playing = subprocess.Popen([*ginscore, "play"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    playing.stdin.write(first)
    playing.stdin.flush()
    seen, deadline = b"", time.monotonic() + 60
    while waits_for not in seen and time.monotonic() < deadline:
        if select.select([playing.stdout], [], [], 1)[0]:
            seen += os.read(playing.stdout.fileno(), 4096)
    assert waits_for in seen
    for args in elsewhere:  # commands, or what another program does (a callable)
        if callable(args):
            args()
        else:
            subprocess.run([*ginscore, *args], env=env, check=True, capture_output=True)
    out, err = playing.communicate(then.encode(), timeout=60)
    assert playing.returncode == exits and bool(err) == bool(exits), err
    done = subprocess.run([*ginscore, "status", "--json"], env=env, capture_output=True)
    return " ".join((seen + out + err).decode().split()), json.loads(done.stdout) if done.returncode == 0 else {}


NOT_SAVED = "Not saved: the session changed elsewhere while this hand was asked"
STOPPED_THIS_HAND = "Stopped this hand: the session changed elsewhere while this hand was asked"
CONFIRMING = {"first": b"ann\n4\n22\n", "waits_for": b"Record it?"}  # the change comes as the hand is confirmed


@pytest.mark.parametrize(("elsewhere", "hands"), [
    ([["hand", "ben", "3", "20"]], 2), ([["house", "--gin-bonus", "20", "--from-start"]], 1),
    ([["hand", "ben", "3", "20"], ["undo", "--yes"]], 2),  # undone: the session is as it was asked
], ids=["hand", "house", "hand and undo"])
def test_a_session_changed_elsewhere_while_play_asks_saves_nothing_and_asks_again(db_path, elsewhere, hands):
    """Another shell changes the session while "Record it?" is asked: the hand confirmed was
    asked on other hands or rules (it may be the same hand recorded twice), so it is not saved;
    play says so and asks again, on the session as it is now."""
    said, status = _while_play_asks(db_path, elsewhere, "y\nann\n4\n22\ny\n:quit\n",
                                    "new", "standard", "Ann", "Ben", "--dealer", "Ann", **CONFIRMING)
    changed = elsewhere[-1][0] != "undo"
    assert (NOT_SAVED in said) == changed
    assert ("Stopped. Every hand saved above is kept; those said to be not saved were not." in said) == changed
    assert ("Stopped. Every hand you confirmed is saved." in said) != changed
    assert status["hands_played"] == hands and said.count("Saved hand") == (1 if changed else 2)


@pytest.mark.parametrize(("elsewhere", "then", "said_then", "hands"), [
    ([["hand", "ben", "3", "20"]], "22\nann\n4\n22\ny\n:quit\n", STOPPED_THIS_HAND, 2),
    ([["house", "--gin-bonus", "20", "--from-next"]], "22\nann\n4\n22\ny\n:quit\n", STOPPED_THIS_HAND, 1),
    ([["hand", "ben", "3", "20"], ["undo", "--yes"]], "22\ny\n:quit\n", "Record it?", 1),  # as it was asked
    ([["hand", "cy", "3", "20", "--session", "other"]], "22\ny\n:quit\n", "Record it?", 1),  # another session
    # deleted (or a sync client halfway through writing the file): told at the save, never by stopping mid-hand
    ([["delete", "game", "--yes"]], "22\ny\n", ":quit]: Stopped: 'game' was deleted elsewhere; the hand just "
     "confirmed was not saved. `ginscore restore game` brings it back.", 0),
], ids=["hand", "house", "hand and undo", "another session", "deleted"])
def test_a_session_changed_elsewhere_is_said_at_the_next_answer_not_after_the_whole_hand(db_path, elsewhere, then,
                                                                                         said_then, hands):
    """Play stopped with Ctrl-Z (or simply waiting) while another shell changes the session: the next answer
    shows the session as it stands and asks the hand again, rather than taking every answer of a hand that
    can no longer be saved. A change that leaves the session as it was asked goes on with the hand."""
    said, status = _while_play_asks(db_path, elsewhere, then, "new", "standard", "Ann", "Ben", "--dealer", "Ann",
                                    "--name", "game", before=[["new", "standard", "Cy", "Dee", "--dealer", "cy",
                                                               "--name", "other"], ["use", "game"]])
    assert said_then in said.split("Ben's deadwood", 1)[1] and NOT_SAVED not in said
    assert status.get("hands_played", 0) == hands and said.count("Record it?") == 1


def test_a_file_briefly_empty_while_play_asks_is_no_reason_to_stop_mid_hand(db_path):
    """A sync client writes the file in two steps (emptied, then filled): the next answer came just between,
    and play stopped saying the session was no longer here, the hand's later answers going to the shell.
    Play asks on; only the save (here, with the file still empty) tells what became of the hand."""
    said, _ = _while_play_asks(db_path, [lambda: db_path.write_bytes(b"")], "22\ny\n", "new", "standard", "Ann",
                               "Ben", "--dealer", "Ann")
    assert "Record it? [Y/n] [:back :undo :edit :help :quit]: Stopped: 'standard-1' is no longer here; the hand " \
        "just confirmed was not saved." in said.split("Ben's deadwood", 1)[1], said


def test_a_three_player_hand_is_never_saved_against_roles_changed_elsewhere(db_path):
    said, status = _while_play_asks(db_path, [["hand", "ben", "4", "22"]], "y\n:quit\n",
                                    "new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben", **CONFIRMING)
    assert NOT_SAVED in said and status["hands_played"] == 1  # Ben's alone: Ann's was asked against Ben


def test_a_session_renamed_elsewhere_is_followed_and_a_deleted_one_stops_play(db_path):
    said, status = _while_play_asks(db_path, [["rename", "evening"]], "22\ny\n:quit\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", "--name", "game")
    assert "'game' was renamed 'evening' elsewhere; play goes on in it" in said and NOT_SAVED not in said
    assert status["session"] == "evening" and status["hands_played"] == 1  # the name changed, not the hands
    said, status = _while_play_asks(db_path, [["delete", "other", "--yes"]], "y\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", "--name", "other", **CONFIRMING)
    assert "Traceback" not in said and "Error" not in said and "Saved hand" not in said
    assert "Stopped: 'other' was deleted elsewhere; the hand just confirmed was not saved. `ginscore restore other` " \
        "brings it back." in " ".join(said.split())
    assert status == {}  # no session current: the one played was deleted, and nothing was recorded into another


def test_a_hand_confirmed_as_the_file_became_unusable_is_said_not_saved(db_path):
    """A program beside it (or a hand edit) breaks the file while "Record it?" is asked: play ended naming the
    file (exit 1, nothing written), but never said the hand just confirmed was not saved."""
    said, _ = _while_play_asks(db_path, [lambda: db_path.write_text("{ broken")], "y\n", "new", "standard", "Ann",
                               "Ben", "--dealer", "Ann", first=b"ann\n4\n22\n", waits_for=b"Record it?", exits=1)
    assert "Not saved: the hand just confirmed, as the database cannot be used now. Error: " in said
    assert db_path.read_text() == "{ broken"


def test_a_database_file_taken_away_while_play_asks_stops_play_saying_so(db_path):
    """A sync client or a move takes the file away: play says the file is not there, not that the session
    was deleted, and writes no file of its own in its place."""
    away = db_path.with_name("away.json")
    said, status = _while_play_asks(db_path, [lambda: db_path.rename(away)], "y\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", **CONFIRMING)
    told = f"Stopped: the database file {db_path} is not there; the hand just confirmed was not saved."
    assert "".join(told.split()) in "".join(said.split())  # (a long path is wrapped wherever it must be)
    assert "deleted" not in said and not db_path.exists() and away.exists()


@pytest.mark.parametrize(("elsewhere", "hands"), [([["hand", "ben", "3", "9"]], 2), ([["rename", "zz"]], 0)],
                         ids=["a hand recorded", "renamed"])
def test_undo_asked_while_the_session_changes_elsewhere_removes_only_what_was_asked(db_path, elsewhere, hands):
    """`:undo` asks as play asks; a hand recorded elsewhere meanwhile is never the one removed (the session is
    shown as it stands, nothing removed), and a rename elsewhere changes no hand: the undo is done in it."""
    said, status = _while_play_asks(db_path, elsewhere, "y\n:quit\n", "new", "standard", "Ann", "Ben", "--dealer",
                                    "Ann", before=[["hand", "ann", "2", "10"]], first=b":undo\n",
                                    waits_for=b"Remove hand 1")
    assert "Remove hand 1: Ann knocked with 2, Ben had 10" in said and "no session" not in said
    if hands:
        assert "Not done: the session changed elsewhere while you were asked" in said and "Ann 8 1 Ben 6 1" in said
    else:
        assert "was renamed 'zz' elsewhere; play goes on in it" in said and "Removed hand 1" in said
    assert status["hands_played"] == hands


def test_a_game_finished_elsewhere_while_play_asks_offers_the_rematch(db_path):
    said, status = _while_play_asks(db_path, [["hand", "ben", "0", "90"]], "22\nn\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    assert STOPPED_THIS_HAND in said and "Play a rematch" in said and "Record it?" not in said
    assert status["winner"] == "Ben" and status["hands_played"] == 1


def test_a_rematch_started_elsewhere_at_the_rematch_question_is_gone_on_in_not_started_again(db_path, ok):
    said, status = _while_play_asks(db_path, [["rematch", "--name", "R1"]], "y\n:quit\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", "--name", "S", "--target", "30",
                                    before=[["hand", "ann", "0", "10"]], first=b"", waits_for=b"Play a rematch")
    assert "Its rematch 'R1' was already started; play goes on in it." in said
    assert "Level at 0" in said.split("already started")[1]  # R1's standings, then who deals
    assert status["session"] == "R1" and status["match"]["sessions"] == ["S", "R1"]  # no second rematch


def test_a_rematch_started_elsewhere_and_declined_here_is_named_not_advised_again(db_path):
    """Declined at the question after a rematch was started elsewhere meanwhile: play advised `ginscore
    rematch --session S`, which would start a second rematch of the same game; it names the one started."""
    said, status = _while_play_asks(db_path, [["rematch", "--name", "R1"]], "n\n", "new", "standard",
                                    "Ann", "Ben", "--dealer", "Ann", "--name", "S", "--target", "30",
                                    before=[["hand", "ann", "0", "10"]], first=b"", waits_for=b"Play a rematch")
    assert "No rematch here; its rematch 'R1' was started elsewhere: `ginscore play --session R1` keeps score " \
           "in it." in said, said
    assert "starts one later" not in said and status["match"]["sessions"] == ["S", "R1"]


@pytest.mark.parametrize("answer", ["y", "n"])  # "n" said "`ginscore rematch` starts one later" of a game going on
@pytest.mark.parametrize("elsewhere", [["undo", "--yes"], ["house", "--target", "50", "--from-start"]])
def test_a_game_no_longer_over_at_the_rematch_question_goes_on(db_path, elsewhere, answer):
    said, status = _while_play_asks(db_path, [elsewhere], f"{answer}\n:quit\n", "new", "standard", "Ann", "Ben",
                                    "--dealer", "Ann", "--name", "S", "--target", "30",
                                    before=[["hand", "ann", "0", "10"]], first=b"", waits_for=b"Play a rematch")
    assert "No rematch: the session changed elsewhere while this was asked" in said
    assert re.search(r"Hand [12]: (Ann|Ben) deals\. Who knocked", said.split("No rematch")[1])  # as it stands, who deals
    assert status["session"] == "S" and not status.get("match") and not status["over"]  # no rematch made


def test_a_session_deleted_at_the_rematch_question_stops_play_never_playing_another(db_path, ok):
    said, status = _while_play_asks(db_path, [["delete", "S", "--yes"], ["new", "standard", "Cy", "Dee", "--dealer",
                                                                         "Cy", "--name", "N"]],
                                    "y\ncy 2 30\ny\n", "new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name",
                                    "S", "--target", "30", before=[["hand", "ann", "0", "10"]], first=b"",
                                    waits_for=b"Play a rematch")
    assert "Stopped: 'S' was deleted elsewhere" in said and "`ginscore restore S`" in said and "Cy or Dee" not in said
    assert status["session"] == "N" and status["hands_played"] == 0


def test_a_rematch_of_the_session_started_elsewhere_mid_hand_changes_no_hand(db_path):
    """A rematch started elsewhere gives the session a match id: its hands are as they were, so the
    hand confirmed is saved."""
    said, status = _while_play_asks(db_path, [["rematch", "--session", "S", "--name", "R1", "--yes"]],
                                    "22\ny\nben 3 9\ny\n:quit\n", "new", "standard", "Ann", "Ben", "--dealer", "Ann",
                                    "--name", "S")
    assert NOT_SAVED not in said and "Saved hand 1" in said and "Saved hand 2" in said
    assert "Saved in 'S', whose rematch 'R1' was started elsewhere while this hand was asked; play goes on here " \
           "(`ginscore play --session R1` keeps score there)." in said  # (said once: not at the next hand)
    assert said.count("was started elsewhere") == 1


def test_an_older_finished_game_goes_on_in_its_rematch_and_that_ones(ok, status):
    """`play --session S` of a game over whose rematch R1 is over too and R2 in play: play names each
    rematch and shows its standings, never starting another."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "S", "--target", "30")
    ok("hand", "ann", "0", "10")
    ok("rematch", "--name", "R1")
    ok("hand", "ben", "0", "20")
    ok("rematch", "--name", "R2")
    ok("hand", "ben", "3", "5")
    out = " ".join(play(ok, session="S").split())
    assert "Its rematch 'R1' was already started; play goes on in it." in out
    assert "Its rematch 'R2' was already started; play goes on in it." in out and "Play a rematch" not in out
    assert out.index("Ben wins") < out.index("'R2'") and "Ben leads Ann by" in out.split("'R2'")[1]
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["S", "R1", "R2"]


@pytest.mark.parametrize("command", [":undo", ":edit 1 ann 0 12"])
def test_undo_or_edit_in_play_after_a_change_elsewhere_is_not_done(db_path, command):
    said, status = _while_play_asks(db_path, [["edit", "1", "ann", "0", "20"]], f"{command}\n:quit\n", "new",
                                    "standard", "Ann", "Ben", "--dealer", "Ann", before=[["hand", "ann", "0", "10"]])
    assert "Not done: the session changed elsewhere while this hand was asked" in said
    assert "Ann leads Ben by 45" in said  # the other shell's correction, shown and kept
    assert status["hands_played"] == 1 and status["totals"] == {"Ann": 45, "Ben": 0}


def test_declining_the_rematch_of_a_session_not_current_names_it_in_the_advice(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "old game", "--target", "30")
    ok("hand", "ann", "0", "10")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy", "--name", "T")
    out = play(ok, "n", session="old game")
    assert 'No rematch; `ginscore rematch --session "old game"` starts one later.' in " ".join(out.split())
    play(ok, "y", session="old game")  # the rematch of the session played, though another is current
    assert [s["name"] for s in ok("sessions", "--json").json()] == ["old game", "T", "standard-1"]
    assert ok("status", "--json", "--session", "standard-1").json()["players"] == ["Ann", "Ben"]


def test_every_question_fits_a_phone(ok, monkeypatch):
    """At 40 columns a question and its commands are broken into lines that fit (the answer is typed
    after the last), as everything else play says is."""
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "40")
    ok("new", "oklahoma", "Dee", "Eve", "--dealer", "Dee", "--big-gin-bonus", "31")
    out = play(ok, "7h", "dee", "0", "n", "22", "y")
    assert "Who knocked, Dee or Eve? (or :draw)\n[:back :undo :edit :help :quit]: " in out
    asked = [line[:line.index("]: ") + 3] if "]: " in line else line for line in out.splitlines()]
    assert max(cell_len(line) for line in asked) <= 40 and out.count("]: ") == 7


def test_the_commands_play_lists_read_as_a_list_on_a_phone(ok, monkeypatch):
    """At 40 columns what a command does goes on under itself, not back under the command's name."""
    monkeypatch.setenv("COLUMNS", "40")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    out = play(ok)
    assert ("  :undo        remove the last saved\n"
            "               hand (asks first), as the\n"
            "               `undo` command\n") in out
    monkeypatch.setenv("COLUMNS", "30")  # no room beside the commands: each meaning wraps a little further in
    assert "  :back        ask the\n    previous question of this\n" in play(ok)


def test_plays_help_names_a_player_of_the_table_and_no_database_path(ok, tmp_path):
    """With --db, the commands :undo and :edit stand for were written with the path: at 40 columns, five lines
    of path in the middle of the help. And its examples named "ann" at a table of Gil and Hal."""
    db = ("--db", str(tmp_path / "a-rather-long-folder-name-for-the-club" / "evening.json"))
    ok(*db, "new", "standard", "Gil", "Hal", "--dealer", "hal")
    out = " ".join(ok(*db, "play", input=":edit\n:quit\n").stdout.split())
    assert "(gil 4 22)" in out and "as the `edit` command (like :edit 3 gil 4 22)" in out and "--db" not in out
    assert "Missing argument 'N'; type it like `:edit 3 gil 4 22`" in out and "ann" not in out


def test_enter_alone_at_a_question_is_met_with_one_plain_line_and_the_question_again(ok):
    """Enter pressed by mistake said "'' is not a card: ...", "a player's name is empty; the players are ..."
    or "deadwood '' is not a number": each question's error for something typed, of nothing typed."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    out = " ".join(play(ok, "", "7h", "", "ann", "", "4", "", "22", "", ":quit").split())
    assert out.count("nothing was typed; give an answer, or :help") == 4 and "''" not in out and "empty" not in out
    assert hands(ok) == [("Ann", 4, 22, "7H")]  # Enter at "Record it?" is its default, yes


def test_play_cites_the_rule_of_the_variant_at_the_knock_limit(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    out = ok("play", input="ann\n11\n:quit\n").stdout
    assert "knock limit of 10 (R7)" in out and "R15" not in out


def test_oklahoma_record_question_and_recorded_line_repeat_the_upcard(ok):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    out = ok("play", input="7h\nann\n4\n22\n\n:quit\n").stdout
    assert "Ann knocked with 4 on a 7♥ upcard, Ben had 22: knock: Ann scores 22 - 4 = 18. Record it?" in out
    assert "Saved hand 1: Ann knocked with 4 on a 7♥ upcard" in out
    assert "on a 3♠ upcard" in ok("hand", "ben", "2", "30", "--upcard", "3s").stdout


def test_the_guides_evening_in_play_is_what_play_prints_at_80_columns(ok, monkeypatch):
    """docs/guide.md shows play as a terminal does, each answer after its question: the answers are
    read from it, given, and shown back as a terminal echoes them."""
    guide = (ROOT / "docs" / "guide.md").read_text()
    start = guide.index("```\n$ ginscore play\n") + len("```\n$ ginscore play\n")
    shown = guide[start:guide.index("```", start)]
    answers = re.findall(r"\]:(?: ([^\n]*))?\n", shown)
    assert len(answers) > 10
    monkeypatch.setenv("COLUMNS", "80")
    ok("new", "standard", "Ann", "Quinn", "--target", "50", "--dealer", "ann")
    printed = ok("play", input="".join(f"{answer}\n" for answer in answers)).stdout
    assert [line.rstrip() for line in printed.splitlines()] == shown.splitlines()


@pytest.mark.skipif(not hasattr(os, "openpty") or not hasattr(signal, "SIGTSTP"), reason="no terminals, no Ctrl-Z")
@pytest.mark.parametrize("command, question", [("play", "Who knocked, Ann or Ben?"), ("undo", "Remove hand 1:")])
def test_after_ctrl_z_and_fg_the_question_is_asked_again(ok, db_path, command, question):
    """After Ctrl-Z and `fg` the shell's own lines stood under the question, and play (or undo's yes/no)
    waited on an empty line as if nothing had been asked."""
    import select
    import subprocess
    import sys
    import time

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "3", "20")
    leader, follower = os.openpty()
    env = dict(os.environ, GINSCORE_DB=str(db_path), COLUMNS="80")
    # in a process group of its own, as a shell starts a command: a Ctrl-Z stops it
    asking = subprocess.Popen([sys.executable, "-m", "ginscore", command], stdin=follower, stdout=follower,
                              stderr=follower, env=env, process_group=0)
    os.close(follower)

    def read_until(wanted: bytes) -> bytes:
        seen, deadline = b"", time.monotonic() + 30
        while not (wanted in seen and seen.endswith(b": ")) and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.5)[0]:
                seen += os.read(leader, 65536)
        return seen

    def reading_the_answer() -> None:
        # Python answers a signal that lands between writing the question and reading the answer only
        # at the next one: a gap of microseconds, which no person's Ctrl-Z hits but a test's can.
        stat, deadline = f"/proc/{asking.pid}/stat", time.monotonic() + 30
        while os.path.exists(stat) and time.monotonic() < deadline:
            with open(stat) as status:
                if status.read().rpartition(")")[2].split()[0] == "S":  # asleep: in its read
                    return
            time.sleep(0.01)

    try:
        assert question.encode() in read_until(question.encode())
        reading_the_answer()
        asking.send_signal(signal.SIGTSTP)
        os.waitid(os.P_PID, asking.pid, os.WSTOPPED | os.WNOWAIT)  # stopped, as the shell sees it
        asking.send_signal(signal.SIGCONT)  # `fg`
        again = read_until(question.encode())
        assert question.encode() in again, again
        os.write(leader, b":quit\n" if command == "play" else b"n\n")
        assert asking.wait(timeout=30) == 0
    finally:
        if asking.poll() is None:
            asking.kill()
            asking.wait()
        os.close(leader)
    assert ok("status", "--json").stdout.count('"hands_played": 1') == 1


def test_a_one_line_knock_by_whoever_sits_out_or_by_nobody_at_the_table_is_told_so(ok):
    """"cy 0" with Cy sitting out says Cy sits out (R22), "zed 0" that there is no such knocker; neither is
    read as a knocker who gave one count."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    out = " ".join(play(ok, "cy 0", "zed 0", "ann 0 22", "y").split())
    assert "Cy sits out this hand; Ann or Ben can knock (R22)" in out
    assert "no player 'zed 0'; say who knocked first: a name (Ann or Ben)" in out
    assert "that is one count" not in out
    assert hands(ok) == [("Ann", 0, 22, None)]


def test_an_answer_to_a_yes_no_question_that_is_neither_is_asked_again(ok, standard):
    out = play(ok, "ann", "4", "22", "maybe", "y")
    assert "answer y or n (or a command, like :back)" in out
    assert hands(ok) == [("Ann", 4, 22, None)]
