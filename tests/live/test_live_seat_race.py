"""The seat race: a seat changes hands between a step's read of the room and its claim.

The step (``room_step``) reads the room with its seats, chooses, then claims the roll with
a conditional UPDATE. A ``seat_take`` (or a leave) that commits in between, on another
connection, must make the claim fail: the computer never moves for a seat a person has
just taken, and no broadcast shows the seats as they were before. The interleaving is made
deterministic by running the other connection's service inside the step, after its read."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from live import services
from live.models import Room, RoomEvent, Seat
from live.services import moves


def _on_other_connection(fn) -> None:
    """Run ``fn`` on a thread of its own (its own database connection, its own commit) and
    wait for it: what another process does between two statements of this one."""
    errors: list[BaseException] = []

    def run():
        try:
            fn()
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _between_read_and_claim(monkeypatch, fn) -> None:
    """``fn`` runs (committed, on another connection) once, right after the step or the
    move has read the room and its seats, before its claim."""
    original = moves.room_game
    done = []

    def room_game(room):
        game = original(room)
        if not done:
            done.append(True)
            _on_other_connection(fn)
        return game

    monkeypatch.setattr(moves, "room_game", room_game)


@pytest.fixture
def sent(monkeypatch):
    states: list[dict] = []
    monkeypatch.setattr(
        "live.dispatch.group_send", lambda group, message: states.append(message["state"])
    )
    return states


@pytest.mark.django_db(transaction=True)
def test_a_seat_taken_between_the_steps_read_and_its_claim_stops_the_computers_move(
    people, scheduled, sent, monkeypatch
):
    room = services.room_create(host=people[0], mode="online", turn_seconds=60)
    services.room_start(room=room, by=people[0])  # every seat the computer's
    room.refresh_from_db()
    number = room.move_number
    colour = services.room_game(room).turn
    _between_read_and_claim(
        monkeypatch, lambda: services.seat_take(room=room, by=people[1], colour=colour)
    )
    sent.clear()

    assert services.room_step(room_id=room.pk, move_number=number) is None

    room.refresh_from_db()
    seat = room.seats.get(colour=colour)
    assert seat.kind == Seat.Kind.HUMAN and seat.user_id == people[1].pk
    # the computer made no move for the seat the person has just taken
    assert room.move_number == number
    assert not RoomEvent.objects.filter(room=room, number=number).exists()
    # every broadcast shows the seat as the person's (none the old seat list)
    assert sent, "the seat change is broadcast"
    for state in sent:
        shown = next(s for s in state["seats"] if s["colour"] == colour)
        assert shown["kind"] == Seat.Kind.HUMAN, state
    # the take asked for a new step of this roll: the person's turn is decided afresh
    assert ("live.room_step", [room.pk, number], 0) in scheduled


@pytest.mark.django_db(transaction=True)
def test_a_seat_left_between_a_persons_read_and_claim_refuses_the_move(
    people, scheduled, sent, monkeypatch
):
    # person1 is on turn with a legal move and leaves (in another tab) while the move is
    # in flight: the move is refused, the computer's step decides the roll
    for _ in range(300):
        room = services.room_create(host=people[0], mode="online", turn_seconds=60)
        services.room_start(room=room, by=people[0])
        room.refresh_from_db()
        colour = services.room_game(room).turn
        services.seat_take(room=room, by=people[1], colour=colour)
        legal = services.room_game(room).legal_moves(room.die)
        if legal:
            break
        Room.objects.filter(pk=room.pk).delete()
    else:  # pragma: no cover - 300 rooms without a legal first move
        pytest.fail("no room with a legal first move")
    room.refresh_from_db()
    number, move = room.move_number, legal[0]
    _between_read_and_claim(monkeypatch, lambda: services.seat_leave(room=room, by=people[1]))
    sent.clear()

    with pytest.raises(services.Refused, match="seats changed"):
        services.move_play(
            room_id=room.pk,
            by=people[1],
            move_number=number,
            choice=[move.from_, move.to, move.pawn_colour],
        )

    room.refresh_from_db()
    assert room.move_number == number
    assert room.seats.get(colour=colour).kind == Seat.Kind.COMPUTER
    assert sent  # the seat change's own broadcast
    for state in sent:
        shown = next(s for s in state["seats"] if s["colour"] == colour)
        assert shown["kind"] == Seat.Kind.COMPUTER, state
