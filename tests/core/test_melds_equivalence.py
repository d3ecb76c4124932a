"""The meld solver against the previous one: the same results, the same refusals."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ginscore.core import melds
from ginscore.core.cards import Card
from ginscore.core.errors import BadCard
from tests import melds_previous as previous
from tests.melds_reference import all_melds
from tests.profiles import examples

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


MELDS = all_melds(DECK)


seeds = st.integers(0, 2**64 - 1)


def shuffled(cards, seed: int) -> list:
    """``cards`` in the order a seeded shuffle gives: as random as a drawn permutation, far cheaper to draw."""
    cards = list(cards)
    random.Random(seed).shuffle(cards)
    return cards


def crowded(deck: list[Card], suits: str, ranks: set[int]) -> list[Card]:
    """The deck with the cards of a few suits and ranks first: melds, ties and lay-offs abound."""
    return [c for c in deck if c.suit in suits and c.rank in ranks] + [
        c for c in deck if not (c.suit in suits and c.rank in ranks)]


@st.composite
def decks(draw):
    """A shuffled deck, half the time with a crowd of a few suits and ranks on top."""
    deck = shuffled(DECK, draw(seeds))
    if draw(st.booleans()):
        suits = "".join(draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=4, unique=True)))
        ranks = set(draw(st.lists(st.integers(1, 13), min_size=4, max_size=13, unique=True)))
        deck = crowded(deck, suits, ranks)
    return deck


@st.composite
def all_melded(draw, size: int):
    """``size`` cards that meld completely (gin with 10, big gin with 11), then the rest of the deck."""
    order = shuffled(range(len(MELDS)), draw(seeds))
    hand: set[Card] = set()
    for i in order:
        meld = MELDS[i]
        room = size - len(hand) - len(meld)
        if not meld & hand and (room == 0 or room >= 3):  # never two cards short: no meld is that small
            hand |= meld
        if len(hand) == size:
            break
    assume(len(hand) == size)
    rest = [c for c in shuffled(DECK, draw(seeds)) if c not in hand]
    return shuffled(sorted(hand), draw(seeds)), rest


def same_result(new, old, *args, **kwargs):
    """Both solvers give equal results, or refuse with the same words."""
    try:
        expected = old(*args, **kwargs)
    except BadCard as refused:
        try:
            new(*args, **kwargs)
        except BadCard as also:
            assert str(also) == str(refused)
            return
        raise AssertionError(f"the previous solver refused ({refused}), the new one did not")
    assert new(*args, **kwargs) == expected


@settings(max_examples=examples(1500))
@given(decks())
def test_settle_shows_what_the_previous_solver_showed(deck):
    knocker, opponent = deck[:10], deck[10:20]
    same_result(melds.settle, previous.settle, knocker, opponent)
    same_result(melds.settle, previous.settle, opponent, knocker)


@settings(max_examples=examples(1000))
@given(decks())
def test_arrange_and_best_discard_show_what_the_previous_solver_showed(deck):
    same_result(melds.arrange, previous.arrange, deck[:10])
    same_result(melds.best_discard, previous.best_discard, deck[:11])


@settings(max_examples=examples(400))
@given(all_melded(11))
def test_big_gin_and_its_discard_as_before_h2(deal):
    eleven, rest = deal
    same_result(melds.settle, previous.settle, eleven, rest[:10], big_gin=True)
    same_result(melds.best_discard, previous.best_discard, eleven)
    assert melds.best_discard(eleven).big_gin


@settings(max_examples=examples(400))
@given(all_melded(10))
def test_gin_lays_nothing_off_as_before_r8(deal):
    ten, rest = deal
    same_result(melds.settle, previous.settle, ten, rest[:10])
    assert melds.settle(ten, rest[:10]).layoffs == ()


cards_or_ranks = st.one_of(st.sampled_from(DECK), st.integers(1, 13).map(Card))


@settings(max_examples=examples(500))
@given(st.lists(cards_or_ranks, min_size=9, max_size=12), st.lists(cards_or_ranks, min_size=9, max_size=11),
       st.booleans())
def test_bad_deals_are_refused_with_the_same_words(knocker, opponent, big_gin):
    same_result(melds.settle, previous.settle, knocker, opponent, big_gin=big_gin)
    same_result(melds.best_discard, previous.best_discard, knocker)


def _tie_decided_by_layoffs(knocker: list[Card], opponent: list[Card]) -> bool:
    """Whether the knocker has equally good arrangements that leave the opponent different deadwood (R8)."""
    solver = previous._Solver()
    dead, ways = solver.every_best(frozenset(map(previous._index, knocker)))
    if dead == 0 or len(ways) < 2:
        return False
    them = frozenset(map(previous._index, opponent))
    return len({previous._best_layoffs(solver, previous._sorted_melds(w), them)[0] for w in ways}) > 1


def test_thousands_of_seeded_deals_as_before():
    rng = random.Random(2026)
    decided = gin = 0
    for n in range(6000):
        deck = rng.sample(DECK, 52)
        if n % 3 == 1:
            deck = crowded(deck, "".join(rng.sample("SHDC", rng.randint(1, 3))), set(rng.sample(range(1, 14), 6)))
        elif n % 3 == 2:  # three suits of a few ranks: sets and runs cross, ties abound
            deck = crowded(deck, "".join(rng.sample("SHDC", 3)), set(rng.sample(range(1, 14), rng.randint(3, 5))))
        knocker, opponent = deck[:10], deck[10:20]
        settled = melds.settle(knocker, opponent)
        assert settled == previous.settle(knocker, opponent), deck[:20]
        decided += _tie_decided_by_layoffs(knocker, opponent)
        gin += settled.knocker_deadwood == 0
    assert decided >= 30 and gin >= 30  # the sweep really reaches the tie-breaks and gin
