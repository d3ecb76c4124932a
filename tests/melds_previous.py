"""The meld solver as it was before the bitset rewrite (ginscore 1.0, melds.py), kept
verbatim as the oracle of the equivalence tests: the new solver must show the same
melds, lay-offs, discards and deadwood, tie-breaks included (R1-R3, R7, R8, H2).
Only the imports changed. Never edit the logic below.
"""

from __future__ import annotations

from typing import NamedTuple
from itertools import combinations, product

from ginscore.core.cards import Card
from ginscore.core.errors import BadCard

SUIT_ORDER = "SHDC"


def _index(card: Card) -> int:
    return SUIT_ORDER.index(card.suit) * 13 + card.rank - 1


_CARDS = [Card(rank, suit) for suit in SUIT_ORDER for rank in range(1, 14)]
_VALUE = [card.value for card in _CARDS]


def _card(index: int) -> Card:
    return _CARDS[index]


def _is_set(meld: tuple[int, ...]) -> bool:
    return len({i % 13 for i in meld}) == 1


def _melds_with(first: int, left: frozenset[int]) -> list[tuple[int, ...]]:
    """Every meld (R2) among ``left`` that contains ``first``, the lowest card left."""
    melds = []
    rank = first % 13
    same_rank = [s * 13 + rank for s in range(4) if s * 13 + rank in left and s * 13 + rank != first]
    for size in (2, 3):  # sets of three or four (R2)
        for others in combinations(same_rank, size):
            melds.append(tuple(sorted((first, *others))))
    # Runs of three or more in one suit, ace low (R1): ``first`` is the lowest
    # card left, so a run through it starts at it.
    suit_base = first - rank
    top = rank
    while top + 1 < 13 and suit_base + top + 1 in left:
        top += 1
        if top - rank >= 2:
            melds.append(tuple(range(first, suit_base + top + 1)))
    return melds


class _Solver:
    """Best arrangements of a set of cards, memoised on the cards left."""

    def __init__(self):
        self._all: dict[frozenset[int], tuple[int, list[tuple[tuple[int, ...], ...]]]] = {}

    def best(self, left: frozenset[int]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """Lowest deadwood of ``left`` and one arrangement (melds) that reaches it."""
        dead, ways = self.every_best(left)
        return dead, ways[0]

    def every_best(self, left: frozenset[int]) -> tuple[int, list[tuple[tuple[int, ...], ...]]]:
        """Lowest deadwood of ``left`` and every arrangement that reaches it."""
        if not left:
            return 0, [()]
        known = self._all.get(left)
        if known is not None:
            return known
        first = min(left)
        dead, ways = self.every_best(left - {first})
        best, found = dead + _VALUE[first], list(ways)
        for meld in _melds_with(first, left):
            dead, ways = self.every_best(left.difference(meld))
            if dead < best:
                best, found = dead, [(meld, *w) for w in ways]
            elif dead == best:
                found += [(meld, *w) for w in ways]
        self._all[left] = (best, found)
        return best, found


def _layoff_options(meld: tuple[int, ...], cards: frozenset[int]) -> list[tuple[int, ...]]:
    """What the opponent may lay off on one of the knocker's melds (R8)."""
    if _is_set(meld):
        if len(meld) == 4:
            return [()]
        rank = meld[0] % 13
        missing = [s * 13 + rank for s in range(4) if s * 13 + rank not in meld]
        return [()] + [(c,) for c in missing if c in cards]
    low, high = meld[0], meld[-1]
    base = low - low % 13
    down, up = [], []
    card = low - 1
    while card >= base and card in cards:  # extend below, one after another
        down.append(card)
        card -= 1
    card = high + 1
    while card < base + 13 and card in cards:  # and above
        up.append(card)
        card += 1
    return [tuple(down[:d]) + tuple(up[:u]) for d in range(len(down) + 1) for u in range(len(up) + 1)]


class Spread(NamedTuple):
    """One player's cards as laid on the table."""

    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    deadwood: int


class Settlement(NamedTuple):
    """A knocked hand settled from the cards (R7, R8, R9-R11, H2)."""

    knocker: Spread
    opponent: Spread  # the opponent's own melds and what stays unmatched after lay-offs
    layoffs: tuple[tuple[Card, int], ...]  # (card, index of the knocker's meld it went on)

    @property
    def knocker_deadwood(self) -> int:
        return self.knocker.deadwood

    @property
    def opponent_deadwood(self) -> int:
        return self.opponent.deadwood


def _spread(melds, cards: frozenset[int]) -> Spread:
    used = {c for meld in melds for c in meld}
    unmatched = sorted(cards - used, key=lambda c: (c % 13, c))
    return Spread(
        melds=tuple(tuple(_card(c) for c in m) for m in _sorted_melds(melds)),  # each meld low to high
        unmatched=tuple(_card(c) for c in unmatched),
        deadwood=sum(_VALUE[c] for c in unmatched),
    )


def _sorted_melds(melds):
    return sorted(melds, key=lambda m: (not _is_set(m), m[0] % 13, m[0]))


def _indices(cards: list[Card], want: tuple[int, ...], whose: str) -> frozenset[int]:
    if len(cards) not in want:
        counts = " or ".join(str(n) for n in want)
        raise BadCard(f"{whose} {len(cards)} cards; a hand here is {counts} cards")
    for card in cards:
        if card.suit is None:
            raise BadCard(f"'{card}' has no suit; every card needs one, like {card}h")
    twice = _repeated(cards)
    if twice:
        raise BadCard(f"{twice} is given twice; a deck has one of each card")
    return frozenset(_index(c) for c in cards)


def _repeated(cards: list[Card]) -> Card | None:
    """The first card that stands twice in ``cards``, if any."""
    seen = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    return None


def arrange(cards: list[Card]) -> Spread:
    """The best arrangement of a hand (R2, R3): lowest deadwood."""
    left = _indices(cards, (len(cards),), "")
    dead, melds = _Solver().best(left)
    return _spread(melds, left)


class Discard(NamedTuple):
    """Eleven cards after the draw: the best discard and what it leaves (R7, H2)."""

    discard: Card | None  # None on big gin: all eleven melded
    spread: Spread  # the ten cards kept (all eleven on big gin)
    big_gin: bool


def best_discard(cards: list[Card]) -> Discard:
    """Which card to throw from 11 for the lowest deadwood; big gin when all 11 meld (H2)."""
    left = _indices(cards, (11,), "the hand has")
    solver = _Solver()
    dead, melds = solver.best(left)
    if dead == 0:
        return Discard(None, _spread(melds, left), True)
    choices = []
    for card in sorted(left, key=lambda c: (-_VALUE[c], -(c % 13), c)):  # ties: throw the higher card
        kept = left - {card}
        dead, melds = solver.best(kept)
        choices.append((dead, card, melds, kept))
    dead, card, melds, kept = min(choices, key=lambda choice: choice[0])
    return Discard(_card(card), _spread(melds, kept), False)


def settle(knocker_cards: list[Card], opponent_cards: list[Card], *, big_gin: bool = False) -> Settlement:
    """Both deadwood counts of a knocked hand from the cards (R7, R8, R11, H2).

    The knocker keeps 10 cards (all 11 on big gin). Best play on both sides:
    the knocker's arrangement has the lowest deadwood and, among equal ones,
    leaves the opponent the most; the opponent's own melds plus lay-offs
    leave the lowest deadwood. Nothing is laid off on gin or big gin.
    """
    knocker = _indices(knocker_cards, (11,) if big_gin else (10,), "the knocker has")
    opponent = _indices(opponent_cards, (10,), "the opponent has")
    twice = _repeated(knocker_cards + opponent_cards)
    if twice:
        raise BadCard(f"{twice} is in both hands; a deck has one of each card")
    solver = _Solver()
    dead, arrangements = solver.every_best(knocker)
    if dead == 0:  # gin or big gin: no lay-offs (R8, R11, H2)
        _, own = solver.best(opponent)
        return Settlement(_spread(arrangements[0], knocker), _spread(own, opponent), ())
    best = None
    for melds in arrangements:
        result = _best_layoffs(solver, _sorted_melds(melds), opponent)
        if best is None or result[0] > best[0][0]:  # leave the opponent the most
            best = (result, melds)
    (left_dead, own, layoffs, left), melds = best
    shown = _sorted_melds(melds)
    return Settlement(
        knocker=_spread(shown, knocker),
        opponent=_spread(own, left),
        layoffs=tuple((_card(c), shown.index(m)) for m, cards in layoffs for c in cards),
    )


def _best_layoffs(solver: _Solver, melds, opponent: frozenset[int]):
    """The opponent's lowest deadwood over every legal set of lay-offs (R8)."""
    options = [_layoff_options(m, opponent) for m in melds]
    best = None
    for choice in product(*options):
        laid = [c for cards in choice for c in cards]
        if len(set(laid)) != len(laid):
            continue  # one card cannot go on two melds
        left = opponent.difference(laid)
        dead, own = solver.best(left)
        if best is None or dead < best[0]:
            best = (dead, own, tuple(zip(melds, choice)), left)
    return best
