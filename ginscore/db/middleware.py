"""What is layered on the database file's ``Storage``: a TinyDB ``Middleware``, as TinyDB's own
``CachingMiddleware`` is, that keeps TinyDB's changes in memory and writes them once, when the
command has succeeded (a refused command never writes), and reads lazily: with the file's index
from the cache, a session is parsed only when it is read (docs/storage.md).
"""

from __future__ import annotations

from tinydb.middlewares import Middleware

from ginscore.core.errors import DatabaseUnusable
from ginscore.db import index as layout
from ginscore.db import storage
from ginscore.db.index import Stored, outline
from ginscore.db.storage import FileStorage, dumps, ordered

FORGED_INDEX = ("was read through a cache of where each session is in it that does not match it (edited by hand?); "
                "the cache was set aside and nothing was written: run the command again")


class WriteOnce(Middleware):
    """TinyDB's changes kept in memory and written once (``commit``); sessions read lazily.

    ``index_cache(real)`` (given to TinyDB) is where the cache keeps the file's index; without it a
    large file is read whole. A reader lists the sessions from the index alone; a writer's tables
    hold the sessions it did not read as their bytes (``index.Stored``), written back as they were.
    """

    def __init__(self, storage_cls=FileStorage):
        super().__init__(storage_cls)
        self.tables: dict | None = None
        self.dirty = False
        self.index: dict | None = None  # the index of the file read, when read lazily
        self.lazy = False  # a writer's tables hold sessions not read yet
        self.upgraded: bytes | None = None  # a writer's older layout, as first read and upgraded
        self._looked = False
        self._slots: dict[int, int] | None = None
        self._places = None

    def __call__(self, *args, index_cache=None, **kwargs):
        self.index_cache = index_cache
        return super().__call__(*args, **kwargs)

    def read(self) -> dict:
        if self.tables is None:
            self.look_up_index()
        if self.tables is None:
            self.tables = self.storage.read()
            if self.storage.writer and self.storage.legacy is not None:
                self.upgraded = dumps(self.tables, as_read=self.storage.as_read)
        return self.tables

    def write(self, data: dict) -> None:
        self.tables, self.dirty = data, True

    def close(self) -> None:
        pass  # nothing is held open

    # the file's index, kept in the cache ---------------------------------------

    def places(self):
        """Where the cache keeps the file's index."""
        if self._places is None:
            self._places = self.index_cache(self.storage.real)
        return self._places

    def look_up_index(self) -> None:
        """Once, before anything is read: the file's index from the cache, when kept for exactly these
        bytes. Else a reader works it out for the next command, when the file is laid out as ginscore
        writes it and the cache can be written. A small file has none (``index.INDEXED_FROM``)."""
        if self._looked:
            return
        self._looked = True
        raw = self.storage.bytes()
        if self.index_cache is None or not layout.indexable(raw):
            return
        self.storage.start_digest()  # worked out while the cache is read
        kept = self.places().section("index")
        found = self.storage.digest()
        if layout.fits(kept, found, len(raw)):
            if not self.storage.writer:
                self.index = kept
                return
            tables = layout.lazy_tables(kept, raw)  # a writer's must lay the file out exactly
            if tables is not None:
                self.tables, self.lazy, self.index = tables, True, kept
                return
        if not self.storage.writer and self.places().writable():
            tables = self.read()
            if not self.storage.as_read and self.storage.legacy is None:
                self._keep(layout.index_of(found, raw, ordered(tables)))

    def _keep(self, index: dict | None) -> None:
        if index is not None:
            self.places().keep_index(index)

    # reading ---------------------------------------------------------------------

    def entries(self) -> list[tuple[int, dict]]:
        """Every stored session as (document id, document), in the order added; one not read yet as
        its outline (``index.OUTLINED``: what finding and listing sessions read)."""
        self.look_up_index()
        if self.index is not None and not self.storage.writer:
            return list(zip(self.index["numbers"], self.index["outlines"]))
        outlines = self.index["outlines"] if self.index else None
        return [(int(key), outlines[doc.slot] if type(doc) is Stored else doc)
                for key, doc in self.read().get("sessions", {}).items()]

    def meta(self) -> dict:
        """The one document of the meta table."""
        self.look_up_index()
        if self.index is not None and not self.storage.writer:
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
        if self.storage.writer:
            found = self.session(str(self.index["numbers"][slot]))
        else:
            found = layout.document(layout.at(self.index, self.storage.bytes(), slot))
        if isinstance(found, dict) and outline(found) == doc:
            return found
        if self.storage.writer:
            self.places().drop("index")
            raise DatabaseUnusable(self.storage.shown, FORGED_INDEX)
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
            whole = storage.parsed(self.storage.shown, self.storage.raw)[0].get("sessions", {})
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
            return layout.digest(dumps(doc, as_read=self.storage.as_read))
        return layout.digest(layout.at(self.index, self.storage.bytes(), slot))

    def file_digest(self) -> str | None:
        """The digest of the file's bytes (None for no file, or tables that are not the file's)."""
        return None if self.dirty or self.storage.legacy is not None else self.storage.digest()

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
        if self.storage.legacy is not None:
            return self.dirty and dumps(self.read(), as_read=self.storage.as_read) != self.upgraded
        return self.dirty and self._every_session_if_needed(self.storage.encode) != self.storage.raw

    def commit(self) -> bool:
        """Write the tables as they now are, once (the caller holds the lock): False when unchanged.
        The new file's index is kept, so the next command parses only the sessions it reads."""
        if not self.dirty and self.storage.legacy is None:
            return False
        before = storage.writes()
        self._every_session_if_needed(self.storage.write)
        self.dirty = False
        if storage.writes() == before:
            return False
        raw, places = self.storage.raw, self.storage.places
        if not self.storage.as_read and layout.indexable(raw) and self.index_cache:
            if places is not None:  # laid out from the old index: sessions not read keep their outlines
                self._keep(layout.index_after(self.storage.digest(), ordered(self.tables), places,
                                              self.index["outlines"]))
            else:
                self._keep(layout.index_of(self.storage.digest(), raw, ordered(self.tables)))
        return True
