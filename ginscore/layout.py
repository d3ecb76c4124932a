"""Where each session's document lies in the database file's bytes, so a reader parses only what it needs.

ginscore writes the file as orjson writes the two tables, compact: ``{"meta":{...},"sessions":{"1":{...},
"2":{...}}}``. Written a document at a time (``laid_out``), the bytes are the same, and the place of every
session's document comes for free. A reader that finds those places in the cache, kept for exactly
these bytes (the digest of the whole file read now, never its size or time), reads the meta table and
an outline of every session (``OUTLINED``: what finding, listing and naming sessions read) from
there, and parses a session's document (``raw[start:end]``) only when a command asks for its facts:
``status`` on one session of years of them parses that one.

A file of another layout (indented by a script, written by an older ginscore, a NaN edited in) has no
places (``places_of`` says so) and is read whole, as always.
"""

from __future__ import annotations

import orjson

# The fields of a session that finding, listing and naming sessions read without its hands.
OUTLINED = ("id", "name", "created_at", "deleted_at", "match")


def outline(doc: dict) -> dict:
    """The outlined fields a stored session has, as stored."""
    return {key: doc[key] for key in OUTLINED if key in doc}


def laid_out(tables: dict) -> tuple[bytes, list[list[int]]]:
    """``orjson.dumps(tables)`` (the tables ``meta`` and ``sessions``, in that order), and where each
    session's document is in it: ``[document id, start, end]`` in the order stored. Raises
    ``TypeError`` where orjson cannot write a value (then the caller writes it its own way)."""
    meta, sessions = tables.get("meta", {}), tables.get("sessions", {})
    parts = [b'{"meta":', orjson.dumps(meta), b',"sessions":{']
    at = sum(map(len, parts))
    places = []
    for number, (key, doc) in enumerate(sessions.items()):
        head = (b"," if number else b"") + orjson.dumps(key) + b":"
        body = orjson.dumps(doc)
        at += len(head)
        places.append([int(key), at, at + len(body)])
        at += len(body)
        parts += (head, body)
    parts.append(b"}}")
    return b"".join(parts), places


def places_of(raw: bytes, tables: dict) -> list[list[int]] | None:
    """Where each session's document is in ``raw``, the bytes ``tables`` were parsed from, when they
    are laid out as ginscore writes them; None for any other layout."""
    if list(tables) != ["meta", "sessions"]:
        return None
    try:
        written, places = laid_out(tables)
    except TypeError:
        return None
    return places if written == raw else None
