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
import re
import sys
from contextlib import contextmanager

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ginscore.present import fast_table
from ginscore.present.console import Screen
from ginscore.core.escape import visible
from ginscore.present.terminal import advice, screen_height, screen_width  # (where the command line reads them too)
from ginscore.core.scoring import UNDERCUT
from ginscore.core.standings import OUTCOME_WORDS, as_typed, counted, explain, hand_words, house_rule_rows, lead_words, next_words, rules_words, settlement_words
from ginscore.core.replay import Draw, HandResult, SessionFacts, Standings

VARIANT_NAMES = {"standard": "Standard", "oklahoma": "Oklahoma", "hollywood": "Hollywood", "three": "Three-player"}

_consoles: dict[tuple, Console] = {}
_drawing_into: list[Console] = []  # set by ``drawing_into`` (export --format html|svg)


def show_fitting(rows: list, show, lines_of=lambda row: 1) -> int:
    """Show as many of ``rows`` (those to keep first) as fit one screen as ``show(rows[:n])`` draws
    them at this width: the table or blocks, the notes under them and the shell's prompt after (at
    least 3); how many. Measured by drawing, as the layout chosen for the rows decides how tall
    each is; ``lines_of(row)``, the lines a row takes in a table, makes the first guess (so that two
    drawings are usually enough). The drawing kept is the one shown: what the console wrote for it,
    written again in the same pieces (so the output is the same, byte for byte, as drawing it)."""
    room = screen_height() - 1
    out = console()
    drawings: dict[int, list[str]] = {}

    def height(n: int) -> int:
        if n not in drawings:  # (one more than fits is often drawn already, by the first guess)
            real = out.file
            out.file = _Kept(real)
            try:
                show(rows[:n])
                drawings[n] = out.file.writes
            finally:
                out.file = real
        return sum(text.count("\n") for text in drawings[n])

    least = min(3, len(rows))
    count = used = 0
    for row in rows:  # a first guess: the rows as a table, under its head, over a note of two lines
        used += lines_of(row)
        if used > room - 4:
            break
        count += 1
    count = max(count, least)
    used = height(count)
    while used > room and count > least:  # fewer, by about the lines too many
        each = max(1, used // count)
        count = max(least, count - max(1, -(-(used - room) // each)))
        used = height(count)
    while count < len(rows) and height(count + 1) <= room:  # rows drawn shorter than the average, or one
        count += 1  # more that leaves no note under them (none left out, the current one among them)
    for text in drawings[count]:
        out.file.write(text)
    out.file.flush()
    return count


class _Kept:
    """A console's file that keeps what is written (``writes``) instead of writing it; all else (its
    encoding, whether it is a terminal) is the file's own, so what is drawn is what would be written."""

    def __init__(self, file):
        self._file = file
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def __getattr__(self, name: str):
        return getattr(self._file, name)


def history_lines(row: dict) -> int:
    """Lines a session takes in the ``history`` table: one a score line."""
    return len(_score_lines(row))


def _older(older: int, command: str) -> None:
    if older:
        say(f"{counted(older, 'older session')} not shown: `ginscore {command} --all` "
            f"shows every one, `ginscore {command} --limit N` the newest N.")


def console() -> Console:
    """One console per output stream, width and colour setting (tests change all three between commands)."""
    if _drawing_into:
        return _drawing_into[-1]
    width, height = screen_width(), screen_height()
    key = (id(sys.stdout), width, height, os.environ.get("NO_COLOR"), os.environ.get("FORCE_COLOR"))
    if key not in _consoles:  # (both sizes given: Rich asks the terminal for neither at every print)
        _consoles[key] = Screen(highlight=False, emoji=False, width=width, height=height)
    return _consoles[key]


@contextmanager
def drawing_into(out: Console):
    """Every show_* function draws into ``out`` (a recording console) instead of the terminal."""
    _drawing_into.append(out)
    try:
        yield out
    finally:
        _drawing_into.pop()


def say(text: str, style: str | None = None) -> None:
    """One plain sentence; never parsed as markup, control characters made visible."""
    _say_text(Text(advice(visible(text)), style=style or ""))


# A number stays on the line of the word before it ("= 13.", "game 1", "bonus 25"; the
# placeholder too: "--limit N", "the newest N."), and a bonus on the line of its kind ("box
# bonus 25"): those spaces are made non-breaking before a sentence is wrapped, and plain
# spaces again in what is printed.
_GLUE = "\u00a0"
_BEFORE_NUMBER = re.compile(r"(?<=\S) (?=[(]?(?:[-+]?[0-9][0-9.,/]*|N)[.,;:)%`]*(?:[ \u00a0]|$))")
_BEFORE_BONUS = re.compile(r"\b(gin|undercut|game|box) (?=bonus\b)")
# A sum stays whole ("(10 + 25) x 2", "2 + 10 = 12."): the spaces around an operator between
# numbers, and before any "=", are glued too.
_IN_SUM = re.compile(r"(?<=[0-9)]) (?=[-+x] [(]?[0-9])|(?<=[0-9)] [-+x]) (?=[(]?[0-9])|(?<=\S) (?== )")


# A command to type (`ginscore sessions --limit N`) stays on one line when the line has room for it;
# else a quoted word in it does ('our games.json', $'...', a session's "fri night"): a path or name
# copied from two lines would hold a line break.
_COMMAND = re.compile(r"`[^`\n]+`")
_QUOTED = r"\$?'[^']*'" + r'|"[^"]*"'


def _glued(plain: str, width: int) -> str:
    plain = _COMMAND.sub(lambda typed: typed.group().replace(" ", _GLUE) if len(typed.group()) < width
                         else re.sub(_QUOTED, lambda word: word.group().replace(" ", _GLUE), typed.group()), plain)
    return _BEFORE_BONUS.sub(r"\1" + _GLUE, _BEFORE_NUMBER.sub(_GLUE, _IN_SUM.sub(_GLUE, plain)))


def _one_phrase(words: str) -> str:
    """A short phrase kept on one line when a sentence wraps ("ace means gin", "stake 0.01 a point")."""
    return words.replace(" ", _GLUE) if len(words) <= 24 else words


def _wrapped(text: Text, width: int, indent: int = 0) -> list[Text]:
    """``text`` in lines of at most ``width`` cells, broken only at plain spaces (each line's
    trailing spaces dropped, glued spaces printed as spaces); a word wider than a line is folded.
    ``indent``: how many cells the lines after the first are to be indented by (the caller's)."""
    from rich.cells import cell_len

    plain = _glued(text.plain, width)
    offsets: list[int] = []
    room = width
    used = 0
    for word in re.finditer(r"\n|[^ \n]+ *| +", plain):
        start, piece = word.start(), word.group()
        if piece == "\n":
            offsets.append(word.end())
            used, room = 0, width
            continue
        size = cell_len(piece.rstrip(" "))
        if used and used + size > room:
            offsets.append(start)
            used, room = 0, max(width - indent, 1)
        while size > room:  # a word longer than a whole line: folded where the line ends
            cut = start + 1
            while cell_len(plain[start:cut + 1]) <= room:
                cut += 1
            offsets.append(cut)
            start, size, used, room = cut, cell_len(plain[cut:word.end()].rstrip(" ")), 0, max(width - indent, 1)
        used += cell_len(plain[start:word.end()])
    kept = Text(plain, style=text.style, spans=text.spans, end="")
    lines = []
    for line in kept.divide(offsets) if offsets else [kept]:
        line.rstrip()
        lines.append(Text(line.plain.replace(_GLUE, " "), style=line.style, spans=line.spans, end=""))
    return lines


def _say_text(text: Text) -> None:
    """Print ``text`` wrapped to the screen by ``_wrapped``; a line that starts indented (an item
    of a block, like "Match so far:"'s) goes on two further in on the lines it wraps onto, so
    they do not read as the next item."""
    out = console()
    plain = text.plain
    lead = len(plain) - len(plain.lstrip(" ")) if "\n" not in plain else 0
    lead = lead + 2 if 0 < lead and (lead + 2) * 3 < out.width else 0  # under the item's first word, and 2 more
    lines = _wrapped(text, out.width, lead)
    out.print(Text("\n").join([lines[0]] + [Text(" " * lead).append_text(line) for line in lines[1:]]))


def _text(value, style: str = "") -> Text:
    """A cell for Rich: outside text made visible, never markup; a list is one line an item."""
    if isinstance(value, Text):
        return value
    if isinstance(value, (list, tuple)):
        return Text("\n".join(visible(v) for v in value), style=style)
    return Text(visible(value), style=style)


def _table(**options) -> Table:
    """A table with no outer padding, so narrow screens keep every character for the cells."""
    return Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), **options)


def _column(table: Table, head, right: bool = False) -> None:
    """A column that is never wrapped nor cut with '…': layouts are chosen to fit instead."""
    table.add_column(_text(head), justify="right" if right else "left", no_wrap=True, overflow="fold")


def _row(table: Table, *cells) -> None:
    table.add_row(*[_text(c) for c in cells])


def _natural_width(renderable) -> int:
    """How wide a renderable is when nothing in it wraps: what Rich's measure says."""
    if isinstance(renderable, Table):
        widths = fast_table.content_widths(renderable)
        if widths is not None:
            return fast_table.table_width(renderable, widths)
    out = console()
    return out.measure(renderable, options=out.options.update_width(10_000)).maximum


def _show(renderable) -> None:
    """Print what a screen shows; a table of plain text is drawn directly (``drawn``), else by Rich.

    A table wider than the screen (only below 40 columns: every screen has a layout that fits
    40) is not cropped: one line says how wide the screen must be instead.
    """
    out = console()
    if isinstance(renderable, Table):
        needed = _natural_width(renderable) if all(c.no_wrap for c in renderable.columns) else \
            out.measure(renderable, options=out.options).minimum  # (cells that may wrap, like `house`'s)
        if needed > out.width:
            say(f"Too narrow: needs {needed} columns.")
            return
    table = fast_table.draw(renderable, out) if isinstance(renderable, Table) else None
    out.print(renderable if table is None else table)


def _fit(*layouts):
    """The first layout (a function making a renderable) that fits the screen whole; else the last."""
    width = console().width
    for make in layouts[:-1]:
        renderable = make()
        if _natural_width(renderable) <= width:
            return renderable
    return layouts[-1]()


def _when(iso: str | None) -> str:
    """A recorded time for people: 2026-11-29 21:15."""
    return (iso or "")[:16].replace("T", " ")


def _title(facts: SessionFacts) -> Text:
    return Text.assemble(
        (visible(facts.name), "bold"), f" · {VARIANT_NAMES[facts.variant]} · ",
        visible(" v ".join(facts.players)), "\n",
        ("House rules: " + "; ".join(_one_phrase(words) for words in rules_words(facts)), "dim"),
    )


ROLE_WORDS = {"box": "in the box", "captain": "captain", "out": "sits out"}


def _bonuses(st: Standings) -> bool:
    """Whether the final scores differ from the hand points (H3), so a Final column says something."""
    return st.over and any(g.final and g.final != g.scores for g in st.games)


def _game_cell(game, player: str) -> str:
    return f"{game.scores[player]} (won)" if game.winner == player else str(game.scores[player])


def standings_table(st: Standings, compact: bool = False) -> Table:
    """Players as rows; compact: short headings (Hollywood: the games as rows, players as columns)."""
    facts = st.facts
    won = {p: sum(r.winner == p for r in st.hands) for p in facts.players}
    final = st.final if _bonuses(st) else None
    table = _table()
    if facts.variant == "hollywood" and compact:
        _column(table, "")
        for player in facts.players:
            _column(table, player, right=True)
        for game in st.games:
            _row(table, f"Game {game.number}", *[_game_cell(game, p) for p in facts.players])
        _row(table, "Hands won", *[str(won[p]) for p in facts.players])
        if final:
            _row(table, "Final (H3)", *[str(final[p]) for p in facts.players])
        return table
    role_of = {name: role for role, name in st.roles.to_dict().items()} if st.roles else {}
    _column(table, "Player")
    if role_of:
        _column(table, "Next" if compact else "Next hand")
    if facts.variant == "hollywood":
        for game in st.games:
            _column(table, f"Game {game.number}", right=True)
    else:
        _column(table, "Pts" if compact else "Points", right=True)
    _column(table, "Won" if compact else "Hands won", right=True)
    if final:
        _column(table, "Final" if compact else "Final (H3)", right=True)
    for player in facts.players:
        row: list = [_text(player, "bold" if player == st.winner else "")]
        if role_of:
            role = role_of[player]
            row.append(role if compact else ROLE_WORDS[role])
        if facts.variant == "hollywood":
            row += [str(g.scores[player]) for g in st.games]
        else:
            row.append(str(st.games[0].scores[player]))
        row.append(str(won[player]))
        if final:
            row.append(str(final[player]))
        _row(table, *row)
    if facts.variant == "hollywood" and any(g.winner for g in st.games):
        table.rows[-1].end_section = True
        _row(table, "Won by", *[g.winner or "" for g in st.games])
    return table


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


def _say_game_finals(st: Standings) -> None:
    """Hollywood: each won game's final scores once its bonuses are added (H3)."""
    if st.facts.variant != "hollywood":
        return
    for game in st.games:
        if game.final and game.final != game.scores:
            scores = ", ".join(f"{p} {game.final[p]}" for p in st.facts.players)
            say(f"Game {game.number} with its bonuses (H3): {scores}.")


def show_standings(st: Standings, footer: bool = True) -> None:
    """Title, table and winner; ``footer``: then who deals next (or that the session is over)."""
    out = console()
    _say_text(_title(st.facts))
    _show(_fit(lambda: standings_table(st), lambda: standings_table(st, compact=True)))
    _say_game_finals(st)
    banner = winner_words(st)
    if banner:
        rule = "=" * min(len(banner), out.width)
        out.print(Text(rule, style="bold green"))
        say(banner, "bold green")
        out.print(Text(rule, style="bold green"))
    for line in settlement_words(st):  # H7
        say(line, "bold")
    for line in lead_words(st):
        say(line)
    if not footer:
        return
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
    from ginscore.core.melds import settle

    hand = result.hand
    settled = settle(list(hand.knocker_cards), list(hand.opponent_cards), big_gin=hand.big_gin)
    say(f"{hand.knocker} spreads {_spread_words(settled.knocker)}")
    grown = [list(meld) for meld in settled.knocker.melds]  # each meld as the lay-offs so far left it
    for card, on in settled.layoffs:
        say(f"{result.opponent} lays off {card.pretty} on [{_cards(grown[on])}]")
        grown[on] = sorted(grown[on] + [card], key=lambda laid: laid.rank)
    say(f"{result.opponent} spreads {_spread_words(settled.opponent)}")


def show_deadwood(spread, discard, big_gin: bool, limit: int) -> None:
    """The answer of `ginscore deadwood`, in words."""
    if big_gin:
        say(f"Big gin: all 11 cards meld: {_spread_words(spread)} (H2).", "bold")
        return
    if discard is not None:
        say(f"Discard {discard.pretty}.")
    words = _spread_words(spread)
    if spread.melds:
        say(("Keep " if discard is not None else "Melds ") + words + ".")
    else:  # "No melds, unmatched ...", never "Melds no melds"
        say(("The rest has " + words if discard is not None else words[0].upper() + words[1:]) + ".")
    if spread.deadwood == 0:
        say("That is gin (R11).", "bold")
    elif spread.deadwood <= limit:
        say(f"You can knock: {spread.deadwood} is within the knock limit of {limit} (R7).")
    else:
        say(f"No knock yet: {spread.deadwood} is over the knock limit of {limit} (R7).")


def show_hand(st: Standings, result: HandResult, verb: str = "Recorded", footer: bool = True) -> None:
    if result.score is not None and result.hand.knocker_cards is not None:
        show_spreads(result)
    say(f"{verb} hand {result.number}: {explain(st, result)}.")
    if result.hand.note is not None:
        say(f"Note: {visible(result.hand.note)}")
    for number in result.closed:
        game = st.games[number - 1]
        if st.facts.variant == "hollywood":
            loser = next(p for p in st.facts.players if p != game.winner)
            say(
                f"Game {number} goes to {game.winner}, {game.scores[game.winner]} to {game.scores[loser]}.",
                "bold",
            )
    show_standings(st, footer)


def show_dealer(st: Standings) -> None:
    if st.over:
        say(f"'{st.facts.name}' is over, so nobody deals; `ginscore rematch` starts the next one.")
        return
    say(next_words(st))


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
    from ginscore.present.chart import markers

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
    table = _table()
    for head, right, _ in columns:
        _column(table, head, right)
    for cells in zip(*(c[2] for c in columns)):
        _row(table, *cells)
    return table


def _say_legend(players) -> None:
    """Which letter is which player: on one line when it fits, else a line each."""
    from ginscore.present.chart import markers

    entries = [f"{mark} {p}" for p, mark in markers(players).items()]
    line = "  ".join(entries)
    for text in [line] if _text(line).cell_len <= console().width else entries:
        say(text)


def show_log(st: Standings) -> None:
    """Every hand: one line a hand when it fits, else a few short lines a hand."""
    facts = st.facts
    out = console()
    _say_text(_title(facts))
    if not st.hands:
        say("No hands yet.")
        return
    for layout in THREE_LOG_LAYOUTS if facts.variant == "three" else LOG_LAYOUTS:
        table = _log_table(st, layout)
        if _natural_width(table) <= out.width:
            break
    _show(table)
    if layout not in ("full", "medium"):
        _say_legend(facts.players)
    if layout == "lettered" and facts.variant == "hollywood":
        from ginscore.present.chart import markers

        say("Game columns: " + " - ".join(markers(facts.players).values()))
    elif layout in ("full", "medium") and facts.variant == "hollywood":
        say("Game columns: " + " - ".join(facts.players))
    notes = [r for r in st.hands if r.hand.note is not None]
    if notes:
        say("Notes:")
        for r in notes:
            say(f"  hand {r.number}: {visible(r.hand.note)}")


def _session_result(row: dict) -> list[str]:
    if not row["winner"]:
        return ["in play"]
    return [f"won by {row['winner']}"] + (["(game 3 open)"] if not row["over"] else [])


def _block_lines(row: dict, first, score) -> list[str]:
    """A session as a few lines, for screens too narrow for a table."""
    return [
        f"{first(row)}{row['name']} · {VARIANT_NAMES[row['variant']]}",
        f"{counted(row['hands_played'], 'hand')} · " + " ".join(_session_result(row)),
        f"started {_when(row['created_at'])}",
    ] + [f"  {line}" for line in score(row)]


def _session_blocks(rows: list[dict], first, score) -> Group:
    """Each session as a few lines that wrap, for screens too narrow for a table."""
    blocks = []
    for row in rows:
        lines = _block_lines(row, first, score)
        blocks += [Text(), _text(lines)] if blocks else [_text(lines)]
    return Group(*blocks)


def _long_blocks(rows: list[dict], first, score) -> None:
    """``_session_blocks`` of a long list on a narrow screen (a phone), drawn here, not by Rich
    (which takes seconds for thousands): each line made visible and broken to the screen's width."""
    width = screen_width()
    out: list[str] = []
    for row in rows:
        if out:
            out.append("")
        for line in _block_lines(row, first, score):
            out += broken(visible(line), width)
    console().file.write("\n".join(out) + "\n")


def _cells(text: str) -> int:
    """How many terminal cells ``visible`` text takes: printable ASCII is a cell a character."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def broken(text: str, width: int) -> list[str]:
    """``text`` in lines at most ``width`` cells wide, broken at spaces (a word wider than the line
    where it must be), a continuation indented as the line was."""
    if _cells(text) <= width:
        return [text]
    from rich.cells import cell_len, chop_cells

    indent = text[:len(text) - len(text.lstrip(" "))]
    room = max(width - len(indent), 1)
    lines, line = [], ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= room:
            line = joined
            continue
        if line:
            lines.append(line)
        *whole, line = chop_cells(word, room) if cell_len(word) > room else [word]
        lines += whole
    return [indent + part for part in lines + [line]]


def _joined(players: list[str], room: int | None) -> list[str]:
    """Players joined by "v" in lines at most ``room`` wide (None: one line; 0: a player a line).
    A line after the first starts with its "v" (or the line before ends with it) where there is
    room, so none is lost between two names."""
    if room is None:
        return [" v ".join(players)]
    from rich.cells import cell_len

    lines = [players[0]]
    for player in players[1:]:
        if room and cell_len(f"{lines[-1]} v {player}") <= room:
            lines[-1] = f"{lines[-1]} v {player}"
        elif room and cell_len(f"v {player}") <= room:
            lines.append(f"v {player}")
        elif room and cell_len(f"{lines[-1]} v") <= room:
            lines[-1] = f"{lines[-1]} v"
            lines.append(player)
        else:
            lines.append(player)
    return lines


def show_sessions(rows: list[dict], deleted: bool = False, hidden: int = 0, older: int = 0,
                  current: str | None = None) -> None:
    """The sessions, oldest first (or with ``deleted`` the deleted ones); ``hidden``: how many
    deleted are not listed; ``older``: how many older ones are left out; ``current``: the current
    session's name, said when it is among those left out."""
    when = "deleted_at" if deleted else "created_at"
    if len(rows) > LONG and console().width < 80:  # a phone: a few lines a session, not measured
        _long_blocks(rows, lambda row: "* " if row["current"] else "", lambda row: row["players"])
    elif len(rows) > LONG:
        _long_sessions([session_cells(row, when) for row in rows], [row["current"] for row in rows], deleted)

    def table(medium: bool, room: int | None = 0, day_only: bool = False) -> Table:
        """``room``: how wide the Players column may be, its players joined by "v" on as few
        lines as fit it (None: each session on one line; 0: a player a line)."""
        sessions = _table()
        heads = ("", "Session", "Players", "Hands", "Result", "Deleted" if deleted else "Started") if medium else \
            ("", "Session", "Variant", "Players", "Hands", "Result", "Deleted" if deleted else "Started")
        for head in heads:
            _column(sessions, head, right=head == "Hands")
        for row in rows:
            variant = VARIANT_NAMES[row["variant"]]
            players = _joined(row["players"], room)
            result = " ".join(_session_result(row)) if room is None else _session_result(row)
            cells = [[row["name"], variant], players, str(row["hands_played"]), result,
                     _when(row[when])[:10]] if medium else \
                [row["name"], variant, players, str(row["hands_played"]), result,
                 _when(row[when])[:10] if day_only else _when(row[when])]
            _row(sessions, "*" if row["current"] else "", *cells)
        return sessions

    def blocks() -> Group:
        return _session_blocks(rows, lambda row: "* " if row["current"] else "", lambda row: row["players"])

    def fitted(medium: bool) -> Table:
        """The players on as few lines as the screen leaves room for; too wide (so not chosen)
        when no two players fit on a line."""
        from rich.cells import cell_len

        apart = table(medium, day_only=True)
        names = fast_table.content_widths(apart)[2 if medium else 3]
        room = console().width - (_natural_width(apart) - names)
        if room < min(cell_len(" v ".join(row["players"][:2])) for row in rows):
            return table(medium, None, day_only=True)
        return table(medium, max(room, names), day_only=True)

    if rows and len(rows) <= LONG:
        _show(_fit(lambda: table(False, None), lambda: table(False, None, day_only=True), lambda: fitted(False),
                   lambda: fitted(True), lambda: table(True), blocks))
    _sessions_notes(bool(rows), any(row["current"] for row in rows), deleted, hidden, older, current)


def long_lines(count: int) -> bool:
    """Whether a list of ``count`` sessions is drawn a line a session in aligned columns (``LONG``;
    not on a phone): the lines a command may then draw from cells kept in the cache."""
    return count > LONG and console().width >= 80


def session_cells(row: dict, when: str = "created_at") -> list[str]:
    """A session's cells in the long ``sessions`` list (but the current mark), each made visible. Kept
    in the cache by the digest of its facts (``long_lines``), so listing years of sessions again
    neither reads their rows nor makes their cells."""
    return [visible(row["name"]), VARIANT_NAMES[row["variant"]], visible(" v ".join(row["players"])),
            str(row["hands_played"]), visible(" ".join(_session_result(row))), visible(_when(row[when]))]


SESSION_CELLS = 6  # what session_cells makes of a session


def _long_sessions(cells: list[list[str]], current: list[bool], deleted: bool) -> None:
    _aligned(("", "Session", "Variant", "Players", "Hands", "Result", "Deleted" if deleted else "Started"),
             [["*" if now else ""] + line for line, now in zip(cells, current)])


def show_long_sessions(cells: list[list[str]], current: list[bool], hidden: int, older: int,
                       current_name: str | None) -> None:
    """``show_sessions`` of a list drawn as long lines (``long_lines``), from each session's
    ``session_cells`` and whether it is the current one."""
    _long_sessions(cells, current, False)
    _sessions_notes(bool(cells), any(current), False, hidden, older, current_name)


def _sessions_notes(listed: bool, current_listed: bool, deleted: bool, hidden: int, older: int,
                    current: str | None) -> None:
    """What a list of sessions says under it."""
    _older(older, "sessions --deleted" if deleted else "sessions")
    if older and current is not None and not current_listed:
        say(f"The current session, '{current}', is among them (`ginscore status` shows it).")
    if not listed and deleted:
        say("No deleted sessions.")
    elif not listed and not hidden:
        say("No sessions yet; start one, like `ginscore new standard Ann Ben`.")
    elif deleted:
        say("`ginscore restore NAME` brings one back.")
    if hidden and not deleted:
        say(f"Not listed: {counted(hidden, 'deleted session')} (`ginscore sessions --deleted`).")


def show_chart(st: Standings) -> None:
    """The session's scores over its hands (Hollywood: the three games side by side, or one under another)."""
    from ginscore.present.chart import plot

    facts = st.facts
    out = console()
    _say_text(_title(facts))
    if not st.hands:
        say("No hands yet, so nothing to draw.")
        return
    charts = []
    for game in st.games:
        series = {p: [r.scores_after[game.number - 1][p] for r in st.hands] for p in facts.players}
        title = f"Game {game.number}" + (f" (won by {game.winner})" if game.winner else "") if len(st.games) > 1 else ""
        charts.append(plot(series, facts.rules.target, title=visible(title), width=out.width))
    gap = 4
    widths = [max(len(line) for line in c) for c in charts]
    if sum(widths) + gap * (len(charts) - 1) > out.width:  # one under another
        rows = [[(chart, width)] for chart, width in zip(charts, widths)]
    else:
        rows = [list(zip(charts, widths))]
    _print_charts(rows, facts.players, gap)
    _say_legend(facts.players)
    say(f"* several   - - target {facts.rules.target}   hands left to right")


CHART_COLOURS = ("cyan", "magenta", "yellow", "green", "blue", "red")


def _print_charts(rows: list[list[tuple[list[str], int]]], players, gap: int = 4) -> None:
    """Charts (``chart.plot`` lines, with their width) a row at a time, side by side, each
    player's mark in their colour (the marks alone tell them apart without colour)."""
    from ginscore.present.chart import markers

    out = console()
    colours = {p: CHART_COLOURS[n % len(CHART_COLOURS)] for n, p in enumerate(players)}
    marks = {m: colours[p] for p, m in markers(players).items()}
    for number, side_by_side in enumerate(rows):
        if number:
            out.print()
        height = max(len(chart) for chart, _ in side_by_side)
        for y in range(height):
            line = Text()
            for chart, width in side_by_side:
                text = chart[y] if y < len(chart) else ""
                for char in text.ljust(width + gap):
                    line.append(char, style=marks.get(char, ""))
            line.rstrip()
            out.print(line)


def _score_lines(row: dict) -> list[str]:
    scores = row["final"] or row["score"]
    return [f"{p} {s}" for p, s in scores.items()] + ([] if row["over"] else ["(so far)"])


def show_history(rows: list[dict], older: int = 0) -> None:
    """Sessions newest first; ``older``: how many older ones are left out."""
    if len(rows) > LONG and console().width < 80:  # a phone: a few lines a session, not measured
        _long_blocks(rows, lambda row: "", _score_lines)
    elif len(rows) > LONG:
        _aligned(HISTORY_HEADS, [history_cells(row) for row in rows])

    def table(medium: bool) -> Table:
        history = _table()
        heads = ("Started", "Session", "Hands", "Winner", "Score") if medium else \
            ("Started", "Session", "Variant", "Hands", "Winner", "Score")
        for head in heads:
            _column(history, head, right=head == "Hands")
        for row in rows:
            winner = row["winner"] or ("in play" if not row["over"] else "")
            variant = VARIANT_NAMES[row["variant"]]
            if medium:
                cells = [_when(row["created_at"])[:10], [row["name"], variant]]
            else:
                cells = [_when(row["created_at"]), row["name"], variant]
            _row(history, *cells, str(row["hands_played"]), winner, _score_lines(row))
        return history

    def blocks() -> Group:
        return _session_blocks(rows, lambda row: "", _score_lines)

    if rows and len(rows) <= LONG:
        _show(_fit(lambda: table(False), lambda: table(True), blocks))
    if rows:
        _older(older, "history")
    else:
        say("No sessions match.")
    _matches_notes([(row.get("match"), row["name"]) for row in rows])


HISTORY_HEADS = ("Started", "Session", "Variant", "Hands", "Winner", "Score")  # history_cells, in this order


def history_cells(row: dict) -> list[str]:
    """A session's cells in the long ``history`` list, each made visible (kept in the cache as
    ``session_cells`` are)."""
    score = ", ".join(f"{p} {s}" for p, s in (row["final"] or row["score"]).items())
    return [visible(_when(row["created_at"])), visible(row["name"]), VARIANT_NAMES[row["variant"]],
            str(row["hands_played"]), visible(row["winner"] or ("in play" if not row["over"] else "")),
            visible(score + ("" if row["over"] else " (so far)"))]


def show_long_history(cells: list[list[str]], matched: list[tuple], older: int) -> None:
    """``show_history`` of a list drawn as long lines (``long_lines``), from each session's
    ``history_cells`` and its (match, name), newest first."""
    _aligned(HISTORY_HEADS, cells)
    _older(older, "history")
    _matches_notes(matched)


def _matches_notes(matched: list[tuple]) -> None:
    """The matches among the sessions listed, each (match id or None, name), newest first."""
    matches: dict[str, list[str]] = {}
    for match, name in reversed(matched):  # oldest first
        if match is not None:
            matches.setdefault(match, []).append(visible(name))
    for names in matches.values():
        say(f"One match (linked by `ginscore rematch`): {', '.join(names)}.")


def show_house(facts: SessionFacts, named: bool = False) -> None:
    """Every house rule of the session, in plain words, with the option that changes it; ``named``:
    the session was named (--session), so the advice names it too (else it would change the current one)."""
    rows = house_rule_rows(facts)

    def table(options: str) -> Table:
        """``options``: "column" (a column of their own), "below" (under each setting) or "" (none)."""
        made = _table(title=Text(f"House rules of '{visible(facts.name)}'"), title_justify="left")
        for head in ("Rule", "Setting", "Change with")[: 3 if options == "column" else 2]:
            _column(made, head)
        for rule, setting, option in rows:
            if options == "column":
                _row(made, rule, setting, option)
            else:
                _row(made, rule, [setting, option] if options == "below" else setting)
        return made

    def lines() -> Text:  # a phone: a line a rule
        width = console().width
        said = [Text(f"House rules of '{visible(facts.name)}'")]
        for rule, setting, _ in rows:
            said += _wrapped(Text(f"{rule}: {setting}"), width)
        return Text("\n").join(said)

    _show(_fit(lambda: table("column"), lambda: table("below"), lambda: table(""), lines))
    session = f" --session {visible(as_typed(facts.name))}" if named else ""
    say(f"Change any of them with `ginscore house{session} OPTION`; every hand is rescored.")


def show_house_change(before: SessionFacts, after: SessionFacts, st: Standings) -> None:
    """What `house` changed, then the rescored standings."""
    old = {rule: setting for rule, setting, _ in house_rule_rows(before)}
    changed = [(rule, old.get(rule), setting) for rule, setting, _ in house_rule_rows(after) if old.get(rule) != setting]
    if not changed:
        say(f"The house rules of '{visible(after.name)}' are already so; nothing was changed.")
        return
    hands = len(after.hands)
    say(f"Changed the house rules of '{visible(after.name)}' and rescored {hands} hand{'s' if hands != 1 else ''}:")
    for rule, was, now in changed:
        say(f"  {rule}: {now} (was {was})")
    show_standings(st)


def show_match(doc: dict) -> None:
    """The match so far, under a session's standings (`status`)."""
    names = ", ".join(visible(n) for n in doc["sessions"])
    count = len(doc["sessions"])
    say(f"Match so far ({count} session{'s' if count != 1 else ''}: {names}):", "bold")
    for player, won in doc["games_won"].items():
        say(f"  {visible(player)}: {won} game{'s' if won != 1 else ''} won, {doc['finals'][player]} points in finished games")
    if "settlement" in doc:
        if not doc["settlement"]:
            say("  Settled so far: nobody owes anything (H7).")
        for p in doc["settlement"]:
            say(f"  Settled so far: {visible(p['from'])} pays {visible(p['to'])} {p['amount']} (H7).")


LONG = 200  # sessions past which a list is drawn as plain lines, not measured by Rich


def _long_list(rows: list[dict], heads: tuple, cells) -> None:
    """A long list (``--all`` over years of evenings) as one line a session in aligned columns.

    Rich measures every cell of a table twice; for thousands of sessions that
    takes seconds, so a long list is laid out here: every cell made visible,
    columns as wide as their widest cell (Rich's cell width: wide characters
    count two), the last column left to wrap.
    """
    _aligned(heads, [[visible(cell) for cell in cells(row)] for row in rows])


def _aligned(heads: tuple, cells: list[list[str]]) -> None:
    """``_long_list`` of lines of cells already made visible."""
    lines = [list(heads)] + cells
    sizes = [[_cells(cell) for cell in line] for line in lines]
    widths = [max(size[i] for size in sizes) for i in range(len(heads))]

    right = [head == "Hands" for head in heads]  # counts line up on the right, as in the short lists

    def joined(line: list[str], size: list[int]) -> str:
        padded = [" " * (w - n) + cell if flush else cell + " " * (w - n)
                  for cell, n, w, flush in zip(line[:-1], size, widths, right)]
        return "  ".join(padded + [line[-1]]).rstrip()

    out = [joined(lines[0], sizes[0]), "─" * min(screen_width(), sum(widths) + 2 * (len(widths) - 1))]
    out += [joined(line, size) for line, size in zip(lines[1:], sizes[1:])]
    console().file.write("\n".join(out) + "\n")


STAT_COLUMNS = [  # headings of two short lines, so more statistics fit side by side
    (("Sessions",), "sessions"), (("Sessions", "won"), "sessions_won"),
    (("Hollywood", "games won"), "hollywood_games_won"), (("Hands",), "hands"), (("Hands", "won"), "hands_won"),
    (("Gins",), "gins"), (("Big", "gins"), "big_gins"), (("Knocks", "won"), "knocks_won"),
    (("Undercuts", "scored"), "undercuts_scored"), (("Undercut", "(suffered)"), "undercuts_suffered"),
    (("Avg deadwood", "knocking"), "avg_deadwood_knocking"), (("Avg deadwood", "caught"), "avg_deadwood_caught"),
    (("Points", "a hand"), "points_per_hand"), (("Longest run", "of wins"), "longest_run"),
]


def _stats_table(doc: dict, columns: list[tuple[tuple[str, ...], str]]) -> Table:
    table = _table()
    _column(table, "Player")
    for head, _ in columns:
        _column(table, head, right=True)
    for name, record in doc["players"].items():
        _row(table, name, *[_stat_cell(record[key]) for _, key in columns])
    return table


def _stat_cell(value) -> str:
    """A statistic as people read it: counts whole, averages with two decimals (3.20, not 3.2)."""
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _stats_tables(doc: dict) -> list[Table]:
    """A player a row; the statistics in as few tables as fit the screen side by side."""
    players = doc["players"].values()
    columns = [c for c in STAT_COLUMNS if c[1] != "hollywood_games_won" or any(r[c[1]] for r in players)]
    width = console().width
    whole = _stats_table(doc, columns)
    measured = fast_table.content_widths(whole)  # the Player column, then each statistic's (all plain text)

    def fits(chosen: list[int]) -> bool:
        return fast_table.table_width(whole, [measured[0]] + [measured[n + 1] for n in chosen]) <= width

    groups, group = [], []
    for number in range(len(columns)):
        if group and not fits(group + [number]):
            groups.append(group)
            group = []
        group.append(number)
    groups.append(group)
    per = -(-len(columns) // len(groups))  # as many tables, evened out, when they still fit
    even = [list(range(n, min(n + per, len(columns)))) for n in range(0, len(columns), per)]
    if len(even) == len(groups) and all(fits(g) for g in even):
        groups = even
    if len(groups) == 1:
        return [whole]
    return [_stats_table(doc, [columns[n] for n in chosen]) for chosen in groups]


def show_stats(doc: dict) -> None:
    """A player a row, a statistic a column (split into several tables on a narrow screen)."""
    out = console()
    if doc["players"]:
        for number, table in enumerate(_stats_tables(doc)):
            if number:
                out.print()
            _show(table)
    if doc["head_to_head"]:
        pairs = doc["head_to_head"]

        def head_to_head(stacked: bool) -> Table:
            table = _table(title="Head to head", title_justify="left", leading=1 if stacked else 0)
            for head in ("Players", "Sessions", "Wins"):
                _column(table, head, right=head != "Players")
            for pair in pairs:
                a, b = pair["players"]
                wins = [str(pair["wins"][a]), str(pair["wins"][b])]
                if stacked:
                    _row(table, [a, b], str(pair["sessions"]), wins)
                else:
                    _row(table, f"{a} v {b}", str(pair["sessions"]), " - ".join(wins))
            return table

        out.print()
        _show(_fit(lambda: head_to_head(False), lambda: head_to_head(True)))
    if not doc["players"]:
        say("No hands played in the sessions that match, so there is nothing to count yet.")


def _rating(value: float) -> str:
    """A rating to one decimal (the ladder's figure), never "-0.0"."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _rating_words(line: dict, rank: int | None) -> str:
    place = f"#{rank} · " if rank is not None else ""
    return (f"{place}rating {_rating(line['ordinal'])} (mu {line['mu']:.2f}, sigma {line['sigma']:.2f}) · "
            f"{counted(line['games'], 'game')} rated")


def show_ratings(players: list[dict], ranks: list[int | None], named: bool = False, filtered: bool = False) -> None:
    """The ladder (``ratings --json``'s players with their ``ranks``); ``named``: the players
    --player names, each with their rating after each of their games."""
    heads = ("#", "Player", "Rating", "Mu", "Sigma", "Games", "Last game")

    def cells(line: dict, rank: int | None, short: bool) -> list:
        last = _when(line["last_played"])[:10 if short else 16] or "-"
        rating, mu, sigma, games = _rating(line["ordinal"]), f"{line['mu']:.2f}", f"{line['sigma']:.2f}", str(line["games"])
        if short:  # a phone: the last game's day under the name, sigma under mu
            return ["" if rank is None else str(rank), [line["name"], last], rating, [mu, sigma], games]
        return ["" if rank is None else str(rank), line["name"], rating, mu, sigma, games, last]

    def table(short: bool) -> Table:
        ladder = _table()
        for head in ("#", ("Player", "Last game"), "Rating", ("Mu", "Sigma"), "Games") if short else heads:
            _column(ladder, head, right=head not in ("Player", "Last game", ("Player", "Last game")))
        for line, rank in zip(players, ranks):
            _row(ladder, *cells(line, rank, short))
        return ladder

    def blocks() -> Group:
        shown = [_text([f"{'' if rank is None else f'{rank}. '}{line['name']}",
                        f"rating {_rating(line['ordinal'])} · {counted(line['games'], 'game')} rated",
                        f"mu {line['mu']:.2f} · sigma {line['sigma']:.2f}",
                        f"last game {_when(line['last_played']) or '-'}"]) for line, rank in zip(players, ranks)]
        return Group(*[part for n, block in enumerate(shown) for part in ([Text()] if n else []) + [block]])

    if named:
        for line, rank in zip(players, ranks):
            _show_rating_history(line, rank)
    elif len(players) > LONG and console().width < 80:  # a phone: a few lines a player, not measured
        console().print(blocks())
    elif len(players) > LONG:
        _long_list(list(zip(players, ranks)), heads, lambda pair: cells(*pair, False))
    elif players:
        _show(_fit(lambda: table(False), lambda: table(True), blocks))
    if not players:
        say("No finished games match, so nobody is rated." if filtered else
            "No finished games yet, so nobody is rated; a game counts once it has a winner.")
    else:
        say("Rating: mu - 3 sigma (OpenSkill Plackett-Luce); a start is mu 25, sigma 8.33.")


def _show_rating_history(line: dict, rank: int | None) -> None:
    """One player's ladder line, then their rating after each of their games."""
    say(line["name"], "bold")
    say(_rating_words(line, rank))
    history = line["history"]
    if not history:
        say("No games rated yet.")
        return
    heads = ("Game", "Finished", "Session", "Place", "Rating", "Mu", "Sigma")

    def cells(n: int, game: dict, short: bool) -> list:
        session = game["session"] + (f" (game {game['game']})" if game["game"] is not None else "")
        place = f"{game['rank']} of {game['of']}"
        numbers = [_rating(game["ordinal"]), f"{game['mu']:.2f}", f"{game['sigma']:.2f}"]
        if short:
            return [str(n), [_when(game["finished"])[:10] or "-", session], place, numbers[0]]
        return [str(n), _when(game["finished"]) or "-", session, place, *numbers]

    def table(short: bool) -> Table:
        games = _table()
        for head in ("Game", ("Finished", "Session"), "Place", "Rating") if short else heads:
            _column(games, head, right=head not in ("Finished", "Session", ("Finished", "Session")))
        for n, game in enumerate(history, start=1):
            _row(games, *cells(n, game, short))
        return games

    def blocks() -> Group:
        return Group(*[_text([f"{n}. {_when(game['finished'])[:10] or '-'} · {game['rank']} of {game['of']} · "
                              f"rating {_rating(game['ordinal'])}", "   " + cells(n, game, False)[2]])
                       for n, game in enumerate(history, start=1)])

    if len(history) > LONG and console().width < 80:  # a phone: two lines a game, not measured as a table
        console().print(blocks())
    elif len(history) > LONG:
        _long_list(list(enumerate(history, start=1)), heads, lambda entry: cells(*entry, False))
    else:
        _show(_fit(lambda: table(False), lambda: table(True), blocks))
    console().print()


def show_ratings_chart(players: list[dict], more: int = 0, filtered: bool = False, named: bool = False) -> None:
    """Each player's rating after each of their games (``players`` with their ``history``)."""
    from ginscore.present.chart import plot_ratings

    charted = [line for line in players if line["history"]]
    if not charted:
        say("No game of theirs is rated, so there is nothing to draw." if named else
            "No finished games match, so there is nothing to draw." if filtered else
            "No finished games yet, so there is nothing to draw.")
        return
    out = console()
    series = {line["name"]: [game["ordinal"] for game in line["history"]] for line in charted}
    lines = plot_ratings(series, title="Rating (mu - 3 sigma) after each game", width=out.width)
    _print_charts([[(lines, max(len(text) for text in lines))]], list(series))
    _say_legend(list(series))
    say("* several   - - 0, the start   each player's games from their first")
    if more > 0:
        say(f"{counted(more, 'more player')} not drawn: name the players to draw with --player NAME.")


_RULE_ID = r"([RH][0-9]+)\s+(.*)"


def show_rules(lines: list[str]) -> None:
    """The rule book: each rule's id in a column of its own, its words wrapped to the screen beside it."""
    out = console()
    shown = []
    for line in map(advice, lines):  # (the book's own words: "change any house rule with `ginscore house`")
        found = re.fullmatch(_RULE_ID, line)
        if not found:
            shown += _wrapped(_text(line.strip()), out.width)
            continue
        rule, words = found.groups()
        indent = len("R10 ") if out.width >= 30 else 0
        wrapped = _wrapped(_text(words), out.width - indent) if indent else _wrapped(_text(line), out.width)
        if indent:
            wrapped = [Text(f"{rule:<{indent - 1}} " if n == 0 else " " * indent).append_text(part)
                       for n, part in enumerate(wrapped)]
        shown += wrapped
    out.print(Text("\n").join(shown))
