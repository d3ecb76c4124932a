"""The fast table draws what Rich's table draws."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ginscore.present import fast_table as drawn
from ginscore.present import tables
from tests.profiles import examples

CELL = st.lists(
    st.text(alphabet=st.sampled_from("aZ9 -·…ÉéJosé李王ｱＡ😀\u0301"), max_size=14), min_size=1, max_size=3,
).map(lambda lines: "\n".join(lines))


class _Terminal(io.StringIO):
    def __init__(self, encoding: str):
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self):
        return self._encoding

    def isatty(self):
        return True


def _both(table: Table, width: int, encoding: str = "utf-8", colour: bool = True, draw=None) -> tuple[list, list | None]:
    """What Rich draws for ``table`` and what ``drawn`` draws (None: it left it to Rich), on the same
    kind of terminal: each as its characters with their styles (as a terminal shows them), and the
    bytes written when there is no colour."""
    shown = []
    for how in ("rich", "drawn"):
        out = Console(file=_Terminal(encoding), width=width, force_terminal=colour, no_color=not colour,
                      color_system="truecolor" if colour else None, highlight=False, emoji=False)
        made = (draw or drawn.draw)(table, out) if how == "drawn" else table
        if made is None:
            return shown[0], None
        styled = [(char, str(s.style or "")) for s in out.render(made) for char in s.text]
        out.print(made)
        shown.append((styled, out.file.getvalue() if not colour else None))
    return shown[0], shown[1]


def _rich_width(table: Table) -> int:
    out = Console(width=80, file=open("/dev/null", "w"))
    return out.measure(table, options=out.options.update_width(10_000)).maximum


def _made(heads: list[str], rows: list[list[str]], **options) -> Table:
    return tables.table_of([(head, number % 2 == 1) for number, head in enumerate(heads)], rows, **options)


@settings(max_examples=examples(300))
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.lists(CELL, min_size=n, max_size=n),
    st.lists(st.lists(CELL, min_size=n, max_size=n), max_size=5),
)), st.booleans())
def test_a_tables_width_from_its_cells_is_richs(table, titled):
    heads, rows = table
    made = _made(heads, rows, **({"title": "Head to head", "title_justify": "left"} if titled else {}))
    assert tables.natural_width(made) == _rich_width(made)


@settings(max_examples=examples(100))
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(CELL, min_size=n, max_size=n),
    st.lists(st.lists(CELL, min_size=n, max_size=n), max_size=4),
    st.lists(st.integers(1, n - 1), min_size=1, max_size=n - 1, unique=True),
)))
def test_some_columns_of_a_table_are_as_wide_as_that_table(table):
    """`stats` splits its columns into tables that fit, from the widths of one table of all of them."""
    heads, rows, chosen = table
    chosen = [0, *sorted(chosen)]
    widths = drawn.content_widths(_made(heads, rows))
    part = _made([heads[n] for n in chosen], [[row[n] for n in chosen] for row in rows])
    assert drawn.table_width(part, [widths[n] for n in chosen]) == _rich_width(part)


def test_a_table_of_other_renderables_is_measured_by_rich():
    table = tables.table_of([("Board", False)], [])
    table.add_row(Table.grid())
    assert drawn.content_widths(table) is None
    assert tables.natural_width(table) == _rich_width(table)
    styled = tables.table_of([(Text("wide heading", style="bold"), False)], [["x"]])
    assert tables.natural_width(styled) == _rich_width(styled) == len("wide heading")


STYLED = st.tuples(st.one_of(CELL, st.lists(CELL, min_size=1, max_size=3)),  # a list: a line an item
                   st.sampled_from(["", "bold", "dim", "bold green", "italic red"]))


@settings(max_examples=examples(400))
@given(st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.lists(CELL, min_size=n, max_size=n),
    st.lists(st.lists(STYLED, min_size=n, max_size=n), max_size=5),
)), st.sampled_from([None, "Head to head"]), st.integers(0, 1), st.sampled_from(["utf-8", "ascii"]), st.booleans(),
    st.integers(0, 3))
def test_a_table_drawn_line_by_line_is_what_rich_draws(table, title, leading, encoding, colour, room):
    heads, rows = table
    made = _made(heads, [[tables.cell(value, style) for value, style in row] for row in rows],
                 **({"title": title, "title_justify": "left"} if title else {}), leading=leading)
    width = max(tables.natural_width(made), 1) + room
    rich, mine = _both(made, width, encoding, colour)
    if mine is None:  # left to Rich: a title wider than the table, a column of nothing at the edge, a combining mark
        widths = drawn.content_widths(made)
        assert (title and len(title) > tables.natural_width(made)) or (widths and widths[-1] == 0 and room == 0) \
            or any(drawn.has_zero_width(cell.plain) or (cell.plain and not cell.plain.strip("\n"))
                   for column in made.columns for cell in (column.header, *column.cells))
    else:
        assert mine == rich


def test_a_table_wider_than_the_screen_is_left_to_rich():
    made = _made(["Player", "Score"], [["Alexandrina", "1234567"]])
    width = tables.natural_width(made)
    assert drawn.draw(made, Console(width=width)) is not None
    assert drawn.draw(made, Console(width=width - 1)) is None


SCREENS = [["status"], ["log"], ["stats"], ["sessions"], ["history"], ["dealer"], ["rules", "standard"]]


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_every_screen_draws_its_tables_as_rich_would(ok, monkeypatch, columns):
    """Each variant's evening on every screen: each table ``drawn`` draws, compared with Rich's."""
    compared = []
    real = drawn.draw

    def checked(table, out):
        mine = real(table, out)
        if mine is not None:
            rich, ours = _both(table, out.width, out.encoding, colour=True, draw=real)
            assert ours == rich
            compared.append(table)
        return mine

    monkeypatch.setattr(drawn, "draw", checked)
    monkeypatch.setenv("COLUMNS", str(columns))
    ok("new", "hollywood", "Ann", "Bartholomew", "--dealer", "ann", "--name", "hollywood")
    for hand in (["ann", "5", "40"], ["bart", "0", "18"], ["ann", "9", "7"]):
        ok("hand", *hand)
    ok("new", "three", "Ann", "Bartholomew", "Cy", "--box", "ann", "--captain", "cy", "--name", "three")
    for hand in (["ann", "5", "40"], ["bart", "0", "18"]):
        ok("hand", *hand)
    ok("draw")
    ok("new", "oklahoma", "José", "李王", "--dealer", "josé", "--name", "okla")
    ok("hand", "josé", "3", "40", "--upcard", "7S")
    for args in SCREENS:
        for session in ("hollywood", "three", "okla"):
            ok(*args, *(["--session", session] if args[0] in ("status", "log", "dealer") else []))
    assert len(compared) > 20


def test_a_recording_console_gets_richs_own_table():
    """`export --format svg` places each of Rich's cells on its own: after a wide character an SVG
    viewer's font would otherwise shift the rest of a row drawn as one run."""
    made = _made(["Player", "Score"], [["李王", "12"]])
    assert drawn.draw(made, Console(width=80)) is not None
    assert drawn.draw(made, Console(width=80, record=True)) is None


def test_rows_spaced_more_than_one_line_apart_are_left_to_rich():
    made = tables.table_of([("Player", False)], [["Ann"], ["Ben"]], leading=2)
    assert drawn.draw(made, Console(width=80)) is None
