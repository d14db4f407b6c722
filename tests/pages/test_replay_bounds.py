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
