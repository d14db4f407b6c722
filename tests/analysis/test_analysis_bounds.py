"""The bounds on one analysis (issue #37): a log over ``ANALYSIS_MAX_EVENTS`` is never
queued and the game page says at once that it is too long to analyse; an analysis stopped
by the engine's CPU deadline or the task's soft time limit is marked the same way; the
task has explicit time limits and its own queue, apart from the standings."""

from __future__ import annotations

import pytest
from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.urls import reverse

from games import analysis as service
from games.engine.analysis import AnalysisTooLong
from games.models import GameAnalysis
from tests.analysis.conftest import LOG
from tests.builders import example_text
from tournaments.services.results import game_log_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(table):
    return game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])


def game_page(client, table, **headers):
    return client.get(reverse("tournaments:game", args=[table["fixture"].pk]), **headers)


def test_a_log_over_the_event_cap_is_never_queued_and_the_page_says_why(
    client, table, counted, settings
):
    settings.ANALYSIS_MAX_EVENTS = counted.game_log.events - 1
    row, created = service.analysis_request(counted.game_log)
    assert created and row.status == "failed" and service.too_long(row)
    assert f"{counted.game_log.events} events" in row.error
    html = game_page(client, table).text
    assert 'id="analysis-too-long"' in html and "too long to analyse" in html
    assert 'id="analysis-pending"' not in html and 'id="analysis-unavailable"' not in html
    german = game_page(client, table, HTTP_ACCEPT_LANGUAGE="de").text
    assert "zu lang" in german


def test_at_the_cap_the_log_is_queued(counted, settings):
    settings.ANALYSIS_MAX_EVENTS = counted.game_log.events
    row, _ = service.analysis_request(counted.game_log)
    assert row.status == "queued" and not service.too_long(row)


@pytest.mark.parametrize(
    "stop",
    [AnalysisTooLong("time", 120, 60.0), SoftTimeLimitExceeded()],
    ids=["engine deadline", "task soft time limit"],
)
def test_an_analysis_stopped_by_a_limit_is_marked_too_long(
    client, table, counted, monkeypatch, stop
):
    seen = {}

    def stopped(log, **kwargs):
        seen.update(kwargs)
        raise stop

    monkeypatch.setattr(service, "analyse", stopped)
    row, _ = service.analysis_request(counted.game_log)
    outcome = service.analysis_run(row.pk)
    row.refresh_from_db()
    assert outcome["status"] == row.status == "failed" and service.too_long(row)
    assert row.claim == "" and row.finished_at is not None
    assert seen["max_events"] > 0 and seen["max_cpu_seconds"] > 0  # the engine was bounded
    assert 'id="analysis-too-long"' in game_page(client, table).text


def test_an_ordinary_failure_is_not_called_too_long(counted):
    row, _ = service.analysis_request(counted.game_log)
    GameAnalysis.objects.filter(pk=row.pk).update(status="failed", error="ValueError: bad")
    row.refresh_from_db()
    assert not service.too_long(row)


def test_the_analysis_task_has_explicit_limits_and_its_own_queue(settings):
    from games.tasks import analyse

    assert analyse.soft_time_limit == settings.ANALYSIS_SOFT_TIME_LIMIT > 0
    assert analyse.time_limit == settings.ANALYSIS_TIME_LIMIT > analyse.soft_time_limit
    router = current_app.amqp.router
    assert router.route({}, "games.analyse")["queue"].name == settings.ANALYSIS_QUEUE
    for standings in ("tournaments.recompute_standings", "tournaments.standings_catch_up"):
        queue = router.route({}, standings)["queue"].name
        assert queue == current_app.conf.task_default_queue != settings.ANALYSIS_QUEUE
