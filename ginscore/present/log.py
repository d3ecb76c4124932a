"""Every hand of a session (`log`), in the widest of its layouts that fits the screen."""

from __future__ import annotations

from rich.cells import cell_len
from rich.table import Table

from ginscore.core.changes import as_it_ended
from ginscore.core.replay import HandResult, Standings
from ginscore.core.session import Draw
from ginscore.core.reports import never_in_force, OUTCOME_WORDS, winner_words
from ginscore.present.console import say, screen
from ginscore.present.letters import markers, say_legend
from ginscore.present.fast_table import content_widths
from ginscore.present.screens import finals_differ, rule_change_lines, say_heading
from ginscore.present.tables import natural_width, show, table_of_columns


def _result(r: HandResult) -> str:
    """A hand's outcome, marked when a spade upcard doubled it (H4): its points are not then the sum a person
    works out from the deadwood beside them."""
    return OUTCOME_WORDS[r.outcome] + (" x2" if r.score and r.score.doubled else "")


def _hand_lines(r: HandResult, marks: dict[str, str], three: bool, tall: bool) -> list[str]:
    """One hand in a narrow cell, a short line a fact; ``tall``: who dealt (the box, R22) and who won too."""
    hand = r.hand
    up = [f"up {hand.upcard.pretty}"] if hand.upcard else []
    if isinstance(hand, Draw):
        lines = [OUTCOME_WORDS[r.outcome]] + up
    else:
        lines = [f"{marks[hand.knocker]} {_result(r)}",
                 f"{hand.knocker_deadwood} v {hand.opponent_deadwood}"] + up
    if three and r.roles:
        lines.append(f"{marks[r.roles.out]} sat out")
    if tall:
        lines += [f"{marks[r.dealer]} dealt"] + ([f"{marks[r.winner]} won"] if r.winner else [])
    return lines


# Widest first. Each tells every hand's dealer (three players: the box, R22) and winner (R13), as nothing
# else does under `--deal loser` or `alternate` (H6); a narrower one only says the same facts shorter:
# players by letter, short headings, then a hand in a few lines.
LOG_LAYOUTS = ("full", "lettered", "short", "stacked", "tall")
# Three players: first the full log with the captain's column too, where the screen has room for it (R22).
THREE_LOG_LAYOUTS = ("roles",) + LOG_LAYOUTS


def _log_columns(st: Standings, layout: str) -> list[tuple]:
    """The log's columns as (heading, right-aligned, cells); columns with no value in any hand are left out."""
    facts = st.facts
    hands = st.hands
    three, hollywood = facts.variant == "three", facts.variant == "hollywood"
    marks = markers(facts.players)
    full = layout in ("roles", "full")
    short, stacked = layout in ("short", "stacked", "tall"), layout in ("stacked", "tall")
    by = {p: p for p in facts.players} if full else marks  # how a player is named in a cell
    heads = marks if short else {p: p for p in facts.players}  # and at the head of their totals
    knocks = [not isinstance(r.hand, Draw) for r in hands]
    columns = [("#", True, [str(r.number) for r in hands])]
    dealer = ("Box" if three else "Dlr" if short else "Dealer", False, [by[r.dealer] for r in hands])
    winner = ("Won" if short else "Winner", False, [by[r.winner] if r.winner else "" for r in hands])
    if stacked:
        hand = ("Hand", False, [_hand_lines(r, marks, three, tall=layout == "tall") for r in hands])
        columns += [hand] if layout == "tall" else [dealer, hand, winner]
    else:
        columns.append(dealer)
        if layout == "roles":
            columns.append(("Captain", False, [by[r.roles.captain] if r.roles else "" for r in hands]))
        if three:
            columns.append(("Sat out" if full else "Out", False, [by[r.roles.out] if r.roles else "" for r in hands]))
        columns += [
            ("Knocker" if full else "By", False, [by[r.hand.knocker] if k else "" for r, k in zip(hands, knocks)]),
            ("Deadwood", False, [f"{r.hand.knocker_deadwood} v {r.hand.opponent_deadwood}" if k else ""
                                 for r, k in zip(hands, knocks)]),
            ("Upcard", False, [r.hand.upcard.pretty if r.hand.upcard else "" for r in hands]),
            ("Result", False, [_result(r) if k or full else "draw" for r, k in zip(hands, knocks)]),
            winner,
        ]
    columns.append(("Points" if full else "Pts", True, ["" if r.points is None else str(r.points) for r in hands]))
    games = [(f"G{game.number}" if short else f"Game {game.number}", [r.scores_after[game.number - 1] for r in hands])
             for game in st.games]
    if not hollywood:
        columns += [(heads[p], True, [str(r.scores_after[0][p]) for r in hands]) for p in facts.players]
    elif stacked:  # a line a player
        columns.append(("", False, [[heads[p] for p in facts.players] for _ in hands]))
        columns += [(head, True, [[str(s[p]) for p in facts.players] for s in scores]) for head, scores in games]
    else:
        columns += [(head, True, ["-".join(str(s[p]) for p in facts.players) for s in scores])
                    for head, scores in games]
    return [c for c in columns if any(cell for cell in c[2])]


def show_log(st: Standings) -> None:
    """Every hand: one line a hand when it fits, else a few short lines a hand."""
    if not say_heading(st, "No hands yet.", first_rules=True):
        return
    facts = st.facts
    out = screen()
    for layout in THREE_LOG_LAYOUTS if facts.variant == "three" else LOG_LAYOUTS:
        columns = _log_columns(st, layout)
        table = table_of_columns(columns)
        if natural_width(table) <= out.width:
            break
    # (none fits: the loop ends on the narrowest, "tall", which is shown all the same)
    _show_between_rule_changes(st, columns, table)
    if layout not in ("roles", "full"):
        say_legend(facts.players)
    if layout in ("lettered", "short") and facts.variant == "hollywood":
        say("Game columns: " + " - ".join(markers(facts.players).values()))
    elif layout == "full" and facts.variant == "hollywood":
        say("Game columns: " + " - ".join(facts.players), names=facts.players)
    ended = winner_words(st)
    if ended:  # the log's totals are the hands' points: how the game ended is said under them
        say(f"{ended[:-1]}, bonuses added (H3)." if finals_differ(st) else ended, names=facts.players)
    notes = [r for r in st.hands if r.hand.note is not None]
    if notes:
        say("Notes:")
        for r in notes:
            say(f"  hand {r.number}: {r.hand.note}")


def _show_between_rule_changes(st: Standings, columns: list[tuple], table: Table) -> None:
    """The log's table, split by a line where the house rules changed (H8), each part as wide as the whole;
    a change from the next hand on is said under it."""
    changes = rule_change_lines(st.facts)
    starts = [hand for hand, _ in changes if hand <= len(st.hands)]
    if not starts:
        show(table)
    else:
        widths = content_widths(table) or [0] * len(columns)

        def head(text: str, right: bool, width: int) -> str:  # as wide as the whole table's column
            pad = " " * max(0, width - cell_len(text))
            return pad + text if right else text + pad

        for first, last in zip([1] + starts, starts + [len(st.hands) + 1]):
            if first > 1:
                say(dict(changes)[first])
            show(table_of_columns([(head(name, right, width), right, cells[first - 1:last - 1])
                                   for (name, right, cells), width in zip(columns, widths)]))
    for hand, line in changes:
        if hand > len(st.hands):
            say(line)
    never = as_it_ended(st.facts, st.over)[1]
    if never:
        say(never_in_force(st.facts, never))
