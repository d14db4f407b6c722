"""The room consumer over channels' WebsocketCommunicator and the real Redis channel layer:
refused messages change nothing, a valid move reaches the player and the spectator, a
reconnect resumes exactly."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections

from live import services
from live.models import RoomEvent
from live.routing import websocket_urlpatterns
from tests.live.test_live_services import _human_room, _snapshot

pytestmark = pytest.mark.django_db(transaction=True)

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
def _consumer_thread_lets_go():
    """The consumer's database work runs in asgiref's one sync thread, whose connection
    would otherwise outlive the test database."""
    yield
    asyncio.run(database_sync_to_async(connections.close_all)())


def test_the_real_redis_channel_layer_is_used():
    assert type(get_channel_layer()).__name__ in ("RedisPubSubChannelLayer", "RedisChannelLayer")
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]


async def _connect(room, user):
    comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    state = await comm.receive_json_from(timeout=5)
    assert state["type"] == "state" and "events" not in state  # the page asks for them
    return comm, state


async def _events(comm, since):
    await comm.send_json_to({"type": "events", "since": since})
    while True:
        message = await comm.receive_json_from(timeout=5)
        if message["type"] == "events":
            return message


async def _next_state(comm, number):
    while True:
        message = await comm.receive_json_from(timeout=5)
        if message["type"] == "state" and message["move_number"] >= number:
            return message


def test_refused_messages_change_nothing_and_a_valid_move_reaches_everyone(people, scheduled):
    room, game = _human_room(people, scheduled)
    other = services.room_create(host=people[3])
    legal = game.legal_moves(room.die)
    good = [legal[0].from_, legal[0].to]
    before = _snapshot(room)

    async def main():
        red, state = await _connect(room, people[0])
        yellow, _ = await _connect(room, people[1])
        watcher, _ = await _connect(room, people[2])
        assert state["move_number"] == room.move_number and state["turn"] == "red"
        assert len((await _events(red, 0))["events"]) == room.move_number
        n = room.move_number
        refused = [
            (yellow, {"type": "move", "room": room.token, "move_number": n, "move": good}),
            (watcher, {"type": "move", "room": room.token, "move_number": n, "move": good}),
            (red, {"type": "move", "room": room.token, "move_number": n - 1, "move": good}),
            (red, {"type": "move", "room": room.token, "move_number": n, "move": [0, 99]}),
            (red, {"type": "move", "room": other.token, "move_number": n, "move": good}),
            (red, {"type": "dance", "room": room.token}),
            (red, ["not", "an", "object"]),
        ]
        for comm, message in refused:
            await comm.send_json_to(message)
            answer = await comm.receive_json_from(timeout=5)
            assert answer["type"] == "refused", (message, answer)
        assert await watcher.receive_nothing(timeout=0.2)
        move = {"type": "move", "room": room.token, "move_number": n, "move": good}
        await red.send_json_to(move)
        for comm in (red, yellow, watcher):
            state = await _next_state(comm, n + 1)
            assert state["last"]["move"] == good and state["last"]["number"] == n
        await red.send_json_to(move)  # the replayed message
        assert (await red.receive_json_from(timeout=5))["type"] == "refused"
        # a reconnect resumes exactly: the state, and the events it asks for
        await watcher.disconnect()
        watcher, again = await _connect(room, people[2])
        assert again["move_number"] == n + 1
        answer = await _events(watcher, 0)
        assert answer["since"] == 0 and not answer["more"]
        log = await database_sync_to_async(services.room_log)(room)
        by = await database_sync_to_async(
            lambda: list(
                RoomEvent.objects.filter(room=room).order_by("number").values_list("by", flat=True)
            )
        )()
        shown = [{k: v for k, v in e.items() if k != "by"} for e in answer["events"]]
        assert shown == log["events"]
        assert [e["by"] for e in answer["events"]] == by and by[-1] == "player"
        # from where it lacks them: the last two
        assert (await _events(yellow, n - 1))["events"] == answer["events"][n - 1 :]
        # asking again on the same connection is answered from where its last answer ended
        again_asked = await _events(watcher, 0)
        assert again_asked["since"] == n + 1 and again_asked["events"] == []
        await watcher.send_json_to({"type": "state"})  # the position and its version
        current = await watcher.receive_json_from(timeout=5)
        # the state it was sent last: "unchanged" with the version (test_live_abuse_costs.py)
        assert current["type"] == "unchanged" and current["move_number"] == n + 1
        for comm in (red, yellow, watcher):
            await comm.disconnect()

    nothing_changed = _snapshot(room)
    assert nothing_changed == before
    asyncio.run(main())
    assert RoomEvent.objects.filter(room=room).count() == before[0] + 1
    assert _snapshot(other)[0] == 0


def test_an_unknown_room_is_closed():
    async def main():
        comm = WebsocketCommunicator(APP, "/ws/live/nope/")
        connected, code = await comm.connect()
        assert not connected and code == 4404

    asyncio.run(main())


def test_frames_that_are_not_a_json_object_or_a_colour_are_refused_and_the_line_stays(people):
    room = services.room_create(host=people[0])

    async def main():
        comm, _ = await _connect(room, people[1])
        for frame in (
            {"text_data": json.dumps({"type": "take", "room": room.token, "colour": ["red"]})},
            {"text_data": json.dumps({"type": "take", "room": room.token, "colour": 7})},
            {"text_data": "{not json"},
            {"bytes_data": b"\x00\x01"},
        ):
            await comm.send_to(**frame)
            answer = await comm.receive_json_from(timeout=5)
            assert answer["type"] == "refused", (frame, answer)
        await comm.send_json_to({"type": "ping", "at": 1})
        assert (await comm.receive_json_from(timeout=5)) == {"type": "pong", "at": 1}
        await comm.disconnect()

    asyncio.run(main())
    assert not room.seats.filter(kind="human").exists()
