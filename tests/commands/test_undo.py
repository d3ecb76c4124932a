"""`ginscore undo`: the last hand removed."""

from __future__ import annotations

import os
import shutil

from tests.support import at_most_a_gibibyte


def test_undo_asks_and_yes_skips(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ann", "5", "20")
    out = ok("undo", input="n\n").stdout
    assert "Nothing removed" in out and status()["hands_played"] == 2
    out = ok("undo", input="y\n").stdout
    assert "Removed hand 2" in out and status()["hands_played"] == 1
    ok("undo", "--yes")
    assert status()["hands_played"] == 0 and status()["totals"] == {"Ann": 0, "Ben": 0}


def test_the_question_is_wrapped_at_words_on_a_narrow_screen(ok, monkeypatch):
    """undo, delete and rematch ask in lines that fit the screen, as play does, never cut mid-word."""
    ok("new", "standard", "Alexandrinaa", "Bartholomeww", "--dealer", "alex")
    ok("hand", "alex", "4", "22")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("undo", input="n\n").stdout.splitlines()
    assert lines[:4] == ["Remove hand 1: Alexandrinaa knocked", "with 4, Bartholomeww had 22: knock:",
                         "Alexandrinaa scores 22 - 4 = 18?", "[y/N]: n"]  # (the answer, as a terminal shows it)
    monkeypatch.setenv("COLUMNS", "160")
    assert ok("undo", input="n\n").stdout.startswith("Remove hand 1: Alexandrinaa knocked with 4, Bartholomeww had 22:")


def test_undo_just_after_a_rematch_says_how_to_reach_the_game_before(ok, refused, status):
    """A rematch started a moment too soon (Enter at "Play a rematch?"): the hand to take back is the
    finished game's, and undo says how, in play too (there as a shell command: another session)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "30", "--name", "friday")
    ok("hand", "ann", "0", "22")  # 47: the game is over (R14)
    ok("rematch", "--yes", "--name", "friday again")
    line = refused("undo", "--yes")
    assert line == ("Error: 'friday again' has no hands to undo; it is the rematch of 'friday': "
                    "`ginscore undo --session friday` removes that game's last hand")
    out = " ".join(ok("play", input=":undo\n:quit\n").stdout.split())
    assert "rematch of 'friday': `ginscore undo --session friday` removes" in out
    ok("undo", "--yes", "--session", "friday")
    assert status("--session", "friday")["hands_played"] == 0
    assert refused("undo", "--yes", "--session", "friday") == "Error: 'friday' has no hands to undo"
    ok("new", "standard", "Cy", "Di", "--dealer", "Cy")
    assert refused("undo", "--yes") == "Error: 'standard-1' has no hands to undo"


def test_a_question_keeps_each_number_on_the_line_of_its_word(ok, monkeypatch):
    """As every sentence does (docs/commands.md): delete's "(Ann 18, Ben 0)?" is never "Ben" / "0)?"."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "Friday at Ann's")
    ok("hand", "ann", "4", "22")
    monkeypatch.setenv("COLUMNS", "80")
    lines = ok("delete", input="n\n").stdout.splitlines()
    assert lines[:2] == ["Delete 'Friday at Ann's': Standard, Ann v Ben, 1 hand, in play (Ann 18,", "Ben 0)? [y/N]: n"]
    monkeypatch.setenv("COLUMNS", "62")
    lines = ok("undo", input="n\n").stdout.splitlines()
    assert lines[:2] == ["Remove hand 1: Ann knocked with 4, Ben had 22: knock: Ann", "scores 22 - 4 = 18? [y/N]: n"]


def test_a_question_never_breaks_a_players_name(ok, monkeypatch):
    ok("new", "standard", "Mary Jane Lo", "Bob", "--dealer", "bob")
    ok("hand", "mary", "4", "22")
    monkeypatch.setenv("COLUMNS", "22")
    lines = ok("undo", input="n\n").stdout.splitlines()
    assert lines[:2] == ["Remove hand 1:", "Mary Jane Lo knocked"]
    out = ok("play", input="zzz\n:quit\n").stdout.splitlines()
    assert "Who knocked," in out and "Mary Jane Lo or Bob?" in out


def test_a_hand_recorded_elsewhere_while_undo_asks_is_never_the_one_removed(ok, cli, status, monkeypatch, db_path,
                                                                          tmp_path):
    """undo asked about hand 1; if another terminal records hand 2 before the answer, removing "the last
    hand" would remove one nobody was asked about: refused instead, both hands kept."""
    import ginscore.cli.commands.table as table

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    elsewhere = tmp_path / "elsewhere.json"  # what another terminal's `hand ben 0 30` makes of the file
    shutil.copy(db_path, elsewhere)
    ok("--db", str(elsewhere), "hand", "ben", "0", "30")

    def answered_while_another_records(question, *args, **kwargs):
        assert question.startswith("Remove hand 1: Ann knocked with 4")
        shutil.copy(elsewhere, db_path)  # recorded before the answer
        return True

    monkeypatch.setattr(table, "asked", answered_while_another_records)
    result = cli("undo")
    assert result.exit_code == 2 and "the session changed while you were asked" in result.stderr
    assert status()["hands_played"] == 2 and status()["totals"] == {"Ann": 18, "Ben": 55}


def test_no_answer_ends_the_questions_line_and_ctrl_c_there_stops_with_130(ok, cli, db_path):
    """The end of the input is no answer (exit 2); Ctrl-C is a stop before the change (exit 130, as the
    contract says of Ctrl-C). Either way the error starts a line of its own, not after "[y/N]: "."""
    import signal
    import subprocess
    import sys
    import time

    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    before = db_path.read_bytes()
    ran = cli("undo", input="")
    assert ran.exit_code == 2 and ran.stdout.endswith("[y/N]: \n")
    undo = subprocess.Popen([sys.executable, "-m", "ginscore", "undo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    shown, deadline = b"", time.monotonic() + 60
    while not shown.endswith(b"[y/N]: ") and time.monotonic() < deadline:  # asked: waiting for the answer
        said = os.read(undo.stdout.fileno(), 4096)
        if not said:
            break
        shown += said
    undo.send_signal(signal.SIGINT)
    rest, err = undo.communicate(timeout=60)
    assert undo.returncode == 130 and (shown + rest).endswith(b"[y/N]: \n")
    assert err.decode() == "Error: stopped; nothing was changed\n"
    assert db_path.read_bytes() == before


def test_undoing_the_hand_before_a_change_says_the_change_moves_to_it_h8(ok, status):
    """H8: a change agreed from the next hand, then the last hand undone: the agreed rules apply from the
    hand undone, to be played again. Retyping it scored it under them (the undercut bonus 30, the loser
    dealing) with nothing said; `undo` now says so, and that `edit` keeps the rules it was played with."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "2", "10")
    ok("hand", "ben", "3", "2")
    said = " ".join(ok("undo", "--yes").stdout.split())
    assert "will apply" not in said  # no change agreed: nothing to say
    ok("hand", "ben", "3", "2")
    ok("house", "--undercut-bonus", "30", "--deal", "loser", "--from-next")
    asked = " ".join(ok("undo", input="n\n").stdout.split())  # asked: said before the question
    assert asked.startswith("The house rules agreed from hand 3 on will apply from hand 2, as it is to be played "
                            "again (H8); `ginscore edit 2 ...` corrects it under the rules it was played with. "
                            "Remove hand 2:"), asked
    said = " ".join(ok("undo", "--yes").stdout.split())  # not asked: said once it is done
    assert said.startswith("Removed hand 2:") and "Removed hand 2: Ben knocked with 3, Ann had 2: undercut: Ann " \
        "scores 1 + 10 = 11. The house rules agreed from hand 3 on now apply from hand 2, to be played again (H8)." \
        in said, said
    ok("hand", "ben", "3", "2")
    assert status()["totals"] == {"Ann": 8 + 31, "Ben": 0}  # 1 + 30: as it said
    ok("hand", "ann", "0", "5")
    ok("house", "--gin-bonus", "20", "--from-next")
    out = ok("play", input=":undo\ny\n:quit\n").stdout  # play's :undo says it before its question too
    flat = " ".join(out.split())
    assert flat.index("will apply from hand 3") < flat.index("Remove hand 3:") < flat.index("now apply from hand 3")


def test_an_answer_read_from_a_stream_without_line_ends_is_no_answer(ok, db_path):
    """`ginscore undo < /dev/zero` read its answer without end: gigabytes of memory in seconds, never
    ending. A line past any answer's length is the end of the input: refused, exit 2, nothing removed."""
    import subprocess
    import sys

    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    before = db_path.read_bytes()
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run([sys.executable, "-m", "ginscore", "undo"], stdin=zeros, capture_output=True,
                              text=True, timeout=60, preexec_fn=at_most_a_gibibyte)
    assert done.returncode == 2 and done.stderr == ("Error: no answer, so nothing was removed; add --yes to remove "
                                                    "without asking\n"), done.stderr
    assert db_path.read_bytes() == before
