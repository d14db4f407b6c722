"""Seats: taking one (or back), leaving, connections opening and closing, the grace period
of a dropped connection."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop as _n

from live.models import Room, Seat
from live.services import timers
from live.services.finish import abandon_if_everyone_left
from live.services.rooms import start
from live.services.state import (
    Refused,
    held_until,
    live_setting,
    locked_room,
    refuse_if_over,
)


def seat_take(*, room: Room, by, colour: str) -> list[Seat]:
    """``by`` takes the seat of ``colour`` from the computer (anyone may take a computer
    seat; a reserved one only its player, who takes all their colours at once). The
    original player takes their seat back the same way."""
    if not getattr(by, "is_authenticated", False):
        raise Refused(_n("log in to take a seat"))
    if not isinstance(colour, str):
        raise Refused(_n("say which seat: a colour name"), field="colour")
    with transaction.atomic():
        room = locked_room(room.pk)
        refuse_if_over(room)
        if room.mode == Room.Mode.TABLE:
            raise Refused(_n("around the table the host plays every seat"))
        seats = {s.colour: s for s in room.seats.select_for_update()}
        seat = seats.get(colour)
        if seat is None:
            raise Refused(
                _n("there is no %(colour)s seat in this room"), field="colour", colour=repr(colour)
            )
        if seat.kind == Seat.Kind.HUMAN and seat.user_id == by.pk:
            return [seat]
        _refuse_taken(seat, by)
        taking = _seats_to_take(seat, seats, by)
        _sit_down(taking, by)
        seats_changed(room)
        _begin_or_step(room, seats)
        timers.broadcast_on_commit(room.pk)
    return taking


def _refuse_taken(seat: Seat, by) -> None:
    """Refuse a seat someone else plays, one reserved for another player, or one held for
    the player who just left it."""
    colour = seat.colour
    if seat.kind == Seat.Kind.HUMAN:
        raise Refused(_n("the %(colour)s seat is taken"), colour=colour)
    if seat.original_id == by.pk:
        return  # the player's own seat: taken back
    if seat.reserved:
        raise Refused(
            _n("the %(colour)s seat is reserved for %(player)s in this league game"),
            colour=colour,
            player=str(seat.original),
        )
    held = held_until(seat)
    if held is not None and timezone.now() < held:
        raise Refused(
            _n(
                "the %(colour)s seat is held for %(player)s until %(until)s UTC "
                "(they left it just now)"
            ),
            colour=colour,
            player=str(seat.original),
            until=f"{held:%H:%M:%S}",
        )


def _seats_to_take(seat: Seat, seats: dict[str, Seat], by) -> list[Seat]:
    """A reserved seat's player takes all their colours at once; anyone else one seat."""
    if seat.reserved:
        return [s for s in seats.values() if s.reserved and s.original_id == by.pk]
    if any(s.user_id == by.pk for s in seats.values()):
        raise Refused(_n("you already play a colour in this room"))
    return [seat]


def _sit_down(taking: list[Seat], by) -> None:
    now = timezone.now()
    for s in taking:
        s.kind, s.user = Seat.Kind.HUMAN, by
        s.original = s.original or by
        s.disconnected_at, s.seen_at = None, now
        s.save(update_fields=["kind", "user", "original", "disconnected_at", "seen_at"])


def _begin_or_step(room: Room, seats: dict[str, Seat]) -> None:
    """A league game starts once every reserved seat is taken; a game under way moves on
    at once (the seat's new player may be on turn)."""
    begin = (
        room.status == Room.Status.WAITING
        and room.fixture_id
        and all(s.kind == Seat.Kind.HUMAN for s in seats.values() if s.reserved)
    )
    if begin:
        start(room)
    elif room.status == Room.Status.PLAYING:
        timers.schedule_step_on_commit(room.pk, room.move_number, 0)


def seats_changed(room: Room) -> None:
    """Inside the room's lock: who plays a seat has changed. A step or a move that read the
    seats before now can no longer claim its roll (``moves.claim`` checks the version)."""
    Room.objects.filter(pk=room.pk).update(seats_version=F("seats_version") + 1)
    room.seats_version += 1


def to_computer(room: Room, seats: list[Seat]) -> None:
    """The computer plays these seats from now; ``disconnected_at`` of a computer seat is
    when its player left it (``held_until``)."""
    now = timezone.now()
    for s in seats:
        s.kind, s.user, s.connections, s.disconnected_at = Seat.Kind.COMPUTER, None, 0, now
        s.save(update_fields=["kind", "user", "connections", "disconnected_at"])
    if seats:
        seats_changed(room)


def hand_to_computer(room: Room, seats: list[Seat]) -> None:
    """Inside the room's lock: the computer plays ``seats`` on; the room is abandoned if
    nobody is left, else its next step is scheduled; the watchers are told (on commit)."""
    to_computer(room, seats)
    abandon_if_everyone_left(room)
    if seats and room.status == Room.Status.PLAYING:
        timers.schedule_step_on_commit(room.pk, room.move_number, 0)
    if seats:
        timers.broadcast_on_commit(room.pk)


def seat_leave(*, room: Room, by) -> int:
    """``by`` leaves: the computer plays their colours on, pawns where they stand. The
    number of seats handed over. Refused once the game has ended (the seats are part of
    its log and its result)."""
    with transaction.atomic():
        room = locked_room(room.pk)
        refuse_if_over(room)
        seats = list(room.seats.select_for_update().filter(user=by, kind=Seat.Kind.HUMAN))
        hand_to_computer(room, seats)
    return len(seats)


def seat_connected(*, room_id: int, by) -> None:
    """A connection of ``by`` opened: their seats are held again."""
    if not getattr(by, "is_authenticated", False):
        return
    Seat.objects.filter(room_id=room_id, user=by, kind=Seat.Kind.HUMAN).update(
        connections=F("connections") + 1, disconnected_at=None, seen_at=timezone.now()
    )


def seat_heartbeat(*, room_id: int, by) -> int:
    """A connection of ``by`` is alive (its server says so every LIVE_HEARTBEAT_SECONDS):
    their seats are marked seen. A seat whose server died stops being marked, and the
    sweep hands it to the computer (``sweep.seats_sweep``). The number of seats marked."""
    if not getattr(by, "is_authenticated", False):
        return 0
    return Seat.objects.filter(room_id=room_id, user=by, kind=Seat.Kind.HUMAN).update(
        seen_at=timezone.now()
    )


def seat_disconnected(*, room_id: int, by) -> None:
    """A connection closed; when it was the last, the computer takes the seats over after
    the grace period unless the player is back by then."""
    if not getattr(by, "is_authenticated", False):
        return
    now = timezone.now()
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update().filter(room_id=room_id, user=by, kind=Seat.Kind.HUMAN)
        )
        gone = []
        for s in seats:
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.disconnected_at = now
                gone.append(s)
            s.save(update_fields=["connections", "disconnected_at"])
    if gone:
        timers.later(
            "live.seat_grace",
            [room_id, by.pk, now.isoformat()],
            live_setting("GRACE_SECONDS"),
        )


def seat_grace_expire(*, room_id: int, user_id: int, since: str) -> int:
    """The grace period of a dropped connection ran out: hand the seats to the computer if
    the player has not come back (the same disconnection, still no connection)."""
    with transaction.atomic():
        room = locked_room(room_id)
        seats = [
            s
            for s in room.seats.select_for_update().filter(
                user_id=user_id, kind=Seat.Kind.HUMAN, connections=0
            )
            if s.disconnected_at and s.disconnected_at.isoformat() == since
        ]
        if room.status not in (Room.Status.WAITING, Room.Status.PLAYING):
            return 0
        hand_to_computer(room, seats)
    return len(seats)
