"""`ginscore hand`: a knocked hand, by counts or by cards, with its upcard and note."""

from __future__ import annotations

import pytest

from ginscore.core.scoring import limit_rule
from tests.support import HUGE, KNOCKER, OPPONENT


def test_a_hand_lacking_a_count_is_advised_for_the_session_it_was_typed_for(ok, refused):
    """The advice, typed as shown, records in the session named, not in the one current."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "t1")
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--name", "t2")
    refused("hand", "ann", "4", "--session", "T1", says="like `ginscore hand --session t1 ann 4 22`, or --cards")
    refused("hand", "ann", "4", "--session", "t2", says="like `ginscore hand ann 4 22`, or --cards")  # current
    refused("hand", "ann", "4", says="like `ginscore hand ann 4 22`, or --cards")
    ok("hand", "--session", "t1", "ann", "4", "22")  # the advice, typed
    assert [ok("status", "--json", "--session", name).json()["hands_played"] for name in ("t1", "t2")] == [1, 0]


def test_the_advised_hand_names_one_of_this_tables_players_who_may_knock_r22(ok, refused):
    """The example reads as the table's own: a name it has, in three-player not the one who sits out."""
    refused("hand", "gil", "4", says="there is no session yet; start one")  # an example would not work either
    refused("edit", "1", "gil", says="there is no session yet; start one")
    ok("new", "standard", "Gil", "Hal", "--dealer", "hal")
    refused("hand", "gil", "4", says="like `ginscore hand gil 4 22`, or --cards")
    ok("new", "three", "Ann Marie", "Gil", "Hal", "--box", "hal", "--captain", "gil")
    refused("hand", "4", "22", says="like `ginscore hand gil 4 22`, or --cards")  # Ann Marie sits out
    ok("hand", "gil", "4", "22")
    refused("hand", "4", "22", says='like `ginscore hand "ann marie" 4 22`, or --cards')  # now Hal does
    refused("edit", "1", "4", says="like `ginscore edit 1 gil 4 22`, or --cards")  # as in hand 1
    refused("edit", "1", "--cards", "2c", "--against", "3c", says="like `ginscore edit 1 gil --cards ...")
    refused("hand", "gi", "4", says="like `ginscore hand gi 4 22`, or --cards")  # who was typed, when they may
    refused("hand", "hal", "4", says="Hal sits out this hand; only Gil (box) and Ann Marie (captain) can knock (R22)")
    refused("edit", "1", "ann", says="Ann Marie sat out hand 1; only Hal (box) and Gil (captain) could knock it (R22)")


def test_the_advised_hand_is_within_its_knock_limit_and_keeps_what_was_typed_r15_h2_h4(ok, refused, db_path, cli):
    """Typed as shown, the advice must be taken: "4 22" was advised on a 3h upcard (a knock limit of 3, R15),
    under ace means gin (H4), and with --big-gin dropped (H2); a correction dropped the --upcard typed with it;
    a session damaged before the hand was advised a hand that then said the file was damaged (exit 1)."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--ace-means-gin", "--spades-double", "--target", "500",
       "--big-gin-bonus", "31")
    refused("hand", "ann", "--upcard", "3h", says="like `ginscore hand ann 3 22 --upcard 3h`, or --cards")
    refused("hand", "ann", "--upcard", "AS", says="like `ginscore hand ann 0 22 --upcard AS`, or --cards")
    refused("hand", "ann", "--upcard", "7", says="spade")  # a rank alone, under spades double (H4)
    refused("hand", "ann", "--big-gin", "--upcard", "8c", says="like `ginscore hand ann 0 22 --upcard 8c --big-gin`")
    ok("hand", "ann", "3", "22", "--upcard", "3h")
    refused("edit", "1", "ann", says="like `ginscore edit 1 ann 3 22`, or --cards")  # its own upcard, 3h
    refused("edit", "1", "ann", "--upcard", "2c", says="like `ginscore edit 1 ann 2 22 --upcard 2c`, or --cards")
    ok("hand", "ben", "2", "22", "--upcard", "9d")
    db_path.write_text(db_path.read_text().replace("knock|Ann|3|22|", "knock|Ann|13|22|"))  # past its limit of 3
    for args in (["hand", "ben"], ["edit", "2", "ben"]):
        said = cli(*args)
        assert said.exit_code == 1 and "whose hand 1 does not add up" in said.stderr, said.stderr
    refused("edit", "1", "ann", says="like `ginscore edit 1 ann 3 22`, or --cards")  # the one correction that mends it


def test_a_knocker_typed_wrong_or_big_gin_off_is_said_at_once_not_advised_another_hand_h2(ok, refused):
    """`hand zed` and `hand an` (Ann or Anna?) were advised "hand ann 4 22", which typed as shown recorded
    Ann's hand; `hand ann --big-gin` where big gin is off was advised a hand then refused for it (H2)."""
    ok("new", "standard", "Ann", "Anna", "--dealer", "ann")
    refused("hand", "zed", says="no player 'zed'; the players are Ann, Anna")
    refused("hand", "an", "4", says="'an' could be Ann or Anna; type more of the name")
    refused("hand", "ann", "--big-gin", says="this session plays no big gin (H2); leave out --big-gin")
    refused("hand", "anna", says="like `ginscore hand anna 4 22`, or --cards")


def test_the_advised_hand_keeps_what_the_hand_needs_r15(ok, refused):
    """Typed as shown, the example must do what it says: an Oklahoma hand keeps its upcard, and a finished
    game is said to be over rather than advised a hand it would refuse."""
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "ann", "--target", "10")
    refused("hand", "ben", "4", "--upcard", "8c", says="like `ginscore hand ben 4 22 --upcard 8c`, or --cards")
    refused("hand", "4", "22", says="like `ginscore hand ann 4 22 --upcard 7h`, or --cards")
    ok("hand", "ann", "4", "22", "--upcard", "7h")  # the example, typed: it ends the game (target 10)
    refused("hand", "ben", "4", says="the game 'oklahoma-1' is over: Ann won it; `ginscore rematch` starts the next")


def test_two_cards_laid_off_on_one_run_are_told_on_the_run_as_it_grows_r8(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("hand", "ann", "--cards", "AS 2S 3S 7H 7D 7C KH KD KC 2H",
             "--against", "4S 5S 9C 9D 9H QC QD QS 2D 3C").stdout
    assert "Ben lays off 4♠ on [A♠ 2♠ 3♠]" in out and "Ben lays off 5♠ on [A♠ 2♠ 3♠ 4♠]" in out
    assert "knock: Ann scores 5 - 2 = 3" in out and status()["totals"] == {"Ann": 3, "Ben": 0}


def test_hand_from_cards_scores_with_layoffs_r8(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("hand", "ann", "--cards", KNOCKER, "--against", OPPONENT).stdout
    assert "Ben lays off 7♠ on [7♥ 7♦ 7♣]" in out and "Ben lays off 8♥ on [9♥ 10♥ J♥]" in out
    assert "knock: Ann scores 26 - 2 = 24" in out
    assert status()["totals"] == {"Ann": 24, "Ben": 0}
    hand = ok("log", "--json").json()["hands"][0]
    assert hand["knocker_deadwood"] == 2 and hand["opponent_deadwood"] == 26
    assert hand["knocker_cards"].split() == KNOCKER.split()


def test_a_hand_told_as_cards_shows_each_players_spread_before_the_score_r8(ok):
    """The spreads are what the table checks the count against: the knocker's melds and deadwood, then the
    opponent's after the lay-offs (R8), each on its own line before the score."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    lines = ok("hand", "ann", "--cards", KNOCKER, "--against", "KS KH KD QC JC 10C 9C 5D 4D 6H").stdout.splitlines()
    assert lines[:3] == ["Ann spreads [7♥ 7♦ 7♣] [A♠ 2♠ 3♠] [9♥ 10♥ J♥], unmatched 2♦: deadwood 2",
                         "Ben spreads [K♠ K♥ K♦] [9♣ 10♣ J♣ Q♣], unmatched 4♦ 5♦ 6♥: deadwood 15",
                         "Recorded hand 1: Ann knocked with 2, Ben had 15: knock: Ann scores 15 - 2 = 13."], lines


def test_hand_from_cards_undercut_and_knock_over_limit(ok, refused, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann")
    refused("hand", "ann", "--cards", KNOCKER, "--against", OPPONENT, "--upcard", "AH", says="knock limit of 1")
    ok("hand", "ann", "--cards", KNOCKER, "--against", OPPONENT, "--upcard", "2H")
    assert status()["totals"]["Ann"] == 24


def test_hand_from_cards_gin_no_layoffs(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("hand", "ann", "--cards", "AS 2S 3S 7H 7D 7C 9H 10H JH QH", "--against", OPPONENT).stdout
    assert "lays off" not in out and "gin: Ann scores" in out
    assert status()["totals"]["Ann"] == (4 + 5 + 7 + 10 + 10 + 8 + 6) + 25


def test_eleven_cards_that_are_no_big_gin_say_to_give_the_ten_kept(ok, refused, tmp_path):
    """What to do is said once, never in a loop: --big-gin only where all 11 meld in a session that plays big
    gin (H2); else the 10 kept after the discard, with the deadwood of the 11 where --big-gin was given."""
    against = ("--against", "KS KH QD 8C JS JH 10D 10H 9S 9H")
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    refused("hand", "ann", "--cards", "AS 2S 3S 4S 5H 5D 5C 9C 10C JC KD", *against, "--big-gin",
            says="big gin melds all 11 cards, but Ann's leave 10 deadwood (H2); give the 10 cards Ann kept after "
                 "the discard, without --big-gin")
    line = refused("hand", "ann", "--cards", "AS 2S 3S 4S 5H 5D 5C 9C 10C JC KD", *against,
                   says="the knocker has 11 cards: give the 10 cards Ann kept after the discard (H2)")
    assert "--big-gin" not in line
    refused("hand", "ann", "--cards", "AS 2S 3S 4S 5H 5D 5C 9C 10C JC QC", *against,
            says="Ann's 11 cards all meld: add --big-gin for a big gin (H2), or give the 10 cards Ann kept")
    other = ("--db", str(tmp_path / "other.json"))
    ok(*other, "new", "standard", "Ann", "Ben", "--dealer", "Ann")  # no big gin played here
    assert "--big-gin" not in refused(*other, "hand", "ann", "--cards", "AS 2S 3S 4S 5H 5D 5C 9C 10C JC QC", *against,
                                      says="give the 10 cards Ann kept after the discard")


def test_hand_big_gin_from_eleven_cards(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    eleven = "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S"
    refused("hand", "ann", "--cards", eleven, "--against", OPPONENT.replace("4S 5S", "4H 6S"), says="--big-gin")
    ok("hand", "ann", "--cards", eleven, "--against", "4H 6S 7S QS 8H 2C 3C 4C 6D 9D", "--big-gin")
    assert status()["totals"]["Ann"] == (4 + 6 + 7 + 10 + 8 + 6 + 9) + 31


def test_a_big_gin_bonus_of_0_plays_big_gin_for_the_deadwood_alone_h1_h2(ok, status):
    """H1, H2: a bonus is any whole number from 0; big gin with a bonus of 0 is still big gin, worth the
    opponent's deadwood and nothing more."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "0")
    out = ok("hand", "ann", "0", "23", "--big-gin").stdout
    assert "big gin: Ann scores 23 + 0 = 23" in out
    assert status()["totals"] == {"Ann": 23, "Ben": 0}  # Ben's 23 deadwood, no bonus


BAD = [
    (["hand", "ann", "--cards", KNOCKER], "give both hands"),
    (["hand", "ann", "--against", OPPONENT], "give both hands"),
    (["hand", "ann", "4", "22", "--cards", KNOCKER, "--against", OPPONENT], "not both"),
    (["hand", "ann", "--cards", "AS 2S 3S", "--against", OPPONENT], "3 cards"),
    (["hand", "ann", "--cards", KNOCKER, "--against", "4S 5S"], "2 cards"),
    (["hand", "ann", "--cards", KNOCKER, "--against", OPPONENT.replace("6D", "2D")], "in both hands"),
    (["hand", "ann", "--cards", KNOCKER.replace("2D", "AS"), "--against", OPPONENT], "twice"),
    (["hand", "ann", "--cards", KNOCKER.replace("2D", "1D"), "--against", OPPONENT], "not a card"),
    (["hand", "ann", "--cards", KNOCKER.replace("2D", "QS"), "--against", OPPONENT], "in both hands"),
    (["hand", "ann", "--cards", "AS 2S 3S 4S 5H 6H 8D 9C KH QC", "--against", "7S 8S 9S 10S JS 2C 3C 4C 6D 9D"],
     "knock limit of 10"),
    (["deadwood", "AS", "2S"], "10 cards"),
    (["deadwood", KNOCKER + " AS"], "twice"),
    (["deadwood", KNOCKER.replace("2D", "ZZ")], "not a card"),
    (["deadwood", KNOCKER, "--limit", "11"], "--limit"),
    (["deadwood", KNOCKER.replace("2D", "2")], "no suit"),
]


@pytest.mark.parametrize("args, says", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_cards_are_refused_and_nothing_written(ok, refused, args, says):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    refused(*args, says=says)


def test_r4_ten_cards_to_each_player_and_the_upcard_kept_with_the_hand(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    nine = " ".join(KNOCKER.split()[:9])
    refused("hand", "ann", "--cards", nine, "--against", OPPONENT, says="9 cards")
    refused("hand", "ann", "--cards", KNOCKER, "--against", OPPONENT + " 9D", says="11 cards")
    ok("hand", "ann", "--cards", KNOCKER, "--against", OPPONENT, "--upcard", "5h")
    assert ok("log", "--json").json()["hands"][0]["upcard"] == "5H"


def test_hand_prints_score_and_why(ok, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    out = ok("hand", "an", "4", "22").stdout
    assert "knock: Ann scores 22 - 4 = 18" in out
    assert "Ann deals next." in out
    out = ok("hand", "Ann", "8", "6").stdout
    assert "undercut: Ben scores 2 + 10 = 12" in out  # R10
    out = ok("hand", "BEN", "0", "31").stdout
    assert "gin: Ben scores 31 + 25 = 56" in out  # R11
    doc = status()
    assert doc["totals"] == {"Ann": 18, "Ben": 68} and doc["hands_played"] == 3
    assert doc["next_dealer"] == "Ben"


def test_oklahoma_upcard_limit_and_spades_double(ok, refused, status):
    ok("new", "oklahoma", "Ann", "Ben", "--dealer", "Ann", "--spades-double")
    refused("hand", "ann", "4", "20", says="upcard")
    refused("hand", "ann", "7", "20", "--upcard", "6h", says="knock limit of 6")
    out = " ".join(ok("hand", "ann", "6", "20", "--upcard", "6s").stdout.split())  # as words, however wrapped
    assert "Ann knocked with 6 on a 6♠ upcard" in out and "x 2 for the spade upcard = 28" in out
    assert status()["totals"]["Ann"] == 28
    for upcard, said in (("8d", "Ben knocked with 3 on an 8♦ upcard"), ("ah", "Ben went gin on an A♥ upcard")):
        out = " ".join(ok("hand", "ben", "3" if upcard == "8d" else "0", "20", "--upcard", upcard).stdout.split())
        assert said in out, out


def test_big_gin_h2(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    refused("hand", "ann", "3", "20", "--big-gin", says="but Ann has 3 deadwood (H2); leave out --big-gin for a knock")
    out = ok("hand", "ann", "0", "20", "--big-gin").stdout
    assert "big gin: Ann scores 20 + 31 = 51" in out
    assert status()["totals"]["Ann"] == 51


def test_a_hand_recorded_without_a_note_says_no_note_line(ok):
    """Only a hand given --note says "Note: ..." under it: one without is followed by the standings."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    for args in (["hand", "ann", "4", "22"], ["draw"], ["edit", "1", "ann", "5", "22"]):
        lines = ok(*args).stdout.splitlines()
        assert lines[1] == "standard-1 · Standard · Ann v Ben" and "Note:" not in "".join(lines), lines


def test_notes_on_hand_draw_and_edit(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "Note: Ben's | misdeal ; 100%\n" in ok("hand", "ann", "4", "22", "--note", "  Ben's | misdeal ; 100%  ").stdout
    ok("draw", "--note", "stock ran out")
    ok("hand", "ben", "3", "9")
    hands = ok("log", "--json").json()["hands"]
    assert [h["note"] for h in hands] == ["Ben's | misdeal ; 100%", "stock ran out", None]
    ok("edit", "1", "ann", "5", "22")  # no --note: the note is kept
    ok("edit", "3", "ben", "3", "9", "--note", "counted twice")  # a note added
    ok("edit", "2", "--draw", "--note", "")  # an empty note removes it
    hands = ok("log", "--json").json()["hands"]
    assert [h["note"] for h in hands] == ["Ben's | misdeal ; 100%", None, "counted twice"]
    assert hands[0]["knocker_deadwood"] == 5
    out = ok("log").stdout
    assert "hand 1: Ben's | misdeal ; 100%" in out and "hand 3: counted twice" in out


@pytest.mark.parametrize("note, says", [
    ("\x1b]0;pwned\x07", "cannot be shown"),
    ("bidi \u202e text", "cannot be shown"),
    ("x" * 201, "keep it to 200"),
])
def test_note_that_cannot_be_kept_is_refused(ok, refused, note, says):
    ok("new", "standard", "Ann", "Ben")
    ok("hand", "ann", "4", "22")
    line = refused("hand", "ann", "4", "22", "--note", note, says=says)
    assert "\x1b" not in line and "\u202e" not in line
    refused("draw", "--note", note, says=says)
    refused("edit", "1", "ann", "4", "22", "--note", note, says=says)


def test_a_note_of_two_hundred_characters_is_kept_whole(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    ok("hand", "ann", "4", "22", "--note", "x" * 200)
    assert ok("log", "--json").json()["hands"][0]["note"] == "x" * 200


def test_a_three_player_hands_note_is_kept_beside_who_sat_where(ok):
    """A note on a three-player hand is kept beside its box, captain and one out (H8), and every command
    after it reads the session."""
    ok("new", "three", "Ann", "Ben", "Cy", "--box", "ann", "--captain", "ben")
    ok("hand", "ann", "3", "20", "--note", "Cy's | first ; 100%")
    ok("hand", "cy", "2", "20")
    hands = ok("log", "--json").json()["hands"]
    assert [h["note"] for h in hands] == ["Cy's | first ; 100%", None]
    assert [h["roles"]["box"] for h in hands] == ["Ann", "Ann"]


def test_a_blank_note_is_no_note(ok):
    ok("new", "standard", "Ann", "Ben")
    ok("hand", "ann", "4", "22", "--note", "   ")
    assert ok("log", "--json").json()["hands"][0]["note"] is None


@pytest.mark.parametrize("typed", [["hand", "ann", "4", HUGE], ["hand", "ann", f"-{HUGE}", "4"]])
def test_a_typed_count_longer_than_any_count_is_refused(ok, refused, typed):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "5000 digits" in refused(*typed)


@pytest.mark.parametrize("variant, knocker, opponent", [("standard", "ann", "Ben"), ("three", "cy", "Ann")])
def test_a_count_no_ten_cards_hold_names_whose_it_is_r3(ok, refused, variant, knocker, opponent):
    """R3: 98 at most. The opponent is named as the knocker is (three-player: the box's opponent)."""
    ok("new", variant, "Ann", "Ben", *(["Cy", "--box", "ann", "--captain", "cy"] if variant == "three" else
                                      ["--dealer", "ann"]))
    assert f"{opponent}'s deadwood 99 is more than ten cards can hold" in refused("hand", knocker, "4", "99")
    assert f"{knocker.title()}'s deadwood 99 is more than ten cards" in refused("hand", knocker, "99", "4")


@pytest.mark.parametrize("variant, cited, not_cited", [("standard", "(R7)", "R15"), ("oklahoma", "(R15)", "R7")])
def test_the_knock_limit_refusal_cites_the_rule_of_the_variant(ok, refused, variant, cited, not_cited):
    ok("new", variant, "Ann", "Ben", "--dealer", "ann")
    line = refused("hand", "ann", "11", "30", "--upcard", "kh")
    assert cited in line and not_cited not in line, line
    assert limit_rule(variant) == cited.strip("()")


def test_a_standard_hand_names_no_upcard(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    assert "upcard" not in ok("hand", "ann", "4", "22", "--upcard", "7h").stdout


def test_one_hand_is_one_hand_not_one_hands(ok, cli, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "solo")
    ok("hand", "ann", "4", "22")
    backup = tmp_path / "solo.json"
    wrote = cli("export", "--format", "json", "--output", str(backup))
    assert wrote.exit_code == 0 and "Wrote 1 hand of 'solo'" in wrote.stderr
    assert "Imported 1 hand from" in ok("import", str(backup), "--as-copy").stdout
    assert "session 'solo', with its 1 hand;" in " ".join(ok("import", str(backup)).stdout.split())
    assert "1 hand," in ok("delete", "--yes").stdout  # the imported copy
    ok("use", "solo")
    refused("hand", "ann", "--cards", "AS", "--against", "2S 3S 4S 5S 6S 7S 8S 9S TS JS",
            says="the knocker has 1 card; a hand here is 10 cards")
    ok("hand", "ben", "2", "20")
    assert "Wrote 2 hands of" in cli("export", "--output", str(tmp_path / "two.csv")).stderr


def test_a_count_of_a_hundred_digits_is_read_and_one_more_digit_is_refused(ok, refused, status):
    """Leading zeros are a count's own (R3); a count longer than any is refused before Python reads it."""
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "0" * 99 + "4", "22")
    assert status()["totals"] == {"Ann": 18, "Ben": 0}
    refused("hand", "ann", "0" * 100 + "4", "22", says="has 101 digits")


@pytest.mark.parametrize(("variant", "what"), [("standard", "game"), ("hollywood", "series")])
def test_a_hand_after_the_end_names_what_ended_r14_r19(ok, refused, variant, what):
    ok("new", variant, "Ann", "Ben", "--dealer", "ann", "--target", "10")
    for _ in range(1 if variant == "standard" else 3):
        ok("hand", "ann", "0", "20")
    assert refused("hand", "ann", "4", "22") == (
        f"Error: the {what} '{variant}-1' is over: Ann won it; `ginscore rematch` starts the next one, Ann dealing "
        "first (H6)")  # the winner deals the next game, as the next hand (H6)


def test_a_name_shared_with_the_one_sitting_out_means_the_one_playing_r22(ok, refused):
    """Three-player: "ann" with Ann Marie sitting out can only mean Anna, who plays the hand (R22); it was
    refused as "could be Ann Marie or Anna". Where both play it is still asked for in full."""
    ok("new", "three", "Ann Marie", "Anna", "Cy", "--box", "anna", "--captain", "cy")  # Ann Marie sits out
    ok("hand", "ann", "3", "20")  # Anna, in the box, wins: Ann Marie and Cy swap (R23)
    ok("edit", "1", "ann", "2", "20")  # hand 1's roles, not those of the hand to come
    assert [(h["knocker"], h["knocker_deadwood"]) for h in ok("log", "--json").json()["hands"]] == [("Anna", 2)]
    refused("hand", "ann", "3", "20", says="'ann' could be Ann Marie or Anna")  # both play now
    out = ok("play", input="ann\nann m\n3\n20\ny\n:quit\n").stdout
    assert "could be Ann Marie or Anna" in out
    assert ok("log", "--json").json()["hands"][-1]["knocker"] == "Ann Marie"
    assert ok("status", "--json").json()["roles"]["out"] == "Anna"  # Ann Marie, captain, won: the box sits out (R23)
    out = ok("play", input="ann\n3\n20\ny\n:quit\n").stdout  # play reads "ann" as Ann Marie too
    assert ok("log", "--json").json()["hands"][-1]["knocker"] == "Ann Marie" and "could be" not in out


def test_a_name_shared_in_a_three_player_game_that_is_over_is_told_the_game_is_over(ok, refused):
    """Once the game is over no one sits out a next hand: "al" was refused as "could be Alex or Alice",
    where "alex" is told the game is over (R24)."""
    ok("new", "three", "Alex", "Alice", "Bob", "--box", "alex", "--captain", "bob", "--target", "10")
    ok("hand", "al", "0", "20")  # Alice sits out the first hand: Alex
    refused("hand", "al", "0", "20", says="the game 'three-1' is over: Alex won it; `ginscore rematch` starts the next one")


def test_a_hollywood_hand_credited_to_one_game_names_that_game_alone_r17(ok):
    """R20's first hand: Bob's first win goes into game 1 only, and the line says "in game 1", not
    "in games 1"."""
    ok("new", "hollywood", "Alexandra", "Bob", "--dealer", "Bob")
    said = " ".join(ok("hand", "bob", "5", "15").stdout.split())
    assert "Bob knocked with 5, Alexandra had 15: knock: Bob scores 15 - 5 = 10 in game 1." in said, said


def test_a_hollywood_hand_credited_to_all_three_games_names_them_r20(ok):
    """R20's fourth hand: Bob wins by 4, counted in his games 1, 2 and 3; the line names every game it
    went into, as a list is said."""
    ok("new", "hollywood", "Alexandra", "Bob", "--dealer", "Bob")
    for hand in (["bob", "5", "15"], ["alex", "2", "20"], ["bob", "0", "5"]):
        ok("hand", *hand)
    said = " ".join(ok("hand", "bob", "6", "10").stdout.split())
    assert "Bob knocked with 6, Alexandra had 10: knock: Bob scores 10 - 6 = 4 in games 1, 2 and 3." in said, said
