"""The files of one database and how they change together (issue 12).

A database is its main file (``ginscore.json``, the one ``ginscore where``
prints) and, beside it, files of the same stem that the main file names:

- ``ginscore.index-G.json``: every session's id, name, part and start;
- ``ginscore.facts-NNNN-G.json``: the facts of up to ``PART_SIZE`` sessions;
- ``ginscore.summary-NNNN-G.json``: a cache of what each of those sessions adds up to;
- ``ginscore.tally-NNNN-G.json``: a cache of what they add to the statistics,
  by groups of one variant and the same players (``store_summary.grouped``);
- ``ginscore.totals-G.json``: a cache of the statistics of every part but the
  newest, which `stats` continues with the newest part's tally.

``G`` is the generation: the number of the write that made the file. A file
is written once under a fresh name and never changed. A write creates its new
files exclusively, fsyncs them (all but the caches, which a crash may leave
empty or cut and their readers then make again) and the folder, and only then replaces the
main file (the commit point, atomic); the main file names the generation of
every file, so a reader sees the database before the write or after it,
whole. The old generations are removed after the commit; a reader that finds
one gone re-reads the main file. A writer killed at any step leaves files the
main file does not name: the next writer removes them under the lock (only
regular files of exactly these names; nothing is followed).

Nothing here knows what the files hold; callers turn OSError into their own
one-line errors.
"""

from __future__ import annotations

import os
import re
import stat

PART_SIZE = 50  # sessions a part holds: a command on one session reads one part
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class Gone(Exception):
    """A file the main file named is not there (a writer replaced it meanwhile): read the main file again."""


class NotOurs(Exception):
    """A path where a file of the database should be holds something else (a link, a folder)."""


def facts_key(part: int) -> str:
    return f"facts-{part:04d}"


def summary_key(part: int) -> str:
    return f"summary-{part:04d}"


def tally_key(part: int) -> str:
    return f"tally-{part:04d}"


INDEX_KEY = "index"
TOTALS_KEY = "totals"


def is_cache(key: str) -> bool:
    """Whether a file is a cache, made again from the facts when missing, stale or damaged."""
    return key == TOTALS_KEY or key.startswith(("summary-", "tally-"))


def digest(data: bytes) -> str:
    """What a cache file's stamp says of the facts file it was made from: a digest of its bytes."""
    try:
        from _blake2 import blake2b  # what hashlib.blake2b is, without loading OpenSSL (3-4 ms a command)
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=16).hexdigest()


class Files:
    """Names and paths of the files beside one main file (``real``: symlinks already followed)."""

    def __init__(self, real: str):
        self.real = real
        self.folder, self.name = os.path.split(real)
        self.base = self.name[:-5] if self.name.endswith(".json") else self.name
        self._pattern = re.compile(rf"{re.escape(self.base)}\.(index|totals|(?:facts|summary|tally)-\d{{4,}})-(\d+)\.json")

    def path(self, key: str, generation: int) -> str:
        return os.path.join(self.folder, f"{self.base}.{key}-{generation}.json")

    def read(self, key: str, generation: int) -> bytes:
        """The bytes of a file the main file names; Gone when it is not there."""
        path = self.path(key, generation)
        try:
            fd = os.open(path, _READ)
        except FileNotFoundError:
            raise Gone(path) from None
        except OSError as error:
            if os.path.islink(path):
                raise NotOurs(f"{path} is a symbolic link") from None
            raise error
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise NotOurs(f"{path} is not a regular file")
            return handle.read()

    def size(self, key: str, generation: int) -> int | None:
        found = self.signature(key, generation)
        return found[0] if found else None

    def signature(self, key: str, generation: int) -> tuple[int, int] | None:
        """(size, modification time in ns) of a regular file of the database; None when it is not one."""
        try:
            found = os.lstat(self.path(key, generation))
        except FileNotFoundError:
            return None
        return (found.st_size, found.st_mtime_ns) if stat.S_ISREG(found.st_mode) else None

    def create(self, key: str, generation: int, data: bytes, like: os.stat_result | None) -> None:
        """Write a new file of the database, exclusively (a planted link is refused, never followed),
        with the owner and permission bits of ``like`` (the main file's); fsynced unless it is a
        cache (``is_cache``): a crash can leave a cache empty or cut, and its readers then make it
        again from the facts, so a write waits for the disk only for what is not made again."""
        from . import atomic

        if not atomic.create_new(self.path(key, generation), data, like, durable=not is_cache(key)):
            raise FileExistsError(f"{self.path(key, generation)} is in the way")

    def sync_folder(self) -> None:
        """Make new names durable before the main file names them."""
        from .atomic import _fsync_folder

        _fsync_folder(self.folder)

    def remove(self, key: str, generation: int) -> None:
        try:
            os.unlink(self.path(key, generation))
        except FileNotFoundError:
            pass

    def leftovers(self, named: dict[str, int]) -> list[tuple[str, int]]:
        """Files of our names that the main file does not name (a killed writer's), with the
        generation in each name; regular files only."""
        found = []
        with os.scandir(self.folder or ".") as entries:
            for entry in entries:
                match = self._pattern.fullmatch(entry.name)
                if match is None or named.get(match.group(1)) == int(match.group(2)):
                    continue
                if entry.is_file(follow_symlinks=False):
                    found.append((entry.path, int(match.group(2))))
        return found
