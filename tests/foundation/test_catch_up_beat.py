"""The standings safety net through the real scheduler: ``celery beat`` (catch-up every
second here, every 60 s by default) and a real worker repair a league whose recompute was
never published, with nobody calling the catch-up task."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.builders import example_text
from tests.celery_worker import WorkerProcess, database_url_of_test_db, use_real_broker
from tests.foundation.faults import celery_broker, refused_port
from tests.processes import REPO_ROOT, CeleryBeat
from tournaments.models import StandingsSnapshot
from tournaments.services.results import game_log_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def start_beat(schedule: Path, interval: str) -> CeleryBeat:
    env = os.environ.copy()
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        TEST_CELERY_WORKER="1",  # the test broker, as the worker
        TEST_CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL,
        DATABASE_URL=database_url_of_test_db(),
        STANDINGS_CATCH_UP_SECONDS=interval,
    )
    return CeleryBeat(env, schedule=schedule, log_path=REPO_ROOT / "var" / "test-beat.log")


def test_beat_and_a_worker_repair_a_league_whose_recompute_was_never_published(game, tmp_path):
    league = game["league"]
    with celery_broker(f"redis://127.0.0.1:{refused_port()}/0"):  # the broker is down
        result = game_log_submit(
            fixture=game["fixture"],
            content=example_text("valid-league-2tplus.json"),
            by=game["erin"],
        )
    assert result.state == "confirmed"
    assert not StandingsSnapshot.objects.filter(league=league).exists()

    with use_real_broker() as app:  # the broker is back; nobody calls the catch-up
        app.control.purge()
        worker = WorkerProcess()
        beat = None
        try:
            worker.wait_ready()
            beat = start_beat(tmp_path / "celerybeat-schedule", "1")
            deadline = time.monotonic() + 30
            while not StandingsSnapshot.objects.filter(league=league).exists():
                assert beat.process.poll() is None, "celery beat exited; see var/test-beat.log"
                assert time.monotonic() < deadline, "no snapshot 30 s after beat started"
                time.sleep(0.2)
        finally:
            if beat is not None:
                beat.stop()
            worker.stop()
    snapshot = StandingsSnapshot.objects.get(league=league)
    assert snapshot.results_revision == 1
    assert snapshot.rows.filter(wins=1).count() == 1
