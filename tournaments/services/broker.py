"""A short memory of broker outages, shared by the services that publish tasks on commit.

Every publish that fails during an outage costs the request its broker timeouts
(``CELERY_IO_TIMEOUT``). The standings, ratings and notifications record a failed publish
here; optional work (the move analyses) is not even tried while the last failure is recent,
so an outage adds no timeout of its own to a confirmation. The catch-up tasks send what was
skipped once the broker answers again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app

logger = logging.getLogger(__name__)

#: how long after a failed publish optional tasks are not sent (seconds)
OUTAGE_MEMORY = 30.0

_last_failure = 0.0


def publish_failed() -> None:
    """A publish just failed (the broker is down or silent)."""
    global _last_failure
    _last_failure = time.monotonic()


def publish_succeeded() -> None:
    """A publish went through: the broker is back."""
    global _last_failure
    _last_failure = 0.0


def broker_recently_down() -> bool:
    """Whether a publish failed within the last ``OUTAGE_MEMORY`` seconds."""
    return bool(_last_failure) and time.monotonic() - _last_failure < OUTAGE_MEMORY


def task_send(name: str, args: tuple[Any, ...] = (), *, optional: bool = False) -> bool:
    """Send the task ``name`` (by name: services never import tasks) and remember how the
    broker answered. Never raises: a broker outage must not fail the request, the task's
    catch-up sends it later. ``optional`` work is not tried in-process (eager Celery) or
    while the broker failed a moment ago. Returns whether it was sent."""
    if optional and (current_app.conf.task_always_eager or broker_recently_down()):
        return False
    try:
        current_app.signature(name, args=args).apply_async()
    except Exception:  # the broker is down or silent: the catch-up will pick it up
        publish_failed()
        logger.warning("could not send %s%r; its catch-up task will", name, args)
        return False
    publish_succeeded()
    return True
