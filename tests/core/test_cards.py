"""Cards: values, ranks, and how they are typed."""

from __future__ import annotations

import pytest

from ginscore.core.cards import Card, parse_card, parse_cards
from ginscore.core.errors import BadCard


@pytest.mark.parametrize(
    "text, value",
    [("AS", 1), ("2h", 2), ("9d", 9), ("10c", 10), ("Tc", 10), ("JS", 10), ("qh", 10), ("K♦", 10), ("k♦\ufe0f", 10), ("k♦\ufe0e", 10)],
)
def test_r1_card_values(text, value):
    assert parse_card(text).value == value


def test_r1_ace_is_low_rank_one():
    assert parse_card("a♠") == Card(1, "S")
    assert str(parse_card("10h")) == "10H"
    assert str(parse_card("t♥")) == "10H"


@pytest.mark.parametrize("suit, typed", [("S", "♠♤"), ("H", "♥♡"), ("D", "♦♢"), ("C", "♣♧")])
def test_every_suit_is_read_from_its_symbol_filled_or_outlined(suit, typed):
    """docs/commands.md: a suit is S H D C or ♠ ♥ ♦ ♣; the outlined ♤ ♡ ♢ ♧ are the same suits."""
    for symbol in typed:
        assert parse_card(f"10{symbol}") == Card(10, suit)
        assert parse_cards(f"A{symbol} 2{symbol}") == [Card(1, suit), Card(2, suit)]


@pytest.mark.parametrize("text", ["", "1S", "11h", "ZS", "QX", "Q S", "10", "QSS"])
def test_bad_cards_are_refused(text):
    with pytest.raises(BadCard):
        parse_card(text)


def test_rank_only_card_where_suit_does_not_matter():
    assert parse_card("q", rank_only=True) == Card(12, None)
    assert parse_card("7", rank_only=True).value == 7


def test_parse_cards_words_or_one_string():
    assert parse_cards(["AS 2S,3s", "kd"]) == [Card(1, "S"), Card(2, "S"), Card(3, "S"), Card(13, "D")]
