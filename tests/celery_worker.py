"""A real Celery worker in a subprocess, for tests whose behaviour depends on the broker.

The worker runs ``celery -A config worker`` with the test settings, the Redis broker of
``TEST_CELERY_BROKER_URL`` and the *test* database (so it sees what the test committed).
Under pytest-xdist each test process has its own test database (pytest-django adds the
``gwN`` suffix) and its own Redis database for the broker (:func:`broker_url_for_worker`),
so the workers of two test processes never take each other's tasks.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import connection
from kombu import pools

from config.celery_app import app as celery_app
from tests.processes import REPO_ROOT, CeleryWorker

REDIS_DATABASES = 16  # Redis's default ``databases`` setting


def xdist_worker_index() -> int | None:
    """0, 1, … in a pytest-xdist worker process (``gw0``, ``gw1``, …); None otherwise."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else None


def broker_url_for_worker(url: str, index: int | None, databases: str = "") -> str:
    """The broker of xdist worker ``index``. For Redis: the ``index``-th of ``databases``
    (comma-separated Redis database numbers, ``TEST_CELERY_BROKER_DBS``) if given, else
    database ``N - index`` (wrapping below 0) of the URL's database ``N``; so ``/15`` gives
    gw0 15, gw1 14, … A run without xdist and other transports keep the URL as it is."""
    parts = urlsplit(url)
    if index is None or parts.scheme not in {"redis", "rediss"}:
        return url
    chosen = [int(n) for n in databases.split(",") if n.strip()]
    if chosen:
        if index >= len(chosen):
            raise RuntimeError(
                f"TEST_CELERY_BROKER_DBS={databases!r} names {len(chosen)} Redis databases "
                f"but xdist worker gw{index} needs one: list one per test process"
            )
        db = chosen[index]
    else:
        db = (int(parts.path.strip("/") or 0) - index) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{db}"))


def database_url_of_test_db() -> str:
    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        raise RuntimeError("the real-worker tests need PostgreSQL (set DATABASE_URL)")
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{s['NAME']}"


@contextmanager
def use_real_broker():
    """Point this process's Celery app at the test broker (not eager) for the duration."""
    url = settings.TEST_CELERY_BROKER_URL
    saved = {
        key: celery_app.conf.get(key)
        for key in ("broker_url", "result_backend", "task_always_eager")
    }
    celery_app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    _reset_app_connections()
    try:
        yield celery_app
    finally:
        celery_app.conf.update(saved)
        _reset_app_connections()


def _reset_app_connections() -> None:
    pools.reset()  # kombu's process-wide producer pools, keyed by broker connection
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app._local.__dict__.pop("backend", None)
    celery_app.__dict__.pop("backend_cls", None)


class WorkerProcess(CeleryWorker):
    """``celery -A config worker`` on the test broker and the test database."""

    def __init__(self, *, concurrency: int = 1, log: Path | None = None) -> None:
        env = os.environ.copy()
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            TEST_CELERY_WORKER="1",
            TEST_CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL,
            DATABASE_URL=database_url_of_test_db(),
            PYTHONUNBUFFERED="1",
        )
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        name = f"test-worker-{worker}.log" if worker else "test-worker.log"
        super().__init__(
            env,
            log_path=log or REPO_ROOT / "var" / name,
            concurrency=concurrency,
            loglevel="info",
            # the default queue and the move analyses' own (CELERY_TASK_ROUTES)
            queues=["celery", settings.ANALYSIS_QUEUE],
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        from config.celery_app import ping

        def answers() -> bool:
            ping.apply_async(args=["ready"]).get(timeout=5)  # raises until a worker answers
            return True

        self.wait_until(answers, timeout, 0.2)
