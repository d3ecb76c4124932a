"""Cards as typed at the table, and what they are worth (R1)."""

import re
from functools import lru_cache
from typing import NamedTuple

from ginscore.core.errors import BadCard

RANK_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
_RANKS_IN = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
SUITS = "SHDC"
_SUITS_IN = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
             "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = r"^(10|[2-9AaTtJjQqKk])(.?)$"  # re compiles it on first use, not at import
CARD_HELP = "a card is a rank A 2-10 T J Q K and a suit S H D C (or ♠ ♥ ♦ ♣), like 10h, QS or k♦"


class Card(NamedTuple):
    """One card: a rank 1-13, ace low, and a suit S H D C (None for an upcard typed as a rank alone)."""

    rank: int
    suit: str | None = None

    @property
    def value(self) -> int:
        """R1: ace 1, two to ten face value, J/Q/K 10."""
        return min(self.rank, 10)

    @property
    def rank_name(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    def __str__(self) -> str:
        return self.rank_name + (self.suit or "")

    @property
    def pretty(self) -> str:
        """The card as people read it: 10♥, Q♠."""
        return self.rank_name + (SUIT_SYMBOLS[self.suit] if self.suit else "")


@lru_cache(maxsize=512)
def parse_card(text: str, *, rank_only: bool = False) -> Card:
    """Read one card: ``10h``, ``QS``, ``k♦``, or ``Q`` when ``rank_only``. Cached: replaying stored
    hands reads the same few upcards again and again."""
    cleaned = text.strip().replace("\ufe0f", "").replace("\ufe0e", "")  # (a suit drawn as emoji, or as text)
    match = re.match(_CARD, cleaned)
    if not match:
        raise BadCard(f"'{text}' is not a card: {CARD_HELP}")
    rank = _RANKS_IN[match.group(1).upper()]
    suit_text = match.group(2)
    if not suit_text:
        if rank_only:
            return Card(rank)
        raise BadCard(f"'{text}' has no suit: {CARD_HELP}")
    suit = _SUITS_IN.get(suit_text.upper())
    if suit is None:
        raise BadCard(f"'{text}' has an unknown suit '{suit_text}': {CARD_HELP}")
    return Card(rank, suit)


def parse_cards(words: list[str] | str) -> list[Card]:
    """Read several cards, given as separate words or in one string."""
    if isinstance(words, str):
        words = [words]
    return [parse_card(piece) for word in words for piece in re.split(r"[\s,]+", word.strip()) if piece]
