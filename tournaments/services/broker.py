"""A short memory of broker outages, shared by the services that publish tasks on commit.

Every publish that fails during an outage costs the request its broker timeouts
(``CELERY_IO_TIMEOUT``). The standings, ratings and notifications record a failed publish
here; optional work (the move analyses) is not even tried while the last failure is recent,
so an outage adds no timeout of its own to a confirmation. Nothing at all is sent for
``PUBLISH_PAUSE`` seconds after a failure: a request that would send several tasks (an
upload sends the standings recompute and the ratings update) pays one broker timeout, not
one per task. The catch-up tasks send what was skipped once the broker answers again.

Tasks are sent with ``ignore_result``: nobody waits for them, so the web process does not
subscribe to their results in the result store (during an outage that subscription cost a
second timeout of its own).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app

logger = logging.getLogger(__name__)

#: how long after a failed publish optional tasks are not sent (seconds)
OUTAGE_MEMORY = 30.0
#: how long after a failed publish no task is sent (seconds)
PUBLISH_PAUSE = 5.0

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


def broker_paused() -> bool:
    """Whether a publish failed within the last ``PUBLISH_PAUSE`` seconds: then nothing is
    sent (each try would cost the request another broker timeout). Never in-process."""
    if current_app.conf.task_always_eager:
        return False
    return bool(_last_failure) and time.monotonic() - _last_failure < PUBLISH_PAUSE


def task_send(name: str, args: tuple[Any, ...] = (), *, optional: bool = False) -> bool:
    """Send the task ``name`` (by name: services never import tasks) and remember how the
    broker answered. Never raises: a broker outage must not fail the request, the task's
    catch-up sends it later. Nothing is tried within ``PUBLISH_PAUSE`` of a failure, and
    ``optional`` work neither in-process (eager Celery) nor within ``OUTAGE_MEMORY``.
    Returns whether it was sent."""
    if optional and (current_app.conf.task_always_eager or broker_recently_down()):
        return False
    if broker_paused():
        logger.info("not sending %s%r: the broker just failed; its catch-up will", name, args)
        return False
    try:
        current_app.signature(name, args=args).apply_async(ignore_result=True)
    except Exception as exc:  # the broker is down or silent: the catch-up will pick it up
        publish_failed()
        logger.warning("could not send %s%r (%r); its catch-up task will", name, args, exc)
        return False
    publish_succeeded()
    return True
