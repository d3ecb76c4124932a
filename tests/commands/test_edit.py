"""`ginscore edit`: a hand replaced, everything after it rescored, refused whole when a later hand
cannot stand."""

from __future__ import annotations

import csv
import io

import pytest

from tests.support import KNOCKER, OPPONENT


def test_edit_with_cards_and_export_import_keep_them(ok, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("edit", "1", "ann", "--cards", KNOCKER, "--against", OPPONENT)
    assert ok("status", "--json").json()["totals"]["Ann"] == 24
    text = ok("export").stdout
    row = list(csv.DictReader(io.StringIO(text)))[0]
    assert row["knocker_cards"].split() == KNOCKER.split() and row["knocker_deadwood"] == "2"
    (tmp_path / "b.csv").write_text(text)
    ok("--db", tmp_path / "o.json", "import", tmp_path / "b.csv")
    assert ok("--db", tmp_path / "o.json", "export").stdout == text
    backup = ok("export", "--format", "json").stdout
    assert KNOCKER.split()[0] in backup and "knocker_deadwood" not in backup  # facts as told: the cards


def test_a_correction_lacking_a_count_is_advised_for_its_hand_and_session(ok, refused):
    """Typed as shown, the advice corrects the hand given in the session named, not hand 3 of the current one."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "t1")
    ok("hand", "ann", "4", "22")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "t2")
    refused("edit", "1", "Ben", "2", "--session", "t1",
            says="like `ginscore edit --session t1 1 Ben 4 22`, or --cards and --against")
    refused("edit", "1", "--session", "t1", says="like `ginscore edit --session t1 1 ann 4 22`, or --draw")
    for _ in range(2):
        ok("hand", "ann", "4", "22", "--session", "t2")
    refused("edit", "2", "ann", "--session", "t2", says="like `ginscore edit 2 ann 4 22`, or --cards")  # current
    assert "Corrected hand 1" in ok("edit", "--session", "t1", "1", "ann", "4", "22").stdout  # the advice, typed


@pytest.mark.parametrize("args", [["ann", "4"], [], ["--cards", "2c", "--against", "3c"]], ids=["one count", "none",
                                                                                           "cards"])
def test_a_correction_of_a_hand_not_there_says_so_before_asking_for_its_counts(ok, refused, args):
    """`edit 99 ann 4` was advised `edit 99 ann 4 22`, which then said there is no hand 99."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    refused("edit", "99", *args, says="there is no hand 99 in 'standard-1' (it has 1); see `ginscore log`")


def test_a_session_damaged_by_hand_is_advised_a_correction_that_works(ok, refused, cli, db_path):
    """A hand edited in the file past the knock limit (R7): `edit` is how it is mended. A correction lacking
    its counts was advised "edit 99 ann 4 22" (no such hand) with a name not at the table."""
    ok("new", "standard", "Gil", "Hal", "--dealer", "gil")
    ok("hand", "gil", "4", "22")
    db_path.write_text(db_path.read_text().replace("knock|Gil|4|22|", "knock|Gil|14|22|"))
    assert cli("status").exit_code == 1  # damaged
    refused("edit", "99", "gil", says="there is no hand 99 in 'standard-1' (it has 1)")
    refused("edit", "1", "hal", says="like `ginscore edit 1 hal 4 22`, or --cards")
    ok("edit", "1", "gil", "4", "22")  # mended
    assert "Gil leads Hal by 18" in ok("status").stdout


def test_a_correction_before_a_hand_damaged_by_hand_is_advised_as_its_counts_would_be_refused(ok, refused, db_path):
    """Hand 2 edited in the file past its limit (R7): `edit 1 ann` exited 1 (the file is damaged) where
    `edit 1 ann 2 22` exits 2 (hand 2 could not stand after it). The correction may mend what follows it,
    so it is advised, and what it then says is the hand's own."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    ok("hand", "ben", "2", "30")
    db_path.write_text(db_path.read_text().replace("knock|Ben|2|30|", "knock|Ben|12|30|"))
    refused("edit", "1", "ann", says="like `ginscore edit 1 ann 4 22`, or --cards")
    refused("edit", "1", "ann", "4", "22", says="hand 2")


def test_edit_rescores_everything_after(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")  # Ann +18, deals next
    ok("hand", "ann", "5", "20")  # Ann +15
    out = ok("edit", "1", "ben", "4", "22").stdout
    assert "Corrected hand 1" in out
    doc = ok("log", "--json").json()
    assert [h["dealer"] for h in doc["hands"]] == ["Ann", "Ann"]  # Ann dealt hand 2: a fact, kept (H8)
    assert status()["totals"] == {"Ann": 15, "Ben": 18}
    ok("edit", "2", "--draw")
    assert status()["totals"] == {"Ann": 0, "Ben": 18}


def test_a_hand_made_a_draw_by_an_edit_claims_no_dealer_the_log_contradicts(ok):
    """R12 has a draw's dealer deal again, but the next hand was recorded as dealt by Ben: a fact (H8)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ben", "3", "20")  # Ben wins: Ben deals hand 2 (R5)
    ok("hand", "ann", "2", "30")
    assert "Corrected hand 1: drawn hand: nobody scores.\n" in ok("edit", "1", "--draw").stdout
    assert [h["dealer"] for h in ok("log", "--json").json()["hands"]] == ["Ann", "Ben"]
    # the last hand made a draw: its dealer does deal the next one
    assert "Corrected hand 2: drawn hand: nobody scores; Ben deals again (R12)." in ok("edit", "2", "--draw").stdout


def test_edit_refused_whole_when_a_later_hand_cannot_stand(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "50")
    ok("hand", "ann", "0", "10")  # 35
    ok("hand", "ben", "2", "12")  # 10
    refused("edit", "1", "ann", "0", "40", says="hand 2")  # would win the game at hand 1
    assert status()["totals"] == {"Ann": 35, "Ben": 10}


def test_edit_that_ends_a_finished_game_earlier_says_one_thing_to_do(ok, refused, status):
    """Not "the game is over; start another with `ginscore rematch`" and "undo or edit the later
    hands first" at once: the change makes the game end earlier, so the later hands would follow
    its end (R14): check the counts, or undo those hands. Editing them cannot help."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ben", "--name", "cards")
    for _ in range(4):
        ok("hand", "ben", "4", "30")  # Ben wins at hand 4 with 104
    line = refused("edit", "1", "ben", "4", "90", "--session", "cards")
    assert line == ("Error: refused: with that change Ben wins the game at hand 2, so hands 3 and 4 would come "
                    "after its end (R14); check the counts, or undo hands 3 and 4 first")
    assert "refused: with that change Ben wins the game at hand 3, so hand 4 would" in refused("edit", "3", "ben", "4", "90")
    assert status()["final"] == {"Ann": 0, "Ben": 104}


def test_edit_past_a_target_set_from_the_next_hand_says_to_check_the_counts_or_change_it(ok, refused, status):
    """H5, H8: the target 40 applies from hand 3, which is not played yet; an edit that puts Eli past it
    is refused, and there is no later hand to undo or edit: the way out is the counts or that target."""
    ok("new", "standard", "Eli", "Dora", "--dealer", "eli")
    ok("hand", "eli", "7", "26")
    ok("hand", "eli", "1", "11")  # Eli 29
    ok("house", "--target", "40", "--from-next")
    line = refused("edit", "2", "eli", "9", "50")  # Eli would have 60
    assert line == ("Error: refused: after that change the target 40 in force from hand 3 on is already reached: "
                    "Eli has 60, so the game would have ended before (H5, H8); check the counts, or first give "
                    "hand 3 on another target: `ginscore house --target N --from-next`")
    assert status()["totals"] == {"Eli": 29, "Dora": 0}
    ok("house", "--target", "100", "--from-next")
    ok("edit", "2", "eli", "9", "50")
    assert status()["totals"] == {"Eli": 60, "Dora": 0}


def test_edit_refused_when_the_knocker_sat_out_and_later_roles_kept(ok, refused):
    """The refusal names the hand corrected: the screen just before showed Ben captain of the next hand
    (R22, R23)."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "Ann", "--captain", "Ben")
    ok("hand", "ann", "2", "12")  # box wins: Cy captains, Ben out
    ok("hand", "ann", "2", "12")  # the box again
    said = refused("edit", "2", "ben", "2", "12")
    assert said == "Error: Ben sat out hand 2; only Ann (box) and Cy (captain) could knock it (R22)", said
    ok("edit", "1", "ben", "2", "12")  # hand 2 keeps the roles it was played with (H8)
    assert ok("log", "--json").json()["hands"][1]["roles"] == {"box": "Ann", "captain": "Cy", "out": "Ben"}


def test_edit_keeps_the_upcard_and_its_knock_limit_r15(ok, refused, status):
    ok("new", "oklahoma", "Mary", "Cy", "--dealer", "cy")
    ok("hand", "mary", "5", "30", "--upcard", "7d")  # hand 1: limit 7
    ok("hand", "mary", "2", "30", "--upcard", "3s")  # hand 2: limit 3
    ok("draw", "--upcard", "kh")  # hand 3

    def upcards():
        return [h["upcard"] for h in ok("log", "--json").json()["hands"]]

    out = " ".join(ok("edit", "1", "mary", "7", "3").stdout.split())  # no --upcard: 7D kept
    assert "Mary knocked with 7 on a 7♦ upcard, Cy had 3" in out
    refused("edit", "2", "mary", "4", "30", says="over this hand's knock limit of 3 (R15)")  # checked against 3S
    ok("edit", "2", "mary", "3", "30", "--upcard", "9c")  # a new upcard replaces it
    ok("edit", "3", "--draw")  # a drawn hand keeps its upcard too
    assert upcards() == ["7D", "9C", "KH"]
    refused("edit", "1", "mary", "7", "3", "--upcard", "", says="add --upcard")  # R15: Oklahoma needs one
    assert status()["totals"] == {"Mary": 27, "Cy": 14}


def test_edit_keeps_an_upcard_recorded_outside_oklahoma_and_empty_removes_it(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22", "--upcard", "5c")
    ok("edit", "1", "ann", "3", "22")
    assert ok("log", "--json").json()["hands"][0]["upcard"] == "5C"
    ok("edit", "1", "ann", "3", "22", "--upcard", "")
    assert ok("log", "--json").json()["hands"][0]["upcard"] is None


def test_edit_with_only_a_note_or_an_upcard_keeps_the_hand_as_told(ok, refused, db_path):
    """Adding a note to a hand (or correcting its upcard) needs no retyping of its counts or cards: the
    facts stay, the knock limit of a new upcard is checked as for any hand (R15)."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "--cards", "10C 10D 7S 8S 9D 10S JS 7D 8D 9S", "--against", "QS 5H JC 6H KS 4H 8H 6S 6D 9C",
       "--upcard", "kh")
    before = ok("log", "--json").json()["hands"][0]
    ok("edit", "1", "--note", "misdeal, redealt")
    after = ok("log", "--json").json()["hands"][0]
    assert after == before | {"note": "misdeal, redealt"}
    # a correction checks its count or upcard: "play on" is said only of a hand at the table
    refused("edit", "1", "--upcard", "3h", says="knock limit of 3 (R15); check the count or the upcard")
    out = " ".join(ok("play", input=":edit 1 --upcard 3h\n:quit\n").stdout.split())
    assert "knock limit of 3 (R15); check the count or the upcard" in out and "play on" not in out
    refused("hand", "ann", "4", "30", "--upcard", "3h", says="knock limit of 3 (R15); check the count or play on")
    ok("edit", "1", "--upcard", "js")
    assert ok("log", "--json").json()["hands"][0] == after | {"upcard": "JS"}
    refused("edit", "1", says="give the knocker and both deadwood counts")


def test_a_correction_over_the_knock_limit_outside_oklahoma_does_not_blame_the_upcard(ok, refused):
    """Outside Oklahoma the knock limit is always 10 (R7): no upcard could make 12 a knock, so the
    advice is to check the count, at the command line and in play."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22")
    said = refused("edit", "1", "ann", "12", "22")
    assert said.endswith("knock limit of 10 (R7); check the count"), said
    out = " ".join(ok("play", input=":edit 1 ann 12 22\n:quit\n").stdout.split())
    assert "knock limit of 10 (R7); check the count" in out and "upcard" not in out


def test_a_correction_by_cards_without_its_knocker_says_where_the_name_goes(ok, refused):
    """Cards given without who knocked: the name goes before --cards, which the advice shows, rather than
    asking for deadwood counts the person chose not to type."""
    ok("new", "oklahoma", "Cat", "Dan", "--dealer", "cat")
    ok("hand", "dan", "2", "20", "--upcard", "5h")
    said = refused("edit", "1", "--cards", "AS 2S 3S 4H 5H 6H 7C 8C 9C 2D", "--against", "KH KD KC QH JD 9S 8S 4C 5D 6D")
    assert said == "Error: give who knocked before --cards, like `ginscore edit 1 cat --cards ... --against ...`", said
    ok("edit", "1", "dan", "--cards", "AS 2S 3S 4H 5H 6H 7C 8C 9C 2D", "--against", "KH KD KC QH JD 9S 8S 4C 5D 6D")


def test_edit_just_after_a_rematch_says_how_to_reach_the_game_before(ok, refused, status):
    """A rematch started a moment too soon: the hand to correct is the finished game's, and edit says
    how, in play too (there as a shell command: another session)."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--target", "30", "--name", "friday")
    ok("hand", "ann", "0", "22")  # 47: the game is over (R14)
    ok("rematch", "--yes", "--name", "friday again")
    assert refused("edit", "1", "ben", "0", "20") == (
        "Error: there is no hand 1 in 'friday again' (it has 0); it is the rematch of 'friday': correct that "
        "game's hand 1 with `ginscore edit --session friday 1` and the hand's facts")
    out = " ".join(ok("play", input=":edit 1 ben 0 20\n:quit\n").stdout.split())
    assert "correct that game's hand 1 with `ginscore edit --session friday 1` and" in out
    assert refused("edit", "2", "ben", "0", "20") == (  # the game before has no hand 2 either
        "Error: there is no hand 2 in 'friday again' (it has 0); see `ginscore log`")
    ok("edit", "--session", "friday", "1", "ben", "0", "20")
    assert status("--session", "friday")["totals"] == {"Ann": 0, "Ben": 45}
