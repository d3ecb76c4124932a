"""The database file: the only module that imports tinydb.

One TinyDB JSON file holds every session (CLI.md). Its tables:

- ``meta``: one document, ``{"schema_version": 2, "current": NAME}``;
- ``sessions``: one document per session, the facts of ``records.session_to_dict``
  (players, variant, house rules, first dealer or roles, hands as told), each
  session's hands one compact string of rows (``records.hands_to_text``;
  schema 2). Schema 1 kept hands as JSON objects; such a file is read as it
  is and migrated on the first write, after a copy is kept beside it.

Writes are all-or-nothing. A command that changes anything runs inside
``Store.writing()``: it takes a lock on ``<file>.lock`` (one writer at a time,
across processes), reads the file once under the lock, lets TinyDB change the
data in memory, and only when the command succeeds writes it back once: a
temporary file in the same folder, flushed and fsynced, then ``os.replace``d
over the database and the folder fsynced (``atomic.replace``). A refused
command never reaches the write, so the file stays byte-for-byte as it was.
Readers take no lock: the replace is atomic, so they see the old file or the
new one, never half.

The path is trusted for nothing (issue 9): a symlink is followed to the real
file, which is the one read, locked (``<real>.lock``, never itself followed)
and replaced, keeping its permission bits; just before the replace the file
is read again, and if another program changed it since ginscore read it, the
write is abandoned (exit 1) rather than overwrite that change.

An unusable file (not JSON, not ginscore's, from a newer ginscore, a folder,
a device, a FIFO, unreadable) raises ``DatabaseUnusable`` and is never rewritten. A session
whose fields do not pass the checks of ``records.session_from_dict`` (an edit
by hand) is damaged: commands on it exit 1 naming it and the field, listings
that read every session do the same rather than leave it out silently, and
other sessions keep working; a write elsewhere keeps it exactly as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tinydb import TinyDB
from tinydb.storages import Storage

from . import atomic, interrupts
from .errors import DatabaseUnusable, NoSuchSession, Refused
from .records import hands_to_text, session_from_dict, session_to_dict
from .fields import shown_value
from .shown import visible
from .summary import as_typed
from .variants import SessionFacts, fold, match_name

SCHEMA_VERSION = 2
TABLES = ("meta", "sessions")
LOCK_TIMEOUT = 5.0  # seconds a writer waits for another before giving up
A_FOLDER = "is a folder, not a database file; pass --db with a file path"


def _not_a_file(path, kind: str) -> DatabaseUnusable:
    if kind == "a folder":
        return DatabaseUnusable(path, A_FOLDER)
    return DatabaseUnusable(path, f"is {kind}, not a database file; it was left as it is, pass --db with a file path")


def _read(real: str, shown) -> tuple[bytes, os.stat_result] | None:
    """The file's bytes and stat, None when there is none yet; only ever a regular file."""
    try:
        return atomic.read(real)
    except atomic.NotRegular as error:
        raise _not_a_file(shown, error.kind) from None
    except IsADirectoryError:
        raise DatabaseUnusable(shown, A_FOLDER) from None
    except PermissionError:
        raise DatabaseUnusable(shown, "cannot be read: permission denied") from None
    except OSError as error:
        raise DatabaseUnusable(shown, f"cannot be read: {error.strerror or error}") from None


def _load(path, raw: bytes | None) -> dict:
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
    not_ours = "is JSON but not a ginscore database; it was left as it is, use --db for another file"
    if not isinstance(data, dict) or any(k not in TABLES for k in data):
        raise DatabaseUnusable(path, not_ours)
    if not data:
        return
    tables = [data.get(name, {}) for name in TABLES]
    if not all(isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in tables):
        raise DatabaseUnusable(path, not_ours)
    if not all(key.isascii() and key.isdigit() for t in tables for key in t):  # TinyDB's document ids
        raise DatabaseUnusable(path, not_ours)
    version = _schema_version(data)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise DatabaseUnusable(path, not_ours)
    if version > SCHEMA_VERSION:
        raise DatabaseUnusable(
            path, f"was written by a newer ginscore (schema {version}, this one knows {SCHEMA_VERSION}); upgrade ginscore"
        )


def _schema_version(data: dict) -> int | None:
    meta = list(data.get("meta", {}).values())
    return meta[0].get("schema_version") if meta else None


def _migrate(real: str, shown, data: dict, raw: bytes, st: os.stat_result) -> dict:
    """Bring an older file up to SCHEMA_VERSION, keeping a copy of it first (under the lock)."""
    version = _schema_version(data)
    if not data or version == SCHEMA_VERSION:
        return data
    backup = f"{real}.schema{version}.bak"
    try:
        atomic.create_new(backup, raw, st)  # an existing copy is kept; a planted link is refused
    except atomic.NotRegular as error:
        raise DatabaseUnusable(shown, f"needs an upgrade, but {backup} is {error.kind}; move it away") from None
    except OSError as error:
        raise DatabaseUnusable(shown, f"needs an upgrade, but no copy could be kept at {backup}: {error}") from None
    for doc in data.get("sessions", {}).values():  # 1 -> 2: hands as one string of rows
        hands = doc.get("hands")
        if isinstance(hands, list) and _readable(doc):  # a damaged session is kept as it is, never "repaired"
            doc["hands"] = hands_to_text(hands)
    for doc in data.get("meta", {}).values():
        doc["schema_version"] = SCHEMA_VERSION
    return data


_writes = 0  # database files this process has replaced


def writes() -> int:
    """How many times this process has replaced a database file.

    The exit point compares it before and after a command: a command that
    changed the database exits 0 whatever happens afterwards (CLI.md).
    """
    return _writes


def _readable(doc: dict) -> bool:
    try:
        session_from_dict(doc, strict=False)
    except Refused:
        return False
    return True


class _CheckedStorage(Storage):
    """TinyDB storage that reads the file once and writes only on ``flush``.

    ``real`` is the file itself (symlinks followed, issue 9), ``shown`` the
    path as the user gave it, for messages. A writer keeps the bytes it read:
    just before replacing the file it reads it again and refuses (exit 1) if
    another program changed it in between.
    """

    def __init__(self, real: str, shown, migrate: bool = False):
        self.real = real
        self.shown = shown
        self.migrate = migrate  # only a writer, under the lock, upgrades the file
        self._data: dict | None = None
        self._read: tuple[bytes, os.stat_result] | None = None
        self.dirty = False

    def read(self) -> dict:
        if self._data is None:
            self._read = _read(self.real, self.shown)
            self._data = _load(self.shown, self._read[0] if self._read else None)
            if self.migrate and self._data and _schema_version(self._data) != SCHEMA_VERSION:
                self._data = _migrate(self.real, self.shown, self._data, *self._read)
                self.dirty = True
        return self._data

    def write(self, data: dict) -> None:
        self._data = data
        self.dirty = True

    def _unchanged(self) -> os.stat_result | None:
        """The file as it is now, if it is still what was read; else exit 1, nothing written."""
        now = _read(self.real, self.shown)
        if (now and now[0]) != (self._read and self._read[0]):
            raise DatabaseUnusable(
                self.shown, "was changed on disk by another program after ginscore read it (a sync client?); "
                "nothing was written: run the command again"
            )
        return now[1] if now else None

    def flush(self) -> None:
        if self.dirty:
            text = json.dumps(self._data, ensure_ascii=False, separators=(",", ":"))
            try:
                atomic.replace(self.real, text.encode("utf-8"), self._unchanged)
            except OSError as error:
                raise DatabaseUnusable(self.shown, f"cannot be written: {error.strerror or error}") from None
            global _writes
            _writes += 1  # the file is replaced: from here on the command has changed the database
            self.dirty = False


class Database:
    """The sessions in one file, as facts. Obtained from ``Store``."""

    def __init__(self, path: Path, real: str, *, migrate: bool = False):
        self.path = path
        self._db = TinyDB(real, path, migrate, storage=_CheckedStorage)
        self._sessions = self._db.table("sessions", cache_size=0)
        self._meta = self._db.table("meta", cache_size=0)
        self._docs: list | None = None  # the sessions, read once per command

    def _all(self) -> list:
        if self._docs is None:
            self._docs = self._sessions.all()
        return self._docs

    # meta -----------------------------------------------------------------

    def _meta_doc(self) -> dict:
        docs = self._meta.all()
        return dict(docs[0]) if docs else {}

    def _set_meta(self, **values) -> None:
        doc = self._meta_doc()
        doc.update(values, schema_version=SCHEMA_VERSION)
        self._meta.truncate()
        self._meta.insert(doc)

    @property
    def current_name(self) -> str | None:
        return self._meta_doc().get("current")

    def make_current(self, name: str) -> None:
        self._set_meta(current=name)

    # sessions -------------------------------------------------------------

    def _live(self) -> list:
        """Sessions not deleted: the only ones commands, statistics and history see."""
        return [d for d in self._all() if not d.get("deleted_at")]

    def names(self, *, include_deleted: bool = False) -> list[str]:
        """Live session names (``include_deleted``: also the names deleted sessions keep)."""
        return [doc.get("name") for doc in (self._all() if include_deleted else self._live())
                if isinstance(doc.get("name"), str)]

    def find_name(self, typed: str | None) -> str:
        """The session a command acts on: ``typed`` (exact or unique prefix), else the current one."""
        names = self.names()
        if typed is not None and not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (`ginscore sessions` lists them)")
        if typed is None:
            current = self.current_name
            if current in names:
                return current
            if not names and self._all():
                raise NoSuchSession(
                    "no session is current: every session is deleted; `ginscore restore NAME` brings one back "
                    "(see `ginscore sessions --deleted`), or start one with `ginscore new`"
                )
            if not names:
                raise NoSuchSession("there is no session yet; start one, like `ginscore new standard Ann Ben`")
            raise NoSuchSession("no session is current; pick one with `ginscore use NAME` (see `ginscore sessions`)")
        matches = match_name(names, typed)
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NoSuchSession(f"'{visible(typed)}' could be {', '.join(map(visible, matches))}; type more of the name")
        gone = match_name(sorted(set(self.names(include_deleted=True)) - set(names)), typed)
        if len(gone) == 1:
            raise NoSuchSession(
                f"session '{visible(gone[0])}' is deleted; `ginscore restore {visible(as_typed(gone[0]))}` brings it back"
            )
        raise NoSuchSession(f"no session '{visible(typed)}'; `ginscore sessions` lists them")

    def load(self, typed: str | None = None) -> SessionFacts:
        name = self.find_name(typed)
        return self._facts(self._all()[self._live_index(name)])

    def all_facts(self) -> list[SessionFacts]:
        """Every live session; deleted ones count in no statistics, history or list."""
        return [self._facts(doc) for doc in self._live()]

    def deleted(self) -> list[tuple[SessionFacts, str]]:
        """Deleted sessions with when they were deleted, the most recently deleted first."""
        docs = sorted((d for d in self._all() if d.get("deleted_at")), key=lambda d: str(d["deleted_at"]), reverse=True)
        return [(self._facts(doc), str(doc["deleted_at"])) for doc in docs]

    def _facts(self, doc: dict) -> SessionFacts:
        """A stored session, read through every field check; a damaged one names itself and its field.

        Only commands that read this session fail (exit 1); others keep working.
        Listings (``sessions``, ``history``, ``stats``) read every session and so
        fail on a damaged one, naming it, rather than leave it out silently.
        """
        try:
            return session_from_dict(doc, strict=False)
        except Refused as error:
            raise DatabaseUnusable(
                self.path, f"has a damaged session {shown_value(doc.get('name'))}: {visible(str(error))}; "
                "it was left as it is, other sessions still work (--session NAME)"
            ) from None

    def add(self, facts: SessionFacts) -> None:
        """Store a new session and make it current."""
        self._check_free(facts.name, hint="choose another --name")
        self._sessions.insert(session_to_dict(facts, rows=True))
        self._docs = None
        self.make_current(facts.name)

    def save(self, facts: SessionFacts) -> None:
        """Replace a session's stored facts (its hands after hand, undo, edit)."""
        doc = session_to_dict(facts, rows=True)
        self._sessions.update(doc, doc_ids=[self._live_id(facts.name)])
        self._docs = None

    def _live_index(self, name: str) -> int:
        return next(i for i, d in enumerate(self._all()) if d.get("name") == name and not d.get("deleted_at"))

    def _live_id(self, name: str) -> int:
        return self._all()[self._live_index(name)].doc_id

    def _check_free(self, name: str, keep: str | None = None, hint: str = "choose another name") -> None:
        """Refuse ``name`` when a live session other than ``keep`` has it: names are unique ignoring case."""
        clash = [n for n in self.names() if fold(n) == fold(name) and n != keep]
        if clash:
            raise Refused(f"there is already a session named '{visible(clash[0])}'; {hint}")

    def rename(self, old: str, new: str) -> None:
        """Give a live session a new name; the current pointer follows it."""
        self._check_free(new, keep=old)
        current = self.current_name == old
        self._sessions.update({"name": new}, doc_ids=[self._live_id(old)])
        self._docs = None
        if current:
            self.make_current(new)

    def delete(self, name: str, at: str) -> bool:
        """Mark a live session deleted (nothing is removed); True when it was the current one."""
        current = self.current_name == name
        self._sessions.update({"deleted_at": at}, doc_ids=[self._live_id(name)])
        self._docs = None
        if current:
            self._set_meta(current=None)
        return current

    def restore(self, typed: str, new_name: str | None = None) -> tuple[SessionFacts, list[str]]:
        """Bring back the most recently deleted session named ``typed`` (exact or unique prefix),
        under ``new_name`` if given, and make it current. Its name must be free among live sessions.
        Returns the session and the names of the deleted sessions still named as it was."""
        from tinydb.operations import delete

        if not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (`ginscore sessions --deleted` lists them)")
        gone = [d for d in self._all() if d.get("deleted_at")]
        matches = match_name(sorted({d.get("name", "") for d in gone}), typed)
        if not matches:
            listed = "; `ginscore sessions --deleted` lists them" if gone else "; no session is deleted"
            raise NoSuchSession(f"no deleted session '{visible(typed)}'{listed}")
        if len(matches) > 1:
            raise NoSuchSession(f"'{visible(typed)}' could be {', '.join(map(visible, matches))}; type more of the name")
        doc = max((d for d in gone if d.get("name") == matches[0]), key=lambda d: str(d["deleted_at"]))
        name, typed_as = new_name or matches[0], visible(as_typed(matches[0]))
        self._check_free(name, hint="choose another --name" if new_name else (
            f"restore this one under another name with `ginscore restore {typed_as} --name NEW`, "
            f"or rename that one first with `ginscore rename --session {typed_as} NEW`"
        ))
        self._sessions.update(delete("deleted_at"), doc_ids=[doc.doc_id])
        if new_name is not None:
            self._sessions.update({"name": new_name}, doc_ids=[doc.doc_id])
        self._docs = None
        self.make_current(name)
        return self.load(name), [matches[0] for d in gone if d is not doc and d.get("name") == matches[0]]

    def flush(self) -> None:
        self._db.storage.flush()


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
            database = Database(shown, real, migrate=True)
            yield database
            with interrupts.held():  # a Ctrl-C now waits until the file is replaced (then exit 0)
                database.flush()
