"""Times as ginscore records them: ISO 8601 text with the UTC offset of the machine that recorded
them. Their text sorts wrong once offsets differ (the clocks going back, another time zone, a
friend's file merged), so what is put in time order goes through here (docs/ratings.md "Times")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timezone

_RECORDED_LENGTH = len("2026-11-01T20:15:00+01:00")  # what ginscore writes: seconds and an offset


def instant(at: str | None) -> str:
    """A recorded time as text that sorts in time order: its UTC instant, a time without offset read as UTC;
    none is the earliest."""
    if not at:
        return ""
    when = datetime.fromisoformat(at.replace("Z", "+00:00"))
    if when.tzinfo is not None:
        try:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
        except OverflowError:  # within a day of year 1 or 9999: as written, which sorts it first or last all the same
            when = when.replace(tzinfo=None)
    return when.isoformat(timespec="microseconds")


def time_order(times: Iterable[str | None]) -> Callable[[str | None], str]:
    """A sort key that puts these recorded times in the order they happened. While all are written as
    ginscore writes them with one offset (most files), their text is that order, and reading each as
    an instant would be the slowest part of a long list."""
    offsets = {at[-6:] if isinstance(at, str) and len(at) == _RECORDED_LENGTH else None for at in times if at}
    if len(offsets) <= 1 and None not in offsets and all(offset[0] in "+-" for offset in offsets):
        return _as_text
    return _instant_or_first


def _as_text(at: str | None) -> str:
    return at or ""


def _instant_or_first(at: str | None) -> str:
    """A time damaged by hand sorts first: reading its session then names the damage."""
    try:
        return instant(at)
    except (AttributeError, TypeError, ValueError):  # (not text at all, or not a time)
        return ""
