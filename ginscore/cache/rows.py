"""What the listings read of every session, made from the facts, kept in the cache.

A row a session (``store_summary.summarise``: its ``history --json`` row with
its statistics counts) and the tally groups ``stats`` adds up
(``store_summary.grouped``), kept in the user's cache folder (``cache``)
under the digest of the facts each was made from. When the database file is
the one the cache was last made from (one digest of its bytes), every row is
taken as kept; otherwise each session's digest is taken and only the rows of
sessions whose facts changed are made again. A row is never trusted on a
file's size or time.

Only a reader of an unchanged database keeps what it made (a writer's tables
are not yet the file's); the cache is written after the listing is made.
"""

from __future__ import annotations

from ginscore.cache.files import digest
from ginscore.db.storage import dumps
from ginscore.core.errors import DatabaseUnusable


# What every row ``store_summary.summarise`` makes holds (a Hollywood one also its "games"); a
# session that cannot be read has only "unusable".
ROW_KEYS = frozenset(("counts", "created_at", "final", "hands_played", "match", "name", "over", "players",
                      "score", "variant", "winner"))


def _sound(row) -> bool:
    """A kept row of the shape ``summarise`` makes (a cache file is checked as any file is)."""
    if not isinstance(row, dict):
        return False
    if "unusable" in row:
        return set(row) == {"unusable"} and isinstance(row["unusable"], str)
    return ROW_KEYS <= set(row) <= ROW_KEYS | {"games"} and isinstance(row["name"], str)


class Derived:
    """The rows and tallies of one open database."""

    def __init__(self, db):
        self.db = db
        db.outlines()  # the file read (whole, unless its layout is known)
        self.file_digest = db.file_digest()  # None: nothing is kept (a writer's tables)
        self.cache = db.cache()
        self.fits = self.file_digest is not None and self.cache.fits(self.file_digest)
        self._digests: dict[int, str] | None = None
        self._made: dict[str, dict] = {}  # rows made in this run, by digest
        self._docs: dict[int, dict] | None = None

    def digests(self) -> dict[int, str]:
        """Each stored session's digest, by document id: as kept when the file is the one the
        cache was made from, else taken of each session's facts as read now."""
        if self._digests is None:
            entries = self.db.outlines()
            kept = self.cache.section("digests") if self.fits else None
            if isinstance(kept, dict) and len(kept) == len(entries) and all(
                    isinstance(kept.get(str(n)), str) for n, _ in entries):
                self._digests = {n: kept[str(n)] for n, _ in entries}
            else:
                self._digests = {n: self.db.digest_of(doc) for n, doc in entries}
                self.cache.put("digests", {str(n): key for n, key in self._digests.items()})
        return self._digests

    def _kept_rows(self):
        return self.cache.keyed("rows")

    def _doc(self, doc_id: int) -> dict:
        if self._docs is None:
            self._docs = dict(self.db.outlines())
        return self._docs[doc_id]

    def _checked(self, ids: list[int]) -> list[dict]:
        """The rows of these sessions (the kept ones parsed at once); a session that cannot be read
        fails them all, naming it."""
        digests = self.digests()
        keys = [digests[n] for n in ids]
        wanted = [key for key in keys if key not in self._made]
        kept = dict(zip(wanted, self._kept_rows().get_many(wanted)))
        found = []
        for n, key in zip(ids, keys):
            row = self._made.get(key) or kept.get(key)
            if not _sound(row):
                from ginscore.cache.summarise import summarise

                row = self._made[key] = summarise(dict(self.db.whole(self._doc(n))))
            found.append(row)
        for row in found:
            if "unusable" in row:
                raise DatabaseUnusable(self.db.path, row["unusable"])
        return found

    def rows(self, ids: list[int]) -> list[dict]:
        """The rows of these sessions; a session that cannot be read fails them all, naming it."""
        found = self._checked(ids)
        self._save()
        return found

    def items(self, name: str, ids: list[int], made, encoded=None, kind: str = "items") -> list:
        """``encoded(made(row))`` of each of these sessions' rows (bytes, or views of the cache's;
        ``encoded`` is ``store_summary.json_item`` unless given), kept under ``name`` by the digest
        of each session's facts in the cache file ``kind``: a list of every session printed again
        neither parses its rows nor encodes them. A session that cannot be read fails them all,
        naming it (a kept item was made of a sound row of the same facts)."""
        from ginscore.cache.summarise import json_item

        encoded = encoded or json_item
        digests = self.digests()
        items = self.db.cache(kind)  # a file of their own: megabytes no other listing reads
        kept = items.keyed(name)
        found = kept.raw_many([digests[n] for n in ids])
        missing = [n for n, data in zip(ids, found) if data is None]
        fresh = {digests[n]: encoded(made(row)) for n, row in zip(missing, self._checked(missing))}
        found = [fresh[digests[n]] if data is None else data for n, data in zip(ids, found)]
        self._save()
        if fresh and self.file_digest is not None:
            items.put_keyed(name, kept.kept(set(digests.values())) | fresh)
            items.save(self.file_digest, items.names())
        return found

    def _live_key(self) -> str:
        digests = self.digests()
        return digest("".join(f"{n}:{digests[n]};" for n, _ in self.db.live()).encode())

    def _part(self, name: str, key: str):
        """A part kept under ``name`` for facts of digest ``key``."""
        found = self.cache.section(name)
        if isinstance(found, dict) and "value" in found and found.get("key") == key:
            return found["value"]
        return None

    def groups(self) -> list[dict]:
        """The tally groups of the live sessions."""
        key = self._live_key()
        found = self._part("groups", key)
        if not isinstance(found, list):
            from ginscore.cache.summarise import grouped

            live = [n for n, _ in self.db.live()]
            found = grouped([row | {"id": n} for n, row in zip(live, self._checked(live))])
            self.cache.put("groups", {"key": key, "value": found})
        self._save()
        return found

    def per_session(self, name: str, made) -> list:
        """``made(facts)`` of each live session, kept by the session's digest under ``name``."""
        digests = self.digests()
        kept = self._part(name, "by-digest")
        kept = kept if isinstance(kept, dict) else {}
        found, fresh = [], {}
        for n, doc in self.db.live():
            key = digests[n]
            value = kept[key] if key in kept else made(self.db.facts_of(doc))
            fresh[key] = value
            found.append(value)
        self.cache.put(name, {"key": "by-digest", "value": fresh})
        self._save()
        return found

    def remembered(self, name: str, asked: list, made) -> object:
        """``made()`` for the live sessions as they are and ``asked``, kept under ``name`` (the last
        few asked of the same sessions)."""
        question = digest(dumps(asked))
        key = self._live_key()
        kept = self._part(name, key)
        kept = kept if isinstance(kept, dict) else {}
        if question in kept:
            return kept[question]
        value = made()
        fresh = dict(list(kept.items())[-7:]) | {question: value}  # a few, not every question ever asked
        self.cache.put(name, {"key": key, "value": fresh})
        self._save()
        return value

    def _save(self) -> None:
        """What was made, into the cache file (a reader of an unchanged file only): the rows of the
        sessions there now, and every section kept before or made now."""
        if self.file_digest is None:
            return
        if self._made:
            rows = self._kept_rows().kept(set(self.digests().values()))
            self.cache.put_keyed("rows", rows | {key: dumps(row) for key, row in self._made.items()})
        self.digests()  # kept whenever anything is: what the next run checks the rows by
        self.cache.save(self.file_digest, self.cache.names() | {"digests"} | ({"rows"} if self._made else set()))
