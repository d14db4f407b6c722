"""A flooding connection against a real Daphne server: closed with 4429 after its burst
although it never reads (config/daphne_limits.py: counted as Daphne parses its frames;
the consumer, behind the parser, never reached its limit), and the server goes on
serving another connection."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.contrib.auth import get_user_model
from websockets.exceptions import ConnectionClosed

from live import services
from tests.celery_worker import database_url_of_test_db
from tests.live.servers import Daphne, receive, ws_connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live_servers]


@pytest.fixture
def server():
    daphne = Daphne(
        database_url=database_url_of_test_db(),
        env={"LIVE_MESSAGES_PER_SECOND": "10", "LIVE_MESSAGE_BURST": "30"},
    )
    try:
        yield daphne.wait_ready()
    finally:
        daphne.stop()


def test_a_flood_that_never_reads_is_closed_with_4429_and_the_server_serves_on(server):
    host = get_user_model().objects.create_user("flood-host", password="x")
    room = services.room_create(host=host, mode="computer")

    async def scenario():
        flooder = await ws_connect(server.url, room.token)
        await receive(flooder)  # the state
        sent, code = 0, None
        deadline = time.monotonic() + 20
        try:
            while time.monotonic() < deadline:  # as fast as it can, never reading
                for _ in range(50):
                    await flooder.send('{"type": "ping", "at": 1}')
                sent += 50
                await asyncio.sleep(0)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
        other = await ws_connect(server.url, room.token)
        state = await receive(other)
        await other.close()
        return sent, code, state

    sent, code, state = asyncio.run(scenario())
    assert code == 4429, f"not closed for flooding after {sent} messages"
    assert state["type"] == "state" and state["room"] == room.token
