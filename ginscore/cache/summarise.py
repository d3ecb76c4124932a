"""What each session adds up to: the rows the listings read, made from its facts.

A row is the session's ``history --json`` row with its statistics counters under ``counts``; a
session whose facts cannot be read or do not add up gives ``{"unusable": True}``, so the listings
still fail on it, naming it.
"""

from __future__ import annotations

import json

from ginscore.core import stats
from ginscore.core import standings as summary
from ginscore.core.escape import json_safe
from ginscore.db.damage import replayed

def summarise(doc: dict) -> dict:
    """The row of one stored session (its facts as ``facts.session_to_dict`` keeps them)."""
    standings, why = replayed(doc)
    if why is not None:  # (what is said of it names commands: worked out again when it is read)
        return {"unusable": True}
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


def history_item(row: dict) -> dict:
    """A session's item of ``history --json``: its row without the statistics counts."""
    return {key: value for key, value in row.items() if key != "counts"}


SESSION_KEYS = ("name", "variant", "players", "hands_played", "winner", "over")


def session_item(row: dict, current: bool) -> dict:
    """A session's item of ``sessions --json``, made from its row."""
    return {key: row[key] for key in SESSION_KEYS} | {"current": current, "created_at": row["created_at"]}


def json_item(value) -> bytes:
    """``value`` as an item of a JSON list exactly as ``json.dumps(whole_list, ensure_ascii=False,
    indent=2)`` writes it there, every raw control or bidi character escaped: UTF-8 bytes, kept in
    the cache because Python's encoder with an indent is slow on years of sessions."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return json_safe("  " + text.replace("\n", "\n  "), "utf-8").encode()
