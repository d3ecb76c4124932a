"""Recorded times put in the order they happened (docs/ratings.md "Times"), whatever offsets they
were written with: the quick path (one offset, as ginscore writes) and the instant one agree."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.core.times import instant, time_order
from tests.profiles import examples

_OFFSETS = st.integers(-12 * 4, 14 * 4).map(lambda quarters: timezone(timedelta(minutes=15 * quarters)))
_MOMENTS = st.datetimes(datetime(2000, 1, 1), datetime(2099, 12, 31)).map(lambda d: d.replace(microsecond=0))


def _written(moment: datetime, offset: timezone) -> str:
    """``moment`` (UTC) as ginscore writes the time on a machine at ``offset``."""
    return moment.replace(tzinfo=timezone.utc).astimezone(offset).isoformat(timespec="seconds")


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(_MOMENTS, _OFFSETS), max_size=12), st.booleans())
def test_property_recorded_times_sort_in_the_order_they_happened(recorded, one_offset):
    if one_offset and recorded:
        recorded = [(moment, recorded[0][1]) for moment, _ in recorded]
    times = [_written(moment, offset) for moment, offset in recorded] + [None]
    in_order = sorted(times, key=time_order(times))
    assert in_order[0] is None  # no time known: the earliest
    happened = [datetime.fromisoformat(at) for at in in_order[1:]]
    assert happened == sorted(happened)


def test_a_time_without_offset_is_read_as_utc_and_z_as_utc():
    assert instant("2026-12-05T04:00:00") == instant("2026-12-05T13:00:00+09:00") == instant("2026-12-05T04:00Z")
    later = ["2026-12-05T04:00:30", "2026-12-04T23:30:00-05:00"]
    assert sorted(later, key=time_order(later)) == later


def test_a_time_damaged_by_hand_sorts_first_rather_than_stop_the_sort():
    times = ["2026-12-05T04:00:00+00:00", "last friday", 7, None]
    assert sorted(times, key=time_order(times))[-1] == "2026-12-05T04:00:00+00:00"


def test_a_time_at_the_edge_of_the_calendar_is_put_in_order_not_a_traceback():
    times = ["0001-01-01T00:00:00+05:45", "2026-12-05T04:00:00+00:00", "9999-12-31T23:59:00-05:00"]
    assert sorted(reversed(times), key=time_order(times)) == times
