"""A TinyDB ``Middleware`` over ``storage.FileStorage`` that reads a large file through its index,
kept in the cache (``index``): a reader lists the sessions from their outlines and parses only the
one it reads; a writer's tables hold the sessions it did not read as their bytes, written back as
they are. Without an index that fits the file exactly, every call goes to the file read whole.
"""

from __future__ import annotations

from functools import cached_property

from tinydb.middlewares import Middleware

from ginscore.core.errors import DatabaseUnusable
from ginscore.db import layout  # the file's byte layout and its index
from ginscore.db.storage import dumps, ordered, parsed, stamped

FORGED_INDEX = ("was read through a cache of where each session is in it that does not match it (edited by hand?); "
                "the cache was set aside and nothing was written: run the command again")


class IndexMiddleware(Middleware):
    """See the module. ``index_cache(real)`` is where the cache keeps the file's index (None: no index)."""

    def __init__(self, storage_cls) -> None:
        super().__init__(storage_cls)
        self.index_cache = None
        self.index: dict | None = None  # the index of the file read, when read through it
        self.lazy = False  # a writer's tables hold sessions not read yet
        # where each session lies in the bytes last encoded: session k at bytes[places[2k]:places[2k + 1]]
        self.places: list[int] | None = None
        self._looked = False
        self._slots: dict[int, int] | None = None

    def __call__(self, *args, index_cache=None, **kwargs):
        # TinyDB calls its storage with the arguments given to TinyDB(): ``index_cache`` is the
        # middleware's, the rest make the FileStorage (real, shown=, writer=).
        self.index_cache = index_cache
        return super().__call__(*args, **kwargs)

    def read(self) -> dict:
        self.look_up_index()
        return self.storage.read()

    # the file's index, kept in the cache ---------------------------------------

    @cached_property
    def cache(self):
        """Where the cache keeps the file's index."""
        return self.index_cache(self.storage.real)

    def look_up_index(self) -> None:
        """Once, before anything is read: the file's index from the cache, when kept for exactly these
        bytes. Else a reader reads the whole file and keeps its index in the cache for the next command
        (when the file is laid out as ginscore writes it and the cache can be written). A small file has
        none (``layout.INDEXED_FROM``)."""
        if self._looked:
            return
        self._looked = True
        storage = self.storage
        raw = storage.bytes()
        if self.index_cache is None or not layout.indexable(raw):
            return
        storage.start_digest()  # worked out while the cache is read
        kept = self.cache.section("index")
        found = storage.digest()
        if layout.fits(kept, found, len(raw)):
            if not storage.writer:
                self.index = kept
                return
            tables = layout.lazy_tables(kept, raw)  # a writer's must lay the file out exactly
            if tables is not None:
                storage.tables, self.lazy, self.index = tables, True, kept
                return
        if not storage.writer and self.cache.writable():
            tables = storage.read()
            if not storage.as_read and storage.old_layout is None:
                self.cache.keep_index(layout.index_of(found, raw, ordered(tables)))

    # reading ---------------------------------------------------------------------

    def entries(self) -> list[tuple[int, dict]]:
        """Every stored session as (document id, document), in the order added; one not read yet as
        its outline (``layout.OUTLINED``: what finding and listing sessions read)."""
        self.look_up_index()
        if self.index is not None and not self.storage.writer:
            return list(zip(self.index["numbers"], self.index["outlines"]))
        return [(int(key), self.index["outlines"][doc.slot] if type(doc) is layout.Stored else doc)
                for key, doc in self.read().get("sessions", {}).items()]

    def meta(self) -> dict:
        """The one document of the meta table."""
        self.look_up_index()
        tables = self.index if self.index is not None and not self.storage.writer else self.read()
        return dict(tables.get("meta", {}).get("1") or {})

    def _slot(self, doc: dict) -> int | None:
        """Where an outline from ``entries`` is in the index (None for a whole document). An outline is
        known by identity, not by its fields: two sessions may have the same outline."""
        if self.index is None:
            return None
        if self._slots is None:
            self._slots = {id(outlined): slot for slot, outlined in enumerate(self.index["outlines"])}
        return self._slots.get(id(doc))

    def whole(self, doc: dict) -> dict:
        """A stored session's whole document, parsed from its place in the file for an outline. ``doc``
        must be the very dict ``entries`` gave: a copy of an outline comes back as it is. Where the
        index placed another session there (only a forged cache does) the file decides for a reader;
        a writer, which may have found the wrong session by it, stops (exit 1, nothing written) and
        sets the index aside."""
        slot = self._slot(doc)
        if slot is None:
            return doc
        writer = self.storage.writer
        if writer:
            found = self.session(str(self.index["numbers"][slot]))
        else:
            found = layout.document(layout.at(self.index["places"], self.storage.bytes(), slot))
        if isinstance(found, dict) and layout.outline(found) == doc:
            return found
        if writer:
            self.cache.drop("index")
            raise DatabaseUnusable(self.storage.shown, FORGED_INDEX)
        return next((stored for stored in self.read_whole()["sessions"].values() if layout.outline(stored) == doc), {})

    def session(self, key: str) -> dict | None:
        """A writer's session under ``key``, parsed now if it was not read yet (and from then on a
        document in its tables); None when its bytes are not one (only a forged cache places so)."""
        sessions = self.read().get("sessions", {})
        found = sessions.get(key)
        if type(found) is layout.Stored:
            found = found.parsed()
            if found is not None:
                sessions[key] = found
        return found

    def read_whole(self) -> dict:
        """The tables with every session read: those not read yet parsed now, from the whole file."""
        if self.lazy:
            storage = self.storage
            whole = parsed(storage.shown, storage.raw)[0].get("sessions", {})
            sessions = storage.tables.setdefault("sessions", {})
            for key, doc in list(sessions.items()):
                if type(doc) is layout.Stored:
                    sessions[key] = whole[key]
            self.lazy = False
        return self.read()

    def digest_of(self, doc: dict) -> str:
        """The digest of a stored session's whole document as read now (every field, its name and those
        ginscore does not know too): of its bytes in the file for an outline, else as ``dumps`` writes it
        back (a damaged session never shares the digest, and so the cached row, of the session it was)."""
        slot = self._slot(doc)
        if slot is None:
            return layout.digest(dumps(doc, as_read=self.storage.as_read))
        return layout.digest(layout.at(self.index["places"], self.storage.bytes(), slot))

    # writing ---------------------------------------------------------------------

    def encode(self, tables: dict) -> bytes:
        """The bytes the file would hold with these tables; sessions not read are laid out as their
        bytes (``places``: where each session then lies)."""
        self.places = None
        if any(type(doc) is layout.Stored for doc in tables.get("sessions", {}).values()):
            try:
                written, self.places = layout.laid_out(stamped(tables))
                return written
            except TypeError:  # a value orjson cannot write beside them: every session read first
                self.read_whole()
        return dumps(stamped(tables), as_read=self.storage.as_read)

    def changed(self) -> bool:
        return self.storage.changed(self.encode)

    def commit(self) -> bool:
        """Write the tables (``FileStorage.commit``) and keep the new file's index, so the next
        command parses only the sessions it reads."""
        storage = self.storage
        if not storage.commit(self.encode):
            return False
        raw, places = storage.raw, self.places
        if not storage.as_read and layout.indexable(raw) and self.index_cache:
            tables = ordered(storage.tables)
            if places is not None:  # laid out from the old index: sessions not read keep their outlines
                self.cache.keep_index(layout.index_after(storage.digest(), tables, places, self.index["outlines"]))
            else:
                self.cache.keep_index(layout.index_of(storage.digest(), raw, tables))
        return True
