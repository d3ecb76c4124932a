"""The database file as TinyDB sees it: a TinyDB ``Storage`` that reads the file once, exactly or
not at all, keeps TinyDB's changes in memory and replaces the file whole, once, when the command
has succeeded (a refused command never writes) and only if it is still the file read. How a write
stays whole, and what is refused: docs/storage.md.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import suppress
from decimal import Decimal
from pathlib import Path

import orjson
from tinydb.storages import Storage

from ginscore.codec.validate import describe
from ginscore.core.errors import DatabaseUnusable
from ginscore.db import atomic
from ginscore.db import layout

SCHEMA_VERSION = 5  # 1-2: one file of 1.x; 3: the parted layout of 2.x; 4: one TinyDB file again;
# 5: the same, each hand keeping who dealt it (H8), so an older ginscore refuses it, not misreads it
TABLES = ("meta", "sessions")
LEFT = "it was left as it is, use --db for another file"
APPEARED = ("was created by another ginscore command or program while this one ran; "
            "nothing was written: run the command again")
FOREIGN = f"is not empty but holds no ginscore database (another program's file?); {LEFT}"
NOT_OURS = f"is JSON but not a ginscore database; {LEFT}"
DEEP = f"is nested too deeply to be a ginscore database; {LEFT}"
NOT_JSON = f"is not JSON (damaged, or not a ginscore file); {LEFT}"
CHANGED_ON_DISK = ("was changed on disk by another program after ginscore read it (a sync client?); "
                   "nothing was written: run the command again")

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
    except atomic.NotRegular as error:  # (a folder too: atomic.read looks before opening and once open)
        raise not_a_file(shown, error.kind) from None
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
        data, read_by_json = orjson.loads(raw), False
    except orjson.JSONDecodeError:  # also bad UTF-8, NaN, and nesting deeper than any database
        data, read_by_json = _read_with_json(shown, raw), True
    else:
        try:
            exact = orjson.dumps(data) == raw
        except TypeError:  # nested deeper than orjson writes, though not than it reads: no database is
            raise DatabaseUnusable(shown, DEEP) from None
        if not exact:
            data = _read_with_json(shown, raw)
            try:
                orjson.dumps(data)
            except TypeError:  # an integer past 64 bits: written back by Python's json, exactly
                read_by_json = True
    check_shape(shown, data)
    return data, read_by_json


def holds_database(real: str) -> bool:
    """Whether the regular file at ``real`` is a ginscore database of any layout, read as every
    command reads one. OSError when it cannot be read: nobody can then tell."""
    raw = (atomic.read(real) or (b"", None))[0]
    try:
        return bool(parsed(real, raw)[0])
    except DatabaseUnusable as error:
        if isinstance(error, NewerDatabase):
            return True
    # Refused for how it is written (a key twice, a number or a nesting that could not be written back
    # as it was, another program's table beside ours), it may still hold sessions worth mending: it is
    # treated as a database, never overwritten.
    try:
        return _our_tables(json.loads(raw))
    except (RecursionError, UnicodeDecodeError, ValueError):  # damaged past reading: cut short, a byte changed
        return _starts_as_tables(raw)


# A database's file as it starts: an object with one of its tables (perhaps after another program's).
_TABLES_AT_START = re.compile(r'\ufeff?\s*\{.*?"(?:' + "|".join(TABLES) + r')"\s*:\s*\{', re.S)


def _starts_as_tables(raw: bytes) -> bool:
    """Whether bytes no JSON reader takes start as a database's file does, in UTF-8 or UTF-16."""
    head = raw[:65536]
    utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff")
    return bool(_TABLES_AT_START.match(head.decode("utf-16" if utf16 else "utf-8", "ignore")))


def _our_tables(data) -> bool:
    """Whether read JSON holds a database's tables, perhaps beside another program's."""
    return isinstance(data, dict) and bool(data) and (set(data) <= set(TABLES) or "sessions" in data)


class NewerDatabase(DatabaseUnusable):
    """A database of a schema newer than this ginscore knows: a ginscore database all the same."""


class _Unkept(ValueError):
    """What Python's json reads but could not write back as it was: a key twice, a number too large."""


def _object_with_each_key_once(pairs: list) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(key for at, (key, _) in enumerate(pairs) if key in dict(pairs[:at]))
        raise _Unkept(f"holds the key {json.dumps(twice)} twice in one object (edited by hand?), so one of "
                      "them would be lost")
    return found


def _float_kept_exactly(text: str) -> float:
    found = float(text)
    if found in (float("inf"), float("-inf")):
        raise _Unkept(f"holds the number {text}, too large to be kept exactly")
    if Decimal(repr(found)) != Decimal(text):  # written back, it would be another number (1e-400 as 0.0)
        raise _Unkept(f"holds the number {text}, too small or too precise to be kept exactly")
    return found


def _read_with_json(shown, raw: bytes):
    """What Python's ``json`` makes of a file: a NaN edited into one session is then damage in that
    session (named, the others still work), not in the file."""
    try:
        return json.loads(raw, object_pairs_hook=_object_with_each_key_once, parse_float=_float_kept_exactly)
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
        if _our_tables(data):  # with another program's table added
            other = next(k for k in data if k not in TABLES)
            raise DatabaseUnusable(shown, f"holds a table {describe(other)} beside ginscore's own (another "
                                          "program's?), which ginscore would not keep; it was left as it is: "
                                          "keep that table in a file of its own")
        raise DatabaseUnusable(shown, NOT_OURS)
    if not data:
        return
    tables = [data.get(name, {}) for name in TABLES]
    if not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in tables):
        raise DatabaseUnusable(shown, NOT_OURS)
    if not all(key.isascii() and key.isdigit() for t in tables for key in t):  # TinyDB's document ids
        raise DatabaseUnusable(shown, NOT_OURS)
    for table in tables:  # TinyDB reads "02" as 2: two such keys are one document, and one would be lost
        numbers = [int(key) for key in table]
        if len(set(numbers)) < len(numbers):
            twice = next(key for key in table if numbers.count(int(key)) > 1)
            raise DatabaseUnusable(shown, f"holds the document {int(twice)} twice, under keys like {json.dumps(twice)} "
                                          "(edited by hand?), so one of them would be lost; give one another number")
    version = meta_of(data).get("schema_version")
    if type(version) is not int or version < 1:
        raise DatabaseUnusable(shown, NOT_OURS)
    if version > SCHEMA_VERSION:
        raise NewerDatabase(shown, f"was written by a newer ginscore (schema {version}, this one knows {SCHEMA_VERSION}); "
                                   "upgrade ginscore")
    if version >= 4 and not isinstance(meta_of(data).get("current"), (str, type(None))):
        raise DatabaseUnusable(shown, NOT_OURS)


def dumps(data, *, as_read: bool = False) -> bytes:
    """Compact JSON bytes of ``data``: orjson's, unless ``as_read`` (a file only Python's ``json``
    could read) or orjson cannot write it (a lone surrogate, an integer past 64 bits); then Python's
    ``json``, which writes each value back exactly as it was read, so a damaged session stays so."""
    if not as_read:
        with suppress(TypeError):
            return orjson.dumps(data)
    return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class FileStorage(Storage):
    """TinyDB's ``Storage`` for a ginscore database file (see the module); ``commit`` writes it.
    ``real``: the file, links followed; ``shown``: the path messages name; only a ``writer`` writes.

    The flags below are set as the file is read, except ``dirty``, set by TinyDB's ``write`` and
    cleared by ``commit``. ``IndexMiddleware`` may fill ``tables`` before any read, and hands its
    ``encode`` (the bytes the file would hold with some tables) to ``changed`` and ``commit``."""

    def __init__(self, real: str, *, shown: Path, writer: bool = False):
        self.real, self.shown, self.writer = real, shown, writer
        self.raw: bytes | None = None
        self.stat: os.stat_result | None = None
        self._fetched = False
        self.old_layout = None  # an ``upgrade.Old`` when the file is of an older layout
        self.as_read = False  # only Python's json could read the file: written back the same way
        self.foreign = False  # `{}`, blanks: maybe another program's file, never made ours
        self._digest = None  # gives the digest of the bytes read or last written
        self.tables: dict | None = None  # IndexMiddleware may put a writer's unparsed sessions (layout.Stored) here
        self.dirty = False
        self.upgraded: bytes | None = None  # a writer's older layout, as first read and upgraded

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
        """The digest of the file's bytes as read or last written (None for no file)."""
        self.start_digest()
        return None if self._digest is None else self._digest()

    def file_digest(self) -> str | None:
        """``digest()`` while the tables are still what the file holds (what the cache may be keyed on);
        None once they were changed, for an older layout read as today's, or for no file."""
        return None if self.dirty or self.old_layout is not None else self.digest()

    def read(self) -> dict:
        if self.tables is None:
            data, self.as_read = parsed(self.shown, self.raw) if self.bytes() is not None else ({}, False)
            self.foreign = bool(self.raw) and not data
            version = meta_of(data).get("schema_version", SCHEMA_VERSION)
            if version < SCHEMA_VERSION:
                from ginscore.db import upgrade  # (only an older layout needs it: start-up does not pay)

                self.old_layout = upgrade.read(self.shown, self.real, self.raw, self.stat, data, version)
                data = self.old_layout.tables
                meta_of(data)["schema_version"] = SCHEMA_VERSION  # (a document checked, or made by the upgrade)
                if self.writer:
                    self.upgraded = dumps(data, as_read=self.as_read)
            self.tables = data
        return self.tables

    def write(self, data: dict) -> None:
        self.tables, self.dirty = data, True

    # writing ---------------------------------------------------------------------

    def changed(self, encode) -> bool:
        """Whether the tables hold a change the file does not (an upgrade of an older layout alone is
        none): what a read-only file refuses."""
        if self.old_layout is not None:
            return self.dirty and dumps(self.read(), as_read=self.as_read) != self.upgraded
        return self.dirty and encode(self.read()) != self.raw

    def commit(self, encode) -> bool:
        """Write the tables as they now are, once (the caller holds the lock): False when unchanged.
        An older layout is upgraded only by a command that records something (docs/storage.md): one
        that changed nothing leaves it as it was."""
        if not self.dirty or (self.old_layout is not None and not self.changed(encode)):
            return False
        written = self._replace(self.read(), encode)
        self.dirty = False
        return written

    def _replace(self, data: dict, encode) -> bool:
        """Replace the file with these tables, unless it holds them already (False)."""
        if self.old_layout is not None:
            self.old_layout.record_dealers(data)
        written = encode(data)
        if written == self.raw:
            return False
        if self.foreign:
            raise DatabaseUnusable(self.shown, FOREIGN)
        if self.old_layout is not None:
            self.old_layout.keep_copy()
        written_digest = layout.digest_soon(written) if layout.indexable(written) else None  # hashed meanwhile
        try:
            atomic.replace(self.real, written, self._unchanged, self.stat, database=True)
        except atomic.AppearedMeanwhile:
            raise DatabaseUnusable(self.shown, APPEARED) from None
        except OSError as error:
            raise DatabaseUnusable(self.shown, f"cannot be written: {error.strerror or error}") from None
        global _writes
        _writes += 1  # from here on the command has changed the database
        if self.old_layout is not None:
            self.old_layout.put_away()
            self.old_layout = None
        self.raw, self._digest = written, written_digest
        return True

    def _unchanged(self, at: str | None = None) -> os.stat_result | None:
        """The file as it is now, if it is still what was read (``at``: the file swapped out of its
        place by ``atomic.replace``); else exit 1, nothing written."""
        if os.path.islink(at or self.real):  # a link put in its place meanwhile: replaced, it would be lost
            raise DatabaseUnusable(self.shown, CHANGED_ON_DISK)
        now, found = read_bytes(self.shown, at or self.real)
        if self.raw is None and now is not None:
            raise DatabaseUnusable(self.shown, APPEARED)
        if now != self.raw or (self.old_layout is not None and not self.old_layout.unchanged()):
            raise DatabaseUnusable(self.shown, CHANGED_ON_DISK)
        return found


def stamped(tables: dict) -> dict:
    """The tables as the file holds them (``ordered``), the meta table stamped with this schema (in place)."""
    tables.setdefault("meta", {}).setdefault("1", {})["schema_version"] = SCHEMA_VERSION
    return ordered(tables)


def ordered(tables: dict) -> dict:
    """The two tables as the file holds them: ``meta``, then ``sessions``."""
    return {name: tables.get(name, {}) for name in TABLES}
