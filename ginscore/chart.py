"""A session's scores over its hands, drawn as text.

Pure: ``plot`` turns running totals into lines of characters, one column a
hand and one letter a player, with the target as a dashed line. It reads
without colour; ``render`` only adds colour on top.
"""

from __future__ import annotations

MAX_COLUMNS = 60  # a longer session shows every n-th hand, and always the last


def markers(players: tuple[str, ...] | list[str]) -> dict[str, str]:
    """One letter a player: the initial when the initials differ, else 1, 2, 3."""
    initials = [p[:1].upper() for p in players]
    if len(set(initials)) == len(initials) and all(i.isalpha() for i in initials):
        return dict(zip(players, initials))
    return {p: str(n) for n, p in enumerate(players, start=1)}


def _sample(count: int, room: int) -> list[int]:
    """Which hands get a column, at most ``room`` of them."""
    if count <= room:
        return list(range(count))
    step = -(-count // room)
    picked = list(range(0, count, step))
    if picked[-1] != count - 1:
        picked.append(count - 1)
    return picked


def plot(series: dict[str, list[int]], target: int, height: int = 10, title: str = "", width: int = 80) -> list[str]:
    """Lines of a chart no wider than ``width``: y from 0 to the target (or the top score), x the hands.

    ``series`` maps each player to the running total after each hand. The
    target's row holds only scores at or over the target: a score just
    under it is drawn a row lower, so the chart never shows a game won
    that is not.
    """
    marks = markers(list(series))
    count = max((len(v) for v in series.values()), default=0)
    top = max([target] + [max(v) for v in series.values() if v])
    label_width = len(str(top))
    room = max(1, min(MAX_COLUMNS, width - label_width - 2))  # characters for the hands
    columns = _sample(count, room)
    cell = next(c for c in (3, 2, 1) if len(columns) * c <= room or c == 1)  # characters a hand
    grid = [[" "] * (len(columns) * cell) for _ in range(height + 1)]
    target_row = min(height - 1, height - round(target * height / top))

    def row_of(score: int) -> int:
        row = height - round(score * height / top)
        return min(row, target_row) if score >= target else min(height, max(row, target_row + 1))

    for x in range(0, len(columns) * cell, 2):
        grid[target_row][x] = "-"
    for player, totals in series.items():
        for n, hand in enumerate(columns):
            if hand < len(totals):
                row, x = grid[row_of(totals[hand])], n * cell + cell // 2
                row[x] = "*" if row[x] not in (" ", "-") else marks[player]
    labels = {0: str(top), target_row: str(target), row_of(target // 2): str(target // 2), height: "0"}
    lines = [title] if title else []
    for y, row in enumerate(grid):
        lines.append(f"{labels.get(y, ''):>{label_width}} |{''.join(row)}")
    lines.append(" " * label_width + " +" + "-" * (len(columns) * cell))
    first, last = "1", str(columns[-1] + 1) if columns else "1"
    span = len(columns) * cell
    axis = first.center(cell) + (last.center(cell).rjust(span - cell) if len(columns) > 1 else "")
    lines.append(" " * (label_width + 2) + axis)
    return [line.rstrip() for line in lines]

