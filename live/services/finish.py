"""The end of a room: its log stored (and counted for a league game), or a league game's
no-show recorded as the league's forfeit."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.services import LogRejected, game_log_check, game_log_store
from live.models import Room, Seat
from live.services import timers
from live.services.json_view import room_log_text
from live.services.state import Refused
from tournaments.permissions import is_organizer
from tournaments.services.analyses import analysis_for_log
from tournaments.services.errors import ServiceError


def room_finish(*, room_id: int) -> None:
    """A finished room's log is stored (its replay), and a league game's log goes through
    the results service, counting at once (both players were there)."""
    room = Room.objects.select_related("fixture__league", "host").get(pk=room_id)
    if room.status != Room.Status.FINISHED or room.game_log_id:
        return
    text = room_log_text(room)
    note = ""
    log = None
    if room.fixture_id:
        from tournaments.services.results import game_log_upload

        try:
            upload = game_log_upload(
                fixture=room.fixture, content=text, user=room.host, played_online=True
            )
            log = upload.result.game_log
            note = f"counted as result {upload.result.pk}"
        except ServiceError as exc:
            note = f"the results service refused the log: {exc.message}"
    if log is None:
        try:
            with transaction.atomic():
                log, _ = game_log_store(game_log_check(text), user=room.host)
                analysis_for_log(log)  # a friendly game's analysis too (sent on commit)
        except LogRejected as exc:  # cannot happen: every event was checked by the engine
            note = f"{note} the log did not validate: {exc.message}".strip()
    Room.objects.filter(pk=room.pk, game_log__isnull=True).update(game_log=log, result_note=note)
    timers.broadcast(room.pk)


def fixture_no_show(*, room: Room, user, absent) -> Any:
    """An organizer records a player who never came to a league game's room as the
    league's forfeit: ``forfeit_record`` (the others win); the room is abandoned."""
    from tournaments.services.results import forfeit_record

    room = Room.objects.select_related("fixture__league").get(pk=room.pk)
    if room.fixture_id is None:
        raise Refused("this room is not a league game")
    if not is_organizer(user, room.fixture.league):
        raise Refused("only an organizer records a no-show")
    with transaction.atomic():  # the room's lock: nobody sits down (and starts it) meanwhile
        room = (
            Room.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=room.pk)
        )
        if room.status != Room.Status.WAITING:
            raise Refused("the game has started: it is played to the end by the computer")
        if room.seats.filter(original=absent.player.user, kind=Seat.Kind.HUMAN).exists():
            raise Refused(f"{absent.player.name} is here")
        result = forfeit_record(
            fixture=room.fixture, user=user, loser=absent, reason="did not come to the online game"
        )
        Room.objects.filter(pk=room.pk, status=Room.Status.WAITING).update(
            status=Room.Status.ABANDONED, end_reason="no-show", result_note=f"forfeit {result.pk}"
        )
        timers.broadcast_on_commit(room.pk)
    return result
