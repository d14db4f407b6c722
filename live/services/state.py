"""The state of a room's game: its seats, its rules, and the engine game after the events
applied so far (lichess' round "state")."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

from games.engine import Game
from games.engine.variants import variant_rules
from live.models import Room, RoomEvent, Seat
from tournaments.permissions import can_view
from tournaments.services.errors import ServiceError


class Refused(ServiceError):
    """A request live play does not carry out; nothing changed."""


def live_setting(name: str) -> Any:
    return settings.LIVE[name]


def roll() -> int:
    """The server's die: 1–6 from the operating system's randomness."""
    return secrets.randbelow(6) + 1


def room_seats(room: Room) -> list[Seat]:
    """The room's seats (with their users), read once per room object."""
    seats = getattr(room, "_seat_list", None)
    if seats is None:
        seats = list(room.seats.select_related("user", "original").order_by("index"))
        room._seat_list = seats
    return seats


def seat_of(room: Room, colour: str | None) -> Seat | None:
    return next((s for s in room_seats(room) if s.colour == colour), None)


def room_rules(room: Room) -> str | dict[str, Any]:
    """The rules of the room's log: its rules with its variant's options laid over them."""
    return variant_rules(room.rules, room.variant or None)


def new_game(room: Room) -> Game:
    """The engine game of the room; a variant room's game ends by its variant's condition."""
    return Game.new(
        room.rules,
        room.board,
        first=room.first,
        players=room.players or None,
        variant=room.variant or None,
    )


# --- the engine state after the events so far ------------------------------------------------

#: room → (number of events, the engine game after them, ``t`` of the last one)
_games: OrderedDict[int, tuple[int, Game, float]] = OrderedDict()
_games_lock = threading.Lock()
_CACHE_ROOMS = 4000


def room_game(room: Room) -> Game:
    """The engine game after the room's ``move_number`` events (a copy: change it freely)."""
    with _games_lock:
        cached = _games.get(room.pk)
        if cached is not None and cached[0] == room.move_number:
            _games.move_to_end(room.pk)
            return cached[1].copy()
    game = new_game(room)
    events = list(
        RoomEvent.objects.filter(room=room, number__lt=room.move_number)
        .order_by("number")
        .values_list("data", flat=True)
    )
    if len(events) != room.move_number:
        raise Refused("the room's log is being written; try again")
    game.push_events(events)
    cache_game(room.pk, room.move_number, game, float(events[-1].get("t") or 0) if events else 0.0)
    return game.copy()


def last_t(room_id: int, number: int) -> float | None:
    """``t`` of the room's event ``number - 1`` if the cache holds the game after it."""
    with _games_lock:
        cached = _games.get(room_id)
    return cached[2] if cached is not None and cached[0] == number else None


def cache_game(room_id: int, number: int, game: Game, t: float) -> None:
    with _games_lock:
        _games[room_id] = (number, game.copy(), t)
        _games.move_to_end(room_id)
        while len(_games) > _CACHE_ROOMS:
            _games.popitem(last=False)


def clear_cache() -> None:
    """Forget every cached game (tests: as if each step ran in another process)."""
    with _games_lock:
        _games.clear()


# --- reading a room ----------------------------------------------------------------------------


def room_visible(token: str, user) -> Room | None:
    """The room of ``token`` as ``user`` may see it, or None: a league game's room only
    for those who may see its league (a private league's game is not found by others, as
    its pages are not); other rooms by whoever has the link. Pages and the WebSocket
    both ask this."""
    room = Room.objects.select_related("fixture__league").filter(token=token).first()
    if room is not None and room.fixture_id and not can_view(user, room.fixture.league):
        return None
    return room


def locked_room(room_id: int) -> Room:
    """The room's row, locked for the rest of the transaction."""
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise Refused(f"there is no room {room_id}") from None
