"""A Redis outage is a few one-line warnings, not tracebacks (issue 33, point 7: one Redis
restart left about 200 tracebacks in a server's log): broadcasts, a connection that cannot
subscribe, the process's timer, the worker's tasks; and the logging filter that shortens
the libraries' own records of such an outage."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.expected_errors import OneLineExpectedErrors
from live import consumers, dispatch, services, tasks
from live.routing import websocket_urlpatterns
from tests.processes import free_port

APP = URLRouter(websocket_urlpatterns)


@pytest.fixture
def redis_down(settings):
    """The channel layer pointed at a Redis that is not there (connections refused)."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"], "prefix": "down"},
        }
    }
    dispatch._sender = None  # a sender loop of its own for the dead layer
    yield
    dispatch._sender = None


@pytest.fixture(autouse=True)
def not_stuck():
    """No test leaves the process taking Redis for hung (``dispatch._stuck``)."""
    yield
    dispatch._stuck.clear()
    dispatch._timed_out = 0


def _one_line_warnings(caplog, name: str) -> list[logging.LogRecord]:
    records = [r for r in caplog.records if r.name.startswith(name)]
    assert records, f"nothing logged by {name}"
    for r in records:
        assert r.exc_info is None and r.exc_text is None, r.getMessage()
        assert r.levelno == logging.WARNING and "\n" not in r.getMessage(), r.getMessage()
    return records


def _wait_for_sends() -> None:
    deadline = time.monotonic() + 30
    while dispatch._pending and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)  # the callback that logs runs just after the send ends


def test_a_broadcast_during_an_outage_is_one_warning(redis_down, caplog):
    caplog.set_level(logging.WARNING)
    dispatch.group_send("room.1", {"type": "room.state", "state": {}})
    _wait_for_sends()
    (record,) = _one_line_warnings(caplog, "live.dispatch")
    assert "broadcast to room.1 failed" in record.getMessage()
    assert "onnect" in record.getMessage()  # the error's own words: connection refused


def test_a_hung_redis_does_not_hold_the_thread_that_broadcasts(monkeypatch, caplog):
    """Redis accepts and never answers (a hang): the move's thread goes on without the
    send, which gives up by itself with one warning; the rooms keep moving meanwhile."""
    caplog.set_level(logging.WARNING)
    release, finished = threading.Event(), threading.Event()

    class HungLayer:
        async def group_send(self, group, message):
            try:
                while not release.is_set():
                    await asyncio.sleep(0.01)
            finally:
                finished.set()

    monkeypatch.setattr(dispatch, "get_channel_layer", lambda: HungLayer())
    monkeypatch.setattr(dispatch, "BROADCAST_WAIT", 0.05)
    monkeypatch.setattr(dispatch, "SEND_TIMEOUT", 0.3)
    dispatch.group_send("room.9", {"type": "room.state", "state": {}})
    assert not finished.is_set() and dispatch._pending == 1  # returned; the send goes on
    _wait_for_sends()
    assert dispatch._pending == 0
    (record,) = _one_line_warnings(caplog, "live.dispatch")
    assert "broadcast to room.9 failed" in record.getMessage()
    release.set()


def _hang_the_layer(monkeypatch) -> threading.Event:
    """The channel layer hangs (every send waits) until the returned event is set."""
    release = threading.Event()

    class HungLayer:
        async def group_send(self, group, message):
            while not release.is_set():
                await asyncio.sleep(0.01)

    monkeypatch.setattr(dispatch, "get_channel_layer", lambda: HungLayer())
    return release


def test_while_redis_hangs_no_thread_waits_for_a_broadcast_again(monkeypatch):
    """Once a send has outlasted BROADCAST_WAIT, the next broadcasts do not wait at all
    until a send gets through: a timer thread waiting for every move it made kept every
    room late by up to 9 s in a 20 s hang (bench/online.py --phases faults)."""
    release = _hang_the_layer(monkeypatch)
    monkeypatch.setattr(dispatch, "BROADCAST_WAIT", 0.05)
    monkeypatch.setattr(dispatch, "SEND_TIMEOUT", 30)
    dispatch._stuck.clear()
    dispatch.group_send("room.9", {"type": "room.state", "state": {}})  # waits, in vain
    monkeypatch.setattr(dispatch, "BROADCAST_WAIT", 60)
    thread = threading.Thread(target=dispatch.group_send, args=("room.9", {"type": "x"}))
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "a broadcast waited for a Redis known to hang"
    release.set()  # Redis answers again: the sends get through, and the next one waits
    _wait_for_sends()
    assert not dispatch._stuck.is_set()


def test_a_hang_is_two_lines_however_many_broadcasts_time_out(monkeypatch, caplog):
    """A 20 s hang timed out 310 broadcasts, a warning each (bench/online.py --phases
    faults): now one line when the first times out, one when a send gets through again."""
    caplog.set_level(logging.WARNING)
    release = _hang_the_layer(monkeypatch)
    monkeypatch.setattr(dispatch, "BROADCAST_WAIT", 0.01)
    monkeypatch.setattr(dispatch, "SEND_TIMEOUT", 0.1)
    for n in range(5):
        dispatch.group_send(f"room.{n}", {"type": "room.state", "state": {}})
    _wait_for_sends()
    release.set()
    dispatch.group_send("room.9", {"type": "room.state", "state": {}})
    _wait_for_sends()
    first, again = _one_line_warnings(caplog, "live.dispatch")
    assert "broadcast to room.0 failed" in first.getMessage()
    assert "get through again; 5 timed out" in again.getMessage()


@pytest.mark.django_db(transaction=True)
def test_a_connection_that_cannot_subscribe_is_closed_with_one_warning(people, redis_down, caplog):
    caplog.set_level(logging.WARNING)
    room = services.room_create(host=people[0])

    async def main():
        comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/")
        comm.scope["user"] = people[1]
        connected, code = await comm.connect(timeout=10)
        await database_sync_to_async(connections.close_all)()
        return connected, code

    connected, code = asyncio.run(main())
    assert not connected and code == consumers.CLOSE_UNAVAILABLE
    records = _one_line_warnings(caplog, "live.consumers")
    assert any("could not" in r.getMessage() for r in records)


def test_the_timer_and_the_worker_s_tasks_log_an_outage_in_one_line(monkeypatch, caplog):
    caplog.set_level(logging.WARNING)

    def down(**kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(services, "room_step", down)
    monkeypatch.setattr(services, "seats_sweep", down)
    assert tasks.room_step.run(1, 0) is None  # the worker's task: no exception for Celery
    assert tasks.rooms_sweep.run() is None
    dispatch._Timer._call("live.room_step", [1, 0])  # the process's own timer
    records = _one_line_warnings(caplog, "live.")
    assert len(records) == 3
    assert all("Error 111" in r.getMessage() for r in records)


def test_a_bug_keeps_its_traceback(monkeypatch, caplog):
    def bug(**kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(services, "room_step", bug)
    with pytest.raises(KeyError):
        tasks.room_step.run(1, 0)
    caplog.set_level(logging.WARNING)
    dispatch._Timer._call("live.room_step", [1, 0])
    (record,) = [r for r in caplog.records if r.name == "live.dispatch"]
    assert record.exc_info is not None and record.levelno == logging.ERROR


def test_the_filter_shortens_the_libraries_records_of_an_outage():
    shorten = OneLineExpectedErrors()
    try:
        raise redis.exceptions.ConnectionError("Connection reset by peer")
    except redis.exceptions.ConnectionError:
        import sys

        outage = logging.LogRecord(
            "daphne.server",
            logging.ERROR,
            "",
            0,
            "Exception inside application: %s",
            ("x",),
            sys.exc_info(),
        )
    assert shorten.filter(outage)
    assert outage.exc_info is None
    assert outage.getMessage() == (
        "Exception inside application: x "
        "(redis.exceptions.ConnectionError: Connection reset by peer)"
    )
    try:
        raise ValueError("a bug")
    except ValueError:
        import sys

        bug = logging.LogRecord("daphne.server", logging.ERROR, "", 0, "boom", None, sys.exc_info())
    assert shorten.filter(bug) and bug.exc_info is not None
