"""Fixtures of the live-play tests: people, and the scheduled steps recorded instead of run."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def people(db):
    User = get_user_model()
    return [User.objects.create_user(f"person{i}", password="pw-long-enough-1") for i in range(4)]


@pytest.fixture
def scheduled(monkeypatch):
    """Steps and grace checks the services ask for, recorded (the test runs them itself)."""
    calls: list[tuple[str, list, float]] = []
    monkeypatch.setattr(
        "live.services.timers.later", lambda task, args, delay: calls.append((task, args, delay))
    )
    return calls


def drive(room, *, limit: int = 20000):
    """Run the server's steps until the game is over (computer seats only)."""
    from live import services
    from live.models import Room

    for _ in range(limit):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            return room
        if services.room_step(room_id=room.pk, move_number=room.move_number) is None:
            seat = room.seats.get(colour=services.room_game(room).turn)
            raise AssertionError(
                f"roll {room.move_number} waits for {seat.colour}'s {seat.kind} seat: "
                "drive() plays rooms whose every seat is the computer's"
            )
    raise AssertionError("the game did not end")


def play_until(room, wanted, *, limit: int = 400):
    """Play ``room`` on (a person's seat plays its first legal move when it has a choice,
    the server steps the others) until ``wanted(game, legal)`` holds for the roll on turn:
    the room then, or None if the game ended or ``limit`` rolls passed first."""
    from live import services
    from live.models import Room, Seat

    for _ in range(limit):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            return None
        game = services.room_game(room)
        legal = game.legal_moves(room.die)
        if wanted(game, legal):
            return room
        seat = room.seats.get(colour=game.turn)
        if seat.kind == Seat.Kind.HUMAN and len(legal) >= 2:
            services.move_play(
                room_id=room.pk,
                by=seat.user,
                move_number=room.move_number,
                choice=[legal[0].from_, legal[0].to],
            )
        else:
            services.room_step(room_id=room.pk, move_number=room.move_number)
    return None


def league_room_playing():
    """erin (black) against carol (red) in a league fixture's room, both seated: playing."""
    from live import services
    from live.models import Room
    from tests.builders import erin_against_carol

    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["carol"])
    services.seat_take(room=room, by=t["erin"], colour="black")
    services.seat_take(room=room, by=t["carol"], colour="red")
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    return t, room
