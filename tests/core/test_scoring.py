"""Scoring one hand: knock, undercut, gin, big gin and the house bonuses (R7-R13, H1-H4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginscore.core.cards import parse_card
from ginscore.core.errors import BadDeadwood, BadHand, BadSetting, IllegalKnock
from ginscore.core.scoring import MAX_SETTING, MAX_STAKE, HouseRules, is_doubled, knock_limit, parse_stake, score_hand

DEFAULT = HouseRules()


@pytest.mark.parametrize("knocker, opponent", [(-1, 10), (5, -3), (99, 10), (5, 99)])
def test_r3_impossible_deadwood_is_refused(knocker, opponent):
    with pytest.raises(BadDeadwood):
        score_hand(DEFAULT, knocker, opponent)


def test_r3_98_is_the_most_and_accepted():
    assert score_hand(DEFAULT, 10, 98).points == 88


def test_r7_knock_over_ten_is_refused():
    with pytest.raises(IllegalKnock):
        score_hand(DEFAULT, 11, 40)
    assert score_hand(DEFAULT, 10, 40).points == 30


def test_r9_knock_scores_the_difference():
    score = score_hand(DEFAULT, 4, 22)
    assert (score.outcome, score.knocker_wins, score.points) == ("knock", True, 18)


def test_r10_undercut_on_lower_count_scores_difference_plus_10():
    score = score_hand(DEFAULT, 8, 6)
    assert (score.outcome, score.knocker_wins, score.points) == ("undercut", False, 12)


def test_r10_undercut_on_equal_counts():
    score = score_hand(DEFAULT, 7, 7)
    assert (score.outcome, score.knocker_wins, score.points) == ("undercut", False, 10)


def test_r11_gin_scores_opponent_deadwood_plus_25():
    score = score_hand(DEFAULT, 0, 31)
    assert (score.outcome, score.knocker_wins, score.points) == ("gin", True, 56)


def test_r11_opponent_never_scores_on_gin_even_with_zero():
    score = score_hand(DEFAULT, 0, 0)
    assert (score.outcome, score.knocker_wins, score.points) == ("gin", True, 25)


def test_r13_zero_point_undercut_still_has_a_winner():
    rules = HouseRules(undercut_bonus=0)
    score = score_hand(rules, 5, 5)
    assert score.outcome == "undercut" and not score.knocker_wins and score.points == 0


def test_h1_the_chosen_gin_and_undercut_bonuses_are_scored():
    rules = HouseRules(gin_bonus=20, undercut_bonus=25)
    assert score_hand(rules, 0, 10).points == 30
    assert score_hand(rules, 9, 3).points == 31


def test_h2_big_gin_scores_its_own_bonus():
    rules = HouseRules(big_gin_bonus=31)
    score = score_hand(rules, 0, 12, big_gin=True)
    assert (score.outcome, score.points) == ("big-gin", 43)


def test_h2_big_gin_refused_when_off_or_with_deadwood():
    with pytest.raises(BadSetting):
        score_hand(DEFAULT, 0, 12, big_gin=True)
    with pytest.raises(BadHand):
        score_hand(HouseRules(big_gin_bonus=31), 3, 12, big_gin=True)


@pytest.mark.parametrize("upcard, limit", [("KS", 10), ("10h", 10), ("6d", 6), ("AC", 1), ("2h", 2)])
def test_r15_upcard_sets_the_knock_limit(upcard, limit):
    assert knock_limit("oklahoma", DEFAULT, parse_card(upcard)) == limit


def test_r15_other_variants_keep_ten():
    assert knock_limit("standard", DEFAULT, parse_card("2h")) == 10


def test_h4_ace_means_gin_limit_zero():
    assert knock_limit("oklahoma", HouseRules(ace_means_gin=True), parse_card("AH")) == 0
    with pytest.raises(IllegalKnock, match="only gin"):
        score_hand(DEFAULT, 1, 20, limit=0)


def test_h4_spades_double_whole_score_with_bonus():
    rules = HouseRules(spades_double=True)
    assert is_doubled("oklahoma", rules, parse_card("7s"))
    assert not is_doubled("oklahoma", rules, parse_card("7h"))
    assert not is_doubled("oklahoma", HouseRules(), parse_card("7s"))
    assert score_hand(rules, 0, 10, limit=7, doubled=True).points == 70
    assert score_hand(rules, 6, 4, limit=7, doubled=True).points == 24


def test_house_rules_that_cannot_be_are_refused_h1_h4_h5():
    with pytest.raises(BadSetting):
        HouseRules(target=0).check("standard")
    with pytest.raises(BadSetting):
        HouseRules(gin_bonus=-1).check("standard")
    with pytest.raises(BadSetting):
        HouseRules(spades_double=True).check("standard")
    with pytest.raises(BadSetting):
        HouseRules(ace_means_gin=True).check("hollywood")
    HouseRules(spades_double=True, ace_means_gin=True).check("oklahoma")


deadwood = st.integers(min_value=0, max_value=98)


@given(knocker=st.integers(0, 10), opponent=deadwood, gin=st.integers(0, 50), under=st.integers(0, 50))
def test_property_one_side_scores_never_negative(knocker, opponent, gin, under):
    rules = HouseRules(gin_bonus=gin, undercut_bonus=under)
    score = score_hand(rules, knocker, opponent)
    assert score.points >= 0
    if knocker == 0:
        assert score.knocker_wins and score.points == opponent + gin  # R11
    elif knocker < opponent:
        assert score.knocker_wins and score.points == opponent - knocker  # R9
    else:
        assert not score.knocker_wins and score.points == knocker - opponent + under  # R10


@given(knocker=st.integers(11, 98), opponent=deadwood)
def test_property_knock_over_ten_never_scores(knocker, opponent):
    with pytest.raises(IllegalKnock):
        score_hand(DEFAULT, knocker, opponent)


def test_h4_ace_means_gin_limits_an_ace_upcard_only_r15():
    """With the ace rule on, a 2 upcard still allows a knock of 2 (R15); only an ace allows gin alone."""
    rules = HouseRules(ace_means_gin=True)
    assert knock_limit("oklahoma", rules, parse_card("2h")) == 2
    assert knock_limit("oklahoma", rules, parse_card("Ah")) == 0


def test_h2_big_gin_with_a_single_point_of_deadwood_is_refused():
    with pytest.raises(BadHand):
        score_hand(HouseRules(big_gin_bonus=31), 1, 20, big_gin=True)


def test_h5_h7_the_largest_target_and_stake_are_taken_one_more_is_refused():
    assert MAX_SETTING == 1_000_000_000  # as docs/rules.md (H5) says
    HouseRules(target=MAX_SETTING).check("standard")
    with pytest.raises(BadSetting):
        HouseRules(target=MAX_SETTING + 1).check("standard")
    assert parse_stake(str(MAX_STAKE)) == MAX_STAKE
    with pytest.raises(BadSetting):
        parse_stake(str(MAX_STAKE + 1))


def test_h7_a_stake_of_a_million_a_point_is_taken_and_a_hundredth_of_a_cent_more_is_refused():
    """H7: ginscore takes a stake of up to 1,000,000 a point, as its refusal of a larger one says."""
    assert parse_stake("1000000") == 1_000_000
    with pytest.raises(BadSetting, match="more than 1000000 a point"):
        parse_stake("1000000.0001")  # the smallest step a stake has (4 decimals) above the largest
