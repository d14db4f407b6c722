"""What one ``/replay/`` request may cost, signed in or not (issue 22, point 5): the
validator checks every event of a pasted log, but the page draws at most
``REPLAY_PAGE_MAX_EVENTS`` of them and says so, and a large log is not echoed back. A valid
49,999-event log (every roll a 1, every pawn in the yard) once cost 12–17 s and 9.3 MB of
page."""

from __future__ import annotations

import json
import re

import pytest

from games.engine.board import DEFAULT_COLOURS
from tests.builders import example_text

pytestmark = pytest.mark.django_db


def stuck_log(events: int) -> str:
    """A valid log of ``events`` rolls of 1: every colour stays in its yard, three tries
    each, round after round (game-log.md allows up to 50,000 events)."""
    colours = list(DEFAULT_COLOURS[4])
    rolls = [{"colour": colours[(i // 3) % 4], "die": 1} for i in range(events)]
    log = {"format": "maedn-log/1", "rules": "league", "first": colours[0], "events": rolls}
    return json.dumps(log)


def replay_of(response) -> dict:
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found, "the page has no replay data"
    return json.loads(found.group(1))


@pytest.fixture
def signed_in(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("replayer"))
    return client


def test_a_huge_valid_log_is_checked_whole_and_drawn_up_to_the_cap(signed_in, settings):
    text = stuck_log(49_999)
    assert len(text) > 1_000_000
    response = signed_in.post("/replay/", {"content": text})
    assert response.status_code == 200
    page = response.content.decode()
    assert len(replay_of(response)["steps"]) == settings.REPLAY_PAGE_MAX_EVENTS == 3000
    assert 'id="replay-cut"' in page and "49,999" in page and "3,000" in page
    assert len(response.content) < 1_000_000  # was 9.3 MB
    assert 'id="not-echoed"' in page and text[:200] not in page  # not sent back


def test_a_log_under_the_cap_is_drawn_whole(signed_in, settings):
    settings.REPLAY_PAGE_MAX_EVENTS = 2000
    text = example_text("valid-league-3tplus-board6.json")  # 1,604 events
    response = signed_in.post("/replay/", {"content": text})
    assert len(replay_of(response)["steps"]) == 1604
    page = response.content.decode()
    assert 'id="replay-cut"' not in page and 'id="not-echoed"' not in page
    settings.REPLAY_PAGE_MAX_EVENTS = 100
    response = signed_in.post("/replay/", {"content": text})
    assert len(replay_of(response)["steps"]) == 100
    assert "first 100" in response.content.decode()


def test_the_cap_binds_visitors_too(client, settings):
    settings.REPLAY_PAGE_MAX_EVENTS = 60
    response = client.post("/replay/", {"content": stuck_log(300)})
    assert response.status_code == 200 and len(replay_of(response)["steps"]) == 60


def test_a_refused_event_beyond_the_cap_is_named_without_a_replay(signed_in, settings):
    settings.REPLAY_PAGE_MAX_EVENTS = 500
    log = json.loads(stuck_log(2000))
    log["events"][1500]["die"] = 7
    response = signed_in.post("/replay/", {"content": json.dumps(log)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "(event 1501)" in page and 'id="replay-data"' not in page
    log["events"][1500]["die"] = 1
    log["events"][300]["die"] = 7  # within the cap: the position before it is drawn
    response = signed_in.post("/replay/", {"content": json.dumps(log)})
    assert len(replay_of(response)["steps"]) == 300


def test_the_notice_in_german(signed_in, settings):
    settings.REPLAY_PAGE_MAX_EVENTS = 100
    response = signed_in.post("/replay/", {"content": stuck_log(1234)}, HTTP_ACCEPT_LANGUAGE="de")
    page = response.content.decode()
    assert "1.234" in page and "die ersten 100" in page, page[page.find("replay-cut") :][:400]


# --- h-trust: a flood of replays from several accounts (issue 32 point 10) ---------------


def test_replays_beyond_the_sites_slots_are_answered_at_once_and_the_slot_is_freed(
    signed_in, settings
):
    """Eight clients of four accounts kept both web workers busy with replays (a visitor's
    p50 3 s): at most ``REPLAY_CONCURRENT`` replays run at once on the site; another is
    answered 503 with ``Retry-After`` at once, in the reader's language, and nothing of
    its log is checked."""
    from django.core.cache import cache

    settings.REPLAY_CONCURRENT = 1
    text = stuck_log(300)
    assert signed_in.post("/replay/", {"content": text}).status_code == 200
    # the slot was given back: the next one is served too
    assert signed_in.post("/replay/", {"content": text}).status_code == 200
    assert cache.add("replay-slot:0", "another worker's", timeout=30)  # one replay running
    try:
        busy = signed_in.post("/replay/", {"content": text})
        assert busy.status_code == 503 and busy["Retry-After"] == "5"
        assert "try again in a few seconds" in busy.content.decode()
        assert 'id="replay-data"' not in busy.content.decode()
        signed_in.cookies["django_language"] = "de"
        german = signed_in.post("/replay/", {"content": text}).content.decode()
        assert "versuch es in ein paar Sekunden noch einmal" in german
        settings.REPLAY_CONCURRENT = 2  # a second slot is free
        assert signed_in.post("/replay/", {"content": text}).status_code == 200
        assert cache.get("replay-slot:1") is None  # given back
        settings.REPLAY_CONCURRENT = 0  # no bound
        assert signed_in.post("/replay/", {"content": text}).status_code == 200
    finally:
        cache.delete("replay-slot:0")
    assert cache.get("replay-slot:0") is None


def test_a_refused_log_gives_its_slot_back_too(signed_in, settings):
    from django.core.cache import cache

    settings.REPLAY_CONCURRENT = 1
    refused = signed_in.post("/replay/", {"content": '{"format": "maedn-log/1", "events": 3}'})
    assert refused.status_code == 400
    assert cache.get("replay-slot:0") is None


def test_a_flood_is_refused_before_its_body_is_read(signed_in, settings):
    """While every slot is taken, a POST to /replay/ is answered before the CSRF check
    parses its body (a refusal then costs a worker almost nothing); a wrong token is not
    even looked at, other pages and other posts are untouched."""
    from django.core.cache import cache
    from django.test import Client

    settings.REPLAY_CONCURRENT = 1
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = signed_in.cookies
    assert cache.add("replay-slot:0", "another worker's", timeout=30)
    try:
        busy = strict.post("/replay/", {"content": stuck_log(300)})
        assert busy.status_code == 503 and busy["Retry-After"] == "5"  # not 403 (CSRF)
        assert busy["Content-Type"].startswith("text/plain")
        assert "try again in a few seconds" in busy.content.decode()
        assert strict.get("/replay/").status_code == 200  # the page itself is shown
        assert strict.post("/accounts/login/", {}).status_code == 403  # other posts: CSRF
    finally:
        cache.delete("replay-slot:0")
    # a free slot: the CSRF check applies again
    assert strict.post("/replay/", {"content": stuck_log(300)}).status_code == 403
