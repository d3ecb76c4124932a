"""Statistics across sessions, worked out from the hands as told (an edit or undo changes them).
What each count means, where the rule book leaves it open: docs/commands.md, "Cards and statistics".
"""

from __future__ import annotations

from decimal import Decimal, ROUND_HALF_UP
from itertools import combinations
from operator import add

from ginscore.core.scoring import BIG_GIN, GIN, KNOCK, UNDERCUT
from ginscore.core.replay import Standings
from ginscore.core.session import Draw, in_hand
from ginscore.core.names import fold
from ginscore.core.times import time_order


COUNTERS = (
    "sessions", "sessions_won", "hollywood_games_won", "hands", "hands_won", "gins", "big_gins", "knocks_won",
    "undercuts_scored", "undercuts_suffered", "points", "knocking_sum", "knocking_count", "caught_sum",
    "caught_count",
)


def session_counts(st: Standings) -> dict:
    """What one session adds to every statistic: plain JSON-able counters per player, kept in the
    cache so that no hand is replayed. Runs of wins span sessions, so each player's are kept as
    ``lead`` (wins before their first hand not won), ``tail`` (wins after their last), ``best``
    (the longest inside) and ``whole`` (every hand they played won)."""
    facts = st.facts
    # a session not played yet counts nowhere (its counts and head to head are empty)
    counts = {name: dict.fromkeys(COUNTERS, 0) | {"lead": 0, "tail": 0, "best": 0, "whole": True}
              for name in facts.players} if st.hands else {}
    for name, record in counts.items():
        record["sessions"] = 1
        record["sessions_won"] = int(st.winner == name)
        if facts.variant == "hollywood":
            record["hollywood_games_won"] = sum(g.winner == name for g in st.games)
    for result in st.hands:
        for name in in_hand(facts.players, result.roles):  # R22
            record = counts[name]
            record["hands"] += 1
            if result.winner == name:
                record["hands_won"] += 1
                record["points"] += result.points
                record["tail"] += 1
                if record["whole"]:
                    record["lead"] += 1
            else:
                record["whole"] = False
                record["tail"] = 0
            record["best"] = max(record["best"], record["tail"])
        hand = result.hand
        if isinstance(hand, Draw):
            continue
        knocker, opponent = counts[hand.knocker], counts[result.opponent]
        outcome = result.outcome
        knocker["gins"] += outcome == GIN
        knocker["big_gins"] += outcome == BIG_GIN
        knocker["knocks_won"] += outcome == KNOCK
        knocker["undercuts_suffered"] += outcome == UNDERCUT
        opponent["undercuts_scored"] += outcome == UNDERCUT
        knocker["knocking_sum"] += hand.knocker_deadwood
        knocker["knocking_count"] += 1
        opponent["caught_sum"] += hand.opponent_deadwood
        opponent["caught_count"] += 1
    return {"players": list(facts.players), "winner": st.winner, "counts": counts}


def _mean(total: int, count: int) -> float | None:
    """``total / count`` to two decimals, a half rounded up as a calculator does (113 / 8 is 14.13, not 14.12)."""
    return float((Decimal(total) / count).quantize(Decimal("0.01"), ROUND_HALF_UP)) if count else None


# In a ``packed`` list: where hands is, and where lead, tail, best and whole start (after the COUNTERS).
_HANDS, _LEAD = COUNTERS.index("hands"), len(COUNTERS)
_KNOCKING = COUNTERS.index("knocking_sum")  # the counters before it are shown as they are


def packed(session: dict) -> dict:
    """``session_counts`` as the summary keeps it: each player's counters as one list
    (COUNTERS, then lead, tail, best and whole as 0/1), smaller to keep and quicker to add up."""
    return {
        "players": session["players"], "winner": session["winner"],
        "counts": {name: [c[k] for k in COUNTERS] + [c["lead"], c["tail"], c["best"], int(c["whole"])]
                   for name, c in session["counts"].items()},
    }


def tally(sessions: list[dict]) -> dict:
    """What some sessions add to ``stats``: the counters summed, and of each session what order matters
    for (runs of wins), so that ``combine_tallies`` of any grouping's tallies gives the same statistics.
    Each session's ``id`` here is its document number in the file (sessions started in the same second
    keep the order they were added), not its session id."""
    sums: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    session_runs = []
    for session in sessions:
        _add_sums(sums, session["counts"])
        _add_pairs(pairs, session)
        runs = [[name] + counts[_HANDS:_HANDS + 1] + counts[_LEAD:] for name, counts in session["counts"].items()]
        session_runs.append([session["created_at"], session["id"], runs])
    return {"sums": sums, "pairs": [[a, b, *counts] for (a, b), counts in pairs.items()], "sessions": session_runs}


def combine_tallies(tallies) -> dict:
    """``stats --json`` from the ``tally`` of each group of sessions."""
    sums: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    session_runs = []
    for part in tallies:
        _add_sums(sums, part["sums"])
        for a, b, *counts in part["pairs"]:
            pair = pairs.setdefault((a, b), [0, 0, 0])
            pair[:] = map(add, pair, counts)
        session_runs += part["sessions"]
    started = time_order(entry[0] for entry in session_runs)
    session_runs.sort(key=lambda entry: (started(entry[0]), entry[1]))  # oldest first, as played
    longest_of: dict[str, int] = {}
    going_of: dict[str, int] = {}  # the run of wins still going after the last session
    shown_as: dict[str, str] = {}  # each name's latest spelling, in the order first played
    for _, _, players in session_runs:
        for name, hands, lead, tail, best, whole in players:
            key = fold(name)
            shown_as[key] = name
            going, longest = going_of.get(key, 0), longest_of.get(key, 0)
            if whole:
                going += hands
                longest = max(longest, going)
            else:
                longest = max(longest, going + lead, best)
                going = tail
            longest_of[key] = longest
            going_of[key] = going
    return _report(sums, pairs, longest_of, shown_as)


def _add_sums(sums: dict, counted: dict) -> None:
    """Add each player's counters (``COUNTERS``, the first of a packed list) to ``sums``, by folded name."""
    for name, counts in counted.items():
        key = fold(name)
        record = sums.get(key)
        sums[key] = list(map(add, record, counts)) if record is not None else counts[:_LEAD]


def _add_pairs(pairs: dict, session: dict) -> None:
    """One session's meetings: every pair of its players, if it was played (it has counts)."""
    if not session["counts"]:
        return
    winner = session["winner"]
    for a, b in combinations(session["players"], 2):
        key = tuple(sorted((fold(a), fold(b))))
        pair = pairs.setdefault(key, [0, 0, 0])  # sessions, wins of the first, of the second
        pair[0] += 1
        if winner in (a, b):
            pair[1 + key.index(fold(winner))] += 1


def _report(sums: dict, pairs: dict, longest_run: dict, shown_as: dict) -> dict:
    """``stats --json`` from the summed counters, the head-to-head and the runs of wins."""
    shown = {}
    for key, name in shown_as.items():
        record = dict(zip(COUNTERS, sums[key]))
        shown[name] = {counter: record[counter] for counter in COUNTERS[:_KNOCKING]} | {
            "points_per_hand": _mean(record["points"], record["hands"]) if record["hands"] else 0.0,
            "avg_deadwood_knocking": _mean(record["knocking_sum"], record["knocking_count"]),
            "avg_deadwood_caught": _mean(record["caught_sum"], record["caught_count"]),
            "longest_run": longest_run[key],
        }
    head_to_head = [
        {
            "players": [shown_as[a], shown_as[b]],
            "sessions": sessions,
            "wins": {shown_as[a]: wins_a, shown_as[b]: wins_b},
        }
        for (a, b), (sessions, wins_a, wins_b) in sorted(pairs.items())
    ]
    return {"players": shown, "head_to_head": head_to_head}
