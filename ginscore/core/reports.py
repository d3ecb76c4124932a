"""Standings as plain data and plain words: the JSON documents and CSV rows of docs/commands.md,
and the sentences that explain them. The screens are built from the same data."""

from __future__ import annotations

import re

from ginscore.core.escape import shell_word
from ginscore.core.scoring import ALTERNATE, BIG_GIN, DRAW, GIN, KNOCK, LOSER_DEALS, UNDERCUT, WINNER_DEALS
from ginscore.core.scoring import HouseRules, stake_text
from ginscore.core.stakes import game_payments, game_stake, money_text, net, settlement
from ginscore.core.replay import HandResult, Standings
from ginscore.core.session import Draw, SessionFacts

VARIANT_NAMES = {"standard": "Standard", "oklahoma": "Oklahoma", "hollywood": "Hollywood", "three": "Three-player"}
OUTCOME_WORDS = {KNOCK: "knock", UNDERCUT: "undercut", GIN: "gin", BIG_GIN: "big gin", DRAW: "drawn hand"}
DEAL_WORDS = {WINNER_DEALS: "the winner deals next", LOSER_DEALS: "the loser deals next", ALTERNATE: "the deal alternates"}


def counted(number: int, word: str) -> str:
    """``1 hand``, ``2 hands``: a count with its word in the right number."""
    return f"{number} {word if number == 1 else word + 's'}"


def as_typed(name: str) -> str:
    """A name as it would be typed in a shell command, quoted only when it must be."""
    if re.fullmatch(r"[\w.+:,@%/-]+", name):
        return name
    if not name.isprintable():
        return shell_word(name)
    if not re.search(r'["$`\\!]', name):
        return f'"{name}"'
    return "'" + name.replace("'", "'\\''") + "'"


def status_dict(st: Standings, match: list[Standings] | None = None) -> dict:
    """``status --json`` (docs/commands.md "Machine-readable output"); ``match``: the sessions linked by
    `rematch`, oldest first."""
    facts = st.facts
    doc = {
        "session": facts.name,
        "variant": facts.variant,
        "players": list(facts.players),
        "rules": facts.rules.to_dict(),
        "rule_changes": [change.to_dict() for change in facts.rule_changes],  # H8
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
    payments = settlement(st)
    if payments is not None:
        doc["settlement"] = [p.to_dict() for p in payments]
    doc["hands_won"] = {p: sum(r.winner == p for r in st.hands) for p in facts.players}
    doc["created_at"] = facts.created_at
    doc["state_of_play"] = state_of_play(st)
    doc["match"] = match_dict(match) if match else None
    return doc


def match_dict(sessions: list[Standings]) -> dict:
    """The match so far: its sessions, games won, the summed finals of the games over (H3) and, at a
    stake, the settlement netted per pair (H7)."""
    players = dict.fromkeys(p for st in sessions for p in st.facts.players)  # in the order first played
    games_won = dict.fromkeys(players, 0)
    finals = dict.fromkeys(players, 0)
    for st in sessions:
        for game in st.games:
            if game.final is not None:
                games_won[game.winner] += 1
                for p, points in game.final.items():
                    finals[p] += points
    doc = {
        "id": sessions[0].facts.match,
        "sessions": [st.facts.name for st in sessions],
        "games_won": games_won,
        "finals": finals,
    }
    if any(period.rules.stake for st in sessions for period in st.facts.periods()):
        doc["settlement"] = [p.to_dict() for p in net(p for st in sessions for p in settlement(st) or ())]
    return doc


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _game_lead_words(scores: dict[str, int], target: int) -> str:
    """Who leads one game, by how much, and what the leader still needs (R14)."""
    ranked = sorted(scores, key=lambda p: -scores[p])  # stable: ties keep seating order
    top = scores[ranked[0]]
    leaders = [p for p in ranked if scores[p] == top]
    rest = [p for p in ranked if scores[p] < top]
    need = target - top
    if not rest:
        return f"Level at {top}; each needs {need} more to reach {target}."
    gaps: dict[int, list[str]] = {}  # players the same distance behind are told together
    for p in rest:
        gaps.setdefault(top - scores[p], []).append(p)
    behind = " and ".join(f"{_listed(names)} by {gap}" for gap, names in gaps.items())
    if len(leaders) == 1:
        return f"{leaders[0]} leads {behind}; {leaders[0]} needs {need} more to reach {target}."
    return f"{_listed(leaders)} are level at {top}, ahead of {behind}; each needs {need} more to reach {target}."


def lead_words(st: Standings) -> list[str]:
    """Who leads and what the leader still needs, a sentence per open game (R18); none once over."""
    if st.over:
        return []
    target = st.facts.rules.target
    if st.facts.variant == "hollywood":
        return [f"Game {g.number}: {_game_lead_words(g.scores, target)}" for g in st.games if g.is_open]
    return [_game_lead_words(st.games[0].scores, target)]


def next_words(st: Standings) -> str:
    """Who deals the next hand (three-player: the roles, R22), in words, while the session goes on."""
    return f"Next hand: {dealing(st)}." if st.roles else f"{dealing(st)} next."


def hand_words(st: Standings) -> str:
    """What `play` says before asking for the next hand: its number and who deals it (R22)."""
    return f"Hand {len(st.hands) + 1}: {dealing(st)}."


def dealing(st: Standings) -> str:
    """Who deals the next hand, in words; in three-player all three roles (R22)."""
    if st.roles:
        r = st.roles
        return f"{r.box} is in the box and deals, {r.captain} captains, {r.out} sits out"
    return f"{st.next_dealer} deals"


def state_of_play(st: Standings) -> list[str]:
    """The standings in words: who leads and what they need, then who deals next."""
    return lead_words(st) + ([next_words(st)] if not st.over else [])


def dealer_dict(st: Standings) -> dict:
    """``dealer --json``: who deals next, keyed as in ``status --json`` (three-player: the roles too)."""
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
        "knock_limit": result.knock_limit,
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
    doc["note"] = hand.note
    return doc


def log_dict(st: Standings) -> dict:
    """``log --json``: the session, its rule changes (H8) and every hand in order."""
    return {"session": st.facts.name, "variant": st.facts.variant,
            "rule_changes": [change.to_dict() for change in st.facts.rule_changes],
            "hands": [hand_dict(st, r) for r in st.hands]}


SESSIONS_JSON_KEYS = ("name", "variant", "players", "hands_played", "winner", "over")


def session_item(row: dict, current: bool) -> dict:
    """One entry of ``sessions --json``, from the session's ``history_row``."""
    return {key: row[key] for key in SESSIONS_JSON_KEYS} | {"current": current, "created_at": row["created_at"]}


CSV_COLUMNS = ["hand", "dealer", "knocker", "knocker_deadwood", "opponent_deadwood", "upcard", "outcome", "winner", "points"]


def csv_rows(st: Standings) -> list[list]:
    """The hands CSV: a header and one row per hand (docs/commands.md "CSV export")."""
    facts = st.facts
    if facts.variant == "hollywood":
        total_columns = [f"game{n}:{p}" for n in (1, 2, 3) for p in facts.players]
    else:
        total_columns = [f"total:{p}" for p in facts.players]
    role_columns = ["box", "captain", "out"] if facts.variant == "three" else []
    later_columns = ["opponent", *role_columns, "knocker_cards", "opponent_cards", "recorded_at", "note", "session_id"]
    rows = [CSV_COLUMNS + total_columns + later_columns]
    for r in st.hands:
        d = hand_dict(st, r)
        row = [d[c] for c in CSV_COLUMNS]
        for scores in r.scores_after:
            row += [scores[p] for p in facts.players]
        values = d | (d.get("roles") or {}) | {"session_id": facts.id}
        rows.append(row + [values[c] for c in later_columns])
    return rows


FINALS_COLUMNS = ["session", "game", "player", "hand_points", "game_bonus", "box_bonus", "shutout_bonus", "final",
                  "result", "stake_net"]


def finals(st: Standings) -> list[dict]:
    """How the session ended, a row per player and game (docs/commands.md "Finals export", H3, H7)."""
    facts = st.facts
    staked = settlement(st) is not None
    rows = []
    for game in st.games:
        stake = game_stake(st, game) if staked else None
        nets = {p: 0 * stake for p in facts.players} if staked else {}  # Decimal zero, exact: 0.00 at a stake of 0.01
        for payment in game_payments(game.final, game.winner, stake) if staked else ():  # H7
            nets[payment.payer] -= payment.amount
            nets[payment.payee] += payment.amount
        ended = game.final is not None
        for p in facts.players:
            bonuses = game.bonuses[p] if ended else None
            rows.append({
                "session": facts.name,
                "game": game.number,
                "player": p,
                "hand_points": game.scores[p],
                "game_bonus": bonuses.game if ended else None,
                "box_bonus": bonuses.box if ended else None,
                "shutout_bonus": bonuses.shutout if ended else None,
                "final": game.final[p] if ended else None,
                "result": ("won" if game.winner == p else "lost") if ended else "unfinished",
                "stake_net": nets.get(p),
            })
    return rows


def finals_dicts(st: Standings) -> list[dict]:
    """The "finals" of the JSON export: the rows of ``finals`` with the net as an exact decimal string."""
    return [row | {"stake_net": None if row["stake_net"] is None else money_text(row["stake_net"])}
            for row in finals(st)]


def finals_rows(st: Standings) -> list[list]:
    """The finals CSV: a header and the rows of ``finals``; the net stays a Decimal, so the CSV writes it as
    a number, not as text guarded against formulas."""
    return [FINALS_COLUMNS] + [[row[c] for c in FINALS_COLUMNS] for row in finals(st)]


def explain(st: Standings, result: HandResult) -> str:
    """What a hand scored and why, in the words of the table."""
    # Oklahoma: the upcard set the hand's knock limit (R15), so the line says it again
    upcard = result.hand.upcard
    on = f" on {'an' if upcard and upcard.rank in (1, 8) else 'a'} {upcard.pretty} upcard" \
        if st.facts.variant == "oklahoma" and upcard else ""  # an A♥, an 8♠; a 7♣
    if result.score is None:
        dealt_next = st.hands[result.number].dealer if result.number < len(st.hands) else result.dealer
        if dealt_next != result.dealer:  # a hand made a draw by an edit: who dealt the next one stays (H8)
            return f"drawn hand{on}: nobody scores"
        if st.facts.variant == "three":
            return f"drawn hand: nobody scores; {result.dealer} stays in the box and deals again (R12, R25)"
        return f"drawn hand{on}: nobody scores; {result.dealer} deals again (R12)"
    hand, score = result.hand, result.score
    went = f"went {OUTCOME_WORDS[score.outcome]}" if score.outcome in (GIN, BIG_GIN) else f"knocked with {hand.knocker_deadwood}"
    said = f"{hand.knocker} {went}{on}, {result.opponent} had {hand.opponent_deadwood}"
    if score.outcome == KNOCK:
        sum_text = f"{hand.opponent_deadwood} - {hand.knocker_deadwood}"
    else:
        sum_text = f"{score.difference} + {score.bonus}"
    if score.doubled:
        sum_text = f"({sum_text}) x 2 for the spade upcard"
    text = f"{said}: {OUTCOME_WORDS[score.outcome]}: {result.winner} scores {sum_text} = {score.points}"
    if st.facts.variant == "hollywood" and result.credited:
        games = _listed([str(n) for n in result.credited])
        text += f" in game{'s' if len(result.credited) > 1 else ''} {games}"
    return text


def winner_words(st: Standings) -> str | None:
    """Who won the game or the series, with the final scores; None while nobody has."""
    facts = st.facts
    if facts.variant == "hollywood":
        if not st.winner:
            return None
        games_won = sum(g.winner == st.winner for g in st.games)
        if st.over:
            final = st.final
            scores = " to ".join(str(final[p]) for p in sorted(facts.players, key=lambda p: p != st.winner))
            return f"{st.winner} wins the series, {games_won} games of 3 ({scores} over the three games)."
        return f"{st.winner} has won the series ({games_won} games); game 3 is still being played out."
    if not st.over:
        return None
    final = st.final
    others = ", ".join(f"{p} {final[p]}" for p in facts.players if p != st.winner)
    return f"{st.winner} wins the game with {final[st.winner]} ({others})."


def settlement_words(st: Standings) -> list[str]:
    """Who pays whom how much, once the session is over and played for a stake (H7)."""
    payments = settlement(st)
    if payments is None:
        return []
    how = "the three games netted" if st.facts.variant == "hollywood" else "the difference of the final scores"
    stakes = {game_stake(st, game) for game in st.games}
    if len(stakes) > 1:  # (a stake changed from the next hand on, H8: each game at the one it ended under)
        if not payments:
            return [f"Nobody pays: {how}, each game at its own stake, come out even (H7)."]
        return [f"{p.payer} pays {p.payee} {money_text(p.amount)} ({how}, each game at its own stake, H7)."
                for p in payments]
    stake = stake_text(stakes.pop())
    if not payments:
        hollywood = st.facts.variant == "hollywood"
        even = "the three games netted come out even" if hollywood else "the final scores are level"
        return [f"At {stake} a point nobody pays: {even} (H7)."]
    return [f"{p.payer} pays {p.payee} {money_text(p.amount)} ({how} at {stake} a point, H7)." for p in payments]


def house_rule_rows(facts: SessionFacts) -> list[tuple[str, str, str]]:
    """Every house rule of the session, set or not: (rule and its id, setting, option that changes it)."""
    r = facts.rules
    rows = [
        ("Target (H5)", f"{r.target}", "--target"),
        ("Gin bonus (H1)", f"{r.gin_bonus}", "--gin-bonus"),
        ("Undercut bonus (H1)", f"{r.undercut_bonus}", "--undercut-bonus"),
        ("Big gin (H2)", "off" if r.big_gin_bonus is None else f"bonus {r.big_gin_bonus}", "--big-gin-bonus, --no-big-gin"),
        ("Game bonus (H3)", f"{r.game_bonus} to the winner" if r.game_bonus else "off", "--game-bonus"),
        ("Box bonus (H3)", f"{r.box_bonus} a hand won" if r.box_bonus else "off", "--box-bonus"),
        ("Shutout (H3)", "doubles the winner's final" if r.shutout else "off", "--shutout, --no-shutout"),
    ]
    if facts.variant == "oklahoma":
        rows += [
            ("Spades double (H4)", "on" if r.spades_double else "off", "--spades-double, --no-spades-double"),
            ("Ace means gin (H4)", "on" if r.ace_means_gin else "off", "--ace-means-gin, --no-ace-means-gin"),
        ]
    if facts.variant == "three":
        rows.append(("Deal (R22)", "the box deals every hand", ""))
    else:
        rows.append(("Deal (H6)", DEAL_WORDS[r.deal], "--deal winner|loser|alternate"))
    rows.append(("Stake (H7)", f"{stake_text(r.stake)} a point" if r.stake else "none", "--stake"))
    return rows


# Each house rule in words (H1-H7), in the order of HouseRules' fields.
SETTING_WORDS = {
    "target": lambda r: f"target {r.target}",
    "gin_bonus": lambda r: f"gin bonus {r.gin_bonus}",
    "undercut_bonus": lambda r: f"undercut bonus {r.undercut_bonus}",
    "big_gin_bonus": lambda r: "no big gin" if r.big_gin_bonus is None else f"big gin bonus {r.big_gin_bonus}",
    "game_bonus": lambda r: f"game bonus {r.game_bonus}" if r.game_bonus else "no game bonus",
    "box_bonus": lambda r: f"box bonus {r.box_bonus} a hand won" if r.box_bonus else "no box bonus",
    "shutout": lambda r: "shutouts double" if r.shutout else "shutouts do not double",
    "spades_double": lambda r: "spades double" if r.spades_double else "spades do not double",
    "ace_means_gin": lambda r: "ace means gin" if r.ace_means_gin else "an ace does not mean gin",
    "deal": lambda r: DEAL_WORDS[r.deal],
    "stake": lambda r: f"stake {stake_text(r.stake)} a point" if r.stake else "no stake",
}
_ALWAYS_SAID = ("target", "gin_bonus", "undercut_bonus")


def rules_words(facts: SessionFacts) -> list[str]:
    """The session's house rules in words (H1-H7): the target and H1 bonuses, then any rule not at its default."""
    r, defaults = facts.rules, HouseRules()
    return [words(r) for name, words in SETTING_WORDS.items()
            if name in _ALWAYS_SAID or getattr(r, name) != getattr(defaults, name)]


def never_in_force(facts: SessionFacts, from_hand: int, end: str = ".") -> str:
    """H8: a change agreed from a hand the game never reached (``changes.as_it_ended``)."""
    return (f"The house rules agreed from hand {from_hand} on never came into force: the {facts.game_word} ended at "
            f"hand {len(facts.hands)} (H8){end}")


def rule_change_words(facts: SessionFacts) -> list[tuple[int, list[str]]]:
    """Where the house rules changed during play (H8), in words: ``(4, ["gin bonus 20"])``."""
    periods = facts.rule_changes
    return [(now.from_hand, [words(now.rules) for name, words in SETTING_WORDS.items()
                             if getattr(now.rules, name) != getattr(before.rules, name)])
            for before, now in zip(periods, periods[1:])]


def history_row(st: Standings) -> dict:
    """One entry of ``history --json``: a session and how it ended (or stands)."""
    facts = st.facts
    doc = {"name": facts.name, "variant": facts.variant, "players": list(facts.players),
           "hands_played": len(facts.hands), "winner": st.winner, "over": st.over, "created_at": facts.created_at}
    if facts.variant == "hollywood":
        doc["games"] = [{"game": g.number, "scores": dict(g.scores), "winner": g.winner} for g in st.games]
    doc["score"] = {p: sum(g.scores[p] for g in st.games) for p in facts.players}
    doc["final"] = st.final
    doc["match"] = facts.match
    return doc
