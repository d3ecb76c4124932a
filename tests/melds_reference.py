"""The brute-force reference (R1-R3, R8): every meld, every disjoint combination
of melds, every set of lay-offs; enumerate, never prune. Slow on purpose and
obviously right: the tests check ginscore.core.melds against it, and
benchmarks/settle_deals.py times the solver against it on the same deals.
"""

from __future__ import annotations

from itertools import combinations, product

from ginscore.core.cards import Card


def all_melds(cards):
    """Every set (3 or 4 of a rank) and every run (3+ in a row, one suit, ace low) in the cards."""
    cards = set(cards)
    melds = []
    for rank in range(1, 14):
        same = [c for c in cards if c.rank == rank]
        for size in (3, 4):
            melds += [frozenset(m) for m in combinations(same, size)]
    for suit in "SHDC":
        for low in range(1, 12):
            for high in range(low + 2, 14):
                run = {Card(r, suit) for r in range(low, high + 1)}
                if run <= cards:
                    melds.append(frozenset(run))
    return melds


def all_arrangements(cards):
    """Every collection of disjoint melds."""
    melds = all_melds(cards)
    found = []

    def grow(start, used, chosen):
        found.append(list(chosen))
        for i in range(start, len(melds)):
            if not (melds[i] & used):
                grow(i + 1, used | melds[i], chosen + [melds[i]])

    grow(0, frozenset(), [])
    return found


def deadwood_of(cards, melds):
    used = set().union(*melds) if melds else set()
    return sum(c.value for c in cards if c not in used)


def ref_best(cards):
    return min(deadwood_of(cards, a) for a in all_arrangements(cards))


def can_lay_off(laid, melds):
    """Whether exactly these cards can all be laid off on the knocker's melds (R8)."""
    laid = list(laid)

    def fits(card, meld):
        ranks = {c.rank for c in meld}
        if len(ranks) == 1:
            return card.rank in ranks
        return card.suit == next(iter(meld)).suit

    for targets in product(*[[i for i, m in enumerate(melds) if fits(c, m)] for c in laid]):
        ok = True
        for i, meld in enumerate(melds):
            extra = {c for c, t in zip(laid, targets) if t == i}
            if not extra:
                continue
            whole = set(meld) | extra
            if len({c.rank for c in meld}) == 1:
                ok = len(whole) <= 4
            else:
                ranks = sorted(c.rank for c in whole)
                ok = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
            if not ok:
                break
        if ok:
            return True
    return False


def ref_opponent(opponent, knocker_melds):
    best = None
    for size in range(len(opponent) + 1):
        for laid in combinations(opponent, size):
            if size and not can_lay_off(laid, knocker_melds):
                continue
            left = [c for c in opponent if c not in laid]
            dead = ref_best(left)
            best = dead if best is None else min(best, dead)
    return best


def ref_settle(knocker, opponent):
    arrangements = all_arrangements(knocker)
    low = min(deadwood_of(knocker, a) for a in arrangements)
    if low == 0:
        return 0, ref_best(opponent)
    best_for_knocker = [a for a in arrangements if deadwood_of(knocker, a) == low]
    return low, max(ref_opponent(opponent, a) for a in best_for_knocker)
