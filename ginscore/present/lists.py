"""The lists of sessions: `sessions` (and the deleted ones), `history`, and how many fit a screen.
A list longer than ``tables.LONG`` is drawn from each session's cells, which the cache keeps."""

from __future__ import annotations

from itertools import accumulate

from rich.cells import cell_len
from rich.table import Table

from ginscore.core.errors import Command
from ginscore.core.escape import visible
from ginscore.core.reports import VARIANT_NAMES, counted
from ginscore.present import fast_table
from ginscore.present.console import say, screen
from ginscore.present.tables import blocks, long_lines, natural_width, show_aligned, show_list, table_of, time_text
from ginscore.present.terminal import command_text, screen_height, screen_width
from ginscore.present.wrapping import wrapped_plain


def show_fitting(rows: list, show, lines_of=lambda row: 1) -> None:
    """Show as many of ``rows`` (those to keep first, at least 3) as one screen holds with the notes and the
    prompt. Each count is drawn to measure it, as the layout chosen decides how tall a row is."""
    room = screen_height() - 1
    out = screen()
    drawings: dict[int, list[str]] = {}

    def height(n: int) -> int:
        if n not in drawings:
            real = out.file
            out.file = _Kept(real)
            try:
                show(rows[:n])
                drawings[n] = out.file.writes
            finally:
                out.file = real
        return sum(text.count("\n") for text in drawings[n])

    least = min(3, len(rows))
    # a first guess: the rows as a table, under its head, over a note of two lines
    count = max(least, sum(1 for used in accumulate(lines_of(row) for row in rows) if used <= room - 4))
    used = height(count)
    while used > room and count > least:  # fewer, by about the lines too many
        each = max(1, used // count)
        count = max(least, count - max(1, -(-(used - room) // each)))
        used = height(count)
    while count < len(rows) and height(count + 1) <= room:  # short rows, or a whole list with no note under it
        count += 1
    for text in drawings[count]:
        out.file.write(text)
    out.file.flush()


class _Kept:
    """A console's file that keeps what is written instead of writing it, and is otherwise the file itself."""

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


def from_kept_cells(count: int) -> bool:
    """Whether a list of ``count`` sessions is drawn from the cells the cache keeps, no row read: as long
    lines, which ``show_list`` draws past the same count."""
    return long_lines(count)


def _older(older: int, *words: str) -> None:
    """How many older sessions are not listed, and the list's own command (``words``, its filters kept) to see them."""
    if older:
        say(f"{counted(older, 'older session')} not shown: {command_text(Command(*words, '--all'))} "
            f"shows every one, {command_text(Command(*words, '--limit', 'N'))} the newest N.")


def _session_result(row: dict) -> list[str]:
    if not row["winner"]:
        return ["in play"]
    return [f"won by {row['winner']}"] + (["(game 3 open)"] if not row["over"] else [])


def _fitted_block(row: dict, sessions: bool, deleted: bool = False) -> list[str]:
    """A session as a few lines for a narrow screen: with its players in `sessions`, its scores in `history`;
    a ``deleted`` one says when it was deleted, as the wide list does. The lines are visible, and broken here
    to fit the screen, each line's indent kept: Rich would break them at any space, "(game 3 open)" too."""
    lines = [
        f"{'* ' if sessions and row['current'] else ''}{row['name']} · {VARIANT_NAMES[row['variant']]}",
        f"{counted(row['hands_played'], 'hand')} · " + " ".join(_session_result(row)),
        f"deleted {time_text(row['deleted_at'])}" if deleted else f"started {time_text(row['created_at'])}",
    ] + [f"  {line}" for line in (row["players"] if sessions else _score_lines(row))]
    width = screen_width()
    return [part for line in lines for part in wrapped_plain(visible(line), width)]


def _long_blocks(rows: list[dict], sessions: bool, deleted: bool = False) -> None:
    """The blocks of a long list on a phone, drawn without Rich's measuring."""
    out: list[str] = []
    for row in rows:
        out += ([""] if out else []) + _fitted_block(row, sessions, deleted)
    screen().file.write("\n".join(out) + "\n")


def _joined(players: list[str], room: int | None) -> list[str]:
    """Players joined by "v" in lines at most ``room`` wide (None: one line; 0: a player a line), each "v"
    kept where there is room, so two names on two lines still read as two players."""
    if room is None:
        return [" v ".join(players)]
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


def _named(row: dict, medium: bool) -> list:
    """A session's name and variant as two cells; ``medium``: as one, the variant under the name."""
    named = [row["name"], VARIANT_NAMES[row["variant"]]]
    return [named] if medium else named


def _session_heads(deleted: bool) -> tuple:
    return ("", "Session", "Variant", "Players", "Hands", "Result", "Deleted" if deleted else "Started")


def show_sessions(rows: list[dict], deleted: bool = False, hidden: int = 0, older: int = 0,
                  current: str | None = None) -> None:
    """The sessions in the order they were added (or the deleted ones); ``hidden``: deleted ones not listed;
    ``older``: older ones left out; ``current``: the current session's name, said when it is left out."""
    when = "deleted_at" if deleted else "created_at"

    def table(medium: bool, room: int | None = 0, day_only: bool = False) -> Table:
        """``room``: how wide the Players column may be, its players joined by "v" on as few
        lines as fit it (None: each session on one line; 0: a player a line)."""
        heads = [head for head in _session_heads(deleted) if not (medium and head == "Variant")]
        cells = []
        for row in rows:
            players = _joined(row["players"], room)
            result = " ".join(_session_result(row)) if room is None else _session_result(row)
            started = time_text(row[when])[:10 if medium or day_only else 16]
            cells.append(["*" if row["current"] else "", *_named(row, medium), players, str(row["hands_played"]),
                          result, started])
        return table_of([(head, head == "Hands") for head in heads], cells)

    def fitted(medium: bool) -> Table:
        """The players on as few lines as the screen leaves room for; too wide (so not chosen)
        when no two players fit on a line."""
        apart = table(medium, day_only=True)
        names = fast_table.content_widths(apart)[2 if medium else 3]
        room = screen().width - (natural_width(apart) - names)
        if room < min(cell_len(" v ".join(row["players"][:2])) for row in rows):
            return table(medium, None, day_only=True)
        return table(medium, max(room, names), day_only=True)

    show_list(len(rows),
              lambda: _long_blocks(rows, True, deleted),  # past LONG, on a narrow screen
              lambda: _long_sessions([session_cells(row, when) for row in rows],  # past LONG
                                     [row["current"] for row in rows], deleted),
              # else the first of these that fits, widest first:
              lambda: table(False, None),  # a line a session
              lambda: table(False, None, day_only=True),  # the same, with the day only
              lambda: fitted(False),  # the players on as few lines as fit
              lambda: fitted(True),  # the same, each name over its variant
              lambda: table(True),  # a player a line
              lambda: blocks([_fitted_block(row, True, deleted) for row in rows]))  # a few lines a session
    _sessions_notes(bool(rows), any(row["current"] for row in rows), deleted, hidden, older, current)


def session_cells(row: dict, when: str = "created_at") -> list[str]:
    """A session's cells in the long ``sessions`` list (but the current mark), each visible: the cache keeps them."""
    return [visible(row["name"]), VARIANT_NAMES[row["variant"]], visible(" v ".join(row["players"])),
            str(row["hands_played"]), visible(" ".join(_session_result(row))), visible(time_text(row[when]))]


SESSION_CELLS = 6  # what session_cells makes of a session


def _long_sessions(cells: list[list[str]], current: list[bool], deleted: bool) -> None:
    show_aligned(_session_heads(deleted), [["*" if now else ""] + line for line, now in zip(cells, current)])


def show_long_sessions(cells: list[list[str]], current: list[bool], hidden: int, older: int,
                       current_name: str | None) -> None:
    """``show_sessions`` drawn as long lines, from each session's ``session_cells`` and current mark."""
    _long_sessions(cells, current, False)
    _sessions_notes(bool(cells), any(current), False, hidden, older, current_name)


def _sessions_notes(listed: bool, current_listed: bool, deleted: bool, hidden: int, older: int,
                    current: str | None) -> None:
    """What a list of sessions says under it."""
    _older(older, "sessions", *(("--deleted",) if deleted else ()))
    if older and current is not None and not current_listed:
        say(f"The current session, '{current}', is among them ({command_text(Command('status'))} shows it).")
    if not listed and deleted:
        say("No deleted sessions.")
    elif not listed and not hidden:
        say(f"No sessions yet; start one, like {command_text(Command('new', 'standard', 'Ann', 'Ben'))}.")
    elif deleted:
        say(f"{command_text(Command('restore', 'NAME'))} brings one back.")
    if hidden and not deleted:
        say(f"Not listed: {counted(hidden, 'deleted session')} ({command_text(Command('sessions', '--deleted'))}).")


def _score_lines(row: dict) -> list[str]:
    scores = row["final"] or row["score"]
    return [f"{p} {s}" for p, s in scores.items()] + ([] if row["over"] else ["(so far)"])


def history_lines(row: dict) -> int:
    """Lines a session takes in the ``history`` table: one a score line."""
    return len(_score_lines(row))


def _winner(row: dict) -> str:
    return row["winner"] or ("in play" if not row["over"] else "")


HISTORY_HEADS = ("Started", "Session", "Variant", "Hands", "Winner", "Score")  # history_cells, in this order


def show_history(rows: list[dict], older: int = 0, filters: tuple[str, ...] = (), hidden: int = 0) -> None:
    """Sessions newest first; ``older``: how many older ones are left out; ``filters``: the options that
    chose them, as typed; with none to show, ``hidden``: how many deleted ones are not listed."""

    def table(medium: bool) -> Table:
        heads = [head for head in HISTORY_HEADS if not (medium and head == "Variant")]
        cells = [[time_text(row["created_at"])[:10 if medium else 16], *_named(row, medium), str(row["hands_played"]),
                  _winner(row), _score_lines(row)] for row in rows]
        return table_of([(head, head == "Hands") for head in heads], cells)

    show_list(len(rows),
              lambda: _long_blocks(rows, False),  # past LONG, on a narrow screen
              lambda: show_aligned(HISTORY_HEADS, [history_cells(row) for row in rows]),  # past LONG
              # else the first of these that fits, widest first:
              lambda: table(False),  # the time in full, name and variant apart
              lambda: table(True),  # the day only, each name over its variant
              lambda: blocks([_fitted_block(row, False) for row in rows]))  # a few lines a session
    if rows:
        _older(older, "history", *filters)
    elif filters:
        say("No sessions match.")
    else:
        _sessions_notes(False, False, False, hidden, 0, None)  # as `sessions` says it
    _matches_notes([(row.get("match"), row["name"]) for row in rows])


def history_cells(row: dict) -> list[str]:
    """A session's cells in the long ``history`` list, each visible: the cache keeps them."""
    score = ", ".join(f"{p} {s}" for p, s in (row["final"] or row["score"]).items())
    return [visible(time_text(row["created_at"])), visible(row["name"]), VARIANT_NAMES[row["variant"]],
            str(row["hands_played"]), visible(_winner(row)), visible(score + ("" if row["over"] else " (so far)"))]


def show_long_history(cells: list[list[str]], matched: list[tuple], older: int, filters: tuple[str, ...]) -> None:
    """``show_history`` drawn as long lines, from each session's ``history_cells`` and (match, name), newest first."""
    show_aligned(HISTORY_HEADS, cells)
    _older(older, "history", *filters)
    _matches_notes(matched)


def _matches_notes(matched: list[tuple]) -> None:
    """The matches among the sessions listed, each (match id or None, name), newest first."""
    matches: dict[str, list[str]] = {}
    for match, name in reversed(matched):  # oldest first
        if match is not None:
            matches.setdefault(match, []).append(name)
    for names in (names for names in matches.values() if len(names) > 1):  # one game listed alone: no match said
        # (a game may have had two rematches, one on each of two machines merged: no chain is claimed)
        quoted = ", ".join(f"'{name}'" for name in names)
        say(f"Games of one match, oldest first: {quoted}.", names=names)
