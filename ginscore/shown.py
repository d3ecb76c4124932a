"""Text as the terminal may show it: the one door for any string from outside.

Pure. A name, a note, a session name, anything imported or typed and echoed
in an error can carry control characters: an escape sequence that sets the
terminal title, clears the screen or writes the clipboard (OSC 52), or a
bidirectional override that makes ``Ann`` read as something else. ``visible``
writes each such character as a visible escape (``\\x1b``, ``\\u202e``) so
it is shown, never obeyed (CLI.md "For people at the table"; issue 9).
"""

from __future__ import annotations

# C0 controls, DEL, C1 controls, and the bidirectional marks, embeddings,
# overrides and isolates (plus the zero-width marks that steer them).
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_HIDDEN = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *map(ord, _BIDI)]


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_TABLE = {code: _escape(code) for code in _HIDDEN}


def visible(text) -> str:
    """``text`` with every control and bidi-steering character written as an escape."""
    return str(text).translate(_TABLE)
