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


def statistics(all_standings: list[Standings]) -> dict:
    """``stats --json``: per player, and head to head for every pair who met.

    ``all_standings`` in the order played (oldest session first).
    """
    players: dict[str, dict] = {}  # by the name folded (variants.fold)
    shown_as: dict[str, str] = {}  # the latest spelling of each name
    pairs: dict[tuple[str, str], dict] = {}

    def entry(name: str) -> dict:
        key = fold(name)
        shown_as[key] = name
        record = players.get(key)
        if record is None:
            record = players[key] = _blank()
        return record

    for st in all_standings:
        facts = st.facts
        for name in facts.players:
            record = entry(name)
            record["sessions"] += 1
            record["sessions_won"] += st.winner == name
            if facts.variant == "hollywood":
                record["hollywood_games_won"] += sum(g.winner == name for g in st.games)
        for a, b in ((a, b) for i, a in enumerate(facts.players) for b in facts.players[i + 1:]):
            key = tuple(sorted((fold(a), fold(b))))
            pair = pairs.setdefault(key, {"sessions": 0, "wins": {key[0]: 0, key[1]: 0}})
            pair["sessions"] += 1
            if st.winner in (a, b):
                pair["wins"][fold(st.winner)] += 1
        for result in st.hands:
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
