"""The type and range checks every stored or imported field passes, one field at a time.

Each returns the value, or raises ``BadField`` naming the field by its path (``session.hands[2].upcard``)
and what was there instead.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from ginscore.core.errors import BadField
from ginscore.core.escape import visible  # a wrong value from a file is shown in a message, never obeyed

TIMESTAMP_EXAMPLE = "2026-11-29T21:15:00+00:00"
_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?([+-][0-9]{2}:[0-9]{2}|Z)?")
_DESCRIBED_CHARS = 40  # of a wrong text, in an error line


def describe(value) -> str:
    """A wrong value as an error line names it: its kind for a table or list, else short and visible."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table of fields"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        cut = value if len(value) <= _DESCRIBED_CHARS else value[:_DESCRIBED_CHARS] + "..."
        return "'" + visible(cut) + "'"
    if isinstance(value, int) and abs(value) >= 10**18:
        return "a number too large to be one"
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return visible(repr(value))


def mapping(value, where: str, known=None) -> dict:
    """A JSON object; with ``known`` (a set), one whose keys are all among them."""
    if not isinstance(value, dict):
        raise BadField(f"{where} must be a table of fields, not {describe(value)}")
    if known is not None and not known.issuperset(value):
        key = next(k for k in value if k not in known)
        # Refused, never dropped: a newer ginscore's rule left out would score its hands otherwise.
        raise BadField(f"{where} has a field {describe(key)} that ginscore does not know: upgrade ginscore if a "
                       "newer one wrote it, or remove it if it was added by hand")
    return value


def required(doc: dict, key: str, where: str):
    if key not in doc:
        raise BadField(f"{where} has no {key}")
    return doc[key]


def _path(where: str, key: str) -> str:
    """The field's path, built only for an error line (a stored hand is read on every command)."""
    return f"{where}.{key}" if key else where


def text(value, where: str, key: str = "", *, limit: int, plain: bool = True) -> str:
    """A non-empty string of at most ``limit`` characters, without stray spaces or line breaks;
    ``plain=False``: any text that can be written back (valid Unicode)."""
    if not isinstance(value, str):
        raise BadField(f"{_path(where, key)} must be text, not {describe(value)}")
    problem = _text_problem(value, limit, plain)
    if problem:
        raise BadField(f"{_path(where, key)} {problem}")
    return value


def is_text(value, limit: int) -> bool:
    """Whether ``text(value, ..., limit=limit)`` would take ``value`` as it is."""
    return isinstance(value, str) and _text_problem(value, limit) is None


@lru_cache(maxsize=1024)  # the same few names are read for every stored hand
def _text_problem(value: str, limit: int, plain: bool = True) -> str | None:
    if not value:
        return "is empty"
    if plain and len(value) > limit:
        return f"has {len(value)} characters; at most {limit} are allowed"
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate, from a JSON escape or an undecodable argument
            return "is not valid Unicode text"
    if plain and not value.isprintable():  # as `new`, `rename` and the name checks refuse it
        return f"{describe(value)} has characters that cannot be shown"  # (in a file: nothing was typed)
    if plain and value != " ".join(value.split()):
        return f"{describe(value)} has stray spaces or line breaks; write it once, plainly"
    return None


# Far more than any count can have, and far fewer than the digits past which Python's int() raises.
MAX_DIGITS = 100


def digits(text: str, what: str) -> int:
    """A whole number written in digits (a CSV cell, a stored hand), at most ``MAX_DIGITS`` of them."""
    if not text.isascii() or not text.isdigit():
        raise BadField(f"{what} must be a whole number, not {describe(text)}")
    if len(text) > MAX_DIGITS:
        raise BadField(f"{what} has {len(text)} digits, more than any count can have")
    return int(text)


def json_number(text: str) -> int:
    """An integer as ``json.loads`` reads it (``parse_int``): at most ``MAX_DIGITS`` digits."""
    digits(text.lstrip("-"), "a number")  # refused when longer than any count can be
    return int(text)


def whole_number(value, where: str, key: str = "", *, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` (true/false and 3.0 are not numbers here)."""
    if type(value) is not int:
        raise BadField(f"{_path(where, key)} must be a whole number, not {describe(value)}")
    if not low <= value <= high:
        raise BadField(f"{_path(where, key)} must be from {low} to {high}, not {describe(value)}")
    return value


def flag(value, where: str, key: str = "") -> bool:
    if not isinstance(value, bool):
        raise BadField(f"{_path(where, key)} must be true or false, not {describe(value)}")
    return value


def timestamp(value, where: str, key: str = "") -> str | None:
    """A time as commands record it (ISO 8601 with its UTC offset), or null when none was kept."""
    if value is None:
        return None
    if isinstance(value, str) and _TIMESTAMP.fullmatch(value):
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
            return value
        except ValueError:
            pass
    raise BadField(f"{_path(where, key)} must be a timestamp like {TIMESTAMP_EXAMPLE}, not {describe(value)}")


def strings(value, where: str, key: str = "", *, limit: int) -> list[str]:
    """A list of strings of at most ``limit`` characters each."""
    if not isinstance(value, list):
        raise BadField(f"{_path(where, key)} must be a list, not {describe(value)}")
    for n, item in enumerate(value):
        if not isinstance(item, str) or _text_problem(item, limit):
            text(item, f"{_path(where, key)}[{n}]", limit=limit)  # raises, naming the item
    return value
