from __future__ import annotations

import pytest

from tests.celery_worker import WorkerProcess, use_real_broker


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker (subprocess) consuming the Redis test broker, and this process's
    Celery app switched to that broker. Tests using it see committed data only, hence the
    transactional database."""
    with use_real_broker() as app:
        app.control.purge()
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            yield worker
        finally:
            worker.stop()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Pages cache rendered HTML per snapshot: every test starts with an empty cache."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
