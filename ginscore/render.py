"""Rich tables and plain sentences for people at the table.

Only the human output paths import this module (it pulls in Rich). Every
string from outside (names, session names, anything imported) reaches Rich
through ``cell``/``say``: as ``Text``, never as markup, so a name like
``[bold]Ann`` prints literally, and through ``shown.visible``, so no control
character reaches the terminal raw; the ``screen.Screen`` console is the
safety net behind them. Rich itself drops colour when the output is
not a terminal and honours ``NO_COLOR``.
"""

from __future__ import annotations

import os
import sys

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .screen import Screen
from .shown import visible
from .summary import OUTCOME_WORDS, explain, rules_words
from .variants import Draw, HandResult, SessionFacts, Standings

VARIANT_NAMES = {"standard": "Standard", "oklahoma": "Oklahoma", "hollywood": "Hollywood", "three": "Three-player"}

_consoles: dict[tuple, Console] = {}


def console() -> Console:
    """One console per output stream and colour setting (tests change both between commands)."""
    key = (id(sys.stdout), os.environ.get("NO_COLOR"), os.environ.get("FORCE_COLOR"))
    if key not in _consoles:
        plain = not sys.stdout.isatty()
        # Piped or redirected output is plain text; give it room rather than 80 columns.
        _consoles[key] = Screen(
            highlight=False, emoji=False, width=120 if plain and "COLUMNS" not in os.environ else None
        )
    return _consoles[key]


def cell(text, style: str = "") -> Text:
    """Text from outside (a name, anything imported) as Rich shows it: never markup,
    every control character visible (shown.visible)."""
    return Text(visible(text), style=style)


def say(text: str, style: str | None = None) -> None:
    """One plain sentence; never parsed as markup, every control character visible."""
    console().print(cell(text, style or ""))


def _when(iso: str | None) -> str:
    """A recorded time for people: 2026-11-29 21:15."""
    return (iso or "")[:16].replace("T", " ")


def _title(facts: SessionFacts) -> Text:
    return Text.assemble(
        cell(facts.name, "bold"), f" · {VARIANT_NAMES[facts.variant]} · {visible(' v '.join(facts.players))}\n",
        ("House rules: " + "; ".join(rules_words(facts)), "dim"),
    )


def standings_table(st: Standings) -> Table:
    facts = st.facts
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Player")
    if facts.variant == "three":
        table.add_column("Next hand")
    if facts.variant == "hollywood":
        for game in st.games:
            head = f"Game {game.number}" + (f" (won by {game.winner})" if game.winner else "")
            table.add_column(cell(head), justify="right")
    else:
        table.add_column("Points", justify="right")
    table.add_column("Hands won", justify="right")
    bonuses = any(g.final and g.final != g.scores for g in st.games)
    if st.over and bonuses:
        table.add_column("Final (H3)", justify="right")
    roles = st.roles.to_dict() if st.roles else {}
    role_of = {name: role for role, name in roles.items()}
    final = st.final or {}
    for player in facts.players:
        row: list = [cell(player, "bold" if player == st.winner else "")]
        if facts.variant == "three":
            row.append({"box": "in the box", "captain": "captain", "out": "sits out"}.get(role_of.get(player), ""))
        row += [str(g.scores[player]) for g in st.games]
        row.append(str(sum(r.winner == player for r in st.hands)))
        if st.over and bonuses:
            row.append(str(final[player]))
        table.add_row(*row)
    return table


def next_words(st: Standings) -> str:
    """Who deals next, or who won, in words."""
    if st.over:
        return ""
    if st.roles:
        r = st.roles
        return f"Next hand: {r.box} is in the box and deals, {r.captain} captains, {r.out} sits out."
    return f"{st.next_dealer} deals next."


def winner_words(st: Standings) -> str | None:
    facts = st.facts
    if facts.variant == "hollywood":
        if not st.winner:
            return None
        games_won = sum(g.winner == st.winner for g in st.games)
        if st.over:
            final = st.final
            scores = " to ".join(str(final[p]) for p in sorted(facts.players, key=lambda p: p != st.winner))
            return f"{st.winner} wins the series, {games_won} games of 3 ({scores} over the three games)."
        return f"{st.winner} has won the series ({games_won} games); game 3 is still played out."
    if not st.over:
        return None
    final = st.final
    others = ", ".join(f"{p} {final[p]}" for p in facts.players if p != st.winner)
    return f"{st.winner} wins the game with {final[st.winner]} ({others})."


def show_standings(st: Standings) -> None:
    out = console()
    out.print(_title(st.facts))
    out.print(standings_table(st))
    banner = winner_words(st)
    if banner:
        banner = visible(banner)
        rule = "=" * len(banner)
        out.print(Text(f"{rule}\n{banner}\n{rule}", style="bold green"))
    if not st.over:
        say(next_words(st), "bold cyan")
    else:
        say("The session is over; `ginscore rematch` starts the next one.")


def _cards(cards) -> str:
    return " ".join(c.pretty for c in cards)


def _spread_words(spread) -> str:
    melds = " ".join(f"[{_cards(m)}]" for m in spread.melds) or "no melds"
    loose = f", unmatched {_cards(spread.unmatched)}" if spread.unmatched else ""
    return f"{melds}{loose}: deadwood {spread.deadwood}"


def show_spreads(result: HandResult) -> None:
    """Both spreads of a hand told as cards, and each card laid off (R8)."""
    from .melds import settle

    hand = result.hand
    settled = settle(list(hand.knocker_cards), list(hand.opponent_cards), big_gin=hand.big_gin)
    say(f"{hand.knocker} spreads {_spread_words(settled.knocker)}")
    knocker_melds = settled.knocker.melds
    for card, on in settled.layoffs:
        say(f"{result.opponent} lays off {card.pretty} on [{_cards(knocker_melds[on])}]")
    say(f"{result.opponent} spreads {_spread_words(settled.opponent)}")


def show_deadwood(spread, discard, big_gin: bool, limit: int) -> None:
    """The answer of `ginscore deadwood`, in words."""
    if big_gin:
        say(f"Big gin: all 11 cards meld: {_spread_words(spread)} (H2).", "bold")
        return
    if discard is not None:
        say(f"Discard {discard.pretty}.")
    say(("Keep " if discard is not None else "Melds ") + _spread_words(spread) + ".")
    if spread.deadwood == 0:
        say("That is gin (R11).", "bold")
    elif spread.deadwood <= limit:
        say(f"You can knock: {spread.deadwood} is within the knock limit of {limit} (R7).")
    else:
        say(f"No knock yet: {spread.deadwood} is over the knock limit of {limit} (R7).")


def show_hand(st: Standings, result: HandResult, verb: str = "Recorded") -> None:
    if result.score is not None and result.hand.knocker_cards is not None:
        show_spreads(result)
    say(f"{verb} hand {result.number}: {explain(st, result)}.")
    for number in result.closed:
        game = st.games[number - 1]
        if st.facts.variant == "hollywood":
            loser = next(p for p in st.facts.players if p != game.winner)
            say(
                f"Game {number} goes to {game.winner}, {game.scores[game.winner]} to {game.scores[loser]}.",
                "bold",
            )
    show_standings(st)


def show_dealer(st: Standings) -> None:
    if st.over:
        say(f"'{st.facts.name}' is over, so nobody deals; `ginscore rematch` starts the next one.")
        return
    say(next_words(st))


def show_log(st: Standings) -> None:
    facts = st.facts
    table = Table(box=box.SIMPLE_HEAD)
    for head in ("#", "Dealer", "Knocker", "Deadwood", "Upcard", "Result", "Winner", "Points"):
        table.add_column(head, justify="right" if head in ("#", "Points") else "left")
    if facts.variant == "hollywood":
        for n in (1, 2, 3):
            table.add_column(f"Game {n}", justify="right")
        table.caption = cell("Game columns: " + " - ".join(facts.players))
    else:
        for p in facts.players:
            table.add_column(cell(p), justify="right")
    for r in st.hands:
        hand = r.hand
        knock = not isinstance(hand, Draw)
        row = [
            str(r.number),
            cell(r.dealer),
            cell(hand.knocker if knock else ""),
            f"{hand.knocker_deadwood} v {hand.opponent_deadwood}" if knock else "",
            str(hand.upcard) if hand.upcard else "",
            OUTCOME_WORDS[r.outcome],
            cell(r.winner or ""),
            "" if r.points is None else str(r.points),
        ]
        if facts.variant == "hollywood":
            row += ["-".join(str(s[p]) for p in facts.players) for s in r.scores_after]
        else:
            row += [str(r.scores_after[0][p]) for p in facts.players]
        table.add_row(*row)
    console().print(_title(facts))
    console().print(table)
    if not st.hands:
        say("No hands yet.")


def show_sessions(rows: list[dict]) -> None:
    table = Table(box=box.SIMPLE_HEAD)
    for head in ("", "Session", "Variant", "Players", "Hands", "Result", "Started"):
        table.add_column(head)
    for row in rows:
        result = f"won by {row['winner']}" if row["winner"] else "in play"
        if row["winner"] and not row["over"]:
            result += " (game 3 open)"
        table.add_row(
            "*" if row["current"] else "",
            cell(row["name"]),
            VARIANT_NAMES[row["variant"]],
            cell(", ".join(row["players"])),
            str(row["hands_played"]),
            cell(result),
            cell(_when(row["created_at"])),
        )
    console().print(table)
    if not rows:
        say("No sessions yet; start one, like `ginscore new standard Ann Ben`.")


def show_chart(st: Standings) -> None:
    """The session's scores over its hands (Hollywood: the three games side by side)."""
    from .chart import legend, markers, plot

    facts = st.facts
    out = console()
    out.print(_title(facts))
    if not st.hands:
        say("No hands yet, so nothing to draw.")
        return
    charts = []
    for game in st.games:
        series = {p: [r.scores_after[game.number - 1][p] for r in st.hands] for p in facts.players}
        title = f"Game {game.number}" + (f" (won by {game.winner})" if game.winner else "") if len(st.games) > 1 else ""
        charts.append(plot(series, facts.rules.target, title=title))
    height = max(len(c) for c in charts)
    widths = [max(len(line) for line in c) for c in charts]
    colours = dict(zip(facts.players, ("cyan", "magenta", "yellow")))
    marks = {m: colours[p] for p, m in markers(facts.players).items()}
    for y in range(height):
        line = Text()
        for chart, width in zip(charts, widths):
            row = chart[y] if y < len(chart) else ""
            for char in row.ljust(width + 4):
                line.append(visible(char), style=marks.get(char, ""))
        out.print(line)
    say(legend(facts.players, facts.rules.target))


def show_history(rows: list[dict]) -> None:
    table = Table(box=box.SIMPLE_HEAD)
    for head in ("Started", "Session", "Variant", "Players", "Hands", "Winner", "Final score"):
        table.add_column(head)
    for row in rows:
        scores = row["final"] or row["score"]
        score = ", ".join(f"{p} {s}" for p, s in scores.items())
        table.add_row(
            cell(_when(row["created_at"])),
            cell(row["name"]),
            VARIANT_NAMES[row["variant"]],
            cell(", ".join(row["players"])),
            str(row["hands_played"]),
            cell(row["winner"] or ("in play" if not row["over"] else "")),
            cell(score + ("" if row["over"] else " (so far)")),
        )
    console().print(table)
    if not rows:
        say("No sessions match.")


STAT_ROWS = [
    ("Sessions", "sessions"), ("Sessions won", "sessions_won"), ("Hollywood games won", "hollywood_games_won"),
    ("Hands", "hands"), ("Hands won", "hands_won"), ("Gins", "gins"), ("Big gins", "big_gins"),
    ("Knocks won", "knocks_won"), ("Undercuts scored", "undercuts_scored"),
    ("Undercut (suffered)", "undercuts_suffered"), ("Avg deadwood knocking", "avg_deadwood_knocking"),
    ("Avg deadwood caught", "avg_deadwood_caught"), ("Points per hand", "points_per_hand"),
    ("Longest run of wins", "longest_run"),
]


def show_stats(doc: dict) -> None:
    """A statistic a row, a player a column (players are few, statistics many)."""
    out = console()
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("")
    for name in doc["players"]:
        table.add_column(cell(name), justify="right")
    for label, key in STAT_ROWS:
        values = [record[key] for record in doc["players"].values()]
        if key == "hollywood_games_won" and not any(values):
            continue
        table.add_row(label, *["-" if v is None else str(v) for v in values])
    if doc["players"]:
        out.print(table)
    if doc["head_to_head"]:
        pairs = Table(box=box.SIMPLE_HEAD, title="Head to head", title_justify="left")
        for head in ("Players", "Sessions", "Wins"):
            pairs.add_column(head)
        for pair in doc["head_to_head"]:
            a, b = pair["players"]
            pairs.add_row(cell(f"{a} v {b}"), str(pair["sessions"]),
                          cell(f"{pair['wins'][a]} - {pair['wins'][b]}"))
        out.print(pairs)
    if not doc["players"]:
        say("No sessions match, so there is nothing to count yet.")
