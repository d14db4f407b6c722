"""The Celery application: configured from Django settings (``CELERY_`` namespace), with
tasks autodiscovered in every installed app's ``tasks.py``.

Start a worker with ``celery -A config worker -l info``; without ``CELERY_BROKER_URL`` every
task runs in-process (eager), so the embedded default needs no services.
"""

import os

from celery import Celery, signals

from config.expected_errors import install_on
from config.kombu_redis import patch_redis_restore

patch_redis_restore()  # a worker holding countdown tasks survives a Redis restart
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("maedn")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def _one_line_outages(logger=None, **kwargs) -> None:
    """An outage of Redis or the broker is one log line, not a traceback
    (config/expected_errors.py), on the handlers Celery sets up in a worker too."""

    if logger is not None:
        install_on(logger)


@app.task(name="maedn.ping")
def ping(value: str = "ping") -> dict:
    """A trivial round trip: proves that a worker consumed the broker and stored a result."""
    return {"pong": value, "pid": os.getpid()}
