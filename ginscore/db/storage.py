"""The database file as TinyDB sees it: one JSON file, read once, replaced whole.

``DatabaseStorage`` is a TinyDB ``Storage`` (TinyDB's own extension point for
where and how the tables are kept): ``TinyDB(real, storage=DatabaseStorage,
shown=..., writer=...)``. It reads the file once per command, checks that it
is a ginscore database (the two tables ``sessions`` and ``meta``, TinyDB's
document ids, a schema this ginscore knows), and keeps every change TinyDB
makes in memory. Nothing reaches the disk until ``commit``, which the store
calls once, under the lock, when the command has succeeded: the new bytes go
to a temporary file beside the real one (created exclusively under a fresh
name), are fsynced, checked against what was read (a file another program
changed meanwhile is never overwritten), and renamed over it; then the folder
is fsynced. A refused command never commits, so the file stays byte for byte
as it was. The file keeps its permission bits.

A file of an older layout (schema 1 and 2: one file; schema 3: a main file
naming part files beside it) is read through ``upgrade`` into the tables of
today, in memory; the first commit keeps a copy of every old file first
(``upgrade.keep_copy``) and then writes the one file.

JSON is read and written with orjson (several times faster than ``json`` on a
file of years of hands; see docs/performance.md): compact, UTF-8, which
TinyDB's own ``JSONStorage`` reads back (``encoding="utf-8"``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import orjson
from tinydb.storages import Storage

from ginscore.db import atomic
from ginscore.db.index import Stored, digest_soon, indexable, laid_out, lazy_tables
from ginscore.core.errors import DatabaseUnusable

SCHEMA_VERSION = 4  # 1-2: one file of 1.x; 3: the parted layout of 2.x; 4: one TinyDB file again
TABLES = ("meta", "sessions")
APPEARED = ("was created by another ginscore command or program while this one ran; "
            "nothing was written: run the command again")
A_FOLDER = "is a folder, not a database file; pass --db with a file path"
NEWER = "was written by a newer ginscore"
FOREIGN = ("is not empty but holds no ginscore database (another program's file?); it was left as it is, "
           "use --db for another file")
NOT_OURS = "is JSON but not a ginscore database; it was left as it is, use --db for another file"
DEEP = "is nested too deeply to be a ginscore database; it was left as it is, use --db for another file"
NOT_JSON = "is not JSON (damaged, or not a ginscore file); it was left as it is, use --db for another file"

_writes = 0  # times this process has replaced a database file (committed a write)


def writes() -> int:
    """How many times this process has replaced a database file.

    The exit point compares it before and after a command: a command that
    changed the database exits 0 whatever happens afterwards (docs/commands.md).
    """
    return _writes


def not_a_file(path, kind: str) -> DatabaseUnusable:
    if kind == "a folder":
        return DatabaseUnusable(path, A_FOLDER)
    return DatabaseUnusable(path, f"is {kind}, not a database file; it was left as it is, pass --db with a file path")


def read_bytes(shown, real: str) -> tuple[bytes | None, os.stat_result | None]:
    """The file's bytes and stat; (None, None) when it does not exist yet. Only ever a regular file."""
    try:
        return atomic.read(real) or (None, None)
    except atomic.NotRegular as error:
        raise not_a_file(shown, error.kind) from None
    except IsADirectoryError:
        raise DatabaseUnusable(shown, A_FOLDER) from None
    except PermissionError:
        raise DatabaseUnusable(shown, "cannot be read: permission denied") from None
    except OSError as error:
        raise DatabaseUnusable(shown, f"cannot be read: {error.strerror or error}") from None


def parsed(shown, raw: bytes) -> tuple[dict, bool]:
    """The tables in a file's bytes, checked to be a ginscore database's ({} for an empty file), and
    whether only Python's own ``json`` could read the bytes exactly (then ``dumps(as_read=True)``).

    A file not byte for byte as orjson writes it (edited by hand, or by a script) is read again by
    Python's ``json``, which sees what orjson passes over: a key twice in one object, an integer
    past 64 bits, a number too large for a float."""
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
    """Whether the regular file at ``real`` is a ginscore database, of this layout, an older one or a
    newer one, read as every command reads one (a byte order mark, or a NaN edited into one session,
    still makes a database). OSError when it cannot be read: nobody can then tell."""
    raw = (atomic.read(real) or (b"", None))[0]
    try:
        data, _ = parsed(real, raw)
    except DatabaseUnusable as error:
        return error.problem.startswith(NEWER)
    return bool(data)


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
    """What Python's own ``json`` makes of a file: a NaN or Infinity edited into one session by hand is
    then damage in that session (named, the others still work), not in the file. A key twice in one
    object or a number too large for a float refuses the file: it could not be written back as it is."""
    try:
        return json.loads(raw, object_pairs_hook=_object, parse_float=_finite)
    except _Unkept as error:
        raise DatabaseUnusable(shown, f"{error}; it was left as it is, mend it in the file or use --db for "
                                      "another file") from None
    except RecursionError:
        raise DatabaseUnusable(shown, DEEP) from None
    except (UnicodeDecodeError, ValueError):
        raise DatabaseUnusable(shown, NOT_JSON) from None


def _whole(value) -> bool:
    return type(value) is int and value >= 0


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
    if not _whole(version) or version < 1:
        raise DatabaseUnusable(shown, NOT_OURS)
    if version > SCHEMA_VERSION:
        raise DatabaseUnusable(
            shown, f"{NEWER} (schema {version}, this one knows {SCHEMA_VERSION}); upgrade ginscore"
        )
    if version == SCHEMA_VERSION and not isinstance(meta_of(data).get("current"), (str, type(None))):
        raise DatabaseUnusable(shown, NOT_OURS)


def dumps(data, *, as_read: bool = False) -> bytes:
    """Compact JSON bytes of ``data``: orjson's, unless ``as_read`` (a file that only Python's own
    ``json`` could read: a NaN, an Infinity, a lone surrogate or an integer past 64 bits edited in
    by hand) or orjson cannot write it; then Python's ``json``, which writes each back exactly as
    it was read (every character past ASCII as an escape), so a damaged session stays as it was."""
    if not as_read:
        try:
            return orjson.dumps(data)
        except TypeError:  # a lone surrogate or an integer past 64 bits
            pass
    return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class DatabaseStorage(Storage):
    """TinyDB's storage for a ginscore database: read once, kept in memory, committed once.

    ``real`` is the file itself (symlinks followed); ``shown`` the path as the
    user gave it (messages name it). Only a ``writer`` (under the lock) may
    ``commit``.
    """

    def __init__(self, real: str, *, shown: Path, writer: bool = False, access_mode: str = "r+"):
        self.real = real
        self.shown = shown
        self.writer = writer
        self.raw: bytes | None = None
        self.stat: os.stat_result | None = None
        self.legacy = None  # a ``upgrade.Old`` when the file is of an older layout
        self._upgraded: bytes | None = None  # an older layout: its tables as first read, upgraded
        self.as_read = False  # only Python's json could read the file: written back the same way (``dumps``)
        self.dirty = False
        self.foreign = False
        self._data: dict | None = None
        self._fetched = False
        self._lazy = False  # a writer's tables from the file's index: sessions not read are ``index.Stored``
        self.places: list[int] | None = None  # where the last commit laid out each session, when lazy
        self._digest: Callable[[], str] | None = None  # the digest of the bytes read or last written

    def fetch(self) -> bytes | None:
        """The file's bytes as read once for this command (None when there is no file yet), unparsed."""
        if not self._fetched:
            self.raw, self.stat = read_bytes(self.shown, self.real)
            self._fetched = True
        return self.raw

    def digest_soon(self) -> None:
        """Start working out the digest of the file's bytes (``file_digest`` waits for it)."""
        if self._digest is None and self.fetch() is not None:
            self._digest = digest_soon(self.raw)

    def file_digest(self) -> str | None:
        """The digest of the file's bytes (None for no file, or tables that are not the file's yet)."""
        if self.dirty or self.legacy is not None:
            return None
        self.digest_soon()
        return None if self._digest is None else self._digest()

    # TinyDB's Storage -------------------------------------------------------

    def read(self) -> dict:
        if self._data is None:
            self.fetch()
            data, self.as_read = parsed(self.shown, self.raw) if self.raw is not None else ({}, False)
            self.foreign = bool(self.raw) and not data  # `{}`, blanks: maybe another program's, never made ours
            version = meta_of(data).get("schema_version", SCHEMA_VERSION) if data else SCHEMA_VERSION
            if version < SCHEMA_VERSION:
                from ginscore.db import upgrade  # (only an older layout needs it: start-up does not pay)

                self.legacy = upgrade.read(self.shown, self.real, self.raw, self.stat, data, version)
                data = self.legacy.tables
                if self.writer:  # (what a change is told from: only a writer is asked, ``changed``)
                    self._upgraded = dumps(data, as_read=self.as_read)
            self._data = data
        return self._data

    def write(self, data: dict) -> None:
        self._data = data
        self.dirty = True

    def close(self) -> None:
        pass  # nothing is held open: the file was read whole, and is replaced whole by ``commit``

    # ginscore's --------------------------------------------------------------

    def lazy(self, index: dict) -> bool:
        """Take the tables from ``index`` (the file's, checked by the caller against its digest) before
        anything is read: no session is parsed until it is read (``materialize``), and those never read
        are written back as the bytes they were. False (and nothing changed) when the index does not
        lay the file out exactly."""
        if self._data is not None or not self.fetch():
            return False
        tables = lazy_tables(index, self.raw)
        if tables is None:
            return False
        self._data, self._lazy = tables, True
        return True

    def materialize(self, key: str) -> dict | None:
        """The document under ``key`` in the sessions table, parsed now if it was not read yet (None if
        its bytes are not a document: only a forged index places one so, and ``unlazy`` then decides)."""
        found = self.read().get("sessions", {}).get(key)
        if type(found) is Stored:
            found = found.parsed()
            if found is not None:
                self._data["sessions"][key] = found
        return found

    def unlazy(self) -> dict:
        """The tables with every session read: those not read yet from the whole file, parsed now."""
        if self._lazy:
            whole = parsed(self.shown, self.raw)[0].get("sessions", {})
            sessions = self._data.setdefault("sessions", {})
            for key, doc in list(sessions.items()):
                if type(doc) is Stored:
                    sessions[key] = whole[key]
            self._lazy = False
        return self.read()

    def tables(self) -> dict:
        """The two tables as ``commit`` writes them: ``meta``, then ``sessions``."""
        data = self.read()
        return {name: data.get(name, {}) for name in TABLES}

    def _written(self) -> bytes:
        """The bytes the file would hold now (``places``: where each session lies, when laid out)."""
        self.read().setdefault("meta", {}).setdefault("1", {})["schema_version"] = SCHEMA_VERSION
        written = self.places = None
        if self._lazy:
            try:
                written, self.places = laid_out(self.tables())  # the sessions not read, as they were
            except TypeError:  # a value orjson cannot write: the whole file, written as dumps() can
                self.unlazy()
        return dumps(self.tables(), as_read=self.as_read) if written is None else written

    def changed(self) -> bool:
        """Whether a change was made to the tables that the file does not hold (an upgrade of an
        older layout alone is none): what a read-only file refuses."""
        if self.legacy is not None:
            return self.dirty and dumps(self.read(), as_read=self.as_read) != self._upgraded
        return self.dirty and self._written() != self.raw

    def commit(self) -> bool:
        """Replace the file with the tables as they now are (under the lock): False when nothing changed."""
        if not self.writer:
            raise RuntimeError("only a writer commits")
        if not self.dirty and self.legacy is None:
            return False
        written = self._written()
        if written == self.raw:
            self.dirty = False
            return False
        if self.foreign:
            raise DatabaseUnusable(self.shown, FOREIGN)
        if self.legacy is not None:
            self.legacy.keep_copy()
        # the new file's digest, for its index: hashed while it is written
        written_digest = digest_soon(written) if indexable(written) else None
        try:
            atomic.replace(self.real, written, self._unchanged, self.stat, new_only=True, came_out=self._unchanged)
        except atomic.AppearedMeanwhile:
            raise DatabaseUnusable(self.shown, APPEARED) from None
        except OSError as error:
            raise DatabaseUnusable(self.shown, f"cannot be written: {error.strerror or error}") from None
        global _writes
        _writes += 1  # committed: from here on the command has changed the database
        if self.legacy is not None:
            self.legacy.put_away()
            self.legacy = None
        self.raw, self.dirty, self._digest = written, False, written_digest
        return True

    def _unchanged(self, at: str | None = None) -> os.stat_result | None:
        """The file as it is now, if it is still what was read (the commit's last check; ``at``: the
        file swapped out of its place, ``atomic.replace``); else exit 1, nothing written: another
        program changed it between ginscore's read and its write."""
        now, found = read_bytes(self.shown, at or self.real)
        if self.raw is None and now is not None:
            raise DatabaseUnusable(self.shown, APPEARED)
        if now != self.raw or (self.legacy is not None and not self.legacy.unchanged()):
            raise DatabaseUnusable(
                self.shown, "was changed on disk by another program after ginscore read it (a sync client?); "
                "nothing was written: run the command again"
            )
        return found
