"""Two real ASGI servers (Daphne subprocesses, one Redis channel layer, one PostgreSQL)
serving one room: every roll applied once although both players send each move to both
servers at once; a killed server's clients reconnect to the other and the game goes on."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.contrib.auth import get_user_model

from games.engine import validate
from live import services
from live.models import Room, RoomEvent
from tests.celery_worker import database_url_of_test_db
from tests.live.servers import Daphne, receive, session_cookie, ws_connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live_servers]


@pytest.fixture
def servers():
    url = database_url_of_test_db()
    pair = [Daphne(database_url=url), Daphne(database_url=url)]
    try:
        for s in pair:
            s.wait_ready()
        yield pair
    finally:
        for s in pair:
            s.stop()


class Conn:
    """A WebSocket connection whose messages are read all the time (latest state kept)."""

    def __init__(self, ws):
        self.ws = ws
        self.states: list[dict] = []
        self.answers: list[dict] = []  # answers to "events"
        self.refusals: list[str] = []
        self.unchanged: list[dict] = []  # a state request answered: the last state is current
        self.closed = False
        self.task = asyncio.ensure_future(self._read())

    async def _read(self):
        try:
            while True:
                message = await receive(self.ws, timeout=120)
                if message["type"] == "state":
                    self.states.append(message)
                elif message["type"] == "events":
                    self.answers.append(message)
                elif message["type"] == "refused":
                    self.refusals.append(message["error"])
                elif message["type"] == "unchanged":
                    self.unchanged.append(message)
        except Exception:
            self.closed = True

    @property
    def state(self) -> dict:
        return self.states[-1]

    async def send(self, message):
        import json

        await self.ws.send(json.dumps(message))

    async def close(self):
        self.task.cancel()
        await self.ws.close()


def _seen_events(conn: Conn) -> dict[int, dict]:
    """Every event a connection was shown: the events it asked for, and each broadcast."""
    seen: dict[int, dict] = {}
    for answer in conn.answers:
        for i, ev in enumerate(answer["events"]):
            seen[answer["since"] + i] = {k: v for k, v in ev.items() if k != "by"}
    for state in conn.states:
        last = state.get("last")
        if last:
            seen[last["number"]] = {k: v for k, v in last.items() if k not in ("number", "by")}
    return seen


async def _until(predicate, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def _whole_state(conn: Conn) -> None:
    """Ask for the events it has not been answered yet (the log so far, as a page that sees
    a gap does) and the current state; wait until they have come."""
    since = max((a["since"] + len(a["events"]) for a in conn.answers), default=0)
    while True:
        asked = len(conn.answers)
        await conn.send({"type": "events", "since": since})
        await _until(lambda asked=asked: len(conn.answers) > asked, 30)
        answer = conn.answers[-1]
        since = answer["since"] + len(answer["events"])
        if not answer["more"]:
            break
    asked = len(conn.states) + len(conn.unchanged)
    await conn.send({"type": "state"})
    await _until(lambda: len(conn.states) + len(conn.unchanged) > asked, 30)
    if conn.unchanged and len(conn.states) + len(conn.unchanged) - 1 == asked:
        # "unchanged": the state this connection was sent last is the room's now
        assert conn.unchanged[-1]["move_number"] == conn.state["move_number"]


def test_two_servers_serve_one_room_without_a_double_move(servers):
    User = get_user_model()
    ann, ben = User.objects.create_user("ann"), User.objects.create_user("ben")
    room = services.room_create(host=ann, rules="league")
    services.seat_take(room=room, by=ann, colour="red")
    services.seat_take(room=room, by=ben, colour="yellow")
    cookies = {ann.pk: session_cookie(ann), ben.pk: session_cookie(ben)}
    a, b = servers

    async def main():
        conns = {}
        for who, cookie in (("ann", cookies[ann.pk]), ("ben", cookies[ben.pk]), ("watch", None)):
            conns[who] = [Conn(await ws_connect(s.url, room.token, cookie)) for s in (a, b)]
        await _until(lambda: all(c.states for cs in conns.values() for c in cs))
        await conns["ann"][0].send({"type": "start", "room": room.token})
        answered: set[tuple[str, int]] = set()
        colours = {"ann": "red", "ben": "yellow"}
        left = False

        def over():
            return conns["watch"][0].states[-1]["status"] == "finished"

        while not over():
            for who in ("ann", "ben"):
                st = max((c.state for c in conns[who]), key=lambda s: s["move_number"])
                n = st["move_number"]
                if (
                    not left
                    and st["status"] == "playing"
                    and st["turn"] == colours[who]
                    and len(st["legal"]) >= 2
                    and (who, n) not in answered
                ):
                    answered.add((who, n))
                    move = {
                        "type": "move",
                        "room": room.token,
                        "move_number": n,
                        "move": st["legal"][-1][:3],
                    }
                    await asyncio.gather(*(c.send(move) for c in conns[who]))
            if not left and conns["watch"][0].state["move_number"] >= 120:
                left = True  # both leave: the computers play on where the pawns stand
                await conns["ann"][1].send({"type": "leave", "room": room.token})
                await conns["ben"][0].send({"type": "leave", "room": room.token})
            await asyncio.sleep(0.005)
            assert time.monotonic() - started < 180, "the game did not end"
        # "finished" may overtake the last move's broadcast: each watcher asks for the
        # whole state, as a page that sees a gap does
        for w in conns["watch"]:
            await _whole_state(w)
        for cs in conns.values():
            for c in cs:
                await c.close()
        return conns, answered

    started = time.monotonic()
    conns, answered = asyncio.run(main())
    room.refresh_from_db()
    events = list(RoomEvent.objects.filter(room=room).order_by("number"))
    assert [e.number for e in events] == list(range(room.move_number))
    by_player = [e for e in events if e.by == "player"]
    assert answered and len(by_player) <= len(answered)
    refused = [r for cs in conns.values() for c in cs for r in c.refusals]
    assert len(refused) >= len(by_player)  # every move's second copy was refused
    log = services.room_log(room)
    verdict = validate(log)
    assert verdict["valid"] and verdict["complete"], verdict
    for watcher in conns["watch"]:  # a spectator on each server saw every move
        seen = _seen_events(watcher)
        assert [seen[i] for i in sorted(seen)] == log["events"]


def test_a_killed_server_clients_reconnect_to_the_other_and_the_game_goes_on(servers):
    host = get_user_model().objects.create_user("host")
    room = services.room_create(host=host, rules="online", variant="quick")
    cookie = session_cookie(host)
    a, b = servers

    async def main():
        player = Conn(await ws_connect(a.url, room.token, cookie))
        watcher = Conn(await ws_connect(a.url, room.token))
        await _until(lambda: player.states and watcher.states)
        await player.send({"type": "start", "room": room.token})
        await _until(lambda: watcher.state["move_number"] >= 25, timeout=60)
        a.kill()
        await _until(lambda: watcher.closed and player.closed, timeout=10)
        at_kill = watcher.state["move_number"]
        # the pages reconnect on their own; to the other server here
        watcher2 = Conn(await ws_connect(b.url, room.token))
        await _until(lambda: watcher2.states and watcher2.state["status"] == "finished", 120)
        # the room's "finished" (sent by the worker that stores the log) may overtake the
        # last move's broadcast; a page that sees a gap asks for the whole state, as here
        await _whole_state(watcher2)
        await watcher2.close()
        return at_kill, watcher, watcher2

    at_kill, before, after = asyncio.run(main())
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.move_number > at_kill
    log = services.room_log(room)
    verdict = validate(log)
    assert verdict["valid"], verdict
    assert room.end_reason in ("quick", "finished")
    seen = {**_seen_events(before), **_seen_events(after)}
    assert [seen[i] for i in sorted(seen)] == log["events"]
