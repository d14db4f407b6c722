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
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _n

from core.errors import ServiceError
from games.engine import Game, dice, game_restore, game_snapshot
from games.engine.codes import Coded
from games.engine.variants import variant_rules
from games.error_text import engine_error_text
from games.replay import colour_label
from live.models import Room, RoomEvent, Seat
from tournaments.models import Fixture
from tournaments.permissions import can_view


class Refused(ServiceError):
    """A request live play does not carry out; nothing changed.

    ``message`` is an English template (marked with ``gettext_noop``) and ``params`` its
    ``%(name)s`` values: ``.message`` is the English text (logs), ``.localized()`` the text
    in the active language — what the room's WebSocket sends in its connection's language
    and the pages show in theirs. Colour parameters (``colour``, ``turn``) are shown in the
    reader's language too, and so is an engine's coded message given as a parameter (an
    illegal move's ``why``)."""

    COLOUR_PARAMS = ("colour", "turn")

    def __init__(self, message: str, *, field: str | None = None, **params: Any):
        self.template = message
        super().__init__(message % params if params else message, field=field, params=params)

    def localized(self) -> str:
        shown = {k: self._shown(k, v) for k, v in self.params.items()}
        try:
            return gettext(self.template) % shown if shown else gettext(self.template)
        except (KeyError, TypeError, ValueError):  # a translation missing a parameter
            return self.message

    def _shown(self, key: str, value: Any) -> Any:
        """A parameter in the active language: an engine message, a colour's name."""
        if isinstance(value, Coded):
            return engine_error_text(value)
        if key in self.COLOUR_PARAMS and isinstance(value, str):
            return colour_label(value)
        return value


def live_setting(name: str) -> Any:
    return settings.LIVE[name]


def roll(room: Room, index: int) -> int:
    """The server's die for event ``index`` of ``room``: roll ``index`` of the stream of
    the room's secret seed (``games.engine.dice``: HMAC-SHA256, published as its SHA-256,
    revealed in the log when the game is over). Players', timers' and the computer's turns
    all take theirs from here. A room opened before seeds existed rolls from ``secrets``."""
    seed = room.dice_seed
    if seed:
        return dice.die(bytes(seed), index)
    return secrets.randbelow(6) + 1


def room_dice(room: Room) -> dict[str, str] | None:
    """The room's ``meta.dice`` (None for a room without a seed): the commitment always,
    the seed only once the game is over (finished or abandoned: no roll follows)."""
    seed = room.dice_seed
    if not seed:
        return None
    over = room.status in (Room.Status.FINISHED, Room.Status.ABANDONED)
    return dice.dice_meta(bytes(seed), reveal=over)


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
    return _room_read("id", room_id)


# --- one read of a room with its seats --------------------------------------------------------
#
# Every step, every move and every connect reads the room with its seats. Through the ORM that
# one query (room, seats, their two users, ordered) cost about 1 ms of CPU to compile and 1 ms
# to turn into objects, the largest part of a step's and a connect's server CPU (py-spy,
# bench/online.py). It is compiled here once per process from the models' own fields (a new
# field is read with the others) and its rows made into the same objects the ORM would make:
# the room, its seats with ``seat.room`` set, each seat's ``user`` and ``original`` with their
# primary key and username (any other field of theirs is read when asked for).

_read_sql: dict[str, tuple[str, list[Any], list[Any]]] = {}
_SEAT_ROOM, _SEAT_USER, _SEAT_ORIGINAL = (
    Seat._meta.get_field(f) for f in ("room", "user", "original")
)


def _converters(fields, alias: str) -> list[Any]:
    """Per column: the field's converters from the database value (as the ORM applies them:
    e.g. JSON text to objects), with the column expression they are called with."""
    out = []
    for field in fields:
        col = field.get_col(alias)
        convs = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        out.append((col, convs))
    return out


def _read_statement(column: str) -> tuple[str, list[Any], list[Any]]:
    """The room-with-seats SELECT by ``column`` of the room, with its converters."""
    cached = _read_sql.get(f"{connection.vendor}:{column}")
    if cached is not None:
        return cached
    q = connection.ops.quote_name
    user_model = get_user_model()
    room_fields = list(Room._meta.concrete_fields)
    seat_fields = list(Seat._meta.concrete_fields)
    user_fields = [user_model._meta.pk, user_model._meta.get_field(user_model.USERNAME_FIELD)]
    cols = [f"r.{q(f.column)}" for f in room_fields]
    cols += [f"s.{q(f.column)}" for f in seat_fields]
    cols += [f"u.{q(f.column)}" for f in user_fields] + [f"o.{q(f.column)}" for f in user_fields]
    users = q(user_model._meta.db_table)
    sql = (
        f"SELECT {', '.join(cols)} FROM {q(Room._meta.db_table)} r "
        f"LEFT JOIN {q(Seat._meta.db_table)} s ON s.{q(Seat._meta.get_field('room').column)} "
        f"= r.{q(Room._meta.pk.column)} "
        f"LEFT JOIN {users} u ON u.{q(user_model._meta.pk.column)} "
        f"= s.{q(Seat._meta.get_field('user').column)} "
        f"LEFT JOIN {users} o ON o.{q(user_model._meta.pk.column)} "
        f"= s.{q(Seat._meta.get_field('original').column)} "
        f"WHERE r.{q(Room._meta.get_field(column).column)} = %s "
        f"ORDER BY s.{q(Seat._meta.get_field('index').column)}"
    )
    convs = (
        _converters(room_fields, "r")
        + _converters(seat_fields, "s")
        + _converters(user_fields, "u")
        + _converters(user_fields, "o")
    )
    shapes = [room_fields, seat_fields, user_fields]
    _read_sql[f"{connection.vendor}:{column}"] = (sql, convs, shapes)
    return sql, convs, shapes


def _room_read(column: str, value: Any) -> Room | None:
    """The room whose ``column`` is ``value`` with its seats, in one statement, or None."""
    sql, convs, (room_fields, seat_fields, user_fields) = _read_statement(column)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        rows = cursor.fetchall()
    if not rows:
        return None
    alias = connection.alias
    user_model = get_user_model()
    user_names = [f.attname for f in user_fields]
    nr, ns, nu = len(room_fields), len(seat_fields), len(user_fields)
    room = None
    seats: list[Seat] = []
    users: dict[Any, Any] = {}
    for raw in rows:
        row = list(raw)
        for i, (col, funcs) in enumerate(convs):
            for func in funcs:
                row[i] = func(row[i], col, connection)
        if room is None:
            room = Room.from_db(alias, None, row[:nr])
        if row[nr] is None:  # a room without seats (never, once created)
            continue
        seat = Seat.from_db(alias, None, row[nr : nr + ns])
        _SEAT_ROOM.set_cached_value(seat, room)
        for offset, field in ((nr + ns, _SEAT_USER), (nr + ns + nu, _SEAT_ORIGINAL)):
            key = row[offset]
            if key is None:
                continue
            if key not in users:
                users[key] = user_model.from_db(alias, user_names, row[offset : offset + nu])
            field.set_cached_value(seat, users[key])
        seats.append(seat)
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
    both ask this. Read with its seats, in one query (a league game's fixture in a second)."""
    room = _room_read("token", token)
    if room is not None and room.fixture_id:
        room.fixture = Fixture.objects.select_related("league").get(pk=room.fixture_id)
        if not can_view(user, room.fixture.league):
            return None
    return room


ENDED = (Room.Status.FINISHED, Room.Status.ABANDONED)


def refuse_if_over(room: Room) -> None:
    """Every change of a room (a move, taking, leaving or holding a seat, starting) is
    refused once its game has ended: the log and the result stay what the end made them,
    whenever the end-of-game task runs (a ``leave`` after the last move once rewrote the
    log's seats, and a league game both players left before that task ran lost its
    result). Called under the room's lock, or on a room read after the claim that ended it."""
    if room.status in ENDED:
        raise Refused(_n("the game is over"))


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
