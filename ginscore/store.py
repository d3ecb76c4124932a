"""The database: the only module (with its ``store_*`` helpers) that knows its files.

A database is the main file (CLI.md: ``--db``, ``GINSCORE_DB`` or the app
folder; ``ginscore where`` prints it) and TinyDB files beside it of the same
stem, which the main file names (``store_files``). Schema 3 (issue 12):

- the main file: table ``meta``, one document: ``schema_version``, the
  ``current`` session's name (and its id and part as ``current_session``, so
  a command on the current session reads no list), ``files`` (the generation
  of every file beside it), ``write`` (the last write's number) and
  ``summary_version``;
- ``<stem>.index-G.json``: table ``index``, one document of parallel lists
  (``ids``, ``names``, ``parts``, ``created``): which part holds each session;
  one document of lists, because TinyDB wrapping 5,000 documents costs more
  than reading them;
- ``<stem>.facts-NNNN-G.json``: table ``sessions``, the facts of up to
  ``PART_SIZE`` sessions, keyed by session id, as ``records.session_to_dict``
  keeps them (hands as one string of rows);
- ``<stem>.summary-NNNN-G.json``: what those sessions add up to, a cache
  (``store_summary``);
- ``<stem>.tally-NNNN-G.json``: what they add to ``stats``, by groups of one
  variant and the same players, a cache (``store_summary.grouped``);
- ``<stem>.totals-G.json``: the ``stats.running`` totals of every part but
  the newest, a cache that ``stats`` continues with the newest part's
  tallies (``running_totals``).

Every cache file is stamped with the code that made it and the facts file it
was made from (generation, size, modification time, digest: ``_stamp``,
``_facts_as_stamped``), trusted only while they match, made again from the
facts otherwise, and read as missing when it does not parse (caches are not
fsynced, so a crash may leave one empty).

So a command on one session reads the small main file and one part, whatever
the size of the history, and ``hand`` writes one part, its caches and the
main file. Facts are the truth; the caches are made from them, written in the
same all-or-nothing write.

Writes are all-or-nothing across every file. A command that changes anything
runs inside ``Store.writing()``: it takes a lock on ``<file>.lock`` (one
writer at a time, across processes), removes what a killed writer left, reads
what it needs under the lock, lets the command change the facts in memory,
and only when the command succeeds writes once: new files under the next
generation's names (the facts and the index fsynced; the caches not, since a
crash that leaves one empty or cut only makes its readers make it again), the
folder fsynced, then the main file replaced
atomically (a temporary file, fsynced, renamed; the commit point) after
checking that no other program changed it meanwhile, the folder fsynced
again, and the old generations removed. A refused command never reaches the
write, so every file stays byte-for-byte as it was. Readers take no lock:
they see the database before a write or after it; one that finds a named
file gone (removed by a write that just committed) reads again.

The path is trusted for nothing (issue 9): a symlink is followed to the real
file, beside which every other file of the database lives; it is the one
read, locked (``<real>.lock``, never itself followed) and replaced, keeping
its permission bits, and the files beside it take its owner and bits. A file
the main file names is opened without following a link.

Schema 1 and 2 kept every session in the main file (table ``sessions``).
Such a file is read as it is; the first write keeps a copy beside it
(``<file>.schema2.bak``) and writes it out as schema 3.

An unusable file (not JSON, not ginscore's, from a newer ginscore, a folder,
unreadable) raises ``DatabaseUnusable`` and is never rewritten. A session
whose fields do not pass the checks of ``records.session_from_dict`` (an edit
by hand) is damaged: commands on it exit 1 naming it and the field, listings
that read every session do the same rather than leave it out silently, and
other sessions keep working; a write elsewhere keeps it exactly as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from . import atomic, interrupts
from .errors import DatabaseUnusable, NoSuchSession, Refused
from .records import hands_to_text, session_from_dict, session_to_dict
from .fields import shown_value
from .shown import visible
from .store_files import (
    INDEX_KEY, PART_SIZE, TOTALS_KEY, Files, Gone, NotOurs, digest, facts_key, is_cache, summary_key, tally_key,
)
from .rules import VARIANTS
from .summary import as_typed
from .variants import SessionFacts, fold, match_name

SCHEMA_VERSION = 3
TABLES = ("meta", "sessions")  # "sessions" only up to schema 2
LOCK_TIMEOUT = 5.0  # seconds a writer waits for another before giving up
READ_TRIES = 8  # a reader re-reads the main file this often while writers replace the files it names
A_FOLDER = "is a folder, not a database file; pass --db with a file path"
NOT_OURS = "is JSON but not a ginscore database; it was left as it is, use --db for another file"


def _not_a_file(path, kind: str) -> DatabaseUnusable:
    if kind == "a folder":
        return DatabaseUnusable(path, A_FOLDER)
    return DatabaseUnusable(path, f"is {kind}, not a database file; it was left as it is, pass --db with a file path")


def _read_main(path: Path, real: str) -> tuple[bytes | None, os.stat_result | None]:
    """The main file's bytes and stat; (None, None) when it does not exist yet. Only ever a regular file."""
    try:
        return atomic.read(real) or (None, None)
    except atomic.NotRegular as error:
        raise _not_a_file(path, error.kind) from None
    except IsADirectoryError:
        raise DatabaseUnusable(path, A_FOLDER) from None
    except PermissionError:
        raise DatabaseUnusable(path, "cannot be read: permission denied") from None
    except OSError as error:
        raise DatabaseUnusable(path, f"cannot be read: {error.strerror or error}") from None


def _load(path: Path, raw: bytes | None) -> dict:
    """Check what was read; {} for a file that does not exist yet or is empty."""
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: nested too deeply to be ours
        raise DatabaseUnusable(
            path, "is not JSON (damaged, or not a ginscore file); it was left as it is, use --db for another file"
        ) from None
    _check_shape(path, data)
    return data


def _check_shape(path: Path, data) -> None:
    if not isinstance(data, dict) or any(k not in TABLES for k in data):
        raise DatabaseUnusable(path, NOT_OURS)
    if not data:
        return
    tables = [data.get(name, {}) for name in TABLES]
    if not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in tables):
        raise DatabaseUnusable(path, NOT_OURS)
    if not all(key.isascii() and key.isdigit() for t in tables for key in t):  # TinyDB's document ids
        raise DatabaseUnusable(path, NOT_OURS)
    version = _schema_version(data)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise DatabaseUnusable(path, NOT_OURS)
    if version > SCHEMA_VERSION:
        raise DatabaseUnusable(
            path, f"was written by a newer ginscore (schema {version}, this one knows {SCHEMA_VERSION}); upgrade ginscore"
        )
    if version == SCHEMA_VERSION and not _meta_fits(_meta_of(data)):
        raise DatabaseUnusable(path, NOT_OURS)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _meta_fits(meta: dict) -> bool:
    files, at = meta.get("files"), meta.get("current_session")
    return (
        isinstance(files, dict) and all(isinstance(k, str) and _whole(g) for k, g in files.items())
        and _whole(meta.get("write")) and isinstance(meta.get("current"), (str, type(None)))
        and (at is None or (isinstance(at, list) and len(at) == 2 and all(_whole(n) for n in at)))
    )


def _meta_of(data: dict) -> dict:
    docs = list(data.get("meta", {}).values())
    return docs[0] if docs else {}


def _schema_version(data: dict) -> int | None:
    return _meta_of(data).get("schema_version")


_writes = 0  # times this process has replaced a database's main file (committed a write)


def writes() -> int:
    """How many times this process has replaced a database file.

    The exit point compares it before and after a command: a command that
    changed the database exits 0 whatever happens afterwards (CLI.md).
    """
    return _writes


def _dumps(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _sealed(stamp: dict, table: str, body: dict) -> bytes:
    """A cache file: its stamp, which also carries a digest of the bytes of its body, then its body
    (``_unbroken`` checks them as read, without writing the body out again)."""
    written = _dumps({table: body})  # {"table":{...}}
    return b'{"stamp":' + _dumps({"1": dict(stamp, body=digest(written))}) + b"," + written[1:]


def _unbroken(raw: bytes, data) -> bool:
    """Whether a cache file read as ``data`` holds the body its stamp was written with: a body
    changed by hand (a row of the wrong shape under a stamp that still matches the facts) is
    then made again rather than trusted (issue 9)."""
    try:
        stamp = data["stamp"]
        head = b'{"stamp":' + _dumps(stamp) + b","
        return raw.startswith(head) and digest(b"{" + raw[len(head):]) == stamp["1"]["body"]
    except (TypeError, KeyError, AttributeError):
        return False


class _Index:
    """Every session's id, name, part, start and (once deleted) when it was deleted, in the
    order they were added: parallel lists, one TinyDB document."""

    def __init__(self, doc: dict | None = None):
        doc = doc or {}
        self.ids: list[int] = doc.get("ids", [])
        self.names: list = doc.get("names", [])
        self.parts: list[int] = doc.get("parts", [])
        self.created: list = doc.get("created", [])
        self.deleted: list = doc.get("deleted", [None] * len(self.ids))
        self.matches: list = doc.get("matches", [None] * len(self.ids))
        self._at: dict[int, int] | None = None
        self._members: dict[int, list[int]] | None = None

    def fits(self) -> bool:
        lists = (self.ids, self.names, self.parts, self.created, self.deleted, self.matches)
        return (
            all(isinstance(x, list) and len(x) == len(self.ids) for x in lists)
            and all(type(n) is int and n >= 0 for n in self.ids) and all(type(p) is int and p >= 0 for p in self.parts)
            and len(set(self.ids)) == len(self.ids)
        )

    def doc(self) -> dict:
        return {"ids": self.ids, "names": self.names, "parts": self.parts, "created": self.created,
                "deleted": self.deleted, "matches": self.matches}

    def position(self, session_id: int) -> int:
        if self._at is None:
            self._at = {n: i for i, n in enumerate(self.ids)}
        return self._at[session_id]

    def live(self) -> list[int]:
        """Positions of the sessions not deleted: the only ones commands, statistics and history see."""
        return [i for i, gone in enumerate(self.deleted) if not gone]

    def live_names(self) -> list[str]:
        return [n for n, gone in zip(self.names, self.deleted) if not gone and isinstance(n, str)]

    def named(self, name: str) -> int:
        """The position of the live session called ``name``."""
        return next(i for i, n in enumerate(self.names) if n == name and not self.deleted[i])

    def append(self, name, part: int, created: str | None, deleted: str | None = None, match: str | None = None) -> int:
        """A new session at the end; its id is one more than any before."""
        session_id = max(self.ids, default=0) + 1
        self.ids.append(session_id)
        self.names.append(name)
        self.parts.append(part)
        self.created.append(created)
        self.deleted.append(deleted)
        self.matches.append(match)
        if self._at is not None:
            self._at[session_id] = len(self.ids) - 1
        if self._members is not None:
            self._members.setdefault(part, []).append(session_id)
        return session_id

    def members(self, part: int) -> list[int]:
        """The ids of the sessions in ``part``."""
        if self._members is None:
            self._members = {}
            for session_id, at in zip(self.ids, self.parts):
                self._members.setdefault(at, []).append(session_id)
        return self._members.get(part, [])

    def part_for_new(self) -> int:
        """The last part while it has room, else a new one."""
        if not self.parts:
            return 0
        last = self.parts[-1]
        held = 0
        for part in reversed(self.parts):  # new sessions go last, so a part's sessions are together
            if part != last or held == PART_SIZE:
                break
            held += 1
        return last if held < PART_SIZE else last + 1


class Database:
    """The sessions of one database, as facts. Obtained from ``Store``."""

    def __init__(self, path: Path, real: str, *, writer: bool = False):
        self.path = path
        self.files = Files(real)
        self._writer = writer  # only a writer, under the lock, upgrades an old file
        self._reset()

    def _reset(self) -> None:
        self._loaded = False
        self._raw: bytes | None = None
        self._stat: os.stat_result | None = None
        self._meta: dict = {}
        self._legacy: int | None = None  # the schema of a file up to schema 2, read into memory
        self._index_doc: _Index | None = None
        self._facts_parts: dict[int, dict] = {}
        self._rows_parts: dict[int, dict] = {}
        self._dirty: set[int] = set()  # parts whose facts changed
        self._restamp: set[int] = set()  # parts whose cache files were found stale
        self._moved: set[int] = set()  # parts whose facts file was found by its digest (a copied folder)
        self._in_the_way: set[int] = set()  # write numbers that names of another database's files hold
        self._changed: set[str] = set()  # sessions whose summary must be made again
        self._index_dirty = False
        self._meta_dirty = False
        self._taken: dict[str, str] | None = None  # live names folded for case, for uniqueness
        self._parsed: dict[str, object] = {}  # files beside the main file, as read
        self._seen: dict[str, tuple[int, bytes]] = {}  # a writer's: what each file held when read

    # reading --------------------------------------------------------------

    def _reading(self, work):
        """Run ``work``; a reader that finds a file gone (a write just committed) starts again."""
        for attempt in range(READ_TRIES):
            try:
                return work()
            except Gone as gone:
                if self._writer or attempt == READ_TRIES - 1:
                    raise _missing_file(self.path, gone) from None
                self._reset()

    def _main(self) -> dict:
        if not self._loaded:
            self._raw, self._stat = _read_main(self.path, self.files.real)
            data = _load(self.path, self._raw)
            version = _schema_version(data) if data else SCHEMA_VERSION
            if version < SCHEMA_VERSION:
                self._from_legacy(data, version)
            else:
                self._meta = dict(_meta_of(data)) or {
                    "schema_version": SCHEMA_VERSION, "current": None, "current_session": None,
                    "write": 0, "files": {},
                }
            self._loaded = True
        return self._meta

    def _from_legacy(self, data: dict, version: int) -> None:
        """A schema 1 or 2 file: every session is in it; read them all into parts in memory."""
        self._legacy = version
        docs = data.get("sessions", {})
        index = _Index()
        for key, doc in docs.items():
            hands = doc.get("hands")
            if self._writer and isinstance(hands, list) and _readable(doc):  # 1 -> 2: hands as one string of rows
                doc["hands"] = hands_to_text(hands)
            part = index.part_for_new()
            session_id = index.append(doc.get("name"), part, doc.get("created_at"), doc.get("deleted_at"),
                                      doc.get("match"))
            self._facts_parts.setdefault(part, {})[str(session_id)] = doc
        self._index_doc = index
        old = _meta_of(data)
        current = old.get("current") if isinstance(old.get("current"), str) else None
        at = None
        if current in index.live_names():
            i = index.named(current)
            at = [index.ids[i], index.parts[i]]
        self._meta = {"schema_version": SCHEMA_VERSION, "current": current if at else None, "current_session": at,
                      "write": 0, "files": {}}
        if self._writer:
            self._dirty = set(self._facts_parts)
            self._changed = {str(n) for n in index.ids}
            self._index_dirty = self._meta_dirty = True

    def _file(self, key: str, table: str) -> dict:
        """A table of a file the main file names ({} when it names none); each file read once."""
        generation = self._main()["files"].get(key)
        if generation is None:
            return {}
        if key not in self._parsed:
            try:
                raw = self.files.read(key, generation)
            except NotOurs as error:
                raise DatabaseUnusable(self.path, f"cannot be used: {error}; move it away") from None
            except OSError as error:
                raise DatabaseUnusable(
                    self.path, f"cannot be read: {self.files.path(key, generation)}: {error.strerror or error}"
                ) from None
            if self._writer:
                self._seen[key] = (generation, raw)
            try:
                self._parsed[key] = json.loads(raw)
            except (UnicodeDecodeError, ValueError):
                self._parsed[key] = None
            if is_cache(key) and not _unbroken(raw, self._parsed[key]):
                self._parsed[key] = None  # read as damaged: made again
        data = self._parsed[key]
        found = data.get(table) if isinstance(data, dict) else None
        if not isinstance(found, dict) or not all(isinstance(d, dict) for d in found.values()):
            if is_cache(key):
                raise _DamagedCache(key)
            raise DatabaseUnusable(
                self.path, f"has a damaged file {self.files.path(key, generation)}; it was left as it is"
            )
        return found

    def _index(self) -> _Index:
        if self._index_doc is None:
            self._main()
            if self._index_doc is None:
                docs = list(self._file(INDEX_KEY, "index").values())
                index = _Index(docs[0] if docs else None)
                if not index.fits():
                    where = self.files.path(INDEX_KEY, self._meta["files"][INDEX_KEY])
                    raise DatabaseUnusable(self.path, f"has a damaged index {where}; it was left as it is")
                self._index_doc = index
        return self._index_doc

    def _part(self, part: int) -> dict:
        """The facts of one part: {session id as text: stored facts}."""
        if part not in self._facts_parts:
            self._main()
            if part not in self._facts_parts:
                self._facts_parts[part] = self._file(facts_key(part), "sessions")
        return self._facts_parts[part]

    def _locate(self, name: str) -> tuple[int, int]:
        """(id, part) of the live session called ``name``."""
        meta = self._main()
        if name == meta.get("current") and meta.get("current_session"):
            session_id, part = meta["current_session"]
            return session_id, part
        index = self._index()
        i = index.named(name)
        return index.ids[i], index.parts[i]

    def _doc_at(self, session_id: int, part: int) -> dict:
        doc = self._part(part).get(str(session_id))
        if doc is None:
            raise DatabaseUnusable(self.path, f"lists a session that is not in its part ({facts_key(part)})")
        return doc

    # meta -----------------------------------------------------------------

    @property
    def current_name(self) -> str | None:
        return self._reading(lambda: self._main().get("current"))

    def make_current(self, name: str | None) -> None:
        at = list(self._reading(lambda: self._locate(name))) if name is not None else None
        self._meta.update(current=name, current_session=at)
        self._meta_dirty = True

    # sessions -------------------------------------------------------------

    def names(self, *, include_deleted: bool = False) -> list[str]:
        """Live session names (``include_deleted``: also the names deleted sessions keep)."""
        def names() -> list[str]:
            index = self._index()
            return [n for n in index.names if isinstance(n, str)] if include_deleted else index.live_names()

        return self._reading(names)

    def find_name(self, typed: str | None) -> str:
        """The session a command acts on: ``typed`` (exact or unique prefix), else the current one."""
        return self._reading(lambda: self._find_name(typed))

    def _find_name(self, typed: str | None) -> str:
        if typed is not None and not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (`ginscore sessions` lists them)")
        if typed is None:
            meta = self._main()
            current = meta.get("current")
            if current is not None and meta.get("current_session"):
                return current  # written with the index: no list to read
            index = self._index()
            names = index.live_names()
            if not names and index.ids:
                raise NoSuchSession(
                    "no session is current: every session is deleted; `ginscore restore NAME` brings one back "
                    "(see `ginscore sessions --deleted`), or start one with `ginscore new`"
                )
            if not names:
                raise NoSuchSession("there is no session yet; start one, like `ginscore new standard Ann Ben`")
            raise NoSuchSession("no session is current; pick one with `ginscore use NAME` (see `ginscore sessions`)")
        index = self._index()
        names = index.live_names()
        matches = match_name(names, typed)
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NoSuchSession(f"'{visible(typed)}' could be {', '.join(map(visible, matches))}; type more of the name")
        every = {n for n in index.names if isinstance(n, str)}
        gone = match_name(sorted(every - set(names)), typed)
        if len(gone) == 1:
            raise NoSuchSession(
                f"session '{visible(gone[0])}' is deleted; `ginscore restore {visible(as_typed(gone[0]))}` brings it back"
            )
        raise NoSuchSession(f"no session '{visible(typed)}'; `ginscore sessions` lists them")

    def load(self, typed: str | None = None) -> SessionFacts:
        def load() -> SessionFacts:
            name = self._find_name(typed)
            doc = self._doc_at(*self._locate(name))
            if doc.get("name") != name:
                raise DatabaseUnusable(self.path, f"lists session '{visible(name)}' but its facts say otherwise")
            return self._facts(doc)

        return self._reading(load)

    def all_facts(self) -> list[SessionFacts]:
        """Every live session; deleted ones count in no statistics, history or list."""
        def every() -> list[SessionFacts]:
            index = self._index()
            return [self._facts(self._doc_at(index.ids[i], index.parts[i])) for i in index.live()]

        return self._reading(every)

    def deleted(self) -> list[tuple[SessionFacts, str]]:
        """Deleted sessions with when they were deleted, the most recently deleted first."""
        def gone() -> list[tuple[SessionFacts, str]]:
            index = self._index()
            at = sorted((i for i, when in enumerate(index.deleted) if when), key=lambda i: str(index.deleted[i]),
                        reverse=True)
            return [(self._facts(self._doc_at(index.ids[i], index.parts[i])), str(index.deleted[i])) for i in at]

        return self._reading(gone)

    def in_match(self, match: str) -> list[SessionFacts]:
        """The live sessions of a match (linked by `rematch`), in the order they were added."""
        def linked() -> list[SessionFacts]:
            index = self._index()
            return [self._facts(self._doc_at(index.ids[i], index.parts[i])) for i in index.live()
                    if index.matches[i] == match]

        return self._reading(linked)

    def deleted_count(self) -> int:
        return self._reading(lambda: sum(1 for when in self._index().deleted if when))

    def _facts(self, doc: dict) -> SessionFacts:
        """A stored session, read through every field check; a damaged one names itself and its field.

        Only commands that read this session fail (exit 1); others keep working.
        Listings (``sessions``, ``history``, ``stats``) read every session and so
        fail on a damaged one, naming it, rather than leave it out silently.
        """
        try:
            return session_from_dict(doc, strict=False)
        except Refused as error:
            raise DatabaseUnusable(self.path, damaged(doc, error)) from None

    def listed(self) -> list[tuple[int, str, str | None]]:
        """Every live session as (id, name, started), in the order they were added, without reading their facts."""
        def every():
            index = self._index()
            return [(index.ids[i], index.names[i], index.created[i]) for i in index.live()]

        return self._reading(every)

    def summaries(self, ids: list[int] | None = None) -> list[dict]:
        """The ``history --json`` rows of these sessions (every live one when None), each with its
        statistics ``counts`` (``stats.packed``): from the summary cache, made again from the facts
        where stale. A session that cannot be read fails the listing, naming it."""
        def rows() -> list[dict]:
            index = self._index()
            wanted = [index.ids[i] for i in index.live()] if ids is None else ids
            by_part: dict[int, list[int]] = {}
            for session_id in wanted:
                by_part.setdefault(index.parts[index.position(session_id)], []).append(session_id)
            found = {}
            for part, members in by_part.items():
                stored = self._rows(part)
                for session_id in members:
                    row = stored[str(session_id)]
                    if "unusable" in row:
                        raise DatabaseUnusable(self.path, row["unusable"])
                    found[session_id] = row
            return [found[n] for n in wanted]

        return self._reading(rows)

    def each_summary(self, ids: list[int]) -> Iterator[dict]:
        """The ``history --json`` rows of these sessions without their counts, in this order, one
        at a time: each part read when a row first needs it and let go after the last, so a list
        of years of sessions is written as it is read, in the memory of a part or two. A session
        that cannot be read stops it, naming it. A write committed meanwhile is followed: the rows
        not yet given are read from the database as it then is."""
        given = 0
        for attempt in range(READ_TRIES):
            try:
                for row in self._each_row(ids[given:]):
                    given += 1
                    yield row
                return
            except Gone as gone:
                if self._writer or attempt == READ_TRIES - 1:
                    raise _missing_file(self.path, gone) from None
                self._reset()

    def _each_row(self, ids: list[int]) -> Iterator[dict]:
        """Each part is read once, and let go after the last row it gives (sessions started out
        of the order added, an import of old evenings, hold a few parts at once). A damaged
        session stops it before the first row: each part is looked through first, one at a time,
        so a list is never left cut on standard output."""
        index = self._index()
        parts = [index.parts[index.position(session_id)] for session_id in ids]
        wanted: dict[int, list[int]] = {}
        for session_id, part in zip(ids, parts):
            wanted.setdefault(part, []).append(session_id)
        for part, members in wanted.items():
            if self._surely_whole(part):
                continue
            rows = self._rows(part)
            for session_id in members:
                if "unusable" in rows[str(session_id)]:
                    raise DatabaseUnusable(self.path, rows[str(session_id)]["unusable"])
            self._let_go(part)
        last = {part: at for at, part in enumerate(parts)}
        for at, (session_id, part) in enumerate(zip(ids, parts)):
            row = self._rows(part)[str(session_id)]
            if "unusable" in row:
                raise DatabaseUnusable(self.path, row["unusable"])
            if last[part] == at:
                self._let_go(part)
            yield {k: v for k, v in row.items() if k != "counts"}

    def _surely_whole(self, part: int) -> bool:
        """True when a part's summary file, as written and still matching its facts, holds no
        damaged session: found in its bytes without reading them into rows (the check before a
        list is written costs a search, not a second reading of every part)."""
        files = self._main()["files"]
        generation = files.get(summary_key(part))
        if self._legacy or self._writer or generation is None or part in self._rows_parts:
            return False
        try:
            raw = self.files.read(summary_key(part), generation)
            stamp, _ = json.JSONDecoder().raw_decode(raw.decode("utf-8"), len('{"stamp":'))
            return (raw.startswith(b'{"stamp":') and _unbroken(raw, {"stamp": stamp})
                    and self._stamp_fits(part, stamp["1"], files) and b'"unusable":' not in raw)
        except (Gone, NotOurs, OSError, ValueError, TypeError, KeyError, AttributeError):
            return False  # read it whole, and let that say why

    def _let_go(self, part: int) -> None:
        """A reader forgets what it read of a part (a writer keeps what it will write; a file of
        schema 2 keeps its parts in memory, read from the main file)."""
        if not self._writer and not self._legacy:
            self._rows_parts.pop(part, None)
            self._facts_parts.pop(part, None)
            for key in (summary_key(part), facts_key(part)):
                self._parsed.pop(key, None)

    def _rows(self, part: int) -> dict:
        """The summaries of one part, checked against its facts; stale or missing ones made again."""
        if part not in self._rows_parts:
            from .store_summary import summarise

            rows = self._stored_rows(part)
            members = list(self._facts_parts[part]) if part in self._facts_parts else \
                [str(n) for n in self._index().members(part)]
            for key in members:
                if key not in rows or key in self._changed:
                    rows[key] = summarise(self._part(part)[key])
            self._rows_parts[part] = rows
        return self._rows_parts[part]

    def _stored_rows(self, part: int) -> dict:
        """The stored summaries of a part if their stamp matches its facts, else {}."""
        return dict(self._stamped(summary_key(part), part, "summaries") or {})

    def _stamped(self, key: str, part: int, table: str) -> dict | None:
        """A table of one of a part's cache files (its summary, its tally) if the file's stamp
        matches the part's facts (``_stamp_fits``); else None, and a writer makes it again."""
        found = self._cache(key, table)
        if found is None or not self._stamp_fits(part, found[0], self._main()["files"]):
            self._restamp.add(part)
            return None
        return found[1]

    def _cache(self, key: str, table: str) -> tuple[dict, dict] | None:
        """(stamp, table) of a cache file; None when there is none, when it was removed (not by a
        write meanwhile: then the main file is read again), or when it is damaged (a crash can
        leave one empty or cut: caches are not fsynced; or an edit by hand)."""
        if self._legacy or key not in self._main()["files"]:
            return None
        try:
            stamps = list(self._file(key, "stamp").values())
            return (stamps[0] if stamps else {}), self._file(key, table)
        except Gone:
            if self._writer or _read_main(self.path, self.files.real)[0] == self._raw:
                return None
            raise
        except _DamagedCache:
            return None

    def _stamp_fits(self, part: int, stamp: dict, files: dict) -> bool:
        """Whether a cache stamp of ``part`` matches the facts file ``files`` names: made by this
        code (``store_summary.version``) from that generation, as ``_facts_as_stamped`` finds it."""
        from .store_summary import version

        generation = files.get(facts_key(part))
        return (stamp.get("version"), stamp.get("facts")) == (version(), generation) and \
            self._facts_as_stamped(part, generation, stamp)

    def _facts_as_stamped(self, part: int, generation: int, stamp: dict) -> bool:
        """Whether a part's facts file is still the one a cache was made from: the same size and
        modification time (one stat), or else (a copied folder, a file touched or edited by hand)
        the same bytes, by their digest."""
        found = self.files.signature(facts_key(part), generation)
        if found is None or found[0] != stamp.get("facts_size"):
            return False
        if found[1] == stamp.get("facts_mtime_ns"):
            return True
        try:
            same = digest(self.files.read(facts_key(part), generation)) == stamp.get("facts_digest")
        except (NotOurs, OSError):
            return False
        if same:
            self._moved.add(part)  # the same bytes under a new time: a writer stamps its caches afresh
        return same

    def tally_groups(self, parts: list[int] | None = None) -> list[dict]:
        """What the live sessions of these parts (every part when None) add to ``stats``: for each
        part, a ``stats.tally`` for each group of its sessions of one variant and the same players
        (``variant``, ``players``, ``tally``), so the filters of ``stats`` and ``history`` keep or
        leave a group whole. From the cache beside the facts, made again from the summaries where
        stale. A session that cannot be read fails it, naming it."""
        def every() -> list[dict]:
            found = []
            for part in self._part_numbers() if parts is None else parts:
                kept = self._stored_tally(part)
                found += kept if kept is not None else self._tally(part)
            return found

        return self._reading(every)

    def running_totals(self, variant: str | None = None) -> tuple[dict, list[dict]] | None:
        """For ``stats`` over every session (or every session of ``variant``): the kept
        ``stats.running`` totals of every part but the newest, and the newest part's tallies to
        continue them with (two files, however long the history); None when there is one part,
        or the totals are missing or stale."""
        def found():
            parts = self._part_numbers()
            kept = self._stored_totals(parts[:-1], self._main()["files"]) if len(parts) > 1 and not self._dirty \
                else None
            if kept is None:
                return None
            by_variant = kept.get("by_variant") if isinstance(kept.get("by_variant"), dict) else {}
            totals = kept.get("totals") if variant is None else by_variant.get(variant)
            if not isinstance(totals, dict):
                return None
            newest = self._stored_tally(parts[-1])
            groups = newest if newest is not None else self._tally(parts[-1])
            return totals, [group["tally"] for group in groups if variant is None or group["variant"] == variant]

        return self._reading(found)

    def _stored_totals(self, covered: list[int], files: dict) -> dict | None:
        """The kept totals of the parts ``covered`` if their stamp matches ``files`` (the files the
        main file names): for each part its tally's generation and a part's cache stamp
        (``_stamp_fits``); else None."""
        found = self._cache(TOTALS_KEY, "totals")
        if found is None:
            return None
        stamp, totals = found
        parts = stamp.get("parts")
        if not isinstance(parts, dict) or set(parts) != {f"{part:04d}" for part in covered}:
            return None
        for part in covered:
            made = parts[f"{part:04d}"]
            if not isinstance(made, dict) or made.get("tally") != files.get(tally_key(part)) or \
                    not self._stamp_fits(part, made, files):
                return None
        kept = totals.get("1")
        return kept if isinstance(kept, dict) else None

    def all_started_since(self, day: str) -> bool:
        """Whether every live session started on ``day`` or later (--since then chooses them all)."""
        def every() -> bool:
            index = self._index()
            return all(isinstance(index.created[i], str) and index.created[i][:10] >= day for i in index.live())

        return self._reading(every)

    def parts_since(self, day: str) -> list[int]:
        """The parts holding a live session started on ``day`` (``YYYY-MM-DD``) or later, by the
        start the index keeps of each session (as ``listed`` gives it): the rest are not read."""
        def parts() -> list[int]:
            index = self._index()
            return sorted({index.parts[i] for i in index.live()
                           if isinstance(index.created[i], str) and index.created[i][:10] >= day})

        return self._reading(parts)

    def _part_numbers(self) -> list[int]:
        """Every part, from the files the main file names (no list of sessions to read)."""
        named = {int(key[len("facts-"):]) for key in self._main()["files"] if key.startswith("facts-")}
        return sorted(named | set(self._facts_parts) | self._dirty)

    def _tally(self, part: int) -> list[dict]:
        """The tally groups of a part (``tally_groups``)."""
        from .store_summary import grouped

        rows = self._rows(part)
        chosen = []
        for key, doc in self._part(part).items():
            if doc.get("deleted_at"):
                continue  # deleted sessions count in no statistics
            row = rows[key]
            if "unusable" in row:
                raise DatabaseUnusable(self.path, row["unusable"])
            chosen.append(row | {"id": int(key)})
        return grouped(chosen)

    def _stored_tally(self, part: int) -> list[dict] | None:
        """The stored tally groups of a part if its stamp matches the part's facts (and it has them), else None."""
        if part in self._dirty:
            return None
        docs = self._stamped(tally_key(part), part, "tally")
        kept = (docs or {}).get("1") or {}
        return kept.get("groups")

    # writing --------------------------------------------------------------

    def add(self, facts: SessionFacts) -> None:
        """Store a new session and make it current."""
        self._reading(lambda: self._add(facts))

    def _add(self, facts: SessionFacts) -> None:
        self._check_free(facts.name, hint="choose another --name")
        index = self._index()
        part = index.part_for_new()
        session_id = index.append(facts.name, part, facts.created_at)
        self._taken[fold(facts.name)] = facts.name
        self._put(session_id, part, session_to_dict(facts, rows=True))
        self._index_dirty = True
        self._meta.update(current=facts.name, current_session=[session_id, part])
        self._meta_dirty = True

    def save(self, facts: SessionFacts) -> None:
        """Replace a session's stored facts (its hands after hand, undo, edit)."""
        session_id, part = self._reading(lambda: self._locate(facts.name))
        old = self._reading(lambda: self._doc_at(session_id, part))
        self._put(session_id, part, old | session_to_dict(facts, rows=True))  # fields a later ginscore wrote are kept

    def _put(self, session_id: int, part: int, doc: dict) -> None:
        """A session's new facts, and what the index says of it, to be written at the flush
        (the index is read and written only when what it lists changed)."""
        facts = self._part(part)
        old = facts.get(str(session_id))
        facts[str(session_id)] = doc

        def listed(d: dict) -> tuple:
            return d.get("name"), d.get("created_at"), d.get("deleted_at"), d.get("match")

        if old is None or listed(old) != listed(doc):
            index = self._index()
            i = index.position(session_id)
            index.names[i], index.created[i], index.deleted[i], index.matches[i] = listed(doc)
            self._index_dirty = True
        self._changed_part(part, session_id)

    def _check_free(self, name: str, keep: str | None = None, hint: str = "choose another name") -> None:
        """Refuse ``name`` when a live session other than ``keep`` has it: names are unique ignoring case."""
        if self._taken is None:
            self._taken = {fold(n): n for n in self._reading(self._index).live_names()}
        clash = self._taken.get(fold(name))
        if clash is not None and clash != keep:
            raise Refused(f"there is already a session named '{visible(clash)}'; {hint}")

    def rename(self, old: str, new: str) -> None:
        """Give a live session a new name; the current pointer follows it."""
        self._check_free(new, keep=old)
        if self._change(old, {"name": new}):
            self.make_current(new)

    def delete(self, name: str, at: str) -> bool:
        """Mark a live session deleted (nothing is removed); True when it was the current one."""
        current = self._change(name, {"deleted_at": at})
        if current:
            self.make_current(None)
        return current

    def _change(self, name: str, fields: dict) -> bool:
        """Set fields of a live session's stored facts; True when it is the current one."""
        current = self.current_name == name
        session_id, part = self._reading(lambda: self._locate(name))
        self._put(session_id, part, self._doc_at(session_id, part) | fields)
        self._taken = None
        return current

    def restore(self, typed: str, new_name: str | None = None) -> tuple[SessionFacts, list[str]]:
        """Bring back the most recently deleted session named ``typed`` (exact or unique prefix),
        under ``new_name`` if given, and make it current. Its name must be free among live sessions.
        Returns the session and the names of the deleted sessions still named as it was."""
        if not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (`ginscore sessions --deleted` lists them)")
        index = self._reading(self._index)
        gone = [i for i, when in enumerate(index.deleted) if when]
        matches = match_name(sorted({index.names[i] for i in gone if isinstance(index.names[i], str)}), typed)
        if not matches:
            listed = "; `ginscore sessions --deleted` lists them" if gone else "; no session is deleted"
            raise NoSuchSession(f"no deleted session '{visible(typed)}'{listed}")
        if len(matches) > 1:
            raise NoSuchSession(f"'{visible(typed)}' could be {', '.join(map(visible, matches))}; type more of the name")
        same = [i for i in gone if index.names[i] == matches[0]]
        chosen = max(same, key=lambda i: str(index.deleted[i]))
        name, typed_as = new_name or matches[0], visible(as_typed(matches[0]))
        self._check_free(name, hint="choose another --name" if new_name else (
            f"restore this one under another name with `ginscore restore {typed_as} --name NEW`, "
            f"or rename that one first with `ginscore rename --session {typed_as} NEW`"
        ))
        session_id, part = index.ids[chosen], index.parts[chosen]
        doc = {k: v for k, v in self._reading(lambda: self._doc_at(session_id, part)).items() if k != "deleted_at"}
        self._put(session_id, part, dict(doc, name=name))
        self._taken = None
        self.make_current(name)
        return self.load(name), [matches[0] for i in same if i != chosen]

    def _changed_part(self, part: int, session_id: int) -> None:
        self._dirty.add(part)
        self._changed.add(str(session_id))
        self._rows_parts.pop(part, None)

    def remove_leftovers(self) -> None:
        """Files a killed writer left: generations the main file does not name (call under the lock).
        A file of such a name that is a database's main file (another database someone named
        ``ginscore.totals-2025.json`` beside this one) is not a leftover and is kept."""
        for leftover, generation in self.files.leftovers(self._main()["files"]):
            if _a_main_file(leftover):
                self._in_the_way.add(generation)  # this write takes another number
                continue
            try:
                os.unlink(leftover)
            except FileNotFoundError:
                pass

    def flush(self) -> None:
        """Write every change at once: new files first, then the main file that names them."""
        if self._dirty or self._index_dirty or self._meta_dirty:
            self._reading(self._flush)

    def _flush(self) -> None:
        from .store_summary import version

        meta = self._main()
        files = dict(meta["files"])
        write = meta["write"] + 1
        while write in self._in_the_way:
            write += 1
        parts = self._part_numbers()
        stale = self._dirty | self._restamp
        if meta.get("summary_version") != version():
            stale |= set(parts)
        else:  # a cache file gone (removed by hand): made again
            stale |= {p for p in parts for key in (summary_key(p), tally_key(p))
                      if files.get(key) is None or self.files.size(key, files[key]) is None}
        facts = {facts_key(part): _dumps({"sessions": self._part(part)}) for part in sorted(self._dirty)}
        if self._legacy:
            self._keep_old_copy()
        created: list[str] = []

        def create(key: str, data: bytes) -> None:
            self.files.create(key, write, data, self._stat)
            created.append(key)

        try:
            for key, data in facts.items():  # first: the caches' stamps name the facts files as written
                create(key, data)
            tallies: dict[int, list[dict] | None] = {}  # each part's tally groups made by this write

            def caches(part: int) -> None:
                stamp = self._stamp(part, write if facts_key(part) in facts else files[facts_key(part)],
                                    facts.get(facts_key(part)))
                create(summary_key(part), _sealed(stamp, "summaries", self._rows(part)))
                try:
                    tallies[part] = self._tally(part)
                except DatabaseUnusable:  # a session that cannot be read: stats reads the summaries, failing on it
                    tallies[part] = None
                create(tally_key(part), _sealed(stamp, "tally", {"1": {"groups": tallies[part]}}))

            for part in sorted(stale):
                caches(part)
            self._write_totals(parts, files, write, created, facts, tallies, caches, create)
            if self._index_dirty:
                create(INDEX_KEY, _dumps({"index": {"1": self._index().doc()}}))
            self.files.sync_folder()
            old = {key: files[key] for key in created if key in files}
            files.update(dict.fromkeys(created, write))
            meta = dict(meta, schema_version=SCHEMA_VERSION, files=files, write=write, summary_version=version())
            self._written = _dumps({"meta": {"1": meta}})
            atomic.replace(self.files.real, self._written, self._unchanged)
            global _writes
            _writes += 1  # committed: from here on the command has changed the database
        except BaseException as error:
            for key in created:  # named by no main file: nobody reads them
                self.files.remove(key, write)
            if isinstance(error, OSError):
                raise DatabaseUnusable(self.path, f"cannot be written: {error.strerror or error}") from None
            raise
        for key, generation in old.items():
            self.files.remove(key, generation)
            self._parsed.pop(key, None)
        self._meta, self._raw = meta, self._written
        self._dirty, self._changed, self._seen, self._restamp, self._moved = set(), set(), {}, set(), set()
        self._index_dirty = self._meta_dirty = False

    def _write_totals(self, parts: list[int], files: dict, write: int, created: list[str], facts: dict,
                      tallies: dict[int, list[dict] | None], caches, create) -> None:
        """Within ``_flush``: make the totals of every part but the newest again when this write
        changed one of them, or they are missing or stale (a new part, an edit of an old session,
        a file changed by hand); ``tallies``: those this write made. A covered part that cannot
        be read leaves no totals: ``stats`` then reads every tally, failing on it. The caches of
        parts found by their facts' digest (a folder copied with new times) are stamped afresh,
        so that ``stats`` then checks no digest."""
        from .stats import running

        if not parts:
            return
        covered, newest = parts[:-1], parts[-1]
        after = dict(files, **dict.fromkeys(created, write))
        kept = bool(covered) and self._stored_totals(covered, after) is not None
        if newest not in tallies:
            self._stored_tally(newest)  # (notes it when found by its digest)
        for part in sorted(self._moved.difference(tallies)):
            caches(part)  # the same rows and tallies, stamped with the files' new times
        if not covered or kept and not any(part in tallies for part in covered):
            return
        after = dict(files, **dict.fromkeys(created, write))
        for part in covered:
            if part not in tallies:
                stored = self._stored_tally(part)  # a stale one (edited by hand) is made again, and written
                if stored is None:
                    caches(part)
                    after = dict(files, **dict.fromkeys(created, write))
                else:
                    tallies[part] = stored
        if any(tallies[part] is None for part in covered):
            return
        stamp = {"parts": {f"{part:04d}": self._stamp(part, after[facts_key(part)], facts.get(facts_key(part)))
                           | {"tally": after[tally_key(part)]} for part in covered}}
        groups = [group for part in covered for group in tallies[part]]
        by_variant = {variant: running([g["tally"] for g in groups if g["variant"] == variant]) for variant in VARIANTS}
        create(TOTALS_KEY, _sealed(stamp, "totals", {"1": {
            "totals": running([group["tally"] for group in groups]), "by_variant": by_variant}}))

    def _stamp(self, part: int, generation: int, data: bytes | None) -> dict:
        """What a part's cache files say they were made from: this code, and the part's facts file
        (``data`` when this write made it) by generation, size, modification time and digest."""
        from .store_summary import version

        key = facts_key(part)
        if data is None:
            data = self.files.read(key, generation)
        found = self.files.signature(key, generation)
        if found is None:
            raise Gone(self.files.path(key, generation))
        return {"version": version(), "facts": generation, "facts_size": len(data), "facts_mtime_ns": found[1],
                "facts_digest": digest(data)}

    def _keep_old_copy(self) -> None:
        """Before the first write upgrades a schema 1 or 2 file, a copy of it is kept beside it."""
        backup = f"{self.files.real}.schema{self._legacy}.bak"
        try:
            atomic.create_new(backup, self._raw, self._stat)  # an existing copy is kept; a planted link is refused
        except atomic.NotRegular as error:
            raise DatabaseUnusable(self.path, f"needs an upgrade, but {backup} is {error.kind}; move it away") from None
        except OSError as error:
            raise DatabaseUnusable(self.path, f"needs an upgrade, but no copy could be kept at {backup}: {error}") from None

    def _still(self, key: str, generation: int, raw: bytes) -> bool:
        try:
            return self.files.read(key, generation) == raw
        except (Gone, NotOurs, OSError):
            return False

    def _unchanged(self) -> os.stat_result | None:
        """The main file as it is now, if it is still what was read (the commit's last check); else
        exit 1, nothing written: another program changed it between ginscore's read and its write."""
        now, found = _read_main(self.path, self.files.real)
        if now != self._raw or not all(self._still(key, *seen) for key, seen in self._seen.items()):
            raise DatabaseUnusable(
                self.path, "was changed on disk by another program after ginscore read it (a sync client?); "
                "nothing was written: run the command again"
            )
        return found


def _a_main_file(path: str) -> bool:
    """Whether ``path`` holds a ginscore database's main file (its ``meta`` table), which no part,
    cache or index file has, nor what a killed writer left half written."""
    from .store_files import _READ

    try:
        with open(os.open(path, _READ), "rb") as handle:  # never through a link
            data = json.loads(handle.read())
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and "meta" in data


class _DamagedCache(Exception):
    """A cache file that does not read as one (a crash can leave it empty or cut): made again."""


def _missing_file(path, gone: Gone) -> DatabaseUnusable:
    """A file the main file names is not there, and no write is under way to explain it."""
    return DatabaseUnusable(path, f"names a file that is not there ({gone}); restore the folder from a copy")


def damaged(doc: dict, error: Refused) -> str:
    """What is said of a stored session that does not pass the field checks."""
    return (f"has a damaged session {shown_value(doc.get('name'))}: {visible(str(error))}; "
            "it was left as it is, other sessions still work (--session NAME), "
            f"and `ginscore delete {visible(as_typed(str(doc.get('name'))))}` sets it aside")


def _readable(doc: dict) -> bool:
    try:
        session_from_dict(doc, strict=False)
    except Refused:
        return False
    return True


def _companion(name: str, db_name: str) -> bool:
    """A name ginscore uses, or may use, beside the database ``db_name`` (same stem, CLI.md)."""
    stem = os.path.splitext(db_name)[0]
    return name in (db_name, stem) or name.startswith((f"{stem}.", f".{stem}.", f".{db_name}"))


def _same_folder(one: str, other: str) -> bool:
    if one == other:
        return True
    try:
        a, b = os.stat(one), os.stat(other)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _companion_ids(dbs: set[str]) -> set[tuple[int, int]]:
    """(st_dev, st_ino) of the database and every companion beside it: a hard link is the same file."""
    ids = set()
    for db in dbs:
        folder, db_name = os.path.split(db)
        try:
            with os.scandir(folder or ".") as entries:
                for entry in entries:
                    if _companion(entry.name, db_name):
                        found = entry.stat(follow_symlinks=False)
                        ids.add((found.st_dev, found.st_ino))
        except OSError:
            continue
    return ids


class Store:
    """Where the database file is, and the two ways to use it.

    ``path`` is the file as given (``where`` prints it; messages name it); a
    callable is asked for it only when a command needs the file.
    """

    def __init__(self, path: Path | str | Callable[[], Path]):
        self._where = path

    @property
    def path(self) -> Path:
        if callable(self._where):
            self._where = self._where()
        return Path(self._where)

    @property
    def real(self) -> str:
        """The file itself: every symlink on the way followed (a link stays a link)."""
        return os.path.realpath(self.path)

    def owns(self, other: str) -> bool:
        """Is ``other`` the database or one of its files (lock, temporary, backup, any file of the same stem
        beside it), by any path: through links or ``..``, or as a hard link?"""
        mine = {os.path.abspath(self.path), self.real}
        target = os.path.realpath(other)
        folder, name = os.path.split(target)
        for db in mine:
            if _same_folder(os.path.dirname(db), folder) and _companion(name, os.path.basename(db)):
                return True
        try:
            found = os.stat(target)
        except OSError:
            return False
        return (found.st_dev, found.st_ino) in _companion_ids(mine)

    def reading(self) -> Database:
        """Open for reading: no lock; never writes."""
        return Database(self.path, self.real)

    @contextmanager
    def writing(self):
        """Open for one read-modify-write under the lock; written only if the block succeeds."""
        from .lock import LockTimeout, LockUnusable, exclusive  # only commands that write pay for it

        shown = self.path
        with ExitStack() as held:
            try:
                shown.parent.mkdir(parents=True, exist_ok=True)
                real = self.real
                atomic.existing(real)  # a folder, device or FIFO is refused before any lock
                held.enter_context(exclusive(real + ".lock", LOCK_TIMEOUT))
                atomic.remove_leftovers(real)
            except atomic.NotRegular as error:
                raise _not_a_file(shown, error.kind) from None
            except LockTimeout:
                raise DatabaseUnusable(
                    shown, f"is locked by another ginscore command for over {LOCK_TIMEOUT:g} s; try again"
                ) from None
            except LockUnusable as error:
                raise DatabaseUnusable(shown, f"cannot be locked: its lock file {error}; remove it") from None
            except OSError as error:
                raise DatabaseUnusable(shown, f"cannot be locked or reached: {error.strerror or error}") from None
            database = Database(shown, real, writer=True)
            try:
                database.remove_leftovers()
                yield database
                with interrupts.held():  # a Ctrl-C now waits until the write is committed (then exit 0)
                    database.flush()
            except Gone as gone:  # under the lock no writer can be mid-commit: the folder lost a file
                raise _missing_file(shown, gone) from None
