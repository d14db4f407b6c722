"""A task sent through the real Redis broker is executed by a real worker process."""

import os

import pytest

from config.celery_app import ping


@pytest.mark.celery_worker
def test_ping_task_round_trip_through_redis(celery_worker):
    result = ping.delay("hello")
    value = result.get(timeout=30)
    assert value["pong"] == "hello"
    assert value["pid"] == celery_worker.process.pid  # executed by the worker, not in-process
    assert value["pid"] != os.getpid()


def test_without_a_broker_tasks_run_eagerly_in_process():
    result = ping.delay("local")
    assert result.get(timeout=1) == {"pong": "local", "pid": os.getpid()}
