"""Issue 35, one error rule for live play: every refusal a player can receive (over the
room's WebSocket or on its pages) is a code with parameters, worded in the reader's
language — the engine's own coded reason included — and the mail about a no-show is in
its recipient's language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation

from accounts.models import AccountSettings
from core.errors import ServiceError
from live import services
from live.services import moves
from tests.builders import erin_against_carol, make_user
from tests.live.test_live_services import _human_room

LIVE = Path(services.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _site_language_after():
    """A page served in German leaves German active in this thread (the locale
    middleware's): the next test starts in the site's language."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _marked_texts() -> list[tuple[str, str]]:
    """Every text live play marks for translation (``_n(...)``): its refusals' codes."""
    found = []
    for path in LIVE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "_n"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.append((path.name, node.args[0].value))
    return found


def test_every_refusal_of_live_play_has_its_german_wording():
    texts = _marked_texts()
    assert len(texts) > 40  # the consumer's and every service's refusals
    with translation.override("de"):
        untranslated = [(name, text) for name, text in texts if translation.gettext(text) == text]
    assert untranslated == []


@pytest.mark.django_db(transaction=True)
def test_an_engine_refusal_is_worded_by_its_code_in_the_readers_language(people, scheduled):
    room, game = _human_room(people, scheduled)
    room.die = 7  # what the engine refuses itself (the move checks cannot produce it)
    with pytest.raises(services.Refused) as caught:
        moves.apply(room, game, None, by="player")
    refusal = caught.value
    assert refusal.message.startswith("that move cannot be played: red rolled 7, but a die")
    with translation.override("de"):
        german = refusal.localized()
    assert german.startswith("dieser Zug ist nicht möglich: ")
    assert "rolled" not in german and "rot" in german  # the engine's text, and the colour
    room.refresh_from_db()
    assert room.die != 7  # nothing was written


@pytest.mark.parametrize(
    ("language", "post", "refusal"),
    [
        ("de", {"rules": "chess"}, "diese Regeln sind auf dem Brett 4 nicht spielbar: &#x27;chess"),
        ("en", {"rules": "chess"}, "these rules cannot be played on board 4: &#x27;chess"),
        ("de", {"variant": "blitz"}, "es gibt keine Variante &#x27;blitz&#x27;"),
    ],
)
def test_rules_that_cannot_be_played_are_refused_in_the_pages_language(
    client, people, language, post, refusal
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(people[0])
    response = client.post("/live/", {"board": "4", "mode": "computer", **post})
    assert response.status_code == 400
    assert refusal in response.content.decode()


@pytest.mark.django_db
def test_a_stranger_opening_a_league_games_room_gets_the_results_refusal(scheduled):
    table = erin_against_carol()
    with pytest.raises(ServiceError) as caught:
        services.fixture_room_create(fixture=table["fixture"], by=make_user("stranger"))
    assert not table["fixture"].live_rooms.exists()
    assert caught.value.message  # the results' own wording (coded where they are)


@pytest.mark.django_db
def test_the_no_show_mail_is_in_its_readers_language(scheduled, django_capture_on_commit_callbacks):
    table = erin_against_carol()
    organizer, erin, carol = table["organizer"], table["erin"], table["carol"]
    AccountSettings.objects.update_or_create(user=carol, defaults={"language": "de"})
    room = services.fixture_room_create(fixture=table["fixture"], by=organizer)
    services.seat_take(room=room, by=erin, colour="black")
    absent = table["fixture"].seats.get(entry__player__name="carol").entry
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.fixture_no_show(room=room, by=organizer, absent=absent)
    told = {m.to[0]: m.body for m in mail.outbox}
    assert "Reason: did not come to the online game" in told[erin.email]
    german = told[carol.email]
    assert "Begründung: ist nicht zur Online-Partie gekommen" in german
    assert "did not come" not in german
