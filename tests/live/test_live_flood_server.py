"""A flooding connection against a real Daphne server: closed with 4429 after its burst
although it never reads (config/daphne_limits.py: counted as Daphne parses its frames;
the consumer, behind the parser, never reached its limit), and the server goes on
serving another connection. An address over its budget is not read until its debt is
paid: a change it sends behind a burst of reads is handled only after the pause."""

from __future__ import annotations

import asyncio
import contextlib
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


@pytest.fixture
def tight_address_server():
    daphne = Daphne(
        database_url=database_url_of_test_db(),
        env={
            "LIVE_MESSAGES_PER_SECOND": "1000",
            "LIVE_MESSAGE_BURST": "1000",
            "LIVE_MESSAGES_PER_ADDRESS": "10",
            "LIVE_ADDRESS_BURST": "20",
            "LIVE_ADDRESS_CONNECT_COST": "1",
            "LIVE_ADDRESS_MAX_PAUSE": "6",
        },
    )
    try:
        yield daphne.wait_ready()
    finally:
        daphne.stop()


def test_an_address_over_its_budget_is_not_read_until_its_debt_is_paid(tight_address_server):
    server = tight_address_server
    host = get_user_model().objects.create_user("abuse-host", password="x")
    room = services.room_create(host=host, mode="computer")

    async def scenario():
        ws = await ws_connect(server.url, room.token)
        await receive(ws)  # the state
        for i in range(100):  # a burst of reads, far over the address's 20
            await ws.send(f'{{"type": "ping", "at": {i}}}')
        pongs = []
        with contextlib.suppress(TimeoutError):  # what is answered of them
            while True:
                pongs.append((await receive(ws, timeout=1))["at"])
        # A frame already read is parsed whatever happens (a change in it is handled at once);
        # the pause holds back what is read after it. How the burst was cut into reads
        # depends on the machine's load, so one more read is sent on its own: the address
        # is deep in debt, so reading it pauses this socket for the longest pause, and the
        # change sent a second later waits in the kernel's buffer until the pause is over.
        await ws.send('{"type": "ping", "at": "probe"}')
        await asyncio.sleep(1)
        sent_at = time.monotonic()
        await ws.send(f'{{"type": "move", "room": "{room.token}", "move_number": 0}}')
        while (message := await receive(ws, timeout=40))["type"] == "pong":
            pongs.append(message["at"])
        took = time.monotonic() - sent_at
        await ws.close()
        return pongs, message, took

    pongs, refused, took = asyncio.run(scenario())
    assert pongs[:19] == list(range(19)), pongs  # the burst is answered
    assert len(pongs) < 90, pongs  # reads over the budget are dropped, not answered late
    assert refused["type"] == "refused"  # handled, once read
    # the socket was not read while the address was in debt (the probe put it at the deepest
    # debt, LIVE_ADDRESS_MAX_PAUSE = 6 s of its rate, a second before the change was sent)
    assert took > 2, f"the change was handled {took:.1f} s after it was sent"
