"""The sessions of one database file, found, read and changed through TinyDB's tables (``sessions``,
one document a session, and ``meta``: docs/storage.md). A session edited by hand into something that
cannot be read is damaged: commands on it exit 1 naming it, the others keep working.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from tinydb import TinyDB
from tinydb.table import Document

from ginscore.codec import validate
from ginscore.codec.facts import derived_session_id, new_session_id, session_from_dict, session_to_dict
from ginscore.core.errors import Command, DatabaseUnusable, NoSuchSession, Refused
from ginscore.core.escape import visible
from ginscore.core.session import SessionFacts
from ginscore.core.names import fold, match_name
from ginscore.core.reports import as_typed
from ginscore.core.times import time_order
from ginscore.db.damage import damaged, replayed
from ginscore.db.indexed import IndexMiddleware
from ginscore.db.storage import FOREIGN, SCHEMA_VERSION, FileStorage


def _text_field(doc: dict, key: str = "name") -> str | None:
    """A stored session's field that should be text (None when it is not: edited by hand)."""
    found = doc.get(key)
    return found if isinstance(found, str) else None


def session_id_of(doc: dict) -> str:
    """A stored session's id: its own, else the one made from what never changes in it."""
    found = doc.get("id")
    return found if isinstance(found, str) else derived_session_id(doc)


def two_with_one_id(path, session_id: str) -> DatabaseUnusable:
    """A file holding two sessions of one id (an edit by hand): which one a command means cannot be told."""
    return DatabaseUnusable(path, f"holds two sessions with one id ({visible(session_id)}); give one of them "
                                  "another id where it was edited, or use a copy from before")


def several_sessions(typed: str, matches: list[str]) -> NoSuchSession:
    """A name typed that begins the names of several sessions."""
    quoted = [f"'{visible(name)}'" for name in matches]  # each quoted: a name may hold a comma, or " or "
    listed = f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return NoSuchSession(f"'{visible(typed)}' could be {listed}; type more of the name")


class Database:
    """The sessions of one database file, as facts (from ``store.Store``): changed through TinyDB's
    tables, listed by the storage's ``entries``."""

    def __init__(self, path: Path, real: str, *, writer: bool = False, index_cache=None):
        self.path = path
        self.real = real
        tiny = TinyDB(real, storage=IndexMiddleware(FileStorage), shown=path, writer=writer, index_cache=index_cache)
        # What TinyDB reads and writes through: the index middleware. What it does not have (``writer``,
        # ``dirty``, ``foreign``, ``file_digest``) TinyDB's Middleware passes on to the FileStorage below it.
        self.storage: IndexMiddleware = tiny.storage
        self._sessions = tiny.table("sessions", cache_size=0)
        self._meta_table = tiny.table("meta", cache_size=0)
        self._entries: list[tuple[int, dict]] | None = None
        self._not_deleted: list[tuple[int, dict]] | None = None
        self._taken: dict[str, str] | None = None  # live names as ``fold`` compares them
        # In ``changing_many``: the documents added and replaced there, by number, not yet in the table.
        self._added: dict[int, dict] | None = None
        self._replaced: dict[int, dict] = {}

    # reading --------------------------------------------------------------

    def entries(self) -> list[tuple[int, dict]]:
        """Every stored session (deleted ones too) as (document id, document), in the order added:
        with the file's index, its outline (``whole`` reads the rest)."""
        if self._entries is None:
            if self._added is not None:
                self._store_held()
            self._entries = self.storage.entries()
        return self._entries

    def whole(self, doc: dict) -> dict:
        """A stored session's whole document; ``doc`` is one that ``entries`` gave (perhaps an outline)."""
        return self.storage.whole(doc)

    def refuse_if_not_ours(self) -> None:
        """A file that is not empty but holds no table (`{}`: maybe another program's settings) is never
        made a database, nor read as one with no sessions (a script would take it for one): named (exit 1)."""
        if not self.entries() and self.storage.foreign:
            raise DatabaseUnusable(self.path, FOREIGN)

    def not_deleted(self) -> list[tuple[int, dict]]:
        """Every session not deleted, as (document id, document or outline), in the order added."""
        if self._not_deleted is None:
            live = [(n, doc) for n, doc in self.entries() if not doc.get("deleted_at")]
            names = [name for _, doc in live if (name := _text_field(doc)) is not None]
            if len(set(names)) < len(names):  # (a session copied in an editor): which one is meant cannot be told
                twice = next(name for name in names if names.count(name) > 1)
                raise DatabaseUnusable(self.path, f"holds two sessions named '{visible(twice)}'; give one of them "
                                                  "another name where it was edited, or use a copy from before")
            self._not_deleted = live
        return self._not_deleted

    def _not_deleted_named(self, name: str) -> tuple[int, dict]:
        """The live session called exactly ``name`` (for a writer, its outline checked against it)."""
        found = next(((n, doc) for n, doc in self.not_deleted() if doc.get("name") == name), None)
        if found is None:
            raise NoSuchSession(f"no session '{visible(name)}'; ", Command("sessions"), " lists them")
        if self.storage.writer:
            self.whole(found[1])
        return found

    def _with_id(self, session_id: str) -> tuple[int, dict] | None:
        """The stored session (or its outline) of that id; refused for a file holding two of it."""
        found = [(n, doc) for n, doc in self.entries() if doc.get("id") == session_id]
        if len(found) > 1:
            raise two_with_one_id(self.path, session_id)
        return found[0] if found else None

    @property
    def current_name(self) -> str | None:
        """The current session's name (None: none, or the one meta names is deleted or not here)."""
        wanted = self.storage.meta().get("current")
        found = None if wanted is None else self._with_id(wanted)
        if found is None or found[1].get("deleted_at"):
            return None
        name = _text_field(found[1])
        if name is None or not name.strip():
            self.facts_of(found[1])  # a name no command can take: the damage is said (exit 1), not "none current"
        return name or None

    def names(self, *, include_deleted: bool = False) -> list[str]:
        """Live session names (``include_deleted``: also the names deleted sessions keep)."""
        chosen = self.entries() if include_deleted else self.not_deleted()
        return [name for _, doc in chosen if (name := _text_field(doc)) is not None]

    def deleted_names(self) -> list[str]:
        """The names deleted sessions keep, each once: what `restore` takes."""
        return list(dict.fromkeys(name for _, doc in self.entries()
                                  if doc.get("deleted_at") and (name := _text_field(doc)) is not None))

    def find_name(self, typed: str | None) -> str:
        """The session a command acts on: ``typed`` (exact or unique prefix), else the current one.

        An exact name (ignoring case, accents and width) beats a prefix among live
        sessions; the exact name of a deleted session (with no live one) is
        "deleted", never a prefix of another session."""
        if typed is not None and not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (", Command("sessions"), " lists them)")
        if typed is None:
            current = self.current_name
            if current is not None:
                return current
            if not self.not_deleted() and self.entries():
                raise NoSuchSession(
                    "no session is current: every session is deleted; ", Command("restore", "NAME"),
                    " brings one back (see ", Command("sessions", "--deleted"), "), or start one with ", Command("new"))
            if not self.entries():
                self.refuse_if_not_ours()
                raise NoSuchSession("there is no session yet; start one, like ", Command("new", "standard", "Ann", "Ben"))
            raise NoSuchSession("no session is current; pick one with ", Command("use", "NAME"),
                                " (see ", Command("sessions"), ")")
        live = self.names()
        gone = sorted(set(self.names(include_deleted=True)) - set(live))
        wanted = fold(typed)
        matches = match_name(live, typed)
        exact = [n for n in matches if fold(n) == wanted] or [n for n in gone if fold(n) == wanted]
        if not exact and not matches:
            exact = match_name(gone, typed)[:2]
        if len(exact) == 1 and exact[0] in gone:
            raise NoSuchSession(f"session '{visible(exact[0])}' is deleted; ", Command("restore", as_typed(exact[0])),
                                " brings it back")
        if exact and exact[0] in live:
            return exact[0]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise several_sessions(typed, matches)
        raise NoSuchSession(f"no session '{visible(typed)}'; ", Command("sessions"), " lists them")

    def facts_of(self, doc: dict) -> SessionFacts:
        """A stored session, read through every field check; a damaged one names itself and its
        field (exit 1), so a listing fails on it rather than leave it out silently."""
        doc = self.whole(doc)
        try:
            facts = session_from_dict(doc, strict=False)
        except Refused as error:
            raise DatabaseUnusable(self.path, *damaged(doc, error)) from None
        return facts if facts.id is not None else facts._replace(id=session_id_of(doc))

    def load(self, typed: str | None = None) -> SessionFacts:
        return self.facts_of(self._not_deleted_named(self.find_name(typed))[1])

    def deleted(self) -> list[tuple[SessionFacts, str]]:
        """Deleted sessions with when they were deleted, the most recently deleted first."""
        gone = [(self.facts_of(doc), doc["deleted_at"]) for _, doc in self.entries() if doc.get("deleted_at")]
        in_time = time_order(when for _, when in gone)
        return sorted(gone, key=lambda pair: in_time(pair[1]), reverse=True)

    def in_match(self, match: str) -> list[SessionFacts]:
        """The live sessions of a match (linked by `rematch`), in the order they were started: a file
        may have been given them in another order (a rematch's export imported before its game's)."""
        games = [self.facts_of(doc) for _, doc in self.not_deleted() if doc.get("match") == match]
        started = time_order(game.created_at for game in games)
        return sorted(games, key=lambda game: started(game.created_at))

    def deleted_count(self) -> int:
        return sum(1 for _, doc in self.entries() if doc.get("deleted_at"))

    def listed(self) -> list[tuple[int, str, str | None]]:
        """Every live session as (document number, name, started), in the order added, without reading its facts."""
        return [(n, _text_field(doc) or "", _text_field(doc, "created_at"))
                for n, doc in self.not_deleted()]

    def by_id(self) -> dict[str, tuple[int, dict]]:
        """Every stored session (deleted ones too, each whole) by its session id."""
        found = {}
        for n, doc in self.entries():
            doc = self.whole(doc)
            session_id = session_id_of(doc)
            if session_id in found:
                raise two_with_one_id(self.path, session_id)
            found[session_id] = (n, doc)
        return found

    def matched(self, ids: list[int]) -> list[tuple[str | None, str]]:
        """Each of these live sessions' match id (None for none) and name, without reading their facts."""
        outlines = dict(self.not_deleted())
        return [(_text_field(outlines[n], "match"), _text_field(outlines[n]) or "") for n in ids]

    # writing --------------------------------------------------------------

    def taken(self, name: str) -> str | None:
        """The live session's name that ``name`` is, as names compare (ignoring case, accents, width)."""
        if self._taken is None:
            self._taken = {fold(n): n for n in self.names()}
        return self._taken.get(fold(name))

    def _check_free(self, name: str, keep: str | None = None, hint: tuple = ("choose another name",)) -> None:
        """Refuse ``name`` when a live session other than ``keep`` has it: names are unique ignoring case."""
        clash = self.taken(name)
        if clash is not None and clash != keep:
            raise Refused(f"there is already a session named '{visible(clash)}'; ", *hint)

    def _set_current(self, session_id: str | None) -> None:
        """Point ``current`` at a session (fields a later ginscore wrote beside it are kept)."""
        self._meta_table.upsert(Document({"schema_version": SCHEMA_VERSION, "current": session_id}, doc_id=1))

    def make_current(self, name: str | None) -> None:
        session_id = None if name is None else self._not_deleted_named(name)[1].get("id")
        if session_id is not None:
            self._with_id(session_id)  # refuses a file holding two sessions of this id (exit 1)
        self._set_current(session_id)

    def add(self, facts: SessionFacts) -> SessionFacts:
        """Store a new session (a fresh id unless it has one) and make it current; returns it as stored."""
        self._check_free(facts.name, hint=("choose another --name",))
        if facts.id is None:
            facts = facts._replace(id=new_session_id())
        self.insert(session_to_dict(facts, rows=True))
        self._set_current(facts.id)
        return facts

    def insert(self, doc: dict) -> int:
        """Store a session's document as it is (``merge``: one from another database); its document id."""
        if self._added is None:
            found = self._sessions.insert(doc)
        else:  # the number TinyDB gives: one past the highest (ginscore never removes a document)
            found = (next(reversed(self._added)) if self._added else max((n for n, _ in self.entries()), default=0)) + 1
            self._added[found] = dict(doc)
        self._not_deleted = None
        if self._entries is not None:
            self._entries.append((found, dict(doc)))  # (what TinyDB stores: a copy)
        if self._taken is not None and not doc.get("deleted_at") and _text_field(doc) is not None:
            self._taken[fold(doc["name"])] = doc["name"]
        return found

    def replace(self, doc_id: int, doc: dict) -> None:
        """Make a stored session's document exactly ``doc``."""
        self._replaced[doc_id] = dict(doc)
        if self._added is None:  # (in ``changing_many``, held until its end)
            self._store_held()
        self._entries = self._taken = self._not_deleted = None

    @contextmanager
    def changing_many(self):
        """Sessions added and replaced in this block go into the table together, at its end or when the
        sessions are listed again: TinyDB goes over its whole table at each change, so one at a time a
        large merge would slow with the square of the sessions it changes."""
        self._added = {}
        try:
            yield
            self._store_held()
        finally:
            self._added, self._replaced = None, {}

    def _store_held(self) -> None:
        """The documents ``changing_many`` holds, into TinyDB's table: one pass for the added, one for the replaced."""
        if self._added:
            self._sessions.insert_multiple(Document(doc, doc_id=n) for n, doc in self._added.items())
            self._added.clear()
        if self._replaced:
            # a session a lazy writer has not parsed is parsed first; bytes holding no session mean a forged index
            if not all(isinstance(self.storage.session(str(n)), dict) for n in self._replaced):
                self.storage.read_whole()
            docs = iter(self._replaced.values())  # TinyDB changes them in the order their numbers are given

            def put(stored: dict) -> None:
                stored.clear()
                stored.update(next(docs))

            self._sessions.update(put, doc_ids=list(self._replaced))
            self._replaced.clear()

    def _change(self, name: str, fields) -> None:
        """Change fields of a live session's document; fields a later ginscore wrote are kept."""
        doc_id, doc = self._not_deleted_named(name)
        changed = fields(doc) if callable(fields) else fields
        self.replace(doc_id, dict(self.whole(doc)) | changed)

    def save(self, facts: SessionFacts) -> None:
        """Replace a session's stored facts (its hands after hand, undo, edit, house)."""
        self._change(facts.name, lambda old: session_to_dict(facts._replace(id=old.get("id", facts.id)), rows=True))

    def rename(self, old: str, new: str) -> None:
        """Give a live session a new name; the current pointer follows it (it keeps the id)."""
        self._check_free(new, keep=old)
        self._change(old, {"name": new})

    def delete(self, name: str, at: str) -> bool:
        """Mark a live session deleted (nothing is removed); True when it was the current one."""
        current = self.current_name == name
        self._change(name, {"deleted_at": at})
        if current:
            self._set_current(None)
        return current

    def restore(self, typed: str, new_name: str | None = None) -> tuple[SessionFacts, list[str]]:
        """Bring back the most recently deleted session named ``typed`` (exact or unique prefix),
        under ``new_name`` if given, and make it current. Its name must be free among live sessions.
        Returns the session and the names of the deleted sessions still named as it was."""
        if not typed.strip():
            raise NoSuchSession("the session name is empty; give a name (", Command("sessions", "--deleted"),
                                " lists them)")
        gone = [(n, doc) for n, doc in self.entries() if doc.get("deleted_at") and _text_field(doc) is not None]
        matches = match_name(sorted({_text_field(doc) for _, doc in gone}), typed)
        if not matches:
            if self.taken(typed) is not None:
                raise NoSuchSession(f"session '{visible(typed)}' is not deleted, so there is nothing to restore")
            listed = ("; ", Command("sessions", "--deleted"), " lists them") if gone else ("; no session is deleted",)
            raise NoSuchSession(f"no deleted session '{visible(typed)}'", *listed)
        if len(matches) > 1:
            raise several_sessions(typed, matches)
        same = [(n, doc) for n, doc in gone if doc["name"] == matches[0]]
        for _, doc in same:  # which was deleted last cannot be told past a damaged time: it is named (exit 1)
            try:
                validate.timestamp(doc["deleted_at"], "session", "deleted_at")
            except Refused:
                self.facts_of(doc)
        in_time = time_order(doc["deleted_at"] for _, doc in same)
        doc_id, doc = max(same, key=lambda pair: in_time(pair[1]["deleted_at"]))
        name, typed_as = new_name or matches[0], as_typed(matches[0])
        self._check_free(name, hint=("choose another --name",) if new_name else (
            "restore this one under another name with ", Command("restore", typed_as, "--name", "NEW"),
            ", or rename that one first with ", Command("rename", "--session", typed_as, "NEW")))
        doc = self.whole(doc)
        _, why = replayed(doc, aside="it stays deleted; mend it in the file (a JSON editor, TinyDB) "
                                     "and restore it then")
        if why is not None:  # a damaged session stays deleted: back, it would stop every list again
            raise DatabaseUnusable(self.path, *why)
        self.replace(doc_id, {k: v for k, v in doc.items() if k != "deleted_at"} | {"name": name})
        self.make_current(name)
        return self.load(name), [matches[0] for n, _ in same if n != doc_id]

    def flush(self) -> bool:
        """Write every change at once (a writer, under the lock); False when nothing changed."""
        return self.storage.commit()
