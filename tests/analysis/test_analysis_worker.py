"""Move analyses through the real Redis broker and a real Celery worker process (the real
engine and the shipped evaluator): a confirmed result's log is analysed and stored by the worker on
the analysis queue; sending the task again stores nothing more; a corrected log is
analysed again."""

from __future__ import annotations

import time

import pytest

from games.models import GameAnalysis
from games.tasks import analyse
from tests.analysis.conftest import LOG, corrected_log
from tests.builders import example_text
from tournaments.services.results import game_log_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def wait_done(log_id, timeout=120.0) -> GameAnalysis:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = GameAnalysis.objects.filter(log_id=log_id).first()
        if row is not None and row.status in ("done", "failed"):
            return row
        time.sleep(0.2)
    raise AssertionError(f"log {log_id} not analysed within {timeout} s")


def test_a_counted_log_is_analysed_once_by_the_worker_and_again_when_corrected(
    table, celery_worker, settings
):
    settings.ANALYSIS_ENABLED = True
    result = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    row = wait_done(result.game_log_id)
    assert row.status == "done", row.error
    assert row.data["format"] == row.format and row.data["plies"] == 1
    assert set(row.data["players"]) == {"erin", "carol"}
    assert row.data["decisions"]  # a real game has choices
    finished = row.finished_at

    again = analyse.delay(row.pk).get(timeout=60)  # a duplicate message
    assert again == {"analysis": row.pk, "status": "done", "stored": False}
    row.refresh_from_db()
    assert row.finished_at == finished
    assert GameAnalysis.objects.count() == 1

    corrected = game_log_submit(
        fixture=table["fixture"], content=corrected_log(), by=table["organizer"]
    )
    assert corrected.game_log_id != result.game_log_id
    new = wait_done(corrected.game_log_id)
    assert new.status == "done" and new.pk != row.pk
    assert GameAnalysis.objects.count() == 2
