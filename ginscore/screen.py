"""The Rich console every human output goes through (``render.console``).

The safety net behind ``shown.visible``: any control or bidi character still
left in a text segment is written visibly (Rich's ``Text`` removes only a
few controls, never ESC), the output is made to fit the terminal's encoding
(an ASCII-only terminal gets ASCII; Rich itself already draws tables with
ASCII boxes there), and a broken pipe is reported as ``BrokenPipeError`` for
the exit point to judge, instead of Rich's own ``SystemExit(1)``.
"""

from __future__ import annotations

import errno
import re

from rich.console import Console
from rich.segment import Segment

from .shown import for_encoding, visible_lines


_TRAILING = re.compile(" +\n")


class Screen(Console):
    """A Rich console that never sends a raw control character and never raises on encoding."""

    def _render_buffer(self, buffer) -> str:
        shown = (s if s.control else Segment(visible_lines(s.text), s.style) for s in buffer)
        text = super()._render_buffer(shown)
        if "\x1b" not in text:  # plain text (piped, NO_COLOR): no line ends in the spaces that pad a cell
            text = _TRAILING.sub("\n", text)
        return for_encoding(text, self.encoding)

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written; the exit point decides the status
        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")
