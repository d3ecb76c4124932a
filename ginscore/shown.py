"""Text as the terminal may show it: the one door for any string from outside.

Pure. A name, a note, a session name, anything imported or typed and echoed
in an error can carry control characters: an escape sequence that sets the
terminal title, clears the screen or writes the clipboard (OSC 52), or a
bidirectional override that makes ``Ann`` read as something else. ``visible``
writes each such character as a visible escape (``\\x1b``, ``\\u202e``) so
it is shown, never obeyed (docs/commands.md "For people at the table").

``for_encoding`` makes text fit a terminal that cannot show every character
(an ASCII-only one gets ASCII), and ``json_safe`` does both jobs for a JSON
document without changing the data it carries.
"""

from __future__ import annotations

import re
import unicodedata

# C0 controls, DEL, C1 controls, the bidirectional marks, embeddings,
# overrides and isolates (plus the zero-width marks that steer them), the
# line and paragraph separators, and lone surrogates (the undecodable bytes
# of a command line argument), which no terminal encoding can carry.
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Invisible format characters (Unicode category Cf) that make two strings look
# alike or hide text: soft hyphen, zero-width space and joiners, word joiner
# and invisible operators, the byte order mark, the interlinear annotation
# marks, and the tag characters.
_INVISIBLE = [0xAD, 0x180E, *range(0x200B, 0x200E), *range(0x2060, 0x2066), *range(0x206A, 0x2070), 0xFEFF,
              *range(0xFFF9, 0xFFFC), 0xE0001, *range(0xE0020, 0xE0080)]
_HIDDEN = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *map(ord, _BIDI), 0x2028, 0x2029, *_INVISIBLE]
_SURROGATE = "[\ud800-\udfff]"  # (2,048 of them: matched, not tabled; compiled only when one is there)


def _escape(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _escaped(match: re.Match) -> str:
    return _escape(ord(match.group()))


_TABLE = {code: _escape(code) for code in _HIDDEN}
_LINES_KEPT = {**_TABLE, ord("\n"): "\n"}


def visible(text) -> str:
    """``text`` with every control and bidi-steering character written as an escape."""
    text = str(text)
    if text.isascii() and text.isprintable():  # nothing to escape (a quick test: most text is so)
        return text
    return _no_surrogate(text.translate(_TABLE))


def visible_lines(text) -> str:
    """``visible``, keeping line breaks: for text already laid out in lines."""
    return _no_surrogate(str(text).translate(_LINES_KEPT))


def _no_surrogate(shown: str) -> str:
    """``shown`` with each lone surrogate written as an escape (found by encoding: compiling a pattern
    of all 2,048 takes half a millisecond, which a start would pay for text that has none)."""
    if shown.isascii() or _fits(shown, "utf-8"):  # (UTF-8 carries every character but a surrogate)
        return shown
    return re.sub(_SURROGATE, _escaped, shown)


# What an ASCII-only terminal shows instead of the few symbols ginscore itself writes.
_PLAIN = str.maketrans({
    "·": "-", "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "—": "-", "–": "-", "…": "...", "×": "x", "→": "->", "←": "<-", "≤": "<=", "≥": ">=",
    "─": "-", "━": "-", "│": "|", "┃": "|", "═": "=", "║": "|", "\u00a0": " ",
})


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def for_encoding(text: str, encoding: str | None) -> str:
    """``text`` as a terminal of ``encoding`` can show it: symbols as ASCII, accents dropped
    (``José`` as ``Jose``), anything else as a visible escape; unchanged when it fits."""
    encoding = encoding or "utf-8"
    if _fits(text, encoding):
        return text
    shown = []
    for char in text:
        if not _fits(char, encoding):
            plain = char.translate(_PLAIN)
            if plain == char:
                plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            char = plain if plain and _fits(plain, encoding) else char.encode(encoding, "backslashreplace").decode(encoding)
        shown.append(char)
    return "".join(shown)


_JSON_HIDDEN = "[\u007f-\u009f" + _BIDI + "\u2028\u2029\ud800-\udfff]"  # (compiled only for text not ASCII)


def _json_escape(match: re.Match) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # a character outside the BMP: a surrogate pair, as JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_safe(text: str, encoding: str | None) -> str:
    """JSON text whose strings carry no raw control or bidi character, in ``encoding``.

    Only JSON strings can hold such characters, and ``\\uXXXX`` is how JSON
    writes any character, so the document still reads back to the same data.
    ``json.dumps`` already escapes C0 controls.
    """
    if text.isascii():  # of these, only DEL is ASCII (most documents: no pattern to compile)
        text = text.replace("\x7f", "\\u007f")
    else:
        text = re.sub(_JSON_HIDDEN, _json_escape, text)
    if _fits(text, encoding or "utf-8"):
        return text
    return re.sub("[^\x00-\x7f]", _json_escape, text)
