"""The live room in the page's language: the WebSocket's refusals are sent in the language
the page was served in (``?lang=`` on the socket's URL, else the language cookie, else the
site's default), and the room page opens its socket with its own language."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.utils import translation

from live import services
from live.routing import websocket_urlpatterns
from tests.live.test_live_services import _human_room, _snapshot

APP = URLRouter(websocket_urlpatterns)

ENGLISH = {
    "spectator": "it is red's turn, not yours",
    "seat": "there is no 'purple' seat in this room",
    "kind": "unknown message type 'dance'",
    "object": "a message is a JSON object with a type",
    "room": "that message is for another room",
}
GERMAN = {
    "spectator": "am Zug ist rot, nicht du",
    "seat": "in diesem Raum gibt es keinen Platz 'purple'",
    "kind": "unbekannter Nachrichtentyp 'dance'",
    "object": "eine Nachricht ist ein JSON-Objekt mit einem type",
    "room": "diese Nachricht ist für einen anderen Raum",
}


@pytest.fixture(autouse=True)
def _consumer_thread_lets_go():
    yield
    asyncio.run(database_sync_to_async(connections.close_all)())


def _refusals(room, user, *, query: str = "", cookies: dict | None = None) -> dict[str, str]:
    """What a connection of ``user`` is told when it sends the refused messages."""
    n = room.move_number

    async def main():
        comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/{query}")
        comm.scope["user"] = user
        if cookies is not None:
            comm.scope["cookies"] = cookies
        connected, _ = await comm.connect()
        assert connected
        await comm.receive_json_from(timeout=5)
        said = {}
        for key, message in [
            ("spectator", {"type": "move", "room": room.token, "move_number": n, "move": [0, 1]}),
            ("seat", {"type": "take", "room": room.token, "colour": "purple"}),
            ("kind", {"type": "dance", "room": room.token}),
            ("object", ["not", "an", "object"]),
            ("room", {"type": "move", "room": "elsewhere", "move_number": n, "move": [0, 1]}),
        ]:
            await comm.send_json_to(message)
            answer = await comm.receive_json_from(timeout=5)
            assert answer["type"] == "refused", answer
            said[key] = answer["error"]
        await comm.disconnect()
        return said

    return asyncio.run(main())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("query", "cookies", "expected"),
    [
        ("?lang=de", None, GERMAN),
        ("?lang=en", None, ENGLISH),
        ("?lang=de-at", None, GERMAN),  # a variant of a site language
        ("", {settings.LANGUAGE_COOKIE_NAME: "de"}, GERMAN),  # no page language: the cookie
        ("?lang=en", {settings.LANGUAGE_COOKIE_NAME: "de"}, ENGLISH),  # the page's wins
        ("?lang=xx", None, ENGLISH),  # not a site language: the default
        ("", None, ENGLISH),
    ],
)
def test_refusals_over_the_socket_are_in_the_connections_language(
    people, scheduled, query, cookies, expected
):
    room, _game = _human_room(people, scheduled)
    before = _snapshot(room)
    assert _refusals(room, people[2], query=query, cookies=cookies) == expected
    assert _snapshot(room) == before  # refused: nothing changed


@pytest.mark.django_db(transaction=True)
def test_a_refusal_in_german_keeps_its_english_message_for_the_logs(people, scheduled):
    room, _game = _human_room(people, scheduled)
    with pytest.raises(services.Refused) as caught:
        services.seat_take(room=room, by=people[0], colour="yellow")
    assert caught.value.message == "the yellow seat is taken"
    with translation.override("de"):
        assert caught.value.localized() == "der Platz „gelb“ ist besetzt"
    assert caught.value.localized() == "the yellow seat is taken"


@pytest.mark.parametrize(
    ("language", "ws", "refusal"),
    [
        ("de", "?lang=de", "das Brett muss 4 oder 6 sein"),
        ("en", "?lang=en", "the board must be 4 or 6"),
    ],
)
def test_the_room_page_opens_its_socket_in_its_language_and_the_lobby_refuses_in_it(
    client, people, language, ws, refusal
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(people[0])
    response = client.post("/live/", {"board": "5", "mode": "computer"})
    assert refusal in response.content.decode()
    room = services.room_create(host=people[0], mode="computer")
    page = client.get(f"/live/{room.token}/").content.decode()
    assert f'data-ws="/ws/live/{room.token}/{ws}"' in page
