"""Every hand of a session (`log`), in the widest of its layouts that fits the screen."""

from __future__ import annotations

from rich.cells import cell_len
from rich.table import Table

from ginscore.core.escape import visible
from ginscore.core.replay import Draw, HandResult, Standings
from ginscore.core.scoring import UNDERCUT
from ginscore.core.standings import OUTCOME_WORDS
from ginscore.present.chart import markers, say_legend
from ginscore.present.console import say, screen
from ginscore.present.fast_table import content_widths
from ginscore.present.screens import rule_change_lines, say_heading
from ginscore.present.tables import natural_width, show, table_of


def _hand_lines(r: HandResult, marks: dict[str, str], three: bool) -> list[str]:
    """One hand told in a narrow cell, a short line each: knocker and result, deadwood, upcard,
    who sat out (who scored an undercut is told with its points, ``_points_words``)."""
    hand = r.hand
    up = [f"up {hand.upcard.pretty}"] if hand.upcard else []
    if isinstance(hand, Draw):
        lines = [OUTCOME_WORDS[r.outcome]] + up
    else:
        lines = [f"{marks[hand.knocker]} {OUTCOME_WORDS[r.outcome]}",
                 f"{hand.knocker_deadwood} v {hand.opponent_deadwood}"] + up
    if three and r.roles:
        lines.append(f"{marks[r.roles.out]} sat out")
    return lines


def _result_words(r: HandResult, by: dict[str, str], winner_shown: bool) -> str:
    """The result of a hand; without a Winner column an undercut names who scored (R10, R13)."""
    words = OUTCOME_WORDS[r.outcome]
    if r.outcome == UNDERCUT and not winner_shown:
        return f"{words} by {by[r.winner]}"
    return words


def _points_words(r: HandResult, by: dict[str, str], short: bool) -> str:
    """Points of a hand; in a short layout an undercut's points carry the letter of who scored them."""
    if r.points is None:
        return ""
    if short and r.outcome == UNDERCUT:
        return f"{by[r.winner]} {r.points}"
    return str(r.points)


LOG_LAYOUTS = ("full", "lettered", "medium", "short", "short-marks", "stacked", "marks")  # widest first
# Three players: the names of who knocked and who sat out before the box and the winner by letter.
THREE_LOG_LAYOUTS = ("full", "medium", "lettered", "short", "short-marks", "stacked", "marks")


def _log_columns(st: Standings, layout: str) -> list[tuple]:
    """The log's columns as (heading, right-aligned, cells); columns with no value in any hand are left out.

    full: every fact by name; lettered: every fact, players by their letter;
    medium: without dealer and winner (the knocker, or the other player on an
    undercut, R10); short: knocker and sitter-out by their letter; stacked:
    each hand in a few short lines. The -marks layouts head the totals with
    the letters too. Two players try lettered before medium: who dealt (R5,
    H6: under `--deal loser` or `alternate` no other column tells) and who
    won (R13) are worth more than the names spelled out in the cells. Three
    players try it after medium, whose cells name who knocked and who sat
    out, and before short, which it beats by the box (R22) and the winner.
    """
    facts = st.facts
    hands = st.hands
    three, hollywood = facts.variant == "three", facts.variant == "hollywood"
    marks = markers(facts.players)
    stacked, short = layout in ("stacked", "marks"), layout in ("short", "short-marks", "lettered")
    every = layout in ("full", "lettered")  # dealer and winner too
    names = {p: p for p in facts.players}
    by = marks if short else names  # how a player is named in a cell
    heads = marks if layout in ("short-marks", "marks") else names  # and in a heading
    knocks = [not isinstance(r.hand, Draw) for r in hands]
    columns = [("#", True, [str(r.number) for r in hands])]
    if stacked:
        columns.append(("Hand", False, [_hand_lines(r, marks, three) for r in hands]))
    else:
        if every:
            columns.append(("Box" if three else "Dealer", False, [by[r.dealer] for r in hands]))
        if three:
            columns.append(("Out" if short else "Sat out", False, [by[r.roles.out] if r.roles else "" for r in hands]))
        columns += [
            ("By" if short else "Knocker", False, [by[r.hand.knocker] if k else "" for r, k in zip(hands, knocks)]),
            ("Deadwood", False, [f"{r.hand.knocker_deadwood} v {r.hand.opponent_deadwood}" if k else ""
                                 for r, k in zip(hands, knocks)]),
            ("Upcard", False, [r.hand.upcard.pretty if r.hand.upcard else "" for r in hands]),
            ("Result", False, [_result_words(r, by, layout != "medium") if k or not short else "draw"
                               for r, k in zip(hands, knocks)]),
        ]
        if every:
            columns.append(("Winner", False, [by[r.winner] if r.winner else "" for r in hands]))
    columns.append(("Points" if layout in ("full", "medium") else "Pts", True,
                    [_points_words(r, marks, True) if stacked else _points_words(r, by, short and not every)
                     for r in hands]))
    if hollywood and not stacked:
        for n in (1, 2, 3):
            columns.append((f"Game {n}", True, ["-".join(str(s[p]) for p in facts.players) for s in
                                                (r.scores_after[n - 1] for r in hands)]))
    elif hollywood:
        columns.append(("", False, [[heads[p] for p in facts.players] for _ in hands]))
        for n in (1, 2, 3):
            columns.append((f"G{n}" if layout == "marks" else f"Game {n}", True,
                            [[str(r.scores_after[n - 1][p]) for p in facts.players] for r in hands]))
    else:
        for p in facts.players:
            columns.append((heads[p], True, [str(r.scores_after[0][p]) for r in hands]))
    return [c for c in columns if any(cell for cell in c[2])]


def _log_table(st: Standings, layout: str) -> Table:
    columns = _log_columns(st, layout)
    return table_of([(head, right) for head, right, _ in columns], zip(*(c[2] for c in columns)))


def show_log(st: Standings) -> None:
    """Every hand: one line a hand when it fits, else a few short lines a hand."""
    if not say_heading(st, "No hands yet."):
        return
    facts = st.facts
    out = screen()
    for layout in THREE_LOG_LAYOUTS if facts.variant == "three" else LOG_LAYOUTS:
        table = _log_table(st, layout)
        if natural_width(table) <= out.width:
            break
    show_between_rule_changes(st, layout, table)
    if layout not in ("full", "medium"):
        say_legend(facts.players)
    if layout == "lettered" and facts.variant == "hollywood":
        say("Game columns: " + " - ".join(markers(facts.players).values()))
    elif layout in ("full", "medium") and facts.variant == "hollywood":
        say("Game columns: " + " - ".join(facts.players))
    notes = [r for r in st.hands if r.hand.note is not None]
    if notes:
        say("Notes:")
        for r in notes:
            say(f"  hand {r.number}: {visible(r.hand.note)}")


def show_between_rule_changes(st: Standings, layout: str, table: Table) -> None:
    """The log's table, with a line between the hands where the house rules changed (H8), like
    "from hand 4: gin bonus 20": the table in parts, each with the whole table's columns and widths.
    A change from the next hand on is said under the table."""
    changes = rule_change_lines(st.facts)
    starts = [hand for hand, _ in changes if hand <= len(st.hands)]
    if not starts:
        show(table)
    else:
        columns = _log_columns(st, layout)
        widths = content_widths(table) or [0] * len(columns)

        def head(text: str, right: bool, width: int) -> str:  # as wide as the whole table's column
            pad = " " * max(0, width - cell_len(text))
            return pad + text if right else text + pad

        heads = [(head(name, right, width), right) for (name, right, _), width in zip(columns, widths)]
        rows = list(zip(*(cells for _, _, cells in columns)))
        for first, last in zip([1] + starts, starts + [len(st.hands) + 1]):
            if first > 1:
                say(dict(changes)[first])
            show(table_of(heads, rows[first - 1:last - 1]))
    for hand, line in changes:
        if hand > len(st.hands):
            say(line)
