"""The Rich console every human output goes through (``render.console``), built from Rich's public parts.

The safety net behind ``shown.visible``: everything printed passes a render
hook (``safe_rich.ShowAll``) that writes any control or bidi character still
left in a text segment visibly (Rich's ``Text`` removes only a few controls,
never ESC); the console writes to ``terminal.Door``, which makes the output
fit the terminal's encoding (an ASCII-only terminal gets ASCII; Rich itself
already draws tables with ASCII boxes there); and a broken pipe is reported
as ``BrokenPipeError`` for the exit point to judge, instead of Rich's own
``SystemExit(1)`` (``Console.on_broken_pipe``).
"""

from __future__ import annotations

import errno
import sys

from rich.console import Console

from ginscore.present.safe_rich import ShowAll
from ginscore.present.terminal import Door


class Screen(Console):
    """A Rich console that never sends a raw control character and never raises on encoding."""

    def __init__(self, **options):
        super().__init__(file=Door(sys.stdout), **options)
        self.push_render_hook(ShowAll())

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written; the exit point decides the status
        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")
