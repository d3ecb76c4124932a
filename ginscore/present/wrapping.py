"""Sentences broken into lines that fit the screen, never inside what must stay whole: a number and
its word, a sum, a name, a command to type."""

from __future__ import annotations

import re

from rich.cells import cell_len, chop_cells
from rich.text import Text

from ginscore.core.escape import visible

# Spaces made non-breaking before a sentence is wrapped, and plain again in what is printed: a number
# stays with the word before it ("= 13.", "game 1", "--limit N"), a bonus with its kind ("box bonus 25").
_GLUE = "\u00a0"
_BEFORE_NUMBER = re.compile(r"(?<=\S) (?=[(]?(?:[-+]?[0-9][0-9.,/-]*|N)[.,;:?)%`]*(?:[ \u00a0]|$))")
_BEFORE_BONUS = re.compile(r"\b(gin|undercut|game|box) (?=bonus\b)")
# ... and with what it counts after it ("0 points", "35 more", "0.01 a point").
_AFTER_NUMBER = re.compile(r"(?<=[0-9]) (?=(?:points?|more|a point)\b)|(?<=[0-9] a) (?=point\b)")
# ... and who needs them with what they need: "Ed" alone at a line's end, "needs 73 more" below, reads as cut.
_BEFORE_NEEDS = re.compile(r"(?<=\S) (?=needs[ \u00a0][0-9])")
# A rule cited stays with the words it is cited for: "(H2)." alone on a line reads as cut off.
_BEFORE_CITATION = re.compile(r" (?=\([RH][0-9])")
# A sum stays whole ("(10 + 25) x 2", "2 + 10 = 12."), and so do numbers listed with "/" ("18 / 0 / 0").
_IN_SUM = re.compile(r"(?<=[0-9)]) (?=[-+x/] [(]?[0-9])|(?<=[0-9)] [-+x/]) (?=[(]?[0-9])|(?<=\S) (?== )")
# A command to type stays on one line when the line has room for it, else each quoted word in it does
# ('our games.json', a session's "fri night"): a path or name copied from two lines would hold a line break.
_COMMAND = re.compile(r"`[^`\n]+`")
_QUOTED = r"\$?'[^']*'" + r'|"[^"]*"'
# A session's name as a sentence quotes it ("its rematch is 'sat night'") stays on one line when it fits,
# as a player's does; an apostrophe ("Ann's") opens or closes none.
_SAID_NAME = re.compile(r"(?<![\w'])'[^'\n]*\s[^'\n]*'(?![\w'])")
# A meld stays whole ("[9♥ 10♥ J♥]"): "[9♥" at a line's end reads as a meld of one card.
_MELD = re.compile(r"\[[^\[\]\n]+\][,:.]?")  # (with the mark after it, which goes on its line)
# A short aside in parentheses reads as one word in a list's lines: "(game 3 open)", "(so far)".
_ASIDE = re.compile(r"\((?:[^()\s]+ ){1,2}[^()\s]+\)")


def _glued(plain: str, width: int, names, room: int) -> str:
    for name in sorted((visible(name) for name in names if " " in name and cell_len(name) < room), key=len,
                       reverse=True):
        plain = plain.replace(name, name.replace(" ", _GLUE))
    plain = _COMMAND.sub(lambda typed: typed.group().replace(" ", _GLUE) if len(typed.group()) <= width
                         else re.sub(_QUOTED, lambda word: word.group().replace(" ", _GLUE), typed.group()), plain)
    plain = _MELD.sub(lambda meld: meld.group().replace(" ", _GLUE) if cell_len(meld.group()) <= room
                      else meld.group(), plain)
    plain = _SAID_NAME.sub(lambda said: said.group().replace(" ", _GLUE) if cell_len(said.group()) < room
                           else said.group(), plain)  # (with a stop after it, on any line of the sentence)
    # a separator ends its line, and "v" starts one with the player after it ("Ann v" / "Ben" read as cut)
    plain = plain.replace(" · ", _GLUE + "· ").replace(" v ", " v" + _GLUE)
    for spaces in (_BEFORE_CITATION, _IN_SUM, _BEFORE_NUMBER, _AFTER_NUMBER, _BEFORE_NEEDS):  # in order: each sees the glue before
        plain = spaces.sub(_GLUE, plain)
    return _BEFORE_BONUS.sub(r"\1" + _GLUE, plain)


def one_phrase(words: str) -> str:
    """A short phrase kept on one line when a sentence wraps ("ace means gin", "stake 0.01 a point")."""
    return words.replace(" ", _GLUE) if len(words) <= 24 else words


def wrapped(text: Text, width: int, indent: int = 0, names=()) -> list[Text]:
    """``text`` in lines of at most ``width`` cells, never broken inside one of ``names``; ``indent``: how far
    the caller indents the lines after the first."""
    plain = _glued(text.plain, width, names, width - indent)
    # what was kept together but is wider than a line breaks at its spaces, not inside a word or number
    plain = re.sub(r"[^ \n]+", lambda kept: kept.group().replace(_GLUE, " ") if cell_len(kept.group()) > width - indent
                   else kept.group(), plain)
    offsets: list[int] = []
    room = width
    used = 0
    for word in re.finditer(r"\n|[^ \n]+ *| +", plain):
        start, piece = word.start(), word.group()
        if piece == "\n":
            offsets.append(word.end())
            used, room = 0, width
            continue
        size = cell_len(piece.rstrip(" "))
        if used and used + size > room:
            offsets.append(start)
            used, room = 0, max(width - indent, 1)
        while size > room:  # a word longer than a whole line: folded where the line ends
            cut = start + 1
            while cell_len(plain[start:cut + 1]) <= room:
                cut += 1
            offsets.append(cut)
            start, size, used, room = cut, cell_len(plain[cut:word.end()].rstrip(" ")), 0, max(width - indent, 1)
        used += cell_len(plain[start:word.end()])
    kept = Text(plain, style=text.style, spans=text.spans, end="")
    lines = []
    for line in kept.divide(offsets) if offsets else [kept]:
        line.rstrip()
        lines.append(Text(line.plain.replace(_GLUE, " "), style=line.style, spans=line.spans, end=""))
    return lines


def question_lines(question: str, width: int, names=()) -> list[str]:
    """A question (shown text) in lines of at most ``width`` cells, broken as ``wrapped`` breaks sentences."""
    return [line.plain for line in wrapped(Text(question), width, names=names)]


def cell_width(text: str) -> int:
    """How many terminal cells ``visible`` text takes: printable ASCII is a cell a character."""
    return len(text) if text.isascii() else cell_len(text)


def wrapped_plain(text: str, width: int) -> list[str]:
    """Plain ``text`` in lines at most ``width`` cells wide, broken at spaces, each indented as the first."""
    if cell_width(text) <= width:
        return [text]
    indent = text[:len(text) - len(text.lstrip(" "))]
    room = max(width - len(indent), 1)
    lines, line = [], ""
    for word in _ASIDE.sub(lambda aside: aside.group().replace(" ", _GLUE), text).split(" "):
        if not word:
            continue
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= room:
            line = joined
            continue
        if line:
            lines.append(line)
        *whole, line = chop_cells(word, room) if cell_len(word) > room else [word]
        lines += whole
    return [indent + part.replace(_GLUE, " ") for part in lines + [line]]
