"""Round dates in one step: "every Tuesday at 19:00 from 3 March, weekly" as one date per
round, in the league's time zone, keeping the wall-clock time across a change of summer
time (19:00 stays 19:00, not 18:00 or 20:00)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tournaments.algorithms.errors import RecurrenceError


@dataclass(frozen=True)
class RoundDate:
    round: int
    scheduled_at: datetime  # aware
    deadline: datetime | None  # aware


def round_dates(
    first: datetime,
    rounds: int,
    *,
    every_days: int = 7,
    due_hours: int | None = None,
    zone: str = "UTC",
) -> list[RoundDate]:
    """``rounds`` dates from ``first`` (naive: a wall-clock time in ``zone``; aware: converted
    to ``zone``), one every ``every_days`` days at the same wall-clock time; each result is
    due ``due_hours`` after its round (None: no deadline)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 200:
        raise RecurrenceError("dates_rounds")
    if isinstance(every_days, bool) or not isinstance(every_days, int) or not 1 <= every_days <= 60:
        raise RecurrenceError("dates_interval")
    if due_hours is not None and (
        isinstance(due_hours, bool)
        or not isinstance(due_hours, int)
        or not 1 <= due_hours <= 24 * 60
    ):
        raise RecurrenceError("dates_due")
    tz = ZoneInfo(zone)
    local = first.astimezone(tz) if first.tzinfo else first.replace(tzinfo=tz)
    wall = local.replace(tzinfo=None)
    out = []
    for n in range(rounds):
        at = (wall + timedelta(days=n * every_days)).replace(tzinfo=tz)
        due = at + timedelta(hours=due_hours) if due_hours is not None else None
        out.append(RoundDate(n + 1, at, due))
    return out
