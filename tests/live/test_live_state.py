"""The state a move needs is loaded in constant time from what the room stores (its
snapshot, written by the claim with the move number), never by replaying the game: a step
costs the same queries at roll 5 as at roll 150, reads no events, and the restored game is
the game the events make."""

from __future__ import annotations

import json

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import Game
from live import services
from live.models import Room, RoomEvent
from live.services import moves


def _step_queries(room: Room) -> list[str]:
    room.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        assert services.room_step(room_id=room.pk, move_number=room.move_number) is not None
    return [q["sql"] for q in ctx.captured_queries]


def _play(room: Room, steps: int) -> None:
    for _ in range(steps):
        room.refresh_from_db()
        assert room.status == Room.Status.PLAYING
        services.room_step(room_id=room.pk, move_number=room.move_number)


def test_a_step_reads_no_events_and_costs_the_same_late_in_the_game(people, scheduled):
    room = services.room_create(host=people[0], rules="league", mode="computer")
    room.seats.update(kind="computer", user=None)
    services.room_start(room=room, by=people[0])
    _play(room, 5)
    early = _step_queries(room)
    _play(room, 140)
    late = _step_queries(room)
    assert room.move_number >= 145
    assert len(late) == len(early)
    events_table = RoomEvent._meta.db_table
    assert not [q for q in early + late if q.startswith("SELECT") and events_table in q]


def test_a_step_is_one_read_and_one_write_on_postgresql(people, scheduled):
    """The room with its seats in one query, the claim with its event in one statement
    (no transaction of four round trips); the claim still refuses a roll answered already
    and writes nothing then."""
    room = services.room_create(host=people[0], rules="league", mode="computer")
    room.seats.update(kind="computer", user=None)
    services.room_start(room=room, by=people[0])
    _play(room, 3)
    queries = _step_queries(room)
    assert len(queries) == 2, queries
    assert queries[1].startswith("WITH") and "INSERT" in queries[1]
    room.refresh_from_db()
    stale = room.move_number - 1
    assert not moves.claim(room.pk, stale, {"move_number": stale + 1}, {"die": 1}, "auto")
    assert RoomEvent.objects.filter(room=room).count() == room.move_number
    assert Room.objects.get(pk=room.pk).move_number == room.move_number


def test_the_stored_snapshot_is_the_game_its_events_make(people, scheduled):
    room = services.room_create(host=people[0], rules="online", board=6, variant="quick")
    services.room_start(room=room, by=people[0])
    _play(room, 40)
    room.refresh_from_db()
    assert room.snapshot["n"] == room.move_number
    events = list(room.events.order_by("number").values_list("data", flat=True))
    replayed = Game.new("online", 6, first=room.first, variant="quick")
    replayed.push_events(events)
    restored = services.room_game(room)
    assert restored.positions() == replayed.positions()
    assert (restored.turn, restored.tries_left) == (replayed.turn, replayed.tries_left)
    assert [str(m) for m in restored.legal_moves(room.die)] == [
        str(m) for m in replayed.legal_moves(room.die)
    ]
    assert room.snapshot["t"] == events[-1]["t"]
    # a room written before snapshots existed is replayed (and gives the same game)
    Room.objects.filter(pk=room.pk).update(snapshot=None)
    room.refresh_from_db()
    assert services.room_game(room).positions() == replayed.positions()


def test_a_connect_is_one_read_whatever_the_game_s_length(people, scheduled):
    """What a spectator's connect costs: the room with its seats (and a league game's
    league, for who may see it) in one query; no events (the page asks for those it lacks),
    nothing written — the same queries and bytes at roll 2 as at roll 150."""
    from django.contrib.auth.models import AnonymousUser

    from live.consumers import _connect

    room = services.room_create(host=people[0], rules="league", mode="computer")
    room.seats.update(kind="computer", user=None)
    services.room_start(room=room, by=people[0])
    costs = []
    for steps in (2, 148):
        _play(room, steps)
        with CaptureQueriesContext(connection) as ctx:
            found, state = _connect(room.token, AnonymousUser())
        assert found.pk == room.pk and "events" not in state
        costs.append((len(ctx.captured_queries), len(json.dumps({**state, "applied_at": 0}))))
    room.refresh_from_db()
    assert room.move_number == 150
    assert costs[0][0] == costs[1][0] == 1
    # the position's numbers and names differ (digits, a longer last move), not the log:
    # 148 more events would add several kilobytes
    assert abs(costs[0][1] - costs[1][1]) < 400


def test_a_change_between_the_connects_read_and_its_subscription_is_not_lost(people):
    """The connect reads the room, then subscribes to its broadcasts: a seat taken in
    between (no broadcast reaches the connection yet) must still be in the state it sends,
    and an unchanged room costs one query to confirm."""
    from django.contrib.auth.models import AnonymousUser

    from live.consumers import _connect, _still_current

    room = services.room_create(host=people[0])
    _found, state = _connect(room.token, AnonymousUser())
    with CaptureQueriesContext(connection) as ctx:
        assert _still_current(room.pk, state) is state
    assert len(ctx.captured_queries) == 1
    services.seat_take(room=room, by=people[1], colour="green")  # before the subscription
    now = _still_current(room.pk, state)
    assert now["seats_version"] > state["seats_version"]
    green = [s for s in now["seats"] if s["colour"] == "green"]
    assert green and green[0]["kind"] == "human" and now != state
