"""A finished online room's log (a friendly game, no league) gets its analysis queued, and
the room's replay shows it once it is done (the real engine: a short first-capture game)."""

from __future__ import annotations

import pytest

from games.analysis import analysis_run
from games.models import GameAnalysis
from live import services
from live.models import Room
from tests.live.conftest import drive

pytestmark = pytest.mark.django_db


def test_a_finished_room_is_analysed_and_its_replay_shows_it(
    client,
    people,
    analyses_on,
    django_capture_on_commit_callbacks,
):
    room = services.room_create(host=people[0], variant="first-capture")
    services.room_start(room=room, by=people[0])
    drive(room)
    with django_capture_on_commit_callbacks(execute=True):
        services.room_finish(room_id=room.pk)
    room = Room.objects.get(pk=room.pk)
    row = GameAnalysis.objects.get()
    assert row.log_id == room.game_log_id and row.status == "queued"
    assert 'id="analysis-data"' not in client.get(f"/live/{room.token}/replay/").text
    analysis_run(row.pk)
    html = client.get(f"/live/{room.token}/replay/").text
    assert 'id="analysis-data"' in html and "data-graph" in html
