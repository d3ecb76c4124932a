"""Cards in, deadwood out through the real CLI (R2, R3, R7, R8, R15, H2)."""

from __future__ import annotations

import csv
import io

import pytest

KNOCKER = "AS 2S 3S 7H 7D 7C 9H 10H JH 2D"
OPPONENT = "4S 5S 7S KS QS 8H 2C 3C 4C 6D"


def test_deadwood_ten_cards_json(ok):
    doc = ok("deadwood", *KNOCKER.split(), "--json").json()
    assert doc["deadwood"] == 2 and doc["unmatched"] == ["2D"]
    assert sorted(map(sorted, doc["melds"])) == sorted(map(sorted, [["AS", "2S", "3S"], ["7H", "7D", "7C"],
                                                                      ["9H", "10H", "JH"]]))
    assert "discard" not in doc and doc["knock"] is True and doc["gin"] is False


def test_deadwood_eleven_cards_one_string_best_discard(ok):
    doc = ok("deadwood", KNOCKER + " kd", "--json").json()
    assert doc["discard"] == "KD" and doc["deadwood"] == 2
    out = ok("deadwood", KNOCKER + " kd", "--limit", "1").stdout
    assert "Discard K♦" in out and "No knock yet" in out


def test_deadwood_big_gin_h2(ok):
    doc = ok("deadwood", "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S", "--json").json()
    assert doc["big_gin"] is True and doc["discard"] is None and doc["deadwood"] == 0
    assert "Big gin" in ok("deadwood", "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S").stdout


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


def test_hand_big_gin_from_eleven_cards(ok, refused, status):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--big-gin-bonus", "31")
    eleven = "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S"
    refused("hand", "ann", "--cards", eleven, "--against", OPPONENT.replace("4S 5S", "4H 6S"), says="--big-gin")
    ok("hand", "ann", "--cards", eleven, "--against", "4H 6S 7S QS 8H 2C 3C 4C 6D 9D", "--big-gin")
    assert status()["totals"]["Ann"] == (4 + 6 + 7 + 10 + 8 + 6 + 9) + 31


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
