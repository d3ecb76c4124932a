"""Where each session's document lies in the database file's bytes, so a command parses only what it reads.

The index of a file, kept in the cache under the digest of exactly its bytes, holds its meta table
and each session's document id, place and outline (``indexed`` reads through it; docs/storage.md).
"""

from __future__ import annotations

import orjson

INDEXED_FROM = 1 << 20  # bytes: a smaller file parses faster than its index is found and read
DIGEST_BESIDE = 1 << 20  # bytes: a smaller file is hashed at once, as a thread costs more than it saves


def digest(data) -> str:
    """The digest of some bytes: what a file's index, and the cache's rows, are kept under."""
    import hashlib  # (only a large file or a listing hashes: start-up does not pay for hashlib)

    return hashlib.sha256(data).hexdigest()[:32]


def digest_soon(data: bytes):
    """``digest(data)`` worked out beside the caller's next steps (hashlib lets go of the GIL while it
    hashes a large buffer): call what this returns for it."""
    if len(data) < DIGEST_BESIDE:
        found = digest(data)
        return lambda: found
    import threading  # (only for a large file)

    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(digest(data)), name="ginscore-digest", daemon=True)
    worker.start()

    def result() -> str:
        worker.join()
        return done[0]

    return result


def indexable(raw: bytes | None) -> bool:
    """Whether a file of these bytes is read through an index."""
    return raw is not None and len(raw) >= INDEXED_FROM


# The fields of a session that finding, listing and naming sessions read without its hands.
OUTLINED = ("id", "name", "created_at", "deleted_at", "match")


def outline(doc: dict) -> dict:
    """The outlined fields a stored session has, as stored."""
    return {key: doc[key] for key in OUTLINED if key in doc}


def loaded(data):
    """One JSON value parsed from its bytes (None when missing or not JSON)."""
    try:
        return None if data is None else orjson.loads(data)
    except orjson.JSONDecodeError:
        return None


def document(data) -> dict | None:
    """A JSON object (a session's document) parsed from its bytes; None when they are not one (a forged index)."""
    found = loaded(data)
    return found if isinstance(found, dict) else None


def at(places: list[int], raw, slot: int):
    """The bytes of the session in ``slot`` of ``raw``, given where each session lies in it (a flat list:
    session k from ``places[2k]`` to ``places[2k + 1]``)."""
    return raw[places[2 * slot]:places[2 * slot + 1]]


def _rising(numbers: list[int]) -> bool:
    """Whether document numbers rise strictly, as TinyDB gives them to the documents it adds."""
    return numbers == sorted(set(numbers))


class Stored:
    """A session's document not read yet, in a writer's tables: its bytes in the file, written back
    as they are. Not a dict, so nothing can take it for the document. ``frame`` is the file read (a
    view) and its places, shared by every ``Stored`` of it."""

    __slots__ = ("slot", "frame")

    def __init__(self, slot: int, frame: tuple):
        self.slot, self.frame = slot, frame

    def parsed(self) -> dict | None:
        view, places = self.frame
        return document(at(places, view, self.slot))


def lazy_tables(index: dict, raw: bytes) -> dict | None:
    """A writer's tables of ``raw`` from its index, no session parsed (``Stored``); None unless laid
    out again they are exactly ``raw`` (so every session is under its own key)."""
    meta, numbers, places = orjson.loads(orjson.dumps(index["meta"])), index["numbers"], index["places"]
    frame = (memoryview(raw), places)
    tables = {"meta": meta, "sessions": {str(n): Stored(slot, frame) for slot, n in enumerate(numbers)}}
    return tables if _framed(meta, numbers, places, raw) else None


def _framed(meta: dict, numbers: list[int], places: list[int], raw: bytes) -> bool:
    """Whether what lies between the places in ``raw`` (head, each session's key, end) is exactly what
    ``laid_out`` writes there."""
    if not numbers:
        return raw == _head(meta) + b"}}"
    between = [raw[:places[0]], *(raw[end:start] for end, start in zip(places[1::2], places[2::2])), raw[places[-1]:]]
    return between == [_head(meta) + _key(0, numbers[0]), *(_key(1, n) for n in numbers[1:]), b"}}"]


def _key(slot: int, number) -> bytes:
    """A session's key in the file as orjson writes it, with the comma before it (all but the first)."""
    name = b'"%d"' % number if type(number) is int else orjson.dumps(number)
    return (b"," if slot else b"") + name + b":"


def _head(meta: dict) -> bytes:
    return b'{"meta":' + orjson.dumps(meta) + b',"sessions":{'


def laid_out(tables: dict) -> tuple[bytes, list[int]]:
    """``orjson.dumps`` of the tables ``meta`` and ``sessions`` written a session at a time, and each
    session's place in it; a run of ``Stored`` documents as they lay in the file read is its slice
    of that file, moved. ``TypeError`` where orjson cannot write a value."""
    parts, places = [_head(tables.get("meta", {}))], []
    end = len(parts[0])  # of what is laid out so far
    items = list(tables.get("sessions", {}).items())
    slot = 0
    while slot < len(items):
        key, doc = items[slot]
        name = _key(slot, int(key) if key.isascii() and key.isdigit() else key)
        run = _run(items, slot) if type(doc) is Stored else 1
        if type(doc) is Stored:  # a run of sessions not read: its slice of the file read, moved
            view, old = doc.frame
            first, last = 2 * doc.slot, 2 * (doc.slot + run) - 1
            shift = end + len(name) - old[first]
            places += [place + shift for place in old[first:last + 1]]
            body = view[old[first]:old[last]]
        else:
            body = orjson.dumps(doc)
            places += (end + len(name), end + len(name) + len(body))
        end = places[-1]
        parts += (name, body)
        slot += run
    parts.append(b"}}")
    return b"".join(parts), places


def _run(items: list, slot: int) -> int:
    """How many documents from ``slot`` on are ``Stored`` of one file, one after another as they lay in it."""
    first = items[slot][1]
    end = slot + 1
    while end < len(items):
        doc = items[end][1]
        if type(doc) is not Stored or doc.frame is not first.frame or doc.slot != first.slot + end - slot:
            break
        end += 1
    return end - slot


def index_of(file_digest: str, raw: bytes, tables: dict) -> dict | None:
    """The index of ``raw``, the bytes of ``tables`` as read, worked out anew when they are laid out as
    ginscore writes them; else None."""
    if list(tables) != ["meta", "sessions"] or not all(key.isascii() and key.isdigit() for key in tables["sessions"]):
        return None
    try:
        written, places = laid_out(tables)
    except TypeError:
        return None
    if written != raw:
        return None
    if not _rising([int(key) for key in tables["sessions"]]):  # (a person's script sorted them otherwise?)
        return None
    return index_after(file_digest, tables, places, [])


def index_after(file_digest: str, tables: dict, places: list[int], outlines: list[dict]) -> dict:
    """The index of the file just laid out from ``tables`` (``places`` from ``laid_out``), without checking
    it against the bytes: a session a lazy writer did not read keeps its old outline."""
    sessions = tables["sessions"]
    return {"file": file_digest, "meta": tables["meta"], "numbers": [int(key) for key in sessions],
            "places": places,
            "outlines": [outlines[doc.slot] if type(doc) is Stored else outline(doc) for doc in sessions.values()]}


def fits(index, file_digest: str, size: int) -> bool:
    """An index of exactly the file of this digest and size, whole and well formed (a cache is never
    trusted further than it is checked)."""
    if not isinstance(index, dict) or index.get("file") != file_digest:
        return False
    meta, numbers, places, outlines = (index.get(key) for key in ("meta", "numbers", "places", "outlines"))
    if not (isinstance(meta, dict) and isinstance(meta.get("1", {}), dict) and isinstance(numbers, list)
            and isinstance(places, list) and isinstance(outlines, list)
            and len(places) == 2 * len(numbers) == 2 * len(outlines)):
        return False
    if not (set(map(type, numbers)) <= {int} and set(map(type, places)) <= {int}
            and set(map(type, outlines)) <= {dict} and _rising(numbers)):
        return False
    return not places or (places == sorted(places) and places[0] >= 0 and places[-1] <= size)
