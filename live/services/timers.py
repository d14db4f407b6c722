"""Broadcasts and timers of a room: the state sent to its channel-layer group after a
commit, and the server's next step (computer, automatic move, turn timer) scheduled by
name through ``live.dispatch.later`` (a Celery task with a countdown, or the in-process
timer)."""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Game
from live import dispatch
from live.models import Room, Seat, TimerOwner
from live.services.json_view import room_state
from live.services.state import live_setting, seat_of


def later(task: str, args: list[Any], delay: float) -> None:
    """Ask for the task ``task`` after ``delay`` seconds (``live.dispatch.later``)."""
    dispatch.later(task, args, delay)


def broadcast(room_id: int, last: dict | None = None) -> None:
    room = Room.objects.get(pk=room_id)
    dispatch.group_send(room.group, {"type": "room.state", "state": room_state(room, last=last)})


def broadcast_on_commit(room_id: int, last: dict | None = None) -> None:
    transaction.on_commit(lambda: broadcast(room_id, last))


def pause_for(room: Room, game: Game) -> float:
    """How long the server waits before its step for the colour on turn: the computer's
    pause, the short pause of an automatic move, or the turn timer."""
    seat = seat_of(room, game.turn)
    if seat is None or seat.kind == Seat.Kind.COMPUTER:
        return live_setting("COMPUTER_PAUSE")
    if len(game.legal_moves(room.die)) <= 1:
        return live_setting("AUTO_PAUSE")
    if room.turn_deadline:
        return max(0.0, (room.turn_deadline - timezone.now()).total_seconds())
    return -1  # a person decides, no timer: nothing to schedule


def schedule_step_on_commit(room_id: int, number: int, delay: float) -> None:
    if delay < 0:
        return
    transaction.on_commit(lambda: later("live.room_step", [room_id, number], delay))


def due_in(room: Room, game: Game) -> float:
    """Seconds until the step of the roll on turn is due, counted from when it was rolled
    (0 when overdue; -1: a person decides with no timer) — for a timer owner adopting the
    room, whose step was scheduled on a timer that is gone."""
    pause = pause_for(room, game)
    seat = seat_of(room, game.turn)
    timed = not (
        seat is None or seat.kind == Seat.Kind.COMPUTER or len(game.legal_moves(room.die)) <= 1
    )
    if pause < 0 or timed or room.rolled_at is None:
        return pause  # the turn timer's delay is counted from its deadline already
    return max(0.0, pause - (timezone.now() - room.rolled_at).total_seconds())


#: (checked at, answer) of ``live_owner_exists``, per process
_owners_seen: tuple[float, bool] = (-1e9, False)


def live_owner_exists() -> bool:
    """Whether some timer owner's lease runs (asked at most once a LIVE_SWEEP_SECONDS per
    process: a worker's sweep moving many rooms asks once)."""
    global _owners_seen
    now = time.monotonic()
    if now - _owners_seen[0] < live_setting("SWEEP_SECONDS"):
        return _owners_seen[1]
    alive = TimerOwner.objects.filter(until__gt=timezone.now()).exists()
    _owners_seen = (now, alive)
    return alive
