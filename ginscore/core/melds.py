"""Best melds, deadwood and lay-offs from the cards themselves (R1-R3, R7, R8, H2). How the search works
(after Todd Neller's gin rummy framework): docs/performance.md. The order of its tries breaks
ties, so it is what a player sees: deadwood, sets of three, the set of four, runs shortest first.
It is written for speed first: a plain loop here is often quicker than the shorter way to say it
(benchmarks/settle_deals.py measures it).
"""

from itertools import combinations, product
from typing import NamedTuple

from ginscore.core.cards import Card, SUITS
from ginscore.core.errors import BadCard

_CARDS = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
_VALUE = [card.value for card in _CARDS]
_SUIT_BITS = 0x1FFF  # one suit's thirteen cards, ace low
_BIT = {card: 1 << i for i, card in enumerate(_CARDS)}  # a hand is a mask: bit suit * 13 + rank - 1
# the value of every combination of one suit's cards: four look-ups add up a hand (R1)
_SUIT_VALUE = [0]
for _value_of in _VALUE[:13]:
    _SUIT_VALUE += [total + _value_of for total in _SUIT_VALUE]
# Unmatched cards are shown by rank, then suit: ``_spread`` turns them into a rank-major mask, bit
# ``(rank - 1) * 4 + suit``, whose bits in order are the cards of ``_BY_RANK``.
_BY_RANK = sorted(_CARDS, key=lambda card: (card.rank, SUITS.index(card.suit)))
# One suit's ace to seven (its low seven bits) spread out to every fourth bit of a rank-major mask;
# ``_RANK_MAJOR_HIGH`` does the same for its eight to king (its high six bits).
_RANK_MAJOR = [0]
for _rank in range(7):
    _RANK_MAJOR += [spread | 1 << 4 * _rank for spread in _RANK_MAJOR]
_RANK_MAJOR_HIGH = [spread << 28 for spread in _RANK_MAJOR[:64]]
_RUN_STARTS = sum(0x7FF << 13 * s for s in range(4))  # ace to jack: a run of three can start there
_EVERY_SUIT = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one rank in all four suits


def _cards_of(mask: int) -> list[int]:
    """The bit numbers of ``mask``, lowest first: a hand's cards as their indexes in ``_CARDS`` (a rank-major
    mask's in ``_BY_RANK``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _value(mask: int) -> int:
    """What the cards of ``mask`` count as deadwood (R1, R3)."""
    return (_SUIT_VALUE[mask & _SUIT_BITS] + _SUIT_VALUE[mask >> 13 & _SUIT_BITS]
            + _SUIT_VALUE[mask >> 26 & _SUIT_BITS] + _SUIT_VALUE[mask >> 39])


def _meldable(mask: int) -> int:
    """The cards of ``mask`` that are in at least one meld it holds (R2)."""
    starts = mask & mask >> 1 & mask >> 2 & _RUN_STARTS
    runs = starts | starts << 1 | starts << 2
    s, h, d, c = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    ranks = s & h & d | s & h & c | s & d & c | h & d & c  # three or four of a rank
    return runs | mask & ranks * _EVERY_SUIT


def _melds_led_by(first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sets and the runs (R1, R2) whose lowest card is ``first``, in the order they are tried."""
    rank = first % 13
    others = [s * 13 + rank for s in range(first // 13 + 1, 4)]
    sets = [sum(1 << c for c in (first, *more)) for size in (2, 3) for more in combinations(others, size)]
    runs = [sum(1 << c for c in range(first, first + length)) for length in range(3, 14 - rank)]  # ace low, K high
    return tuple(sets), tuple(runs)


_SETS_LED_BY, _RUNS_LED_BY = zip(*(_melds_led_by(first) for first in range(52)))
_MELD_CARDS = {meld: tuple(_cards_of(meld)) for table in (_SETS_LED_BY, _RUNS_LED_BY) for melds in table
               for meld in melds}
_MELD_AS_CARDS = {meld: tuple(_CARDS[c] for c in cards) for meld, cards in _MELD_CARDS.items()}
_IS_SET = {meld: len({c % 13 for c in cards}) == 1 for meld, cards in _MELD_CARDS.items()}
# Melds as they are laid on the table: sets before runs, each by its lowest rank, then suit.
_LAID_ORDER = {meld: (not _IS_SET[meld], cards[0] % 13, cards[0]) for meld, cards in _MELD_CARDS.items()}


def _search(left: int, memo: dict) -> int:
    """Lowest deadwood of ``left`` (R3), kept as ``memo[left]``: (deadwood, the meld taken with the lowest
    card or 0 when it is deadwood, the cards left). Of equal choices the first tried stays."""
    known = memo.get(left)
    if known is not None:
        return known[0]
    low = left & -left
    first = low.bit_length() - 1
    after = left ^ low
    best, pick = _search(after, memo) + _VALUE[first], 0
    for meld in _SETS_LED_BY[first]:
        if meld & left == meld:
            dead = _search(left ^ meld, memo)
            if dead < best:
                best, pick, after = dead, meld, left ^ meld
    for meld in _RUNS_LED_BY[first]:
        if meld & left != meld:
            break  # a longer run holds this one
        dead = _search(left ^ meld, memo)
        if dead < best:
            best, pick, after = dead, meld, left ^ meld
    memo[left] = (best, pick, after)
    return best


class _Solver:
    """Best arrangements of sets of cards (masks), memoised on the cards left."""

    def __init__(self):
        self._memo: dict[int, tuple[int, int, int]] = {0: (0, 0, 0)}

    def best(self, cards: int) -> tuple[int, tuple[int, ...]]:
        """Lowest deadwood of ``cards`` and the arrangement (meld masks) shown for it."""
        meldable = _meldable(cards)
        memo = self._memo
        dead = _value(cards ^ meldable) + _search(meldable, memo)
        melds = []
        left = meldable
        while left:
            _, meld, left = memo[left]
            if meld:
                melds.append(meld)
        return dead, tuple(melds)

    def every_best(self, cards: int) -> tuple[int, list[tuple[int, ...]]]:
        """Lowest deadwood of ``cards`` and every arrangement that reaches it, the shown one first."""
        dead, _ = self.best(cards)
        return dead, self._ways(_meldable(cards), {0: [()]})

    def _ways(self, left: int, known: dict) -> list[tuple[int, ...]]:
        """Every best arrangement of ``left``, in the order of the tries."""
        found = known.get(left)
        if found is not None:
            return found
        memo = self._memo
        best = memo[left][0]
        low = left & -left
        first = low.bit_length() - 1
        found = []
        if _search(left ^ low, memo) + _VALUE[first] == best:
            found += self._ways(left ^ low, known)
        for meld in (*_SETS_LED_BY[first], *_RUNS_LED_BY[first]):
            if meld & left == meld and _search(left ^ meld, memo) == best:
                found += [(meld, *way) for way in self._ways(left ^ meld, known)]
        known[left] = found
        return found


def _layoff_options(meld: int, cards: int) -> list[tuple[int, ...]]:
    """What the opponent may lay off on one of the knocker's melds (R8), as cards in the order laid."""
    shown = _MELD_CARDS[meld]
    if _IS_SET[meld]:
        rank = shown[0] % 13
        missing = [s * 13 + rank for s in range(4) if not meld >> s * 13 + rank & 1]
        return [()] + [(c,) for c in missing if cards >> c & 1]
    low, high = shown[0], shown[-1]
    base = low - low % 13
    down, up = [], []
    card = low - 1
    while card >= base and cards >> card & 1:  # extend below, one after another
        down.append(card)
        card -= 1
    card = high + 1
    while card < base + 13 and cards >> card & 1:  # and above
        up.append(card)
        card += 1
    return [tuple(down[:d]) + tuple(up[:u]) for d in range(len(down) + 1) for u in range(len(up) + 1)]


class Spread(NamedTuple):
    """One player's cards as laid on the table."""

    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    deadwood: int


class CountedHand(NamedTuple):
    """A knocked hand counted from the cards: both players' spreads and the lay-offs (R7, R8, R9-R11, H2)."""

    knocker: Spread
    opponent: Spread  # the opponent's own melds and what stays unmatched after lay-offs
    layoffs: tuple[tuple[Card, int], ...]  # (card, index of the knocker's meld it went on)

    @property
    def knocker_deadwood(self) -> int:
        return self.knocker.deadwood

    @property
    def opponent_deadwood(self) -> int:
        return self.opponent.deadwood


def _spread(melds: tuple[int, ...], cards: int) -> Spread:
    """``cards`` laid out: the melds, sets before runs, then what is left by rank, then suit."""
    unmatched = cards
    for meld in melds:
        unmatched ^= meld
    rest = 0
    for suit in range(4):
        bits = unmatched >> 13 * suit
        rest |= (_RANK_MAJOR[bits & 0x7F] | _RANK_MAJOR_HIGH[bits >> 7 & 0x3F]) << suit
    loose = [_BY_RANK[bit] for bit in _cards_of(rest)]
    if len(melds) > 1:
        melds = sorted(melds, key=_LAID_ORDER.__getitem__)
    return Spread(
        melds=tuple(_MELD_AS_CARDS[m] for m in melds),  # each meld low to high
        unmatched=tuple(loose),
        deadwood=_value(unmatched),
    )


def _mask_of(cards: list[Card], size: int, who_has: str) -> int:
    """The cards as a mask, refused unless there are ``size`` of them, each a whole card given once;
    ``who_has`` starts the message about their number (``the knocker has``)."""
    if len(cards) != size:
        raise BadCard(f"{who_has} {len(cards)} card{'' if len(cards) == 1 else 's'}; a hand here is {size} cards")
    mask, twice = 0, None
    for card in cards:
        bit = _BIT.get(card)
        if bit is None:  # only a rank alone is no card of the deck; refused before a repeated card
            raise BadCard(f"'{card}' has no suit; every card needs one, like {card}h")
        if mask & bit and twice is None:
            twice = card
        mask |= bit
    if twice is not None:
        raise BadCard(f"{twice} is given twice; a deck has one of each card")
    return mask


def arrange(cards: list[Card]) -> Spread:
    """The best arrangement of a hand (R2, R3): lowest deadwood."""
    left = _mask_of(cards, len(cards), "")
    dead, melds = _Solver().best(left)
    return _spread(melds, left)


class Discard(NamedTuple):
    """Eleven cards after the draw: the best discard and what it leaves (R7, H2)."""

    discard: Card | None  # None on big gin: all eleven melded
    spread: Spread  # the ten cards kept (all eleven on big gin)
    big_gin: bool


_DISCARD_ORDER = [(-_VALUE[c], -(c % 13), c) for c in range(52)]  # ties: throw the higher card


def best_discard(cards: list[Card]) -> Discard:
    """Which card to throw from 11 for the lowest deadwood; big gin when all 11 meld (H2)."""
    left = _mask_of(cards, 11, "the hand has")
    solver = _Solver()
    dead, melds = solver.best(left)
    if dead == 0:
        return Discard(None, _spread(melds, left), True)
    in_order = sorted(_cards_of(left), key=_DISCARD_ORDER.__getitem__)
    card = min(in_order, key=lambda c: solver.best(left ^ 1 << c)[0])  # the first of equals
    kept = left ^ 1 << card
    return Discard(_CARDS[card], _spread(solver.best(kept)[1], kept), False)


def settle(knocker_cards: list[Card], opponent_cards: list[Card], *, big_gin: bool = False) -> CountedHand:
    """A knocked hand counted from the cards (R7, R8, R11, H2), best play on both sides: both spreads,
    their deadwood counts and the lay-offs."""
    knocker = _mask_of(knocker_cards, 11 if big_gin else 10, "the knocker has")
    opponent = _mask_of(opponent_cards, 10, "the opponent has")
    if knocker & opponent:
        twice = next(c for c in opponent_cards if knocker & _BIT[c])
        raise BadCard(f"{twice} is in both hands; a deck has one of each card")
    solver = _Solver()
    dead, arrangements = solver.every_best(knocker)
    if dead == 0:  # gin or big gin: no lay-offs (R8, R11, H2)
        _, own = solver.best(opponent)
        return CountedHand(_spread(arrangements[0], knocker), _spread(own, opponent), ())
    best = None
    for melds in arrangements:
        shown = sorted(melds, key=_LAID_ORDER.__getitem__)
        result = _best_layoffs(solver, shown, opponent)
        if best is None or result[0] > best[0][0]:  # the knocker lays the melds that leave the opponent the most
            best = (result, shown)
    (_, own, layoffs, left), shown = best
    return CountedHand(
        knocker=_spread(shown, knocker),
        opponent=_spread(own, left),
        layoffs=tuple((_CARDS[c], on) for on, cards in enumerate(layoffs) for c in cards),
    )


def _best_layoffs(solver: _Solver, melds: list[int], opponent: int):
    """The opponent's lowest deadwood over every legal set of lay-offs (R8), the first of equals: that
    deadwood, their own melds, the cards laid off on each of ``melds`` and the cards they keep."""
    options = [_layoff_options(m, opponent) for m in melds]
    best = None
    for choice in product(*options):
        laid = 0
        for cards in choice:
            for c in cards:
                laid |= 1 << c
        if laid.bit_count() != sum(map(len, choice)):
            continue  # one card cannot go on two melds
        left = opponent ^ laid
        dead, own = solver.best(left)
        if best is None or dead < best[0]:
            best = (dead, own, choice, left)
    return best
