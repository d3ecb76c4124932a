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
over the database and the folder fsynced. A refused command never reaches the
write, so the file stays byte-for-byte as it was. Readers take no lock: the
replace is atomic, so they see the old file or the new one, never half.

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
import shutil
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tinydb import TinyDB
from tinydb.storages import Storage

from .errors import DatabaseUnusable, NoSuchSession, Refused
from .records import hands_to_text, session_from_dict, session_to_dict
from .fields import shown_value
from .shown import visible
from .variants import SessionFacts, fold, match_name

SCHEMA_VERSION = 2
TABLES = ("meta", "sessions")
LOCK_TIMEOUT = 5.0  # seconds a writer waits for another before giving up
A_FOLDER = "is a folder, not a database file; pass --db with a file path"


def _load(path: Path) -> dict:
    """Read and check the file; {} for a file that does not exist yet or is empty."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise DatabaseUnusable(path, A_FOLDER) from None
    except PermissionError:
        raise DatabaseUnusable(path, "cannot be read: permission denied") from None
    except OSError as error:
        raise DatabaseUnusable(path, f"cannot be read: {error.strerror or error}") from None
    if not raw.strip():
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


def _migrate(path: Path, data: dict) -> dict:
    """Bring an older file up to SCHEMA_VERSION, keeping a copy of it first (under the lock)."""
    version = _schema_version(data)
    if not data or version == SCHEMA_VERSION:
        return data
    backup = path.with_name(f"{path.name}.schema{version}.bak")
    if not backup.exists():
        try:
            shutil.copy2(path, backup)
        except OSError as error:
            raise DatabaseUnusable(path, f"needs an upgrade, but no copy could be kept at {backup}: {error}") from None
    for doc in data.get("sessions", {}).values():  # 1 -> 2: hands as one string of rows
        hands = doc.get("hands")
        if isinstance(hands, list) and _readable(doc):  # a damaged session is kept as it is, never "repaired"
            doc["hands"] = hands_to_text(hands)
    for doc in data.get("meta", {}).values():
        doc["schema_version"] = SCHEMA_VERSION
    return data


def _readable(doc: dict) -> bool:
    try:
        session_from_dict(doc, strict=False)
    except Refused:
        return False
    return True


def _replace_atomically(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` so that the file is the old one or the new one, whole."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    temp = path.parent / f".{path.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}"
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise DatabaseUnusable(path, f"cannot be written: {error.strerror or error}") from None


class _CheckedStorage(Storage):
    """TinyDB storage that reads the file once and writes only on ``flush``."""

    def __init__(self, path: Path, migrate: bool = False):
        self.path = path
        self.migrate = migrate  # only a writer, under the lock, upgrades the file
        self._data: dict | None = None
        self.dirty = False

    def read(self) -> dict:
        if self._data is None:
            self._data = _load(self.path)
            if self.migrate and self._data and _schema_version(self._data) != SCHEMA_VERSION:
                self._data = _migrate(self.path, self._data)
                self.dirty = True
        return self._data

    def write(self, data: dict) -> None:
        self._data = data
        self.dirty = True

    def flush(self) -> None:
        if self.dirty:
            _replace_atomically(self.path, self._data)
            self.dirty = False


class Database:
    """The sessions in one file, as facts. Obtained from ``Store``."""

    def __init__(self, path: Path, *, migrate: bool = False):
        self.path = path
        self._db = TinyDB(path, migrate, storage=_CheckedStorage)
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

    def names(self) -> list[str]:
        """Every session's name (a damaged one that is not text cannot be chosen, and fails listings)."""
        return [doc.get("name") for doc in self._all() if isinstance(doc.get("name"), str)]

    def find_name(self, typed: str | None) -> str:
        """The session a command acts on: ``typed`` (exact or unique prefix), else the current one."""
        names = self.names()
        if typed is None:
            current = self.current_name
            if current in names:
                return current
            if not names:
                raise NoSuchSession("there is no session yet; start one, like `ginscore new standard Ann Ben`")
            raise NoSuchSession("no session is current; pick one with `ginscore use NAME` (see `ginscore sessions`)")
        matches = match_name(names, typed)
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NoSuchSession(f"'{typed}' could be {', '.join(matches)}; type more of the name")
        raise NoSuchSession(f"no session '{typed}'; `ginscore sessions` lists them")

    def load(self, typed: str | None = None) -> SessionFacts:
        name = self.find_name(typed)
        doc = next(d for d in self._all() if d.get("name") == name)
        return self._facts(doc)

    def all_facts(self) -> list[SessionFacts]:
        return [self._facts(doc) for doc in self._all()]

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
        taken = {fold(n) for n in self.names()}
        if fold(facts.name) in taken:
            raise Refused(f"there is already a session named '{facts.name}'; choose another --name")
        self._sessions.insert(session_to_dict(facts, rows=True))
        self._docs = None
        self.make_current(facts.name)

    def save(self, facts: SessionFacts) -> None:
        """Replace a session's stored facts (its hands after hand, undo, edit)."""
        doc = session_to_dict(facts, rows=True)
        ids = [d.doc_id for d in self._all() if d.get("name") == facts.name]
        self._sessions.update(doc, doc_ids=ids)
        self._docs = None

    def flush(self) -> None:
        self._db.storage.flush()


class Store:
    """Where the database file is, and the two ways to use it."""

    def __init__(self, path: Path | str):
        self.path = Path(path)

    def reading(self) -> Database:
        """Open for reading: no lock; never writes."""
        return Database(self.path)

    @contextmanager
    def writing(self):
        """Open for one read-modify-write under the lock; written only if the block succeeds."""
        from .lock import LockTimeout, exclusive  # only commands that write pay for it

        with ExitStack() as held:
            try:
                if self.path.is_dir():
                    raise DatabaseUnusable(self.path, A_FOLDER)
                self.path.parent.mkdir(parents=True, exist_ok=True)
                held.enter_context(exclusive(str(self.path) + ".lock", LOCK_TIMEOUT))
            except LockTimeout:
                raise DatabaseUnusable(
                    self.path, f"is locked by another ginscore command for over {LOCK_TIMEOUT:g} s; try again"
                ) from None
            except OSError as error:
                raise DatabaseUnusable(self.path, f"cannot be locked or reached: {error.strerror or error}") from None
            self._remove_leftovers()
            database = Database(self.path, migrate=True)
            yield database
            database.flush()

    def _remove_leftovers(self) -> None:
        """Temporary files of a writer that was killed mid-write (only ever removed under the lock)."""
        for leftover in self.path.parent.glob(f".{self.path.name}.tmp-*"):
            leftover.unlink(missing_ok=True)
