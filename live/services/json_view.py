"""What everyone sees of a room: the state message sent to every seat and spectator, and
the room's ``maedn-log/1`` log (lichess' round "json view"). Reads only."""

from __future__ import annotations

import json
import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils import translation

from core.reasons import note_parts, reason_text
from games.engine import Game
from games.engine.log import FORMAT, LogRecord, log_dumps
from games.fair_dice import dice_check
from live.models import Room, RoomEvent, Seat
from live.services.state import (
    held_until,
    new_game,
    room_dice,
    room_game,
    room_rules,
    room_seats,
)

LOG_FORMAT = FORMAT


def seat_name(seat: Seat) -> str:
    if seat.kind == Seat.Kind.COMPUTER:
        return f"computer ({seat.strength})"
    if seat.user_id:
        return seat.user.get_username()
    return seat.name or seat.colour


def _pos(p: int | str) -> int:
    return -1 if p == "B" else int(p)


def room_state(room: Room, game: Game | None = None, last: dict | None = None) -> dict[str, Any]:
    """The whole state of the room as one JSON-ready message (what a client needs to draw
    it, after a reconnect too)."""
    if game is None:
        game = room_game(room) if room.status != Room.Status.WAITING else new_game(room)
    seats = room_seats(room)
    positions = game.positions()
    playing = room.status == Room.Status.PLAYING
    return {
        "type": "state",
        "room": room.token,
        "status": room.status,
        "mode": room.mode,
        "board": room.board,
        "variant": room.variant,
        "fixture": room.fixture_id,
        "players_reserved": bool(room.fixture_id),
        "move_number": room.move_number,
        "seats_version": room.seats_version,
        "die": room.die,
        "turn": game.turn if playing else None,
        "tries_left": game.tries_left,
        "legal": _legal_view(game, room.die) if playing else [],
        "positions": [[_pos(p) for p in positions[s.colour]] for s in seats],
        "home": game.pawns_home(),
        "seats": [_seat_view(s) for s in seats],
        "deadline": room.turn_deadline.timestamp() if room.turn_deadline else None,
        "turn_seconds": room.turn_seconds,
        "last": last,
        "winner": room.winner or None,
        "end_reason": room.end_reason or None,
        "result_note": result_note_view(room.result_note),
        "placings": game.placing_colours(),
        "log_url": _finished_url(room, "live:log"),
        "replay_url": _finished_url(room, "live:replay"),
        # the dice's commitment (games.engine.dice); the seed only once the game is over
        "dice": room_dice(room),
        "applied_at": time.time(),
    }


def result_note_view(text: str) -> dict[str, Any] | None:
    """What became of a league game played online (``Room.result_note``, a ``core.reasons``
    note): its code and parameters, and its words in each of the site's languages — one
    state goes to every connection, and the page shows its own language's. None before the
    game ended (and for a friendly game)."""
    if not text:
        return None
    code, params = note_parts(text)
    words = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            words[language] = reason_text(text)
    return {"code": code, "params": params, "words": words}


def _legal_view(game: Game, die: int | None) -> list[list[Any]]:
    """The legal moves with the die rolled (none before the first roll)."""
    if not die:
        return []
    return [[m.from_, m.to, m.pawn_colour, m.captures] for m in game.legal_moves(die)]


def _seat_view(s: Seat) -> dict[str, Any]:
    held = held_until(s)
    left = s.disconnected_at if s.kind == Seat.Kind.COMPUTER else None
    return {
        "colour": s.colour,
        "index": s.index,
        "kind": s.kind,
        "name": seat_name(s),
        "user": s.user_id,
        "original": s.original.get_username() if s.original_id else None,
        "reserved": s.reserved,
        "strength": s.strength,
        # a seat its player left: when, and until when it is held for them
        "left_at": left.timestamp() if left else None,
        "held_until": held.timestamp() if held else None,
    }


def _finished_url(room: Room, name: str) -> str | None:
    """A finished room's log or replay page (none before the game is over)."""
    if room.status != Room.Status.FINISHED:
        return None
    return reverse(name, args=[room.token])


def room_events_with_movers(room: Room) -> list[dict[str, Any]]:
    """The events so far, each with who moved (``by``: player, computer, auto, timeout)."""
    if room.move_number == 0:
        return []
    # what every connect reads: one plain statement (the ORM's compiling cost more than it)
    q = connection.ops.quote_name
    meta = RoomEvent._meta
    data, by, room_col, number = (
        q(meta.get_field(f).column) for f in ("data", "by", "room", "number")
    )
    where = f"FROM {q(meta.db_table)} WHERE {room_col} = %s AND {number} < %s"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # the list as one JSON text: one parse
            each = f"{data} || jsonb_build_object('by', {by})"
            cursor.execute(
                f"SELECT jsonb_agg({each} ORDER BY {number})::text {where}",
                [room.pk, room.move_number],
            )
            return json.loads(cursor.fetchone()[0] or "[]")
        cursor.execute(
            f"SELECT {data}, {by} {where} ORDER BY {number}", [room.pk, room.move_number]
        )
        rows = cursor.fetchall()
    return [{**(json.loads(d) if isinstance(d, str) else d), "by": b} for d, b in rows]


def room_events_since(room_id: int, since: int, limit: int) -> list[dict[str, Any]]:
    """At most ``limit`` events of the room from number ``since`` on, each with who moved
    (``by``): what a page that lacks them asks for. One indexed statement, its cost the
    events asked for, not the game's length."""
    q = connection.ops.quote_name
    meta = RoomEvent._meta
    data, by, room_col, number = (
        q(meta.get_field(f).column) for f in ("data", "by", "room", "number")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {data}, {by} FROM {q(meta.db_table)} WHERE {room_col} = %s "
            f"AND {number} >= %s ORDER BY {number} LIMIT %s",
            [room_id, since, limit],
        )
        rows = cursor.fetchall()
    return [{**(json.loads(d) if isinstance(d, str) else d), "by": b} for d, b in rows]


def room_event_texts_since(room_id: int, since: int, limit: int) -> list[str]:
    """``room_events_since`` as JSON texts, one an event (what the consumer sends and
    keeps)."""
    return [json.dumps(event) for event in room_events_since(room_id, since, limit)]


def room_log(room: Room) -> dict[str, Any]:
    """The room's ``maedn-log/1`` log so far (complete once the game is over)."""
    events = list(
        RoomEvent.objects.filter(room=room).order_by("number").values_list("data", flat=True)
    )
    meta: dict[str, Any] = {
        "generator": "maedn-league live play",
        "room": room.token,
        "mode": room.mode,
        "seats": {s.colour: seat_name(s) for s in room_seats(room)},
    }
    told = {  # each only when there is something to say
        "started": room.started_at.isoformat() if room.started_at else None,
        "variant": room.variant,
        "ended": {"reason": room.end_reason, "winner": room.winner} if room.end_reason else None,
        "fixture": room.fixture_id,
        "dice": room_dice(room),  # the commitment; the seed only once the game is over
    }
    meta.update((key, value) for key, value in told.items() if value)
    return LogRecord(
        rules=room_rules(room),
        first=room.first,
        events=events,
        board=room.board,
        players=room.players or None,
        meta=meta,
    ).to_dict()


def room_dice_check(room: Room) -> dict[str, Any] | None:
    """The room page's "Provably fair dice" card: while the game is played, the commitment
    only (``not-revealed``); once it is over, every roll of its log checked against the
    revealed seed (``games.fair_dice.dice_check``). None for a room without a seed."""
    dice = room_dice(room)
    if dice is None:
        return None
    if "seed" not in dice:
        return {"status": "not-revealed", "commitment": dice["commitment"]}
    return dice_check(room_log(room))


def room_log_text(room: Room) -> str:
    """The room's log as its canonical text (``games.engine.log.log_dumps``)."""
    return log_dumps(room_log(room))
