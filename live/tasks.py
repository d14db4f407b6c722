"""Thin Celery tasks of live play: a room's next step (computer, automatic move, timer) and
the end of a dropped connection's grace period.

An outage of Redis, the broker or the database while a task runs is expected (a restart):
it is logged as one line and the task ends; the sweep steps a room whose step was lost and
hands over seats whose grace task was lost. Anything else raises (Celery logs it)."""

import logging
from collections.abc import Callable
from functools import wraps

from celery import shared_task

from live import services
from live.errors import expected, one_line

log = logging.getLogger(__name__)


def _outage_is_one_line(task: Callable) -> Callable:
    @wraps(task)
    def run(*args, **kwargs):
        try:
            return task(*args, **kwargs)
        except Exception as exc:
            if not expected(exc):
                raise
            log.warning("live: task %s%r failed: %s", task.__name__, args, one_line(exc))
            return None

    return run


@shared_task(name="live.room_step", ignore_result=True)
@_outage_is_one_line
def room_step(room_id: int, move_number: int) -> None:
    services.room_step(room_id=room_id, move_number=move_number)


@shared_task(name="live.seat_grace", ignore_result=True)
@_outage_is_one_line
def seat_grace(room_id: int, user_id: int, since: str) -> None:
    services.seat_grace_expire(room_id=room_id, user_id=user_id, since=since)


@shared_task(name="live.rooms_sweep", ignore_result=True)
@_outage_is_one_line
def rooms_sweep() -> int:
    """Seats whose player is gone first (their rooms' steps then see the computer), then
    the rooms whose step was lost."""
    services.seats_sweep()
    return services.rooms_sweep()


@shared_task(name="live.room_finish", ignore_result=True)
@_outage_is_one_line
def room_finish(room_id: int) -> None:
    services.room_finish(room_id=room_id)
