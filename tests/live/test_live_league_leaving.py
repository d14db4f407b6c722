"""League games when players leave: both gone — the game stops with no result (never a
computer-played result counted as theirs), the organizers may record the forfeit; a
departed player's seat is held for them for the grace period, then others may take it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from live import services
from live.models import Room, Seat
from tests.builders import make_user
from tests.live.conftest import league_room_playing
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def test_when_every_player_leaves_the_game_stops_with_no_result(scheduled):
    t, room = league_room_playing()
    services.seat_leave(room=room, by=t["erin"])
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING  # one left: the computer plays her colours on
    services.seat_leave(room=room, by=t["carol"])
    room.refresh_from_db()
    assert room.status == Room.Status.ABANDONED and room.end_reason == "everyone-left"
    assert "no result" in room.result_note
    number = room.move_number
    assert services.room_step(room_id=room.pk, move_number=number) is None
    services.room_finish(room_id=room.pk)
    assert not Result.objects.filter(fixture=t["fixture"]).exists()
    room.refresh_from_db()
    assert room.move_number == number and room.game_log_id is None


def test_the_grace_period_running_out_for_both_stops_the_game_too(scheduled):
    t, room = league_room_playing()
    for user in (t["erin"], t["carol"]):
        services.seat_connected(room_id=room.pk, by=user)
        services.seat_disconnected(room_id=room.pk, by=user)
    for _task, args, _delay in [c for c in scheduled if c[0] == "live.seat_grace"]:
        services.seat_grace_expire(room_id=args[0], user_id=args[1], since=args[2])
    room.refresh_from_db()
    assert room.status == Room.Status.ABANDONED


def test_a_finished_game_nobody_was_at_counts_for_no_one(scheduled):
    """The guard in room_finish: a game that ended as its last player left."""
    t, room = league_room_playing()
    Seat.objects.filter(room=room).update(kind=Seat.Kind.COMPUTER, user=None)
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED, winner="erin")
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert room.result_note == "no result: every player had left the board"
    assert not Result.objects.filter(fixture=t["fixture"]).exists()


def test_a_departed_players_seat_is_held_for_them_for_the_grace_period(people, scheduled):
    room = services.room_create(host=people[0])
    services.seat_take(room=room, by=people[1], colour="yellow")
    services.room_start(room=room, by=people[0])
    services.seat_leave(room=room, by=people[1])
    with pytest.raises(services.Refused, match="held for person1"):
        services.seat_take(room=room, by=people[2], colour="yellow")
    # she takes it back within the grace period
    services.seat_take(room=room, by=people[1], colour="yellow")
    assert room.seats.get(colour="yellow").user == people[1]
    # she leaves again; once the grace period is over (test settings: 1 s) anyone may
    services.seat_leave(room=room, by=people[1])
    Seat.objects.filter(room=room, colour="yellow").update(
        disconnected_at=timezone.now() - timedelta(seconds=5)
    )
    services.seat_take(room=room, by=people[2], colour="yellow")
    assert room.seats.get(colour="yellow").user == people[2]


def test_a_stranger_cannot_take_a_league_seat_and_the_player_is_never_refused(scheduled):
    t, room = league_room_playing()
    stranger = make_user("stranger")
    services.seat_leave(room=room, by=t["erin"])
    with pytest.raises(services.Refused, match="reserved for erin"):
        services.seat_take(room=room, by=stranger, colour="black")
    services.seat_take(room=room, by=t["erin"], colour="black")
    assert room.seats.get(colour="black").user == t["erin"]
