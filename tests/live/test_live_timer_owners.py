"""Timer owners and their lease (issue 33, item 4; docs/live.md): a room no live owner
holds is adopted once, by one owner, with its step scheduled when it is due; a process that
is not an owner (the worker's sweep) leaves a room it moved to a live owner and keeps it on
its own timer only while none lives."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from live import dispatch, services
from live.models import Room, TimerOwner
from live.services import timers
from live.services.sweep import hold_owner_lock, timer_owner_tick


def _rooms(hosts, n: int) -> list[int]:
    """``n`` playing computer rooms, hosted in turn by ``hosts`` (five open rooms each at
    most: LIVE_ROOMS_PER_ACCOUNT)."""
    ids = []
    for i in range(n):
        host = hosts[i % len(hosts)]
        room = services.room_create(host=host, mode="online", strength="random")
        services.room_start(room=room, by=host)
        ids.append(room.pk)
    return ids


@pytest.fixture(autouse=True)
def fresh_owner_cache(monkeypatch):
    monkeypatch.setattr(timers, "_owners_seen", (-1e9, False))


@pytest.fixture(autouse=True)
def owner_locks_let_go():
    """The owners' advisory locks this test's session took (a session's locks outlive its
    transactions) are let go after it."""
    yield
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock_all()")


def _alive(name: str, seconds: float = 30) -> None:
    """An owner ``name`` whose lease runs and whose lock this session holds (a live
    process holds its own)."""
    TimerOwner.objects.create(name=name, until=timezone.now() + timedelta(seconds=seconds))
    hold_owner_lock(name)


@pytest.mark.django_db
def test_a_dead_owners_rooms_are_adopted_with_their_steps_due(people, scheduled):
    ids = _rooms(people, 2)
    TimerOwner.objects.create(name="dead", until=timezone.now() - timedelta(seconds=1))
    _alive("alive")
    Room.objects.filter(pk=ids[0]).update(timer_owner="dead")
    Room.objects.filter(pk=ids[1]).update(timer_owner="alive")
    scheduled.clear()
    assert timer_owner_tick("me") == 1
    room = Room.objects.get(pk=ids[0])
    assert room.timer_owner == "me"
    assert Room.objects.get(pk=ids[1]).timer_owner == "alive"  # a live owner keeps its room
    [(task, args, delay)] = scheduled
    assert (task, args) == ("live.room_step", [room.pk, room.move_number])
    assert 0 <= delay <= services.live_setting("COMPUTER_PAUSE")
    lease = TimerOwner.objects.get(name="me").until - timezone.now()
    assert timedelta(0) < lease <= timedelta(seconds=services.live_setting("SWEEP_AFTER"))
    # an overdue room is stepped at once
    Room.objects.filter(pk=ids[1]).update(
        timer_owner="", rolled_at=timezone.now() - timedelta(seconds=60)
    )
    scheduled.clear()
    assert timer_owner_tick("me") == 1
    assert scheduled[0][2] == 0
    assert timer_owner_tick("me") == 0  # nothing left to adopt, nothing scheduled twice
    assert len(scheduled) == 1


@pytest.mark.django_db(transaction=True)
def test_two_owners_adopting_at_once_each_room_is_adopted_once(people, scheduled):
    ids = _rooms(people, 6)
    scheduled.clear()
    barrier = threading.Barrier(2)
    counts: dict[str, int] = {}

    def tick(name: str) -> None:
        try:
            barrier.wait(timeout=10)
            counts[name] = timer_owner_tick(name)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tick, args=(name,)) for name in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sum(counts.values()) == len(ids)
    owners = dict(Room.objects.filter(pk__in=ids).values_list("pk", "timer_owner"))
    assert set(owners.values()) <= {"a", "b"}
    assert sorted(args[0] for _, args, _ in scheduled) == sorted(ids)


@pytest.mark.django_db
def test_a_worker_hands_a_room_it_moved_to_a_live_owner(
    people, scheduled, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(dispatch, "hands_rooms_back", lambda: True)
    [room_id] = _rooms(people, 1)
    Room.objects.filter(pk=room_id).update(timer_owner="gone")
    number = Room.objects.get(pk=room_id).move_number
    scheduled.clear()
    # no owner alive: the worker keeps the room on its own timer (the fallback)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.room_step(room_id=room_id, move_number=number) is not None
    assert [args for _, args, _ in scheduled] == [[room_id, number + 1]]
    assert Room.objects.get(pk=room_id).timer_owner == ""
    # an owner alive: the worker's step schedules nothing, the owner adopts the room
    _alive("server")
    monkeypatch.setattr(timers, "_owners_seen", (-1e9, False))
    scheduled.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.room_step(room_id=room_id, move_number=number + 1) is not None
    assert scheduled == []
    assert timer_owner_tick("server") == 1
    assert [args for _, args, _ in scheduled] == [[room_id, number + 2]]


@pytest.mark.django_db
def test_a_step_applied_by_an_owner_puts_the_room_on_its_timer(
    people, scheduled, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(dispatch, "_owner", "server-1")
    [room_id] = _rooms(people, 1)
    number = Room.objects.get(pk=room_id).move_number
    scheduled.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.room_step(room_id=room_id, move_number=number) is not None
    assert Room.objects.get(pk=room_id).timer_owner == "server-1"
    assert [args for _, args, _ in scheduled] == [[room_id, number + 1]]


@pytest.mark.django_db
def test_an_owner_whose_process_died_is_dead_before_its_lease_runs_out(people, scheduled):
    """A killed server's database session ends with it, and so does its lock: its rooms are
    adopted at the next tick of a live owner, not once its lease (LIVE_SWEEP_AFTER) has
    run out (issue 33's fault target: every room moving again within 10 s)."""
    ids = _rooms(people, 3)
    # killed: its lease runs for another minute, but no session holds its lock
    TimerOwner.objects.create(name="killed", until=timezone.now() + timedelta(seconds=60))
    _alive("alive", 60)
    Room.objects.filter(pk__in=ids[:2]).update(timer_owner="killed")
    Room.objects.filter(pk=ids[2]).update(timer_owner="alive")
    scheduled.clear()
    assert timer_owner_tick("me") == 2
    owners = dict(Room.objects.filter(pk__in=ids).values_list("pk", "timer_owner"))
    assert owners == {ids[0]: "me", ids[1]: "me", ids[2]: "alive"}
    assert sorted(args[0] for _, args, _ in scheduled) == sorted(ids[:2])
