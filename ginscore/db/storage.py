"""The database file as TinyDB sees it: a TinyDB ``Storage`` that reads the file once, exactly or
not at all, keeps TinyDB's changes in memory and replaces the file whole, once, when the command
has succeeded (a refused command never writes) and only if it is still the file read. With the
file's index from the cache, a session is parsed only when it is read. How a write stays whole,
and what is refused: docs/storage.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import orjson
from tinydb.storages import Storage

from ginscore.core.errors import DatabaseUnusable
from ginscore.db import atomic
from ginscore.db import index as layout
from ginscore.db.index import Stored, outline

SCHEMA_VERSION = 5  # 1-2: one file of 1.x; 3: the parted layout of 2.x; 4: one TinyDB file again;
# 5: the same, each hand keeping who dealt it (H8), so an older ginscore refuses it, not misreads it
TABLES = ("meta", "sessions")
LEFT = "it was left as it is, use --db for another file"
APPEARED = ("was created by another ginscore command or program while this one ran; "
            "nothing was written: run the command again")
NEWER = "was written by a newer ginscore"
FOREIGN = f"is not empty but holds no ginscore database (another program's file?); {LEFT}"
NOT_OURS = f"is JSON but not a ginscore database; {LEFT}"
DEEP = f"is nested too deeply to be a ginscore database; {LEFT}"
NOT_JSON = f"is not JSON (damaged, or not a ginscore file); {LEFT}"
CHANGED_ON_DISK = ("was changed on disk by another program after ginscore read it (a sync client?); "
                   "nothing was written: run the command again")
FORGED_INDEX = ("was read through a cache of where each session is in it that does not match it (edited by hand?); "
                "the cache was set aside and nothing was written: run the command again")

_writes = 0  # times this process has replaced a database file


def writes() -> int:
    """How many times this process has replaced a database file: a command that changed the
    database exits 0 whatever happens afterwards (docs/commands.md)."""
    return _writes


def not_a_file(path, kind: str) -> DatabaseUnusable:
    if kind == "a folder":
        return DatabaseUnusable(path, "is a folder, not a database file; pass --db with a file path")
    return DatabaseUnusable(path, f"is {kind}, not a database file; it was left as it is, pass --db with a file path")


def read_bytes(shown, real: str) -> tuple[bytes | None, os.stat_result | None]:
    """The file's bytes and stat; (None, None) when it does not exist yet. Only ever a regular file."""
    try:
        return atomic.read(real) or (None, None)
    except atomic.NotRegular as error:
        raise not_a_file(shown, error.kind) from None
    except IsADirectoryError:
        raise not_a_file(shown, "a folder") from None
    except PermissionError:
        raise DatabaseUnusable(shown, "cannot be read: permission denied") from None
    except OSError as error:
        raise DatabaseUnusable(shown, f"cannot be read: {error.strerror or error}") from None


def parsed(shown, raw: bytes) -> tuple[dict, bool]:
    """The tables in a file's bytes, checked to be a ginscore database's ({} for an empty file), and
    whether only Python's own ``json`` could read the bytes exactly (then ``dumps(as_read=True)``).

    A file not byte for byte as orjson writes it is read again by Python's ``json``, which sees what
    orjson passes over: a key twice in one object, an integer past 64 bits, a number too large."""
    if not raw.strip():
        return {}, False
    try:
        data, lenient = orjson.loads(raw), False
    except orjson.JSONDecodeError:  # also bad UTF-8, NaN, and nesting deeper than any database
        data, lenient = _lenient(shown, raw), True
    else:
        if orjson.dumps(data) != raw:
            data = _lenient(shown, raw)
            try:
                orjson.dumps(data)
            except TypeError:  # an integer past 64 bits: written back by Python's json, exactly
                lenient = True
    check_shape(shown, data)
    return data, lenient


def holds_database(real: str) -> bool:
    """Whether the regular file at ``real`` is a ginscore database of any layout, read as every
    command reads one. OSError when it cannot be read: nobody can then tell."""
    raw = (atomic.read(real) or (b"", None))[0]
    try:
        return bool(parsed(real, raw)[0])
    except DatabaseUnusable as error:
        return error.problem.startswith(NEWER)


class _Unkept(ValueError):
    """What Python's json reads but could not write back as it was: a key twice, a number too large."""


def _object(pairs: list) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(key for at, (key, _) in enumerate(pairs) if key in dict(pairs[:at]))
        raise _Unkept(f"holds the key {json.dumps(twice)} twice in one object (edited by hand?), so one of "
                      "them would be lost")
    return found


def _finite(text: str) -> float:
    found = float(text)
    if found in (float("inf"), float("-inf")):
        raise _Unkept(f"holds the number {text}, too large to be kept exactly")
    return found


def _lenient(shown, raw: bytes):
    """What Python's ``json`` makes of a file: a NaN edited into one session is then damage in that
    session (named, the others still work), not in the file."""
    try:
        return json.loads(raw, object_pairs_hook=_object, parse_float=_finite)
    except _Unkept as error:
        raise DatabaseUnusable(shown, f"{error}; it was left as it is, mend it in the file or use --db for "
                                      "another file") from None
    except RecursionError:
        raise DatabaseUnusable(shown, DEEP) from None
    except (UnicodeDecodeError, ValueError):
        raise DatabaseUnusable(shown, NOT_JSON) from None


def meta_of(data: dict) -> dict:
    """The one document of a database's meta table ({} for none)."""
    docs = list(data.get("meta", {}).values())
    return docs[0] if docs else {}


def check_shape(shown, data) -> None:
    """Refuse what is not a ginscore database of a schema this ginscore can read."""
    if not isinstance(data, dict) or any(k not in TABLES for k in data):
        raise DatabaseUnusable(shown, NOT_OURS)
    if not data:
        return
    tables = [data.get(name, {}) for name in TABLES]
    if not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in tables):
        raise DatabaseUnusable(shown, NOT_OURS)
    if not all(key.isascii() and key.isdigit() for t in tables for key in t):  # TinyDB's document ids
        raise DatabaseUnusable(shown, NOT_OURS)
    version = meta_of(data).get("schema_version")
    if type(version) is not int or version < 1:
        raise DatabaseUnusable(shown, NOT_OURS)
    if version > SCHEMA_VERSION:
        raise DatabaseUnusable(shown, f"{NEWER} (schema {version}, this one knows {SCHEMA_VERSION}); upgrade ginscore")
    if version >= 4 and not isinstance(meta_of(data).get("current"), (str, type(None))):
        raise DatabaseUnusable(shown, NOT_OURS)


def dumps(data, *, as_read: bool = False) -> bytes:
    """Compact JSON bytes of ``data``: orjson's, unless ``as_read`` (a file only Python's ``json``
    could read) or orjson cannot write it (a lone surrogate, an integer past 64 bits); then Python's
    ``json``, which writes each value back exactly as it was read, so a damaged session stays so."""
    if not as_read:
        try:
            return orjson.dumps(data)
        except TypeError:
            pass
    return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class FileStorage(Storage):
    """TinyDB's ``Storage`` for a ginscore database file (see the module); ``commit`` writes it.

    ``real`` is the file (links followed); ``shown`` the path as given, which messages name. Only a
    ``writer`` writes, holding the lock. ``index_cache(real)`` is where the cache keeps the file's
    index: with it a reader lists the sessions from the index alone, and a writer's tables hold the
    sessions it did not read as their bytes (``index.Stored``); without it a large file is read whole.
    """

    def __init__(self, real: str, *, shown: Path, writer: bool = False, index_cache=None):
        self.real, self.shown, self.writer, self.index_cache = real, shown, writer, index_cache
        self.raw: bytes | None = None
        self.stat: os.stat_result | None = None
        self._fetched = False
        self.legacy = None  # an ``upgrade.Old`` when the file is of an older layout
        self.as_read = False  # only Python's json could read the file: written back the same way
        self.foreign = False  # `{}`, blanks: maybe another program's file, never made ours
        self.places: list[int] | None = None  # where each session lies in the bytes last encoded
        self._digest = None  # gives the digest of the bytes read or last written
        self.tables: dict | None = None
        self.dirty = False
        self.index: dict | None = None  # the index of the file read, when read lazily
        self.lazy = False  # a writer's tables hold sessions not read yet
        self.upgraded: bytes | None = None  # a writer's older layout, as first read and upgraded
        self._looked = False
        self._slots: dict[int, int] | None = None
        self._cache = None

    def bytes(self) -> bytes | None:
        """The file's bytes as read once for this command (None when there is no file yet)."""
        if not self._fetched:
            self.raw, self.stat = read_bytes(self.shown, self.real)
            self._fetched = True
        return self.raw

    def start_digest(self) -> None:
        """Start working out the digest of the file's bytes, beside the caller's next steps."""
        if self._digest is None and self.bytes() is not None:
            self._digest = layout.digest_soon(self.raw)

    def digest(self) -> str | None:
        """The digest of the file's bytes (None for no file)."""
        self.start_digest()
        return None if self._digest is None else self._digest()

    def read(self) -> dict:
        if self.tables is None:
            self.look_up_index()
        if self.tables is None:
            self.tables = self._read_file()
            if self.writer and self.legacy is not None:
                self.upgraded = dumps(self.tables, as_read=self.as_read)
        return self.tables

    def write(self, data: dict) -> None:
        self.tables, self.dirty = data, True

    def _read_file(self) -> dict:
        self.bytes()
        data, self.as_read = parsed(self.shown, self.raw) if self.raw is not None else ({}, False)
        self.foreign = bool(self.raw) and not data
        version = meta_of(data).get("schema_version", SCHEMA_VERSION) if data else SCHEMA_VERSION
        if version < SCHEMA_VERSION:
            from ginscore.db import upgrade  # (only an older layout needs it: start-up does not pay)

            self.legacy = upgrade.read(self.shown, self.real, self.raw, self.stat, data, version, SCHEMA_VERSION)
            data = self.legacy.tables
        return data

    # the file's index, kept in the cache ---------------------------------------

    def cache(self):
        """Where the cache keeps the file's index."""
        if self._cache is None:
            self._cache = self.index_cache(self.real)
        return self._cache

    def look_up_index(self) -> None:
        """Once, before anything is read: the file's index from the cache, when kept for exactly these
        bytes. Else a reader works it out for the next command, when the file is laid out as ginscore
        writes it and the cache can be written. A small file has none (``index.INDEXED_FROM``)."""
        if self._looked:
            return
        self._looked = True
        raw = self.bytes()
        if self.index_cache is None or not layout.indexable(raw):
            return
        self.start_digest()  # worked out while the cache is read
        kept = self.cache().section("index")
        found = self.digest()
        if layout.fits(kept, found, len(raw)):
            if not self.writer:
                self.index = kept
                return
            tables = layout.lazy_tables(kept, raw)  # a writer's must lay the file out exactly
            if tables is not None:
                self.tables, self.lazy, self.index = tables, True, kept
                return
        if not self.writer and self.cache().writable():
            tables = self.read()
            if not self.as_read and self.legacy is None:
                self._keep(layout.index_of(found, raw, ordered(tables)))

    def _keep(self, index: dict | None) -> None:
        if index is not None:
            self.cache().keep_index(index)

    # reading ---------------------------------------------------------------------

    def entries(self) -> list[tuple[int, dict]]:
        """Every stored session as (document id, document), in the order added; one not read yet as
        its outline (``index.OUTLINED``: what finding and listing sessions read)."""
        self.look_up_index()
        if self.index is not None and not self.writer:
            return list(zip(self.index["numbers"], self.index["outlines"]))
        outlines = self.index["outlines"] if self.index else None
        return [(int(key), outlines[doc.slot] if type(doc) is Stored else doc)
                for key, doc in self.read().get("sessions", {}).items()]

    def meta(self) -> dict:
        """The one document of the meta table."""
        self.look_up_index()
        if self.index is not None and not self.writer:
            return dict(self.index["meta"].get("1") or {})
        return dict(self.read().get("meta", {}).get("1") or {})

    def _slot(self, doc: dict) -> int | None:
        """Where an outline from ``entries`` is in the index (None for a whole document)."""
        if self.index is None:
            return None
        if self._slots is None:
            self._slots = {id(outlined): slot for slot, outlined in enumerate(self.index["outlines"])}
        return self._slots.get(id(doc))

    def whole(self, doc: dict) -> dict:
        """A stored session's whole document (``doc`` from ``entries``), parsed from its place in the
        file for an outline. Where the index placed another session there (only a forged cache does)
        the file decides for a reader; a writer, which may have found the wrong session by it,
        stops (exit 1, nothing written) and sets the index aside."""
        slot = self._slot(doc)
        if slot is None:
            return doc
        if self.writer:
            found = self.session(str(self.index["numbers"][slot]))
        else:
            found = layout.document(layout.at(self.index["places"], self.bytes(), slot))
        if isinstance(found, dict) and outline(found) == doc:
            return found
        if self.writer:
            self.cache().drop("index")
            raise DatabaseUnusable(self.shown, FORGED_INDEX)
        return next((stored for stored in self.read_whole()["sessions"].values() if outline(stored) == doc), {})

    def session(self, key: str) -> dict | None:
        """A writer's session under ``key``, parsed now if it was not read yet (and from then on a
        document in its tables); None when its bytes are not one (only a forged cache places so)."""
        found = self.read().get("sessions", {}).get(key)
        if type(found) is Stored:
            found = found.parsed()
            if found is not None:
                self.tables["sessions"][key] = found
        return found

    def read_whole(self) -> dict:
        """The tables with every session read: those not read yet parsed now, from the whole file."""
        if self.lazy:
            whole = parsed(self.shown, self.raw)[0].get("sessions", {})
            sessions = self.tables.setdefault("sessions", {})
            for key, doc in list(sessions.items()):
                if type(doc) is Stored:
                    sessions[key] = whole[key]
            self.lazy = False
        return self.read()

    def digest_of(self, doc: dict) -> str:
        """The digest of a stored session's facts as read now: of its bytes in the file for an
        outline, else as ``dumps`` writes it back (a damaged session never shares the digest, and
        so the cached row, of the session it was)."""
        slot = self._slot(doc)
        if slot is None:
            return layout.digest(dumps(doc, as_read=self.as_read))
        return layout.digest(layout.at(self.index["places"], self.bytes(), slot))

    def file_digest(self) -> str | None:
        """The digest of the file's bytes (None for no file, or tables that are not the file's)."""
        return None if self.dirty or self.legacy is not None else self.digest()

    # writing ---------------------------------------------------------------------

    def _every_session_if_needed(self, act):
        """``act(tables)``; where orjson cannot write a value beside sessions not read, every one read first."""
        try:
            return act(self.read())
        except TypeError:
            self.read_whole()
            return act(self.read())

    def changed(self) -> bool:
        """Whether the tables hold a change the file does not (an upgrade of an older layout alone is
        none): what a read-only file refuses."""
        if self.legacy is not None:
            return self.dirty and dumps(self.read(), as_read=self.as_read) != self.upgraded
        return self.dirty and self._every_session_if_needed(self.encode) != self.raw

    def commit(self) -> bool:
        """Write the tables as they now are, once (the caller holds the lock): False when unchanged.
        The new file's index is kept, so the next command parses only the sessions it reads."""
        if not self.dirty and self.legacy is None:
            return False
        written = self._every_session_if_needed(self._replace)
        self.dirty = False
        if not written:
            return False
        raw, places = self.raw, self.places
        if not self.as_read and layout.indexable(raw) and self.index_cache:
            if places is not None:  # laid out from the old index: sessions not read keep their outlines
                self._keep(layout.index_after(self.digest(), ordered(self.tables), places,
                                              self.index["outlines"]))
            else:
                self._keep(layout.index_of(self.digest(), raw, ordered(self.tables)))
        return True

    def encode(self, tables: dict) -> bytes:
        """The bytes the file would hold with these tables (``places``: where each session lies, when
        sessions not read are kept as their bytes). TypeError where orjson cannot write a value
        beside them."""
        tables.setdefault("meta", {}).setdefault("1", {})["schema_version"] = SCHEMA_VERSION
        self.places = None
        if any(type(doc) is Stored for doc in tables.get("sessions", {}).values()):
            written, self.places = layout.laid_out(ordered(tables))
            return written
        return dumps(ordered(tables), as_read=self.as_read)

    def _replace(self, data: dict) -> bool:
        """Replace the file with these tables, unless it holds them already (False)."""
        if not self.writer:
            raise RuntimeError("only a writer writes")
        if self.legacy is not None:
            self.legacy.settle(data)
        written = self.encode(data)
        if written == self.raw:
            return False
        if self.foreign:
            raise DatabaseUnusable(self.shown, FOREIGN)
        if self.legacy is not None:
            self.legacy.keep_copy()
        written_digest = layout.digest_soon(written) if layout.indexable(written) else None  # hashed meanwhile
        try:
            atomic.replace(self.real, written, self._unchanged, self.stat, database=True)
        except atomic.AppearedMeanwhile:
            raise DatabaseUnusable(self.shown, APPEARED) from None
        except OSError as error:
            raise DatabaseUnusable(self.shown, f"cannot be written: {error.strerror or error}") from None
        global _writes
        _writes += 1  # from here on the command has changed the database
        if self.legacy is not None:
            self.legacy.put_away()
            self.legacy = None
        self.raw, self._digest = written, written_digest
        return True

    def _unchanged(self, at: str | None = None) -> os.stat_result | None:
        """The file as it is now, if it is still what was read (``at``: the file swapped out of its
        place by ``atomic.replace``); else exit 1, nothing written."""
        now, found = read_bytes(self.shown, at or self.real)
        if self.raw is None and now is not None:
            raise DatabaseUnusable(self.shown, APPEARED)
        if now != self.raw or (self.legacy is not None and not self.legacy.unchanged()):
            raise DatabaseUnusable(self.shown, CHANGED_ON_DISK)
        return found


def ordered(tables: dict) -> dict:
    """The two tables as the file holds them: ``meta``, then ``sessions``."""
    return {name: tables.get(name, {}) for name in TABLES}
