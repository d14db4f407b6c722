"""The sweep frees the seats of players who are gone though no grace task said so: a lost
grace task (worker or Redis restarted), a server that died with its connections (no
heartbeat any more). A player whose connection beats is never taken."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from live import services
from live.models import Seat
from tests.live.test_live_services import _human_room


def test_a_lost_grace_task_and_a_dead_server_free_their_seats_and_the_room_moves(
    people, scheduled, django_capture_on_commit_callbacks
):
    room, _ = _human_room(people, scheduled)
    now = timezone.now()
    long_ago = now - timedelta(seconds=60)
    # red's last connection closed a minute ago; its grace task never ran
    Seat.objects.filter(room=room, colour="red").update(
        connections=0, disconnected_at=long_ago, seen_at=long_ago
    )
    # yellow's server died: it still counts two connections, but no beat for a minute
    Seat.objects.filter(room=room, colour="yellow").update(connections=2, seen_at=long_ago)
    scheduled.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.seats_sweep() == 2
    kinds = dict(room.seats.values_list("colour", "kind"))
    assert kinds["red"] == kinds["yellow"] == Seat.Kind.COMPUTER
    # red was on turn: the room's step is asked for at once
    assert ("live.room_step", [room.pk, room.move_number], 0) in scheduled
    assert services.seats_sweep() == 0


def test_a_seat_whose_connection_beats_or_is_within_its_grace_is_kept(people, scheduled):
    room, _ = _human_room(people, scheduled)
    now = timezone.now()
    Seat.objects.filter(room=room, colour="red").update(connections=1, seen_at=now)
    # yellow dropped just now: its grace period is running
    Seat.objects.filter(room=room, colour="yellow").update(
        connections=0, disconnected_at=now, seen_at=now
    )
    assert services.seats_sweep() == 0
    assert set(room.seats.filter(kind=Seat.Kind.HUMAN).values_list("colour", flat=True)) == {
        "red",
        "yellow",
    }
    # …until the grace period and a heartbeat are over (test settings: 1 s, 0.5 s)
    assert services.seats_sweep(now=now + timedelta(seconds=2)) == 1
    assert room.seats.get(colour="yellow").kind == Seat.Kind.COMPUTER
