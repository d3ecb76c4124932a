"""Statistics across sessions, from replayed standings (issue 6).

Pure. Like the standings, every figure is worked out from the hands as told,
so an edited or undone hand changes the statistics too. A player is the same
person across sessions when the name matches ignoring case, accents and width
(``variants.fold``).

Definitions (written down where the issue leaves them open):

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
- sessions_won: sessions whose winner the player is (Hollywood: the series,
  R19); hollywood_games_won: single Hollywood games won.
"""

from __future__ import annotations

from .rules import BIG_GIN, GIN, KNOCK, UNDERCUT
from .variants import Draw, fold, Standings


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
    facts (issue 12) can hold them instead of replaying every hand. Runs of
    wins span sessions, so each player's runs are kept as ``lead`` (wins
    before their first hand not won), ``tail`` (wins after their last),
    ``best`` (the longest inside) and ``whole`` (every hand they played won).
    """
    facts = st.facts
    players: dict[str, dict] = {}

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


def combine(sessions) -> dict:
    """``stats --json`` from the ``session_counts`` of each session, oldest first."""
    players: dict[str, dict] = {}  # by player_key
    shown_as: dict[str, str] = {}  # the latest spelling of each name
    runs: dict[str, int] = {}  # the run of wins still going at the end of the sessions so far
    pairs: dict[tuple[str, str], dict] = {}

    for session in sessions:
        for name, counts in session["counts"].items():
            key = player_key(name)
            shown_as[key] = name
            record = players.setdefault(key, dict.fromkeys(COUNTERS, 0) | {"longest_run": 0})
            for counter in COUNTERS:
                record[counter] += counts[counter]
            going = runs.get(key, 0)
            if counts["whole"]:
                going += counts["hands"]
                record["longest_run"] = max(record["longest_run"], going)
            else:
                record["longest_run"] = max(record["longest_run"], going + counts["lead"], counts["best"])
                going = counts["tail"]
            runs[key] = going
        names, winner = session["players"], session["winner"]
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                key = tuple(sorted((player_key(a), player_key(b))))
                pair = pairs.setdefault(key, {"sessions": 0, "wins": {key[0]: 0, key[1]: 0}})
                pair["sessions"] += 1
                if winner in (a, b):
                    pair["wins"][player_key(winner)] += 1

    shown = {}
    for key, record in players.items():
        shown[shown_as[key]] = {
            "sessions": record["sessions"], "sessions_won": record["sessions_won"],
            "hollywood_games_won": record["hollywood_games_won"], "hands": record["hands"],
            "hands_won": record["hands_won"], "gins": record["gins"], "big_gins": record["big_gins"],
            "knocks_won": record["knocks_won"], "undercuts_scored": record["undercuts_scored"],
            "undercuts_suffered": record["undercuts_suffered"], "points": record["points"],
            "points_per_hand": round(record["points"] / record["hands"], 2) if record["hands"] else 0.0,
            "avg_deadwood_knocking": _mean(record["knocking_sum"], record["knocking_count"]),
            "avg_deadwood_caught": _mean(record["caught_sum"], record["caught_count"]),
            "longest_run": record["longest_run"],
        }
    head_to_head = [
        {
            "players": [shown_as[a], shown_as[b]],
            "sessions": pair["sessions"],
            "wins": {shown_as[a]: pair["wins"][a], shown_as[b]: pair["wins"][b]},
        }
        for (a, b), pair in sorted(pairs.items())
    ]
    return {"players": shown, "head_to_head": head_to_head}
