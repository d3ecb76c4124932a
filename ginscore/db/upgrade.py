"""Databases of older layouts (1.x and 2.x: schemas 1-3; 3.x: schema 4, whose hands do not keep who
dealt them, H8), read as today's tables and upgraded on their first write, which keeps a copy of
every old file first (docs/storage.md, "Older layouts").
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress

from ginscore.db import atomic
from ginscore.db.companions import BACKUP_SUFFIX, DEALT_BACKUP_SUFFIX
from ginscore.db.layout import document
from ginscore.core.errors import DatabaseUnusable, GinscoreError
from ginscore.codec.facts import derived_session_id, hands_to_text, session_from_dict, session_to_dict

UPGRADED_MEANWHILE = ("was upgraded by another ginscore command while this one read it; nothing was changed: "
                      "run the command again")


class Old:
    """What was read of an old layout: its files' bytes, and the tables they make today."""

    def __init__(self, shown, real: str, raw: bytes, stat_result: os.stat_result | None, folder: str):
        self.shown = shown
        self.real = real
        self.files: dict[str, bytes] = {}  # the other files of the layout (schema 3), path -> bytes as read
        self.main = raw
        self.like = stat_result
        self.tables: dict = {}
        self.folder = folder  # where the copy of the old files is kept

    def _read(self, path: str) -> bytes:
        """A file the old main file names, never through a link."""
        try:
            data = atomic.read_unlinked(path)
        except FileNotFoundError:
            if not _holds(self.real, self.main):  # upgraded by another command meanwhile: nothing is missing
                raise DatabaseUnusable(self.shown, UPGRADED_MEANWHILE) from None
            raise DatabaseUnusable(self.shown, f"names a file that is not there ({path}); restore the folder from a copy") from None
        except atomic.NotRegular:
            raise DatabaseUnusable(self.shown, f"names {path}, which is not a regular file; move it away") from None
        except OSError as error:  # (a disk's error comes on reading too, not only on opening)
            raise DatabaseUnusable(self.shown, f"cannot read {path}: {error.strerror or error}; move it away") from None
        self.files[path] = data
        return data

    def keep_copy(self) -> None:
        """Before the first write of the new layout: a copy of every old file, in one folder."""
        folder = self.folder
        try:
            with atomic.owners_bits_kept():
                os.mkdir(folder, 0o700)
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                raise DatabaseUnusable(self.shown, f"needs an upgrade, but {folder} is in the way; move it away") from None
        except OSError as error:
            raise DatabaseUnusable(self.shown, f"needs an upgrade, but {folder} could not be made: {error.strerror or error}") from None
        for path, data in [(self.real, self.main), *self.files.items()]:
            copy = os.path.join(folder, os.path.basename(path))
            try:
                self._copy(copy, data)
            except atomic.NotRegular as error:
                raise DatabaseUnusable(self.shown, f"needs an upgrade, but {copy} is {error.kind}; move it away") from None
            except OSError as error:
                raise DatabaseUnusable(self.shown, f"needs an upgrade, but no copy could be kept at {copy}: {error}") from None
        atomic.fsync_folder(folder)

    def record_dealers(self, tables: dict) -> None:
        """Before the first write: every hand kept before hands kept who dealt them is given the
        dealer (or the three-player roles) its session's rules gave it, once (H8). A session that
        cannot be read is left as it is, for the commands that read it to name."""
        for doc in tables.get("sessions", {}).values():
            if isinstance(doc, dict) and isinstance(doc.get("hands"), str):
                with suppress(GinscoreError, TypeError, ValueError, KeyError, AttributeError):
                    doc["hands"] = session_to_dict(session_from_dict(doc, strict=False), rows=True)["hands"]

    def _copy(self, copy: str, data: bytes) -> None:
        """One file's copy, whole or not at all: written beside it first (``.part``), then linked in
        under its name, never over another file. A copy an earlier try cut short (a kill) is made whole."""
        part = copy + ".part"
        if os.path.lexists(part):  # an earlier try's, cut short: ours to remove (never a link followed)
            os.unlink(part)
        try:
            made = atomic.create_new(part, data, self.like)
        except atomic.NotRegular as error:  # (planted since: the part is named, not the copy)
            raise DatabaseUnusable(self.shown, f"needs an upgrade, but {part} is {error.kind}; move it away") from None
        if not made:  # made by another program since: not ours to use
            raise DatabaseUnusable(self.shown, f"needs an upgrade, but {part} was just made by another program; try again")
        try:
            if _link_or_move_if_free(part, copy):
                return
            kind = atomic.kind_of(os.lstat(copy).st_mode)  # (a link is never read through)
            if kind is not None:
                raise atomic.NotRegular(kind)
            found = atomic.read_unlinked(copy)  # a copy an earlier try made
            if not data.startswith(found):
                raise DatabaseUnusable(self.shown, f"needs an upgrade, but {copy} holds something else; move it away")
            if found != data:  # cut short by a kill during an older ginscore's copy: made whole
                os.replace(part, copy)
        finally:
            if os.path.lexists(part):
                os.unlink(part)

    def unchanged(self) -> bool:
        """Whether every other file of the old layout still holds what was read."""
        return all(_holds(path, data) for path, data in self.files.items())

    def put_away(self) -> None:
        """After the commit: each old file beside the database goes into the backup folder, onto
        its copy (the same bytes). One that cannot be moved stays where it is; nothing reads it."""
        folder = self.folder
        for path in self.files:
            with suppress(OSError):
                os.replace(path, os.path.join(folder, os.path.basename(path)))
        atomic.fsync_folder(os.path.dirname(self.real))


def _holds(path: str, data: bytes) -> bool:
    try:
        return atomic.read_unlinked(path) == data
    except (OSError, atomic.NotRegular):
        return False


def _link_or_move_if_free(part: str, copy: str) -> bool:
    """``part`` also under the name ``copy``, unless a file is there already (False)."""
    try:
        os.link(part, copy, follow_symlinks=False)
    except FileExistsError:
        return False
    except OSError:  # no hard links on this filesystem: moved instead, unless a file is there
        if os.path.lexists(copy):
            return False
        os.rename(part, copy)
    return True


def _tables(docs: list[tuple[str, dict]], current_name) -> dict:
    """Today's tables of these sessions, each given an id: its own, else the one made from what
    never changes in it."""
    seen: set[str] = set()
    for at, (_, doc) in enumerate(docs):
        if "id" not in doc:
            made = derived_session_id(doc)
            if made in seen:  # two old sessions alike in every fixed field: told apart by their place
                made = derived_session_id(doc, str(at))
            doc["id"] = made
        if isinstance(doc.get("id"), str):
            seen.add(doc["id"])
    current = None
    if isinstance(current_name, str):
        current = next((doc["id"] for _, doc in docs
                        if doc.get("name") == current_name and not doc.get("deleted_at")), None)
    return {"meta": {"1": {"current": current}}, "sessions": dict(docs)}


def read(shown, real: str, raw: bytes, found: os.stat_result | None, data: dict, version: int) -> Old:
    """An old layout (``raw``: its main file as read, ``data`` parsed) as today's tables, to be stamped."""
    # Schema 4 is today's layout, but its hands do not yet keep who dealt them: `record_dealers`.
    old = Old(shown, real, raw, found, real + (DEALT_BACKUP_SUFFIX if version == 4 else BACKUP_SUFFIX))
    old.tables = data if version == 4 else _read_older(old, data, version)
    return old


def _read_older(old: Old, data: dict, version: int) -> dict:
    """The tables of a database of ginscore 1.x or 2.x."""
    meta = next(iter(data.get("meta", {}).values()), {})  # (checked a dict by storage.check_shape)
    if version < 3:
        docs = []
        for key, doc in data.get("sessions", {}).items():
            hands = doc.get("hands")
            if isinstance(hands, list) and all(isinstance(h, dict) for h in hands):  # schema 1: hands as objects
                # what cannot be is left as it is: the field checks name what is wrong when it is read
                with suppress(TypeError, ValueError, KeyError, AttributeError):
                    doc["hands"] = hands_to_text(hands)
            docs.append((key, doc))
        return _tables(docs, meta.get("current"))
    files = meta.get("files")
    listed = isinstance(files, dict) and all(isinstance(k, str) and type(g) is int for k, g in files.items())
    # Sessions are found through the index: facts parts without one would read as no sessions at all.
    if not listed or ("index" not in files and any(k.startswith("facts-") for k in files)):
        raise DatabaseUnusable(old.shown, "is a ginscore 2 database whose main file is damaged; it was left as it is")
    folder, name = os.path.split(old.real)
    base = name.removesuffix(".json")
    paths = {key: os.path.join(folder, f"{base}.{key}-{number}.json") for key, number in files.items()}

    def table(key: str, table_name: str) -> dict:
        raw_part = old._read(paths[key])
        found_table = (document(raw_part) or {}).get(table_name)
        if not isinstance(found_table, dict) or not all(isinstance(d, dict) for d in found_table.values()):
            raise DatabaseUnusable(old.shown, f"has a damaged file {paths[key]}; it was left as it is")
        return found_table

    for key, cache in sorted(paths.items()):
        if not key.startswith("facts-") and key != "index" and os.path.lexists(cache):
            old._read(cache)  # a cache: only kept in the copy (one gone is not needed)
    index = next(iter(table("index", "index").values()), {}) if "index" in files else {}
    ids, parts = index.get("ids", []), index.get("parts", [])
    if not (isinstance(ids, list) and isinstance(parts, list) and len(ids) == len(parts)):
        raise DatabaseUnusable(old.shown, "has a damaged index beside it; it was left as it is")
    facts: dict[str, dict] = {}
    for key in sorted(k for k in files if k.startswith("facts-")):
        facts.update(table(key, "sessions"))
    docs = []
    for number, session_id in enumerate(ids, start=1):
        doc = facts.get(str(session_id))
        if doc is None:
            raise DatabaseUnusable(old.shown,
                                   f"lists a session that is not in its part (facts-{parts[number - 1]:04d})")
        docs.append((str(number), doc))
    return _tables(docs, meta.get("current"))
