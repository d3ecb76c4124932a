"""What each session adds up to, kept beside its facts: a cache (issue 12, STYLE.md).

``sessions``, ``history`` and ``stats`` read one row a session instead of
replaying every hand of every session: the session's ``history --json`` row
(``summary.history_row``) with its statistics counters (``stats.packed``)
under ``counts``. A session whose facts cannot be read or do not add up keeps
``{"unusable": why}`` instead, so the listings still fail on it, naming it.

The rows are a cache, never the truth: they are written in the same
all-or-nothing write as the facts they summarise, stamped with ``version()``
(a digest of the code that computes them, so any change to the rules, the
replay or the row shapes makes old rows stale) and with the facts file they
were made from (its generation, size, modification time and a digest of its
bytes: a file edited by hand is noticed even when its size stays, and one
copied with a new modification time is checked by its digest); a row whose
stamp does not match is made again from the facts.
``tests/test_storage.py`` replays every session and compares.

Each part keeps a second cache beside its summaries, stamped the same way:
what its live sessions add to ``stats`` (``grouped``), a ``stats.tally`` for
each group of sessions of one variant and the same players, so ``stats`` sums
a few tallies a part, and its filters (``--variant``, ``--player``,
``--since``) keep or leave a group whole, reading rows only of a group that
``--since`` cuts.
"""

from __future__ import annotations

import sys
import zlib

from . import cards, fields, records, rules, stakes, stats, summary, variants
from .errors import BadHandAt, Refused

_VERSION: str | None = None


def version() -> str:
    """A digest of the source of every module a row depends on."""
    global _VERSION
    if _VERSION is None:
        digest = 0
        for module in (cards, fields, records, rules, stakes, stats, summary, variants, sys.modules[__name__]):
            try:
                with open(module.__file__, "rb") as source:
                    digest = zlib.crc32(source.read(), digest)
            except (OSError, TypeError):  # no source to read: a fixed stamp for this build
                digest = zlib.crc32(module.__name__.encode(), digest)
        _VERSION = f"{digest:08x}"
    return _VERSION


def summarise(doc: dict) -> dict:
    """The row of one stored session (its facts as ``records.session_to_dict`` keeps them)."""
    try:
        facts = records.session_from_dict(doc, strict=False)
    except Refused as error:
        from .store import damaged

        return {"unusable": damaged(doc, error)}
    try:
        standings = variants.replay(facts)
    except BadHandAt as error:
        return {"unusable": f"session '{facts.name}' does not add up at {error}"}
    row = summary.history_row(standings)
    row["counts"] = stats.packed(stats.session_counts(standings))["counts"]
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
