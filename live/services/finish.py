"""The end of a room: its log stored (and counted for a league game), or a league game's
no-show recorded as the league's forfeit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _n

from core import reasons
from core.reasons import NO_SHOW
from games.services import LogRejected, game_log_check, game_log_store
from live.models import Room, RoomEvent, Seat
from live.services import timers
from live.services.json_view import room_log_text
from live.services.state import Refused
from tournaments.permissions import is_organizer
from tournaments.services.analyses import analysis_for_log
from tournaments.services.errors import ServiceError
from tournaments.services.results import forfeit_record, game_log_upload


def players_gone(room: Room) -> dict[str, list[str]]:
    """A league game's players not at the board (every colour of theirs played by the
    computer: they left, or their connection's grace period ran out): name → colours."""
    seats = {s.colour: s for s in room.seats.all()}
    return {
        name: colours
        for name, colours in (room.players or {}).items()
        if all(seats[c].kind == Seat.Kind.COMPUTER for c in colours if c in seats)
    }


def abandon_if_everyone_left(room: Room) -> bool:
    """A league game whose every player has left is not played on by the computer: it is
    abandoned with no result (the league's organizers may record forfeits, its no-show
    rule). Call it under the room's lock, after seats went to the computer."""
    if not room.fixture_id or room.status != Room.Status.PLAYING:
        return False
    if room.seats.filter(reserved=True, kind=Seat.Kind.HUMAN).exists():
        return False
    note = reasons.ROOM_EVERYONE_LEFT
    Room.objects.filter(pk=room.pk, status=Room.Status.PLAYING).update(
        status=Room.Status.ABANDONED,
        die=None,
        turn_deadline=None,
        finished_at=timezone.now(),
        end_reason=END_EVERYONE_LEFT,
        result_note=note,
    )
    room.status, room.end_reason, room.result_note = Room.Status.ABANDONED, END_EVERYONE_LEFT, note
    room.die = room.turn_deadline = None
    return True


END_EVERYONE_LEFT = "everyone-left"


def _gone_reason(room: Room, gone: dict[str, list[str]]) -> str:
    """What the result says when a player was not at the board at the end: from which roll
    the computer played their colours."""
    rows = RoomEvent.objects.filter(room=room).values_list("number", "data__colour", "by")
    last_own: dict[str, int] = {}
    for number, colour, by in rows:
        if by != "computer":
            last_own[colour] = number
    parts = []
    for name, colours in gone.items():
        since = max((last_own.get(c, -1) for c in colours), default=-1) + 2  # rolls from 1
        parts.append(
            reasons.note(reasons.LEFT_BOARD, name=name, colours=", ".join(colours), since=since)
        )
    return reasons.note(reasons.PLAYED_ONLINE, gone="; ".join(parts)) if parts else ""


def room_finish(*, room_id: int) -> None:
    """A finished room's log is stored (its replay), and a league game's log goes through
    the results service, counting at once (the platform rolled every die). A player who
    left (the computer played their colours on) is named on the result; a game nobody was
    at the board for at the end does not count (``abandon_if_everyone_left`` stops such a
    game at once; this is the guard for a game that ended in the same instant)."""
    room = Room.objects.select_related("fixture__league", "host").get(pk=room_id)
    if room.status != Room.Status.FINISHED or room.game_log_id:
        return
    text = room_log_text(room)
    note = ""
    log = None
    if room.fixture_id:
        gone = players_gone(room)
        if room.players and len(gone) == len(room.players):
            note = reasons.ROOM_ALL_GONE
        else:
            reason = _gone_reason(room, gone)
            try:
                upload = game_log_upload(
                    fixture=room.fixture,
                    content=text,
                    by=room.host,
                    played_online=True,
                    reason=reason,
                )
                log = upload.result.game_log
                counted = upload.result.pk
                note = (
                    reasons.note(reasons.ROOM_COUNTED_WITH_NOTE, result=counted, note=reason)
                    if reason
                    else reasons.note(reasons.ROOM_COUNTED, result=counted)
                )
            except ServiceError as exc:
                note = reasons.note(reasons.ROOM_REFUSED, message=exc.message)
    if log is None:
        try:
            with transaction.atomic():
                log, _ = game_log_store(game_log_check(text), by=room.host)
                analysis_for_log(log)  # a friendly game's analysis too (sent on commit)
        except LogRejected as exc:  # cannot happen: every event was checked by the engine
            note = (
                reasons.note(reasons.ROOM_NOT_VALID_AFTER, note=note, message=exc.message)
                if note
                else reasons.note(reasons.ROOM_NOT_VALID, message=exc.message)
            )
    Room.objects.filter(pk=room.pk, game_log__isnull=True).update(game_log=log, result_note=note)
    timers.broadcast(room.pk)


def fixture_no_show(*, room: Room, by, absent) -> Any:
    """An organizer records a player who never came to a league game's room as the
    league's forfeit: ``forfeit_record`` (the others win); the room is abandoned."""

    room = Room.objects.select_related("fixture__league").get(pk=room.pk)
    if room.fixture_id is None:
        raise Refused(_n("this room is not a league game"))
    if not is_organizer(by, room.fixture.league):
        raise Refused(_n("only an organizer records a no-show"))
    with transaction.atomic():  # the room's lock: nobody sits down (and starts it) meanwhile
        room = (
            Room.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=room.pk)
        )
        if room.status != Room.Status.WAITING:
            raise Refused(_n("the game has started: it is played to the end by the computer"))
        if room.seats.filter(original=absent.player.user, kind=Seat.Kind.HUMAN).exists():
            raise Refused(_n("%(player)s is here"), player=absent.player.name)
        result = forfeit_record(fixture=room.fixture, by=by, loser=absent, reason=NO_SHOW)
        Room.objects.filter(pk=room.pk, status=Room.Status.WAITING).update(
            status=Room.Status.ABANDONED,
            end_reason="no-show",
            result_note=reasons.note(reasons.ROOM_FORFEIT, result=result.pk),
        )
        timers.broadcast_on_commit(room.pk)
    return result
