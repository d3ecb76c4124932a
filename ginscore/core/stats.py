"""Statistics across sessions, worked out from the hands as told (an edit or undo changes them).

A player is the same person across sessions when the name matches ignoring case, accents and
width (``names.fold``). Definitions, where the rule book leaves them open:

- hands: hands the player took part in; in three-player, only as box or
  captain (the sitter-out plays no hand, R22). Drawn hands count as played.
- hands_won: hands the player won (R13: the knocker, or the opponent on an
  undercut); knocks_won: plain knocks won as knocker (R9); gins, big_gins:
  as knocker (R11, H2); undercuts_scored / undercuts_suffered: as opponent /
  as knocker (R10).
- avg_deadwood_knocking: mean of the player's deadwood when they knocked;
  avg_deadwood_caught: mean of their deadwood (after lay-offs) when the
  other player knocked.
- points / points_per_hand: hand points scored (no H3 bonuses) / hands.
- longest_run: most hands won in a row, in the order played across sessions;
  a hand lost or drawn ends a run.
- sessions: sessions the player took part in that have at least one hand
  recorded (a draw counts): a session just started, with no hand yet, is no
  session played, and counts nowhere (not in head to head either).
- sessions_won: sessions whose winner the player is (Hollywood: the series,
  R19); hollywood_games_won: single Hollywood games won.
"""

from __future__ import annotations

from operator import add

from ginscore.core.scoring import BIG_GIN, GIN, KNOCK, UNDERCUT
from ginscore.core.replay import Draw, Standings
from ginscore.core.names import fold


COUNTERS = (
    "sessions", "sessions_won", "hollywood_games_won", "hands", "hands_won", "gins", "big_gins", "knocks_won",
    "undercuts_scored", "undercuts_suffered", "points", "knocking_sum", "knocking_count", "caught_sum",
    "caught_count",
)


def player_key(name: str) -> str:
    """The same person across sessions: names compared ignoring case, accents and width."""
    return fold(name)


def session_counts(st: Standings) -> dict:
    """What one session adds to every statistic: plain JSON-able counters per player.

    ``statistics`` sums these over sessions, so a summary kept beside the
    facts can hold them instead of replaying every hand. Runs of
    wins span sessions, so each player's runs are kept as ``lead`` (wins
    before their first hand not won), ``tail`` (wins after their last),
    ``best`` (the longest inside) and ``whole`` (every hand they played won).
    """
    facts = st.facts
    players: dict[str, dict] = {}
    if not st.hands:  # not played yet: it counts nowhere (its counts and head to head are empty)
        return {"players": list(facts.players), "winner": st.winner, "counts": players}

    def entry(name: str) -> dict:
        record = players.get(name)
        if record is None:
            record = players[name] = dict.fromkeys(COUNTERS, 0) | {"lead": 0, "tail": 0, "best": 0, "whole": True}
        return record

    for name in facts.players:
        record = entry(name)
        record["sessions"] = 1
        record["sessions_won"] = int(st.winner == name)
        if facts.variant == "hollywood":
            record["hollywood_games_won"] = sum(g.winner == name for g in st.games)
    for result in st.hands:
        roles = result.roles
        at_table = (roles.box, roles.captain) if roles is not None else facts.players  # R22
        for name in at_table:
            record = entry(name)
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
        knocker, opponent = entry(hand.knocker), entry(result.opponent)
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
    return {"players": list(facts.players), "winner": st.winner, "counts": players}


def _mean(total: int, count: int) -> float | None:
    return round(total / count, 2) if count else None


def statistics(all_standings: list[Standings]) -> dict:
    """``stats --json``: per player, and head to head for every pair who met.

    ``all_standings`` in the order played (oldest session first).
    """
    return combine(session_counts(st) for st in all_standings)


RUNS = ("lead", "tail", "best", "whole")  # after the COUNTERS in a packed session's list
_HANDS, _LEAD, _TAIL, _BEST, _WHOLE = COUNTERS.index("hands"), *range(len(COUNTERS), len(COUNTERS) + 4)
_KNOCKING = COUNTERS.index("knocking_sum")  # the counters before it are shown as they are


def packed(session: dict) -> dict:
    """``session_counts`` as the summary keeps it: each player's counters as one list
    (COUNTERS, then RUNS; ``whole`` as 0/1), smaller to keep and quicker to add up."""
    return {
        "players": session["players"], "winner": session["winner"],
        "counts": {name: _pack(counts) for name, counts in session["counts"].items()},
    }


def _pack(counts: dict) -> list[int]:
    return [counts[c] for c in COUNTERS] + [counts["lead"], counts["tail"], counts["best"], int(counts["whole"])]


def combine(sessions) -> dict:
    """``stats --json`` from the ``session_counts`` (or ``packed`` ones) of each session, oldest first."""
    sums: dict[str, list[int]] = {}  # by player_key: COUNTERS
    pairs: dict[tuple[str, str], list[int]] = {}
    runs = _Runs()
    for session in sessions:
        counted = {name: _pack(c) if isinstance(c, dict) else c for name, c in session["counts"].items()}
        _add_sums(sums, counted)
        _add_pairs(pairs, session)
        runs.add((name, c[_HANDS], *c[_LEAD:]) for name, c in counted.items())
    return _report(sums, pairs, runs)


def tally(sessions: list[dict]) -> dict:
    """What some sessions (a part of the database) add to ``stats``, to keep beside
    them: the counters and the head-to-head summed (the order does not matter), and for each
    session only what does: when it started, its place (``id``), each player's runs of wins.

    ``sessions``: packed session counts with ``created_at`` and ``id``; ``combine_tallies``
    of the tallies of any grouping equals ``combine`` of the sessions.
    """
    sums: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    lines = []
    for session in sessions:
        _add_sums(sums, session["counts"])
        _add_pairs(pairs, session)
        lines.append([session["created_at"], session["id"],
                      [[name] + counts[_HANDS:_HANDS + 1] + counts[_LEAD:] for name, counts in session["counts"].items()]])
    return {"sums": sums, "pairs": _pair_rows(pairs), "sessions": lines}


def combine_tallies(tallies, start: dict | None = None) -> dict | None:
    """``stats --json`` from the ``tally`` of each group of sessions; ``start``: the ``running``
    totals of the sessions before them. None when a session of ``tallies`` was played before the
    last of ``start`` (the runs of wins could not be continued in order: combine every tally)."""
    sums, pairs, lines = _gathered(tallies, start)
    runs = _Runs(start)
    if start is not None and start["last"] is not None and lines and _order(lines[0]) <= tuple(start["last"]):
        return None
    for _, _, players in lines:
        runs.add(players)
    return _report(sums, pairs, runs)


def running(tallies) -> dict:
    """What the ``tally`` of some groups of sessions add up to, kept so that later sessions
    continue it (``combine_tallies(later, start=...)``): the counters, the head-to-head, where
    each run of wins stands after the last session, and which session that was."""
    sums, pairs, lines = _gathered(tallies)
    runs = _Runs()
    for _, _, players in lines:
        runs.add(players)
    return {"sums": sums, "pairs": _pair_rows(pairs),
            "longest": runs.longest, "going": runs.going, "shown_as": runs.shown_as,
            "last": list(_order(lines[-1])) if lines else None}


def _gathered(tallies, start: dict | None = None) -> tuple[dict, dict, list]:
    """The summed counters and head-to-head of ``start`` and the tallies, and the tallies'
    sessions in the order played."""
    sums: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    lines = []
    for part in ([start] if start is not None else []) + list(tallies):
        _add_sums(sums, part["sums"])
        for a, b, *counts in part["pairs"]:
            pair = pairs.setdefault((a, b), [0, 0, 0])
            pair[:] = map(add, pair, counts)
        lines += part.get("sessions", ())
    lines.sort(key=_order)  # oldest first, as played
    return sums, pairs, lines


def _pair_rows(pairs: dict) -> list[list]:
    """The head-to-head as kept in a file: [a, b, sessions, wins of a, wins of b]."""
    return [[a, b, *counts] for (a, b), counts in pairs.items()]


def _order(line: list) -> tuple[str, int]:
    return line[0] or "", line[1]


_keys: dict[str, str] = {}  # player_key of each name seen: the same few names over thousands of sessions


def _key(name: str) -> str:
    key = _keys.get(name)
    if key is None:
        key = _keys[name] = player_key(name)
    return key


def _add_sums(sums: dict, counted: dict) -> None:
    for name, counts in counted.items():
        key = _key(name)
        record = sums.get(key)
        sums[key] = list(map(add, record, counts)) if record is not None else counts[:_LEAD]


def _add_pairs(pairs: dict, session: dict) -> None:
    """One session's meetings: every pair of its players, if it was played (it has counts)."""
    if not session["counts"]:
        return
    names, winner = session["players"], session["winner"]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            key = tuple(sorted((_key(a), _key(b))))
            pair = pairs.setdefault(key, [0, 0, 0])  # sessions, wins of the first, of the second
            pair[0] += 1
            if winner in (a, b):
                pair[1 + key.index(_key(winner))] += 1


class _Runs:
    """Runs of wins across sessions in the order played, and each name's latest spelling."""

    def __init__(self, start: dict | None = None):
        start = start or {}
        self.longest: dict[str, int] = dict(start.get("longest", {}))
        self.going: dict[str, int] = dict(start.get("going", {}))  # the run of wins still going after the last session
        self.shown_as: dict[str, str] = dict(start.get("shown_as", {}))

    def add(self, players) -> None:
        """One session: (name, hands, lead, tail, best, whole) of each player (``session_counts``)."""
        longest_of, going_of, shown_as = self.longest, self.going, self.shown_as
        for name, hands, lead, tail, best, whole in players:  # once a player a session: kept free of calls
            key = _keys.get(name) or _key(name)
            shown_as[key] = name
            going, longest = going_of.get(key, 0), longest_of.get(key, 0)
            if whole:
                going += hands
                if going > longest:
                    longest = going
            else:
                if going + lead > longest:
                    longest = going + lead
                if best > longest:
                    longest = best
                going = tail
            longest_of[key] = longest
            going_of[key] = going


def _report(sums: dict, pairs: dict, runs: _Runs) -> dict:
    """``stats --json`` from the summed counters, the head-to-head and the runs of wins."""
    shown_as = runs.shown_as  # in the order first played: the same from any grouping of the sessions
    shown = {}
    for key, name in shown_as.items():
        record = dict(zip(COUNTERS, sums[key]))
        shown[name] = {counter: record[counter] for counter in COUNTERS[:_KNOCKING]} | {
            "points_per_hand": round(record["points"] / record["hands"], 2) if record["hands"] else 0.0,
            "avg_deadwood_knocking": _mean(record["knocking_sum"], record["knocking_count"]),
            "avg_deadwood_caught": _mean(record["caught_sum"], record["caught_count"]),
            "longest_run": runs.longest[key],
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
