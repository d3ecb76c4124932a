"""Statistics summed from per-session counts equal statistics from replaying every hand.

``stats`` adds up ``session_counts`` so that a summary kept beside the facts
can stand in for replaying 100,000 hands. The reference below is
the straightforward replay of every hand, hand by hand across sessions (the
1.0 implementation); the two must agree on any history.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.core.scoring import BIG_GIN, GIN, KNOCK, UNDERCUT
from ginscore.core.stats import combine, combine_tallies, packed, running, session_counts, statistics, tally
from ginscore.core.replay import Draw, Standings, fold, replay

from .test_core_variants import legal_sessions
from .profiles import examples


def _blank() -> dict:
    return {
        "sessions": 0, "sessions_won": 0, "hollywood_games_won": 0, "hands": 0, "hands_won": 0,
        "gins": 0, "big_gins": 0, "knocks_won": 0, "undercuts_scored": 0, "undercuts_suffered": 0,
        "points": 0, "points_per_hand": 0.0, "avg_deadwood_knocking": None, "avg_deadwood_caught": None,
        "longest_run": 0,
        "_knocking": [], "_caught": [], "_run": 0,
    }


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def reference_statistics(all_standings: list[Standings]) -> dict:
    """``stats --json``: per player, and head to head for every pair who met.

    ``all_standings`` in the order played (oldest session first).
    """
    players: dict[str, dict] = {}  # by the name folded for case
    shown_as: dict[str, str] = {}  # the latest spelling of each name
    pairs: dict[tuple[str, str], dict] = {}

    def entry(name: str) -> dict:
        key = fold(name)
        shown_as[key] = name
        record = players.get(key)
        if record is None:
            record = players[key] = _blank()
        return record

    for standings in all_standings:
        if not standings.hands:  # a session with no hand yet is no session played: it counts nowhere
            continue
        facts = standings.facts
        for name in facts.players:
            record = entry(name)
            record["sessions"] += 1
            record["sessions_won"] += standings.winner == name
            if facts.variant == "hollywood":
                record["hollywood_games_won"] += sum(g.winner == name for g in standings.games)
        for a, b in ((a, b) for i, a in enumerate(facts.players) for b in facts.players[i + 1:]):
            key = tuple(sorted((fold(a), fold(b))))
            pair = pairs.setdefault(key, {"sessions": 0, "wins": {key[0]: 0, key[1]: 0}})
            pair["sessions"] += 1
            if standings.winner in (a, b):
                pair["wins"][fold(standings.winner)] += 1
        for result in standings.hands:
            roles = result.roles
            at_table = (roles.box, roles.captain) if roles is not None else facts.players  # R22
            for name in at_table:
                record = entry(name)
                record["hands"] += 1
                won = result.winner == name
                record["hands_won"] += won
                record["_run"] = record["_run"] + 1 if won else 0
                record["longest_run"] = max(record["longest_run"], record["_run"])
                if won:
                    record["points"] += result.points
            hand = result.hand
            if isinstance(hand, Draw):
                continue
            knocker, opponent = entry(hand.knocker), entry(result.opponent)
            outcome = result.outcome
            knocker["gins"] += outcome == GIN
            knocker["big_gins"] += outcome == BIG_GIN
            knocker["knocks_won"] += outcome == KNOCK
            knocker["undercuts_suffered"] += outcome == UNDERCUT
            opponent["undercuts_scored"] += outcome == UNDERCUT
            knocker["_knocking"].append(hand.knocker_deadwood)
            opponent["_caught"].append(hand.opponent_deadwood)

    for record in players.values():
        record["avg_deadwood_knocking"] = _mean(record.pop("_knocking"))
        record["avg_deadwood_caught"] = _mean(record.pop("_caught"))
        record.pop("_run")
        record["points_per_hand"] = round(record["points"] / record["hands"], 2) if record["hands"] else 0.0
    head_to_head = [
        {
            "players": [shown_as[a], shown_as[b]],
            "sessions": pair["sessions"],
            "wins": {shown_as[a]: pair["wins"][a], shown_as[b]: pair["wins"][b]},
        }
        for (a, b), pair in sorted(pairs.items())
    ]
    return {"players": {shown_as[key]: record for key, record in players.items()}, "head_to_head": head_to_head}


@settings(max_examples=examples(120), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(legal_sessions(), max_size=6))
def test_statistics_from_session_counts_equal_a_replay_of_every_hand(histories):
    all_standings = [replay(facts) for facts in histories]
    assert statistics(all_standings) == reference_statistics(all_standings)


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(legal_sessions(), min_size=1, max_size=4))
def test_session_counts_are_plain_json_and_sum_in_any_grouping(histories):
    import json

    counts = [session_counts(replay(facts)) for facts in histories]
    assert json.loads(json.dumps(counts)) == counts  # storable as they are
    assert combine(counts) == combine(json.loads(json.dumps(counts)))


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(legal_sessions(), st.sampled_from(["2026-01-01", "2026-02-01", None]),
                          st.integers(0, 3)), max_size=7))
def test_tallies_of_any_grouping_add_up_to_the_same_statistics(sessions):
    """The summary keeps a ``tally`` a part: grouped any way, started in any order
    (ties kept in the order added), they give what ``combine`` gives over the sessions played in order."""
    import json

    rows = []
    for n, (facts, started, group) in enumerate(sessions):
        row = packed(session_counts(replay(facts))) | {"created_at": started, "id": n + 1}
        rows.append((group, row))
    in_order = sorted((row for _, row in rows), key=lambda row: row["created_at"] or "")
    groups = [tally([row for g, row in rows if g == group]) for group in range(4)]
    found = combine_tallies(json.loads(json.dumps(groups)))
    assert found == combine(in_order)
    assert json.dumps(found) == json.dumps(combine(in_order))  # players in the order first played, too


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(legal_sessions(), st.sampled_from(["2026-01-01", "2026-02-01", "2026-03-01", None])),
                max_size=7), st.integers(0, 7))
def test_running_totals_continued_by_later_sessions_give_the_same_statistics(sessions, split):
    """`stats` keeps the ``running`` totals of every part but the newest and continues
    them with the newest part's sessions: the same statistics as every session in order, or None
    (then every tally is combined) when a later part holds a session played before the last one."""
    import json

    rows = [packed(session_counts(replay(facts))) | {"created_at": started, "id": n + 1}
            for n, (facts, started) in enumerate(sessions)]
    before, after = rows[:split], rows[split:]
    in_order = sorted(rows, key=lambda row: (row["created_at"] or "", row["id"]))
    start = json.loads(json.dumps(running([tally(before)])))  # kept in a file
    continued = combine_tallies([json.loads(json.dumps(tally(after)))], start=start)
    in_turn = all((a["created_at"] or "", a["id"]) > (b["created_at"] or "", b["id"]) for a in after for b in before)
    if in_turn:
        assert json.dumps(continued) == json.dumps(combine(in_order))  # the players in the order first played too
    else:
        assert continued is None
    assert combine_tallies([tally(before), tally(after)]) == combine(in_order)


def test_tallies_list_the_players_in_the_order_first_played_whatever_the_grouping():
    """A part written first may hold sessions played later (an import of an old evening):
    ``stats --json`` lists the players as ``combine`` does, in the order first played."""
    import json

    from ginscore.core.scoring import HouseRules
    from ginscore.core.replay import SessionFacts

    def row(players, started, n):
        facts = SessionFacts(name=f"s{n}", variant="standard", players=players, rules=HouseRules(),
                             first_dealer=players[0], created_at=started, hands=(Draw(),))  # played: a hand
        return packed(session_counts(replay(facts))) | {"created_at": started, "id": n}

    later = row(("Cy", "Dee"), "2026-03-01T20:00:00+00:00", 1)
    earlier = row(("Ann", "Ben"), "2026-01-01T20:00:00+00:00", 2)
    found = combine_tallies([tally([later]), tally([earlier])])
    assert list(found["players"]) == ["Ann", "Ben", "Cy", "Dee"]
    assert json.dumps(found) == json.dumps(combine([earlier, later]))
