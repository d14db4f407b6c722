"""The state of a room's game: its seats, its rules, and the engine game after the events
applied so far (lichess' round "state")."""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _n

from games.engine import Game, game_restore, game_snapshot
from games.engine.variants import variant_rules
from games.replay import colour_label
from live.models import Room, RoomEvent, Seat
from tournaments.permissions import can_view
from tournaments.services.errors import ServiceError


class Refused(ServiceError):
    """A request live play does not carry out; nothing changed.

    ``message`` is an English template (marked with ``gettext_noop``) and ``params`` its
    ``%(name)s`` values: ``.message`` is the English text (logs), ``.localized()`` the text
    in the active language — what the room's WebSocket sends in its connection's language
    and the pages show in theirs. Colour parameters (``colour``, ``turn``) are shown in the
    reader's language too."""

    COLOUR_PARAMS = ("colour", "turn")

    def __init__(self, message: str, *, field: str | None = None, **params: Any):
        self.template = message
        super().__init__(message % params if params else message, field=field, params=params)

    def localized(self) -> str:
        shown = {
            k: colour_label(v) if k in self.COLOUR_PARAMS and isinstance(v, str) else v
            for k, v in self.params.items()
        }
        try:
            return gettext(self.template) % shown if shown else gettext(self.template)
        except (KeyError, TypeError, ValueError):  # a translation missing a parameter
            return self.message


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


def room_with_seats(room_id: int) -> Room | None:
    """The room with its seats (and their users) in one query — what every move and step
    reads first: the seats joined to their room, the room taken from the first."""
    return _joined(Seat.objects.filter(room_id=room_id), Room.objects.filter(pk=room_id))


def _joined(seats_of_room, room_alone, *related: str) -> Room | None:
    """The room of ``seats_of_room`` (a query of one room's seats) with those seats, read
    in one query; ``room_alone`` (with ``related``) if it has none (no such room)."""
    seats = list(
        seats_of_room.select_related(*[f"room__{r}" for r in related] or ["room"])
        .select_related("user", "original")
        .order_by("index")
    )
    if not seats:  # every room has its seats from its creation; a missing room has none
        return room_alone.select_related(*related).first()
    room = seats[0].room
    for seat in seats:
        seat.room = room
    room._seat_list = seats
    return room


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

#: the fresh game of each setup (rules, board, first, players, variant): copied, never replayed
_fresh: OrderedDict[str, Game] = OrderedDict()
_fresh_lock = threading.Lock()
_FRESH_SETUPS = 256


def _fresh_game(room: Room) -> Game:
    key = json.dumps(
        [room.rules, room.board, room.first, room.players or None, room.variant or None],
        sort_keys=True,
    )
    with _fresh_lock:
        game = _fresh.get(key)
        if game is not None:
            _fresh.move_to_end(key)
            return game.copy()
    game = new_game(room)
    with _fresh_lock:
        _fresh[key] = game.copy()
        while len(_fresh) > _FRESH_SETUPS:
            _fresh.popitem(last=False)
    return game


def snapshot_of(game: Game, number: int, t: float) -> dict[str, Any]:
    """What a room stores with its ``move_number`` (``number``): the game after that many
    events and the ``t`` of the last one."""
    return {"n": number, "t": t, "game": game_snapshot(game)}


def room_game(room: Room) -> Game:
    """The engine game after the room's ``move_number`` events (yours to change), in
    constant time whatever the game's length: the snapshot stored in the room's own row
    with its move number (written by the same claim, so the two always agree) restored
    onto a fresh game of the room's setup. Nothing is replayed, whichever process asks.
    Only a room written before snapshots existed replays its events."""
    if room.move_number == 0:
        return _fresh_game(room)
    snap = room.snapshot
    if snap and snap.get("n") == room.move_number:
        return game_restore(_fresh_game(room), snap["game"])
    game = _fresh_game(room)
    events = list(
        RoomEvent.objects.filter(room=room, number__lt=room.move_number)
        .order_by("number")
        .values_list("data", flat=True)
    )
    if len(events) != room.move_number:
        raise Refused(_n("the room's log is being written; try again"))
    game.push_events(events)
    return game


def last_t(room: Room) -> float:
    """``t`` of the room's last event (0 before the first)."""
    if room.move_number == 0:
        return 0.0
    snap = room.snapshot
    if snap and snap.get("n") == room.move_number:
        return float(snap["t"])
    t = (
        RoomEvent.objects.filter(room=room, number=room.move_number - 1)
        .values_list("data__t", flat=True)
        .first()
    )
    return float(t or 0)


# --- reading a room ----------------------------------------------------------------------------


def room_visible(token: str, user) -> Room | None:
    """The room of ``token`` as ``user`` may see it, or None: a league game's room only
    for those who may see its league (a private league's game is not found by others, as
    its pages are not); other rooms by whoever has the link. Pages and the WebSocket
    both ask this. Read with its seats, in one query."""
    room = _joined(
        Seat.objects.filter(room__token=token), Room.objects.filter(token=token), "fixture__league"
    )
    if room is not None and room.fixture_id and not can_view(user, room.fixture.league):
        return None
    return room


def locked_room(room_id: int) -> Room:
    """The room's row, locked for the rest of the transaction."""
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise Refused(_n("there is no room %(room)s"), room=room_id) from None


def held_until(seat: Seat) -> datetime | None:
    """Until when a seat its player left is held for them (LIVE_GRACE_SECONDS after they
    left; the computer plays it meanwhile, and only they may take it back), or None."""
    if seat.kind != Seat.Kind.COMPUTER or not seat.original_id or not seat.disconnected_at:
        return None
    return seat.disconnected_at + timedelta(seconds=live_setting("GRACE_SECONDS"))
