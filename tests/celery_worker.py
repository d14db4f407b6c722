"""A real Celery worker in a subprocess, for tests whose behaviour depends on the broker.

The worker runs ``celery -A config worker`` with the test settings, the Redis broker of
``TEST_CELERY_BROKER_URL`` and the *test* database (so it sees what the test committed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection
from kombu import pools

from config.celery_app import app as celery_app

REPO_ROOT = Path(__file__).resolve().parent.parent


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


class WorkerProcess:
    def __init__(self, *, concurrency: int = 1, log: Path | None = None) -> None:
        env = os.environ.copy()
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            TEST_CELERY_WORKER="1",
            TEST_CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL,
            DATABASE_URL=database_url_of_test_db(),
            PYTHONUNBUFFERED="1",
        )
        self.log_path = log or REPO_ROOT / "var" / "test-worker.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        cmd += ["-P", "solo"] if concurrency == 1 else ["-P", "prefork", "-c", str(concurrency)]
        self.process = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        from config.celery_app import ping

        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited early; see {self.log_path}")
            try:
                ping.apply_async(args=["ready"]).get(timeout=5)
                return
            except Exception:
                time.sleep(0.2)
        raise RuntimeError(f"celery worker not ready after {timeout}s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL the whole worker process group: no clean shutdown, no ack."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()
