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
