"""A session's scores over its hands (`chart`), and the ratings game by game, drawn as text:
one column a step, one letter a player, so a chart reads without colour, which is only added on top."""

from __future__ import annotations

from math import ceil, floor

from rich.text import Text

from ginscore.core.escape import visible
from ginscore.core.replay import Standings
from ginscore.core.reports import counted
from ginscore.present.console import say, screen
from ginscore.present.letters import markers, say_legend
from ginscore.present.screens import say_heading

MAX_COLUMNS = 60  # a longer session shows every n-th hand, and always the last
HEIGHT = 10  # rows of a chart above its row of 0


def _sample(count: int, room: int) -> list[int]:
    """Which hands get a column, at most ``room`` of them."""
    step = -(-count // room)  # 1 when every hand fits
    return sorted({*range(0, count, step), count - 1})  # and always the last


def plot(series: dict[str, list[int]], target: int, title: str = "", width: int = 80) -> list[str]:
    """Lines of a chart of running totals no wider than ``width``, y from 0 to the target (or the top score);
    only the target is drawn on the target's row, a score over it above, one under it below: no game looks
    won that is not, and the top score has a row (and a label) of its own."""
    top = max([target] + [max(v) for v in series.values() if v])
    target_row = min(HEIGHT - 1, HEIGHT - round(target * HEIGHT / top))
    if top > target:
        target_row = max(target_row, 1)

    def row_of(score: int) -> int:
        row = HEIGHT - round(score * HEIGHT / top)
        if score > target:
            return min(row, target_row - 1)
        return target_row if score == target else min(HEIGHT, max(row, target_row + 1))

    labels = {0: str(top), target_row: str(target), row_of(target // 2): str(target // 2), HEIGHT: "0"}
    return _chart_lines(series, row_of, target_row, labels, title, width)


def plot_ratings(series: dict[str, list[float]], title: str = "", width: int = 80) -> list[str]:
    """``plot`` for ratings, each player's first game in the first column; dashed at 0, where everyone starts."""
    values = [v for v in series.values() for v in v]
    low, high = min([0] + [floor(v) for v in values]), max([0] + [ceil(v) for v in values])
    if high == low:
        high = low + 1

    def row_of(rating: float) -> int:
        return round((high - rating) * HEIGHT / (high - low))

    labels = {row_of(high): str(high), row_of(0): "0", row_of(low): str(low)}
    return _chart_lines(series, row_of, row_of(0), labels, title, width)


def _chart_lines(series: dict, row_of, dashed_row: int, labels: dict[int, str], title: str, width: int) -> list[str]:
    """The lines of a chart: ``HEIGHT`` + 1 rows (``row_of`` a value), the dashed row, the labels at the left."""
    marks = markers(list(series))
    count = max(len(v) for v in series.values())  # at least one hand: no chart is drawn without one
    label_width = max(len(label) for label in labels.values())
    room = max(1, min(MAX_COLUMNS, width - label_width - 2))  # characters for the hands
    columns = _sample(count, room)
    cell = next(c for c in (3, 2, 1) if len(columns) * c <= room or c == 1)  # characters a hand
    grid = [[" "] * (len(columns) * cell) for _ in range(HEIGHT + 1)]
    for x in range(0, len(columns) * cell, 2):
        grid[dashed_row][x] = "-"
    for player, values in series.items():
        for n, step in enumerate(columns):
            if step < len(values):
                row, x = grid[row_of(values[step])], n * cell + cell // 2
                row[x] = "*" if row[x] not in (" ", "-") else marks[player]
    lines = [title] if title else []
    for y, row in enumerate(grid):
        lines.append(f"{labels.get(y, ''):>{label_width}} |{''.join(row)}")
    lines.append(" " * label_width + " +" + "-" * (len(columns) * cell))
    first, last = "1", str(columns[-1] + 1)
    span = len(columns) * cell
    axis = first.center(cell) + (last.center(cell).rjust(span - cell) if len(columns) > 1 else "")
    lines.append(" " * (label_width + 2) + axis)
    return [line.rstrip() for line in lines]


def show_chart(st: Standings) -> None:
    """The session's scores over its hands (Hollywood: the three games side by side, or one under another)."""
    if not say_heading(st, "No hands yet, so nothing to draw."):
        return
    facts = st.facts
    out = screen()
    # each game's target as it was played to: the one it was won under, else the one in force now (H5, H8)
    targets = [facts.rules_for(game.closed_by or len(facts.hands) + 1).target for game in st.games]
    charts = []
    for game, target in zip(st.games, targets):
        series = {p: [r.scores_after[game.number - 1][p] for r in st.hands] for p in facts.players}
        title = f"Game {game.number}" + (f" (won by {game.winner})" if game.winner else "") if len(st.games) > 1 else ""
        charts.append(plot(series, target, title=visible(title), width=out.width))
    side_by_side = sum(_width(chart) for chart in charts) + _GAP * (len(charts) - 1) <= out.width
    _print_charts([charts] if side_by_side else [[chart] for chart in charts], facts.players)
    say_legend(facts.players)
    said = f"target {targets[0]}" if len(set(targets)) == 1 else "each game's target"
    say(f"* several   - - {said}   hands left to right")


CHART_COLOURS = ("cyan", "magenta", "yellow", "green", "blue", "red")
_GAP = 4  # between charts side by side


def _width(chart: list[str]) -> int:
    return max(len(line) for line in chart)


def _print_charts(rows: list[list[list[str]]], players) -> None:
    """Charts (``plot`` lines) a row of them at a time, side by side, each player's mark in their colour."""
    out = screen()
    colours = {p: CHART_COLOURS[n % len(CHART_COLOURS)] for n, p in enumerate(players)}
    marks = {m: colours[p] for p, m in markers(players).items()}
    for number, side_by_side in enumerate(rows):
        if number:
            out.print()
        height = max(len(chart) for chart in side_by_side)
        for y in range(height):
            line = Text()
            for chart in side_by_side:
                text = chart[y] if y < len(chart) else ""
                for char in text.ljust(_width(chart) + _GAP):
                    line.append(char, style=marks.get(char, ""))
            line.rstrip()
            out.print(line)


def show_ratings_chart(players: list[dict], more: int = 0, filtered: bool = False, named: bool = False) -> None:
    """Each player's rating after each of their games (``players`` with their ``history``)."""
    charted = [line for line in players if line["history"]]
    if not charted:
        say("No game of theirs is rated, so there is nothing to draw." if named else
            "No finished games match, so there is nothing to draw." if filtered else
            "No finished games yet, so there is nothing to draw.")
        return
    series = {line["name"]: [game["ordinal"] for game in line["history"]] for line in charted}
    lines = plot_ratings(series, title="Rating (mu - 3 sigma) after each game", width=screen().width)
    _print_charts([[lines]], list(series))
    say_legend(list(series))
    say("* several   - - 0, the start   each player's games from their first")
    if more > 0:
        say(f"{counted(more, 'more player')} not drawn: name the players to draw with --player NAME.")
