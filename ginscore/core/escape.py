"""Text as a terminal may show it: the one door for any string from outside. A control character
(an escape sequence that retitles the terminal) or a bidi override (``Ann`` read as something else)
is written as a visible escape, so it is shown, never obeyed."""

from __future__ import annotations

import os
import re
import unicodedata

# Written as escapes: C0 and C1 controls, DEL, the line and paragraph separators, lone surrogates
# (undecodable bytes), format characters (Cf: bidi marks, zero-width, tags) and default-ignorables.
# Listed out, so one regular expression finds them; a test checks the list against Python's Unicode.
_FORMAT = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
           "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
           "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
_IGNORABLE = "\u2065\ufff0-\ufff8\U000e0000\U000e0002-\U000e001f\U000e0080-\U000e00ff\U000e01f0-\U000e0fff"
_SURROGATE = "\ud800-\udfff"
# A large pattern: ``visible`` compiles it only for text with something to escape.
_HIDDEN = f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_FORMAT}{_IGNORABLE}{_SURROGATE}]"
# Printable characters that show as nothing: the Hangul fillers and the blank Braille pattern.
BLANK = frozenset((0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800))


def _escape(code: int) -> str:
    """A character's code as Python writes it escaped: ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text) -> str:
    """``text`` with every control and format (bidi-steering or invisible) character written as an escape."""
    text = str(text)
    if text.isprintable():  # the quick way out: every character above is unprintable
        return text
    return re.sub(_HIDDEN, lambda match: _escape(ord(match.group())), text)


def visible_lines(text) -> str:
    """``visible``, keeping line breaks: for text already laid out in lines."""
    return "\n".join(visible(line) for line in str(text).split("\n"))


def shows_nothing(text: str) -> bool:
    """Whether ``text`` shows as nothing on a screen: only spaces, marks, fillers and invisible characters."""
    return not any(unicodedata.category(char)[0] in "LNPS" and ord(char) not in BLANK for char in text)


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
    """``text`` as a terminal of ``encoding`` can show it: ``♠`` as ``S``, ``José`` as ``Jose``, else an escape."""
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
    """JSON ``text`` with each control or format character (and any ``encoding`` lacks) as ``\\uXXXX``,
    so the document reads back to the same data."""
    if text.isascii():  # of these, only DEL is ASCII (most documents: no pattern to compile)
        text = text.replace("\x7f", "\\u007f")
    else:
        text = re.sub(_JSON_HIDDEN, _json_escape, text)
    if _fits(text, encoding or "utf-8"):
        return text
    return re.sub("[^\x00-\x7f]", _json_escape, text)


def shows_plainly(text: str, encoding: str | None = None) -> bool:
    """Whether ``text`` reaches a terminal (of ``encoding``, if given) as it is."""
    return text.isprintable() and (encoding is None or for_encoding(text, encoding) == text)


def shell_word(text: str, encoding: str | None = None) -> str:
    """``text`` as one word a shell reads back exactly, with no raw control character for the terminal."""
    if shows_plainly(text, encoding):
        import shlex  # imported late: most commands never quote a word

        return shlex.quote(text)
    try:  # the bytes as the command line gave them (undecodable bytes come back as they were)
        given = os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate no command line can carry: as UTF-8 would write it if it could
        given = text.encode("utf-8", "surrogatepass")
    escaped = "".join(chr(byte) if 32 <= byte < 127 and byte not in b"\\'" else f"\\x{byte:02x}" for byte in given)
    return f"$'{escaped}'"
