"""The Rich console every screen prints on, and ``say``, the one sentence printer.

What it prints has every control or bidi character made visible and cannot fail to encode; a broken
pipe reaches the exit point as ``BrokenPipeError``, not as Rich's own ``SystemExit(1)``.
"""

from __future__ import annotations

import errno
import io
import os
import re
import sys
from contextlib import contextmanager

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment
from rich.text import Text

from ginscore.core.escape import visible_lines
from ginscore.present.terminal import SafeStdout, parts_text, screen_height, screen_width
from ginscore.present.wrapping import wrapped


class Escaped:
    """A renderable drawn with every character visible; Rich's own control segments (a cursor move) are kept."""

    def __init__(self, renderable: RenderableType):
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control:
                yield segment
            else:
                yield Segment(visible_lines(segment.text), segment.style)


class EscapingHook(RenderHook):
    """Push onto a console (``Console.push_render_hook``) so that all it prints is ``Escaped``."""

    def process_renderables(self, renderables: list) -> list:
        return [Escaped(r) for r in renderables]


class SafeConsole(Console):
    """A Rich console that never sends a raw control character and never raises on encoding."""

    def __init__(self, **options):
        super().__init__(file=SafeStdout(sys.stdout), **options)
        self.push_render_hook(EscapingHook())

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written; the exit point decides the status
        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")


_consoles: dict[tuple, Console] = {}
_recordings: list[Console] = []  # set by ``recording`` (export --format html|svg, watch)


def screen() -> Console:
    """One console per output stream, width and colour setting (tests change all three between commands)."""
    if _recordings:
        return _recordings[-1]
    width, height = screen_width(), screen_height()
    key = (id(sys.stdout), width, height, os.environ.get("NO_COLOR"), os.environ.get("FORCE_COLOR"))
    if key not in _consoles:  # both sizes given, so Rich does not ask the terminal at every print
        _consoles[key] = SafeConsole(highlight=False, emoji=False, width=width, height=height)
    return _consoles[key]


@contextmanager
def recording(**options):
    """Make every show_* function draw into a new recording console (Rich ``Console`` ``options``)."""
    out = Console(file=io.StringIO(), record=True, highlight=False, emoji=False, **options)
    out.push_render_hook(EscapingHook())
    _recordings.append(out)
    try:
        yield out
    finally:
        _recordings.pop()


def say(*parts, style: str | None = None, names=()) -> None:
    """Print one sentence of text and advised ``errors.Command``s, never read as markup, no name in ``names`` broken."""
    say_text(Text(parts_text(parts), style=style or ""), names)


def say_text(text: Text, names=()) -> None:
    """Print ``text`` wrapped to the screen, never inside one of ``names``."""
    out = screen()
    plain = text.plain
    lead = len(plain) - len(plain.lstrip(" ")) if "\n" not in plain else 0
    # a term and what it means ("  :back   ask ..."): the meaning's lines hang under it while it has room;
    # another indented item wraps 2 further in, so its lines do not read as the next item
    term = re.match(r" +\S.*?\S {2,}(?=\S)", plain) if lead else None
    if term and out.width - term.end() >= 20:
        lead = term.end()
    else:
        lead = lead + 2 if 0 < lead and (lead + 2) * 3 < out.width else 0
    lines = wrapped(text, out.width, lead, names)
    out.print(Text("\n").join([lines[0]] + [Text(" " * lead).append_text(line) for line in lines[1:]]))
