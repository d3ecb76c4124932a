"""Standings as plain data and plain words: the JSON documents of CLI.md,
the CSV rows, and the sentence that explains what a hand scored.

Pure and light (no rich, no typer): the ``--json`` and CSV paths use only
this, and the Rich renderer builds its tables from the same data.
"""

from __future__ import annotations

import re

from .rules import BIG_GIN, DRAW, GIN, KNOCK, UNDERCUT
from .variants import Draw, HandResult, SessionFacts, Standings

OUTCOME_WORDS = {KNOCK: "knock", UNDERCUT: "undercut", GIN: "gin", BIG_GIN: "big gin", DRAW: "drawn hand"}


def counted(number: int, word: str, plural: str | None = None) -> str:
    """``1 hand``, ``2 hands``: a count with its word in the right number."""
    return f"{number} {word if number == 1 else plural or word + 's'}"


def as_typed(name: str) -> str:
    """A name as it would be typed in a shell command: quoted when it holds spaces or quotes."""
    if re.fullmatch(r"[\w.+:,@%/-]+", name):
        return name
    if not re.search(r'["$`\\!]', name):
        return f'"{name}"'
    return "'" + name.replace("'", "'\\''") + "'"


def status_dict(st: Standings) -> dict:
    """``status --json`` (CLI.md "Machine-readable output")."""
    facts = st.facts
    doc = {
        "session": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "rules": facts.rules.to_dict(),
        "hands_played": len(st.hands),
        "next_dealer": st.next_dealer,
    }
    if facts.variant == "hollywood":
        doc["games"] = [
            {"game": g.number, "scores": dict(g.scores), "winner": g.winner, "final": g.final}
            for g in st.games
        ]
    else:
        doc["totals"] = st.totals
    if facts.variant == "three":
        doc["roles"] = st.roles.to_dict() if st.roles else None
    doc["final"] = st.final
    doc["winner"] = st.winner
    doc["over"] = st.over
    doc["hands_won"] = {p: sum(r.winner == p for r in st.hands) for p in facts.players}
    doc["created_at"] = facts.created_at
    return doc


def dealer_dict(st: Standings) -> dict:
    """``dealer --json``."""
    doc = {"session": st.facts.name, "next_dealer": st.next_dealer}
    if st.facts.variant == "three":
        doc["roles"] = st.roles.to_dict() if st.roles else None
    doc["over"] = st.over
    return doc


def hand_dict(st: Standings, result: HandResult) -> dict:
    """One hand of ``log --json``: the facts, what they scored, the columns after."""
    hand = result.hand
    knock = not isinstance(hand, Draw)
    doc = {
        "hand": result.number,
        "dealer": result.dealer,
        "knocker": hand.knocker if knock else None,
        "opponent": result.opponent,
        "knocker_deadwood": hand.knocker_deadwood if knock else None,
        "opponent_deadwood": hand.opponent_deadwood if knock else None,
        "upcard": str(hand.upcard) if hand.upcard else None,
        "big_gin": hand.big_gin if knock else False,
        "knock_limit": result.limit,
        "outcome": result.outcome,
        "winner": result.winner,
        "points": result.points,
    }
    cards = knock and hand.knocker_cards is not None
    doc["knocker_cards"] = " ".join(str(c) for c in hand.knocker_cards) if cards else None
    doc["opponent_cards"] = " ".join(str(c) for c in hand.opponent_cards) if cards else None
    if st.facts.variant == "three":
        doc["roles"] = result.roles.to_dict() if result.roles else None
    if st.facts.variant == "hollywood":
        doc["credited_games"] = list(result.credited)
        doc["games"] = [dict(s) for s in result.scores_after]
    else:
        doc["totals"] = dict(result.scores_after[0])
    doc["recorded_at"] = hand.recorded_at
    return doc


def log_dict(st: Standings) -> dict:
    """``log --json``: the session and every hand in order."""
    return {"session": st.facts.name, "variant": st.facts.variant, "hands": [hand_dict(st, r) for r in st.hands]}


def session_row(facts: SessionFacts, st: Standings, current: bool) -> dict:
    """One entry of ``sessions --json``."""
    return {
        "name": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "hands_played": len(facts.hands),
        "winner": st.winner,
        "over": st.over,
        "current": current,
        "created_at": facts.created_at,
    }


def total_columns(facts: SessionFacts) -> list[str]:
    """The running-total CSV columns (CLI.md "CSV export")."""
    if facts.variant == "hollywood":
        return [f"game{n}:{p}" for n in (1, 2, 3) for p in facts.players]
    return [f"total:{p}" for p in facts.players]


CSV_COLUMNS = ["hand", "dealer", "knocker", "knocker_deadwood", "opponent_deadwood", "upcard", "outcome", "winner", "points"]


def extra_columns(facts: SessionFacts) -> list[str]:
    """Columns after the totals: what a CSV needs to be imported again (issue 3)."""
    roles = ["box", "captain", "out"] if facts.variant == "three" else []
    return ["opponent"] + roles + ["knocker_cards", "opponent_cards", "recorded_at"]


def csv_rows(st: Standings) -> list[list]:
    """Header and one row per hand, draws included (CLI.md "CSV export")."""
    extra = extra_columns(st.facts)
    rows = [CSV_COLUMNS + total_columns(st.facts) + extra]
    for r in st.hands:
        d = hand_dict(st, r)
        row = [d[c] for c in CSV_COLUMNS]
        for scores in r.scores_after:
            row += [scores[p] for p in st.facts.players]
        roles = d.get("roles") or {}
        rows.append(row + [roles[c] if c in roles else d[c] for c in extra])
    return rows


def explain(st: Standings, result: HandResult) -> str:
    """What a hand scored and why, in the words of the table."""
    if result.score is None:
        if st.facts.variant == "three":
            return f"drawn hand: nobody scores; {result.dealer} stays in the box and deals again (R12, R25)"
        return f"drawn hand: nobody scores; {result.dealer} deals again (R12)"
    hand, score = result.hand, result.score
    said = f"{hand.knocker} knocked with {hand.knocker_deadwood}, {result.opponent} had {hand.opponent_deadwood}"
    if score.outcome == KNOCK:
        sum_text = f"{hand.opponent_deadwood} - {hand.knocker_deadwood}"
    elif score.outcome == UNDERCUT:
        sum_text = f"{score.difference} + {score.bonus}"
    else:
        sum_text = f"{score.difference} + {score.bonus}"
        said = f"{hand.knocker} went {OUTCOME_WORDS[score.outcome]}, {result.opponent} had {hand.opponent_deadwood}"
    if score.doubled:
        sum_text = f"({sum_text}) x 2 for the spade upcard"
    text = f"{said}: {OUTCOME_WORDS[score.outcome]}: {result.winner} scores {sum_text} = {score.points}"
    if st.facts.variant == "hollywood" and result.credited:
        numbers = [str(n) for n in result.credited]
        games = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
        text += f" in game{'s' if len(result.credited) > 1 else ''} {games}"
    return text


def rules_words(facts: SessionFacts) -> list[str]:
    """The session's house rules in plain words (H1-H5)."""
    r = facts.rules
    words = [f"target {r.target}", f"gin bonus {r.gin_bonus}", f"undercut bonus {r.undercut_bonus}"]
    if r.big_gin_bonus is not None:
        words.append(f"big gin bonus {r.big_gin_bonus}")
    if r.game_bonus:
        words.append(f"game bonus {r.game_bonus}")
    if r.box_bonus:
        words.append(f"box bonus {r.box_bonus} a hand won")
    if r.shutout:
        words.append("shutouts double")
    if r.spades_double:
        words.append("spades double")
    if r.ace_means_gin:
        words.append("ace means gin")
    return words


def history_row(st: Standings) -> dict:
    """One entry of ``history --json``: a session and how it ended (or stands)."""
    facts = st.facts
    doc = session_row(facts, st, current=False)
    doc.pop("current")
    if facts.variant == "hollywood":
        doc["games"] = [{"game": g.number, "scores": dict(g.scores), "winner": g.winner} for g in st.games]
        doc["score"] = {p: sum(g.scores[p] for g in st.games) for p in facts.players}
    else:
        doc["score"] = st.totals
    doc["final"] = st.final
    return doc
