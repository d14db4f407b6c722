"""The live-play pages: the lobby opens rooms (and refuses bad settings), a room page draws
the board with its state, the log and replay exist once the game is over, German text, no
inline script or style."""

from __future__ import annotations

import json
import re

import pytest

from games.engine import validate
from live import services
from live.models import Room
from tests.live.conftest import drive

pytestmark = pytest.mark.django_db


def test_the_lobby_opens_a_room(client, people, scheduled):
    assert client.get("/live/").status_code == 200
    assert client.put("/live/").status_code == 405 and client.delete("/live/").status_code == 405
    client.force_login(people[0])
    response = client.post(
        "/live/",
        {
            "mode": "online",
            "board": "6",
            "rules": "online",
            "turn_seconds": "30",
            "is_public": "on",
            "strength": "random",
        },
    )
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/live/{room.token}/"
    assert (room.board, room.turn_seconds, room.is_public) == (6, 30, True)
    assert room.seats.count() == 6
    bad = client.post("/live/", {"mode": "online", "board": "5"})
    assert bad.status_code == 400 and b"board must be 4 or 6" in bad.content
    assert Room.objects.count() == 1


def test_a_room_page_and_after_the_game_its_log_and_replay(client, people, scheduled):
    # An online room nobody has sat down in: every seat is the computer's.
    room = services.room_create(host=people[0], variant="first-capture")
    page = client.get(f"/live/{room.token}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'id="live-room"' in html and "data-board" in html
    for tag in re.findall(r"<script[^>]*>", html):  # JSON data or a static file only
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert ' style="' not in html and " onclick=" not in html
    state = json.loads(
        re.search(r'id="room-state" type="application/json">(.*?)</script>', html).group(1)
    )
    assert state["status"] == "waiting" and state["room"] == room.token
    assert client.get(f"/live/{room.token}/log.json").status_code == 404
    services.room_start(room=room, by=people[0])
    drive(room)
    services.room_finish(room_id=room.pk)
    log = client.get(f"/live/{room.token}/log.json")
    assert log.status_code == 200 and validate(log.content)["valid"]
    assert client.get(f"/live/{room.token}/replay/").status_code == 200
    replay = client.get(f"/live/{room.token}/replay.json").json()
    assert len(replay["steps"]) == Room.objects.get(pk=room.pk).move_number


def test_german(client, people):
    room = services.room_create(host=people[0])
    client.cookies["django_language"] = "de"
    html = client.get(f"/live/{room.token}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Plätze" in html and "Diesen Platz übernehmen" in html
    assert "Online spielen" in client.get("/live/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_the_lobby_offers_every_computer_strength_in_both_languages(client, people):
    from live.computer import STRENGTHS

    client.force_login(people[0])
    html = client.get("/live/").content.decode()
    offered = re.findall(r'<option value="([a-z]+)"', html.split('id="room-strength"')[1])
    assert offered[: len(STRENGTHS)] == ["strong", "heuristic", "random"]
    assert set(STRENGTHS) == set(offered[:3])
    german = client.get("/live/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    options = german.split('id="room-strength"')[1].split("</select>")[0]
    assert ">stark<" in options and ">gut<" in options and ">zufällig<" in options
    response = client.post("/live/", {"mode": "computer", "rules": "league", "strength": "strong"})
    room = Room.objects.get()
    assert response.status_code == 302 and {s.strength for s in room.seats.all()} == {"strong"}
