"""The stake's settlement (H7): exact, and every balance adds up."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.core.replay import replay
from ginscore.core.stakes import game_payments, net, settlement
from tests.profiles import examples
from tests.support import legal_sessions


@st.composite
def finished_sessions(draw):
    facts = draw(legal_sessions())
    rules = facts.rules._replace(
        box_bonus=draw(st.sampled_from([0, 0, 5, 25])),
        game_bonus=draw(st.sampled_from([0, 100])),
        shutout=draw(st.booleans()),
        stake=draw(st.sampled_from([Decimal("0.01"), Decimal("0.0025"), Decimal("1"), Decimal("7.5")])),
        deal=draw(st.sampled_from(["winner"] if facts.variant == "three" else ["winner", "loser", "alternate"])),
    )
    return facts._replace(rules=rules)


@settings(max_examples=examples(200))
@given(finished_sessions())
def test_property_h7_settlement_is_exact_and_adds_up(facts):
    standings = replay(facts)
    payments = settlement(standings)
    if not standings.over:
        assert payments is None
        return
    stake = facts.rules.stake
    # What each player should end up receiving: every game, every loser against its winner (H7).
    due = {p: Decimal(0) for p in facts.players}
    for game in standings.games:
        for loser in facts.players:
            if loser != game.winner:
                owed = (game.final[game.winner] - game.final[loser]) * stake
                due[game.winner] += owed
                due[loser] -= owed
    received = {p: Decimal(0) for p in facts.players}
    pairs = set()
    for p in payments:
        assert isinstance(p.amount, Decimal) and p.amount > 0 and p.payer != p.payee
        assert frozenset((p.payer, p.payee)) not in pairs  # one payment per pair
        pairs.add(frozenset((p.payer, p.payee)))
        text = p.to_dict()["amount"]
        assert "E" not in text and Decimal(text) == p.amount
        received[p.payee] += p.amount
        received[p.payer] -= p.amount
    assert received == due and sum(received.values()) == 0
    if facts.variant != "hollywood":
        game = standings.games[0]
        for p in payments:
            assert p.amount == abs(game.final[p.payer] - game.final[p.payee]) * stake


@given(st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from("ABC"), st.integers(1, 10_000)), max_size=12))
def test_property_net_keeps_every_balance(moves):
    payments = [game_payments({a: 0, b: points}, b, Decimal("0.01"))[0] for a, b, points in moves if a != b]
    balance = {p: Decimal(0) for p in "ABC"}
    for p in payments:
        balance[p.payee] += p.amount
        balance[p.payer] -= p.amount
    netted = net(payments)
    after = {p: Decimal(0) for p in "ABC"}
    for p in netted:
        after[p.payee] += p.amount
        after[p.payer] -= p.amount
    assert after == balance
    assert len({frozenset((p.payer, p.payee)) for p in netted}) == len(netted)
