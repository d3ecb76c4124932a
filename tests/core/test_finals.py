"""How a session ended (``reports.finals``) agrees with its standings and settlement (H3, H7)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.core.replay import replay
from ginscore.core.stakes import settlement
from ginscore.core.reports import finals
from tests.profiles import examples
from tests.support import legal_sessions


@settings(max_examples=examples(150))
@given(legal_sessions(), st.integers(0, 100), st.integers(0, 25), st.booleans(),
       st.sampled_from(["0", "0.01", "0.005", "1", "2.5"]))
def test_property_finals_add_up_to_the_final_scores_and_the_settlement(facts, game_bonus, box_bonus, shutout, stake):
    """H3: each row's hand points and bonuses add up to its final, and a player's rows to the final
    `status` shows; H7: a player's nets add up to what the settlement moves for them."""
    rules = facts.rules._replace(game_bonus=game_bonus, box_bonus=box_bonus, shutout=shutout, stake=Decimal(stake))
    standings = replay(facts._replace(rules=rules))
    rows = finals(standings)
    assert [(r["game"], r["player"]) for r in rows] == [
        (g.number, p) for g in standings.games for p in facts.players]
    for row, game in zip(rows, (g for g in standings.games for _ in facts.players)):
        assert row["hand_points"] == game.scores[row["player"]]
        if game.final is None:
            assert row["result"] == "unfinished" and row["final"] is None and row["stake_net"] is None
            continue
        parts = row["hand_points"] + row["game_bonus"] + row["box_bonus"] + row["shutout_bonus"]
        assert parts == row["final"] == game.final[row["player"]]
        assert row["result"] == ("won" if game.winner == row["player"] else "lost")
        assert row["game_bonus"] == (game_bonus if game.winner == row["player"] else 0)
        # H3 from the hands: a box bonus for each hand won in this game, and a shutout doubles the
        # winner's final when nobody else scored in it
        won_here = sum(h.winner == row["player"] and game.number in h.credited for h in standings.hands)
        assert row["box_bonus"] == box_bonus * won_here
        others = [q for q in facts.players if q != row["player"]]
        shut_out = shutout and game.winner == row["player"] and not any(game.scores[q] for q in others)
        assert row["shutout_bonus"] == (row["hand_points"] + row["game_bonus"] + row["box_bonus"] if shut_out else 0)
    if standings.over:
        for p in facts.players:
            assert sum(r["final"] for r in rows if r["player"] == p) == standings.final[p]
    payments = settlement(standings)
    if payments is None:
        assert all(r["stake_net"] is None for r in rows)
        return
    for p in facts.players:
        moved = sum((x.amount for x in payments if x.payee == p), Decimal(0)) - \
            sum((x.amount for x in payments if x.payer == p), Decimal(0))
        assert sum(r["stake_net"] for r in rows if r["player"] == p) == moved
