"""Round dates by recurrence: one round every N days at the same wall-clock time in the
league's time zone, across a change of summer time; deadlines a set time after."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.recurrence import RecurrenceError, round_dates

BERLIN = ZoneInfo("Europe/Berlin")


def test_weekly_tuesdays_keep_19_00_across_the_change_to_summer_time():
    dates = round_dates(datetime(2027, 3, 16, 19, 0), 4, zone="Europe/Berlin", due_hours=48)
    assert [d.scheduled_at.strftime("%a %d.%m. %H:%M") for d in dates] == [
        "Tue 16.03. 19:00",
        "Tue 23.03. 19:00",
        "Tue 30.03. 19:00",  # summer time began on 28 March
        "Tue 06.04. 19:00",
    ]
    assert dates[2].scheduled_at.utcoffset() != dates[0].scheduled_at.utcoffset()
    assert dates[0].deadline.strftime("%a %H:%M") == "Thu 19:00"


@given(
    st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1)),
    st.integers(1, 30),
    st.integers(1, 21),
)
def test_every_round_falls_on_the_same_weekday_and_time(first, rounds, every):
    first = first.replace(second=0, microsecond=0)
    dates = round_dates(first, rounds, every_days=every, zone="Europe/Berlin")
    assert len(dates) == rounds and [d.round for d in dates] == list(range(1, rounds + 1))
    for n, d in enumerate(dates):
        local = d.scheduled_at.astimezone(BERLIN)
        assert (local.date() - first.date()).days == n * every
        # the wall-clock time is kept (except inside the hour a spring change skips)
        assert (local.hour, local.minute) == (
            first.hour,
            first.minute,
        ) or local.hour == first.hour + 1


@pytest.mark.parametrize(
    "kwargs", [{"every_days": 0}, {"every_days": 61}, {"due_hours": 0}, {"every_days": True}]
)
def test_bad_intervals_are_refused(kwargs):
    with pytest.raises(RecurrenceError):
        round_dates(datetime(2027, 1, 5, 19), 3, zone="Europe/Berlin", **kwargs)
