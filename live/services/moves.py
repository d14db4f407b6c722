"""Moves: a player's move, the server's step (computer, automatic move, timeout) and the
one primitive under both, ``apply``: the claim on the room's move number."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models.sql import UpdateQuery
from django.utils import timezone
from django.utils.translation import gettext_noop as _n

from games.engine import Game, IllegalMove, Move
from live import computer, dispatch
from live.models import Room, RoomEvent, Seat
from live.services import timers
from live.services.json_view import room_state
from live.services.state import (
    Refused,
    last_t,
    refuse_if_over,
    roll,
    room_game,
    room_with_seats,
    seat_of,
    snapshot_of,
)


def _parse_choice(choice: Any) -> tuple[Any, int, str | None]:
    if not _is_move(choice):
        raise Refused(_n('a move is [from, to] (from: "B" or a field)'), field="move")
    pawn = choice[2] if len(choice) == 3 else None
    return choice[0], choice[1], pawn if isinstance(pawn, str) else None


def _is_move(choice: Any) -> bool:
    """``[from, to]`` or ``[from, to, pawn colour]``: ``from`` "B" or a field, ``to`` a
    field (a JSON true or false is not a number here)."""
    if not isinstance(choice, list | tuple) or len(choice) not in (2, 3):
        return False
    frm, to = choice[0], choice[1]
    if isinstance(frm, bool) or isinstance(to, bool) or not isinstance(to, int):
        return False
    return frm == "B" or isinstance(frm, int)


def move_play(*, room_id: int, by, move_number: Any, choice: Any) -> dict[str, Any]:
    """``by`` answers the roll of event ``move_number`` with the move ``choice``
    (``[from, to]``, optionally ``[from, to, pawn_colour]``). Refused, changing nothing:
    a stale or replayed number, a seat not on turn or not this user's, an illegal move."""
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise Refused(_n("say which roll you answer (move_number)"), field="move_number")
    frm, to, pawn = _parse_choice(choice)
    room = _room_at_roll(room_id, move_number)
    game = room_game(room)
    if not _moves_for(room, seat_of(room, game.turn), by):
        raise Refused(_n("it is %(turn)s's turn, not yours"), turn=game.turn)
    return apply(room, game, _legal_move(game, room.die, frm, to, pawn), by="player")


def _room_at_roll(room_id: int, move_number: int) -> Room:
    """The room (with its seats), playing and at roll ``move_number``; else refused (a
    stale or replayed answer)."""
    room = room_with_seats(room_id)
    if room is None:
        raise Refused(_n("there is no room %(room)s"), room=room_id)
    refuse_if_over(room)
    if room.status != Room.Status.PLAYING:
        raise Refused(_n("the game is not being played"))
    if move_number != room.move_number:
        raise Refused(
            _n("that answers roll %(asked)s, but the game is at roll %(at)s"),
            asked=move_number,
            at=room.move_number,
        )
    return room


def _moves_for(room: Room, seat: Seat | None, by) -> bool:
    """Whether ``by`` moves for the seat on turn: its player, or around the table the
    host (a computer seat is nobody's)."""
    if seat is None or seat.kind != Seat.Kind.HUMAN:
        return False
    if not getattr(by, "is_authenticated", False):
        return False
    me = getattr(by, "pk", None)
    if room.mode == Room.Mode.TABLE and room.host_id == me:
        return True
    return seat.user_id is not None and seat.user_id == me


def _legal_move(game: Game, die: int, frm: Any, to: int, pawn: str | None) -> Move:
    """The legal move ``frm`` → ``to`` with ``die`` (of ``pawn``'s colour, if given)."""
    legal = game.legal_moves(die)
    wanted = [
        m
        for m in legal
        if m.from_ == frm and m.to == to and (pawn is None or m.pawn_colour == pawn)
    ]
    if wanted:
        return wanted[0]
    if not legal:
        raise Refused(
            _n("%(move)s is not a legal move with a %(die)s: there is none (the roll is spent)"),
            move=f"{frm}→{to}",
            die=die,
        )
    raise Refused(
        _n("%(move)s is not a legal move with a %(die)s; legal: %(legal)s"),
        move=f"{frm}→{to}",
        die=die,
        legal=", ".join(str(m) for m in legal),
    )


def room_step(*, room_id: int, move_number: int, reschedule: bool = True) -> dict[str, Any] | None:
    """The server's step for roll ``move_number`` (a Celery task or an in-process timer):
    the computer's move, the only move (or none) after the pause, or the computer's choice
    when the turn timer ran out. Nothing when the roll is answered already (a late or a
    second timer) or a person still has time (then, with ``reschedule``, the step asks for
    itself again at the deadline; the sweep does not: the timer is not lost)."""
    room = room_with_seats(room_id)
    if room is None or room.status != Room.Status.PLAYING or room.move_number != move_number:
        return None
    game = room_game(room)
    legal = game.legal_moves(room.die)
    mover = _server_mover(room, seat_of(room, game.turn), legal)
    if mover is None:  # a person still has time
        if room.turn_deadline and reschedule:  # woken early (a seat changed hands)
            timers.schedule_step_on_commit(room.pk, move_number, timers.pause_for(room, game))
        return None
    by, strength = mover
    move = computer.choose(game, room.die, legal, strength) if legal else None
    try:
        return apply(room, game, move, by=by)
    except Refused:
        # someone else applied this roll first, or the seats changed since they were read
        # (the change asked for a step of its own, which reads them afresh)
        return None


def _server_mover(room: Room, seat: Seat | None, legal: list[Move]) -> tuple[str, str] | None:
    """Who moves for the seat on turn now, and how strongly: the computer for its seat,
    the server for a person with one move or none, or whose time ran out; None while a
    person still has time to choose."""
    if seat is None or seat.kind == Seat.Kind.COMPUTER:
        return "computer", seat.strength if seat else "heuristic"
    if len(legal) <= 1:
        return "auto", "heuristic"
    if room.turn_deadline and timezone.now() >= room.turn_deadline - timedelta(milliseconds=20):
        return "timeout", "heuristic"
    return None


def apply(room: Room, game: Game, move: Move | None, *, by: str) -> dict[str, Any]:
    """Apply the roll ``room.die`` with ``move`` as event ``room.move_number``, claimed
    with the conditional update; roll the next die; end the game when it is over."""
    number, die = room.move_number, room.die
    huff = computer.choose_huff(game, die, move) if move is not None else None
    roller = game.turn
    try:
        played = game.push(die, move, huff)
    except IllegalMove as exc:  # the engine's coded reason, in the reader's language
        raise Refused(_n("that move cannot be played: %(why)s"), why=exc.args[0]) from None
    now = timezone.now()
    t = round(max((now - room.started_at).total_seconds(), last_t(room)), 3)
    event: dict[str, Any] = (
        played.event(die) if played is not None else {"colour": roller, "die": die}
    )
    event["t"] = t
    over = game.is_over()  # by the rules' end, or by the room's variant
    fields: dict[str, Any] = {
        # the step of the next roll is on this process's timer if it is a timer owner; else
        # none holds the room and a live owner adopts it (docs/live.md, "Issue 33, item 4")
        "timer_owner": dispatch.owner_name(),
        "move_number": number + 1,
        "snapshot": snapshot_of(game, number + 1, t),  # the next move loads this, in O(1)
        **(_end_fields(game, now) if over else _next_roll_fields(room, number + 1, now)),
    }
    if not claim(room.pk, number, fields, event, by, seats_version=room.seats_version):
        _refuse_lost_claim(room, number)
    for k, v in fields.items():
        setattr(room, k, v)
    # after the commit: at once here, or when the caller's own transaction commits
    if over:
        transaction.on_commit(lambda: timers.later("live.room_finish", [room.pk], 0))
    elif not (dispatch.hands_rooms_back() and timers.live_owner_exists()):
        # a process that is not a timer owner (the worker's sweep) keeps the room on its
        # own timer only while no owner lives; else a live owner adopts it within a tick
        timers.schedule_step_on_commit(room.pk, number + 1, timers.pause_for(room, game))
    last = {**event, "number": number, "by": by}
    transaction.on_commit(
        lambda: dispatch.group_send(
            room.group, {"type": "room.state", "state": room_state(room, game, last)}
        )
    )
    return last


def _end_fields(game: Game, now) -> dict[str, Any]:
    """The room's row once its game is over."""
    return {
        "status": Room.Status.FINISHED,
        "die": None,
        "turn_deadline": None,
        "finished_at": now,
        "winner": game.winner or "",  # a player (both-colours: who finishes both)
        "end_reason": game.ended_by or "finished",
    }


def _next_roll_fields(room: Room, number: int, now) -> dict[str, Any]:
    """The room's row with roll ``number`` rolled, its turn timer started."""
    seconds = room.turn_seconds
    return {
        "die": roll(room, number),
        "rolled_at": now,
        "turn_deadline": now + timedelta(seconds=seconds) if seconds else None,
    }


def _refuse_lost_claim(room: Room, number: int) -> None:
    """Someone applied roll ``number`` first, or the seats changed since they were read."""
    now_at = Room.objects.filter(pk=room.pk).values_list("move_number", "seats_version").first()
    if now_at is not None and now_at[0] == number and now_at[1] != room.seats_version:
        raise Refused(
            _n("the seats changed while roll %(number)s was being answered; try again"),
            number=number,
        )
    raise Refused(_n("roll %(number)s has been answered already"), number=number)


def claim(
    room_id: int,
    number: int,
    fields: dict[str, Any],
    event: dict,
    by: str,
    *,
    seats_version: int | None = None,
) -> bool:
    """**The claim**: the room's row moves from move number ``number`` on (``fields``) only
    if it is still there and playing (and, given ``seats_version``, its seats are still
    the ones the caller read: nobody took, left or lost a seat since), and event
    ``number`` is written with it — both or neither. False: someone applied roll
    ``number`` first, or the seats changed, and nothing was written.

    On PostgreSQL one statement does both (an UPDATE … RETURNING in a WITH, feeding the
    INSERT: atomic on its own, one round trip instead of a transaction's four); elsewhere
    (SQLite, the embedded default) a transaction does."""
    rows = Room.objects.filter(pk=room_id, move_number=number, status=Room.Status.PLAYING)
    if seats_version is not None:
        rows = rows.filter(seats_version=seats_version)
    if connection.vendor != "postgresql":
        with transaction.atomic():
            if not rows.update(**fields):
                return False
            RoomEvent.objects.create(room_id=room_id, number=number, data=event, by=by)
        return True
    update = rows.query.chain(UpdateQuery)
    update.add_update_values(fields)
    update_sql, update_params = update.get_compiler(rows.db).as_sql()
    q = connection.ops.quote_name
    meta = RoomEvent._meta
    columns = ", ".join(q(meta.get_field(f).column) for f in ("room", "number", "data", "by"))
    data = meta.get_field("data").get_db_prep_save(event, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH claimed AS ({update_sql} RETURNING {q(Room._meta.pk.column)}) "
            f"INSERT INTO {q(meta.db_table)} ({columns}) SELECT {q(Room._meta.pk.column)}, "
            "%s, %s, %s FROM claimed",
            [*update_params, number, data, by],
        )
        return cursor.rowcount == 1
