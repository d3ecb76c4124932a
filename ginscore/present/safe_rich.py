"""Rich output with every character made visible: the one door (shown.visible) for what Rich draws.

``Shown(renderable)`` draws ``renderable`` and passes the text of every
segment through ``shown.visible`` (control segments, such as a cursor move,
are Rich's own and kept). ``ShowAll`` does the same for everything printed
on a console. Used where output leaves ginscore whole: the live scoreboard
of `watch` and the pictures of `export --format html|svg`, so a name or a
note can never carry an escape sequence, or a character that XML forbids,
into the terminal or the file.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment

from ginscore.core.escape import visible_lines


class Shown:
    """A renderable drawn as the wrapped one, with every character visible."""

    def __init__(self, renderable: RenderableType):
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control:
                yield segment
            else:
                yield Segment(visible_lines(segment.text), segment.style)


class ShowAll(RenderHook):
    """Push onto a console (``Console.push_render_hook``) so that all it prints is ``Shown``."""

    def process_renderables(self, renderables: list) -> list:
        return [Shown(r) for r in renderables]
