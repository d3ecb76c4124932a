"""The meld solver against a slow reference: deadwood, best discard, lay-offs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.core import melds
from ginscore.core.cards import Card, parse_cards
from ginscore.core.errors import BadCard
from ginscore.core.melds import arrange, best_discard, settle
from tests.melds_reference import all_melds, ref_best, ref_settle
from tests.profiles import examples

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def test_r1_r2_the_solver_knows_the_329_melds_of_a_deck_and_no_other():
    table = {frozenset(cards) for cards in melds._MELD_AS_CARDS.values()}
    assert len(melds._MELD_AS_CARDS) == len(table) == 329  # 52 sets of three, 13 of four, 264 runs
    assert table == set(all_melds(DECK))


TRICKY = {
    # a card that could serve a set or a run: 7H in 7s or in 5-6-7H
    "set-or-run": ("5H 6H 7H 7S 7D KC QC JD 2S 9C", 5 + 6 + 10 + 10 + 10 + 2 + 9),  # the set leaves less
    "ace-low-run": ("AS 2S 3S KD KH KC QS JH 9D 4C", 10 + 10 + 9 + 4),
    "q-k-a-not-a-run": ("QS KS AS 2H 4D 6C 8C 10D JH 9S", 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 10 + 9),
    "four-of-a-kind-vs-run": ("5S 5H 5D 5C 4H 6H 3H 9S 9D 2C", None),
    "98-points": ("KS KH QD QC JS JH 10D 10C 9S 9H", 98),
    "gin": ("AS 2S 3S 4S 5H 5D 5C KH KD KC", 0),
}


@pytest.mark.parametrize("name", TRICKY)
def test_tricky_hands_match_the_reference(name):
    text, expected = TRICKY[name]
    cards = parse_cards(text)
    spread = arrange(cards)
    assert spread.deadwood == ref_best(cards)
    if expected is not None:
        assert spread.deadwood == expected
    melded = [c for m in spread.melds for c in m]
    assert sorted(melded + list(spread.unmatched)) == sorted(cards)  # every card once


def test_r2_four_of_a_kind_versus_a_run_through_it():
    # 3H 4H 5H 6H run + 5S 5D 5C set beats a four-of-a-kind of fives
    spread = arrange(parse_cards("5S 5H 5D 5C 4H 6H 3H 9S 9D 2C"))
    assert spread.deadwood == 9 + 9 + 2
    assert len(spread.melds) == 2


def test_r1_q_k_a_is_not_a_run():
    spread = arrange(parse_cards("QS KS AS 2H 4D 6C 8C 10D JH 9S"))
    assert spread.melds == ()


def test_r3_98_is_the_most_ten_cards_hold():
    assert arrange(parse_cards("KS KH QD QC JS JH 10D 10C 9S 9H")).deadwood == 98


def test_eleven_cards_best_discard_and_big_gin_h2():
    hand = best_discard(parse_cards("AS 2S 3S 4S 5H 5D 5C KH KD KC QD"))
    assert hand.discard == Card(12, "D") and hand.spread.deadwood == 0 and not hand.big_gin
    big = best_discard(parse_cards("AS 2S 3S 4S 5H 5D 5C KH KD KC 5S"))
    assert big.big_gin and big.discard is None and big.spread.deadwood == 0


def test_r8_layoffs_set_fourth_card_and_run_both_ends_one_after_another():
    s = settle(parse_cards("AS 2S 3S 7H 7D 7C 9H 10H JH 2D"), parse_cards("4S 5S 7S KS QS 8H 2C 3C 4C 6D"))
    assert s.knocker_deadwood == 2
    laid = {str(card) for card, _ in s.layoffs}
    assert laid == {"7S", "4S", "5S", "8H"}
    assert s.opponent_deadwood == 6 + 10 + 10


def test_r8_nothing_laid_off_on_gin():
    s = settle(parse_cards("AS 2S 3S 7H 7D 7C 9H 10H JH QH"), parse_cards("4S 5S 7S KS QS 8H 2C 3C 4C 6D"))
    assert s.knocker_deadwood == 0 and s.layoffs == ()
    assert s.opponent_deadwood == 4 + 5 + 7 + 10 + 10 + 8 + 6


def test_knocker_arrangement_among_equals_leaves_the_opponent_the_most():
    # J-Q-K of hearts as a run (KS KD unmatched) or KH KS KD as a set (JH QH
    # unmatched): 20 deadwood either way. The run would take the opponent's 10H
    # as a lay-off; the set takes nothing the opponent holds, so the knocker
    # spreads the set.
    knocker = parse_cards("JH QH KH KS KD 2C 3C 4C 6S 6H")
    opponent = parse_cards("10H 9S 2H 4D 6C 8D QS JD 3S AC")
    s = settle(knocker, opponent)
    assert s.knocker_deadwood == 32
    assert [str(c) for c in s.knocker.melds[0]] == ["KS", "KH", "KD"]
    assert [str(card) for card, _ in s.layoffs] == ["AC"]  # onto 2-3-4 of clubs only
    assert s.opponent_deadwood == 10 + 9 + 2 + 4 + 6 + 8 + 10 + 10 + 3
    assert (s.knocker_deadwood, s.opponent_deadwood) == ref_settle(knocker, opponent)


@pytest.mark.parametrize(
    "knocker, opponent, message",
    [
        ("AS 2S 3S", "4S 5S 7S KS QS 8H 2C 3C 4C 6D", "3 cards"),
        ("AS 2S 3S 7H 7D 7C 9H 10H JH 2D", "AS 5S 7S KS QS 8H 2C 3C 4C 6D", "in both hands"),
        ("AS AS 3S 7H 7D 7C 9H 10H JH 2D", "4S 5S 7S KS QS 8H 2C 3C 4C 6D", "twice"),
    ],
)
def test_bad_deals_are_refused(knocker, opponent, message):
    with pytest.raises(BadCard, match=message):
        settle(parse_cards(knocker), parse_cards(opponent))


deals = st.permutations(DECK).map(lambda deck: (deck[:10], deck[10:20], deck[20:31]))


@settings(max_examples=examples(150))
@given(deals)
def test_property_deadwood_matches_the_reference(deal):
    knocker, _, eleven = deal
    assert arrange(knocker).deadwood == ref_best(knocker)
    hand = best_discard(eleven)
    assert hand.spread.deadwood == min(ref_best([c for c in eleven if c != d]) for d in eleven)


@st.composite
def melded_deals(draw):
    """Random deals biased towards melds, so lay-offs really happen."""
    deck = list(draw(st.permutations(DECK)))
    suit = draw(st.sampled_from("SHDC"))
    low = draw(st.integers(1, 9))
    run = [Card(r, suit) for r in range(low, low + draw(st.integers(3, 5)))]
    rank = draw(st.integers(1, 13))
    same = [c for c in DECK if c.rank == rank and c not in run][:3]
    knocker = (run + same + [c for c in deck if c not in run + same])[:10]
    rest = [c for c in deck if c not in knocker]
    near = [c for c in rest if (c.suit == suit and c.rank in (low - 1, low + len(run))) or c.rank == rank]
    opponent = (near + [c for c in rest if c not in near])[:10]
    return knocker, opponent


@settings(max_examples=examples(60))
@given(melded_deals())
def test_property_settle_matches_the_reference_with_layoffs(deal):
    knocker, opponent = deal
    s = settle(knocker, opponent)
    assert (s.knocker_deadwood, s.opponent_deadwood) == ref_settle(knocker, opponent)
    shown = [c for m in s.opponent.melds for c in m] + list(s.opponent.unmatched) + [c for c, _ in s.layoffs]
    assert sorted(shown) == sorted(opponent)
