"""The sweep: every room whose step was lost (a process died, a message was lost) moves
again. The beat task ``live.rooms_sweep`` runs it."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from live.models import Room
from live.services.moves import room_step
from live.services.state import live_setting


def rooms_sweep(*, older_than: float | None = None, limit: int = 500) -> int:
    """Step every playing room whose roll has waited longer than it should (``older_than``
    seconds past its pause or its turn timer; LIVE_SWEEP_AFTER): the step's timer died with
    a process or its message was lost. A step that is not due does nothing, and a second
    step for one roll is refused by the claim. Returns how many rooms moved.

    A room with a turn timer is always due once the timer has run out (whoever is on
    turn), so all of those are stepped. A room without one (against the computer, around
    the table) may simply be waiting for a person who is thinking — or gone — forever, so
    only the ``limit`` most recently rolled of those are looked at: a room that stalled
    just now is never crowded out by rooms abandoned long ago."""
    slack = timedelta(seconds=live_setting("SWEEP_AFTER") if older_than is None else older_than)
    late = timezone.now() - slack
    playing = Room.objects.filter(status=Room.Status.PLAYING, rolled_at__lt=late)
    timed_out = playing.filter(turn_deadline__lt=late).values_list("pk", "move_number")
    untimed = (
        playing.filter(turn_deadline__isnull=True)
        .order_by("-rolled_at")
        .values_list("pk", "move_number")[:limit]
    )
    moved = 0
    for room_id, number in [*timed_out.iterator(), *untimed]:
        if room_step(room_id=room_id, move_number=number) is not None:
            moved += 1
    return moved
