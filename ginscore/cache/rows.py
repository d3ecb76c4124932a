"""What the listings (`sessions`, `history`, `stats`, `ratings`) read of every session: a row a
session and what is added up from them, made from the facts and kept in the cache under the digest
of the facts each was made from. The database never imports the cache (a large file's index is
handed to it as a place to keep it: cli/paths.index_cache).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from itertools import chain

import orjson

from ginscore.cache.files import Cache
from ginscore.core import reports, stats
from ginscore.core.errors import DatabaseUnusable
from ginscore.core.escape import json_safe, visible_lines
from ginscore.core.replay import Standings
from ginscore.core.session import SessionFacts
from ginscore.db.damage import replayed
from ginscore.db.layout import digest, loaded
from ginscore.db.storage import dumps


# What every row holds (a Hollywood one also its "games").
ROW_KEYS = frozenset(("counts", "created_at", "final", "hands_played", "match", "name", "over", "players",
                      "score", "variant", "winner"))


def sound_row(row) -> bool:
    """A kept row of the shape ``summarise`` makes (a cache file is checked as any file is)."""
    return (isinstance(row, dict) and ROW_KEYS <= set(row) <= ROW_KEYS | {"games"}
            and isinstance(row["name"], str))


def summarise(found: Standings) -> dict:
    """The row of one session, from its standings."""
    row = reports.history_row(found)
    row["counts"] = stats.packed(stats.session_counts(found))["counts"]
    return row


def grouped(rows: list[dict]) -> list[dict]:
    """What some sessions add to ``stats`` (their rows with their ``id``): a ``stats.tally`` for
    each group of one variant and the same players, in the order their first session was added,
    as ``{"variant", "players", "tally"}``."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["variant"], tuple(row["players"])), []).append(row)
    return [{"variant": variant, "players": list(players), "tally": stats.tally(chosen)}
            for (variant, players), chosen in groups.items()]


def history_item(row: dict) -> dict:
    """A session's item of ``history --json``: its row without the statistics counts."""
    return {key: value for key, value in row.items() if key != "counts"}


def json_item(value) -> bytes:
    """``value`` as an item of a JSON list exactly as ``json.dumps(whole_list, ensure_ascii=False,
    indent=2)`` writes it there, every raw control or bidi character escaped: UTF-8 bytes, kept in
    the cache because Python's encoder with an indent is slow on years of sessions."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return json_safe("  " + text.replace("\n", "\n  "), "utf-8").encode()


def shows_only_text(data) -> bool:
    """Whether kept text (or its UTF-8 bytes) holds no character a terminal would obey: all that is made
    is written through ``visible`` or ``json_safe``, so any other was forged, and is made again."""
    try:
        text = data if isinstance(data, str) else str(data, "utf-8")
    except UnicodeDecodeError:
        return False
    return text.replace("\n", "").isprintable() or visible_lines(text) == text


class Listings:
    """The rows and tallies of one open database (``db.database.Database``), as the listings read them."""

    def __init__(self, db):
        self.db = db
        db.refuse_if_not_ours()  # the file read first (its layout, or an older one, decides what is kept)
        self.file_digest = db.storage.file_digest()  # None: nothing is kept (a writer's tables)
        self.cache = Cache(db.real)
        self.fits = self.file_digest is not None and self.cache.made_from == self.file_digest
        self._digests: dict[int, str] | None = None
        self._made: dict[str, dict] = {}  # rows made in this run, by digest

    def digests(self) -> dict[int, str]:
        """Each stored session's digest, by document id: as kept when the file is the one the cache
        was made from, else taken of each session's whole stored document as read now (``digest_of``)."""
        if self._digests is None:
            entries = self.db.entries()
            kept = self.cache.section("digests") if self.fits else None
            if isinstance(kept, dict) and len(kept) == len(entries) and all(
                    isinstance(kept.get(str(n)), str) for n, _ in entries):
                self._digests = {n: kept[str(n)] for n, _ in entries}
            else:
                self._digests = {n: self.db.storage.digest_of(doc) for n, doc in entries}
                self.cache.put("digests", {str(n): key for n, key in self._digests.items()})
        return self._digests

    def _checked(self, ids: list[int]) -> list[dict]:
        """The rows of these sessions (the kept ones parsed at once); a session that cannot be read
        fails them all, naming it."""
        digests, docs = self.digests(), dict(self.db.entries())
        keys = [digests[n] for n in ids]
        wanted = [key for key in keys if key not in self._made]
        kept = dict(zip(wanted, self.cache.keyed("rows").get_many(wanted)))
        found = []
        for n, key in zip(ids, keys):
            row = self._made.get(key) or kept.get(key)
            if not sound_row(row):  # made now (what is said of a session that cannot be read is never kept)
                standing, why = replayed(dict(self.db.whole(docs[n])))
                if why is not None:
                    raise DatabaseUnusable(self.db.path, *why)
                row = self._made[key] = summarise(standing)
            found.append(row)
        return found

    def summaries(self, ids: list[int]) -> list[dict]:
        """The ``history --json`` rows of these sessions, each with its statistics ``counts`` (those made, kept)."""
        found = self._checked(ids)
        self._save()
        return found

    def history_items(self, ids: list[int]) -> Iterator[dict]:
        """The ``history --json`` rows of these sessions without their counts, in this order."""
        return map(history_item, self.summaries(ids))

    def listed_items(self, ids: list[int], listing: str) -> list:
        """Each of these sessions' item of ``history --json`` (``listing`` "history") or of
        ``sessions --json`` (each as not current), as ``json_item`` writes it."""
        made = history_item if listing == "history" else \
            (lambda row: reports.session_item(row, False))
        return self.items(f"{listing}_items", ids, made, json_item, "items")

    def listed_cells(self, ids: list[int], listing: str, cells: Callable[[dict], list[str]],
                     width: int) -> list[list[str]]:
        """``cells(row)`` of each of these sessions' rows (a long list's ``width`` cells)."""
        found = self.items(listing, ids, cells, orjson.dumps, "cells")
        lines = loaded(b"[" + b",".join(found) + b"]")  # None only for a forged cache: a damaged one reads as missing
        if not isinstance(lines, list) or len(lines) != len(ids) or (lines and not (
                set(map(type, lines)) == {list} and set(map(len, lines)) == {width}
                and set(map(type, chain.from_iterable(lines))) == {str}
                and shows_only_text("".join(chain.from_iterable(lines))))):  # (JSON's "\u001b" read back)
            lines = [cells(row) for row in self.summaries(ids)]
        return lines

    def items(self, name: str, ids: list[int], made, encoded, cache_file: str) -> list:
        """``encoded(made(row))`` of each of these sessions' rows (bytes), kept under ``name`` in the
        cache file ``cache_file`` by the digest of each session's facts: a list of every session printed
        again neither parses its rows nor encodes them. A session that cannot be read fails them all."""
        digests = self.digests()
        items = Cache(self.db.real, cache_file)  # a file of their own: megabytes no other listing reads
        kept = items.keyed(name)
        found = kept.raw_many([digests[n] for n in ids])
        if not shows_only_text(b"".join(data for data in found if data is not None)):  # (the quick way: all at once)
            found = [data if data is None or shows_only_text(data) else None for data in found]
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
        return digest("".join(f"{n}:{digests[n]};" for n, _ in self.db.not_deleted()).encode())

    def _part(self, name: str, key: str, expected: type):
        """A part kept under ``name`` for facts of digest ``key``, if it is an ``expected``."""
        found = self.cache.section(name)
        if isinstance(found, dict) and found.get("key") == key and isinstance(found.get("value"), expected):
            return found["value"]
        return None

    def tally_groups(self) -> list[dict]:
        """What the live sessions add to ``stats``, by group (``grouped``)."""
        key = self._live_key()
        found = self._part("groups", key, list)
        if found is None:
            live = [n for n, _ in self.db.not_deleted()]
            found = grouped([row | {"id": n} for n, row in zip(live, self._checked(live))])
            self.cache.put("groups", {"key": key, "value": found})
        self._save()
        return found

    def derived(self, name: str, made: Callable[[SessionFacts], object]) -> list:
        """``made(facts)`` of every live session, in order, kept in the cache under ``name`` by the
        digest of each session's facts (what ``ratings`` rates is made this way)."""
        digests = self.digests()
        kept = self._part(name, "by-digest", dict) or {}
        found, fresh = [], {}
        for n, doc in self.db.not_deleted():
            key = digests[n]
            value = kept[key] if key in kept else made(self.db.facts_of(doc))
            fresh[key] = value
            found.append(value)
        self.cache.put(name, {"key": "by-digest", "value": fresh})
        self._save()
        return found

    def remembered(self, name: str, asked: list, made: Callable[[], object]) -> object:
        """``made()``, worked out from every live session and ``asked``, kept under ``name`` while the
        live sessions' facts are the same (the last few asked)."""
        question = digest(dumps(asked))
        key = self._live_key()
        kept = self._part(name, key, dict) or {}
        if question in kept:
            return kept[question]
        value = made()
        fresh = dict(list(kept.items())[-7:]) | {question: value}  # a few, not every question ever asked
        self.cache.put(name, {"key": key, "value": fresh})
        self._save()
        return value

    def _save(self) -> None:
        """What was made, into the cache file (a reader of an unchanged file only)."""
        if self.file_digest is None:
            return
        if self._made:
            rows = self.cache.keyed("rows").kept(set(self.digests().values()))
            self.cache.put_keyed("rows", rows | {key: dumps(row) for key, row in self._made.items()})
        self.digests()  # kept whenever anything is: what the next run checks the rows by
        self.cache.save(self.file_digest, self.cache.names() | {"digests"} | ({"rows"} if self._made else set()))
