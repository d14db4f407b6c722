"""Broadcasts and timers of a room: the state sent to its channel-layer group after a
commit, and the server's next step (computer, automatic move, turn timer) scheduled by
name through ``live.dispatch.later`` (a Celery task with a countdown, or the in-process
timer)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Game
from live import dispatch
from live.models import Room, Seat
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
