"""What became of a league game played online (``Room.result_note``) is a stored note like
the others (issue 35, "One error rule": a code with parameters, worded at the edge): a
``core.reasons`` template filled in, shown in the reader's language on the room page, in
the WebSocket's state (its code and parameters, and its words in each site language) and,
for the result it counted as, through the API."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.reasons import (
    LEFT_BOARD,
    PLAYED_ONLINE,
    ROOM_COUNTED_WITH_NOTE,
    ROOM_EVERYONE_LEFT,
    note,
    note_parts,
)
from live import services
from tests.builders import erin_against_carol
from tests.live.conftest import league_room_playing, play_until
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def _german(user, path: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "de"
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    return response


def test_a_game_one_player_left_counts_with_a_note_in_the_reader_s_language(scheduled):
    t, room = league_room_playing()
    services.seat_leave(room=room, by=t["erin"])  # before the first roll: from roll 1 on
    assert play_until(room, lambda game, legal: False, limit=20000) is None
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    result = Result.objects.get(fixture=t["fixture"])
    gone = note(PLAYED_ONLINE, gone=note(LEFT_BOARD, name="erin", colours="black, yellow", since=1))
    assert result.reason == gone
    assert room.result_note == note(ROOM_COUNTED_WITH_NOTE, result=result.pk, note=gone)
    german = (
        f"als Ergebnis {result.pk} gewertet (online gespielt; erin hat das Brett verlassen: "
        "der Computer spielte schwarz, gelb ab Wurf 1)"
    )
    # the WebSocket's state: the code, its parameters, and the words in every site language
    shown = services.room_state(room)["result_note"]
    assert shown["code"] == "room_counted_with_note"
    assert shown["params"] == {
        "result": str(result.pk),
        "note": {
            "code": "played_online",
            "params": {
                "gone": [
                    {
                        "code": "left_board",
                        "params": {"name": "erin", "colours": "black, yellow", "since": "1"},
                    }
                ]
            },
        },
    }
    assert shown["words"] == {"en": room.result_note, "de": german}
    # the room page
    page = _german(t["carol"], f"/live/{room.token}/").content.decode()
    assert re.search(r"<p [^>]*data-result-note>(.*?)</p>", page).group(1) == german
    # the API: the result it counted as, in German with its code and parameters
    body = _german(t["carol"], f"/api/v1/results/{result.pk}/").json()
    assert body["reason"] == (
        "online gespielt; erin hat das Brett verlassen: der Computer spielte schwarz, gelb ab "
        "Wurf 1"
    )
    assert body["reason_code"] == "played_online"
    assert body["reason_params"]["gone"][0]["params"]["since"] == "1"


def test_a_game_everyone_left_says_so_in_the_reader_s_language(scheduled):
    t, room = league_room_playing()
    services.seat_leave(room=room, by=t["erin"])
    services.seat_leave(room=room, by=t["carol"])
    room.refresh_from_db()
    assert room.result_note == ROOM_EVERYONE_LEFT
    assert note_parts(room.result_note) == ("room_everyone_left", {})
    shown = services.room_state(room)["result_note"]
    assert shown["words"]["de"].startswith("kein Ergebnis: alle Spieler haben das Brett verlassen")
    page = _german(t["carol"], f"/live/{room.token}/").content.decode()
    shown_on_page = re.search(r"<p [^>]*data-result-note>(.*?)</p>", page).group(1)
    assert shown_on_page.startswith("kein Ergebnis: alle Spieler haben das Brett verlassen")


def test_a_no_show_names_the_forfeit_in_the_reader_s_language(scheduled):
    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["organizer"])
    services.seat_take(room=room, by=t["erin"], colour="black")
    carol = t["fixture"].seats.get(entry__player__name="carol").entry
    result = services.fixture_no_show(room=room, by=t["organizer"], absent=carol)
    room.refresh_from_db()
    assert note_parts(room.result_note) == ("room_forfeit", {"result": str(result.pk)})
    assert services.room_state(room)["result_note"]["words"]["de"] == (
        f"als kampflos eingetragen (Ergebnis {result.pk})"
    )


def test_a_room_playing_has_no_result_note(scheduled):
    _t, room = league_room_playing()
    assert services.room_state(room)["result_note"] is None
