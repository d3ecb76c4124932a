"""Replaying a session's hands: variants, games, roles and winners (R5-R25, H3-H5)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from ginscore.core.cards import parse_card
from ginscore.core.errors import BadHandAt, GameOver, IllegalKnock, NotInHand
from ginscore.core.replay import replay
from ginscore.core.session import draw_for_roles, Draw, Knock, Roles, SessionFacts
from tests.profiles import examples
from tests.support import legal_sessions, session


def test_r20_worked_example_exactly():
    facts = SessionFacts(
        name="r20", variant="hollywood", players=("Alexandra", "Bob"), first_dealer="Bob",
        hands=(
            Knock("Bob", 5, 15),  # Bob wins by 10: game 1
            Knock("Alexandra", 2, 20),  # Alexandra wins by 18: her game 1
            Knock("Bob", 2, 32),  # Bob wins by 30: games 1 and 2
            Knock("Bob", 6, 10),  # Bob wins by 4: games 1, 2 and 3
        ),
    )
    standings = replay(facts)
    assert [h.points for h in standings.hands] == [10, 18, 30, 4]
    assert [h.credited for h in standings.hands] == [(1,), (1,), (1, 2), (1, 2, 3)]
    assert [g.scores["Alexandra"] for g in standings.games] == [18, 0, 0]
    assert [g.scores["Bob"] for g in standings.games] == [44, 34, 4]


def test_r17_third_and_later_wins_count_in_all_three():
    st_ = replay(session("hollywood", hands=[Knock("Ann", 1, 2)] * 5))
    assert [g.scores["Ann"] for g in st_.games] == [5, 4, 3]


def test_r18_closed_game_gets_no_more_wins_and_shut_out_player_starts_in_game_2():
    hands = [Knock("Ann", 0, 75)]  # Ann 100 in game 1: game 1 closes at once
    hands += [Knock("Ben", 2, 12)]  # Ben never scored in game 1: his win goes to game 2 only
    hands += [Knock("Ben", 2, 12)]  # now games 2 and 3
    hands += [Knock("Ann", 2, 7)]  # Ann: game 2 (her first open), game 3? she was never in game 2 before
    standings = replay(session("hollywood", hands=hands))
    g1, g2, g3 = standings.games
    assert g1.winner == "Ann" and g1.scores == {"Ann": 100, "Ben": 0}
    assert g2.scores == {"Ann": 5, "Ben": 20}
    assert g3.scores == {"Ann": 0, "Ben": 10}
    assert [h.credited for h in standings.hands] == [(1,), (2,), (2, 3), (2,)]


def test_r18_games_close_separately_and_r19_series_winner_with_two_games():
    hands = [Knock("Ann", 0, 75)] * 3  # 100 a hand: game 1 after one, games 2 after two, 3 after three
    standings = replay(session("hollywood", hands=hands[:2]))
    assert [g.winner for g in standings.games] == ["Ann", "Ann", None]
    assert standings.winner == "Ann" and not standings.over  # docs/commands.md: winner as soon as two games are won
    assert standings.next_dealer == "Ann"
    standings = replay(session("hollywood", hands=hands))
    assert standings.over and standings.next_dealer is None
    with pytest.raises(BadHandAt) as error:
        replay(session("hollywood", hands=hands + [Knock("Ben", 1, 5)]))
    assert isinstance(error.value.error, GameOver)


def test_r19_series_split_two_to_one():
    # 100 a hand: Ann closes game 1; Ben, shut out of it, starts in game 2 and closes it;
    # Ann's next win goes to game 3, the first open one.
    hands = [Knock("Ann", 0, 75), Knock("Ben", 0, 75), Knock("Ann", 0, 75)]
    standings = replay(session("hollywood", hands=hands))
    assert [h.credited for h in standings.hands] == [(1,), (2,), (3,)]
    assert [g.winner for g in standings.games] == ["Ann", "Ben", "Ann"]
    assert standings.winner == "Ann" and standings.over


def test_r5_winner_deals_next_and_draw_keeps_dealer():
    standings = replay(session(hands=[Knock("Ben", 3, 10), Draw(), Knock("Ben", 9, 4)]))
    assert [h.dealer for h in standings.hands] == ["Ann", "Ben", "Ben"]
    assert standings.next_dealer == "Ann"  # undercut: Ann won hand 3 (R13)


def test_r12_draw_scores_nothing():
    standings = replay(session(hands=[Draw(), Draw()]))
    assert standings.totals == {"Ann": 0, "Ben": 0}
    assert all(h.winner is None and h.points is None for h in standings.hands)


def test_r14_first_to_target_wins_and_hands_after_are_refused():
    standings = replay(session(hands=[Knock("Ann", 0, 60), Knock("Ben", 0, 40), Knock("Ann", 0, 15)]))
    assert standings.totals == {"Ann": 125, "Ben": 65}
    assert standings.winner == "Ann" and standings.over and standings.next_dealer is None
    assert standings.final == {"Ann": 125, "Ben": 65}
    with pytest.raises(BadHandAt) as error:
        replay(session(hands=list(standings.facts.hands) + [Draw()]))
    assert error.value.number == 4 and isinstance(error.value.error, GameOver)


def test_h5_a_lower_target_ends_the_game_when_reached():
    standings = replay(session(hands=[Knock("Ann", 0, 10)], target=30))
    assert standings.winner == "Ann"


def test_r15_oklahoma_upcard_limit_refuses_knock_over_it():
    with pytest.raises(BadHandAt) as error:
        replay(session("oklahoma", hands=[Knock("Ann", 7, 20, upcard=parse_card("6h"))]))
    assert isinstance(error.value.error, IllegalKnock)
    ok = replay(session("oklahoma", hands=[Knock("Ann", 6, 20, upcard=parse_card("6h"))]))
    assert ok.totals["Ann"] == 14 and ok.hands[0].knock_limit == 6


def test_r15_oklahoma_needs_an_upcard():
    with pytest.raises(BadHandAt, match="upcard"):
        replay(session("oklahoma", hands=[Knock("Ann", 2, 20)]))


def test_r16_oklahoma_otherwise_standard_to_100():
    hands = [Knock("Ann", 0, 80, upcard=parse_card("K", rank_only=True))]
    assert replay(session("oklahoma", hands=hands)).winner == "Ann"


def test_h4_spades_double_needs_the_suit():
    with pytest.raises(BadHandAt, match="suit"):
        replay(session("oklahoma", hands=[Knock("Ann", 2, 20, upcard=parse_card("9", rank_only=True))], spades_double=True))
    standings = replay(session("oklahoma", hands=[Knock("Ann", 2, 20, upcard=parse_card("9s"))], spades_double=True))
    assert standings.totals["Ann"] == 36


def test_r21_draw_for_roles_highest_box_ties_redrawn():
    for seed in range(50):
        roles, drawn = draw_for_roles(("Ann", "Ben", "Cy"), random.Random(seed))
        ranks = {name: card.rank for name, card in drawn}
        assert len(set(ranks.values())) == 3
        assert ranks[roles.box] > ranks[roles.captain] > ranks[roles.out]


def test_r22_box_deals_and_sitter_out_cannot_knock():
    standings = replay(session("three", ("Ann", "Ben", "Cy"), hands=[Knock("Ben", 3, 9)]))
    assert standings.hands[0].dealer == "Ann"
    with pytest.raises(BadHandAt) as error:
        replay(session("three", ("Ann", "Ben", "Cy"), hands=[Knock("Cy", 3, 9)]))
    assert isinstance(error.value.error, NotInHand)


def test_r23_rotation_on_box_win_and_box_loss():
    players = ("Ann", "Ben", "Cy")  # Ann box, Ben captain, Cy out
    box_wins = replay(session("three", players, hands=[Knock("Ann", 3, 9)]))
    assert box_wins.roles == Roles("Ann", "Cy", "Ben")
    box_loses = replay(session("three", players, hands=[Knock("Ben", 3, 9)]))
    assert box_loses.roles == Roles("Ben", "Cy", "Ann")
    undercut_box_loses = replay(session("three", players, hands=[Knock("Ann", 9, 3)]))
    assert undercut_box_loses.roles == Roles("Ben", "Cy", "Ann")
    assert undercut_box_loses.next_dealer == "Ben"


def test_r24_sitter_out_never_scores_and_first_to_100_wins():
    players = ("Ann", "Ben", "Cy")
    hands = [Knock("Ann", 0, 50), Knock("Ann", 0, 50)]
    standings = replay(session("three", players, hands=hands))
    assert standings.totals == {"Ann": 150, "Ben": 0, "Cy": 0}
    assert standings.winner == "Ann" and standings.roles is None and standings.next_dealer is None


def test_r25_draw_changes_nothing_in_three_player():
    standings = replay(session("three", ("Ann", "Ben", "Cy"), hands=[Draw(), Draw()]))
    assert standings.roles == Roles("Ann", "Ben", "Cy")
    assert [h.dealer for h in standings.hands] == ["Ann", "Ann"]


def test_h3_game_bonus_box_bonus_and_shutout():
    hands = [Knock("Ann", 0, 50), Knock("Ann", 0, 50)]  # 75 + 75, Ben scored nothing
    standings = replay(session(hands=hands, game_bonus=100, box_bonus=20, shutout=True))
    assert standings.totals == {"Ann": 150, "Ben": 0}
    assert standings.final == {"Ann": (150 + 100 + 2 * 20) * 2, "Ben": 0}


def test_h3_box_bonus_counts_for_loser_and_no_shutout_when_loser_scored():
    hands = [Knock("Ben", 2, 7), Knock("Ann", 0, 95)]
    standings = replay(session(hands=hands, game_bonus=100, box_bonus=25, shutout=True))
    assert standings.final == {"Ann": 120 + 100 + 25, "Ben": 5 + 25}


def test_h3_hollywood_bonuses_per_game():
    # Ann gins for 30, 30, then 50: 110 in game 1 (closed, 3 wins), 80 in game 2, 50 in game 3.
    hands = [Knock("Ann", 0, 5), Knock("Ann", 0, 5), Knock("Ann", 0, 25), Knock("Ben", 0, 0)]
    standings = replay(session("hollywood", hands=hands, game_bonus=100, box_bonus=10))
    g1, g2, g3 = standings.games
    assert g1.winner == "Ann" and g1.scores == {"Ann": 110, "Ben": 0}
    assert g1.final == {"Ann": 110 + 100 + 3 * 10, "Ben": 0}
    assert g2.scores == {"Ann": 80, "Ben": 25} and g2.final is None  # Ben's gin: game 2, first open
    assert g3.scores == {"Ann": 50, "Ben": 0}
    assert g2.wins == {"Ann": 2, "Ben": 1}


def columns_by_the_rule_book(facts: SessionFacts, wins: list) -> tuple[list[dict], list]:
    """Each game's column and winner from the hands' winners and points alone, as R14 and R18 state
    it (with all three games open that is R17): a win goes to the first open game and to each later
    open game whose preceding game the winner had been credited in before this hand."""
    count = 3 if facts.variant == "hollywood" else 1
    columns, winners = [dict.fromkeys(facts.players, 0) for _ in range(count)], [None] * count
    been_in = [set() for _ in range(count)]
    for winner, points in wins:
        if winner is None:  # a draw (R12)
            continue
        open_games = [g for g in range(count) if winners[g] is None]
        to = open_games[:1] + [g for g in open_games[1:] if winner in been_in[g - 1]]
        for g in to:
            columns[g][winner] += points
            been_in[g].add(winner)
            if columns[g][winner] >= facts.rules.target:
                winners[g] = winner
    return columns, winners


@settings(max_examples=examples(150))
@given(legal_sessions())
def test_property_every_column_and_game_winner_is_the_rule_books(facts):
    st = replay(facts)
    columns, winners = columns_by_the_rule_book(facts, [(h.winner, h.points) for h in st.hands])
    assert [g.scores for g in st.games] == columns and [g.winner for g in st.games] == winners
    if facts.variant != "hollywood":
        assert st.totals == columns[0]
    if facts.variant == "three":
        for h in st.hands:
            assert h.winner != (h.roles.out if h.roles else None)  # R24


def test_r19_one_game_won_is_no_series_and_the_second_seat_can_win_two_to_one():
    one = replay(session("hollywood", hands=[Knock("Ann", 0, 75)]))  # game 1 closed (R18), Ann on 100
    assert one.games[0].winner == "Ann" and one.winner is None and not one.over
    st = replay(session("hollywood", hands=[Knock("Ann", 0, 75), Knock("Ben", 0, 75), Knock("Ben", 0, 75)]))
    assert [g.winner for g in st.games] == ["Ann", "Ben", "Ben"] and st.winner == "Ben"


def test_r18_r13_a_win_of_no_points_counts_as_a_win_in_hollywood():
    """An undercut scoring 0 (undercut bonus 0) still wins the hand: Ben's first win goes in game 1,
    so his next one goes in games 1 and 2 (R18), as a win with points would."""
    st = replay(session("hollywood", hands=[Knock("Ann", 5, 5), Knock("Ben", 2, 10)], undercut_bonus=0))
    assert st.hands[0].winner == "Ben" and st.hands[0].score.points == 0
    assert st.hands[1].credited == (1, 2)


def test_h3_a_shutout_is_scoring_nothing_not_winning_nothing():
    """Ben won a hand worth 0 points (an undercut, bonus 0) and so scored nothing: Ann's game is a
    shutout and her final doubles (H3)."""
    st = replay(session(hands=[Knock("Ann", 5, 5), Knock("Ann", 0, 75)], undercut_bonus=0, shutout=True))
    assert st.winner == "Ann" and st.final == {"Ann": 200, "Ben": 0}
