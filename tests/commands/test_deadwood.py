"""`ginscore deadwood`: the best melds and deadwood of ten or eleven cards."""

from __future__ import annotations

from tests.support import KNOCKER


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


def test_deadwood_without_melds_says_no_melds_once(ok):
    ten = ok("deadwood", "AS", "3D", "5H", "7C", "9S", "JD", "KH", "2C", "4H", "6S").stdout
    assert ten.startswith("No melds, unmatched A♠") and "Melds no melds" not in ten
    eleven = ok("deadwood", "AS", "3D", "5H", "7C", "9S", "JD", "KH", "2C", "4H", "6S", "8D").stdout
    assert "The rest has no melds, unmatched" in eleven and "Keep no melds" not in eleven
    melded = ok("deadwood", "AS", "2S", "3S", "7C", "9S", "JD", "KH", "2C", "4H", "6S").stdout
    assert melded.startswith("Melds [A♠ 2♠ 3♠], unmatched")


def test_a_big_gin_is_the_whole_answer_h2(ok):
    """Eleven cards that all meld are big gin and nothing else: no ten-card verdict follows it."""
    out = " ".join(ok("deadwood", "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S").stdout.split())
    assert out.startswith("Big gin: all 11 cards meld:") and out.endswith("deadwood 0 (H2).")
    assert "That is gin" not in out and "Melds" not in out and "knock" not in out


def test_no_deadwood_is_gin_and_one_point_up_to_the_limit_is_a_knock_r7_r11(ok):
    gin = ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH QH").stdout
    assert "That is gin (R11)." in gin and "knock" not in gin
    one = ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH AD").stdout
    assert "You can knock: 1 is within the knock limit of 10 (R7)." in one and "gin" not in one
    ten = ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH KD").stdout  # at most the knock limit (R7): 10 may knock
    assert "You can knock: 10 is within the knock limit of 10 (R7)." in ten


def test_a_rule_cited_is_never_left_alone_on_a_line(ok, monkeypatch):
    """At 80 columns big gin's sentence ended with "(H2)." on a line of its own."""
    monkeypatch.setenv("COLUMNS", "80")
    lines = ok("deadwood", "AS 2S 3S 4S 5H 5D 5C KH KD KC 5S").stdout.splitlines()
    assert lines[-1] == "deadwood 0 (H2)."


def test_eleven_cards_say_what_to_discard_then_what_to_keep(ok):
    """From eleven cards the answer is an instruction: the card to throw, then the ten to keep, melds and
    deadwood, each a sentence."""
    lines = ok("deadwood", KNOCKER + " kd").stdout.splitlines()
    assert lines[:2] == ["Discard K♦.", "Keep [7♥ 7♦ 7♣] [A♠ 2♠ 3♠] [9♥ 10♥ J♥], unmatched 2♦: deadwood 2."], lines


def test_eleven_cards_with_no_meld_say_the_rest_in_a_sentence(ok):
    """Nothing melds: the discard, then what the ten left come to, each line a sentence of its own."""
    lines = ok("deadwood", "AS", "3D", "5H", "7C", "9S", "JD", "KH", "2C", "4H", "6S", "8D").stdout.splitlines()
    assert lines[:2] == ["Discard K♥.", "The rest has no melds, unmatched A♠ 2♣ 3♦ 4♥ 5♥ 6♠ 7♣ 8♦ 9♠ J♦: deadwood 55."]


def test_ten_cards_that_all_meld_name_no_unmatched_cards(ok):
    """Gin's answer is its melds and deadwood 0: never an empty "unmatched" before the colon."""
    lines = ok("deadwood", "AS 2S 3S 7H 7D 7C 9H 10H JH QH").stdout.splitlines()
    assert lines == ["Melds [7♥ 7♦ 7♣] [A♠ 2♠ 3♠] [9♥ 10♥ J♥ Q♥]: deadwood 0.", "That is gin (R11)."], lines
