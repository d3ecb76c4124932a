"""Where each session's document lies in the database file's bytes, so a reader parses only what it needs.

ginscore writes the file as orjson writes the two tables, compact: ``{"meta":{...},"sessions":{"1":{...},
"2":{...}}}``. Written a document at a time (``laid_out``) the bytes are the same, and the place of
every session's document comes with them. The **index** of a file says, for exactly its bytes (the
digest of the whole file: never its size or time), its meta table and, for each session in file order,
its document id (``numbers``), the start and end of its document (``places``, two numbers a session)
and its ``outline`` (``OUTLINED``: what finding, naming and listing sessions read). A reader with the
index of the file it read parses a session's document (``raw[start:end]``) only when a command asks
for its facts: ``status`` on one session of years of them parses that one.

A writer that changed a few sessions finds the new places from the old index (``moved``): the sessions
it did not change moved as blocks, compared byte for byte with the old file. A file of another layout
(indented by a script, written by an older ginscore, a NaN edited in) has no index and is read whole.
"""

from __future__ import annotations

import orjson

# The fields of a session that finding, listing and naming sessions read without its hands.
OUTLINED = ("id", "name", "created_at", "deleted_at", "match")


def outline(doc: dict) -> dict:
    """The outlined fields a stored session has, as stored."""
    return {key: doc[key] for key in OUTLINED if key in doc}


def _key(slot: int, number) -> bytes:
    """A session's key in the file as orjson writes it, with the comma before it (all but the first)."""
    name = b'"%d"' % number if type(number) is int else orjson.dumps(number)
    return (b"," if slot else b"") + name + b":"


def _head(tables: dict) -> bytes:
    return b'{"meta":' + orjson.dumps(tables.get("meta", {})) + b',"sessions":{'


def laid_out(tables: dict) -> tuple[bytes, list[int]]:
    """``orjson.dumps`` of the tables ``meta`` and ``sessions`` (in that order), written a session at a
    time, and each session's place in it (``places``). Raises ``TypeError`` where orjson cannot write a
    value (a lone surrogate, an integer past 64 bits)."""
    parts, places = [_head(tables)], []
    at = len(parts[0])
    for slot, (key, doc) in enumerate(tables.get("sessions", {}).items()):
        name, body = _key(slot, int(key) if key.isascii() and key.isdigit() else key), orjson.dumps(doc)
        places += (at + len(name), at + len(name) + len(body))
        at = places[-1]
        parts += (name, body)
    parts.append(b"}}")
    return b"".join(parts), places


def index_of(file_digest: str, raw: bytes, tables: dict) -> dict | None:
    """The index of ``raw``, the bytes ``tables`` were read from (or written as), when they are laid out
    as ginscore writes them; None for any other layout."""
    if list(tables) != ["meta", "sessions"] or not all(key.isascii() and key.isdigit() for key in tables["sessions"]):
        return None
    try:
        written, places = laid_out(tables)
    except TypeError:
        return None
    if written != raw:
        return None
    sessions = tables["sessions"]
    numbers = [int(key) for key in sessions]
    if numbers != sorted(set(numbers)):  # not in the order TinyDB adds them (a person's script sorted them?)
        return None
    return {"file": file_digest, "meta": tables["meta"], "numbers": numbers,
            "places": places, "outlines": [outline(doc) for doc in sessions.values()]}


def moved(old: dict, raw: bytes, file_digest: str, written: bytes, tables: dict, changed: set[int]) -> dict | None:
    """The index of ``written`` (the new bytes of ``tables``) from ``old``, the index of ``raw`` (the
    bytes read), when only the sessions ``changed`` were replaced and new ones added at the end: each
    run of unchanged sessions is found as a block, compared byte for byte with where it was; the
    changed sessions are written again to find their length. None when anything does not add up."""
    sessions = tables.get("sessions", {})
    keys, numbers, places, outlines = list(sessions), old["numbers"], old["places"], old["outlines"]
    count, before = len(keys), len(numbers)
    if list(tables) != ["meta", "sessions"] or count < before or keys[:before] != list(map(str, numbers)):
        return None
    if not all(key.isascii() and key.isdigit() for key in keys[before:]):
        return None
    new_numbers = numbers + [int(key) for key in keys[before:]]
    stops = sorted({numbers.index(n) for n in changed if n in numbers} | set(range(before, count)))
    head = _head(tables)
    if not written.startswith(head):
        return None
    new_places, new_outlines, at, slot = [], list(outlines), len(head), 0
    for stop in stops + [count]:
        if stop > slot:  # sessions slot .. stop - 1, unchanged: where they were, moved as one block
            start = places[2 * slot] - len(_key(slot, numbers[slot]))
            end = places[2 * stop - 1]
            if not 0 <= start <= end <= len(raw) or written[at:at + end - start] != raw[start:end]:
                return None
            new_places += [place + at - start for place in places[2 * slot:2 * stop]]
            at += end - start
        if stop == count:
            break
        name, doc = _key(stop, new_numbers[stop]), sessions[keys[stop]]
        try:
            body = orjson.dumps(doc)
        except TypeError:
            return None
        if written[at:at + len(name) + len(body)] != name + body:
            return None
        new_places += (at + len(name), at + len(name) + len(body))
        at = new_places[-1]
        if stop < before:
            new_outlines[stop] = outline(doc)
        else:
            new_outlines.append(outline(doc))
        slot = stop + 1
    if written[at:] != b"}}":
        return None
    return {"file": file_digest, "meta": tables["meta"], "numbers": new_numbers, "places": new_places,
            "outlines": new_outlines}


def fits(index, file_digest: str, size: int) -> bool:
    """An index of exactly the file of this digest and size, whole and well formed (an index comes from
    the cache, and a cache is never trusted further than it is checked)."""
    if not isinstance(index, dict) or index.get("file") != file_digest:
        return False
    meta, numbers, places, outlines = (index.get(key) for key in ("meta", "numbers", "places", "outlines"))
    if not (isinstance(meta, dict) and isinstance(meta.get("1", {}), dict) and isinstance(numbers, list)
            and isinstance(places, list) and isinstance(outlines, list)
            and len(places) == 2 * len(numbers) == 2 * len(outlines)):
        return False
    if not (all(type(n) is int for n in numbers) and all(type(at) is int for at in places)
            and all(type(shape) is dict for shape in outlines) and numbers == sorted(set(numbers))):
        return False  # (TinyDB numbers its documents upwards, in the order it adds them)
    return not places or (places == sorted(places) and places[0] >= 0 and places[-1] <= size)
