"""The cache files of a database, in the user's cache folder: what is derived, never needed.

Named sections, each sealed and parsed only when asked for; a damaged or stale one reads as missing,
and a folder that cannot be written only costs speed (docs/storage.md, "The cache").
"""

from __future__ import annotations

import hashlib
import os
import re
from contextlib import suppress
from pathlib import Path

import orjson

from ginscore import __version__
from ginscore.cache import this_run
from ginscore.db import atomic
from ginscore.db.home import NoHome, home_expanded
from ginscore.db.layout import loaded
from ginscore.db.storage import dumps  # what orjson cannot write (a lone surrogate, a huge number) too

# Raised whenever what the cache keeps changes shape or meaning without a new ginscore version.
CACHE_SCHEMA = 3
VERSION = f"{__version__}+{CACHE_SCHEMA}"  # a cache file of another version is made again
# Far more than the cache of a lifetime of evenings: a larger file was not written by ginscore, and is
# made again rather than read into memory on every listing.
LARGEST = 256 * 2**20


def folder() -> Path | None:
    """The cache folder, or None when no variable says where and there is no home, or when another user
    can write it: its files could then say anything, and are neither read nor written."""
    where = _named_folder()
    return where if where is None or _ours_alone(where) else None


def _ours_alone(where: Path) -> bool:
    """Whether only this user can write the folder (or it is not there yet: it is made 0700)."""
    try:
        found = os.stat(where)
    except OSError:
        return True
    return found.st_uid == os.geteuid() and not found.st_mode & 0o022


def _named_folder() -> Path | None:
    """The cache folder the environment names. An empty or relative variable counts as unset, as XDG
    says: never the filesystem's root or the current folder."""
    value = os.environ.get("GINSCORE_CACHE")
    if value:
        try:
            value = home_expanded(value)  # (`~/...` set in a file, where no shell expands it)
        except NoHome:
            return None
        if os.path.isabs(value):
            return Path(value)
    for variable, below in (("XDG_CACHE_HOME", ("ginscore",)), ("HOME", (".cache", "ginscore"))):
        value = os.environ.get(variable, "")
        if os.path.isabs(value):
            return Path(value, *below)
    if "HOME" in os.environ:  # set, but empty or relative: no home
        return None
    try:
        return Path.home() / ".cache" / "ginscore"
    except (RuntimeError, KeyError):
        return None


def path_for(real: str, kind: str = "") -> Path | None:
    """The cache file of the database whose real path is ``real`` (``kind``: one of its other cache
    files, ``places`` for its index)."""
    where = folder()
    if where is None:
        return None
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", os.path.basename(real))[:40] or "db"
    named = hashlib.sha256(os.fsencode(real)).hexdigest()[:16]
    return where / f"{stem}-{named}{'.' + kind if kind else ''}.json"


def _seal(name: str, data) -> str:
    """A section's seal: the digest of its name and its bytes, so a section read under another
    name (two swapped in the stamp) reads as missing, as a damaged one does."""
    sealed = hashlib.sha256(name.encode() + b"\0")
    sealed.update(data)
    return sealed.hexdigest()[:32]


class Cache:
    """The cache file of one database: named sections, each one JSON value read only when asked for."""

    def __init__(self, real: str, kind: str = ""):
        self.path = path_for(real, kind)
        self.made_from: str | None = None  # the digest of the database file the sections were made from
        self._raw = b""
        self._places: dict[str, list] = {}  # each section kept in the file: [start, end, seal] in _raw
        # A section read or put is in _sections, or in _keyed when it is many values by key (then
        # _sections holds None for it); _changed: the sections to write again.
        self._sections: dict[str, object] = {}
        self._keyed: dict[str, Keyed] = {}
        self._changed: set[str] = set()
        self._read()

    def _read(self) -> None:
        if self.path is None or this_run.set_aside:
            return
        try:  # laid out as a keyed section is: a head (here the stamp), then the bytes it places
            kept = Keyed.of(memoryview(atomic.read_unlinked(self.path, LARGEST)))
        except (OSError, ValueError, atomic.NotRegular):  # (a FIFO, a device: never waited on)
            return
        stamp, places = kept.places, kept.places.get("sections")
        if stamp.get("version") == VERSION and isinstance(places, dict) and isinstance(stamp.get("file"), str):
            self._raw, self._places, self.made_from = kept.body, places, stamp["file"]  # (else made again)
            this_run.took_parts = True

    def _kept(self, name: str) -> memoryview | None:
        """A section's bytes as the file keeps them (a view, not a copy: rows of years of sessions are
        megabytes); None when missing or not those it sealed."""
        try:
            start, end, seal = self._places.get(name)
            data = memoryview(self._raw)[start:end]
        except (TypeError, ValueError):
            return None
        return data if _seal(name, data) == seal else None

    def section(self, name: str):
        """A section as kept (None when missing or damaged)."""
        if name not in self._sections:
            self._sections[name] = loaded(self._kept(name))
        return self._sections[name]

    def keyed(self, name: str) -> "Keyed":
        """A section of many values by key, each parsed only when asked for (empty when missing or damaged)."""
        if name not in self._keyed:
            self._keyed[name] = Keyed.of(self._kept(name) or memoryview(b""))
        return self._keyed[name]

    def put_keyed(self, name: str, values: dict[str, bytes]) -> None:
        """Keep these values (each its JSON bytes) under their keys as the section ``name``."""
        self._keyed[name] = Keyed.made(values)
        self._sections[name] = None
        self._changed.add(name)

    def names(self) -> set[str]:
        """The sections kept or put."""
        return set(self._places) | {name for name, value in self._sections.items() if value is not None} | {
            name for name in self._changed if name in self._keyed}

    def put(self, name: str, value) -> None:
        if self.section(name) != value:
            self._sections[name] = value
            self._changed.add(name)

    def writable(self) -> bool:
        """Whether this cache file could be written: what is only worth working out to be kept is not
        worked out otherwise."""
        if self.path is None:
            return False
        folder = next((found for found in self.path.parents if found.exists()), None)  # the nearest one there
        return folder is not None and folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)

    def drop(self, name: str) -> None:
        """Write the cache file again without the section ``name``."""
        self._sections[name] = None
        self._keyed.pop(name, None)
        self._changed.add(name)
        self.save(self.made_from or "", self.names() - {name})

    def keep_index(self, index: dict | None) -> None:
        """Keep a database file's index (it names the file it was made of) beside every other section
        (None: there is none to keep)."""
        if index is not None:
            self.put("index", index)
            self.save(self.made_from or "", self.names())

    def save(self, file_digest: str, keep: set[str]) -> None:
        """Write the sections named in ``keep`` (as they now are) for this database file, if anything
        changed; any failure only costs speed next time."""
        if self.path is None or (not self._changed and self.made_from == file_digest
                                 and set(self._places) == keep):
            return
        parts, places, at = [], {}, 0
        for name in sorted(keep):
            if name in self._changed and name in self._keyed:
                data = self._keyed[name].data
            elif name in self._changed or name not in self._places:
                if self.section(name) is None:
                    continue
                data = dumps(self.section(name))
            else:
                data = self._kept(name)
                if data is None:
                    continue  # damaged: never sealed again
            places[name] = [at, at + len(data), _seal(name, data)]
            parts.append(data)
            at += len(data)
        body = b"".join(parts)
        stamp = dumps({"version": VERSION, "file": file_digest, "sections": places})
        with suppress(OSError):  # all or nothing; a failure only costs speed
            with atomic.owners_bits_kept():
                self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic.replace_unsynced(str(self.path), stamp + b"\n" + body)
        self._raw, self._places, self.made_from = body, places, file_digest  # as now written
        self._changed.clear()


class Keyed:
    """A section of many JSON values by key (a session's row by the digest of its facts): a line of
    where each value is, then the values, so a listing of 20 sessions parses 20 rows, not every
    one. A value whose place is not sound reads as missing (it is made again)."""

    def __init__(self, places: dict, body, data):
        self.places, self.body, self.data = places, body, data

    @classmethod
    def of(cls, data: memoryview) -> "Keyed":
        """The section as kept: ``data``, a view of its bytes (the values are views of them too)."""
        found = re.search(rb"\n", data)
        head, body = (data[:found.start()], data[found.end():]) if found else (data, data[len(data):])
        places = loaded(head) if len(head) else {}
        return cls(places if isinstance(places, dict) else {}, body, data)

    @classmethod
    def made(cls, values: dict[str, bytes]) -> "Keyed":
        places, at = {}, 0
        for key, value in values.items():
            places[key] = [at, at + len(value)]
            at += len(value)
        body = b"".join(values.values())
        return cls(places, body, orjson.dumps(places) + b"\n" + body)

    def keys(self):
        return self.places.keys()

    def raw_many(self, keys: list[str]) -> list:
        """The bytes (or a view of them) kept under each of ``keys``; None when missing or not sound."""
        places, body, size, found = self.places, self.body, len(self.body), []
        for key in keys:
            place = places.get(key)
            if type(place) is list and len(place) == 2:
                start, end = place
                if type(start) is int and type(end) is int and 0 <= start <= end <= size:
                    found.append(body[start:end])
                    continue
            found.append(None)
        return found

    def kept(self, keys: set[str]) -> dict:
        """The sound values kept under those of ``keys`` that are here, as bytes: what a section made
        again keeps of this one."""
        chosen = [key for key in self.places if key in keys]
        found = dict(zip(chosen, self.raw_many(chosen)))
        return {key: data for key, data in found.items() if data is not None}

    def raw(self, key: str):
        """The bytes (or a view of them) kept under ``key``; None when missing or not sound."""
        return self.raw_many([key])[0]

    def get(self, key: str):
        """The value kept under ``key``, parsed now (None when missing or not JSON)."""
        return loaded(self.raw(key))

    def get_many(self, keys: list[str]) -> list:
        """The value kept under each of ``keys`` (None when missing or not JSON), parsed together where they can be."""
        values = []
        for start in range(0, len(keys), 500):  # a few hundred at a time: one copy of their bytes at once
            found = self.raw_many(keys[start:start + 500])
            parsed = None
            if len(found) > 1 and all(data is not None for data in found):
                parsed = loaded(b"[" + b",".join(found) + b"]")
            values += parsed if isinstance(parsed, list) and len(parsed) == len(found) else map(loaded, found)
        return values

