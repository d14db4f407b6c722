"""Round dates in one step: "every Tuesday at 19:00 from 3 March, weekly" as one date per
round, in the league's time zone, keeping the wall-clock time across a change of summer
time (19:00 stays 19:00, not 18:00 or 20:00)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.errors import RecurrenceError


@dataclass(frozen=True)
class RoundDate:
    round: int
    scheduled_at: datetime  # aware
    deadline: datetime | None  # aware


def _check_rhythm(rounds: int, every_days: int, due_hours: int | None) -> None:
    """1–200 rounds, 1–60 days apart, results due 1 hour to 60 days later (or never)."""
    if not is_whole(rounds, at_least=1, at_most=200):
        raise RecurrenceError("dates_rounds")
    if not is_whole(every_days, at_least=1, at_most=60):
        raise RecurrenceError("dates_interval")
    if due_hours is not None and not is_whole(due_hours, at_least=1, at_most=24 * 60):
        raise RecurrenceError("dates_due")


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
    _check_rhythm(rounds, every_days, due_hours)
    tz = ZoneInfo(zone)
    local = first.astimezone(tz) if first.tzinfo else first.replace(tzinfo=tz)
    wall = local.replace(tzinfo=None)
    deadline = timedelta(hours=due_hours) if due_hours is not None else None
    out = []
    for n in range(rounds):
        at = (wall + timedelta(days=n * every_days)).replace(tzinfo=tz)
        out.append(RoundDate(n + 1, at, at + deadline if deadline is not None else None))
    return out
