"""Thin Celery tasks of live play: a room's next step (computer, automatic move, timer) and
the end of a dropped connection's grace period."""

from celery import shared_task

from live import services


@shared_task(name="live.room_step", ignore_result=True)
def room_step(room_id: int, move_number: int) -> None:
    services.room_step(room_id=room_id, move_number=move_number)


@shared_task(name="live.seat_grace", ignore_result=True)
def seat_grace(room_id: int, user_id: int, since: str) -> None:
    services.seat_grace_expire(room_id=room_id, user_id=user_id, since=since)


@shared_task(name="live.rooms_sweep", ignore_result=True)
def rooms_sweep() -> int:
    """Seats whose player is gone first (their rooms' steps then see the computer), then
    the rooms whose step was lost."""
    services.seats_sweep()
    return services.rooms_sweep()


@shared_task(name="live.room_finish", ignore_result=True)
def room_finish(room_id: int) -> None:
    services.room_finish(room_id=room_id)
