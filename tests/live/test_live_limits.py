"""Limits per connection and a receive() that never dies: a frame too large, JSON nested too
deep and a flood of messages close the connection with their own close code and change
nothing; a service that fails (a bug, a broker outage) is answered with a refusal and the
connection stays; a signed-in connection marks its seats alive (the heartbeat)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from live import consumers, services
from live.models import RoomEvent, Seat
from live.routing import websocket_urlpatterns
from tests.live.test_live_services import _human_room, _snapshot

pytestmark = pytest.mark.django_db(transaction=True)

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
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


async def _closed_with(comm) -> int:
    """Read until the server closes; the close code."""
    while True:
        out = await comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return out.get("code")


def test_json_nested_too_deep_closes_with_4400_and_changes_nothing(people, scheduled):
    room, _ = _human_room(people, scheduled)
    before = _snapshot(room)
    deep = "[" * 1000 + "]" * 1000  # 2,000 bytes: within the frame limit

    async def main():
        comm = await _connect(room, people[0])
        await comm.send_to(text_data=deep)
        return await _closed_with(comm)

    assert asyncio.run(main()) == consumers.CLOSE_TOO_DEEP
    assert _snapshot(room) == before


def test_a_frame_too_large_closes_with_4413(people, scheduled):
    room, _ = _human_room(people, scheduled)
    before = _snapshot(room)

    async def main():
        comm = await _connect(room, people[0])
        await comm.send_to(text_data="[" * 2000 + "]" * 2000)  # the 4 KB frame
        return await _closed_with(comm)

    assert asyncio.run(main()) == consumers.CLOSE_TOO_LARGE
    assert _snapshot(room) == before


def test_a_flood_of_messages_closes_with_4429_after_the_burst(people, scheduled):
    room, _ = _human_room(people, scheduled)

    async def main():
        comm = await _connect(room, None)  # an anonymous spectator
        answered = 0
        for i in range(200):
            await comm.send_json_to({"type": "ping", "at": i})
        while True:
            out = await comm.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                return answered, out.get("code")
            answered += 1

    answered, code = asyncio.run(main())
    assert code == consumers.CLOSE_TOO_MANY
    assert 25 <= answered <= 40  # the burst (30), and what refilled meanwhile


def test_a_service_that_fails_is_refused_and_the_connection_stays(people, scheduled, monkeypatch):
    room, game = _human_room(people, scheduled)
    before = _snapshot(room)
    legal = game.legal_moves(room.die)

    def broken(**kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(services, "move_play", broken)

    async def main():
        comm = await _connect(room, people[0])
        move = [legal[0].from_, legal[0].to]
        await comm.send_json_to(
            {"type": "move", "room": room.token, "move_number": room.move_number, "move": move}
        )
        refused = await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"type": "ping", "at": 7})
        pong = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return refused, pong

    refused, pong = asyncio.run(main())
    assert refused["type"] == "refused" and "try again" in refused["error"]
    assert pong == {"type": "pong", "at": 7}
    assert _snapshot(room) == before


def test_a_move_during_a_broker_outage_commits_and_reaches_everyone(
    people, scheduled, monkeypatch, settings
):
    """With the steps as Celery tasks (``LIVE_STEPS=celery``), the move's next step cannot
    be sent: it is logged (the sweep repairs it), the move stands and its broadcast goes
    out; the connection is not harmed."""
    from celery import current_app

    settings.LIVE = {**settings.LIVE, "STEPS": "celery"}

    room, game = _human_room(people, scheduled)
    legal = game.legal_moves(room.die)
    number = room.move_number
    monkeypatch.setattr("live.services.timers.later", __import__("live.dispatch").dispatch.later)
    monkeypatch.setattr("live.dispatch._eager", lambda: False)

    def down(*args, **kwargs):
        raise ConnectionRefusedError("the broker is down")

    monkeypatch.setattr(current_app, "send_task", down)

    async def main():
        red = await _connect(room, people[0])
        watcher = await _connect(room, people[2])
        await red.send_json_to(
            {
                "type": "move",
                "room": room.token,
                "move_number": number,
                "move": [legal[0].from_, legal[0].to],
            }
        )
        while True:
            seen = await watcher.receive_json_from(timeout=5)
            if seen["type"] == "state" and seen["move_number"] == number + 1:
                break
        await red.send_json_to({"type": "ping", "at": 1})
        while (await red.receive_json_from(timeout=5))["type"] != "pong":
            pass
        await red.disconnect()
        await watcher.disconnect()

    asyncio.run(main())
    assert RoomEvent.objects.filter(room=room).count() == number + 1


def test_a_signed_in_connection_marks_its_seats_alive(people, scheduled):
    room, _ = _human_room(people, scheduled)
    Seat.objects.filter(room=room).update(seen_at=None)

    async def main():
        comm = await _connect(room, people[0])
        await asyncio.sleep(1.3)  # test heartbeat: 0.5 s
        first = await database_sync_to_async(
            lambda: Seat.objects.get(room=room, colour="red").seen_at
        )()
        await asyncio.sleep(0.8)
        second = await database_sync_to_async(
            lambda: Seat.objects.get(room=room, colour="red").seen_at
        )()
        await comm.disconnect()
        return first, second

    first, second = asyncio.run(main())
    assert first is not None and second > first
    assert Seat.objects.get(room=room, colour="yellow").seen_at is None  # not person0's


def test_json_depth_counts_brackets_outside_strings_only():
    assert not consumers.json_depth_over(json.dumps({"a": "[[[[[[[[[["}), 2)
    assert consumers.json_depth_over('{"a": [[[1]]]}', 3)
    assert not consumers.json_depth_over('{"a": [[1]], "b": [[2]]}', 3)
    assert not consumers.json_depth_over('{"a": "\\"[[[[["}', 1)


def test_with_live_steps_process_a_step_runs_on_the_own_timer_even_with_a_broker(
    monkeypatch, settings
):
    """LIVE_STEPS=process: the step and grace tasks go to this process's timer, the end of
    a game still to the broker (docs/live.md, "Where timers run")."""
    from celery import current_app

    from live import dispatch

    sent, timed = [], []
    monkeypatch.setattr(dispatch, "_eager", lambda: False)
    monkeypatch.setattr(current_app, "send_task", lambda task, **kw: sent.append(task))

    class Timer:
        def add(self, at, task, args):
            timed.append(task)

    monkeypatch.setattr(dispatch, "_timer", Timer)
    settings.LIVE = {**settings.LIVE, "STEPS": "process"}
    dispatch.later("live.room_step", [1, 0], 0.5)
    dispatch.later("live.room_finish", [1], 0)
    assert timed == ["live.room_step"] and sent == ["live.room_finish"]
    settings.LIVE = {**settings.LIVE, "STEPS": "celery"}
    dispatch.later("live.room_step", [1, 1], 0.5)
    assert sent == ["live.room_finish", "live.room_step"]
