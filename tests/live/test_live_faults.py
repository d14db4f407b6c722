"""Faults in the production setup (a Celery worker with beat, a Daphne server, PostgreSQL,
and a Redis of the test's own for the broker and the channel layer): after a Redis restart,
a worker killed or a server killed, every room moves again within 30 s and no roll is
applied twice (issue 23). Only the processes this test started are killed; the Redis is
its own, on a free port (never the shared 6379 nor another engineer's)."""

from __future__ import annotations

import asyncio
import itertools
import os
import time

import pytest
from django.conf import settings
from django.db.models import Count, Max, Min

from live import services
from live.models import Room, RoomEvent, Seat, TimerOwner
from tests.celery_worker import database_url_of_test_db
from tests.live.servers import Daphne, receive, session_cookie, ws_connect
from tests.processes import REPO_ROOT, CeleryWorker, RedisServer

pytestmark = [pytest.mark.live_servers, pytest.mark.django_db(transaction=True)]

RECOVERY = 30.0  # seconds: every room moves again within this after a fault


def worker_with_beat(env: dict[str, str]) -> CeleryWorker:
    """``celery -A config worker -B``: the steps and timers, and beat's sweep."""
    port = env["FAULT_PORT"]
    return CeleryWorker(
        env,
        log_path=REPO_ROOT / "var" / f"worker-{port}.log",
        beat_schedule=REPO_ROOT / "var" / f"beat-{port}",
    )


@pytest.fixture(params=["process", "celery"])
def production(request, transactional_db, scheduled):
    """Its own Redis, a worker with beat and a Daphne server on them, the rooms' steps on
    the processes' own timers (``LIVE_STEPS=process``, the default) or as Celery tasks with
    a countdown (``celery``). The test process itself schedules nothing (``scheduled``):
    the rooms it starts are picked up by the sweep, the first proof that it works."""
    redis = RedisServer().wait_ready()
    env = _fault_env(redis.port, request.param)
    started = {"redis": redis, "worker": worker_with_beat(env)}
    daphne = Daphne(database_url=env["DATABASE_URL"], env=env)
    started["daphne"] = daphne
    try:
        daphne.wait_ready()
        yield started, env
    finally:
        for process in started.values():
            process.stop()


def _fault_env(port: int, steps: str) -> dict[str, str]:
    env = os.environ.copy()
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        TEST_CELERY_WORKER="1",
        TEST_CELERY_BROKER_URL=f"redis://127.0.0.1:{port}/0",
        CHANNEL_LAYER_URL=f"redis://127.0.0.1:{port}/1",
        DATABASE_URL=database_url_of_test_db(),
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
        FAULT_PORT=str(port),
        # the production pauses: a process waits for a room's next step most of the time
        # (with LIVE_STEPS=celery the worker waits holding it as a countdown task, as a
        # production worker holds turn timers: the state a Redis restart used to kill)
        LIVE_COMPUTER_PAUSE="0.8",
        LIVE_AUTO_PAUSE="0.8",
        LIVE_STEPS=steps,
    )
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def _rooms(host, n: int = 3) -> list[int]:
    ids = []
    for _ in range(n):
        room = services.room_create(host=host, mode="online", strength="random")
        services.room_start(room=room, by=host)
        ids.append(room.pk)
    return ids


def _numbers(ids: list[int]) -> dict[int, int]:
    return dict(Room.objects.filter(pk__in=ids).values_list("pk", "move_number"))


def _all_move(ids: list[int], *, by: int = 3, within: float = RECOVERY) -> float:
    """Seconds until every playing room has applied ``by`` more rolls (a finished room
    counts as moved); fails after ``within``."""
    start = time.monotonic()
    before = _numbers(ids)
    while True:
        now = _numbers(ids)
        finished = set(
            Room.objects.filter(pk__in=ids)
            .exclude(status=Room.Status.PLAYING)
            .values_list("pk", flat=True)
        )
        if all(now[i] >= before[i] + by or i in finished for i in ids):
            return time.monotonic() - start
        elapsed = time.monotonic() - start
        assert elapsed < within, f"rooms stuck {elapsed:.0f}s: {before} → {now}"
        time.sleep(0.2)


def _no_roll_twice(ids: list[int]) -> None:
    """Every room's events are numbered without a gap or a repeat, up to its move number.
    The rooms may still be moving: one aggregate reads the events at one instant, and the
    room row read before it can only be behind."""
    for room in Room.objects.filter(pk__in=ids):
        seen = RoomEvent.objects.filter(room=room).aggregate(
            rows=Count("id"),
            numbers=Count("number", distinct=True),
            low=Min("number"),
            high=Max("number"),
        )
        assert seen["rows"] == seen["numbers"], f"a roll applied twice in room {room.pk}"
        assert seen["rows"] >= room.move_number
        if seen["rows"]:
            assert seen["high"] - seen["low"] + 1 == seen["rows"], f"a gap in room {room.pk}"


def test_a_redis_restart_every_room_moves_again(production, people):
    started, _env = production
    ids = _rooms(people[0])
    _all_move(ids, within=60)  # the sweep picks the rooms up, the worker's timers go on
    redis = started["redis"]
    redis.kill()  # the broker with every pending countdown, and the channel layer, gone
    time.sleep(1)
    started["redis"] = RedisServer(redis.port).wait_ready()
    took = _all_move(ids)
    # the worker reconnected: it did not die on the lost connection (with its beat)
    assert started["worker"].process.poll() is None, f"see {started['worker'].log_path}"
    print(f"after the Redis restart every room moved again within {took:.1f}s")
    _no_roll_twice(ids)


def test_a_killed_worker_every_room_moves_again(production, people):
    started, env = production
    ids = _rooms(people[0])
    _all_move(ids, within=60)
    started["worker"].kill()  # its reserved countdown tasks die with it (acked late: 600 s)
    started["worker"] = worker_with_beat(env)
    took = _all_move(ids)
    print(f"after the worker kill every room moved again within {took:.1f}s")
    _no_roll_twice(ids)


def test_a_killed_server_frees_its_players_seats_and_the_room_moves(production, people):
    started, _env = production
    room = services.room_create(host=people[0], mode="online", turn_seconds=600)
    services.seat_take(room=room, by=people[1], colour="red")
    services.room_start(room=room, by=people[0])
    daphne = started["daphne"]

    cookie = session_cookie(people[1])

    async def connect_and_wait():
        ws = await ws_connect(daphne.url, room.token, cookie)
        await receive(ws)
        await asyncio.sleep(2)  # a few heartbeats
        return ws

    asyncio.run(connect_and_wait())
    seat = Seat.objects.get(room=room, colour="red")
    assert seat.kind == Seat.Kind.HUMAN and seat.connections >= 1
    daphne.kill()  # its connections are never reported closed
    start = time.monotonic()
    while Seat.objects.get(room=room, colour="red").kind != Seat.Kind.COMPUTER:
        assert time.monotonic() - start < RECOVERY, "the dead server's seat is still held"
        time.sleep(0.2)
    took = _all_move([room.pk], within=RECOVERY - (time.monotonic() - start))
    print(
        f"after the server kill the seat was freed and the room moved within "
        f"{time.monotonic() - start:.1f}s ({took:.1f}s after the seat)"
    )
    _no_roll_twice([room.pk])


# --- issue 33, item 4: the timer owners' lease -------------------------------------------

#: the documented bound (docs/live.md, "Issue 33, item 4"): a step whose timer owner died
#: fires at most LIVE_SWEEP_AFTER (the lease) + LIVE_SWEEP_SECONDS (an owner's tick, the
#: sweep's interval) late — 3 s with the test settings — plus the step's own work, which
#: on a machine shared by other test runs is given one more second
LEASE_BOUND = settings.LIVE["SWEEP_AFTER"] + settings.LIVE["SWEEP_SECONDS"]
WORK = 1.0


@pytest.fixture
def owners(transactional_db, scheduled):
    """Its own Redis, a worker with beat, and Daphne servers added by the test (``add``),
    the steps on the servers' timers (``LIVE_STEPS=process``): each server is a timer
    owner. The test process schedules nothing: its rooms are adopted by an owner."""
    yield from _owner_processes({})


@pytest.fixture
def long_lease_owners(transactional_db, scheduled):
    """``owners`` with a lease of 60 s (LIVE_SWEEP_AFTER, the worker's too: its sweep steps
    no room within it)."""
    yield from _owner_processes({"LIVE_SWEEP_AFTER": "60"})


def _owner_processes(extra: dict[str, str]):
    redis = RedisServer().wait_ready()
    env = {**_fault_env(redis.port, "process"), **extra}
    started: dict[str, object] = {"redis": redis, "worker": worker_with_beat(env)}

    def add(key: str) -> Daphne:
        daphne = Daphne(database_url=env["DATABASE_URL"], env=env)
        started[key] = daphne
        return daphne.wait_ready()

    try:
        yield started, add
    finally:
        for process in started.values():
            process.stop()


def _owner_of(daphne: Daphne, within: float = 15.0) -> str:
    """The timer-owner name of a server (its pid is in it), once its lease is written."""
    start = time.monotonic()
    while True:
        for name in TimerOwner.objects.values_list("name", flat=True):
            if name.split(":")[-2] == str(daphne.process.pid):
                return name
        assert time.monotonic() - start < within, "the server never took a lease"
        time.sleep(0.1)


def _all_owned_by(ids: list[int], name: str, within: float) -> float:
    start = time.monotonic()
    while True:
        owners = dict(
            Room.objects.filter(pk__in=ids, status=Room.Status.PLAYING).values_list(
                "pk", "timer_owner"
            )
        )
        if all(owner == name for owner in owners.values()):
            return time.monotonic() - start
        elapsed = time.monotonic() - start
        assert elapsed < within, f"rooms not back on {name} after {elapsed:.1f}s: {owners}"
        time.sleep(0.1)


def test_rooms_go_back_to_a_server_and_a_killed_worker_freezes_none(owners, people):
    """The issue's fault: with no server alive the worker's sweep moves the rooms and keeps
    them on its own timer; a server that comes back adopts them all, so killing the worker
    (and not restarting it: no sweep any more) stalls no room."""
    started, add = owners
    first = add("first")
    ids = _rooms(people[0], 4)
    _all_owned_by(ids, _owner_of(first), within=LEASE_BOUND + 5)
    _all_move(ids, within=60)
    first.kill()
    # no owner: the worker's sweep steps the rooms and holds them on its own timer
    took = _all_move(ids, by=4)
    print(f"with no server the worker's sweep moved every room within {took:.1f}s")
    second = add("second")
    back = _all_owned_by(ids, _owner_of(second), within=LEASE_BOUND + 5)
    print(f"every room back on the new server's timer {back:.1f}s after its lease")
    started["worker"].kill()  # no worker, no beat, no sweep from now on
    took = _all_move(ids, by=4, within=10)
    print(f"after the worker kill every room moved on within {took:.1f}s")
    playing = Room.objects.filter(pk__in=ids, status=Room.Status.PLAYING)
    assert set(playing.values_list("timer_owner", flat=True)) <= {_owner_of(second)}
    _no_roll_twice(ids)


def test_a_killed_timer_owner_its_timers_fire_within_the_bound(owners, people):
    """Two servers; a room with a person who never answers (every choice runs out its
    2-second turn timer) and computers. The server holding the room's timer is killed: the
    other adopts the room when the dead one's lease has run out, and no step — the turn
    timer's or a pause's — fires later than the documented bound."""
    _started, add = owners
    servers = {"a": add("a"), "b": add("b")}
    names = {key: _owner_of(daphne) for key, daphne in servers.items()}
    rooms = []
    for _ in range(3):
        room = services.room_create(host=people[0], mode="online", turn_seconds=2)
        services.seat_take(room=room, by=people[1], colour="red")
        services.room_start(room=room, by=people[0])
        rooms.append(room.pk)
    _all_move(rooms, within=60)
    owned = dict(Room.objects.filter(pk__in=rooms).values_list("pk", "timer_owner"))
    victim = max(names, key=lambda key: sum(owner == names[key] for owner in owned.values()))
    ids = [pk for pk, owner in owned.items() if owner == names[victim]]
    assert ids, f"no room on a server's timer: {owned}"
    survivor = next(key for key in names if key != victim)
    killed_at = max(
        RoomEvent.objects.filter(room_id__in=ids).values_list("id", flat=True), default=0
    )
    servers[victim].kill()
    _all_owned_by(ids, names[survivor], within=LEASE_BOUND + 5)
    _all_move(ids, by=3)
    pause = {"computer": 0.8, "auto": 0.8, "timeout": 2.0}
    late = []
    for pk in ids:
        events = list(
            RoomEvent.objects.filter(room_id=pk).order_by("number").values_list("id", "data", "by")
        )
        for (_, before, _), (event_id, data, by) in itertools.pairwise(events):
            if event_id > killed_at:
                late.append(data["t"] - before["t"] - pause[by])
    assert late, "no step after the kill"
    print(
        f"after the timer owner's kill: {len(late)} steps, the latest {max(late):.2f}s late "
        f"(bound {LEASE_BOUND:.0f}s + {WORK:.0f}s of work)"
    )
    assert max(late) <= LEASE_BOUND + WORK
    _no_roll_twice(ids)


def test_a_killed_owners_rooms_move_on_long_before_its_lease_ends(long_lease_owners, people):
    """Issue 33's fault target, every room moving again within 10 s of a server's kill:
    with a lease of 60 s, the rooms of a killed timer owner are adopted by the other server
    within seconds — the killed process's database session, and with it its lock, ended
    with it (before: nothing moved them until its lease had run out)."""
    _started, add = long_lease_owners
    servers = {"a": add("a"), "b": add("b")}
    names = {key: _owner_of(daphne) for key, daphne in servers.items()}
    ids = _rooms(people[0], 4)
    _all_move(ids, within=60)
    owned = dict(Room.objects.filter(pk__in=ids).values_list("pk", "timer_owner"))
    victim = max(names, key=lambda key: sum(owner == names[key] for owner in owned.values()))
    survivor = next(key for key in names if key != victim)
    servers[victim].kill()
    adopted = _all_owned_by(ids, names[survivor], within=10)
    took = _all_move(ids, by=3, within=10)
    print(
        f"after the owner's kill (lease 60 s) its rooms were adopted within {adopted:.1f}s "
        f"and all moved 3 rolls {took:.1f}s later"
    )
    _no_roll_twice(ids)
