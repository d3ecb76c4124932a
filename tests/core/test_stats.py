"""`stats` figures worked out by hand for small sessions, and what must hold for any history.

The cache keeps per-session counts (``session_counts``) and sums of groups of sessions
(``tally``) instead of replaying every hand; any grouping must give the statistics of the
sessions in the order played.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.core.replay import replay
from ginscore.core.session import Draw, Knock, Roles, SessionFacts
from ginscore.core.scoring import HouseRules
from ginscore.core.stats import combine_tallies, packed, session_counts, tally
from tests.profiles import examples
from tests.support import statistics

EMPTY = {"sessions": 0, "sessions_won": 0, "hollywood_games_won": 0, "hands": 0, "hands_won": 0, "gins": 0,
         "big_gins": 0, "knocks_won": 0, "undercuts_scored": 0, "undercuts_suffered": 0, "points": 0,
         "points_per_hand": 0.0, "avg_deadwood_knocking": None, "avg_deadwood_caught": None, "longest_run": 0}


def session(players, *hands, variant="standard", target=100, started=None):
    """Replayed standings of a session: the first player deals first (three-player: box,
    captain, out in the order given)."""
    three = variant == "three"
    facts = SessionFacts(name="s", variant=variant, players=tuple(players), rules=HouseRules(target=target),
                         first_dealer=None if three else players[0], first_roles=Roles(*players) if three else None,
                         hands=hands, created_at=started)
    return replay(facts)


def combine(rows):
    """`stats --json` of these packed rows, played in the order given: one tally of them all."""
    return combine_tallies([tally(rows)])


def knock(knocker, knocker_deadwood, opponent_deadwood):
    return Knock(knocker, knocker_deadwood, opponent_deadwood)


def test_one_evening_counted_by_hand():
    """A knock, a gin, a draw and an undercut (R9-R12)."""
    evening = session(("Ann", "Ben"), knock("Ann", 5, 20), knock("Ben", 0, 12), Draw(), knock("Ann", 8, 6))
    found = statistics([evening])
    assert found["players"] == {
        "Ann": EMPTY | {"sessions": 1, "hands": 4, "hands_won": 1, "knocks_won": 1, "undercuts_suffered": 1,
                        "points": 15, "points_per_hand": 3.75, "avg_deadwood_knocking": 6.5,
                        "avg_deadwood_caught": 12.0, "longest_run": 1},
        "Ben": EMPTY | {"sessions": 1, "hands": 4, "hands_won": 2, "gins": 1, "undercuts_scored": 1,
                        "points": 37 + 12, "points_per_hand": 12.25, "avg_deadwood_knocking": 0.0,
                        "avg_deadwood_caught": 13.0, "longest_run": 1},
    }
    assert found["head_to_head"] == [{"players": ["Ann", "Ben"], "sessions": 1, "wins": {"Ann": 0, "Ben": 0}}]


def test_a_run_of_wins_goes_on_into_the_next_session_and_a_draw_ends_it():
    win, loss = knock("Ann", 1, 9), knock("Ben", 2, 9)
    first = session(("Ann", "Ben"), loss, win, win)
    second = session(("Ann", "Ben"), win, win, win, loss)
    assert statistics([first, second])["players"]["Ann"]["longest_run"] == 5
    broken = session(("Ann", "Ben"), win, Draw(), win, win, loss)
    assert statistics([first, broken])["players"]["Ann"]["longest_run"] == 3


def test_the_sitter_out_plays_no_hand_in_three_player():
    """R21-R23: Ann in the box wins and stays; Cy captains and goes gin; Cy is then in the box."""
    table = session(("Ann", "Ben", "Cy"), knock("Ann", 4, 10), knock("Cy", 0, 15), Draw(), variant="three")
    players = statistics([table])["players"]
    assert {name: counts["hands"] for name, counts in players.items()} == {"Ann": 2, "Ben": 2, "Cy": 2}
    assert {name: counts["points"] for name, counts in players.items()} == {"Ann": 6, "Ben": 0, "Cy": 40}
    assert players["Ben"]["avg_deadwood_caught"] == 10.0 and players["Ann"]["avg_deadwood_caught"] == 15.0
    head_to_head = statistics([table])["head_to_head"]
    assert [(pair["players"], pair["sessions"]) for pair in head_to_head] == [
        (["Ann", "Ben"], 1), (["Ann", "Cy"], 1), (["Ben", "Cy"], 1)]


def test_hollywood_counts_the_games_and_the_series():
    """R17-R19: two gins of 30 win games 1 and 2 for Ann (she was not yet credited in game 2 when
    the second came), Ben's gin wins game 3; Ann wins the series."""
    series = session(("Ann", "Ben"), knock("Ann", 0, 5), knock("Ann", 0, 5), knock("Ben", 0, 5),
                     variant="hollywood", target=20)
    players = statistics([series])["players"]
    assert (players["Ann"]["hollywood_games_won"], players["Ben"]["hollywood_games_won"]) == (2, 1)
    assert (players["Ann"]["sessions_won"], players["Ben"]["sessions_won"]) == (1, 0)
    assert statistics([series])["head_to_head"][0]["wins"] == {"Ann": 1, "Ben": 0}


def test_a_session_without_hands_counts_nowhere():
    started = session(("Ann", "Cy"))
    played = session(("Ann", "Ben"), knock("Ann", 1, 9))
    found = statistics([played, started])
    assert list(found["players"]) == ["Ann", "Ben"] and found["players"]["Ann"]["sessions"] == 1
    assert [pair["players"] for pair in found["head_to_head"]] == [["Ann", "Ben"]]


def test_a_player_is_the_same_across_case_and_accents_shown_as_last_spelled():
    first = session(("ann", "Ben"), knock("ann", 1, 9))
    second = session(("Ánn", "ben"), knock("Ánn", 1, 9))
    found = statistics([first, second])
    assert list(found["players"]) == ["Ánn", "ben"]
    assert found["players"]["Ánn"]["sessions"] == 2 and found["players"]["Ánn"]["longest_run"] == 2
    assert found["head_to_head"] == [{"players": ["Ánn", "ben"], "sessions": 2, "wins": {"Ánn": 0, "ben": 0}}]


@st.composite
def played(draw):
    """A session of any variant but Oklahoma, its hands all legal; names from a small pool, in
    any case, so that players meet again across sessions."""
    variant = draw(st.sampled_from(["standard", "hollywood", "three"]))
    names = draw(st.permutations(["Ann", "Ben", "Cy", "Dee"]))[:3 if variant == "three" else 2]
    names = [name.lower() if draw(st.booleans()) else name for name in names]
    standings = session(names, variant=variant, target=draw(st.integers(20, 120)))
    told = st.tuples(st.integers(0, 2), st.integers(0, 10), st.integers(0, 40))
    for seat, knocker_deadwood, opponent_deadwood in draw(st.lists(told, max_size=25)):
        if standings.over:
            break
        at_table = [standings.roles.box, standings.roles.captain] if standings.roles else names
        hand = Draw() if seat == 2 else knock(at_table[seat], knocker_deadwood, opponent_deadwood)
        standings = replay(standings.facts._replace(hands=standings.facts.hands + (hand,)))
    return standings


@settings(max_examples=examples(120), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(played(), max_size=6))
def test_the_totals_are_the_sum_of_the_hands(history):
    found = statistics(history)["players"].values()
    decided = [result for standings in history for result in standings.hands if result.score is not None]
    assert sum(p["hands_won"] for p in found) == len(decided)
    assert sum(p["gins"] + p["big_gins"] + p["knocks_won"] + p["undercuts_scored"] for p in found) == len(decided)
    assert sum(p["undercuts_scored"] for p in found) == sum(p["undercuts_suffered"] for p in found)
    assert sum(p["points"] for p in found) == sum(result.points for result in decided)
    seats = 2 * sum(len(standings.hands) for standings in history)  # two play each hand (R22)
    assert sum(p["hands"] for p in found) == seats
    assert sum(p["sessions"] for p in found) == sum(len(s.facts.players) for s in history if s.hands)
    assert all(p["longest_run"] <= p["hands_won"] for p in found)


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(played(), min_size=1, max_size=4))
def test_session_counts_are_plain_json_and_add_up_to_the_statistics(history):
    counts = [session_counts(standings) for standings in history]
    assert json.loads(json.dumps(counts)) == counts  # kept in the summary as they are
    kept = [packed(one) | {"created_at": None, "id": n} for n, one in enumerate(json.loads(json.dumps(counts)))]
    assert combine(kept) == statistics(history)


def rows(sessions):
    """Packed counts of each session as the summary keeps them, with its start and place."""
    return [packed(session_counts(standings)) | {"created_at": started, "id": n + 1}
            for n, (standings, started) in enumerate(sessions)]


STARTS = st.sampled_from(["2026-01-01", "2026-02-01", "2026-03-01", None])


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(played(), STARTS, st.integers(0, 3)), max_size=7))
def test_tallies_of_any_grouping_give_the_statistics_of_the_sessions_in_order(sessions):
    kept = rows((standings, started) for standings, started, _ in sessions)
    groups = [tally([row for row, (*_, group) in zip(kept, sessions) if group == g]) for g in range(4)]
    in_order = sorted(kept, key=lambda row: row["created_at"] or "")
    found = combine_tallies(json.loads(json.dumps(groups)))
    assert json.dumps(found) == json.dumps(combine(in_order))  # the players in the order first played, too


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(played(), STARTS), max_size=7), st.integers(0, 7))
def test_sessions_kept_in_two_tallies_give_the_statistics_of_every_session_in_order(sessions, split):
    """Added in two parts, the later perhaps holding sessions played before the earlier's (an
    import of an old evening): the runs of wins still go on in the order played."""
    kept = rows(sessions)
    before, after = kept[:split], kept[split:]
    in_order = sorted(kept, key=lambda row: (row["created_at"] or "", row["id"]))
    parts = json.loads(json.dumps([tally(before), tally(after)]))
    assert json.dumps(combine_tallies(parts)) == json.dumps(combine(in_order))


def test_a_tally_written_first_may_hold_sessions_played_later():
    """An import of an old evening: the players are listed in the order first played."""
    later = rows([(session(("Cy", "Dee"), Draw()), "2026-03-01T20:00:00+00:00")])
    earlier = rows([(session(("Ann", "Ben"), Draw()), "2026-01-01T20:00:00+00:00")])
    found = combine_tallies([tally(later), tally(earlier)])
    assert list(found["players"]) == ["Ann", "Ben", "Cy", "Dee"]
    assert json.dumps(found) == json.dumps(combine(earlier + later))


def test_r19_a_series_won_two_games_to_none_is_a_session_won_before_game_3_ends():
    facts = SessionFacts(name="s", variant="hollywood", players=("Ann", "Ben"), first_dealer="Ann",
                         hands=(Knock("Ann", 0, 75), Knock("Ann", 0, 75)))
    st = replay(facts)
    assert st.winner == "Ann" and not st.over
    assert session_counts(st)["counts"]["Ann"]["sessions_won"] == 1
