"""Tables for people: cells as plain text, the widest layout that fits, and long lists. A cell reaches
Rich as visible ``Text``, never as markup, so a name like ``[bold]Ann`` prints literally."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ginscore.core.escape import visible
from ginscore.present import fast_table
from ginscore.present.console import say, screen
from ginscore.present.terminal import screen_width
from ginscore.present.wrapping import cell_width, wrapped_plain

LONG = 200  # entries (sessions, players, ratings) past which a list is drawn as plain lines, not measured by Rich


def cell(value, style: str = "") -> Text:
    """A cell for Rich: outside text made visible, never markup; a list is one line an item."""
    if isinstance(value, Text):
        return value
    if isinstance(value, (list, tuple)):
        return Text("\n".join(visible(v) for v in value), style=style)
    return Text(visible(value), style=style)


def table_of(columns, rows, **options) -> Table:
    """A table of ``columns`` (each a heading and whether it is aligned right) and ``rows``, with no outer
    padding, so narrow screens keep every character for the cells. No column is wrapped nor cut with '…':
    layouts are chosen to fit instead."""
    made = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), **options)
    for head, right in columns:
        made.add_column(cell(head), justify="right" if right else "left", no_wrap=True, overflow="fold")
    for row in rows:
        made.add_row(*map(cell, row))
    return made


def table_of_columns(columns, **options) -> Table:
    """``table_of`` columns given as (heading, aligned right, cells)."""
    return table_of([(head, right) for head, right, _ in columns], zip(*(cells for _, _, cells in columns)), **options)


def natural_width(renderable) -> int:
    """How wide a renderable is when nothing in it wraps: what Rich's measure says."""
    if isinstance(renderable, Table):
        widths = fast_table.content_widths(renderable)
        if widths is not None:
            return fast_table.table_width(renderable, widths)
    out = screen()
    return out.measure(renderable, options=out.options.update_width(10_000)).maximum


def show(renderable) -> None:
    """Print what a screen shows; a table too wide is not cropped: one line says how wide the screen must be."""
    out = screen()
    if isinstance(renderable, Table):
        needed = natural_width(renderable)  # (no column of a ``table_of`` wraps)
        if needed > out.width:
            say(f"Too narrow: needs {needed} columns.")
            return
        drawn = fast_table.draw(renderable, out)
        renderable = renderable if drawn is None else drawn
    out.print(renderable)


def fit(*layouts):
    """The first layout (a function making a renderable) that fits the screen whole; else the last."""
    width = screen().width
    for make in layouts[:-1]:
        renderable = make()
        if natural_width(renderable) <= width:
            return renderable
    return layouts[-1]()


def long_lines(count: int) -> bool:
    """Whether a list of ``count`` entries is drawn as long lines (from cells the cache may keep)."""
    return count > LONG and screen().width >= 80


def show_list(count: int, phone, long, *layouts) -> None:
    """A list of ``count`` entries in the first of ``layouts`` that fits; past ``LONG`` (too many for Rich to
    measure quickly) ``phone()`` under 80 columns, else ``long()``."""
    if long_lines(count):
        long()
    elif count > LONG:
        phone()
    elif count:
        show(fit(*layouts))


def blocks(entries: list[list[str]], apart: bool = True) -> Group:
    """Entries of a few lines each, for screens too narrow for a table; ``apart``: a blank line between."""
    shown: list[Text] = []
    for lines in entries:
        shown += [Text(), cell(lines)] if shown and apart else [cell(lines)]
    return Group(*shown)


def heading_and_value(head: str, value: str) -> list[str]:
    """A line of a block, "  Points  18"; on a screen too narrow for it, the value under its heading, indented
    as it (so "in the box" and "55 (won)" stay whole where a line has room for them)."""
    width = screen().width
    if cell_width(f"  {head}  {value}") <= width:
        return [f"  {head}  {value}"]
    return wrapped_plain(f"  {head}", width) + wrapped_plain(f"  {value}", width)


def time_text(iso: str | None) -> str:
    """A recorded time for people: 2026-11-29 21:15."""
    return (iso or "")[:16].replace("T", " ")


def show_aligned(heads: tuple, cells: list[list[str]]) -> None:
    """A long list as one line a row in aligned columns, without Rich measuring every cell; ``cells`` are visible."""
    lines = [list(heads)] + cells
    sizes = [[cell_width(text) for text in line] for line in lines]
    widths = [max(size[i] for size in sizes) for i in range(len(heads))]
    right = [head == "Hands" for head in heads]  # counts line up on the right, as in the short lists

    def joined(line: list[str], size: list[int]) -> str:
        padded = [" " * (w - n) + text if flush else text + " " * (w - n)
                  for text, n, w, flush in zip(line[:-1], size, widths, right)]
        return "  ".join(padded + [line[-1]]).rstrip()

    out = [joined(lines[0], sizes[0]), "─" * min(screen_width(), sum(widths) + 2 * (len(widths) - 1))]
    out += [joined(line, size) for line, size in zip(lines[1:], sizes[1:])]
    screen().file.write("\n".join(out) + "\n")
