"""Text as the terminal may show it: the one door for any string from outside.

A name or note can carry control characters (an escape sequence that retitles the terminal or
writes the clipboard) or a bidi override that makes ``Ann`` read as something else. ``visible``
writes each as a visible escape (``\\x1b``, ``\\u202e``), so it is shown, never obeyed.
"""

from __future__ import annotations

import os
import re
import unicodedata

# Written as escapes: C0 and C1 controls, DEL, the line and paragraph separators, lone surrogates
# (the undecodable bytes of an argument), and every format character (category Cf: the bidi marks,
# zero-width and other invisible characters, tags) with the unassigned default-ignorable code points
# among them. Those of Unicode 15 are written out (a test compares them with Python's) so that one
# regular expression finds them.
_FORMAT = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
           "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
           "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
_IGNORABLE = "\u2065\ufff0-\ufff8\U000e0000\U000e0002-\U000e001f\U000e0080-\U000e00ff\U000e01f0-\U000e0fff"
_SURROGATE = "\ud800-\udfff"  # (2,048 of them: compiled only for text that holds something to escape)
_HIDDEN = f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_FORMAT}{_IGNORABLE}{_SURROGATE}]"
# Printable characters that show as nothing: the Hangul fillers and the blank Braille pattern.
_BLANK = frozenset((0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800))


def _escape(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text) -> str:
    """``text`` with every control and format (bidi-steering or invisible) character written as an escape."""
    text = str(text)
    if text.isprintable():  # nothing to escape (a quick test: most text is so; all the above is not printable)
        return text
    return re.sub(_HIDDEN, lambda match: _escape(ord(match.group())), text)


def visible_lines(text) -> str:
    """``visible``, keeping line breaks: for text already laid out in lines."""
    return "\n".join(visible(line) for line in str(text).split("\n"))


def shows_nothing(text: str) -> bool:
    """Whether ``text`` shows as nothing on a screen: no letter, digit, punctuation or symbol but the
    blank ones (Hangul fillers), only spaces, combining marks, variation selectors, format characters."""
    return not any(unicodedata.category(char)[0] in "LNPS" and ord(char) not in _BLANK for char in text)


def spelled(text: str) -> str:
    """Every character of ``text`` but a space as its escape: how to name text that shows as nothing."""
    return "".join(char if char == " " else _escape(ord(char)) for char in text)


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


_JSON_HIDDEN = f"[\x7f-\x9f\u2028\u2029{_FORMAT}{_IGNORABLE}{_SURROGATE}]"  # (compiled only for text not ASCII)


def _json_escape(match: re.Match) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # a character outside the BMP: a surrogate pair, as JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_safe(text: str, encoding: str | None) -> str:
    """JSON text whose strings carry no raw control or format character, in ``encoding``: written as
    ``\\uXXXX``, so the document reads back to the same data."""
    if text.isascii():  # of these, only DEL is ASCII (most documents: no pattern to compile)
        text = text.replace("\x7f", "\\u007f")
    else:
        text = re.sub(_JSON_HIDDEN, _json_escape, text)
    if _fits(text, encoding or "utf-8"):
        return text
    return re.sub("[^\x00-\x7f]", _json_escape, text)


def shows_plainly(text: str, encoding: str | None = None) -> bool:
    """Whether ``text`` reaches a terminal (of ``encoding``, if given) as it is: every character printable
    and one the terminal can show."""
    return text.isprintable() and (encoding is None or for_encoding(text, encoding) == text)


def shell_word(text: str, encoding: str | None = None) -> str:
    """``text`` as one word a shell reads back exactly: quoted where it must be, and as $'...' with
    its bytes escaped when it holds a character that must not reach the terminal raw."""
    if shows_plainly(text, encoding):
        import shlex  # only for a word to quote, which most commands never write

        return shlex.quote(text)
    try:  # the bytes as the command line gave them (undecodable bytes come back as they were)
        given = os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate no command line can carry: as UTF-8 would write it if it could
        given = text.encode("utf-8", "surrogatepass")
    escaped = "".join(chr(byte) if 32 <= byte < 127 and byte not in b"\\'" else f"\\x{byte:02x}" for byte in given)
    return f"$'{escaped}'"
