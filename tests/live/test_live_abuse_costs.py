"""What one address can cost the other rooms (issue 33, the abuse target): a repeated
``state`` request is answered with a tiny "unchanged" frame, a room's events are read once
per process however many connections ask for them, and a connect costs the address's budget
several messages — a burst of connects waits, and one that would wait too long is refused."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.db.models import F

from live import consumers, services
from live.models import Room
from live.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture(autouse=True)
def _fresh_process_state():
    consumers._latest.clear()
    consumers._events_kept.clear()
    consumers._address_budget.clear()
    yield
    asyncio.run(database_sync_to_async(connections.close_all)())


def _played_room(people, rolls: int = 40) -> Room:
    room = services.room_create(host=people[0], mode="computer")
    room.seats.update(kind="computer", user=None)
    services.room_start(room=room, by=people[0])
    for _ in range(rolls):
        room.refresh_from_db()
        services.room_step(room_id=room.pk, move_number=room.move_number)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING and room.move_number == rolls
    return room


async def _connect(room, address=None):
    comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/")
    if address:
        comm.scope["client"] = (address, 4000)
    connected, code = await comm.connect(timeout=5)
    if not connected:
        return None, code
    state = await comm.receive_json_from(timeout=5)
    assert state["type"] == "state"
    return comm, state


def test_a_repeated_state_request_is_answered_unchanged_until_the_state_changes(
    people, scheduled, settings
):
    room = _played_room(people)

    async def main():
        comm, state = await _connect(room)
        await comm.send_to(text_data=json.dumps({"type": "state"}))
        same = await comm.receive_from(timeout=5)
        # the room changes without a broadcast reaching this connection (a lost one), and
        # the kept state is older than LIVE_STATE_CACHE_SECONDS: the whole state again
        await database_sync_to_async(
            lambda: Room.objects.filter(pk=room.pk).update(seats_version=F("seats_version") + 1)
        )()
        settings.LIVE = {**settings.LIVE, "STATE_CACHE_SECONDS": 0}
        await comm.send_json_to({"type": "state"})
        changed = await comm.receive_json_from(timeout=5)
        settings.LIVE = {**settings.LIVE, "STATE_CACHE_SECONDS": 60}
        await comm.send_json_to({"type": "state"})
        again = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return state, same, changed, again

    state, same, changed, again = asyncio.run(main())
    assert json.loads(same) == {
        "type": "unchanged",
        "move_number": state["move_number"],
        "seats_version": state["seats_version"],
    }
    assert len(same) < 100 < 1000 < len(json.dumps(state))
    assert changed["type"] == "state" and changed["seats_version"] == state["seats_version"] + 1
    assert again["type"] == "unchanged" and again["seats_version"] == changed["seats_version"]


def test_same_state_ignores_only_when_it_was_built():
    a = json.dumps({"type": "state", "move_number": 3, "applied_at": 1.5})
    b = json.dumps({"type": "state", "move_number": 3, "applied_at": 2.25})
    c = json.dumps({"type": "state", "move_number": 4, "applied_at": 1.5})
    assert consumers.same_state(a, b) and consumers.same_state(a, a)
    assert not consumers.same_state(a, c) and not consumers.same_state(None, a)
    # without the key nothing is taken as the same unless it is the very text
    assert not consumers.same_state('{"move_number": 3}', '{"move_number": 4}')


def test_a_rooms_events_are_read_once_however_many_connections_ask(people, scheduled, monkeypatch):
    room = _played_room(people)
    reads = []
    real = services.room_event_texts_since

    def counted(room_id, since, limit):
        reads.append((since, limit))
        return real(room_id, since, limit)

    monkeypatch.setattr(services, "room_event_texts_since", counted)
    log = services.room_log(room)["events"]

    async def main():
        comms = [(await _connect(room))[0] for _ in range(5)]
        for comm in comms:  # all at once, as a burst of connects asks
            await comm.send_json_to({"type": "events", "since": 0})
        answers = [await comm.receive_json_from(timeout=5) for comm in comms]
        late = await comms[0].receive_nothing(timeout=0.1)
        for comm in comms:
            await comm.disconnect()
        return answers, late

    answers, _ = asyncio.run(main())
    assert len(reads) == 1  # one read for five connections
    for answer in answers:
        assert answer["type"] == "events" and answer["since"] == 0 and not answer["more"]
        assert [{k: v for k, v in e.items() if k != "by"} for e in answer["events"]] == log
        assert all(e["by"] in ("computer", "auto") for e in answer["events"])

    # the room moves on: only the new events are read, from where the kept ones end
    drive_two = Room.objects.get(pk=room.pk)
    for _ in range(2):
        services.room_step(room_id=room.pk, move_number=drive_two.move_number)
        drive_two.refresh_from_db()

    async def later():
        comm, _ = await _connect(room)
        await comm.send_json_to({"type": "events", "since": 38})
        answer = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return answer

    answer = asyncio.run(later())
    assert len(reads) == 2 and reads[1][0] == 40  # only the events after the kept 40
    assert len(answer["events"]) == 4
    assert [{k: v for k, v in e.items() if k != "by"} for e in answer["events"]] == (
        services.room_log(drive_two)["events"][38:]
    )


def test_a_connect_costs_the_address_budget_waits_for_it_and_is_refused_past_the_wait(
    settings,
):
    settings.LIVE = {
        **settings.LIVE,
        "MESSAGES_PER_ADDRESS": 10,
        "ADDRESS_BURST": 10,
        "ADDRESS_CONNECT_COST": 5,
        "ADDRESS_CONNECT_WAIT": 1,
    }
    waits = [consumers.address_connect_wait("10.0.0.9") for _ in range(5)]
    assert waits[:2] == [(0.0, True), (0.0, True)]  # the burst: two connects at once
    assert waits[2][1] and waits[2][0] == pytest.approx(0.5, abs=0.05)
    assert waits[3][1] and waits[3][0] == pytest.approx(1.0, abs=0.05)
    assert waits[4] == (1.0, False)  # it would wait 1.5 s: held 1 s, then refused
    assert consumers.address_over("10.0.0.9")  # in debt: the address's reads are dropped
    assert consumers.address_connect_wait("10.0.0.10") == (0.0, True)  # another address
    assert consumers.address_connect_wait(None) == (0.0, True)
    settings.LIVE = {**settings.LIVE, "MESSAGES_PER_ADDRESS": 0}
    assert consumers.address_connect_wait("10.0.0.9") == (0.0, True)  # no limit


def test_every_frame_is_charged_into_debt_down_to_the_longest_pause(settings):
    settings.LIVE = {
        **settings.LIVE,
        "MESSAGES_PER_ADDRESS": 10,
        "ADDRESS_BURST": 3,
        "ADDRESS_MAX_PAUSE": 2,
    }
    left = [consumers.address_charge("10.0.0.11") for _ in range(40)]
    assert left[:3] == pytest.approx([2, 1, 0], abs=0.01)
    assert left[3] == pytest.approx(-1, abs=0.01)  # over: -left / rate seconds unread
    assert min(left) == pytest.approx(-20, abs=0.01)  # at most 2 s of the rate in debt
    assert consumers.address_charge("10.0.0.12") == pytest.approx(2, abs=0.01)
    assert consumers.address_charge(None) == float("inf")


def test_a_connect_over_the_address_budget_is_closed_before_it_reads_anything(people, settings):
    settings.LIVE = {
        **settings.LIVE,
        "MESSAGES_PER_ADDRESS": 0.01,
        "ADDRESS_BURST": 5,
        "ADDRESS_CONNECT_COST": 5,
        "ADDRESS_CONNECT_WAIT": 0.2,
    }
    room = services.room_create(host=people[0])

    async def main():
        first, _ = await _connect(room, "10.0.0.3")
        refused, code = await _connect(room, "10.0.0.3")
        other, _ = await _connect(room, "10.0.0.4")
        await first.disconnect()
        await other.disconnect()
        return refused, code

    refused, code = asyncio.run(main())
    assert refused is None and code == consumers.CLOSE_TOO_MANY
