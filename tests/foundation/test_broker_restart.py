"""A Celery worker survives its Redis broker restarting while it holds tasks with a
countdown (issue 23): kombu's Redis transport used to kill such a worker (with its beat)
on the lost connection — ``config/kombu_redis.py`` has the story and the workaround. The
Redis is the test's own, on a free port; only the processes this test started are killed."""

from __future__ import annotations

import time

import pytest
import redis as redis_client

from tests.processes import RedisServer

pytestmark = pytest.mark.celery_worker


def test_a_worker_holding_countdown_tasks_survives_a_redis_restart(settings):
    from config.celery_app import ping
    from tests.celery_worker import WorkerProcess, use_real_broker

    server = RedisServer().wait_ready()
    settings.TEST_CELERY_BROKER_URL = server.url(0)
    try:
        with use_real_broker():
            worker = WorkerProcess()
            try:
                worker.wait_ready()
                # the worker takes these at once and holds them, unacknowledged, until due —
                # as it holds live play's turn timers; meanwhile it waits for messages
                for n in range(3):
                    ping.apply_async(args=[f"later {n}"], countdown=600)
                unacked = redis_client.Redis.from_url(server.url(0))
                worker.wait_until(lambda: unacked.hlen("unacked") == 3, 30, 0.1)
                unacked.close()
                time.sleep(0.5)  # the worker is back in its wait for messages

                server.kill()  # a crash: every connection cut, every message gone
                server = RedisServer(server.port).wait_ready()

                worker.wait_ready(timeout=90)  # a ping round trip through the same worker
                assert worker.process.poll() is None
            finally:
                worker.stop()
    finally:
        server.stop()
