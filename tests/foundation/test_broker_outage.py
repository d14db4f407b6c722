"""Broker outages never hold a request: with a broker that refuses connections, or one
that accepts them and never answers, a submission is stored and answered within a bounded
time (the publishing timeouts of config/settings/base.py), publishing works again once the
broker is back without restarting anything, and the standings catch-up finds the league
whose recompute was never published.

The bounds are generous on purpose: they check that the timeouts are configured at all
(without them a silent broker holds the request for minutes), not how fast anything is.
"""

from __future__ import annotations

import threading
import time
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from tests.builders import example_text
from tests.foundation.faults import SilentServer, celery_broker, refused_port
from tournaments.models import Result, StandingsSnapshot

SUBMISSION_BOUND = 10.0  # seconds
LOG = "valid-league-2tplus.json"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def test_redis():
    parts = urlsplit(settings.TEST_CELERY_BROKER_URL)
    return parts.hostname, parts.port or 6379, int(parts.path.strip("/") or 0)


@pytest.fixture
def silent(test_redis):
    server = SilentServer(upstream=test_redis[:2])
    yield server
    server.close()


def bounded(fn, limit: float):
    """Run ``fn`` in a thread; fail (instead of hanging the suite) if it takes three times
    ``limit``. Returns (value, seconds)."""
    outcome: dict = {}

    def run():
        started = time.monotonic()
        try:
            outcome["value"] = fn()
        except BaseException as exc:
            outcome["error"] = exc
        finally:
            outcome["seconds"] = time.monotonic() - started
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit * 3)
    assert not thread.is_alive(), f"still waiting after {limit * 3:.0f} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"], outcome["seconds"]


def submit(game):
    """The log upload of the API, as a client sends it; the standings task is published on
    commit, inside the request."""
    client = APIClient()
    client.force_authenticate(game["erin"])
    return client.post(
        f"/api/v1/fixtures/{game['fixture'].pk}/log/",
        example_text(LOG).encode(),
        content_type="application/json",
    )


def test_a_submission_answers_in_bounded_time_when_the_broker_never_replies(game, silent):
    with celery_broker(silent.url(path="/0")):
        response, seconds = bounded(lambda: submit(game), SUBMISSION_BOUND)
    assert response.status_code == 201, response.content
    assert seconds < SUBMISSION_BOUND
    assert Result.objects.filter(fixture=game["fixture"], state="confirmed").exists()
    assert not StandingsSnapshot.objects.filter(league=game["league"]).exists()


def test_a_submission_answers_in_bounded_time_when_the_broker_refuses(game):
    with celery_broker(f"redis://127.0.0.1:{refused_port()}/0"):
        response, seconds = bounded(lambda: submit(game), SUBMISSION_BOUND)
    assert response.status_code == 201, response.content
    assert seconds < SUBMISSION_BOUND
    assert Result.objects.filter(fixture=game["fixture"]).exists()


def test_publishing_recovers_when_the_outage_ends_and_catch_up_finds_the_league(
    game, silent, test_redis
):
    from tournaments.tasks import standings_catch_up

    host, port, db = test_redis
    queue = redis.Redis(host=host, port=port, db=db)
    queue.delete("celery")
    with celery_broker(silent.url(path=f"/{db}")):
        response, _ = bounded(lambda: submit(game), SUBMISSION_BOUND)
        assert response.status_code == 201
        assert queue.llen("celery") == 0  # nothing reached the broker
        silent.mode = "forward"  # the broker is back (same address, same process)
        # the periodic catch-up (run here in-process) finds the stale league and publishes
        stale, _ = bounded(lambda: standings_catch_up.apply().get(), SUBMISSION_BOUND)
    try:
        assert stale == [game["league"].pk]
        assert queue.llen("celery") == 1  # its recompute is queued for a worker
    finally:
        queue.delete("celery")


@pytest.mark.celery_worker
def test_a_worker_survives_an_outage_of_a_silent_broker(silent, settings):
    """The short socket timeouts apply to the workers too: a worker whose broker stops
    answering reconnects once it answers again, and consumes tasks as before."""
    from config.celery_app import ping
    from tests.celery_worker import WorkerProcess, use_real_broker

    silent.mode = "forward"
    db = urlsplit(settings.TEST_CELERY_BROKER_URL).path
    settings.TEST_CELERY_BROKER_URL = silent.url(path=db)
    with use_real_broker() as app:
        app.control.purge()
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            silent.mode = "silent"
            silent.drop()  # the broker restarts and hangs: connections cut, new ones unanswered
            time.sleep(6)
            assert worker.process.poll() is None, "the worker exited during the outage"
            silent.mode = "forward"
            silent.drop()
            started = time.monotonic()
            worker.wait_ready(timeout=90)  # a ping round trip through the worker
            print(f"worker back {time.monotonic() - started:.1f} s after the broker")
            assert ping.delay("after").get(timeout=30)["pong"] == "after"
        finally:
            worker.stop()
