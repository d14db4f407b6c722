"""A Redis outage degrades the site instead of failing it (issue 22 point 11).

Redis is the cache (throttle counters, the standings page cache) and the broker, as the
README sets them up. With a Redis of this test's own that it stops (connections refused),
and with one that accepts connections and never answers (a hung host), log-in, upload and
the standings page still answer 2xx/3xx: the cache's calls give up after a short timeout,
the outage is logged once, throttles count in this process meanwhile, the page is rendered
instead of cached, and the upload is stored (its tasks are caught up later). When Redis is
back the shared cache is used again without a restart.

The time ceilings are generous on purpose: they prove that a bound exists (before, a hung
Redis held every cache call 5 s and a publish 4 s per task), not how fast anything is.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import subprocess
import sys
import time

import pytest
import redis
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.builders import PASSWORD
from tests.examples import example_text
from tests.foundation.faults import SilentServer, celery_broker, refused_port
from tests.foundation.test_broker_outage import LOG, bounded
from tests.foundation.test_healthz import HEALTHZ_BOUND, REPO_ROOT
from tests.processes import Gunicorn, OwnRedis
from tournaments.models import Result
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db(transaction=True)

#: seconds: a request while Redis refuses (no timeout is waited for at all)
REFUSED_BOUND = 5.0
#: seconds: log-in or a page while Redis hangs (at most one 0.5 s cache timeout)
HUNG_BOUND = 4.0
#: seconds: an upload while Redis hangs (one 2 s publish timeout and one cache timeout;
#: 8.6-9 s before: two publishes, each waiting for the broker and the result store)
HUNG_UPLOAD_BOUND = 6.0


def resilient_cache(url: str, retry_seconds: float = 5.0) -> dict:
    from django.conf import settings

    return {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "socket_connect_timeout": settings.CACHE_IO_TIMEOUT,
                "socket_timeout": settings.CACHE_IO_TIMEOUT,
                "RETRY_SECONDS": retry_seconds,
            },
        }
    }


@pytest.fixture
def own_redis():
    server = OwnRedis().start()
    yield server
    server.stop()


@pytest.fixture
def hung():
    server = SilentServer()
    yield server
    server.close()


def standings_url(game) -> str:
    return f"/leagues/{game['league'].slug}/standings/"


def log_in(username: str):
    return Client().post("/accounts/login/", {"username": username, "password": PASSWORD})


def upload(game):
    client = APIClient()
    client.force_authenticate(game["erin"])
    return client.post(
        f"/api/v1/fixtures/{game['fixture'].pk}/log/",
        example_text(LOG).encode(),
        content_type="application/json",
    )


def cache_records(caplog, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "config.cache" and r.levelno == level]


def test_log_in_upload_and_standings_work_while_redis_is_stopped(game, own_redis, caplog):
    standings_recompute(game["league"].pk)  # a snapshot: the page is cacheable
    shared = redis.Redis.from_url(own_redis.url())
    cache = override_settings(CACHES=resilient_cache(own_redis.url(), retry_seconds=0.2))
    with cache, celery_broker(own_redis.url(1)):
        page, _ = bounded(lambda: Client().get(standings_url(game)), REFUSED_BOUND)
        assert page.status_code == 200
        assert shared.keys("*standings-page*"), "the page is cached in Redis while it is up"

        own_redis.stop()
        for _ in range(3):
            page, _ = bounded(lambda: Client().get(standings_url(game)), REFUSED_BOUND)
            assert page.status_code == 200
            assert b"erin" in page.content or b"Erin" in page.content
        response, _ = bounded(lambda: log_in("erin_u"), REFUSED_BOUND)
        assert response.status_code == 302, "logged in"
        response, _ = bounded(lambda: upload(game), REFUSED_BOUND)
        assert response.status_code == 201, response.content
        assert Result.objects.filter(fixture=game["fixture"]).exists()
        assert len(cache_records(caplog, logging.ERROR)) == 1, "logged once per outage"
        assert not cache_records(caplog, logging.WARNING)

        own_redis.start()  # the outage ends: same address, nothing restarted here
        time.sleep(0.3)  # past the retry interval
        response, _ = bounded(lambda: log_in("carol_u"), REFUSED_BOUND)
        assert response.status_code == 302
        assert shared.keys("*throttle*"), "throttles count in Redis again"
        assert len(cache_records(caplog, logging.WARNING)) == 1, "the end is logged"
        assert len(cache_records(caplog, logging.ERROR)) == 1


def test_throttles_count_in_the_process_while_redis_is_stopped(game, own_redis):
    """During the outage the log-in limit still holds (per process), it is not lifted."""
    rates = {"login": "3/min", "login_account": "3/min"}
    own_redis.stop()
    with (
        override_settings(CACHES=resilient_cache(own_redis.url())),
        override_settings(REST_FRAMEWORK={"DEFAULT_THROTTLE_RATES": rates, "NUM_PROXIES": 0}),
    ):
        client = Client()
        codes = [
            client.post("/accounts/login/", {"username": "erin_u", "password": "wrong"}).status_code
            for _ in range(4)
        ]
    assert codes == [200, 200, 200, 429]


def test_the_fallback_counters_are_bounded(own_redis):
    """Only small values (counters, throttle histories) are kept in the process during an
    outage, and only so many of them: a page is not, it is rendered each time."""
    from django.core.cache import caches

    own_redis.stop()
    params = resilient_cache(own_redis.url())
    params["default"]["OPTIONS"].update(FALLBACK_ENTRIES=50, FALLBACK_MAX_BYTES=1024)
    with override_settings(CACHES=params):
        cache = caches["default"]
        cache.set("history", [time.time()] * 20)
        assert len(cache.get("history")) == 20
        cache.set("page", "x" * 5000)
        assert cache.get("page") is None
        for n in range(500):
            cache.set(f"counter-{n}", n)
        kept = sum(cache.get(f"counter-{n}") is not None for n in range(500))
        assert 0 < kept <= 50


def test_a_hung_redis_costs_one_timeout_per_retry_interval_not_one_per_call(hung):
    """During an outage the calls do not go to Redis: only the first after each
    ``RETRY_SECONDS`` tries again (and waits for its timeout)."""
    from django.core.cache import caches

    with override_settings(CACHES=resilient_cache(hung.url(), retry_seconds=1.0)):
        cache = caches["default"]
        assert cache.get("a", "miss") == "miss"  # waited for the timeout: the outage starts
        assert not cache.available
        tried = len(hung._sockets)
        assert tried >= 1
        for n in range(20):
            cache.set(f"k{n}", n)
            assert cache.get(f"k{n}") == n  # from the process's own memory
        assert len(hung._sockets) == tried, "no call went to Redis within the interval"
        assert cache.outage.skipped == 40
        time.sleep(1.1)
        cache.get("a")  # the interval is over: this one tries Redis again
        assert cache.outage.skipped == 40
        assert len(hung._sockets) > tried
        assert not cache.available


def test_log_in_upload_and_standings_answer_in_bounded_time_while_redis_hangs(game, hung, caplog):
    """A Redis host that accepts connections and never answers: cache and broker."""
    standings_recompute(game["league"].pk)
    with override_settings(CACHES=resilient_cache(hung.url())), celery_broker(hung.url()):
        response, seconds = bounded(lambda: log_in("erin_u"), HUNG_BOUND)
        print(f"hung Redis: log-in {seconds:.2f} s", end="")
        assert response.status_code == 302
        assert seconds < HUNG_BOUND
        page, seconds = bounded(lambda: Client().get(standings_url(game)), HUNG_BOUND)
        print(f", standings page {seconds:.2f} s", end="")
        assert page.status_code == 200
        assert seconds < HUNG_BOUND
        response, seconds = bounded(lambda: upload(game), HUNG_UPLOAD_BOUND)
        print(f", upload {seconds:.2f} s")
        assert response.status_code == 201, response.content
        assert seconds < HUNG_UPLOAD_BOUND
    assert Result.objects.filter(fixture=game["fixture"]).exists()
    assert len(cache_records(caplog, logging.ERROR)) == 1
    failed_publishes = [r for r in caplog.records if "could not send" in r.getMessage()]
    # the standings recompute waited for the broker; the ratings update was not even tried
    assert len(failed_publishes) == 1, [r.getMessage() for r in failed_publishes]


def test_a_web_process_loads_its_url_configuration_before_its_first_request():
    """Otherwise the first request imports every view module (about a second here) before
    /healthz even starts its probes, and answers late (2.8-3.0 s against 1.5 s)."""
    code = "import sys, config.wsgi; print('tournaments.web.leagues' in sys.modules)"
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.test")
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.strip() == "True", out.stderr[-2000:]


def test_healthz_answers_in_time_on_the_first_call_of_a_fresh_process_while_redis_hangs(
    hung, tmp_path
):
    """gunicorn with DEBUG off, cache and broker on a Redis host that never answers: the
    first /healthz of a freshly booted worker answers within the deadline (plus margin)."""
    from tests.celery_worker import database_url_of_test_db

    booted = tmp_path / "booted"
    conf = tmp_path / "gunicorn.conf.py"
    conf.write_text(f"def post_worker_init(worker):\n    open({str(booted)!r}, 'w').close()\n")
    port = refused_port()
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        SECRET_KEY="healthz-test-" + "k" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        EMAIL_BACKEND="console",
        ALLOW_PLAIN_HTTP="1",
        DATABASE_URL=database_url_of_test_db(),
        CACHE_URL=hung.url(),
        CELERY_BROKER_URL=hung.url(),
        STATIC_ROOT=str(tmp_path / "static"),
        LOG_LEVEL="ERROR",
    )
    server = Gunicorn(env, port=port, workers=1, config=conf)
    try:
        deadline = time.monotonic() + 120
        while not booted.exists():
            assert server.process.poll() is None, f"gunicorn exited; see {server.log_path}"
            assert time.monotonic() < deadline, "the worker did not boot"
            time.sleep(0.1)
        for call in ("first", "second"):
            started = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HEALTHZ_BOUND * 3)
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            body = json.loads(response.read())
            seconds = time.monotonic() - started
            conn.close()
            print(f"/healthz {call} call: {seconds:.2f} s")
            assert response.status == 503
            assert body["cache"]["ok"] is False and body["broker"]["ok"] is False
            assert body["database"] == {"ok": True}
            assert seconds < HEALTHZ_BOUND
    finally:
        server.stop()
