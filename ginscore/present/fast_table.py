"""Tables of plain text measured and drawn exactly as Rich draws them, without Rich's slow layout
(tests/screens/test_fast_table.py compares both). Anything else is left to Rich, and so is a recording
console: an SVG places each of Rich's cells on its own, which keeps columns straight after wide characters.
"""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console
from rich.style import Style
from rich.table import Table
from rich.text import Text


def content_widths(table: Table) -> list[int] | None:
    """Each column's widest line (heading too) in a plain ``Text`` table like ``tables.table_of``'s; else None."""
    if table.width is not None or table.min_width is not None or table.show_footer or not table.show_header \
            or table.collapse_padding or table.expand or table.caption is not None:
        return None
    widths = []
    for column in table.columns:
        if column.width is not None or column.min_width is not None or column.max_width is not None \
                or column.ratio is not None:
            return None
        cells = (column.header, *column.cells)
        if any(type(cell) is not Text or (cell.plain and not cell.plain.strip("\n")) for cell in cells):
            return None  # (a cell of only line breaks: Rich shows fewer lines)
        widths.append(max((cell_len(line) for cell in cells for line in cell.plain.splitlines()), default=0))
    return widths


def _paddings(table: Table, count: int) -> list[tuple[int, int]]:
    """(left, right) padding of each column: none at the edges when ``pad_edge`` is off."""
    _, right, _, left = table.padding
    last = count - 1
    return [(0 if n == 0 and not table.pad_edge else left, 0 if n == last and not table.pad_edge else right)
            for n in range(count)]


def table_width(table: Table, widths: list[int]) -> int:
    """The width Rich measures ``table`` at, with columns whose widest lines are ``widths``."""
    total = sum(width + left + right for width, (left, right) in zip(widths, _paddings(table, len(widths))))
    if table.box:
        total += len(widths) - 1 + (2 if table.show_edge else 0)
    return total


def draw(table: Table, out: Console) -> Text | None:
    """``table`` as Rich would draw it on ``out``, as one ``Text``; None when Rich must lay it out."""
    widths = content_widths(table)
    if widths is None or out.record or not table.columns or not table.box or table.show_edge or table.show_lines \
            or table.leading > 1 \
            or table.row_styles or any(out.get_style(style or "") for style in (
                table.style, table.border_style, *(c.style for c in table.columns))) \
            or any(c.justify not in ("left", "right") for c in table.columns) \
            or any(row.end_section or row.style for row in table.rows):
        return None
    if any(has_zero_width(cell.plain) for column in table.columns for cell in (column.header, *column.cells)):
        return None  # (Rich drops a combining mark that starts a cell; it draws those itself)
    paddings = _paddings(table, len(widths))
    sized = [max(width + left + right, 1) for width, (left, right) in zip(widths, paddings)]  # (Rich's least: 1)
    total = sum(sized) + len(sized) - 1
    if total > out.width:
        return None  # Rich wraps or cuts what does not fit
    box = table.box.substitute(out.options, safe=out.safe_box if table.safe_box is None else table.safe_box)
    lines: list[Text] = []
    if table.title:
        title = _title(table, out, total)
        if title is None:
            return None
        lines.append(title)
    header_style = out.get_style(table.header_style or "")
    heads = [header_style + out.get_style(c.header_style or "") for c in table.columns]
    plain = Style.null()
    rows = [[column.header for column in table.columns]] + [list(r) for r in zip(*(c.cells for c in table.columns))]
    for number, cells in enumerate(rows):
        header = number == 0
        styles = heads if header else [plain] * len(cells)
        drawn = [_cell_lines(cell, column.justify, width, pad, style)
                 for cell, column, width, pad, style in zip(cells, table.columns, sized, paddings, styles)]
        height = max(len(cell) for cell in drawn)
        divider = box.head_vertical if header else (box.foot_vertical if number == len(rows) - 1 else box.mid_vertical)
        for line_no in range(height):
            line = Text()
            for n, cell in enumerate(drawn):
                at = line_no - (height - len(cell)) if header else line_no  # headings sit low, cells high
                line.append_text(cell[at] if 0 <= at < len(cell) else Text(" " * sized[n], style=styles[n]))
                if n < len(drawn) - 1:
                    line.append(divider)
            lines.append(line)
        if header:
            lines.append(Text(box.get_row(sized, "head", edge=False)))
        elif table.leading and number < len(rows) - 1:
            lines.extend(Text(box.get_row(sized, "mid", edge=False)) for _ in range(table.leading))
    return Text("\n").join(lines)


def has_zero_width(text: str) -> bool:
    """Whether ``text`` holds a character that takes no cell (a combining accent, a joiner)."""
    return not text.isascii() and any(get_character_cell_size(char) == 0 for char in text)


def _cell_lines(cell: Text, justify: str, width: int, padding: tuple[int, int], style: Style) -> list[Text]:
    """The lines of one cell, each ``width`` wide: justified within its padding, in ``style``."""
    left, right = padding
    inner = width - left - right
    lines = []
    for line in cell.split("\n", allow_blank=True):
        if justify == "right":
            line.rstrip()
        line.align(justify, inner)
        shown = Text(" " * left, style=style)
        shown.append_text(line)
        shown.append(" " * right)
        lines.append(shown)
    return lines


def _title(table: Table, out: Console, width: int) -> Text | None:
    """The table's title line as Rich draws it, justified in the table's width; None if it wraps."""
    title = table.title
    if isinstance(title, str):
        title = out.render_str(title, style=Style.pick_first(table.title_style, "table.title"), highlight=False)
    if not isinstance(title, Text) or "\n" in title.plain or title.cell_len > width \
            or table.title_justify not in ("left", "right"):
        return None
    shown = title.copy()
    shown.align(table.title_justify, width)
    return shown
