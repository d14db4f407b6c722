"""The sweep steps a computer's turn whose step was lost even while the room's turn timer
has long to run (an online room's computer seats play after their short pause, not at the
deadline), and leaves a person deciding within their timer alone without piling up timers."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from live import services
from live.models import Room
from tests.live.test_live_services import _human_room


def test_a_lost_computer_step_in_a_room_with_a_turn_timer_is_swept(people, scheduled):
    room = services.room_create(host=people[0], mode="online", turn_seconds=600)
    services.room_start(room=room, by=people[0])  # every seat the computer's
    room.refresh_from_db()
    assert room.turn_deadline > timezone.now() + timedelta(seconds=500)
    Room.objects.filter(pk=room.pk).update(rolled_at=timezone.now() - timedelta(seconds=30))
    assert services.rooms_sweep(older_than=15) == 1
    room.refresh_from_db()
    assert room.move_number == 1


def test_a_person_deciding_within_the_timer_is_left_alone(people, scheduled):
    room, _ = _human_room(people, scheduled, seconds=600)
    Room.objects.filter(pk=room.pk).update(rolled_at=timezone.now() - timedelta(seconds=30))
    scheduled.clear()
    assert services.rooms_sweep(older_than=15) == 0
    room.refresh_from_db()
    assert not [c for c in scheduled if c[0] == "live.room_step"]  # no extra timer
