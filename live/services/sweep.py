"""The sweep: every room whose step was lost (a process died, a message was lost) moves
again, and every seat whose player is gone without its grace period running out (the grace
task was lost, or the server holding the connection died) goes to the computer. The beat
task ``live.rooms_sweep`` runs both."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection, transaction
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from live.models import Room, Seat, TimerOwner
from live.services import timers
from live.services.moves import room_step
from live.services.seats import hand_to_computer
from live.services.state import live_setting, locked_room, room_game, room_with_seats


def rooms_sweep(*, older_than: float | None = None, limit: int = 500) -> int:
    """Step every playing room whose roll has waited longer than it should (``older_than``
    seconds past its pause or its turn timer; LIVE_SWEEP_AFTER): the step's timer died with
    a process or its message was lost. A step that is not due does nothing (a person still
    deciding within their timer, or with no timer), and a second step for one roll is
    refused by the claim. Returns how many rooms moved.

    Rooms whose turn timer has run out are all stepped. The others rolled more than
    ``older_than`` ago — a computer's turn or an automatic move is due after its short
    pause, whatever the turn timer says — but may as well be waiting for a person who is
    thinking (or gone, in a room without a timer), so only the ``limit`` most recently
    rolled of those are looked at: a room that stalled just now is never crowded out by
    rooms abandoned long ago."""
    slack = timedelta(seconds=live_setting("SWEEP_AFTER") if older_than is None else older_than)
    late = timezone.now() - slack
    playing = Room.objects.filter(status=Room.Status.PLAYING, rolled_at__lt=late)
    timed_out = playing.filter(turn_deadline__lt=late).values_list("pk", "move_number")
    others = (
        playing.exclude(turn_deadline__lt=late)
        .order_by("-rolled_at")
        .values_list("pk", "move_number")[:limit]
    )
    moved = 0
    for room_id, number in [*timed_out.iterator(), *others]:
        if room_step(room_id=room_id, move_number=number, reschedule=False) is not None:
            moved += 1
    return moved


def seats_sweep(*, now=None) -> int:
    """Hand to the computer every seat of a waiting or playing room whose player is gone
    and whose grace period is over, though no grace task said so:

    - its last connection closed more than LIVE_GRACE_SECONDS (and one heartbeat) ago —
      the ``live.seat_grace`` task was lost (a worker or Redis restarted);
    - it counts open connections, but no server has marked it alive for three heartbeats
      and the grace period — the server holding them died and never reported them closed.

    A player connected anywhere is marked every heartbeat, so is never taken. Returns how
    many seats went to the computer."""
    now = now or timezone.now()
    grace = timedelta(seconds=live_setting("GRACE_SECONDS"))
    beat = timedelta(seconds=live_setting("HEARTBEAT_SECONDS"))
    gone = (
        Seat.objects.filter(
            kind=Seat.Kind.HUMAN,
            user__isnull=False,
            room__status__in=[Room.Status.WAITING, Room.Status.PLAYING],
        )
        .filter(
            Q(connections__lte=0, disconnected_at__lt=now - grace - beat)
            | Q(connections__gt=0, seen_at__lt=now - grace - 3 * beat)
        )
        .values_list("room_id", flat=True)
        .distinct()
    )
    freed = 0
    for room_id in list(gone[:500]):
        with transaction.atomic():
            room = locked_room(room_id)
            if room.status not in (Room.Status.WAITING, Room.Status.PLAYING):
                continue
            seats = list(
                room.seats.select_for_update()
                .filter(kind=Seat.Kind.HUMAN, user__isnull=False)
                .filter(
                    Q(connections__lte=0, disconnected_at__lt=now - grace - beat)
                    | Q(connections__gt=0, seen_at__lt=now - grace - 3 * beat)
                )
            )
            hand_to_computer(room, seats)
            freed += len(seats)
    return freed


#: the advisory locks of the timer owners, ``(OWNER_LOCKS, hashtext(name))``: each held by
#: its owner's own database session, which ends when its process dies
OWNER_LOCKS = 33033
_LOCK = (
    "locktype = 'advisory' AND classid = %s AND objsubid = 2 AND objid = hashtext({})::oid "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def hold_owner_lock(name: str) -> None:
    """PostgreSQL: this session holds the lock of the owner ``name`` (taken once: a session
    that has it takes it again only after losing its connection). A killed process's
    session ends with it, and its lock with it: it is dead at once, not when its lease has
    run out (``live_owners``)."""
    if connection.vendor != "postgresql":
        return
    mine = _LOCK.format("%s") + " AND pid = pg_backend_pid()"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT pg_try_advisory_lock(%s, hashtext(%s)) "
            f"WHERE NOT EXISTS (SELECT 1 FROM pg_locks WHERE {mine})",
            [OWNER_LOCKS, name, OWNER_LOCKS, name],
        )


def live_owners(now):
    """The timer owners alive: their lease runs and, on PostgreSQL, a session holds their
    lock (a crash is seen at once; the lease is what tells a hung owner). Not a subquery:
    the lock's condition names the table."""
    owners = TimerOwner.objects.filter(until__gt=now)
    if connection.vendor != "postgresql":
        return owners
    table = connection.ops.quote_name(TimerOwner._meta.db_table)
    held = _LOCK.format(f"{table}.{connection.ops.quote_name('name')}")
    exists = RawSQL(
        f"EXISTS (SELECT 1 FROM pg_locks WHERE granted AND {held})",
        [OWNER_LOCKS],
        output_field=BooleanField(),
    )
    return owners.alias(held=exists).filter(held=True)


def timer_owner_tick(name: str, *, limit: int = 200) -> int:
    """One tick of the timer owner ``name`` (every LIVE_OWNER_SECONDS, on its own thread):

    1. hold its lock (``hold_owner_lock``) and renew its lease to now + LIVE_SWEEP_AFTER:
       an owner whose process died is dead at once (its lock is gone with its session),
       one that stops renewing (hung) once its lease has passed;
    2. adopt up to ``limit`` playing rooms that no live owner holds, most overdue first:
       each with a conditional UPDATE on the room's row (``WHERE timer_owner = <the owner
       read> AND move_number = <the roll read>``), so of two owners adopting one room, or
       an owner adopting a room that moved meanwhile, exactly one wins or none; the winner
       schedules the room's step on its own timer at the time it is due (at once when
       overdue). A second step for one roll is harmless: the claim on the move number.

    A step of a room applied anywhere later moves the room to the applier if that is an
    owner, or leaves it to be adopted (docs/live.md, "Issue 33, item 4"). Returns how many
    rooms were adopted."""
    hold_owner_lock(name)
    now = timezone.now()
    lease = timedelta(seconds=live_setting("SWEEP_AFTER"))
    if not TimerOwner.objects.filter(name=name).update(until=now + lease):
        TimerOwner.objects.update_or_create(name=name, defaults={"until": now + lease})
        # owners that died long ago, gone (a restarted server has a new name)
        TimerOwner.objects.filter(until__lt=now - timedelta(hours=1)).delete()
    alive = list(live_owners(now).values_list("name", flat=True))  # a few: one a server
    orphans = list(
        Room.objects.filter(status=Room.Status.PLAYING)
        .exclude(timer_owner__in=alive)
        .order_by("rolled_at")
        .values_list("pk", "move_number", "timer_owner")[:limit]
    )
    adopted = 0
    for room_id, number, was in orphans:
        won = Room.objects.filter(
            pk=room_id, status=Room.Status.PLAYING, move_number=number, timer_owner=was
        ).update(timer_owner=name)
        if not won:
            continue
        adopted += 1
        room = room_with_seats(room_id)
        if room is None or room.status != Room.Status.PLAYING or room.move_number != number:
            continue  # it moved since: whoever moved it scheduled (or handed it back)
        delay = timers.due_in(room, room_game(room))
        if delay >= 0:
            timers.later("live.room_step", [room_id, number], delay)
    return adopted
