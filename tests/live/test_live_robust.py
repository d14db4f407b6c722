"""Live play that nobody can stall and whose end nothing rewrites (issue 33, points 1 and 2):

- a connection's lifetime owns its heartbeat and its seats: however it ends — cancelled by
  the server (Daphne kills an application still busy 10 s after its socket closed: the
  rate limit closed it with answers pending), or a handler raising — the heartbeat stops,
  the seat is released and the computer takes it after the grace period;
- once a game has ended every change is refused with "the game is over", and the log and a
  league game's result are the same whether the end-of-game task ran before or after.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from live import consumers, services
from live.models import Room, Seat
from live.routing import websocket_urlpatterns
from tests.builders import erin_against_carol
from tests.live.conftest import play_until
from tests.live.test_live_services import _human_room
from tournaments.models import Fixture, Result

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture
def _consumer_thread_lets_go():
    yield
    asyncio.run(database_sync_to_async(connections.close_all)())


async def _connect(room, user):
    comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "state"
    return comm


def _red(room) -> Seat:
    return Seat.objects.get(room=room, colour="red")


def _grace_runs_out(scheduled, room) -> None:
    """The grace task the release asked for, run now (its delay checked)."""
    graces = [c for c in scheduled if c[0] == "live.seat_grace" and c[1][0] == room.pk]
    assert graces, "no grace period was started: the seat would stay connected for ever"
    _task, args, delay = graces[-1]
    assert delay == services.live_setting("GRACE_SECONDS")
    services.seat_grace_expire(room_id=args[0], user_id=args[1], since=args[2])


async def _until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await database_sync_to_async(predicate)():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_consumer_thread_lets_go")
def test_a_state_flood_closed_with_answers_pending_and_killed_lets_the_seat_go(people, scheduled):
    """The issue's case: 40 ``state`` requests at once, the rate limit closes the socket
    while answers are pending, and the server kills the application (as Daphne does when
    it has not finished 10 s after the close). The heartbeat stops, the seat is released,
    and after the grace period the computer holds it."""
    room, _ = _human_room(people, scheduled)

    async def main():
        comm = await _connect(room, people[0])
        assert (await database_sync_to_async(_red)(room)).connections == 1
        for _ in range(40):
            await comm.send_json_to({"type": "state"})
        code = None
        while code is None:
            out = await comm.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                code = out.get("code")
        assert code == consumers.CLOSE_TOO_MANY
        comm.future.cancel()  # Daphne's kill: no websocket.disconnect reaches the consumer
        await _until(lambda: _red(room).connections == 0)
        await database_sync_to_async(
            lambda: Seat.objects.filter(pk=_red(room).pk).update(seen_at=None)
        )()
        await asyncio.sleep(4 * services.live_setting("HEARTBEAT_SECONDS"))
        return await database_sync_to_async(lambda: _red(room).seen_at)()

    seen_after = asyncio.run(main())
    assert seen_after is None  # the heartbeat stopped with the connection
    assert _red(room).disconnected_at is not None
    _grace_runs_out(scheduled, room)
    red = _red(room)
    assert red.kind == Seat.Kind.COMPUTER and red.original == people[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_consumer_thread_lets_go")
def test_a_handler_that_raises_ends_the_connection_and_lets_the_seat_go(
    people, scheduled, monkeypatch
):
    room, _ = _human_room(people, scheduled)

    async def broken(self, event):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(consumers.RoomConsumer, "room_state", broken)

    async def main():
        comm = await _connect(room, people[0])
        await database_sync_to_async(services.seat_heartbeat)(room_id=room.pk, by=people[0])
        # a broadcast reaches the broken handler: the consumer dies of it
        await database_sync_to_async(lambda: services.timers.broadcast(room.pk))()
        await _until(lambda: _red(room).connections == 0)
        with pytest.raises(RuntimeError):
            await comm.wait(timeout=5)

    asyncio.run(main())
    _grace_runs_out(scheduled, room)
    assert _red(room).kind == Seat.Kind.COMPUTER


# --- after the end ----------------------------------------------------------------------------


def _play_to_the_end(room) -> Room:
    assert play_until(room, lambda game, legal: False, limit=20000) is None
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    return room


def _every_change_is_refused(room, users) -> None:
    fresh = Room.objects.get(pk=room.pk)
    for user in users:
        with pytest.raises(services.Refused, match="the game is over"):
            services.seat_leave(room=fresh, by=user)
        with pytest.raises(services.Refused, match="the game is over"):
            services.move_play(
                room_id=room.pk, by=user, move_number=room.move_number, choice=["B", 0]
            )
        for seat in fresh.seats.all():
            with pytest.raises(services.Refused, match="the game is over"):
                services.seat_take(room=fresh, by=user, colour=seat.colour)
    with pytest.raises(services.Refused, match="the game is over"):
        services.room_start(room=fresh, by=fresh.host)


@pytest.mark.django_db
@pytest.mark.parametrize("finish_first", [False, True])
def test_a_casual_game_s_end_is_not_rewritten_by_a_leave(people, scheduled, finish_first):
    room = services.room_create(host=people[0], mode="online", variant="quick")
    services.seat_take(room=room, by=people[0], colour="red")
    services.seat_take(room=room, by=people[1], colour="yellow")
    services.room_start(room=room, by=people[0])
    room = _play_to_the_end(room)
    log = services.room_log_text(room)
    if finish_first:
        services.room_finish(room_id=room.pk)
    _every_change_is_refused(room, people[:3])
    # a grace period and the sweep after the end change nothing either
    for user in people[:2]:
        services.seat_disconnected(room_id=room.pk, by=user)
    for _task, args, _delay in [c for c in scheduled if c[0] == "live.seat_grace"]:
        assert services.seat_grace_expire(room_id=args[0], user_id=args[1], since=args[2]) == 0
    assert services.seats_sweep() == 0
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert services.room_log_text(room) == log
    stored = room.game_log.content if hasattr(room.game_log, "content") else None
    assert '"red":"person0"' in (stored or log)
    assert services.room_log(room)["meta"]["seats"]["red"] == "person0"


@pytest.mark.django_db
@pytest.mark.parametrize("finish_first", [False, True])
def test_a_league_game_that_ended_counts_whatever_comes_after(scheduled, finish_first):
    """Both players leave after the last move — before the end-of-game task ran (a busy
    worker) or after: refused both times, and the game counts as the result it was."""
    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["carol"])
    services.seat_take(room=room, by=t["erin"], colour="black")
    services.seat_take(room=room, by=t["carol"], colour="red")
    room = _play_to_the_end(room)
    log = services.room_log_text(room)
    if finish_first:
        services.room_finish(room_id=room.pk)
    _every_change_is_refused(room, [t["erin"], t["carol"]])
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.result_note.startswith("counted as result"), room.result_note
    result = Result.objects.get(fixture=t["fixture"])
    assert room.result_note == f"counted as result {result.pk}"  # nobody named as gone
    assert Fixture.objects.get(pk=t["fixture"].pk).status != Fixture.Status.SCHEDULED
    assert services.room_log_text(room) == log
